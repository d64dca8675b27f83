//! Canonical request → Messages request.

use serde_json::{Value, json};
use tackle_core::ModelProfile;
use tackle_core::{AssistantPart, AssistantTurn, Message, ModelRequest, ToolArguments, ToolChoice, UserPart};

use super::wire::{Block, Built, ImageSource, MessagesRequest, ResultContent, WireMessage, WireTool};

/// The provider-data namespace of this adapter.
pub(crate) const NAMESPACE: &str = "anthropic";

/// An empty object, the input of a call whose arguments were not an object.
static EMPTY_INPUT: std::sync::LazyLock<Value> = std::sync::LazyLock::new(|| json!({}));

/// The content blocks of a turn for replay: exactly as received when the turn came from
/// this API and still holds the same calls, else rebuilt from its parts (thinking only
/// where a signature allows replay). Borrowed either way.
fn assistant_content(turn: &AssistantTurn) -> Vec<Block<'_>> {
    if let Some(stored) = turn
        .provider_data
        .as_ref()
        .filter(|d| d.provider == NAMESPACE)
        .and_then(|d| d.data.get("content"))
        .and_then(Value::as_array)
    {
        let stored_ids = stored
            .iter()
            .filter(|b| b.get("type").and_then(Value::as_str) == Some("tool_use"))
            .filter_map(|b| b.get("id").and_then(Value::as_str));
        if stored_ids.eq(turn.tool_calls().map(|c| c.id.as_str())) {
            return stored.iter().map(Block::Stored).collect();
        }
    }
    let mut blocks = Vec::new();
    for part in &turn.parts {
        match part {
            AssistantPart::Text(text) if !text.is_empty() => blocks.push(Block::Built(Built::Text { text })),
            AssistantPart::Text(_) => {}
            AssistantPart::Thinking(thinking) => {
                let data =
                    thinking.provider_data.as_ref().filter(|d| d.provider == NAMESPACE).map(|d| &d.data);
                match (thinking.redacted, data) {
                    (true, Some(data)) => {
                        blocks.push(Block::Built(Built::RedactedThinking { data: data.get("data") }));
                    }
                    (false, Some(data)) if data.get("signature").is_some() => {
                        blocks.push(Block::Built(Built::Thinking {
                            thinking: &thinking.text,
                            signature: data.get("signature"),
                        }));
                    }
                    // Reasoning from another provider, or without a signature, cannot be replayed.
                    _ => {}
                }
            }
            AssistantPart::ToolCall(call) => {
                let input = match &call.arguments {
                    ToolArguments::Json(value @ Value::Object(_)) => value,
                    _ => &EMPTY_INPUT,
                };
                blocks.push(Block::Built(Built::ToolUse { id: &call.id, name: &call.name, input }));
            }
        }
    }
    blocks
}

fn messages<'a>(history: &'a [Message], system: &mut String, images: bool) -> Vec<WireMessage<'a>> {
    let mut out: Vec<WireMessage<'a>> = Vec::with_capacity(history.len());
    let mut push = |role: &'static str, mut content: Vec<Block<'a>>| {
        if content.is_empty() {
            return;
        }
        // Consecutive messages of one role are one turn.
        match out.last_mut() {
            Some(last) if last.role == role => last.content.append(&mut content),
            _ => out.push(WireMessage { role, content }),
        }
    };
    for message in history {
        match message {
            Message::System { text } => {
                if !system.is_empty() {
                    system.push_str("\n\n");
                }
                system.push_str(text);
            }
            Message::User { parts } => {
                // Tool results first, then text: the API requires that order.
                let mut content: Vec<Block<'a>> = parts
                    .iter()
                    .filter_map(|p| match p {
                        UserPart::ToolReturn(ret) => {
                            // Images go beside the text as image blocks.
                            let content = if ret.attachments.is_empty() || !images {
                                ResultContent::Text(&ret.content)
                            } else {
                                let mut blocks = vec![Built::Text { text: &ret.content }];
                                blocks.extend(ret.attachments.iter().map(|a| Built::Image {
                                    source: ImageSource {
                                        kind: "base64",
                                        media_type: &a.mime_type,
                                        data: &a.data,
                                    },
                                }));
                                ResultContent::Blocks(blocks)
                            };
                            Some(Block::Built(Built::ToolResult {
                                tool_use_id: &ret.call_id,
                                content,
                                is_error: ret.is_error(),
                            }))
                        }
                        UserPart::Text(_) => None,
                    })
                    .collect();
                content.extend(parts.iter().filter_map(|p| match p {
                    UserPart::Text(text) if !text.is_empty() => Some(Block::Built(Built::Text { text })),
                    _ => None,
                }));
                push("user", content);
            }
            Message::Assistant(turn) => push("assistant", assistant_content(turn)),
        }
    }
    out
}

/// Builds the request body.
pub(crate) fn build(
    model: &str,
    profile: &ModelProfile,
    max_tokens: u32,
    thinking_budget: Option<u32>,
    streaming: bool,
    request: &ModelRequest<'_>,
    size_hint: usize,
) -> Result<Vec<u8>, String> {
    let mut system = request.instructions.to_owned();
    let messages = messages(request.messages, &mut system, profile.accepts_tool_result_images);
    let offered = if profile.supports_tools { request.tools } else { &[] };
    let tools: Vec<WireTool<'_>> = offered
        .iter()
        .map(|d| WireTool { name: &d.name, description: &d.description, input_schema: d.parameters.as_map() })
        .collect();
    let settings = request.settings;
    let tool_choice = (!tools.is_empty()).then(|| {
        let mut choice = match &settings.tool_choice {
            ToolChoice::Auto => json!({"type": "auto"}),
            ToolChoice::None => return json!({"type": "none"}),
            // With extended thinking the API accepts only `auto` and `none`.
            ToolChoice::Required | ToolChoice::Tool(_) if thinking_budget.is_some() => {
                tracing::warn!("extended thinking allows only an automatic tool choice; asking with auto");
                json!({"type": "auto"})
            }
            ToolChoice::Required if !profile.supports_tool_choice_required => json!({"type": "auto"}),
            ToolChoice::Required => json!({"type": "any"}),
            ToolChoice::Tool(name) => json!({"type": "tool", "name": name}),
        };
        if settings.parallel_tool_calls == Some(false) && profile.accepts_parallel_tool_calls_flag {
            choice["disable_parallel_tool_use"] = json!(true);
        }
        choice
    });
    let max_tokens = settings.max_output_tokens.unwrap_or(max_tokens);
    let body = MessagesRequest {
        model,
        max_tokens,
        system,
        messages,
        tools,
        tool_choice,
        thinking: thinking_budget.map(|budget| json!({"type": "enabled", "budget_tokens": budget})),
        stream: streaming,
        temperature: settings.temperature,
        top_p: settings.top_p,
    };
    let mut bytes = Vec::with_capacity(size_hint);
    serde_json::to_writer(&mut bytes, &body)
        .map_err(|e| format!("the request could not be serialised: {e}"))?;
    Ok(bytes)
}

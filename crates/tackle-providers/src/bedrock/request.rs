//! Canonical request → Converse request.

use serde_json::{Value, json};
use tackle_core::{
    AssistantPart, AssistantTurn, Message, ModelProfile, ModelRequest, ToolArguments, ToolChoice, UserPart,
};

use super::wire::{
    Block, Built, ConverseRequest, ImageSource, InferenceConfig, InputSchema, Reasoning, ResultBlock,
    SystemBlock, ToolConfig, ToolSpec, WireMessage, WireTool,
};

/// The provider-data namespace of this adapter.
pub(crate) const NAMESPACE: &str = "bedrock";

static EMPTY_INPUT: std::sync::LazyLock<Value> = std::sync::LazyLock::new(|| json!({}));

/// What the model's request carries besides the conversation.
pub(crate) struct Options<'a> {
    pub(crate) max_tokens: Option<u32>,
    pub(crate) additional_fields: Option<&'a Value>,
}

/// The blocks of a turn for replay: as received when the turn came from this API and still
/// holds the same calls, else rebuilt (reasoning only where a signature allows replay).
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
            .filter_map(|b| b.get("toolUse"))
            .filter_map(|b| b.get("toolUseId").and_then(Value::as_str));
        if stored_ids.eq(turn.tool_calls().map(|c| c.id.as_str())) {
            return stored.iter().map(Block::Stored).collect();
        }
    }
    let mut blocks = Vec::new();
    for part in &turn.parts {
        match part {
            AssistantPart::Text(text) if !text.is_empty() => blocks.push(Block::Built(Built::Text(text))),
            AssistantPart::Text(_) => {}
            AssistantPart::Thinking(thinking) => {
                let data =
                    thinking.provider_data.as_ref().filter(|d| d.provider == NAMESPACE).map(|d| &d.data);
                let field = |key: &str| data.and_then(|d| d.get(key)).and_then(Value::as_str);
                match (thinking.redacted, field("redacted"), field("signature")) {
                    (true, Some(redacted), _) => {
                        blocks.push(Block::Built(Built::ReasoningContent(Reasoning::RedactedContent(
                            redacted,
                        ))));
                    }
                    (false, _, Some(signature)) => {
                        blocks.push(Block::Built(Built::ReasoningContent(Reasoning::ReasoningText {
                            text: &thinking.text,
                            signature: Some(signature),
                        })));
                    }
                    // Reasoning from another provider, or without a signature, is not replayed.
                    _ => {}
                }
            }
            AssistantPart::ToolCall(call) => {
                let input = match &call.arguments {
                    ToolArguments::Json(value @ Value::Object(_)) => value,
                    _ => &EMPTY_INPUT,
                };
                blocks.push(Block::Built(Built::ToolUse { tool_use_id: &call.id, name: &call.name, input }));
            }
        }
    }
    blocks
}

/// The Converse image format of a MIME type, when it takes that type.
fn image_format(mime: &str) -> Option<&'static str> {
    match mime {
        "image/png" => Some("png"),
        "image/jpeg" | "image/jpg" => Some("jpeg"),
        "image/gif" => Some("gif"),
        "image/webp" => Some("webp"),
        _ => None,
    }
}

fn messages<'a>(history: &'a [Message], system: &mut Vec<SystemBlock>, images: bool) -> Vec<WireMessage<'a>> {
    let mut out: Vec<WireMessage<'a>> = Vec::with_capacity(history.len());
    let mut push = |role: &'static str, mut content: Vec<Block<'a>>| {
        if content.is_empty() {
            return;
        }
        match out.last_mut() {
            Some(last) if last.role == role => last.content.append(&mut content),
            _ => out.push(WireMessage { role, content }),
        }
    };
    for message in history {
        match message {
            Message::System { text } if !text.is_empty() => system.push(SystemBlock { text: text.clone() }),
            Message::System { .. } => {}
            Message::User { parts } => {
                // All results of the round first, in one user message, then any text.
                let mut content: Vec<Block<'a>> = parts
                    .iter()
                    .filter_map(|p| match p {
                        UserPart::ToolReturn(ret) => {
                            // A result's text may not be empty.
                            let text =
                                if ret.content.is_empty() { "(no output)" } else { ret.content.as_str() };
                            let mut blocks = vec![ResultBlock::Text(text)];
                            if images {
                                blocks.extend(ret.attachments.iter().filter_map(|a| {
                                    image_format(&a.mime_type).map(|format| ResultBlock::Image {
                                        format,
                                        source: ImageSource { bytes: &a.data },
                                    })
                                }));
                            }
                            Some(Block::Built(Built::ToolResult {
                                tool_use_id: &ret.call_id,
                                content: blocks,
                                status: ret.is_error().then_some("error"),
                            }))
                        }
                        UserPart::Text(_) => None,
                    })
                    .collect();
                content.extend(parts.iter().filter_map(|p| match p {
                    UserPart::Text(text) if !text.is_empty() => Some(Block::Built(Built::Text(text))),
                    _ => None,
                }));
                push("user", content);
            }
            Message::Assistant(turn) => push("assistant", assistant_content(turn)),
        }
    }
    out
}

/// Whether the conversation holds tool blocks (then the API wants a tool configuration).
fn uses_tools(history: &[Message]) -> bool {
    history.iter().any(|m| match m {
        Message::Assistant(turn) => turn.tool_calls().next().is_some(),
        Message::User { parts } => parts.iter().any(|p| matches!(p, UserPart::ToolReturn(_))),
        Message::System { .. } => false,
    })
}

/// Builds the request body.
pub(crate) fn build(
    profile: &ModelProfile,
    options: &Options<'_>,
    request: &ModelRequest<'_>,
    size_hint: usize,
) -> Result<Vec<u8>, String> {
    let mut system = Vec::new();
    if !request.instructions.is_empty() {
        system.push(SystemBlock { text: request.instructions.to_owned() });
    }
    let messages = messages(request.messages, &mut system, profile.accepts_tool_result_images);
    let offered = if profile.supports_tools { request.tools } else { &[] };
    let settings = request.settings;
    // Converse has no "none" choice: no tools are offered, unless the conversation already
    // holds tool blocks, which the API accepts only beside a tool configuration.
    let offer =
        !offered.is_empty() && (settings.tool_choice != ToolChoice::None || uses_tools(request.messages));
    // Anthropic models refuse a forced tool choice while they think.
    let thinking = options.additional_fields.is_some_and(|f| f.get("thinking").is_some());
    let tool_config = offer.then(|| {
        let tool_choice = match &settings.tool_choice {
            ToolChoice::Auto | ToolChoice::None => None,
            ToolChoice::Required | ToolChoice::Tool(_) if thinking => {
                tracing::warn!("extended thinking allows only an automatic tool choice; asking with auto");
                None
            }
            ToolChoice::Required if !profile.supports_tool_choice_required => None,
            ToolChoice::Required => Some(json!({"any": {}})),
            ToolChoice::Tool(name) => Some(json!({"tool": {"name": name}})),
        };
        if settings.tool_choice == ToolChoice::None {
            tracing::warn!(
                "Bedrock Converse cannot forbid tool calls; the tools stay offered for this round"
            );
        }
        ToolConfig {
            tools: offered
                .iter()
                .map(|d| WireTool {
                    tool_spec: ToolSpec {
                        name: &d.name,
                        description: &d.description,
                        input_schema: InputSchema { json: d.parameters.as_map() },
                    },
                })
                .collect(),
            tool_choice,
        }
    });
    let inference = InferenceConfig {
        max_tokens: settings.max_output_tokens.or(options.max_tokens),
        temperature: settings.temperature,
        top_p: settings.top_p,
    };
    let has_inference =
        inference.max_tokens.is_some() || inference.temperature.is_some() || inference.top_p.is_some();
    let body = ConverseRequest {
        messages,
        system,
        inference_config: has_inference.then_some(inference),
        tool_config,
        additional_model_request_fields: options.additional_fields,
    };
    let mut bytes = Vec::with_capacity(size_hint);
    serde_json::to_writer(&mut bytes, &body)
        .map_err(|e| format!("the request could not be serialised: {e}"))?;
    Ok(bytes)
}

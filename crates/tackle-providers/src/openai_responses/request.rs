//! Canonical request → Responses request. Stateless: `store: false`, every output item of
//! earlier rounds replayed verbatim, encrypted reasoning included.

use std::collections::HashMap;

use serde_json::{Map, Value, json};
use tackle_core::{
    AssistantPart, AssistantTurn, Message, ModelRequest, ToolArguments, ToolChoice, ToolDefinition, UserPart,
};

use crate::strict;
use tackle_core::ModelProfile;

/// The provider-data namespace of this adapter.
pub(crate) const NAMESPACE: &str = "openai_responses";

/// The request body and the canonical schemas of the tools sent strict.
pub(crate) struct Built {
    pub(crate) body: Vec<u8>,
    pub(crate) strict_tools: HashMap<String, Map<String, Value>>,
}

fn tool(definition: &ToolDefinition, strict_tools: &mut HashMap<String, Map<String, Value>>) -> Value {
    let canonical = definition.parameters.as_map();
    // Responses makes a tool strict when `strict` is left out; say it every time.
    let (parameters, strict_flag) = match definition.strict {
        Some(true) => match strict::lower(canonical) {
            Ok(lowered) => {
                strict_tools.insert(definition.name.clone(), canonical.clone());
                (lowered, true)
            }
            Err(why) => {
                tracing::warn!(tool = %definition.name, reason = %why.0, "sending the tool without strict mode");
                (Value::Object(canonical.clone()), false)
            }
        },
        _ => (Value::Object(canonical.clone()), false),
    };
    let mut tool =
        json!({"type": "function", "name": definition.name, "parameters": parameters, "strict": strict_flag});
    if !definition.description.is_empty() {
        tool["description"] = json!(definition.description);
    }
    tool
}

/// The output items of a turn for replay: verbatim when the turn came from this API and
/// still holds the same calls, else rebuilt from its parts.
fn turn_items(turn: &AssistantTurn, out: &mut Vec<Value>) {
    if let Some(stored) = turn
        .provider_data
        .as_ref()
        .filter(|d| d.provider == NAMESPACE)
        .and_then(|d| d.data.get("output"))
        .and_then(Value::as_array)
    {
        let stored_ids: Vec<&str> = stored
            .iter()
            .filter(|i| i.get("type") == Some(&json!("function_call")))
            .filter_map(|i| i.get("call_id").and_then(Value::as_str))
            .collect();
        let ids: Vec<&str> = turn.tool_calls().map(|c| c.id.as_str()).collect();
        if stored_ids == ids {
            out.extend(stored.iter().cloned());
            return;
        }
    }
    let mut text = String::new();
    for part in &turn.parts {
        match part {
            AssistantPart::Text(t) => text.push_str(t),
            AssistantPart::Thinking(thinking) => {
                if let Some(item) = thinking.provider_data.as_ref().filter(|d| d.provider == NAMESPACE) {
                    out.push(item.data.clone());
                }
            }
            AssistantPart::ToolCall(call) => {
                let arguments = match &call.arguments {
                    ToolArguments::Json(value @ Value::Object(_)) => value.to_string(),
                    _ => "{}".to_owned(),
                };
                out.push(json!({"type": "function_call", "call_id": call.id, "name": call.name, "arguments": arguments}));
            }
        }
    }
    if !text.is_empty() {
        out.push(json!({"role": "assistant", "content": text}));
    }
}

fn input(history: &[Message], images: bool) -> Vec<Value> {
    let mut out = Vec::with_capacity(history.len() * 2);
    for message in history {
        match message {
            Message::System { text } => out.push(json!({"role": "system", "content": text})),
            Message::User { parts } => {
                for part in parts {
                    match part {
                        UserPart::Text(text) => out.push(json!({"role": "user", "content": text})),
                        UserPart::ToolReturn(ret) => {
                            // Images go beside the text as `input_image` items (data URLs).
                            let output = if ret.attachments.is_empty() || !images {
                                json!(ret.content)
                            } else {
                                let mut items = vec![json!({"type": "input_text", "text": ret.content})];
                                items.extend(ret.attachments.iter().map(|a| {
                                    json!({"type": "input_image", "image_url": format!("data:{};base64,{}", a.mime_type, a.data)})
                                }));
                                Value::Array(items)
                            };
                            out.push(json!({"type": "function_call_output", "call_id": ret.call_id, "output": output}));
                        }
                    }
                }
            }
            Message::Assistant(turn) => turn_items(turn, &mut out),
        }
    }
    out
}

/// Builds the request body.
pub(crate) fn build(
    model: &str,
    profile: &ModelProfile,
    streaming: bool,
    include_reasoning: bool,
    request: &ModelRequest<'_>,
) -> Result<Built, String> {
    let mut strict_tools = HashMap::new();
    let offered = if profile.supports_tools { request.tools } else { &[] };
    let tools: Vec<Value> = offered.iter().map(|d| tool(d, &mut strict_tools)).collect();
    let settings = request.settings;
    let mut body = Map::new();
    body.insert("model".into(), json!(model));
    if !request.instructions.is_empty() {
        body.insert("instructions".into(), json!(request.instructions));
    }
    body.insert("input".into(), Value::Array(input(request.messages, profile.accepts_tool_result_images)));
    if !tools.is_empty() {
        let choice = match &settings.tool_choice {
            ToolChoice::Auto => json!("auto"),
            ToolChoice::None => json!("none"),
            ToolChoice::Required if profile.supports_tool_choice_required => json!("required"),
            ToolChoice::Required => json!("auto"),
            ToolChoice::Tool(name) => json!({"type": "function", "name": name}),
        };
        body.insert("tools".into(), Value::Array(tools));
        body.insert("tool_choice".into(), choice);
        if let Some(parallel) =
            settings.parallel_tool_calls.filter(|_| profile.accepts_parallel_tool_calls_flag)
        {
            body.insert("parallel_tool_calls".into(), json!(parallel));
        }
    }
    body.insert("store".into(), json!(false));
    if include_reasoning {
        body.insert("include".into(), json!(["reasoning.encrypted_content"]));
    }
    body.insert("stream".into(), json!(streaming));
    if let Some(max) = settings.max_output_tokens {
        body.insert("max_output_tokens".into(), json!(max));
    }
    if let Some(t) = settings.temperature {
        body.insert("temperature".into(), json!(t));
    }
    if let Some(p) = settings.top_p {
        body.insert("top_p".into(), json!(p));
    }
    let body = serde_json::to_vec(&Value::Object(body))
        .map_err(|e| format!("the request could not be serialised: {e}"))?;
    Ok(Built { body, strict_tools })
}

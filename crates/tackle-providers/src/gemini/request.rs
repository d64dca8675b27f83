//! Canonical request → `generateContent` request.

use std::borrow::Cow;

use serde_json::{Value, json};
use tackle_core::{
    AssistantPart, AssistantTurn, Message, ModelProfile, ModelRequest, ToolArguments, ToolChoice, UserPart,
};

use super::wire::{
    Built, Content, Declaration, FunctionCall, FunctionResponse, GenerateRequest, GenerationConfig,
    InlineData, Part, ResponseBody, SystemInstruction, TextPart, ToolGroup,
};
use super::{Gemini, Names};

/// The provider-data namespace of this adapter.
pub(crate) const NAMESPACE: &str = "gemini";

/// The most function declarations one request may carry.
pub const MAX_DECLARATIONS: usize = 128;

/// Call ids tackle made up for calls the API sent without one; never sent back.
pub(crate) const MADE_UP_ID: &str = "gemini-call-";

/// The signature the API documents for calls whose own signature is not known (a turn
/// from another provider, or one edited by the application).
pub(crate) const NO_SIGNATURE: &str = "skip_thought_signature_validator";

static EMPTY_ARGS: std::sync::LazyLock<Value> = std::sync::LazyLock::new(|| json!({}));

/// The id to send for a call: the API's own, never one tackle made up.
fn api_id(id: &str) -> Option<&str> {
    (!id.starts_with(MADE_UP_ID) && !id.is_empty()).then_some(id)
}

/// A stored turn's parts, when the turn came from this API and still holds the same calls.
fn stored_parts<'a>(turn: &'a AssistantTurn, names: &Names) -> Option<&'a Vec<Value>> {
    let stored = turn
        .provider_data
        .as_ref()
        .filter(|d| d.provider == NAMESPACE)
        .and_then(|d| d.data.get("parts"))
        .and_then(Value::as_array)?;
    let stored_calls = stored
        .iter()
        .filter_map(|p| p.get("functionCall"))
        .map(|c| c.get("name").and_then(Value::as_str).unwrap_or_default());
    let calls = turn.tool_calls().map(|c| names.wire(&c.name));
    stored_calls.eq(calls).then_some(stored)
}

fn assistant_parts<'a>(turn: &'a AssistantTurn, names: &Names) -> Vec<Part<'a>> {
    if let Some(stored) = stored_parts(turn, names) {
        return stored.iter().map(Part::Stored).collect();
    }
    let signature_of = |data: Option<&'a tackle_core::ProviderData>| {
        data.filter(|d| d.provider == NAMESPACE)
            .and_then(|d| d.data.get("thoughtSignature"))
            .and_then(Value::as_str)
    };
    let signed = turn.tool_calls().any(|c| signature_of(c.provider_data.as_ref()).is_some());
    let mut first_call = true;
    let mut parts = Vec::new();
    for part in &turn.parts {
        match part {
            AssistantPart::Text(text) if !text.is_empty() => parts.push(Part::Built(Built::Text { text })),
            // Thought summaries are not replayed once the turn is rebuilt.
            AssistantPart::Text(_) | AssistantPart::Thinking(_) => {}
            AssistantPart::ToolCall(call) => {
                let args = match &call.arguments {
                    ToolArguments::Json(value @ Value::Object(_)) => value,
                    _ => &EMPTY_ARGS,
                };
                let thought_signature = signature_of(call.provider_data.as_ref())
                    .or_else(|| (!signed && first_call).then_some(NO_SIGNATURE));
                first_call = false;
                parts.push(Part::Built(Built::Call {
                    function_call: FunctionCall { name: names.wire(&call.name), args, id: api_id(&call.id) },
                    thought_signature,
                }));
            }
        }
    }
    parts
}

fn contents<'a>(
    history: &'a [Message],
    system: &mut String,
    images: bool,
    names: &Names,
) -> Vec<Content<'a>> {
    let mut out: Vec<Content<'a>> = Vec::with_capacity(history.len());
    let mut push = |role: &'static str, mut parts: Vec<Part<'a>>| {
        if parts.is_empty() {
            return;
        }
        match out.last_mut() {
            Some(last) if last.role == role => last.parts.append(&mut parts),
            _ => out.push(Content { role, parts }),
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
                // The round's results first, then any text.
                let mut content: Vec<Part<'a>> = parts
                    .iter()
                    .filter_map(|p| match p {
                        UserPart::ToolReturn(ret) => {
                            let response = if ret.is_error() {
                                ResponseBody::Error(&ret.content)
                            } else {
                                ResponseBody::Output(&ret.content)
                            };
                            let media = if images {
                                ret.attachments
                                    .iter()
                                    .map(|a| Built::Inline {
                                        inline_data: InlineData { mime_type: &a.mime_type, data: &a.data },
                                    })
                                    .collect()
                            } else {
                                Vec::new()
                            };
                            Some(Part::Built(Built::Response {
                                function_response: FunctionResponse {
                                    name: names.wire(&ret.tool_name),
                                    id: api_id(&ret.call_id),
                                    response,
                                    parts: media,
                                },
                            }))
                        }
                        UserPart::Text(_) => None,
                    })
                    .collect();
                content.extend(parts.iter().filter_map(|p| match p {
                    UserPart::Text(text) if !text.is_empty() => Some(Part::Built(Built::Text { text })),
                    _ => None,
                }));
                push("user", content);
            }
            Message::Assistant(turn) => push("model", assistant_parts(turn, names)),
        }
    }
    out
}

/// Builds the request body.
pub(crate) fn build(
    model: &Gemini,
    profile: &ModelProfile,
    request: &ModelRequest<'_>,
    names: &Names,
    size_hint: usize,
) -> Result<Vec<u8>, String> {
    let offered = if profile.supports_tools { request.tools } else { &[] };
    if offered.len() > MAX_DECLARATIONS {
        return Err(format!(
            "Gemini takes at most {MAX_DECLARATIONS} function declarations in a request; {} tools were offered \
             (offer fewer, or turn on tool search)",
            offered.len()
        ));
    }
    let mut system = request.instructions.to_owned();
    let contents = contents(request.messages, &mut system, profile.accepts_tool_result_images, names);
    let declarations: Vec<Declaration<'_>> = offered
        .iter()
        .map(|d| {
            let (parameters, parameters_json_schema) = if model.json_schema {
                (None, Some(d.parameters.as_map()))
            } else {
                (Some(model.lowered.get(d)), None)
            };
            Declaration {
                name: names.wire(&d.name),
                description: &d.description,
                parameters,
                parameters_json_schema,
            }
        })
        .collect();
    let settings = request.settings;
    let tool_config = (!declarations.is_empty()).then(|| {
        let config = match &settings.tool_choice {
            ToolChoice::Auto => json!({"mode": "AUTO"}),
            ToolChoice::None => json!({"mode": "NONE"}),
            ToolChoice::Required if !profile.supports_tool_choice_required => json!({"mode": "AUTO"}),
            ToolChoice::Required => json!({"mode": "ANY"}),
            ToolChoice::Tool(name) => json!({"mode": "ANY", "allowedFunctionNames": [names.wire(name)]}),
        };
        json!({"functionCallingConfig": config})
    });
    let generation = GenerationConfig {
        temperature: settings.temperature,
        top_p: settings.top_p,
        max_output_tokens: settings.max_output_tokens.or(model.max_tokens),
        // The API's seed is a 32-bit integer.
        seed: settings.seed.map(|s| s & 0x7fff_ffff),
        thinking_config: model.thinking.as_ref(),
    };
    let body = GenerateRequest {
        contents,
        system_instruction: (!system.is_empty())
            .then_some(SystemInstruction { parts: [TextPart { text: system }] }),
        tools: if declarations.is_empty() {
            Vec::new()
        } else {
            vec![ToolGroup { function_declarations: declarations }]
        },
        tool_config,
        generation_config: (!generation.is_empty()).then_some(generation),
    };
    let mut bytes = Vec::with_capacity(size_hint);
    serde_json::to_writer(&mut bytes, &body)
        .map_err(|e| format!("the request could not be serialised: {e}"))?;
    Ok(bytes)
}

/// A tool name as Gemini takes it: names must start with a letter or `_`, so a name that
/// starts with a digit or `-` gets a `_` in front (and, past 64 characters, a hash of the
/// whole name in place of its tail).
pub(crate) fn wire_name(name: &str) -> Cow<'_, str> {
    match name.chars().next() {
        Some(c) if c.is_ascii_alphabetic() || c == '_' => Cow::Borrowed(name),
        _ if name.len() < tackle_core::MAX_TOOL_NAME_LEN => Cow::Owned(format!("_{name}")),
        _ => {
            // FNV-1a: stable across builds and machines.
            let hash = name
                .bytes()
                .fold(0xcbf2_9ce4_8422_2325_u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3));
            let keep = name.char_indices().nth(54).map_or(name.len(), |(i, _)| i);
            Cow::Owned(format!("_{}_{:08x}", &name[..keep], hash as u32))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_fit_the_rule_and_stay_distinct() {
        assert_eq!(wire_name("get_weather"), "get_weather");
        assert_eq!(wire_name("_private"), "_private");
        assert_eq!(wire_name("3d-render"), "_3d-render");
        assert_eq!(wire_name("-x"), "_-x");
        let long_a = format!("9{}", "a".repeat(63));
        let long_b = format!("9{}b", "a".repeat(62));
        let (a, b) = (wire_name(&long_a), wire_name(&long_b));
        assert!(a.len() <= 64 && b.len() <= 64, "{a} {b}");
        assert_ne!(a, b);
    }
}

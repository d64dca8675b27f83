//! Canonical request → Chat Completions request.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;

use serde_json::{Map, Value, json};
use tackle_core::{
    AssistantPart, Message, ModelRequest, ToolArguments, ToolChoice, ToolDefinition, UserPart,
    validate_tool_name,
};

use super::wire::{
    ChatRequest, StreamOptions, WireFunction, WireFunctionCall, WireMessage, WireTool, WireToolCall,
};
use crate::strict::{Lowered, Parameters};
use tackle_core::ModelProfile;

/// The provider-data namespace of this adapter.
pub(crate) const NAMESPACE: &str = "openai_chat";

/// The name a call the host mangled is replayed under.
pub(crate) const INVALID_CALL_NAME: &str = "invalid_tool_call";

/// The request body, and the tools sent strict (their optional `null`s are mapped back to
/// "absent" when calls come back).
pub(crate) struct Built {
    pub(crate) body: Vec<u8>,
    pub(crate) strict_tools: HashMap<String, Arc<ToolDefinition>>,
}

fn tool<'a>(
    definition: &'a Arc<ToolDefinition>,
    profile: &ModelProfile,
    lowered: &Lowered,
    strict_tools: &mut HashMap<String, Arc<ToolDefinition>>,
) -> WireTool<'a> {
    let mut parameters = Parameters::Schema(definition.parameters.as_map());
    let mut strict_flag = None;
    if profile.supports_strict_schemas {
        strict_flag = Some(false);
        if definition.strict == Some(true) {
            match lowered.get(definition) {
                Ok(lowered) => {
                    parameters = Parameters::Lowered(lowered);
                    strict_flag = Some(true);
                    strict_tools.insert(definition.name.clone(), Arc::clone(definition));
                }
                Err(why) => {
                    tracing::warn!(tool = %definition.name, reason = %why, "sending the tool without strict mode");
                }
            }
        }
    }
    WireTool {
        kind: "function",
        function: WireFunction {
            name: &definition.name,
            description: &definition.description,
            parameters,
            strict: strict_flag,
        },
    }
}

fn tool_choice(choice: &ToolChoice, profile: &ModelProfile) -> Value {
    match choice {
        ToolChoice::Auto => json!("auto"),
        ToolChoice::None => json!("none"),
        ToolChoice::Required if profile.supports_tool_choice_required => json!("required"),
        ToolChoice::Required => json!("auto"),
        ToolChoice::Tool(name) => json!({"type": "function", "function": {"name": name}}),
    }
}

/// The arguments text to replay: what the provider sent, byte for byte, when we have it;
/// `{}` for text that is not a JSON object, which strict hosts refuse in history.
fn replay_arguments(call: &tackle_core::ToolCall) -> Cow<'_, str> {
    let recorded = call
        .provider_data
        .as_ref()
        .filter(|d| d.provider == NAMESPACE)
        .and_then(|d| d.data.get("arguments"))
        .and_then(Value::as_str);
    match (&call.arguments, recorded) {
        (ToolArguments::Json(Value::Object(_)), Some(raw)) => Cow::Borrowed(raw),
        (ToolArguments::Json(value @ Value::Object(_)), None) => Cow::Owned(value.to_string()),
        _ => Cow::Borrowed("{}"),
    }
}

fn extra_fields(call: &tackle_core::ToolCall) -> Option<&Map<String, Value>> {
    call.provider_data
        .as_ref()
        .filter(|d| d.provider == NAMESPACE)
        .and_then(|d| d.data.get("extra"))
        .and_then(Value::as_object)
}

fn messages<'a>(instructions: &'a str, history: &'a [Message]) -> Vec<WireMessage<'a>> {
    let mut out = Vec::with_capacity(history.len() + 1);
    if !instructions.is_empty() {
        out.push(WireMessage::System { content: Cow::Borrowed(instructions) });
    }
    for message in history {
        match message {
            Message::System { text } => out.push(WireMessage::System { content: Cow::Borrowed(text) }),
            Message::User { parts } => {
                let mut text: Option<Cow<'a, str>> = None;
                for part in parts {
                    match part {
                        UserPart::Text(t) => {
                            text = Some(match text.take() {
                                None => Cow::Borrowed(t.as_str()),
                                Some(before) => Cow::Owned(format!("{before}\n\n{t}")),
                            });
                        }
                        UserPart::ToolReturn(ret) => {
                            if let Some(content) = text.take() {
                                out.push(WireMessage::User { content });
                            }
                            out.push(WireMessage::Tool { tool_call_id: &ret.call_id, content: &ret.content });
                        }
                    }
                }
                if let Some(content) = text {
                    out.push(WireMessage::User { content });
                }
            }
            Message::Assistant(turn) => {
                let mut text = String::new();
                let mut calls = Vec::new();
                for part in &turn.parts {
                    match part {
                        AssistantPart::Text(t) => text.push_str(t),
                        // Chat Completions has no field for replaying reasoning.
                        AssistantPart::Thinking(_) => {}
                        AssistantPart::ToolCall(call) => {
                            let usable = validate_tool_name(&call.name).is_ok();
                            calls.push(WireToolCall {
                                id: &call.id,
                                kind: "function",
                                function: WireFunctionCall {
                                    name: if usable { &call.name } else { INVALID_CALL_NAME },
                                    arguments: if usable {
                                        replay_arguments(call)
                                    } else {
                                        Cow::Borrowed("{}")
                                    },
                                },
                                extra: extra_fields(call),
                            });
                        }
                    }
                }
                let content = (!text.is_empty()).then_some(Cow::Owned(text));
                out.push(WireMessage::Assistant { content, tool_calls: calls });
            }
        }
    }
    out
}

/// Builds the request body. What the host accepts — strict schemas, a required tool
/// choice, the parallel-calls flag, usage in streams, tools at all — comes from `profile`.
pub(crate) fn build(
    model: &str,
    profile: &ModelProfile,
    streaming: bool,
    request: &ModelRequest<'_>,
    lowered: &Lowered,
    size_hint: usize,
) -> Result<Built, String> {
    let mut strict_tools = HashMap::new();
    let offered = if profile.supports_tools { request.tools } else { &[] };
    let tools: Vec<WireTool<'_>> =
        offered.iter().map(|d| tool(d, profile, lowered, &mut strict_tools)).collect();
    let settings = request.settings;
    let has_tools = !tools.is_empty();
    let body = ChatRequest {
        model,
        messages: messages(request.instructions, request.messages),
        tool_choice: has_tools.then(|| tool_choice(&settings.tool_choice, profile)),
        parallel_tool_calls: settings
            .parallel_tool_calls
            .filter(|_| has_tools && profile.accepts_parallel_tool_calls_flag),
        tools,
        stream: streaming,
        stream_options: (streaming && profile.reports_stream_usage)
            .then_some(StreamOptions { include_usage: true }),
        max_completion_tokens: settings.max_output_tokens,
        temperature: settings.temperature,
        top_p: settings.top_p,
        seed: settings.seed,
    };
    // Sized for what the last request took: the history only grows, and a body that
    // outgrows its buffer is copied at every doubling.
    let mut bytes = Vec::with_capacity(size_hint);
    serde_json::to_writer(&mut bytes, &body)
        .map_err(|e| format!("the request could not be serialised: {e}"))?;
    Ok(Built { body: bytes, strict_tools })
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use serde_json::json;
    use tackle_core::{JsonSchema, ToolDefinition};

    use crate::strict::Lowered;

    fn definition(property: &str) -> Arc<ToolDefinition> {
        let schema =
            json!({"type": "object", "properties": {property: {"type": "string"}}, "required": [property]});
        Arc::new(ToolDefinition::new("t", "A tool.", JsonSchema::new(schema).unwrap()))
    }

    #[test]
    fn a_strict_schema_is_lowered_once_per_definition() {
        let lowered = Lowered::default();
        let first = definition("a");
        let once = lowered.get(&first).unwrap();
        assert!(Arc::ptr_eq(&once, &lowered.get(&first).unwrap()), "the second round reuses it");
        // Another definition of the same name (the offer changed) is lowered afresh.
        let second = definition("b");
        let other = lowered.get(&second).unwrap();
        assert!(other.to_string().contains("\"b\"") && !other.to_string().contains("\"a\""));
        // A definition dropped and another allocated where it was is not mistaken for it.
        drop(first);
        let third = definition("c");
        assert!(lowered.get(&third).unwrap().to_string().contains("\"c\""));
    }
}

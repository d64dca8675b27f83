//! Canonical request → Responses request. Stateless: `store: false`, every output item of
//! earlier rounds replayed verbatim, encrypted reasoning included.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;

use serde::Serialize;
use serde_json::{Value, json};
use tackle_core::{
    AssistantPart, AssistantTurn, Message, ModelRequest, ToolArguments, ToolChoice, ToolDefinition, UserPart,
};

use crate::strict::{Lowered, Parameters};
use tackle_core::ModelProfile;

/// The provider-data namespace of this adapter.
pub(crate) const NAMESPACE: &str = "openai_responses";

/// The request body and the tools sent strict.
pub(crate) struct Built {
    pub(crate) body: Vec<u8>,
    pub(crate) strict_tools: HashMap<String, Arc<ToolDefinition>>,
}

/// The request as sent: everything borrowed from the conversation and the offer.
#[derive(Serialize)]
struct ResponsesRequest<'a> {
    model: &'a str,
    #[serde(skip_serializing_if = "str::is_empty")]
    instructions: &'a str,
    input: Vec<Item<'a>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tools: Vec<Tool<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tool_choice: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    parallel_tool_calls: Option<bool>,
    store: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    include: Option<[&'static str; 1]>,
    stream: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    max_output_tokens: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    temperature: Option<f32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    top_p: Option<f32>,
}

#[derive(Serialize)]
struct Tool<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    name: &'a str,
    #[serde(skip_serializing_if = "str::is_empty")]
    description: &'a str,
    parameters: Parameters<'a>,
    strict: bool,
}

/// One input item.
#[derive(Serialize)]
#[serde(untagged)]
enum Item<'a> {
    /// An output item of an earlier round, replayed exactly as the API sent it.
    Stored(&'a Value),
    Message {
        role: &'static str,
        content: Cow<'a, str>,
    },
    Call {
        #[serde(rename = "type")]
        kind: &'static str,
        call_id: &'a str,
        name: &'a str,
        arguments: String,
    },
    Output {
        #[serde(rename = "type")]
        kind: &'static str,
        call_id: &'a str,
        output: Output<'a>,
    },
}

/// A tool result: its text, or its text and images.
#[derive(Serialize)]
#[serde(untagged)]
enum Output<'a> {
    Text(&'a str),
    Parts(Vec<Part<'a>>),
}

#[derive(Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Part<'a> {
    InputText { text: &'a str },
    InputImage { image_url: DataUrl<'a> },
}

/// `data:<mime>;base64,<data>`, written straight into the body (an image is not copied
/// into a string first).
struct DataUrl<'a> {
    mime_type: &'a str,
    data: &'a str,
}

impl Serialize for DataUrl<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(&format_args!("data:{};base64,{}", self.mime_type, self.data))
    }
}

fn tool<'a>(
    definition: &'a Arc<ToolDefinition>,
    lowered: &Lowered,
    strict_tools: &mut HashMap<String, Arc<ToolDefinition>>,
) -> Tool<'a> {
    // Responses makes a tool strict when `strict` is left out; say it every time.
    let mut parameters = Parameters::Schema(definition.parameters.as_map());
    let mut strict_flag = false;
    if definition.strict == Some(true) {
        match lowered.get(definition) {
            Ok(strict_form) => {
                strict_tools.insert(definition.name.clone(), Arc::clone(definition));
                parameters = Parameters::Lowered(strict_form);
                strict_flag = true;
            }
            Err(why) => {
                tracing::warn!(tool = %definition.name, reason = %why, "sending the tool without strict mode");
            }
        }
    }
    Tool {
        kind: "function",
        name: &definition.name,
        description: &definition.description,
        parameters,
        strict: strict_flag,
    }
}

/// The output items of a turn for replay: verbatim when the turn came from this API and
/// still holds the same calls, else rebuilt from its parts.
fn turn_items<'a>(turn: &'a AssistantTurn, out: &mut Vec<Item<'a>>) {
    if let Some(stored) = turn
        .provider_data
        .as_ref()
        .filter(|d| d.provider == NAMESPACE)
        .and_then(|d| d.data.get("output"))
        .and_then(Value::as_array)
    {
        let stored_ids = stored
            .iter()
            .filter(|i| i.get("type").and_then(Value::as_str) == Some("function_call"))
            .filter_map(|i| i.get("call_id").and_then(Value::as_str));
        if stored_ids.eq(turn.tool_calls().map(|c| c.id.as_str())) {
            out.extend(stored.iter().map(Item::Stored));
            return;
        }
    }
    let mut text = String::new();
    for part in &turn.parts {
        match part {
            AssistantPart::Text(t) => text.push_str(t),
            AssistantPart::Thinking(thinking) => {
                if let Some(item) = thinking.provider_data.as_ref().filter(|d| d.provider == NAMESPACE) {
                    out.push(Item::Stored(&item.data));
                }
            }
            AssistantPart::ToolCall(call) => {
                let arguments = match &call.arguments {
                    ToolArguments::Json(value @ Value::Object(_)) => value.to_string(),
                    _ => "{}".to_owned(),
                };
                out.push(Item::Call {
                    kind: "function_call",
                    call_id: &call.id,
                    name: &call.name,
                    arguments,
                });
            }
        }
    }
    if !text.is_empty() {
        out.push(Item::Message { role: "assistant", content: Cow::Owned(text) });
    }
}

fn input(history: &[Message], images: bool) -> Vec<Item<'_>> {
    let mut out = Vec::with_capacity(history.len() * 2);
    for message in history {
        match message {
            Message::System { text } => {
                out.push(Item::Message { role: "system", content: Cow::Borrowed(text) })
            }
            Message::User { parts } => {
                for part in parts {
                    match part {
                        UserPart::Text(text) => {
                            out.push(Item::Message { role: "user", content: Cow::Borrowed(text) });
                        }
                        UserPart::ToolReturn(ret) => {
                            // Images go beside the text as `input_image` items (data URLs).
                            let output = if ret.attachments.is_empty() || !images {
                                Output::Text(&ret.content)
                            } else {
                                let mut parts = vec![Part::InputText { text: &ret.content }];
                                parts.extend(ret.attachments.iter().map(|a| Part::InputImage {
                                    image_url: DataUrl { mime_type: &a.mime_type, data: &a.data },
                                }));
                                Output::Parts(parts)
                            };
                            out.push(Item::Output {
                                kind: "function_call_output",
                                call_id: &ret.call_id,
                                output,
                            });
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
    lowered: &Lowered,
    size_hint: usize,
) -> Result<Built, String> {
    let mut strict_tools = HashMap::new();
    let offered = if profile.supports_tools { request.tools } else { &[] };
    let tools: Vec<Tool<'_>> = offered.iter().map(|d| tool(d, lowered, &mut strict_tools)).collect();
    let settings = request.settings;
    let has_tools = !tools.is_empty();
    let tool_choice = has_tools.then(|| match &settings.tool_choice {
        ToolChoice::Auto => json!("auto"),
        ToolChoice::None => json!("none"),
        ToolChoice::Required if profile.supports_tool_choice_required => json!("required"),
        ToolChoice::Required => json!("auto"),
        ToolChoice::Tool(name) => json!({"type": "function", "name": name}),
    });
    let body = ResponsesRequest {
        model,
        instructions: request.instructions,
        input: input(request.messages, profile.accepts_tool_result_images),
        tools,
        tool_choice,
        parallel_tool_calls: settings
            .parallel_tool_calls
            .filter(|_| has_tools && profile.accepts_parallel_tool_calls_flag),
        store: false,
        include: include_reasoning.then_some(["reasoning.encrypted_content"]),
        stream: streaming,
        max_output_tokens: settings.max_output_tokens,
        temperature: settings.temperature,
        top_p: settings.top_p,
    };
    let mut bytes = Vec::with_capacity(size_hint);
    serde_json::to_writer(&mut bytes, &body)
        .map_err(|e| format!("the request could not be serialised: {e}"))?;
    Ok(Built { body: bytes, strict_tools })
}

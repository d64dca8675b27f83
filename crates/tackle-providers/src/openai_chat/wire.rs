//! Chat Completions wire types: what goes out and what comes back.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

#[derive(Debug, Serialize)]
pub(crate) struct ChatRequest<'a> {
    pub(crate) model: &'a str,
    pub(crate) messages: Vec<WireMessage<'a>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) tools: Vec<WireTool<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) tool_choice: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) parallel_tool_calls: Option<bool>,
    pub(crate) stream: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) stream_options: Option<StreamOptions>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) max_completion_tokens: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) temperature: Option<f32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) top_p: Option<f32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) seed: Option<u64>,
}

#[derive(Debug, Serialize)]
pub(crate) struct StreamOptions {
    pub(crate) include_usage: bool,
}

#[derive(Debug, Serialize)]
#[serde(tag = "role", rename_all = "lowercase")]
pub(crate) enum WireMessage<'a> {
    System {
        content: Cow<'a, str>,
    },
    User {
        content: Cow<'a, str>,
    },
    Assistant {
        content: Option<Cow<'a, str>>,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        tool_calls: Vec<WireToolCall<'a>>,
    },
    Tool {
        tool_call_id: &'a str,
        content: &'a str,
    },
}

#[derive(Debug)]
pub(crate) struct WireToolCall<'a> {
    pub(crate) id: &'a str,
    pub(crate) kind: &'static str,
    pub(crate) function: WireFunctionCall<'a>,
    /// Fields a host added to the call (replayed as they came), beside the known ones.
    pub(crate) extra: Option<&'a Map<String, Value>>,
}

// Written out rather than derived with `flatten`, which sends every call through serde's
// map buffering: calls are most of a long history.
impl Serialize for WireToolCall<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap as _;
        let extra = self
            .extra
            .into_iter()
            .flatten()
            .filter(|(k, _)| !matches!(k.as_str(), "id" | "type" | "function"));
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("id", self.id)?;
        map.serialize_entry("type", self.kind)?;
        map.serialize_entry("function", &self.function)?;
        for (key, value) in extra {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

#[derive(Debug, Serialize)]
pub(crate) struct WireFunctionCall<'a> {
    pub(crate) name: &'a str,
    pub(crate) arguments: Cow<'a, str>,
}

#[derive(Debug, Serialize)]
pub(crate) struct WireTool<'a> {
    #[serde(rename = "type")]
    pub(crate) kind: &'static str,
    pub(crate) function: WireFunction<'a>,
}

#[derive(Debug, Serialize)]
pub(crate) struct WireFunction<'a> {
    pub(crate) name: &'a str,
    #[serde(skip_serializing_if = "str::is_empty")]
    pub(crate) description: &'a str,
    pub(crate) parameters: crate::strict::Parameters<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) strict: Option<bool>,
}

/// A streamed chunk, or (with `message` in place of `delta`) a whole response.
#[derive(Debug, Deserialize)]
pub(crate) struct Chunk {
    #[serde(default)]
    pub(crate) model: Option<String>,
    #[serde(default)]
    pub(crate) choices: Vec<Choice>,
    #[serde(default)]
    pub(crate) usage: Option<WireUsage>,
    #[serde(default)]
    pub(crate) error: Option<WireError>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct Choice {
    #[serde(default)]
    pub(crate) index: u32,
    #[serde(default, alias = "message")]
    pub(crate) delta: Option<Delta>,
    #[serde(default)]
    pub(crate) finish_reason: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct Delta {
    #[serde(default)]
    pub(crate) content: Option<String>,
    #[serde(default)]
    pub(crate) reasoning_content: Option<String>,
    #[serde(default)]
    pub(crate) reasoning: Option<String>,
    #[serde(default)]
    pub(crate) refusal: Option<String>,
    #[serde(default)]
    pub(crate) tool_calls: Option<Vec<DeltaToolCall>>,
}

#[derive(Debug, Default)]
pub(crate) struct DeltaToolCall {
    pub(crate) index: Option<usize>,
    pub(crate) id: Option<String>,
    pub(crate) function: Option<DeltaFunction>,
    /// Fields besides these and `type` (a host's own, kept for replay).
    pub(crate) extra: Map<String, Value>,
}

// Read by hand rather than derived with `flatten`, which buffers every field of every call
// before sorting them out.
impl<'de> Deserialize<'de> for DeltaToolCall {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Fields;
        impl<'de> serde::de::Visitor<'de> for Fields {
            type Value = DeltaToolCall;

            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a tool call object")
            }

            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<DeltaToolCall, A::Error> {
                let mut call = DeltaToolCall::default();
                while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
                    match key.as_ref() {
                        "index" => call.index = map.next_value()?,
                        "id" => call.id = map.next_value()?,
                        "function" => call.function = map.next_value()?,
                        "type" => {
                            map.next_value::<serde::de::IgnoredAny>()?;
                        }
                        _ => {
                            let value: Value = map.next_value()?;
                            call.extra.insert(key.into_owned(), value);
                        }
                    }
                }
                Ok(call)
            }
        }
        deserializer.deserialize_map(Fields)
    }
}

#[derive(Debug, Deserialize)]
pub(crate) struct DeltaFunction {
    #[serde(default)]
    pub(crate) name: Option<String>,
    #[serde(default)]
    pub(crate) arguments: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct WireUsage {
    #[serde(default)]
    pub(crate) prompt_tokens: u64,
    #[serde(default)]
    pub(crate) completion_tokens: u64,
    #[serde(default)]
    pub(crate) prompt_tokens_details: Option<PromptDetails>,
    #[serde(default)]
    pub(crate) completion_tokens_details: Option<CompletionDetails>,
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct PromptDetails {
    #[serde(default)]
    pub(crate) cached_tokens: Option<u64>,
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct CompletionDetails {
    #[serde(default)]
    pub(crate) reasoning_tokens: Option<u64>,
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct WireError {
    #[serde(default)]
    pub(crate) message: String,
    #[serde(default, rename = "type")]
    pub(crate) kind: Option<String>,
    #[serde(default)]
    pub(crate) code: Option<Value>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct ErrorBody {
    pub(crate) error: WireError,
}

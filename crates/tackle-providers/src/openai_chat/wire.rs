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

/// A streamed chunk, or (with `message` in place of `delta`) a whole response. Its text
/// is borrowed from the event's data (copied only where the JSON escapes something).
#[derive(Debug, Deserialize)]
pub(crate) struct Chunk<'a> {
    #[serde(default, borrow)]
    pub(crate) model: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    pub(crate) choices: Vec<Choice<'a>>,
    #[serde(default)]
    pub(crate) usage: Option<WireUsage>,
    #[serde(default)]
    pub(crate) error: Option<WireError>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct Choice<'a> {
    #[serde(default)]
    pub(crate) index: u32,
    #[serde(default, alias = "message", borrow)]
    pub(crate) delta: Option<Delta<'a>>,
    #[serde(default, borrow)]
    pub(crate) finish_reason: Option<Cow<'a, str>>,
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct Delta<'a> {
    #[serde(default, borrow)]
    pub(crate) content: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    pub(crate) reasoning_content: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    pub(crate) reasoning: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    pub(crate) refusal: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    pub(crate) tool_calls: Option<Vec<DeltaToolCall<'a>>>,
}

/// A string borrowed from the input where it can be (serde's own `Cow` always copies).
#[derive(Debug, Deserialize)]
#[serde(transparent)]
pub(crate) struct Text<'a>(#[serde(borrow)] pub(crate) Cow<'a, str>);

#[derive(Debug, Default)]
pub(crate) struct DeltaToolCall<'a> {
    pub(crate) index: Option<usize>,
    pub(crate) id: Option<Cow<'a, str>>,
    pub(crate) function: Option<DeltaFunction<'a>>,
    /// Fields besides these and `type` (a host's own, kept for replay).
    pub(crate) extra: Map<String, Value>,
}

// Read by hand rather than derived with `flatten`, which buffers every field of every call
// before sorting them out.
impl<'de: 'a, 'a> Deserialize<'de> for DeltaToolCall<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Fields<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> serde::de::Visitor<'de> for Fields<'a> {
            type Value = DeltaToolCall<'a>;

            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a tool call object")
            }

            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<DeltaToolCall<'a>, A::Error> {
                let mut call = DeltaToolCall::default();
                while let Some(Text(key)) = map.next_key::<Text<'de>>()? {
                    match key.as_ref() {
                        "index" => call.index = map.next_value()?,
                        "id" => call.id = map.next_value::<Option<Text<'de>>>()?.map(|t| t.0),
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
        deserializer.deserialize_map(Fields(std::marker::PhantomData))
    }
}

#[derive(Debug, Deserialize)]
pub(crate) struct DeltaFunction<'a> {
    #[serde(default, borrow)]
    pub(crate) name: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    pub(crate) arguments: Option<Cow<'a, str>>,
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

//! Bedrock Converse wire types.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ConverseRequest<'a> {
    pub(crate) messages: Vec<WireMessage<'a>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) system: Vec<SystemBlock>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) inference_config: Option<InferenceConfig>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) tool_config: Option<ToolConfig<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) additional_model_request_fields: Option<&'a Value>,
}

#[derive(Debug, Serialize)]
pub(crate) struct SystemBlock {
    pub(crate) text: String,
}

#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct InferenceConfig {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) max_tokens: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) temperature: Option<f32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) top_p: Option<f32>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ToolConfig<'a> {
    pub(crate) tools: Vec<WireTool<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) tool_choice: Option<Value>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct WireTool<'a> {
    pub(crate) tool_spec: ToolSpec<'a>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ToolSpec<'a> {
    pub(crate) name: &'a str,
    #[serde(skip_serializing_if = "str::is_empty")]
    pub(crate) description: &'a str,
    pub(crate) input_schema: InputSchema<'a>,
}

#[derive(Debug, Serialize)]
pub(crate) struct InputSchema<'a> {
    pub(crate) json: &'a Map<String, Value>,
}

#[derive(Debug, Serialize)]
pub(crate) struct WireMessage<'a> {
    pub(crate) role: &'static str,
    pub(crate) content: Vec<Block<'a>>,
}

/// A content block as sent: replayed as received, or built from canonical parts.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub(crate) enum Block<'a> {
    Stored(&'a Value),
    Built(Built<'a>),
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) enum Built<'a> {
    Text(&'a str),
    ToolUse {
        #[serde(rename = "toolUseId")]
        tool_use_id: &'a str,
        name: &'a str,
        input: &'a Value,
    },
    ToolResult {
        #[serde(rename = "toolUseId")]
        tool_use_id: &'a str,
        content: Vec<ResultBlock<'a>>,
        #[serde(skip_serializing_if = "Option::is_none")]
        status: Option<&'static str>,
    },
    ReasoningContent(Reasoning<'a>),
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) enum Reasoning<'a> {
    ReasoningText {
        text: &'a str,
        #[serde(skip_serializing_if = "Option::is_none")]
        signature: Option<&'a str>,
    },
    RedactedContent(&'a str),
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) enum ResultBlock<'a> {
    Text(&'a str),
    Image { format: &'a str, source: ImageSource<'a> },
}

#[derive(Debug, Serialize)]
pub(crate) struct ImageSource<'a> {
    pub(crate) bytes: &'a str,
}

/// The payload of one stream event (each arrives as its own event-stream message).
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct EventBody {
    #[serde(default)]
    pub(crate) content_block_index: Option<usize>,
    #[serde(default)]
    pub(crate) start: Option<Value>,
    #[serde(default)]
    pub(crate) delta: Option<Value>,
    #[serde(default)]
    pub(crate) stop_reason: Option<String>,
    #[serde(default)]
    pub(crate) usage: Option<WireUsage>,
}

#[derive(Debug, Default, Clone, Copy, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct WireUsage {
    #[serde(default)]
    pub(crate) input_tokens: u64,
    #[serde(default)]
    pub(crate) output_tokens: u64,
    #[serde(default)]
    pub(crate) cache_read_input_tokens: u64,
    #[serde(default)]
    pub(crate) cache_write_input_tokens: u64,
}

/// A whole (non-streamed) Converse response.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ConverseResponse {
    #[serde(default)]
    pub(crate) output: Option<Output>,
    #[serde(default)]
    pub(crate) stop_reason: Option<String>,
    #[serde(default)]
    pub(crate) usage: Option<WireUsage>,
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct Output {
    #[serde(default)]
    pub(crate) message: Option<OutputMessage>,
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct OutputMessage {
    #[serde(default)]
    pub(crate) content: Vec<Value>,
}

/// An error body: `{"message": …}` (some services spell it `Message`).
#[derive(Debug, Default, Deserialize)]
pub(crate) struct ErrorBody {
    #[serde(default, alias = "Message")]
    pub(crate) message: String,
}

//! Gemini `generateContent` wire types (REST JSON, camelCase).

use std::borrow::Cow;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct GenerateRequest<'a> {
    pub(crate) contents: Vec<Content<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) system_instruction: Option<SystemInstruction>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) tools: Vec<ToolGroup<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) tool_config: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) generation_config: Option<GenerationConfig<'a>>,
}

#[derive(Debug, Serialize)]
pub(crate) struct SystemInstruction {
    pub(crate) parts: [TextPart; 1],
}

#[derive(Debug, Serialize)]
pub(crate) struct TextPart {
    pub(crate) text: String,
}

#[derive(Debug, Serialize)]
pub(crate) struct Content<'a> {
    pub(crate) role: &'static str,
    pub(crate) parts: Vec<Part<'a>>,
}

/// A part as sent: replayed exactly as the API sent it, or built from canonical parts.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub(crate) enum Part<'a> {
    Stored(&'a Value),
    Built(Built<'a>),
}

#[derive(Debug, Serialize)]
#[serde(untagged)]
pub(crate) enum Built<'a> {
    Text {
        text: &'a str,
    },
    Call {
        #[serde(rename = "functionCall")]
        function_call: FunctionCall<'a>,
        #[serde(rename = "thoughtSignature", skip_serializing_if = "Option::is_none")]
        thought_signature: Option<&'a str>,
    },
    Response {
        #[serde(rename = "functionResponse")]
        function_response: FunctionResponse<'a>,
    },
    Inline {
        #[serde(rename = "inlineData")]
        inline_data: InlineData<'a>,
    },
}

#[derive(Debug, Serialize)]
pub(crate) struct FunctionCall<'a> {
    pub(crate) name: Cow<'a, str>,
    pub(crate) args: &'a Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) id: Option<&'a str>,
}

#[derive(Debug, Serialize)]
pub(crate) struct FunctionResponse<'a> {
    pub(crate) name: Cow<'a, str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) id: Option<&'a str>,
    pub(crate) response: ResponseBody<'a>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) parts: Vec<Built<'a>>,
}

/// A result: its text under `output`, or under `error` for a failed or blocked call.
#[derive(Debug, Serialize)]
pub(crate) enum ResponseBody<'a> {
    #[serde(rename = "output")]
    Output(&'a str),
    #[serde(rename = "error")]
    Error(&'a str),
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct InlineData<'a> {
    pub(crate) mime_type: &'a str,
    pub(crate) data: &'a str,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ToolGroup<'a> {
    pub(crate) function_declarations: Vec<Declaration<'a>>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Declaration<'a> {
    pub(crate) name: Cow<'a, str>,
    #[serde(skip_serializing_if = "str::is_empty")]
    pub(crate) description: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) parameters: Option<Arc<Value>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) parameters_json_schema: Option<&'a Map<String, Value>>,
}

#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct GenerationConfig<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) temperature: Option<f32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) top_p: Option<f32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) max_output_tokens: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) seed: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) thinking_config: Option<&'a super::ThinkingConfig>,
}

impl GenerationConfig<'_> {
    pub(crate) fn is_empty(&self) -> bool {
        self.temperature.is_none()
            && self.top_p.is_none()
            && self.max_output_tokens.is_none()
            && self.seed.is_none()
            && self.thinking_config.is_none()
    }
}

/// One streamed chunk, or a whole response.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Chunk {
    #[serde(default)]
    pub(crate) candidates: Vec<Candidate>,
    #[serde(default)]
    pub(crate) usage_metadata: Option<UsageMetadata>,
    #[serde(default)]
    pub(crate) prompt_feedback: Option<PromptFeedback>,
    #[serde(default)]
    pub(crate) model_version: Option<String>,
    #[serde(default)]
    pub(crate) response_id: Option<String>,
    #[serde(default)]
    pub(crate) error: Option<WireError>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Candidate {
    #[serde(default)]
    pub(crate) content: Option<CandidateContent>,
    #[serde(default)]
    pub(crate) finish_reason: Option<String>,
    #[serde(default)]
    pub(crate) finish_message: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct CandidateContent {
    #[serde(default)]
    pub(crate) parts: Vec<Value>,
}

#[derive(Debug, Default, Clone, Copy, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct UsageMetadata {
    #[serde(default)]
    pub(crate) prompt_token_count: u64,
    #[serde(default)]
    pub(crate) candidates_token_count: u64,
    #[serde(default)]
    pub(crate) thoughts_token_count: u64,
    #[serde(default)]
    pub(crate) tool_use_prompt_token_count: u64,
    #[serde(default)]
    pub(crate) cached_content_token_count: u64,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct PromptFeedback {
    #[serde(default)]
    pub(crate) block_reason: Option<String>,
    #[serde(default)]
    pub(crate) block_reason_message: Option<String>,
}

/// `google.rpc.Status`.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct WireError {
    #[serde(default)]
    pub(crate) code: u16,
    #[serde(default)]
    pub(crate) message: String,
    #[serde(default)]
    pub(crate) status: String,
    #[serde(default)]
    pub(crate) details: Vec<Value>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct ErrorBody {
    pub(crate) error: WireError,
}

//! [`ToolReturn`]: what a tool call gave back.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::ToolStatus;
use crate::message::ToolReturnPart;
use crate::policy::Confidence;
use crate::usage::Cost;

/// The content of a result: text, JSON, or both.
///
/// The model is shown the JSON when there is some (it is the more precise form), else the
/// text.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct ToolContent {
    /// Text content.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// Structured content.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub json: Option<Value>,
}

impl ToolContent {
    /// Text content.
    pub fn text(text: impl Into<String>) -> Self {
        ToolContent { text: Some(text.into()), json: None }
    }

    /// JSON content.
    pub fn json(json: Value) -> Self {
        ToolContent { text: None, json: Some(json) }
    }

    /// What the model is shown: compact JSON when present, else the text, else nothing.
    pub fn model_text(&self) -> Cow<'_, str> {
        match (&self.json, &self.text) {
            (Some(Value::String(s)), _) => Cow::Borrowed(s.as_str()),
            (Some(json), _) => Cow::Owned(json.to_string()),
            (None, Some(text)) => Cow::Borrowed(text.as_str()),
            (None, None) => Cow::Borrowed(""),
        }
    }
}

/// An image that comes with a tool result: its MIME type and its bytes, base64-encoded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Attachment {
    /// `image/png`, `image/jpeg`, `image/gif` or `image/webp`.
    pub mime_type: String,
    /// The bytes, base64 (standard alphabet, padded).
    pub data: String,
}

impl Attachment {
    /// An image of `mime_type` whose bytes are `data`, base64.
    pub fn image(mime_type: impl Into<String>, data: impl Into<String>) -> Self {
        Attachment { mime_type: mime_type.into(), data: data.into() }
    }
}

/// A question a running tool puts to the user (an MCP server's elicitation): the run
/// suspends until the host answers, then the same call runs again with the answer
/// ([`ResumedInput`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct InputRequest {
    /// What the user is asked, in the tool's words.
    pub message: String,
    /// The answer's form: a JSON Schema object of flat properties (strings, numbers,
    /// booleans, enums), as MCP elicitation defines it.
    pub schema: Value,
    /// What the tool needs to go on once answered; kept with the suspended run, opaque to
    /// everyone else.
    #[serde(default)]
    pub state: Value,
}

impl InputRequest {
    /// A question: its `message`, the answer's form as a JSON Schema object, and what the
    /// tool keeps to go on once answered.
    pub fn new(message: impl Into<String>, schema: Value, state: Value) -> Self {
        InputRequest { message: message.into(), schema, state }
    }
}

/// What the user did with an [`InputRequest`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum InputAction {
    /// Answered: the content holds the answer.
    Accept,
    /// Chose not to answer; the tool goes on without.
    Decline,
    /// Stopped the whole operation.
    Cancel,
}

/// The user's answer to an [`InputRequest`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InputResponse {
    /// What they did.
    pub action: InputAction,
    /// The answer, when accepted: an object matching the request's schema.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<serde_json::Map<String, Value>>,
}

impl InputResponse {
    /// An accepted answer.
    pub fn accept(content: serde_json::Map<String, Value>) -> Self {
        InputResponse { action: InputAction::Accept, content: Some(content) }
    }

    /// A declined request.
    pub fn decline() -> Self {
        InputResponse { action: InputAction::Decline, content: None }
    }
}

/// A question asked during an earlier run of a call, with its answer: what the call gets
/// (through its context) when it runs again.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ResumedInput {
    /// The question, with the tool's state.
    pub request: InputRequest,
    /// The answer.
    pub response: InputResponse,
}

/// A source a tool used: shown to the user with the answer.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Source {
    /// Where the material is (the final URL after redirects, for web pages).
    pub url: String,
    /// Its title, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
}

impl Source {
    /// A source at `url` titled `title`.
    pub fn new(url: impl Into<String>, title: impl Into<Option<String>>) -> Self {
        Source { url: url.into(), title: title.into() }
    }
}

/// What one tool call gave back.
///
/// Tools may build one themselves (for sources, costs or private metadata); the executor
/// fills in the call id, tool name and status.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ToolReturn {
    /// The id of the call this answers.
    pub call_id: String,
    /// The name the model called the tool by.
    pub tool_name: String,
    /// How the call ended.
    pub status: ToolStatus,
    /// What the model is shown.
    pub content: ToolContent,
    /// Material the tool used, for the user.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sources: Vec<Source>,
    /// The provider confidence the conversation requires from now on, because of what this
    /// result contains. Never lowers an earlier requirement.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub required_confidence: Option<Confidence>,
    /// What the call cost.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<Cost>,
    /// Data for the host only; it never reaches the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub private_metadata: Option<Value>,
    /// Why the call did not succeed, in full, for the user and the logs — the cause chain
    /// of a failure the model is told less about. Never reaches the model; secrets the
    /// call read are removed from it as from the content.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// The tool passed its untrusted content through the filter itself (field by field),
    /// so the executor does not filter it again.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub untrusted_filtered: bool,
    /// What the prompt-injection filter removed from this result, or why it could not run
    /// (set only when there is something to say). For the user, the trace and the logs;
    /// never for the model, which sees the markers in the content.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub filter: Option<FilterReport>,
    /// Images for the model, passed on by the adapters whose API takes images in a tool
    /// result; the content should describe them for the others.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attachments: Vec<Attachment>,
    /// The question the call waits on (status `input_required`); never reaches the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_request: Option<Box<InputRequest>>,
}

/// What the prompt-injection filter did to one result: the spans it replaced, by source.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[non_exhaustive]
pub struct FilterReport {
    /// The sources with replaced spans, in the order they first appeared.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sources: Vec<FilteredSource>,
    /// Why the filter could not run (the text then reached the model unfiltered).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warning: Option<String>,
}

impl FilterReport {
    /// A report of spans replaced in `sources`.
    pub fn replaced(sources: Vec<FilteredSource>) -> Self {
        FilterReport { sources, warning: None }
    }

    /// A report that the filter could not run, and why.
    pub fn failed(warning: impl Into<String>) -> Self {
        FilterReport { sources: Vec::new(), warning: Some(warning.into()) }
    }

    /// Nothing was replaced and nothing went wrong.
    pub fn is_empty(&self) -> bool {
        self.warning.is_none() && self.sources.iter().all(|s| s.spans.is_empty())
    }

    /// How many spans were replaced in all.
    pub fn span_count(&self) -> usize {
        self.sources.iter().map(|s| s.spans.len()).sum()
    }

    /// Adds `other`'s findings and warning to this report.
    pub fn merge(&mut self, other: FilterReport) {
        for source in other.sources {
            match self.sources.iter_mut().find(|s| s.source == source.source) {
                Some(known) => known.spans.extend(source.spans),
                None => self.sources.push(source),
            }
        }
        if self.warning.is_none() {
            self.warning = other.warning;
        }
    }
}

/// The spans replaced in the text of one source (a URL, a tool, a server, a file).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FilteredSource {
    /// The source.
    pub source: String,
    /// Its replaced spans, by field and position.
    pub spans: Vec<FilteredSpan>,
}

/// One replaced span.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FilteredSpan {
    /// The field it stood in (`content`, `title`, `snippet`, `hidden`, ...).
    pub field: String,
    /// Where it stood in the field's text before filtering, in bytes.
    pub start: usize,
    /// Where it ended.
    pub end: usize,
    /// The score that marked it, 0 to 1.
    pub score: f32,
    /// The kinds of evidence behind it (`override`, `addressee`, `role_marker`, ...).
    pub reasons: Vec<String>,
}

impl ToolReturn {
    /// This result as the result of `call`: its id and tool name.
    pub fn for_call(mut self, call: &crate::ToolCall) -> Self {
        self.call_id = call.id.clone();
        self.tool_name = call.name.clone();
        self
    }

    /// A successful result with this content.
    pub fn new(content: ToolContent) -> Self {
        ToolReturn {
            call_id: String::new(),
            tool_name: String::new(),
            status: ToolStatus::Ok,
            content,
            sources: Vec::new(),
            required_confidence: None,
            cost: None,
            private_metadata: None,
            detail: None,
            untrusted_filtered: false,
            filter: None,
            attachments: Vec::new(),
            input_request: None,
        }
    }

    /// A successful text result.
    pub fn text(text: impl Into<String>) -> Self {
        ToolReturn::new(ToolContent::text(text))
    }

    /// A successful JSON result.
    pub fn json(json: Value) -> Self {
        ToolReturn::new(ToolContent::json(json))
    }

    /// A result with `status` whose content is the text the model is shown.
    pub fn with_status(status: ToolStatus, text: impl Into<String>) -> Self {
        ToolReturn { status, ..ToolReturn::text(text) }
    }

    /// Adds sources.
    pub fn with_sources(mut self, sources: impl IntoIterator<Item = Source>) -> Self {
        self.sources.extend(sources);
        self
    }

    /// Raises the confidence the conversation requires.
    pub fn with_required_confidence(mut self, level: Confidence) -> Self {
        self.required_confidence = Some(self.required_confidence.map_or(level, |l| l.max(level)));
        self
    }

    /// Sets what the call cost.
    pub fn with_cost(mut self, cost: Cost) -> Self {
        self.cost = Some(cost);
        self
    }

    /// Attaches host-only data.
    pub fn with_private_metadata(mut self, metadata: Value) -> Self {
        self.private_metadata = Some(metadata);
        self
    }

    /// Whether the call succeeded.
    pub fn is_ok(&self) -> bool {
        self.status == ToolStatus::Ok
    }

    /// The text the model is shown.
    pub fn model_text(&self) -> Cow<'_, str> {
        self.content.model_text()
    }

    /// The part that enters the conversation: only what the model may see.
    pub fn to_part(&self) -> ToolReturnPart {
        ToolReturnPart {
            call_id: self.call_id.clone(),
            tool_name: self.tool_name.clone(),
            content: self.model_text().into_owned(),
            status: self.status,
            attachments: self.attachments.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn json_wins_over_text_for_the_model() {
        let both = ToolContent { text: Some("22 degrees".into()), json: Some(json!({"t": 22})) };
        assert_eq!(both.model_text(), r#"{"t":22}"#);
        assert_eq!(ToolContent::json(json!("plain")).model_text(), "plain");
        assert_eq!(ToolContent::default().model_text(), "");
    }

    #[test]
    fn private_metadata_stays_out_of_the_part() {
        let ret = ToolReturn::text("done").with_private_metadata(json!({"token": "s3cr3t"}));
        let part = ret.to_part();
        let text = serde_json::to_string(&part).unwrap();
        assert!(!text.contains("s3cr3t"));
    }

    #[test]
    fn required_confidence_only_rises() {
        let ret = ToolReturn::text("x")
            .with_required_confidence(Confidence::High)
            .with_required_confidence(Confidence::Low);
        assert_eq!(ret.required_confidence, Some(Confidence::High));
    }
}

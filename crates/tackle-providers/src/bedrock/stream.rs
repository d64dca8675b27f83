//! Converse responses → one turn. `ConverseStream` events arrive as event-stream messages
//! named by their type; a whole `Converse` response is replayed as the events it would have
//! streamed, through the same block state.

use std::collections::{BTreeMap, VecDeque};

use serde_json::{Value, json};
use tackle_core::{
    AssistantPart, AssistantTurn, FinishReason, ModelError, ModelErrorKind, ModelEvent, ModelResponse,
    ProviderData, Secret, Thinking, ToolArguments, ToolCall, Usage,
};
use tackle_http::{HttpError, SseEvent};

use super::request::NAMESPACE;
use super::wire::{ConverseResponse, ErrorBody, EventBody, WireUsage};
use crate::drive::{Accumulate, Flow, Framing};

#[derive(Debug)]
enum Block {
    Text(String),
    Reasoning { text: String, signature: String },
    Redacted(String),
    ToolUse { id: String, name: String, json: String },
}

/// Builds one turn from Converse events.
#[derive(Debug, Default)]
pub(crate) struct ConverseAccumulator {
    blocks: BTreeMap<usize, Block>,
    stop_reason: Option<String>,
    usage: Option<WireUsage>,
    stopped: bool,
    secrets: Vec<Secret>,
    no_call_deltas: bool,
}

/// A model error for a Bedrock exception (by its type where known, else by the status),
/// with every secret scrubbed from its message.
pub(crate) fn model_error(
    exception: &str,
    message: &str,
    status: Option<u16>,
    secrets: &[Secret],
) -> ModelError {
    let lower = message.to_ascii_lowercase();
    let too_long = [
        "too long",
        "too many input tokens",
        "context window",
        "context length",
        "maximum context",
        "prompt is too long",
    ]
    .iter()
    .any(|p| lower.contains(p));
    let kind = match exception {
        _ if too_long => ModelErrorKind::ContextTooLong,
        "throttlingException" => ModelErrorKind::RateLimited,
        "serviceUnavailableException" => ModelErrorKind::Overloaded,
        "internalServerException" | "modelStreamErrorException" | "modelTimeoutException" => {
            ModelErrorKind::Server
        }
        "accessDeniedException" | "unrecognizedClientException" => ModelErrorKind::Authentication,
        "validationException" => ModelErrorKind::InvalidRequest,
        _ => match status {
            // A model's own failure, passed on.
            Some(424) => ModelErrorKind::Server,
            Some(status) => crate::drive::kind_for_status(status),
            None => ModelErrorKind::Server,
        },
    };
    let mut message = if message.is_empty() {
        format!("the provider reported {}", if exception.is_empty() { "an error" } else { exception })
    } else {
        message.to_owned()
    };
    Secret::scrub_all(secrets, &mut message);
    ModelError::new(kind, message)
}

fn invalid(message: String) -> ModelError {
    ModelError::new(ModelErrorKind::InvalidResponse, message)
}

fn text_at<'v>(value: &'v Value, key: &str) -> Option<&'v str> {
    value.get(key).and_then(Value::as_str)
}

impl ConverseAccumulator {
    pub(crate) fn new(secrets: Vec<Secret>) -> Self {
        ConverseAccumulator { secrets, ..ConverseAccumulator::default() }
    }

    /// Leaves tool-call deltas out when the caller does not read them.
    pub(crate) fn call_deltas(mut self, wanted: bool) -> Self {
        self.no_call_deltas = !wanted;
        self
    }

    fn start(&mut self, index: usize, start: &Value, out: &mut VecDeque<ModelEvent>) {
        if let Some(tool) = start.get("toolUse") {
            let id = text_at(tool, "toolUseId").unwrap_or_default().to_owned();
            let name = text_at(tool, "name").unwrap_or_default().to_owned();
            if !self.no_call_deltas {
                out.push_back(ModelEvent::ToolCallDelta {
                    index,
                    id: Some(id.clone()),
                    name: Some(name.clone()),
                    arguments: String::new(),
                });
            }
            self.blocks.insert(index, Block::ToolUse { id, name, json: String::new() });
        }
    }

    fn delta(&mut self, index: usize, delta: &Value, out: &mut VecDeque<ModelEvent>) {
        if let Some(text) = text_at(delta, "text") {
            if let Block::Text(joined) =
                self.blocks.entry(index).or_insert_with(|| Block::Text(String::new()))
            {
                joined.push_str(text);
                out.push_back(ModelEvent::TextDelta(text.to_owned()));
            }
        } else if let Some(input) = delta.get("toolUse").and_then(|t| text_at(t, "input")) {
            if let Some(Block::ToolUse { json, .. }) = self.blocks.get_mut(&index) {
                json.push_str(input);
                if !self.no_call_deltas {
                    out.push_back(ModelEvent::ToolCallDelta {
                        index,
                        id: None,
                        name: None,
                        arguments: input.to_owned(),
                    });
                }
            }
        } else if let Some(reasoning) = delta.get("reasoningContent") {
            if let Some(redacted) = text_at(reasoning, "redactedContent") {
                if let Block::Redacted(data) =
                    self.blocks.entry(index).or_insert_with(|| Block::Redacted(String::new()))
                {
                    data.push_str(redacted);
                }
                return;
            }
            let block = self
                .blocks
                .entry(index)
                .or_insert_with(|| Block::Reasoning { text: String::new(), signature: String::new() });
            if let Block::Reasoning { text, signature } = block {
                if let Some(piece) = text_at(reasoning, "text") {
                    text.push_str(piece);
                    out.push_back(ModelEvent::ThinkingDelta(piece.to_owned()));
                }
                if let Some(piece) = text_at(reasoning, "signature") {
                    signature.push_str(piece);
                }
            }
        }
        // Citations and other deltas tackle does not read are left out.
    }

    fn usage(&self) -> Usage {
        let u = self.usage.unwrap_or_default();
        Usage::default()
            .requests(1)
            .input_tokens(u.input_tokens + u.cache_read_input_tokens + u.cache_write_input_tokens)
            .output_tokens(u.output_tokens)
            .cache_read_tokens(u.cache_read_input_tokens)
            .cache_write_tokens(u.cache_write_input_tokens)
            .reasoning_tokens(0)
    }
}

impl Accumulate for ConverseAccumulator {
    fn framing(&self) -> Framing {
        Framing::EventStream
    }

    fn event(&mut self, event: &SseEvent, out: &mut VecDeque<ModelEvent>) -> Result<Flow, ModelError> {
        if let Some(kind) = event.event.strip_prefix("exception:") {
            let message =
                serde_json::from_str::<ErrorBody>(&event.data).map(|b| b.message).unwrap_or_default();
            return Err(model_error(kind, &message, None, &self.secrets));
        }
        if let Some(code) = event.event.strip_prefix("error:") {
            return Err(model_error(code, &event.data, None, &self.secrets));
        }
        let body: EventBody = serde_json::from_str(&event.data)
            .map_err(|e| invalid(format!("the provider sent an event that could not be read ({e})")))?;
        let index = body.content_block_index.unwrap_or(0);
        match event.event.as_str() {
            "contentBlockStart" => {
                if let Some(start) = &body.start {
                    self.start(index, start, out);
                }
            }
            "contentBlockDelta" => {
                if let Some(delta) = &body.delta {
                    self.delta(index, delta, out);
                }
            }
            "messageStop" => {
                self.stop_reason = body.stop_reason;
                self.stopped = true;
            }
            "metadata" => {
                if let Some(usage) = body.usage {
                    self.usage = Some(usage);
                    out.push_back(ModelEvent::Usage(self.usage()));
                }
                // Metadata comes last.
                if self.stopped {
                    return Ok(Flow::Done);
                }
            }
            // messageStart, contentBlockStop, and events added later.
            _ => {}
        }
        Ok(Flow::Continue)
    }

    fn whole(&mut self, body: &[u8], out: &mut VecDeque<ModelEvent>) -> Result<(), ModelError> {
        let response: ConverseResponse = serde_json::from_slice(body)
            .map_err(|e| invalid(format!("the provider's response is not valid JSON ({e})")))?;
        let content = response.output.and_then(|o| o.message).map(|m| m.content).unwrap_or_default();
        for (index, block) in content.iter().enumerate() {
            if let Some(text) = text_at(block, "text") {
                self.delta(index, &json!({"text": text}), out);
            } else if let Some(tool) = block.get("toolUse") {
                self.start(index, &json!({"toolUse": tool}), out);
                let input = tool.get("input").cloned().unwrap_or_else(|| json!({})).to_string();
                self.delta(index, &json!({"toolUse": {"input": input}}), out);
            } else if let Some(reasoning) = block.get("reasoningContent") {
                if let Some(text) = reasoning.get("reasoningText") {
                    self.delta(
                        index,
                        &json!({"reasoningContent": {"text": text_at(text, "text").unwrap_or_default()}}),
                        out,
                    );
                    if let Some(signature) = text_at(text, "signature") {
                        self.delta(index, &json!({"reasoningContent": {"signature": signature}}), out);
                    }
                } else if let Some(redacted) = text_at(reasoning, "redactedContent") {
                    self.delta(index, &json!({"reasoningContent": {"redactedContent": redacted}}), out);
                }
            }
        }
        self.usage = response.usage;
        self.stop_reason = response.stop_reason;
        self.stopped = true;
        Ok(())
    }

    fn finish(&mut self, _ended_cleanly: bool) -> Result<ModelResponse, ModelError> {
        if !self.stopped {
            return Err(ModelError::new(
                ModelErrorKind::Transport,
                "the response was cut off before it was complete",
            ));
        }
        let mut parts = Vec::new();
        let mut stored = Vec::new();
        for (_, block) in std::mem::take(&mut self.blocks) {
            match block {
                Block::Text(text) => {
                    stored.push(json!({"text": text}));
                    parts.push(AssistantPart::Text(text));
                }
                Block::Reasoning { text, signature } => {
                    let mut reasoning = json!({"text": text});
                    if !signature.is_empty() {
                        reasoning["signature"] = json!(signature);
                    }
                    stored.push(json!({"reasoningContent": {"reasoningText": reasoning}}));
                    let data = (!signature.is_empty())
                        .then(|| ProviderData::new(NAMESPACE, json!({"signature": signature})));
                    parts.push(AssistantPart::Thinking(Thinking {
                        text,
                        redacted: false,
                        provider_data: data,
                    }));
                }
                Block::Redacted(data) => {
                    stored.push(json!({"reasoningContent": {"redactedContent": data}}));
                    parts.push(AssistantPart::Thinking(Thinking {
                        text: String::new(),
                        redacted: true,
                        provider_data: Some(ProviderData::new(NAMESPACE, json!({"redacted": data}))),
                    }));
                }
                Block::ToolUse { id, name, json } => {
                    let arguments = if json.trim().is_empty() {
                        ToolArguments::Json(json!({}))
                    } else {
                        ToolArguments::parse(&json)
                    };
                    let input = match &arguments {
                        ToolArguments::Json(value @ Value::Object(_)) => value.clone(),
                        _ => json!({}),
                    };
                    stored.push(json!({"toolUse": {"toolUseId": id, "name": name, "input": input}}));
                    parts.push(AssistantPart::ToolCall(ToolCall {
                        id,
                        name,
                        arguments,
                        provider_data: None,
                    }));
                }
            }
        }
        let has_calls = parts.iter().any(|p| matches!(p, AssistantPart::ToolCall(_)));
        let finish_reason = match self.stop_reason.as_deref() {
            _ if has_calls => FinishReason::ToolCalls,
            Some("end_turn" | "stop_sequence") | None => FinishReason::Stop,
            Some("tool_use") => FinishReason::ToolCalls,
            Some("max_tokens" | "model_context_window_exceeded") => FinishReason::Length,
            Some("guardrail_intervened" | "content_filtered") => FinishReason::ContentFilter,
            Some(_) => FinishReason::Other,
        };
        Ok(ModelResponse {
            turn: AssistantTurn {
                parts,
                model_name: None,
                finish_reason: Some(finish_reason),
                usage: self.usage(),
                provider_data: Some(ProviderData::new(NAMESPACE, json!({"content": stored}))),
            },
        })
    }

    fn http_error(&self, error: HttpError) -> ModelError {
        let secrets = &self.secrets;
        crate::drive::http_model_error(error, |status, body| {
            serde_json::from_str::<ErrorBody>(body)
                .ok()
                .map(|b| model_error("", &b.message, Some(status), secrets))
        })
    }
}

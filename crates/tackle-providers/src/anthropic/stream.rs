//! Messages responses → one turn. Streamed events and whole responses share the block
//! state below (a whole response is replayed as the events it would have streamed).

use std::collections::{BTreeMap, VecDeque};

use serde_json::{Value, json};
use tackle_core::Secret;
use tackle_core::{
    AssistantPart, AssistantTurn, FinishReason, ModelError, ModelErrorKind, ModelEvent, ModelResponse,
    ProviderData, Thinking, ToolArguments, ToolCall, Usage,
};
use tackle_http::{HttpError, SseEvent};

use super::request::NAMESPACE;
use super::wire::{Delta, ErrorBody, Event, WholeMessage, WireError, WireUsage};
use crate::drive::{Accumulate, Flow};

#[derive(Debug)]
enum Block {
    Text(String),
    Thinking { text: String, signature: String },
    Redacted(Value),
    ToolUse { id: String, name: String, json: String, start: Value },
    Other(Value),
}

/// Builds one turn from Messages events.
#[derive(Debug, Default)]
pub(crate) struct MessagesAccumulator {
    blocks: BTreeMap<usize, Block>,
    stop_reason: Option<String>,
    usage: WireUsage,
    model: Option<String>,
    stopped: bool,
    secret: Option<Secret>,
    /// The caller does not read tool-call deltas: none are built.
    no_call_deltas: bool,
}

pub(crate) fn model_error(error: &WireError, status: Option<u16>, secret: Option<&Secret>) -> ModelError {
    let kind = match error.kind.as_str() {
        "authentication_error" | "permission_error" => ModelErrorKind::Authentication,
        "rate_limit_error" => ModelErrorKind::RateLimited,
        "overloaded_error" => ModelErrorKind::Overloaded,
        "api_error" | "timeout_error" => ModelErrorKind::Server,
        _ if error.message.contains("prompt is too long") => ModelErrorKind::ContextTooLong,
        "request_too_large" => ModelErrorKind::ContextTooLong,
        _ => status.map_or(ModelErrorKind::InvalidRequest, crate::drive::kind_for_status),
    };
    let mut message = if error.message.is_empty() {
        format!("the provider reported {}", error.kind)
    } else {
        error.message.clone()
    };
    if let Some(secret) = secret {
        secret.scrub(&mut message);
    }
    ModelError::new(kind, message)
}

fn merge_usage(into: &mut WireUsage, from: &WireUsage) {
    into.input_tokens = from.input_tokens.or(into.input_tokens);
    into.output_tokens = from.output_tokens.or(into.output_tokens);
    into.cache_creation_input_tokens = from.cache_creation_input_tokens.or(into.cache_creation_input_tokens);
    into.cache_read_input_tokens = from.cache_read_input_tokens.or(into.cache_read_input_tokens);
}

fn text_of(value: &Value, key: &str) -> String {
    value.get(key).and_then(Value::as_str).unwrap_or_default().to_owned()
}

impl MessagesAccumulator {
    pub(crate) fn new(secret: Option<Secret>) -> Self {
        MessagesAccumulator { secret, ..MessagesAccumulator::default() }
    }

    /// Leaves tool-call deltas out when the caller does not read them.
    pub(crate) fn call_deltas(mut self, wanted: bool) -> Self {
        self.no_call_deltas = !wanted;
        self
    }

    fn handle(&mut self, event: Event, out: &mut VecDeque<ModelEvent>) -> Result<Flow, ModelError> {
        match event {
            Event::MessageStart { message } => {
                self.model = message.model;
                if let Some(usage) = message.usage {
                    merge_usage(&mut self.usage, &usage);
                }
            }
            Event::ContentBlockStart { index, content_block } => {
                let block = match content_block.get("type").and_then(Value::as_str) {
                    Some("text") => Block::Text(text_of(&content_block, "text")),
                    Some("thinking") => Block::Thinking {
                        text: text_of(&content_block, "thinking"),
                        signature: text_of(&content_block, "signature"),
                    },
                    Some("redacted_thinking") => Block::Redacted(content_block),
                    Some("tool_use") => Block::ToolUse {
                        id: text_of(&content_block, "id"),
                        name: text_of(&content_block, "name"),
                        json: String::new(),
                        start: content_block,
                    },
                    _ => Block::Other(content_block),
                };
                if let Block::ToolUse { id, name, .. } = &block
                    && !self.no_call_deltas
                {
                    out.push_back(ModelEvent::ToolCallDelta {
                        index,
                        id: Some(id.clone()),
                        name: Some(name.clone()),
                        arguments: String::new(),
                    });
                }
                self.blocks.insert(index, block);
            }
            Event::ContentBlockDelta { index, delta } => match (self.blocks.get_mut(&index), delta) {
                (Some(Block::Text(text)), Delta::Text { text: piece }) => {
                    text.push_str(&piece);
                    out.push_back(ModelEvent::TextDelta(piece));
                }
                (Some(Block::Thinking { text, .. }), Delta::Thinking { thinking }) => {
                    text.push_str(&thinking);
                    out.push_back(ModelEvent::ThinkingDelta(thinking));
                }
                (Some(Block::Thinking { signature, .. }), Delta::Signature { signature: piece }) => {
                    signature.push_str(&piece);
                }
                (Some(Block::ToolUse { json, .. }), Delta::InputJson { partial_json }) => {
                    json.push_str(&partial_json);
                    if !self.no_call_deltas {
                        out.push_back(ModelEvent::ToolCallDelta {
                            index,
                            id: None,
                            name: None,
                            arguments: partial_json,
                        });
                    }
                }
                // Citations, and deltas for blocks tackle keeps verbatim.
                _ => {}
            },
            Event::ContentBlockStop {} | Event::Ping {} | Event::Unknown => {}
            Event::MessageDelta { delta, usage } => {
                if delta.stop_reason.is_some() {
                    self.stop_reason = delta.stop_reason;
                }
                if let Some(usage) = usage {
                    merge_usage(&mut self.usage, &usage);
                    out.push_back(ModelEvent::Usage(self.usage()));
                }
            }
            Event::MessageStop {} => {
                self.stopped = true;
                return Ok(Flow::Done);
            }
            Event::Error { error } => return Err(model_error(&error, None, self.secret.as_ref())),
        }
        Ok(Flow::Continue)
    }

    fn usage(&self) -> Usage {
        let u = &self.usage;
        let cache_write = u.cache_creation_input_tokens.unwrap_or(0);
        let cache_read = u.cache_read_input_tokens.unwrap_or(0);
        Usage::default()
            .requests(1)
            .input_tokens(u.input_tokens.unwrap_or(0) + cache_write + cache_read)
            .output_tokens(u.output_tokens.unwrap_or(0))
            .cache_read_tokens(cache_read)
            .cache_write_tokens(cache_write)
            .reasoning_tokens(0)
    }
}

fn invalid(message: String) -> ModelError {
    ModelError::new(ModelErrorKind::InvalidResponse, message)
}

impl Accumulate for MessagesAccumulator {
    fn event(&mut self, event: &SseEvent, out: &mut VecDeque<ModelEvent>) -> Result<Flow, ModelError> {
        if event.data.trim().is_empty() {
            return Ok(Flow::Continue);
        }
        let parsed: Event = serde_json::from_str(&event.data)
            .map_err(|e| invalid(format!("the provider sent an event that could not be read ({e})")))?;
        self.handle(parsed, out)
    }

    fn whole(&mut self, body: &[u8], out: &mut VecDeque<ModelEvent>) -> Result<(), ModelError> {
        let message: WholeMessage = serde_json::from_slice(body)
            .map_err(|e| invalid(format!("the provider's response is not valid JSON ({e})")))?;
        self.model = message.model;
        if let Some(usage) = &message.usage {
            merge_usage(&mut self.usage, usage);
        }
        for (index, block) in message.content.into_iter().enumerate() {
            // Replay each block as the events that would have streamed it.
            let (start, delta) = match block.get("type").and_then(Value::as_str) {
                Some("text") => {
                    (json!({"type": "text", "text": ""}), Some(Delta::Text { text: text_of(&block, "text") }))
                }
                Some("thinking") => {
                    let start = json!({"type": "thinking", "thinking": "", "signature": text_of(&block, "signature")});
                    (start, Some(Delta::Thinking { thinking: text_of(&block, "thinking") }))
                }
                Some("tool_use") => {
                    let input = block.get("input").cloned().unwrap_or_else(|| json!({}));
                    let mut start = block.clone();
                    start["input"] = json!({});
                    (start, Some(Delta::InputJson { partial_json: input.to_string() }))
                }
                _ => (block, None),
            };
            self.handle(Event::ContentBlockStart { index, content_block: start }, out)?;
            if let Some(delta) = delta {
                self.handle(Event::ContentBlockDelta { index, delta }, out)?;
            }
        }
        self.stop_reason = message.stop_reason;
        self.stopped = true;
        Ok(())
    }

    fn finish(&mut self, ended_cleanly: bool) -> Result<ModelResponse, ModelError> {
        if !(ended_cleanly || self.stopped) {
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
                    stored.push(json!({"type": "text", "text": text}));
                    parts.push(AssistantPart::Text(text));
                }
                Block::Thinking { text, signature } => {
                    stored.push(json!({"type": "thinking", "thinking": text, "signature": signature}));
                    parts.push(AssistantPart::Thinking(Thinking {
                        text,
                        redacted: false,
                        provider_data: Some(ProviderData::new(NAMESPACE, json!({"signature": signature}))),
                    }));
                }
                Block::Redacted(block) => {
                    parts.push(AssistantPart::Thinking(Thinking {
                        text: String::new(),
                        redacted: true,
                        provider_data: Some(ProviderData::new(NAMESPACE, json!({"data": block.get("data")}))),
                    }));
                    stored.push(block);
                }
                Block::ToolUse { id, name, json, start } => {
                    let arguments = ToolArguments::parse(&json);
                    let mut replay = start;
                    replay["input"] = match &arguments {
                        ToolArguments::Json(value @ Value::Object(_)) => value.clone(),
                        _ => json!({}),
                    };
                    stored.push(replay);
                    parts.push(AssistantPart::ToolCall(ToolCall {
                        id,
                        name,
                        arguments,
                        provider_data: None,
                    }));
                }
                Block::Other(block) => stored.push(block),
            }
        }
        let has_calls = parts.iter().any(|p| matches!(p, AssistantPart::ToolCall(_)));
        let finish_reason = match self.stop_reason.as_deref() {
            Some("tool_use") => FinishReason::ToolCalls,
            _ if has_calls => FinishReason::ToolCalls,
            Some("end_turn" | "stop_sequence") | None => FinishReason::Stop,
            Some("max_tokens" | "model_context_window_exceeded") => FinishReason::Length,
            Some("refusal") => FinishReason::ContentFilter,
            Some(_) => FinishReason::Other,
        };
        Ok(ModelResponse {
            turn: AssistantTurn {
                parts,
                model_name: self.model.take(),
                finish_reason: Some(finish_reason),
                usage: self.usage(),
                provider_data: Some(ProviderData::new(NAMESPACE, json!({"content": stored}))),
            },
        })
    }

    fn http_error(&self, error: HttpError) -> ModelError {
        let secret = self.secret.as_ref();
        crate::drive::http_model_error(error, |status, body| {
            serde_json::from_str::<ErrorBody>(body).ok().map(|b| model_error(&b.error, Some(status), secret))
        })
    }
}

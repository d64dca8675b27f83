//! Chat Completions responses → one turn: streamed chunks and whole responses share this
//! accumulator (a whole response is one chunk whose `message` is the complete delta).

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::sync::Arc;

use serde_json::{Map, Value, json};
use tackle_core::{
    AssistantPart, AssistantTurn, FinishReason, ModelError, ModelErrorKind, ModelEvent, ModelResponse,
    ProviderData, Thinking, ToolArguments, ToolCall, Usage,
};
use tackle_core::{Secret, ToolDefinition};
use tackle_http::{HttpError, SseEvent};

use super::request::NAMESPACE;
use super::wire::{Chunk, ErrorBody, WireError, WireUsage};
use crate::drive::{Accumulate, Flow};
use crate::strict::strip_optional_nulls;

#[derive(Debug, Default)]
struct PartialCall {
    id: String,
    name: String,
    arguments: String,
    extra: Map<String, Value>,
}

/// Builds one turn from Chat Completions chunks.
#[derive(Debug, Default)]
pub(crate) struct ChatAccumulator {
    text: String,
    reasoning: String,
    refusal: String,
    calls: BTreeMap<usize, PartialCall>,
    last_index: Option<usize>,
    finish: Option<String>,
    usage: Usage,
    model: Option<String>,
    strict_tools: HashMap<String, Arc<ToolDefinition>>,
    secret: Option<Secret>,
    /// The caller does not read tool-call deltas: none are built.
    no_call_deltas: bool,
}

pub(crate) fn model_error(status: Option<u16>, error: &WireError, secret: Option<&Secret>) -> ModelError {
    let code = error.code.as_ref().and_then(Value::as_str).unwrap_or_default();
    let kind = match (status, error.kind.as_deref(), code) {
        (_, _, "context_length_exceeded") => ModelErrorKind::ContextTooLong,
        (_, _, "rate_limit_exceeded") | (_, Some("rate_limit_exceeded"), _) => ModelErrorKind::RateLimited,
        (_, _, "invalid_api_key") | (_, Some("authentication_error"), _) => ModelErrorKind::Authentication,
        (Some(status), _, _) => crate::drive::kind_for_status(status),
        (None, Some("server_error"), _) => ModelErrorKind::Server,
        (None, _, _) => ModelErrorKind::InvalidRequest,
    };
    let mut message = if error.message.is_empty() {
        "the provider reported an error".to_owned()
    } else {
        error.message.clone()
    };
    if let Some(secret) = secret {
        secret.scrub(&mut message);
    }
    ModelError::new(kind, message)
}

fn usage(wire: &WireUsage) -> Usage {
    Usage::default()
        .requests(1)
        .input_tokens(wire.prompt_tokens)
        .output_tokens(wire.completion_tokens)
        .cache_read_tokens(wire.prompt_tokens_details.as_ref().and_then(|d| d.cached_tokens).unwrap_or(0))
        .cache_write_tokens(0)
        .reasoning_tokens(
            wire.completion_tokens_details.as_ref().and_then(|d| d.reasoning_tokens).unwrap_or(0),
        )
}

fn call_id() -> String {
    let mut id = String::from("call_");
    for _ in 0..24 {
        id.push(fastrand_alnum());
    }
    id
}

fn fastrand_alnum() -> char {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    char::from(ALPHABET[fastrand::usize(..ALPHABET.len())])
}

impl ChatAccumulator {
    pub(crate) fn new(strict_tools: HashMap<String, Arc<ToolDefinition>>, secret: Option<Secret>) -> Self {
        ChatAccumulator { strict_tools, secret, ..ChatAccumulator::default() }
    }

    /// Leaves tool-call deltas out when the caller does not read them.
    pub(crate) fn call_deltas(mut self, wanted: bool) -> Self {
        self.no_call_deltas = !wanted;
        self
    }

    fn chunk(&mut self, chunk: Chunk<'_>, out: &mut VecDeque<ModelEvent>) -> Result<(), ModelError> {
        if let Some(error) = chunk.error {
            return Err(model_error(None, &error, self.secret.as_ref()));
        }
        // Most providers repeat the model in every chunk: kept once.
        if let Some(model) = chunk.model
            && self.model.as_deref() != Some(&*model)
        {
            self.model = Some(model.into_owned());
        }
        if let Some(wire) = &chunk.usage {
            self.usage = usage(wire);
            out.push_back(ModelEvent::Usage(self.usage));
        }
        for choice in chunk.choices.into_iter().filter(|c| c.index == 0) {
            if let Some(delta) = choice.delta {
                if let Some(text) = delta.content.filter(|t| !t.is_empty()) {
                    self.text.push_str(&text);
                    out.push_back(ModelEvent::TextDelta(text.into_owned()));
                }
                if let Some(text) = delta.reasoning_content.or(delta.reasoning).filter(|t| !t.is_empty()) {
                    self.reasoning.push_str(&text);
                    out.push_back(ModelEvent::ThinkingDelta(text.into_owned()));
                }
                if let Some(refusal) = delta.refusal {
                    self.refusal.push_str(&refusal);
                }
                for (position, fragment) in delta.tool_calls.unwrap_or_default().into_iter().enumerate() {
                    // Key by index; else by id (a new id opens a new call); else the call
                    // opened last; else the position.
                    let next_free = self.calls.keys().next_back().map_or(position, |last| last + 1);
                    let by_id = fragment.id.as_ref().filter(|id| !id.is_empty()).map(|id| {
                        self.calls.iter().find(|(_, c)| &c.id == id).map_or(next_free, |(i, _)| *i)
                    });
                    let index = fragment.index.or(by_id).or(self.last_index).unwrap_or(position);
                    self.last_index = Some(index);
                    let call = self.calls.entry(index).or_default();
                    // The delta carries the id and the name only in the piece that brings
                    // them (as ModelEvent documents), not copied into every later piece.
                    let mut new_id = None;
                    if let Some(id) = fragment.id.filter(|id| !id.is_empty())
                        && call.id.is_empty()
                    {
                        call.id.push_str(&id);
                        if !self.no_call_deltas {
                            new_id = Some(id.into_owned());
                        }
                    }
                    let (name, arguments) = match fragment.function {
                        Some(f) => (f.name, f.arguments.unwrap_or_default()),
                        None => (None, std::borrow::Cow::Borrowed("")),
                    };
                    let mut new_name = None;
                    if let Some(name) = name.filter(|n| !n.is_empty())
                        && (!call.name.ends_with(&*name) || call.name.is_empty())
                    {
                        call.name.push_str(&name);
                        if !self.no_call_deltas {
                            new_name = Some(call.name.clone());
                        }
                    }
                    call.arguments.push_str(&arguments);
                    for (key, value) in fragment.extra {
                        if key != "type" && !value.is_null() {
                            call.extra.entry(key).or_insert(value);
                        }
                    }
                    if !self.no_call_deltas {
                        out.push_back(ModelEvent::ToolCallDelta {
                            index,
                            id: new_id,
                            name: new_name,
                            arguments: arguments.into_owned(),
                        });
                    }
                }
            }
            if let Some(reason) = choice.finish_reason {
                self.finish = Some(reason.into_owned());
            }
        }
        Ok(())
    }

    fn calls(&mut self) -> Vec<ToolCall> {
        let mut calls = Vec::new();
        for (_, partial) in std::mem::take(&mut self.calls) {
            let id = if partial.id.is_empty() { call_id() } else { partial.id };
            let mut arguments = ToolArguments::parse(&partial.arguments);
            if let (ToolArguments::Json(value), Some(schema)) =
                (&mut arguments, self.strict_tools.get(&partial.name))
            {
                strip_optional_nulls(schema.parameters.as_map(), value);
            }
            let mut data = json!({"arguments": partial.arguments});
            if !partial.extra.is_empty() {
                data["extra"] = Value::Object(partial.extra);
            }
            calls.extend(unwrap_parallel(ToolCall {
                id,
                name: partial.name,
                arguments,
                provider_data: Some(ProviderData::new(NAMESPACE, data)),
            }));
        }
        calls
    }
}

/// Some models wrap parallel calls in one pseudo-call `multi_tool_use.parallel`; unwrap it
/// into the calls it stands for.
fn unwrap_parallel(call: ToolCall) -> Vec<ToolCall> {
    if call.name != "multi_tool_use.parallel" {
        return vec![call];
    }
    let uses = call.arguments.as_object().and_then(|a| a.get("tool_uses")).and_then(Value::as_array);
    let Some(uses) = uses else { return vec![call] };
    let mut calls = Vec::with_capacity(uses.len());
    for (i, tool_use) in uses.iter().enumerate() {
        let Some(recipient) = tool_use.get("recipient_name").and_then(Value::as_str) else {
            return vec![call];
        };
        let name = recipient.strip_prefix("functions.").unwrap_or(recipient);
        let parameters = tool_use.get("parameters").cloned().unwrap_or_else(|| json!({}));
        calls.push(ToolCall::new(format!("{}_{i}", call.id), name, parameters));
    }
    calls
}

impl Accumulate for ChatAccumulator {
    fn event(&mut self, event: &SseEvent, out: &mut VecDeque<ModelEvent>) -> Result<Flow, ModelError> {
        let data = event.data.trim();
        if data == "[DONE]" {
            return Ok(Flow::Done);
        }
        if data.is_empty() {
            return Ok(Flow::Continue);
        }
        let chunk: Chunk<'_> = serde_json::from_str(data).map_err(|e| {
            ModelError::new(
                ModelErrorKind::InvalidResponse,
                format!("the provider sent a chunk that is not valid JSON ({e})"),
            )
        })?;
        self.chunk(chunk, out)?;
        Ok(Flow::Continue)
    }

    fn whole(&mut self, body: &[u8], out: &mut VecDeque<ModelEvent>) -> Result<(), ModelError> {
        let chunk: Chunk<'_> = serde_json::from_slice(body).map_err(|e| {
            ModelError::new(
                ModelErrorKind::InvalidResponse,
                format!("the provider's response is not valid JSON ({e})"),
            )
        })?;
        // In a whole response, calls carry no index: their position is their index.
        self.chunk(chunk, out)?;
        if self.finish.is_none() {
            self.finish = Some("stop".into());
        }
        Ok(())
    }

    fn finish(&mut self, ended_cleanly: bool) -> Result<ModelResponse, ModelError> {
        if !ended_cleanly && self.finish.is_none() {
            return Err(ModelError::new(
                ModelErrorKind::Transport,
                "the response was cut off before it was complete",
            ));
        }
        let calls = self.calls();
        let mut parts = Vec::new();
        if !self.reasoning.is_empty() {
            parts.push(AssistantPart::Thinking(Thinking {
                text: std::mem::take(&mut self.reasoning),
                ..Thinking::default()
            }));
        }
        let mut text = std::mem::take(&mut self.text);
        if text.is_empty() && !self.refusal.is_empty() {
            text = std::mem::take(&mut self.refusal);
        }
        if !text.is_empty() {
            parts.push(AssistantPart::Text(text));
        }
        let has_calls = !calls.is_empty();
        parts.extend(calls.into_iter().map(AssistantPart::ToolCall));
        let finish_reason = match self.finish.as_deref() {
            _ if has_calls => FinishReason::ToolCalls,
            Some("stop") | None => FinishReason::Stop,
            Some("length") => FinishReason::Length,
            Some("content_filter") => FinishReason::ContentFilter,
            Some("tool_calls" | "function_call") => FinishReason::ToolCalls,
            Some(_) => FinishReason::Other,
        };
        Ok(ModelResponse {
            turn: AssistantTurn {
                parts,
                model_name: self.model.take(),
                finish_reason: Some(finish_reason),
                usage: self.usage,
                provider_data: None,
            },
        })
    }

    fn http_error(&self, error: HttpError) -> ModelError {
        error_from_body(error, self.secret.as_ref())
    }
}

/// Turns an HTTP failure of an OpenAI-style API into a model error, reading the
/// `{"error": {...}}` body.
pub(crate) fn error_from_body(error: HttpError, secret: Option<&Secret>) -> ModelError {
    crate::drive::http_model_error(error, |status, body| {
        serde_json::from_str::<ErrorBody>(body).ok().map(|b| model_error(Some(status), &b.error, secret))
    })
}

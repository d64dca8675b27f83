//! Responses events → one turn. Output items are kept verbatim, keyed by output index;
//! each `.done` item replaces what was assembled (it is the complete version — encrypted
//! reasoning in particular), and `response.completed` has the last word.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap, VecDeque};

use serde::Deserialize;
use serde_json::value::RawValue;

use serde_json::{Value, json};
use tackle_core::Secret;
use tackle_core::{
    AssistantPart, AssistantTurn, FinishReason, ModelError, ModelErrorKind, ModelEvent, ModelResponse,
    ProviderData, Thinking, ToolArguments, ToolCall, Usage,
};
use tackle_http::{HttpError, SseEvent};

use super::request::NAMESPACE;
use crate::drive::{Accumulate, Flow};
use crate::openai_chat::error_from_body;
use crate::strict::strip_optional_nulls;

/// Builds one turn from Responses events.
///
/// Events are read into borrowing structs; output items are kept as their raw JSON and
/// parsed into values once, when the turn is complete (an item arrives up to three times:
/// added, done, and in the final response).
#[derive(Debug, Default)]
pub(crate) struct ResponsesAccumulator {
    items: BTreeMap<usize, Box<RawValue>>,
    arguments: BTreeMap<usize, String>,
    usage: Usage,
    model: Option<String>,
    finish: Option<FinishReason>,
    strict_tools: HashMap<String, std::sync::Arc<tackle_core::ToolDefinition>>,
    secret: Option<Secret>,
    /// The caller does not read tool-call deltas: none are built.
    no_call_deltas: bool,
}

/// One streamed event, the fields this reader uses, borrowed from the event's data.
#[derive(Deserialize)]
struct Event<'a> {
    #[serde(rename = "type", borrow)]
    kind: Cow<'a, str>,
    #[serde(default)]
    output_index: Option<Value>,
    #[serde(default, borrow)]
    delta: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    arguments: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    item: Option<&'a RawValue>,
    #[serde(default, borrow)]
    response: Option<Response<'a>>,
}

/// What an added item says about itself.
#[derive(Deserialize)]
struct ItemHead<'a> {
    #[serde(rename = "type", default, borrow)]
    kind: Cow<'a, str>,
    #[serde(default, borrow)]
    call_id: Cow<'a, str>,
    #[serde(default, borrow)]
    name: Cow<'a, str>,
}

/// A response object: the final word on a turn.
#[derive(Deserialize)]
struct Response<'a> {
    #[serde(default, borrow)]
    model: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    status: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    output: Option<Vec<&'a RawValue>>,
    #[serde(default)]
    usage: Option<Value>,
    #[serde(default)]
    incomplete_details: Option<Value>,
    #[serde(default)]
    error: Option<Value>,
}

fn invalid(what: &str, e: &serde_json::Error) -> ModelError {
    ModelError::new(
        ModelErrorKind::InvalidResponse,
        format!("the provider sent {what} that is not valid ({e})"),
    )
}

fn str_of<'v>(value: &'v Value, key: &str) -> &'v str {
    value.get(key).and_then(Value::as_str).unwrap_or_default()
}

fn usage(value: &Value) -> Usage {
    let n = |v: Option<&Value>| v.and_then(Value::as_u64).unwrap_or(0);
    Usage::default()
        .requests(1)
        .input_tokens(n(value.get("input_tokens")))
        .output_tokens(n(value.get("output_tokens")))
        .cache_read_tokens(n(value.pointer("/input_tokens_details/cached_tokens")))
        .cache_write_tokens(n(value.pointer("/input_tokens_details/cache_write_tokens")))
        .reasoning_tokens(n(value.pointer("/output_tokens_details/reasoning_tokens")))
}

fn stream_error(value: &Value, secret: Option<&Secret>) -> ModelError {
    // Two shapes exist: nested under `error`, or flat.
    let error = value.get("error").filter(|e| e.is_object()).unwrap_or(value);
    let code =
        error.get("code").and_then(Value::as_str).or_else(|| error.get("type").and_then(Value::as_str));
    let kind = match code.unwrap_or_default() {
        "rate_limit_exceeded" | "insufficient_quota" => ModelErrorKind::RateLimited,
        "server_error" => ModelErrorKind::Server,
        "context_length_exceeded" => ModelErrorKind::ContextTooLong,
        _ => ModelErrorKind::InvalidRequest,
    };
    let mut message = str_of(error, "message").to_owned();
    if message.is_empty() {
        message = "the provider reported an error".into();
    }
    if let Some(secret) = secret {
        secret.scrub(&mut message);
    }
    ModelError::new(kind, message)
}

/// The error of a failed response.
fn failed(response: Option<Response<'_>>, secret: Option<&Secret>) -> ModelError {
    stream_error(&response.and_then(|r| r.error).unwrap_or(Value::Null), secret)
}

impl ResponsesAccumulator {
    pub(crate) fn new(
        strict_tools: HashMap<String, std::sync::Arc<tackle_core::ToolDefinition>>,
        secret: Option<Secret>,
    ) -> Self {
        ResponsesAccumulator { strict_tools, secret, ..ResponsesAccumulator::default() }
    }

    /// Leaves tool-call deltas out when the caller does not read them.
    pub(crate) fn call_deltas(mut self, wanted: bool) -> Self {
        self.no_call_deltas = !wanted;
        self
    }

    fn index(event: &Event<'_>) -> usize {
        event
            .output_index
            .as_ref()
            .and_then(Value::as_u64)
            .map_or(0, |i| usize::try_from(i).unwrap_or(usize::MAX))
    }

    /// Takes the final response object: its output is authoritative.
    fn response(&mut self, response: Option<Response<'_>>, finish: Option<FinishReason>) {
        let Some(response) = response else {
            self.finish = Some(finish.unwrap_or(FinishReason::Stop));
            return;
        };
        if let Some(model) = response.model {
            self.model = Some(model.into_owned());
        }
        if let Some(output) = response.output
            && !output.is_empty()
        {
            self.items = output.into_iter().map(RawValue::to_owned).enumerate().collect();
            self.arguments.clear();
        }
        if let Some(u) = response.usage.as_ref().filter(|u| u.is_object()) {
            self.usage = usage(u);
        }
        let incomplete = || match response
            .incomplete_details
            .as_ref()
            .and_then(|d| d.get("reason"))
            .and_then(Value::as_str)
        {
            Some("content_filter") => FinishReason::ContentFilter,
            _ => FinishReason::Length,
        };
        self.finish = Some(finish.unwrap_or_else(incomplete));
    }

    /// Reads one event (its data, as text).
    fn handle(&mut self, data: &str, out: &mut VecDeque<ModelEvent>) -> Result<Flow, ModelError> {
        let event: Event<'_> = serde_json::from_str(data).map_err(|e| {
            ModelError::new(
                ModelErrorKind::InvalidResponse,
                format!("the provider sent an event that is not valid JSON ({e})"),
            )
        })?;
        match &*event.kind {
            "response.created" | "response.in_progress" => {
                if let Some(Response { model: Some(model), .. }) = event.response {
                    self.model = Some(model.into_owned());
                }
            }
            "response.output_item.added" => {
                let index = Self::index(&event);
                if let Some(item) = event.item.filter(|i| i.get().starts_with('{')) {
                    let head: ItemHead<'_> =
                        serde_json::from_str(item.get()).map_err(|e| invalid("an output item", &e))?;
                    if head.kind == "function_call" && !self.no_call_deltas {
                        out.push_back(ModelEvent::ToolCallDelta {
                            index,
                            id: Some(head.call_id.into_owned()),
                            name: Some(head.name.into_owned()),
                            arguments: String::new(),
                        });
                    }
                    self.items.insert(index, item.to_owned());
                }
            }
            "response.function_call_arguments.delta" => {
                let index = Self::index(&event);
                let delta = event.delta.unwrap_or_default();
                self.arguments.entry(index).or_default().push_str(&delta);
                if !self.no_call_deltas {
                    let arguments = delta.into_owned();
                    out.push_back(ModelEvent::ToolCallDelta { index, id: None, name: None, arguments });
                }
            }
            "response.function_call_arguments.done" => {
                let index = Self::index(&event);
                self.arguments.insert(index, event.arguments.unwrap_or_default().into_owned());
            }
            "response.output_item.done" => {
                let index = Self::index(&event);
                if let Some(item) = event.item.filter(|i| i.get().starts_with('{')) {
                    self.items.insert(index, item.to_owned());
                    self.arguments.remove(&index);
                }
            }
            "response.output_text.delta" | "response.refusal.delta" => {
                out.push_back(ModelEvent::TextDelta(event.delta.unwrap_or_default().into_owned()));
            }
            "response.reasoning_summary_text.delta" | "response.reasoning_text.delta" => {
                out.push_back(ModelEvent::ThinkingDelta(event.delta.unwrap_or_default().into_owned()));
            }
            "response.completed" => {
                self.response(event.response, Some(FinishReason::Stop));
                return Ok(Flow::Done);
            }
            "response.incomplete" => {
                self.response(event.response, None);
                return Ok(Flow::Done);
            }
            "response.failed" => return Err(failed(event.response, self.secret.as_ref())),
            "error" => {
                let value: Value = serde_json::from_str(data).unwrap_or(Value::Null);
                return Err(stream_error(&value, self.secret.as_ref()));
            }
            _ => {}
        }
        Ok(Flow::Continue)
    }

    fn call(&self, item: &Value) -> ToolCall {
        let name = str_of(item, "name").to_owned();
        let mut arguments = ToolArguments::parse(str_of(item, "arguments"));
        if let (ToolArguments::Json(value), Some(schema)) = (&mut arguments, self.strict_tools.get(&name)) {
            strip_optional_nulls(schema.parameters.as_map(), value);
        }
        ToolCall { id: str_of(item, "call_id").to_owned(), name, arguments, provider_data: None }
    }
}

fn text_parts(item: &Value, list: &str, kinds: &[&str], field: &str) -> String {
    item.get(list)
        .and_then(Value::as_array)
        .map(|parts| {
            parts
                .iter()
                .filter(|p| kinds.contains(&str_of(p, "type")))
                .map(|p| str_of(p, field))
                .collect::<Vec<_>>()
                .join("")
        })
        .unwrap_or_default()
}

impl Accumulate for ResponsesAccumulator {
    fn event(&mut self, event: &SseEvent, out: &mut VecDeque<ModelEvent>) -> Result<Flow, ModelError> {
        if event.data.trim().is_empty() {
            return Ok(Flow::Continue);
        }
        self.handle(&event.data, out)
    }

    fn whole(&mut self, body: &[u8], _out: &mut VecDeque<ModelEvent>) -> Result<(), ModelError> {
        let response: Response<'_> = serde_json::from_slice(body).map_err(|e| {
            ModelError::new(
                ModelErrorKind::InvalidResponse,
                format!("the provider's response is not valid JSON ({e})"),
            )
        })?;
        match response.status.as_deref() {
            Some("failed") => return Err(failed(Some(response), self.secret.as_ref())),
            Some("incomplete") => self.response(Some(response), None),
            _ => self.response(Some(response), Some(FinishReason::Stop)),
        }
        Ok(())
    }

    fn finish(&mut self, _ended_cleanly: bool) -> Result<ModelResponse, ModelError> {
        let Some(finish) = self.finish else {
            return Err(ModelError::new(
                ModelErrorKind::Transport,
                "the response was cut off before it was complete",
            ));
        };
        // Arguments still being assembled (no `.done` seen) complete their items.
        let mut arguments = std::mem::take(&mut self.arguments);
        let mut parts = Vec::new();
        let mut stored = Vec::new();
        for (index, raw) in std::mem::take(&mut self.items) {
            let mut item: Value =
                serde_json::from_str(raw.get()).map_err(|e| invalid("an output item", &e))?;
            if let Some(arguments) = arguments.remove(&index)
                && let Some(fields) = item.as_object_mut()
            {
                fields.insert("arguments".into(), Value::String(arguments));
            }
            match str_of(&item, "type") {
                "reasoning" => {
                    let mut text = text_parts(&item, "summary", &["summary_text"], "text");
                    if text.is_empty() {
                        text = text_parts(&item, "content", &["reasoning_text"], "text");
                    }
                    parts.push(AssistantPart::Thinking(Thinking {
                        text,
                        redacted: false,
                        provider_data: Some(ProviderData::new(NAMESPACE, item.clone())),
                    }));
                }
                "message" => {
                    let text = text_parts(&item, "content", &["output_text"], "text");
                    let refusal = text_parts(&item, "content", &["refusal"], "refusal");
                    let text = if text.is_empty() { refusal } else { text };
                    if !text.is_empty() {
                        parts.push(AssistantPart::Text(text));
                    }
                }
                "function_call" => parts.push(AssistantPart::ToolCall(self.call(&item))),
                _ => {}
            }
            stored.push(item);
        }
        let has_calls = parts.iter().any(|p| matches!(p, AssistantPart::ToolCall(_)));
        Ok(ModelResponse {
            turn: AssistantTurn {
                parts,
                model_name: self.model.take(),
                finish_reason: Some(if has_calls && finish == FinishReason::Stop {
                    FinishReason::ToolCalls
                } else {
                    finish
                }),
                usage: self.usage,
                provider_data: Some(ProviderData::new(NAMESPACE, json!({"output": stored}))),
            },
        })
    }

    fn http_error(&self, error: HttpError) -> ModelError {
        error_from_body(error, self.secret.as_ref())
    }
}

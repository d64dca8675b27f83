//! Responses events → one turn. Output items are kept verbatim, keyed by output index;
//! each `.done` item replaces what was assembled (it is the complete version — encrypted
//! reasoning in particular), and `response.completed` has the last word.

use std::collections::{BTreeMap, HashMap, VecDeque};

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
#[derive(Debug, Default)]
pub(crate) struct ResponsesAccumulator {
    items: BTreeMap<usize, Value>,
    arguments: BTreeMap<usize, String>,
    usage: Usage,
    model: Option<String>,
    finish: Option<FinishReason>,
    strict_tools: HashMap<String, std::sync::Arc<tackle_core::ToolDefinition>>,
    secret: Option<Secret>,
}

fn str_of<'v>(value: &'v Value, key: &str) -> &'v str {
    value.get(key).and_then(Value::as_str).unwrap_or_default()
}

fn usage(value: &Value) -> Usage {
    let n = |v: Option<&Value>| v.and_then(Value::as_u64).unwrap_or(0);
    Usage {
        requests: 1,
        input_tokens: n(value.get("input_tokens")),
        output_tokens: n(value.get("output_tokens")),
        cache_read_tokens: n(value.pointer("/input_tokens_details/cached_tokens")),
        cache_write_tokens: n(value.pointer("/input_tokens_details/cache_write_tokens")),
        reasoning_tokens: n(value.pointer("/output_tokens_details/reasoning_tokens")),
    }
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

impl ResponsesAccumulator {
    pub(crate) fn new(
        strict_tools: HashMap<String, std::sync::Arc<tackle_core::ToolDefinition>>,
        secret: Option<Secret>,
    ) -> Self {
        ResponsesAccumulator { strict_tools, secret, ..ResponsesAccumulator::default() }
    }

    fn index(value: &Value) -> usize {
        value
            .get("output_index")
            .and_then(Value::as_u64)
            .map_or(0, |i| usize::try_from(i).unwrap_or(usize::MAX))
    }

    /// Takes the final response object: its output is authoritative.
    fn response(&mut self, mut response: Value, finish: FinishReason) {
        if let Some(model) = response.get("model").and_then(Value::as_str) {
            self.model = Some(model.to_owned());
        }
        if let Some(Value::Array(output)) = response.get_mut("output").map(Value::take)
            && !output.is_empty()
        {
            self.items = output.into_iter().enumerate().collect();
            self.arguments.clear();
        }
        if let Some(u) = response.get("usage").filter(|u| u.is_object()) {
            self.usage = usage(u);
        }
        self.finish = Some(finish);
    }

    /// Reads one event, taking what it keeps out of it (items and the final response are
    /// moved, not copied).
    fn handle(&mut self, mut event: Value, out: &mut VecDeque<ModelEvent>) -> Result<Flow, ModelError> {
        let kind = str_of(&event, "type").to_owned();
        let event = &mut event;
        match kind.as_str() {
            "response.created" | "response.in_progress" => {
                if let Some(model) = event.pointer("/response/model").and_then(Value::as_str) {
                    self.model = Some(model.to_owned());
                }
            }
            "response.output_item.added" => {
                let index = Self::index(event);
                let item = event.get_mut("item").map_or(Value::Null, Value::take);
                if str_of(&item, "type") == "function_call" {
                    out.push_back(ModelEvent::ToolCallDelta {
                        index,
                        id: Some(str_of(&item, "call_id").to_owned()),
                        name: Some(str_of(&item, "name").to_owned()),
                        arguments: String::new(),
                    });
                }
                self.items.insert(index, item);
            }
            "response.function_call_arguments.delta" => {
                let index = Self::index(event);
                let delta = str_of(event, "delta").to_owned();
                self.arguments.entry(index).or_default().push_str(&delta);
                out.push_back(ModelEvent::ToolCallDelta { index, id: None, name: None, arguments: delta });
            }
            "response.function_call_arguments.done" => {
                let index = Self::index(event);
                self.arguments.insert(index, str_of(event, "arguments").to_owned());
            }
            "response.output_item.done" => {
                let index = Self::index(event);
                if let Some(item) = event.get_mut("item").map(Value::take) {
                    self.items.insert(index, item);
                    self.arguments.remove(&index);
                }
            }
            "response.output_text.delta" | "response.refusal.delta" => {
                out.push_back(ModelEvent::TextDelta(str_of(event, "delta").to_owned()));
            }
            "response.reasoning_summary_text.delta" | "response.reasoning_text.delta" => {
                out.push_back(ModelEvent::ThinkingDelta(str_of(event, "delta").to_owned()));
            }
            "response.completed" => {
                self.response(event.get_mut("response").map_or(Value::Null, Value::take), FinishReason::Stop);
                return Ok(Flow::Done);
            }
            "response.incomplete" => {
                let response = event.get_mut("response").map_or(Value::Null, Value::take);
                let finish = match response.pointer("/incomplete_details/reason").and_then(Value::as_str) {
                    Some("content_filter") => FinishReason::ContentFilter,
                    _ => FinishReason::Length,
                };
                self.response(response, finish);
                return Ok(Flow::Done);
            }
            "response.failed" => {
                let response = event.get("response").unwrap_or(&Value::Null);
                return Err(stream_error(response.get("error").unwrap_or(response), self.secret.as_ref()));
            }
            "error" => return Err(stream_error(event, self.secret.as_ref())),
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
        let value: Value = serde_json::from_str(&event.data).map_err(|e| {
            ModelError::new(
                ModelErrorKind::InvalidResponse,
                format!("the provider sent an event that is not valid JSON ({e})"),
            )
        })?;
        self.handle(value, out)
    }

    fn whole(&mut self, body: &[u8], _out: &mut VecDeque<ModelEvent>) -> Result<(), ModelError> {
        let response: Value = serde_json::from_slice(body).map_err(|e| {
            ModelError::new(
                ModelErrorKind::InvalidResponse,
                format!("the provider's response is not valid JSON ({e})"),
            )
        })?;
        let wrapped = match str_of(&response, "status") {
            "failed" => json!({"type": "response.failed", "response": response}),
            "incomplete" => json!({"type": "response.incomplete", "response": response}),
            _ => json!({"type": "response.completed", "response": response}),
        };
        self.handle(wrapped, &mut VecDeque::new()).map(|_| ())
    }

    fn finish(&mut self, _ended_cleanly: bool) -> Result<ModelResponse, ModelError> {
        let Some(finish) = self.finish else {
            return Err(ModelError::new(
                ModelErrorKind::Transport,
                "the response was cut off before it was complete",
            ));
        };
        // Arguments still being assembled (no `.done` seen) complete their items.
        for (index, arguments) in std::mem::take(&mut self.arguments) {
            if let Some(item) = self.items.get_mut(&index) {
                item["arguments"] = json!(arguments);
            }
        }
        let mut parts = Vec::new();
        let mut stored = Vec::new();
        for (_, item) in std::mem::take(&mut self.items) {
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

//! `generateContent` responses → one turn. A streamed response is a series of whole
//! `GenerateContentResponse` chunks (text in pieces, function calls whole); a non-streamed
//! one is a single chunk, read by the same code.

use std::collections::VecDeque;
use std::sync::Arc;

use serde_json::{Value, json};
use tackle_core::{
    AssistantPart, AssistantTurn, FinishReason, ModelError, ModelErrorKind, ModelEvent, ModelResponse,
    ProviderData, Secret, Thinking, ToolArguments, ToolCall, Usage,
};
use tackle_http::{HttpError, SseEvent};

use super::Names;
use super::request::{MADE_UP_ID, NAMESPACE};
use super::wire::{Chunk, ErrorBody, UsageMetadata, WireError};
use crate::drive::{Accumulate, Flow};

/// Builds one turn from `generateContent` chunks.
#[derive(Debug, Default)]
pub(crate) struct GeminiAccumulator {
    /// The parts as they will be replayed: text pieces joined, everything else as sent.
    parts: Vec<Value>,
    calls: usize,
    finish_reason: Option<String>,
    finish_message: Option<String>,
    usage: Option<UsageMetadata>,
    model: Option<String>,
    response_id: Option<String>,
    secrets: Vec<Secret>,
    names: Arc<Names>,
    no_call_deltas: bool,
}

/// A model error for a `google.rpc.Status`, with every secret scrubbed from its message.
pub(crate) fn model_error(error: &WireError, status: Option<u16>, secrets: &[Secret]) -> ModelError {
    let reason = error
        .details
        .iter()
        .filter_map(|d| d.get("reason").and_then(Value::as_str))
        .next()
        .unwrap_or_default();
    let lower = error.message.to_ascii_lowercase();
    let kind = match error.status.as_str() {
        "UNAUTHENTICATED" | "PERMISSION_DENIED" => ModelErrorKind::Authentication,
        _ if reason.starts_with("API_KEY") || lower.contains("api key not valid") => {
            ModelErrorKind::Authentication
        }
        "RESOURCE_EXHAUSTED" => ModelErrorKind::RateLimited,
        "UNAVAILABLE" => ModelErrorKind::Overloaded,
        "INTERNAL" | "DEADLINE_EXCEEDED" | "UNKNOWN" => ModelErrorKind::Server,
        _ if lower.contains("token count") && lower.contains("exceeds") => ModelErrorKind::ContextTooLong,
        _ if lower.contains("context window") || lower.contains("too long") => ModelErrorKind::ContextTooLong,
        "CANCELLED" => ModelErrorKind::Cancelled,
        _ => {
            let code = status.unwrap_or(error.code);
            if code == 0 { ModelErrorKind::InvalidRequest } else { crate::drive::kind_for_status(code) }
        }
    };
    let mut message = if error.message.is_empty() {
        format!("the provider reported {}", if error.status.is_empty() { "an error" } else { &error.status })
    } else {
        error.message.clone()
    };
    Secret::scrub_all(secrets, &mut message);
    ModelError::new(kind, message)
}

fn invalid(message: String) -> ModelError {
    ModelError::new(ModelErrorKind::InvalidResponse, message)
}

fn is_thought(part: &Value) -> bool {
    part.get("thought").and_then(Value::as_bool).unwrap_or(false)
}

impl GeminiAccumulator {
    pub(crate) fn new(names: Arc<Names>, secrets: Vec<Secret>) -> Self {
        GeminiAccumulator { names, secrets, ..GeminiAccumulator::default() }
    }

    /// Leaves tool-call deltas out when the caller does not read them.
    pub(crate) fn call_deltas(mut self, wanted: bool) -> Self {
        self.no_call_deltas = !wanted;
        self
    }

    fn chunk(&mut self, chunk: Chunk, out: &mut VecDeque<ModelEvent>) -> Result<(), ModelError> {
        if let Some(error) = &chunk.error {
            return Err(model_error(error, None, &self.secrets));
        }
        if chunk.model_version.is_some() {
            self.model = chunk.model_version;
        }
        if chunk.response_id.is_some() {
            self.response_id = chunk.response_id;
        }
        if let Some(usage) = chunk.usage_metadata {
            self.usage = Some(usage);
        }
        if let Some(reason) = chunk.prompt_feedback.as_ref().and_then(|f| f.block_reason.as_deref()) {
            let detail = chunk
                .prompt_feedback
                .as_ref()
                .and_then(|f| f.block_reason_message.clone())
                .map(|m| format!(": {m}"))
                .unwrap_or_default();
            return Err(ModelError::new(
                ModelErrorKind::Refused,
                format!("the provider blocked the prompt ({reason}){detail}"),
            ));
        }
        let Some(candidate) = chunk.candidates.into_iter().next() else { return Ok(()) };
        for part in candidate.content.map(|c| c.parts).unwrap_or_default() {
            self.part(part, out);
        }
        if let Some(reason) = candidate.finish_reason {
            self.finish_reason = Some(reason);
            self.finish_message = candidate.finish_message;
            out.push_back(ModelEvent::Usage(self.usage()));
        }
        Ok(())
    }

    fn part(&mut self, part: Value, out: &mut VecDeque<ModelEvent>) {
        if let Some(text) = part.get("text").and_then(Value::as_str) {
            let thought = is_thought(&part);
            if !text.is_empty() {
                out.push_back(if thought {
                    ModelEvent::ThinkingDelta(text.to_owned())
                } else {
                    ModelEvent::TextDelta(text.to_owned())
                });
            }
            // A piece of text continues the last text part of the same kind, unless that
            // part was closed by a signature; a part with fields tackle does not know
            // stands alone.
            let plain = part.as_object().is_some_and(|p| {
                p.keys().all(|k| matches!(k.as_str(), "text" | "thought" | "thoughtSignature"))
            });
            if plain
                && let Some(last) = self.parts.last_mut()
                && last.get("text").is_some()
                && is_thought(last) == thought
                && last.get("thoughtSignature").is_none()
                && last.as_object().is_some_and(|l| l.len() <= 2)
            {
                if let Some(Value::String(joined)) = last.get_mut("text") {
                    joined.push_str(text);
                }
                if let Some(signature) = part.get("thoughtSignature") {
                    last["thoughtSignature"] = signature.clone();
                }
                return;
            }
            self.parts.push(part);
            return;
        }
        if let Some(call) = part.get("functionCall") {
            if !self.no_call_deltas {
                let wire = call.get("name").and_then(Value::as_str).unwrap_or_default();
                let args = call.get("args").map_or_else(|| "{}".to_owned(), Value::to_string);
                out.push_back(ModelEvent::ToolCallDelta {
                    index: self.calls,
                    id: call.get("id").and_then(Value::as_str).map(str::to_owned),
                    name: Some(self.names.canonical(wire).to_owned()),
                    arguments: args,
                });
            }
            self.calls += 1;
        }
        // A signature alone on an empty part still has to be replayed.
        self.parts.push(part);
    }

    fn usage(&self) -> Usage {
        let u = self.usage.unwrap_or_default();
        Usage::default()
            .requests(1)
            .input_tokens(u.prompt_token_count + u.tool_use_prompt_token_count)
            .output_tokens(u.candidates_token_count + u.thoughts_token_count)
            .cache_read_tokens(u.cached_content_token_count)
            .cache_write_tokens(0)
            .reasoning_tokens(u.thoughts_token_count)
    }

    /// The canonical parts of the turn, read from the parts as they will be replayed.
    fn canonical(&self) -> Vec<AssistantPart> {
        // Calls without an id get one made from the response's id (or, without one, from
        // its content) and their place: the same response always gets the same ids.
        let base = self.response_id.clone().unwrap_or_else(|| {
            let text = serde_json::to_string(&self.parts).unwrap_or_default();
            let hash = text
                .bytes()
                .fold(0xcbf2_9ce4_8422_2325_u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3));
            format!("{hash:016x}")
        });
        let mut made_up = 0;
        let mut parts: Vec<AssistantPart> = Vec::new();
        for part in &self.parts {
            let signature = part.get("thoughtSignature").and_then(Value::as_str);
            if let Some(call) = part.get("functionCall") {
                let wire = call.get("name").and_then(Value::as_str).unwrap_or_default();
                let id = match call.get("id").and_then(Value::as_str) {
                    Some(id) if !id.is_empty() => id.to_owned(),
                    _ => {
                        made_up += 1;
                        format!("{MADE_UP_ID}{base}-{made_up}")
                    }
                };
                let arguments = match call.get("args") {
                    Some(args @ Value::Object(_)) => ToolArguments::Json(args.clone()),
                    None | Some(Value::Null) => ToolArguments::Json(json!({})),
                    Some(other) => ToolArguments::parse(&other.to_string()),
                };
                parts.push(AssistantPart::ToolCall(ToolCall {
                    id,
                    name: self.names.canonical(wire).to_owned(),
                    arguments,
                    provider_data: signature
                        .map(|s| ProviderData::new(NAMESPACE, json!({"thoughtSignature": s}))),
                }));
                continue;
            }
            let Some(text) = part.get("text").and_then(Value::as_str) else { continue };
            if is_thought(part) {
                parts.push(AssistantPart::Thinking(Thinking {
                    text: text.to_owned(),
                    redacted: false,
                    provider_data: signature
                        .map(|s| ProviderData::new(NAMESPACE, json!({"thoughtSignature": s}))),
                }));
            } else if !text.is_empty() {
                match parts.last_mut() {
                    Some(AssistantPart::Text(last)) => last.push_str(text),
                    _ => parts.push(AssistantPart::Text(text.to_owned())),
                }
            }
        }
        parts
    }
}

/// What a finish reason means: a finish reason for the turn, or an error.
fn finish(reason: Option<&str>, message: Option<&str>, has_calls: bool) -> Result<FinishReason, ModelError> {
    let detail = message.map(|m| format!(": {m}")).unwrap_or_default();
    Ok(match reason {
        _ if has_calls => FinishReason::ToolCalls,
        Some("STOP") | None | Some("FINISH_REASON_UNSPECIFIED") => FinishReason::Stop,
        Some("MAX_TOKENS") => FinishReason::Length,
        Some(
            "SAFETY"
            | "RECITATION"
            | "BLOCKLIST"
            | "PROHIBITED_CONTENT"
            | "SPII"
            | "IMAGE_SAFETY"
            | "IMAGE_PROHIBITED_CONTENT"
            | "IMAGE_RECITATION",
        ) => FinishReason::ContentFilter,
        Some(reason @ ("MALFORMED_FUNCTION_CALL" | "UNEXPECTED_TOOL_CALL" | "TOO_MANY_TOOL_CALLS")) => {
            return Err(invalid(format!(
                "the model's function call was refused by the provider ({reason}){detail}"
            )));
        }
        Some(_) => FinishReason::Other,
    })
}

impl Accumulate for GeminiAccumulator {
    fn event(&mut self, event: &SseEvent, out: &mut VecDeque<ModelEvent>) -> Result<Flow, ModelError> {
        if event.data.trim().is_empty() {
            return Ok(Flow::Continue);
        }
        let chunk: Chunk = serde_json::from_str(&event.data)
            .map_err(|e| invalid(format!("the provider sent a chunk that could not be read ({e})")))?;
        self.chunk(chunk, out)?;
        // The stream has no end marker: it is complete when its body ends after a finish
        // reason (usage may still follow in a last chunk).
        Ok(Flow::Continue)
    }

    fn whole(&mut self, body: &[u8], out: &mut VecDeque<ModelEvent>) -> Result<(), ModelError> {
        let chunk: Chunk = serde_json::from_slice(body)
            .map_err(|e| invalid(format!("the provider's response is not valid JSON ({e})")))?;
        self.chunk(chunk, out)?;
        if self.finish_reason.is_none() {
            self.finish_reason = Some("STOP".into());
        }
        Ok(())
    }

    fn finish(&mut self, _ended_cleanly: bool) -> Result<ModelResponse, ModelError> {
        if self.finish_reason.is_none() {
            return Err(ModelError::new(
                ModelErrorKind::Transport,
                "the response was cut off before it was complete",
            ));
        }
        let parts = self.canonical();
        let has_calls = parts.iter().any(|p| matches!(p, AssistantPart::ToolCall(_)));
        let finish_reason = finish(self.finish_reason.as_deref(), self.finish_message.as_deref(), has_calls)?;
        Ok(ModelResponse {
            turn: AssistantTurn {
                parts,
                model_name: self.model.take(),
                finish_reason: Some(finish_reason),
                usage: self.usage(),
                provider_data: Some(ProviderData::new(
                    NAMESPACE,
                    json!({"parts": std::mem::take(&mut self.parts)}),
                )),
            },
        })
    }

    fn http_error(&self, error: HttpError) -> ModelError {
        let secrets = &self.secrets;
        crate::drive::http_model_error(error, |status, body| {
            // Some errors come as a list of one status.
            let parsed = serde_json::from_str::<ErrorBody>(body)
                .ok()
                .or_else(|| serde_json::from_str::<Vec<ErrorBody>>(body).ok().and_then(|mut v| v.pop()));
            parsed.map(|b| model_error(&b.error, Some(status), secrets))
        })
    }
}

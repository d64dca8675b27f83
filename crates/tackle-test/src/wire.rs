//! Scripted provider servers on loopback: OpenAI Chat Completions (`/v1/chat/completions`,
//! SSE deltas), Gemini (`streamGenerateContent`, SSE of whole response chunks) and Bedrock
//! (`converse-stream`, AWS event-stream frames). Each scripted turn is
//! text, then calls `(id, name, arguments)`, streamed in the API's own shape; the server
//! answers requests with the turns in order (HTTP 500 once they run out) and keeps every
//! request it was sent.

use std::collections::VecDeque;
use std::sync::Mutex;

use serde_json::{Value, json};
use wiremock::matchers::{method, path_regex};
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

/// A tool call a scripted turn makes: id, tool name, arguments.
pub type Call<'a> = (&'a str, &'a str, Value);

/// One Chat Completions turn, streamed: the text in one delta, each call whole in its own,
/// then the finish reason (`tool_calls` when there are calls, else `stop`) and `[DONE]`.
pub fn chat_turn(text: &str, calls: &[Call<'_>]) -> ResponseTemplate {
    let mut chunks = Vec::new();
    if !text.is_empty() {
        chunks.push(json!({"choices": [{"index": 0, "delta": {"role": "assistant", "content": text}}]}));
    }
    for (i, (id, name, args)) in calls.iter().enumerate() {
        chunks.push(json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": i, "id": id,
            "type": "function", "function": {"name": name, "arguments": args.to_string()}}]}}]}));
    }
    let finish = if calls.is_empty() { "stop" } else { "tool_calls" };
    chunks.push(json!({"choices": [{"index": 0, "delta": {}, "finish_reason": finish}]}));
    let mut body: String = chunks.iter().map(|c| format!("data: {c}\n\n")).collect();
    body.push_str("data: [DONE]\n\n");
    ResponseTemplate::new(200).insert_header("content-type", "text/event-stream").set_body_string(body)
}

/// One Gemini turn: the text in two chunks, the calls whole (each with its id, the first
/// with a thought signature, as Gemini 3 sends them), then the finish reason and usage.
pub fn gemini_turn(text: &str, calls: &[Call<'_>]) -> ResponseTemplate {
    let mut chunks = Vec::new();
    if !text.is_empty() {
        let half = text.char_indices().nth(text.chars().count() / 2).map_or(text.len(), |(i, _)| i);
        for piece in [&text[..half], &text[half..]] {
            chunks.push(
                json!({"candidates": [{"content": {"role": "model", "parts": [{"text": piece}]}, "index": 0}],
                               "modelVersion": "gemini-test", "responseId": "scripted"}),
            );
        }
    }
    let parts: Vec<Value> = calls
        .iter()
        .enumerate()
        .map(|(i, (id, name, args))| {
            let mut part = json!({"functionCall": {"id": id, "name": name, "args": args}});
            if i == 0 {
                part["thoughtSignature"] = json!("c2NyaXB0ZWQ=");
            }
            part
        })
        .collect();
    chunks.push(json!({"candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}],
                       "usageMetadata": {"promptTokenCount": 20, "candidatesTokenCount": 5, "totalTokenCount": 25},
                       "modelVersion": "gemini-test", "responseId": "scripted"}));
    let body: String = chunks.iter().map(|c| format!("data: {c}\r\n\r\n")).collect();
    ResponseTemplate::new(200).insert_header("content-type", "text/event-stream").set_body_string(body)
}

/// One Bedrock turn as `converse-stream` frames it: text in two deltas, each call's input
/// in two fragments, then `messageStop` and `metadata`.
pub fn bedrock_turn(text: &str, calls: &[Call<'_>]) -> ResponseTemplate {
    let mut events = vec![("messageStart", json!({"role": "assistant"}))];
    let mut index = 0;
    if !text.is_empty() {
        let half = text.char_indices().nth(text.chars().count() / 2).map_or(text.len(), |(i, _)| i);
        for piece in [&text[..half], &text[half..]] {
            events.push(("contentBlockDelta", json!({"contentBlockIndex": 0, "delta": {"text": piece}})));
        }
        events.push(("contentBlockStop", json!({"contentBlockIndex": 0})));
        index += 1;
    }
    for (id, name, args) in calls {
        events.push((
            "contentBlockStart",
            json!({"contentBlockIndex": index, "start": {"toolUse": {"toolUseId": id, "name": name}}}),
        ));
        let input = args.to_string();
        let half = input.len() / 2;
        for piece in [&input[..half], &input[half..]] {
            events.push((
                "contentBlockDelta",
                json!({"contentBlockIndex": index, "delta": {"toolUse": {"input": piece}}}),
            ));
        }
        events.push(("contentBlockStop", json!({"contentBlockIndex": index})));
        index += 1;
    }
    let stop = if calls.is_empty() { "end_turn" } else { "tool_use" };
    events.push(("messageStop", json!({"stopReason": stop})));
    events.push(("metadata", json!({"usage": {"inputTokens": 20, "outputTokens": 5, "totalTokens": 25}, "metrics": {"latencyMs": 1}})));
    let body: Vec<u8> = events
        .iter()
        .flat_map(|(kind, payload)| tackle_providers::eventstream::encode_event(kind, payload))
        .collect();
    ResponseTemplate::new(200)
        .insert_header("content-type", "application/vnd.amazon.eventstream")
        .set_body_bytes(body)
}

/// Answers each request with the next response of a script.
struct Script(Mutex<VecDeque<ResponseTemplate>>);

impl Respond for Script {
    fn respond(&self, _request: &Request) -> ResponseTemplate {
        let mut script = self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        script.pop_front().unwrap_or_else(|| ResponseTemplate::new(500).set_body_string("script ran out"))
    }
}

/// Answers POSTs to paths matching `pattern` with `turns`, in order.
async fn mount(server: &MockServer, pattern: &str, turns: Vec<ResponseTemplate>) {
    Mock::given(method("POST"))
        .and(path_regex(pattern))
        .respond_with(Script(Mutex::new(turns.into())))
        .mount(server)
        .await;
}

/// Serves Chat Completions (`…/chat/completions`) with these turns, on `server`.
pub async fn mount_chat(server: &MockServer, turns: Vec<ResponseTemplate>) {
    mount(server, r"/chat/completions$", turns).await;
}

/// Serves Gemini's `…/models/{model}:streamGenerateContent` (Gemini API and Vertex AI
/// paths alike) with these turns, on `server`.
pub async fn mount_gemini(server: &MockServer, turns: Vec<ResponseTemplate>) {
    mount(server, r"/models/[^/]+:(stream)?[gG]enerateContent$", turns).await;
}

/// Serves Bedrock's `/model/{id}/converse-stream` with these turns, on `server`.
pub async fn mount_bedrock(server: &MockServer, turns: Vec<ResponseTemplate>) {
    mount(server, r"/model/[^/]+/converse(-stream)?$", turns).await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_scripts_decode_with_the_real_adapters() {
        let calls = [("c1", "add", json!({"a": 1, "b": 2}))];
        let chat = chat_turn("Adding now.", &calls);
        let body = served_body(&chat).await;
        let (_, response) = tackle_providers::openai_chat::decode_stream([body.as_slice()]).unwrap();
        assert_eq!(response.turn.joined_text(), "Adding now.");
        assert_eq!(response.turn.tool_calls().next().unwrap().name, "add");
        assert_eq!(response.turn.finish_reason, Some(tackle_core::FinishReason::ToolCalls));

        let gemini = gemini_turn("Adding now.", &calls);
        let body = served_body(&gemini).await;
        let (_, response) = tackle_providers::gemini::decode_stream([body.as_slice()]).unwrap();
        assert_eq!(response.turn.joined_text(), "Adding now.");
        assert_eq!(response.turn.tool_calls().next().unwrap().id, "c1");

        let bedrock = bedrock_turn("Adding now.", &calls);
        let body = served_body(&bedrock).await;
        let (_, response) = tackle_providers::bedrock::decode_stream([body.as_slice()]).unwrap();
        assert_eq!(response.turn.joined_text(), "Adding now.");
        assert_eq!(response.turn.tool_calls().next().unwrap().arguments.as_object().unwrap()["b"], 2);
    }

    /// The body a template serves, read back over HTTP.
    async fn served_body(template: &ResponseTemplate) -> Vec<u8> {
        let server = MockServer::start().await;
        Mock::given(method("GET")).respond_with(template.clone()).mount(&server).await;
        let url = server.uri();
        tokio::task::spawn_blocking(move || {
            use std::io::{Read, Write};
            let host = url.trim_start_matches("http://");
            let mut stream = std::net::TcpStream::connect(host).unwrap();
            write!(stream, "GET / HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n").unwrap();
            let mut raw = Vec::new();
            stream.read_to_end(&mut raw).unwrap();
            let split = raw.windows(4).position(|w| w == b"\r\n\r\n").unwrap() + 4;
            raw[split..].to_vec()
        })
        .await
        .unwrap()
    }
}

//! The examples run as a user runs them, against a scripted OpenAI-compatible server on
//! loopback (`cargo test` builds them first).
#![cfg(feature = "openai")]
#![allow(clippy::unwrap_used, missing_docs)]

use std::path::PathBuf;

use serde_json::{Value, json};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

/// The built example `name`, beside this test's binary.
fn example(name: &str) -> PathBuf {
    let deps = std::env::current_exe().unwrap().parent().unwrap().to_path_buf();
    deps.parent().unwrap().join("examples").join(name)
}

/// A Chat Completions stream of `text`, then the calls `(id, name, arguments)`.
fn turn(text: &str, calls: &[(&str, &str, Value)]) -> ResponseTemplate {
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

/// Answers with the turns in order.
struct Script(std::sync::Mutex<Vec<ResponseTemplate>>);

impl Respond for Script {
    fn respond(&self, _: &Request) -> ResponseTemplate {
        let mut turns = self.0.lock().unwrap();
        if turns.is_empty() { ResponseTemplate::new(500) } else { turns.remove(0) }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn the_typed_tool_example_calls_its_tool_and_answers() {
    let server = MockServer::start().await;
    let turns = vec![turn("", &[("call_1", "add", json!({"a": 2, "b": 40}))]), turn("2 + 40 = 42.", &[])];
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .respond_with(Script(std::sync::Mutex::new(turns)))
        .mount(&server)
        .await;
    let binary = example("typed_tool");
    let out = tokio::process::Command::new(&binary)
        .env("OPENAI_BASE_URL", format!("{}/v1", server.uri()))
        .env("OPENAI_API_KEY", "sk-example")
        .env("TACKLE_LOOPBACK_ONLY", "1")
        .output()
        .await
        .unwrap_or_else(|e| panic!("{}: {e}", binary.display()));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "2 + 40 = 42.\n");
    // The tool ran: the model was sent its result.
    let requests = server.received_requests().await.unwrap();
    let second: Value = serde_json::from_slice(&requests[1].body).unwrap();
    let tool_message = second["messages"].as_array().unwrap().iter().find(|m| m["role"] == "tool").unwrap();
    assert_eq!(tool_message["content"], "42");
}

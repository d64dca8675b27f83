//! End-to-end tests of the `tackle` binary against scripted provider servers on 127.0.0.1,
//! one per wire API, and a fake SearXNG.
#![allow(clippy::unwrap_used, clippy::print_stderr, missing_docs, unreachable_pub)]

mod canary;
mod commands;
mod guard;
mod local;
mod mcp;
mod runs;
mod serve;
mod sessions;
mod telemetry;
mod web;

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use assert_cmd::Command;
use serde_json::{Value, json};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

/// Answers requests with the next response of a script, recording nothing itself
/// (wiremock keeps the requests).
pub struct Script(Mutex<VecDeque<ResponseTemplate>>);

impl Script {
    pub fn new(responses: Vec<ResponseTemplate>) -> Self {
        Script(Mutex::new(responses.into()))
    }
}

impl Respond for Script {
    fn respond(&self, _request: &Request) -> ResponseTemplate {
        self.0
            .lock()
            .unwrap()
            .pop_front()
            .unwrap_or_else(|| ResponseTemplate::new(500).set_body_string("script ran out"))
    }
}

/// The wire APIs the CLI speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wire {
    Chat,
    Responses,
    Anthropic,
    Gemini,
    Bedrock,
}

impl Wire {
    pub const ALL: [Wire; 5] = [Wire::Chat, Wire::Responses, Wire::Anthropic, Wire::Gemini, Wire::Bedrock];

    pub fn provider(self) -> &'static str {
        match self {
            Wire::Chat => "openai",
            Wire::Responses => "openai-responses",
            Wire::Anthropic => "anthropic",
            Wire::Gemini => "gemini",
            Wire::Bedrock => "bedrock",
        }
    }

    /// The path of this API's requests (the model name is `test-model` in the tests).
    fn path(self) -> &'static str {
        match self {
            Wire::Chat => "/v1/chat/completions",
            Wire::Responses => "/v1/responses",
            Wire::Anthropic => "/v1/messages",
            Wire::Gemini => "/v1/models/test-model:streamGenerateContent",
            Wire::Bedrock => "/v1/model/test-model/converse-stream",
        }
    }

    /// What the settings file says besides the base URL and key.
    pub fn place(self) -> &'static str {
        if self == Wire::Bedrock { "region = \"us-east-1\"\n" } else { "" }
    }

    /// One model turn as this API streams it: text, then tool calls `(id, name, arguments)`.
    pub fn turn(self, text: &str, calls: &[(&str, &str, Value)]) -> ResponseTemplate {
        let events: Vec<(Option<&str>, Value)> = match self {
            Wire::Chat => chat(text, calls),
            Wire::Responses => responses(text, calls),
            Wire::Anthropic => anthropic(text, calls),
            Wire::Gemini => return tackle_test::wire::gemini_turn(text, calls),
            Wire::Bedrock => return tackle_test::wire::bedrock_turn(text, calls),
        };
        let mut body = String::new();
        for (event, data) in events {
            if let Some(event) = event {
                body.push_str(&format!("event: {event}\n"));
            }
            body.push_str(&format!("data: {data}\n\n"));
        }
        if self == Wire::Chat {
            body.push_str("data: [DONE]\n\n");
        }
        ResponseTemplate::new(200).insert_header("content-type", "text/event-stream").set_body_string(body)
    }

    /// Mounts the provider on `server` with these turns, in order.
    pub async fn mount(self, server: &MockServer, turns: Vec<ResponseTemplate>) {
        match self {
            Wire::Gemini => return tackle_test::wire::mount_gemini(server, turns).await,
            Wire::Bedrock => return tackle_test::wire::mount_bedrock(server, turns).await,
            _ => {}
        }
        Mock::given(method("POST"))
            .and(path(self.path()))
            .respond_with(Script::new(turns))
            .mount(server)
            .await;
    }
}

fn chat(text: &str, calls: &[(&str, &str, Value)]) -> Vec<(Option<&'static str>, Value)> {
    let mut out = Vec::new();
    if !text.is_empty() {
        out.push((None, json!({"choices": [{"index": 0, "delta": {"role": "assistant", "content": text}}]})));
    }
    for (i, (id, name, args)) in calls.iter().enumerate() {
        out.push((None, json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": i, "id": id, "type": "function", "function": {"name": name, "arguments": args.to_string()}}]}}]})));
    }
    let finish = if calls.is_empty() { "stop" } else { "tool_calls" };
    out.push((None, json!({"choices": [{"index": 0, "delta": {}, "finish_reason": finish}]})));
    out
}

fn responses(text: &str, calls: &[(&str, &str, Value)]) -> Vec<(Option<&'static str>, Value)> {
    let mut out = vec![(
        Some("response.created"),
        json!({"type": "response.created", "response": {"model": "test-model"}}),
    )];
    let mut items = Vec::new();
    if !text.is_empty() {
        let item = json!({"id": "msg_1", "type": "message", "role": "assistant", "status": "completed", "content": [{"type": "output_text", "text": text, "annotations": []}]});
        out.push((Some("response.output_item.added"), json!({"type": "response.output_item.added", "output_index": 0, "item": {"id": "msg_1", "type": "message", "role": "assistant", "content": []}})));
        out.push((Some("response.output_text.delta"), json!({"type": "response.output_text.delta", "output_index": 0, "content_index": 0, "delta": text})));
        out.push((
            Some("response.output_item.done"),
            json!({"type": "response.output_item.done", "output_index": 0, "item": item}),
        ));
        items.push(item);
    }
    for (id, name, args) in calls {
        let index = items.len();
        let item = json!({"id": format!("fc_{id}"), "type": "function_call", "status": "completed", "call_id": id, "name": name, "arguments": args.to_string()});
        out.push((Some("response.output_item.added"), json!({"type": "response.output_item.added", "output_index": index, "item": {"id": format!("fc_{id}"), "type": "function_call", "status": "in_progress", "call_id": id, "name": name, "arguments": ""}})));
        out.push((Some("response.function_call_arguments.delta"), json!({"type": "response.function_call_arguments.delta", "output_index": index, "delta": args.to_string()})));
        out.push((
            Some("response.output_item.done"),
            json!({"type": "response.output_item.done", "output_index": index, "item": item}),
        ));
        items.push(item);
    }
    out.push((Some("response.completed"), json!({"type": "response.completed", "response": {"status": "completed", "output": items, "usage": {"input_tokens": 20, "output_tokens": 5}}})));
    out
}

fn anthropic(text: &str, calls: &[(&str, &str, Value)]) -> Vec<(Option<&'static str>, Value)> {
    let mut out = vec![(
        Some("message_start"),
        json!({"type": "message_start", "message": {"model": "test-model", "usage": {"input_tokens": 20, "output_tokens": 1}}}),
    )];
    let mut index = 0;
    if !text.is_empty() {
        out.push((
            Some("content_block_start"),
            json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
        ));
        out.push((
            Some("content_block_delta"),
            json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": text}}),
        ));
        out.push((Some("content_block_stop"), json!({"type": "content_block_stop", "index": 0})));
        index += 1;
    }
    for (id, name, args) in calls {
        out.push((Some("content_block_start"), json!({"type": "content_block_start", "index": index, "content_block": {"type": "tool_use", "id": id, "name": name, "input": {}}})));
        out.push((Some("content_block_delta"), json!({"type": "content_block_delta", "index": index, "delta": {"type": "input_json_delta", "partial_json": args.to_string()}})));
        out.push((Some("content_block_stop"), json!({"type": "content_block_stop", "index": index})));
        index += 1;
    }
    let stop = if calls.is_empty() { "end_turn" } else { "tool_use" };
    out.push((
        Some("message_delta"),
        json!({"type": "message_delta", "delta": {"stop_reason": stop}, "usage": {"output_tokens": 5}}),
    ));
    out.push((Some("message_stop"), json!({"type": "message_stop"})));
    out
}

/// A fake SearXNG on `server` answering every search with these hits.
pub async fn searxng(server: &MockServer, hits: Value) {
    Mock::given(method("GET"))
        .and(path("/search"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"query": "q", "results": hits})))
        .mount(server)
        .await;
}

/// A settings file in `dir` pointing `wire`'s provider at `server`, plus `extra` TOML.
pub fn settings(dir: &Path, wire: Wire, server: &MockServer, extra: &str) -> PathBuf {
    let name = wire.provider();
    let text = format!(
        "provider = \"{name}\"\nmodel = \"test-model\"\n\n[providers.{name}]\nbase_url = \"{}/v1\"\napi_key = \"sk-test-key\"\n{}\n{extra}\n",
        server.uri(),
        wire.place()
    );
    let file = dir.join("config.toml");
    std::fs::write(&file, text).unwrap();
    file
}

/// The binary, isolated from the machine's settings, keys and sessions (kept beside the
/// settings file), loopback only.
pub fn tackle(config: &Path) -> Command {
    isolated(Command::cargo_bin("tackle").unwrap(), config)
}

/// `tackle` as a plain process, for a test that holds its pipes itself.
pub fn tackle_process(config: &Path) -> std::process::Command {
    let mut command = std::process::Command::new(assert_cmd::cargo::cargo_bin("tackle"));
    let (set, removed) = environment(config);
    command.envs(set);
    for name in removed {
        command.env_remove(name);
    }
    command
}

/// `command` with the environment `tackle` gets (see [`environment`]).
pub fn isolated(mut command: Command, config: &Path) -> Command {
    let (set, removed) = environment(config);
    command.envs(set);
    for name in removed {
        command.env_remove(name);
    }
    command
}

/// The machine's settings and keys that never reach `tackle` in the tests.
const REMOVED: [&str; 26] = [
    "TACKLE_PROVIDER",
    "TACKLE_SECRETS",
    "TACKLE_MODEL",
    "OPENAI_API_KEY",
    "ANTHROPIC_API_KEY",
    "GEMINI_API_KEY",
    "GOOGLE_API_KEY",
    "GOOGLE_APPLICATION_CREDENTIALS",
    "GOOGLE_CLOUD_PROJECT",
    "GOOGLE_CLOUD_LOCATION",
    "AWS_ACCESS_KEY_ID",
    "AWS_SECRET_ACCESS_KEY",
    "AWS_SESSION_TOKEN",
    "AWS_PROFILE",
    "AWS_REGION",
    "AWS_DEFAULT_REGION",
    "AWS_BEARER_TOKEN_BEDROCK",
    "AWS_CONFIG_FILE",
    "AWS_SHARED_CREDENTIALS_FILE",
    "OTEL_EXPORTER_OTLP_ENDPOINT",
    "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
    "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT",
    "OTEL_EXPORTER_OTLP_PROTOCOL",
    "OTEL_TRACES_EXPORTER",
    "OTEL_METRICS_EXPORTER",
    "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT",
];

/// The environment `tackle` gets in the tests: the settings file, its data dir beside it,
/// the shared model cache, loopback only, and none of the machine's keys.
fn environment(config: &Path) -> (Vec<(&'static str, std::ffi::OsString)>, [&'static str; 26]) {
    let data = config.parent().unwrap().join("data");
    let set = vec![
        ("TACKLE_CONFIG", config.as_os_str().to_owned()),
        ("TACKLE_DATA_DIR", data.into_os_string()),
        ("TACKLE_MODEL_DIR", model_dir().into_os_string()),
        ("TACKLE_LOOPBACK_ONLY", "1".into()),
        ("NO_COLOR", "1".into()),
    ];
    (set, REMOVED)
}

/// The shared model cache (`TACKLE_MODEL_DIR`, else `~/.cache/tackle/models`), so that
/// the local model is fetched once for every test and run.
pub fn model_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("TACKLE_MODEL_DIR") {
        return PathBuf::from(dir);
    }
    let home = std::env::var_os("HOME").map_or_else(std::env::temp_dir, PathBuf::from);
    home.join(".cache").join("tackle").join("models")
}

/// Whether the default local model is in the model cache. When it is not, the tests that
/// run it skip (saying so once on stderr) — nothing is downloaded by a test — unless
/// `TACKLE_REQUIRE_MODEL=1` (as `.ci/run` sets after pulling), which makes it a failure.
pub fn local_model_present() -> bool {
    let dir = model_dir();
    if tackle_local::installed(&tackle_local::SMOLLM2_135M, &dir).is_some() {
        return true;
    }
    if std::env::var_os("TACKLE_REQUIRE_MODEL").is_some_and(|v| !v.is_empty() && v != "0") {
        panic!("TACKLE_REQUIRE_MODEL is set but the default model is not in {}", dir.display());
    }
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        use std::io::Write as _;
        let _ = writeln!(
            std::io::stderr(),
            "note: skipping the local-model CLI tests: the default model is not in {}; \
             `cargo run -p tackle-cli -- model pull` fetches it",
            dir.display()
        );
    });
    false
}

/// Whether tool search's embedder is in the model cache; like [`local_model_present`], a
/// failure when `TACKLE_REQUIRE_MODEL` asks for it.
pub fn embedder_present() -> bool {
    let dir = model_dir();
    let present = [tackle_local::MINILM_L6_WEIGHTS, tackle_local::MINILM_L6_TOKENIZER]
        .iter()
        .all(|r| tackle_local::installed(r, &dir).is_some());
    if !present && std::env::var_os("TACKLE_REQUIRE_MODEL").is_some_and(|v| !v.is_empty() && v != "0") {
        panic!("TACKLE_REQUIRE_MODEL is set but tool search's embedder is not in {}", dir.display());
    }
    present
}

/// Runs a command off the async runtime (the servers keep serving) and returns its
/// exit code, stdout and stderr.
pub async fn output(mut command: Command) -> (i32, String, String) {
    let output = tokio::task::spawn_blocking(move || command.output().unwrap()).await.unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// Replaces what changes between runs: durations, ports, temporary paths, run ids.
pub fn stable(text: &str, server: &MockServer) -> String {
    let mut out = text.replace(&server.uri(), "http://SERVER");
    let tmp = std::env::temp_dir().display().to_string();
    out = out.replace(&tmp, "/TMP");
    let mut result = String::new();
    for line in out.lines() {
        let line = match line.find(" in ").zip(line.rfind(" ms")) {
            Some((a, b)) if b > a => format!("{} in [ms]{}", &line[..a], &line[b + 3..]),
            _ => line.to_owned(),
        };
        result.push_str(&line);
        result.push('\n');
    }
    result
}

/// The bodies the provider received, as JSON.
pub async fn requests(server: &MockServer, wire: Wire) -> Vec<Value> {
    server
        .received_requests()
        .await
        .unwrap()
        .iter()
        .filter(|r| r.url.path() == wire.path())
        .map(|r| serde_json::from_slice(&r.body).unwrap())
        .collect()
}

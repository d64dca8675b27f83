//! Integration tests for the provider adapters: request shapes, recorded responses, and
//! full rounds against a local HTTP server (never the internet: the client's loopback
//! guard is on).
#![allow(clippy::unwrap_used, missing_docs, unreachable_pub)]

mod anthropic;
mod bedrock;
mod gemini;
mod openai_chat;
mod openai_responses;
mod redirects;

use std::sync::Arc;
use std::time::Duration;

use serde_json::json;
use tackle_core::{JsonSchema, ModelSettings, ToolDefinition};
use tackle_http::{HttpClient, RetryConfig};

pub fn test_client() -> HttpClient {
    HttpClient::new()
        .unwrap()
        .loopback_only(true)
        .retry(RetryConfig {
            max_retries: 2,
            initial_backoff: Duration::from_millis(10),
            max_backoff: Duration::from_millis(50),
            max_retry_after: Duration::from_secs(5),
        })
        .first_byte_timeout(Duration::from_millis(500))
}

pub fn weather_tool(strict: Option<bool>) -> Arc<ToolDefinition> {
    let mut def = ToolDefinition::new(
        "get_weather",
        "Get the current weather for a city.",
        JsonSchema::new(json!({
            "type": "object",
            "properties": {
                "city": {"type": "string", "description": "The city."},
                "unit": {"type": "string", "enum": ["c", "f"]},
                "when": {
                    "type": "object",
                    "properties": {"day": {"type": "string", "format": "date"}, "hour": {"type": "integer"}},
                    "required": ["day"]
                }
            },
            "required": ["city"]
        }))
        .unwrap(),
    );
    def.strict = strict;
    Arc::new(def)
}

pub fn settings() -> ModelSettings {
    ModelSettings::default()
}

/// Cuts `bytes` into chunks at `cuts` (any positions, any order, repeats allowed).
pub fn split_at(bytes: &[u8], cuts: Vec<usize>) -> Vec<&[u8]> {
    let mut points: Vec<usize> = cuts.into_iter().map(|c| c % (bytes.len() + 1)).collect();
    points.sort_unstable();
    points.dedup();
    let mut chunks = Vec::new();
    let mut start = 0;
    for point in points.into_iter().chain([bytes.len()]) {
        chunks.push(&bytes[start..point]);
        start = point;
    }
    chunks
}

/// Answers each request with the next response of a script (500 once it runs out).
pub struct Script(std::sync::Mutex<Vec<wiremock::ResponseTemplate>>);

impl Script {
    pub fn new(responses: Vec<wiremock::ResponseTemplate>) -> Self {
        Script(std::sync::Mutex::new(responses))
    }
}

impl wiremock::Respond for Script {
    fn respond(&self, _request: &wiremock::Request) -> wiremock::ResponseTemplate {
        let mut script = self.0.lock().unwrap();
        if script.is_empty() { wiremock::ResponseTemplate::new(500) } else { script.remove(0) }
    }
}

/// A `text/event-stream` response with this body.
/// Streams one round twice against a server that always answers `stream` (a turn with tool
/// calls): with tool-call deltas wanted they come, without they do not, and the turns agree.
pub async fn deltas_only_when_wanted<M: tackle_core::Model>(
    stream: wiremock::ResponseTemplate,
    model: impl Fn(&str) -> M,
) {
    use futures_util::StreamExt as _;
    use tackle_core::{Message, ModelEvent, ModelRequest};
    let server = wiremock::MockServer::start().await;
    wiremock::Mock::given(wiremock::matchers::method("POST")).respond_with(stream).mount(&server).await;
    let model = model(&format!("{}/v1", server.uri()));
    let (messages, settings) = ([Message::user("go")], settings());
    let mut turns = Vec::new();
    for wanted in [true, false] {
        let request = ModelRequest::new("", &messages, &[], &settings).tool_call_deltas(wanted);
        let mut events = model.stream(request);
        let (mut deltas, mut turn) = (0, None);
        while let Some(event) = events.next().await {
            match event.unwrap() {
                ModelEvent::ToolCallDelta { .. } => deltas += 1,
                ModelEvent::Completed(response) => turn = Some(response.turn),
                _ => {}
            }
        }
        assert_eq!(deltas > 0, wanted, "{deltas} tool-call deltas with wanted = {wanted}");
        let turn = turn.unwrap();
        assert!(turn.tool_calls().count() > 0);
        turns.push(turn);
    }
    assert_eq!(turns[0], turns[1]);
}

pub fn sse_response(body: String) -> wiremock::ResponseTemplate {
    wiremock::ResponseTemplate::new(200)
        .insert_header("content-type", "text/event-stream")
        .set_body_string(body)
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct AddArgs {
    a: i64,
    b: i64,
}

/// Runs "2+40?" through a harness with an `add` tool and `model`; returns the answer.
pub async fn add_round_trip(model: &dyn tackle_core::Model) -> tackle_harness::Answer {
    let add =
        tackle_tools::typed_tool("add", "Add.", |_ctx: tackle_tools::ToolContext, a: AddArgs| async move {
            Ok::<_, tackle_tools::ToolError>(a.a + a.b)
        })
        .build()
        .unwrap();
    let harness =
        tackle_harness::Harness::new(tackle_tools::ToolRegistry::builder().tool(add).build().unwrap());
    let messages = vec![tackle_core::Message::system("Be brief."), tackle_core::Message::user("2+40?")];
    let mut state = harness.start("r", messages);
    let ctx = Arc::new(tackle_tools::RunContext::new("r"));
    match harness.run(model, &ctx, &mut state, &mut tackle_harness::Discard).await.unwrap() {
        tackle_harness::RunOutcome::Answered(answer) => answer,
        other => panic!("no answer: {other:?}"),
    }
}

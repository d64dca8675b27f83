//! Fakes for testing code built on tackle. Not published.
//!
//! - [`ScriptedModel`]: answers each round with the next scripted turn and records every
//!   request it was sent.
//! - [`FunctionModel`]: answers each round by calling a closure with the request.
//!
//! Both implement the real [`Model`] trait and stream their turns as deltas followed by
//! [`ModelEvent::Completed`], exactly as provider adapters do, so the code under test takes
//! its real path.
//!
//! - [`wire`]: scripted Gemini and Bedrock servers on loopback, for the adapters' real
//!   HTTP path.

pub mod wire;

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use tackle_core::{Message, ModelSettings, ToolDefinition};

use futures_util::stream;
use tackle_core::{
    AssistantPart, AssistantTurn, FinishReason, Model, ModelError, ModelEvent, ModelProfile, ModelRequest,
    ModelResponse, ModelStream,
};

/// Turns a complete turn into the events a streaming adapter would produce.
pub fn turn_events(mut turn: AssistantTurn) -> Vec<Result<ModelEvent, ModelError>> {
    let mut events = Vec::new();
    let mut call_index = 0;
    for part in &turn.parts {
        match part {
            AssistantPart::Text(text) => events.push(Ok(ModelEvent::TextDelta(text.clone()))),
            AssistantPart::Thinking(thinking) => {
                events.push(Ok(ModelEvent::ThinkingDelta(thinking.text.clone())));
            }
            AssistantPart::ToolCall(call) => {
                events.push(Ok(ModelEvent::ToolCallDelta {
                    index: call_index,
                    id: Some(call.id.clone()),
                    name: Some(call.name.clone()),
                    arguments: call.arguments.raw_text(),
                }));
                call_index += 1;
            }
        }
    }
    if turn.finish_reason.is_none() {
        turn.finish_reason = Some(if call_index > 0 { FinishReason::ToolCalls } else { FinishReason::Stop });
    }
    events.push(Ok(ModelEvent::Usage(turn.usage)));
    events.push(Ok(ModelEvent::Completed(ModelResponse { turn })));
    events
}

/// An owned copy of a request a fake model was sent.
#[derive(Debug, Clone, PartialEq)]
pub struct RecordedRequest {
    /// The round's system instructions.
    pub instructions: String,
    /// The conversation.
    pub messages: Vec<Message>,
    /// The tools offered.
    pub tools: Vec<Arc<ToolDefinition>>,
    /// The settings.
    pub settings: ModelSettings,
}

impl RecordedRequest {
    /// Copies `request`.
    pub fn of(request: &ModelRequest<'_>) -> Self {
        RecordedRequest {
            instructions: request.instructions.to_owned(),
            messages: request.messages.to_vec(),
            tools: request.tools.to_vec(),
            settings: request.settings.clone(),
        }
    }

    /// The names of the offered tools, in order.
    pub fn tool_names(&self) -> Vec<&str> {
        self.tools.iter().map(|t| t.name.as_str()).collect()
    }
}

/// A model that plays back a script, one entry per round, and records what it was sent.
/// When the script runs out, a round fails with an invalid-request error.
#[derive(Clone)]
pub struct ScriptedModel {
    script: Arc<Mutex<VecDeque<Result<AssistantTurn, ModelError>>>>,
    requests: Arc<Mutex<Vec<RecordedRequest>>>,
    profile: ModelProfile,
}

impl ScriptedModel {
    /// A model that answers with `turns`, in order.
    pub fn new(turns: impl IntoIterator<Item = AssistantTurn>) -> Self {
        Self::with_results(turns.into_iter().map(Ok))
    }

    /// A model whose rounds succeed or fail as scripted.
    pub fn with_results(script: impl IntoIterator<Item = Result<AssistantTurn, ModelError>>) -> Self {
        ScriptedModel {
            script: Arc::new(Mutex::new(script.into_iter().collect())),
            requests: Arc::new(Mutex::new(Vec::new())),
            profile: ModelProfile::default(),
        }
    }

    /// Uses `profile` instead of the default one.
    pub fn profile(mut self, profile: ModelProfile) -> Self {
        self.profile = profile;
        self
    }

    /// Every request sent so far.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.requests.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// How many scripted rounds are left.
    pub fn remaining(&self) -> usize {
        self.script.lock().unwrap_or_else(|p| p.into_inner()).len()
    }
}

impl Model for ScriptedModel {
    fn name(&self) -> &str {
        "test:scripted"
    }

    fn profile(&self) -> &ModelProfile {
        &self.profile
    }

    fn stream<'a>(&'a self, request: ModelRequest<'a>) -> ModelStream<'a> {
        self.requests.lock().unwrap_or_else(|p| p.into_inner()).push(RecordedRequest::of(&request));
        let next = self.script.lock().unwrap_or_else(|p| p.into_inner()).pop_front();
        let events = match next {
            Some(Ok(turn)) => turn_events(turn),
            Some(Err(error)) => vec![Err(error)],
            None => vec![Err(ModelError::new(
                tackle_core::ModelErrorKind::InvalidRequest,
                "the scripted model has no more turns",
            ))],
        };
        Box::pin(stream::iter(events))
    }
}

type Responder = dyn Fn(&ModelRequest<'_>) -> Result<AssistantTurn, ModelError> + Send + Sync;

/// A model whose every round is answered by a closure.
#[derive(Clone)]
pub struct FunctionModel {
    respond: Arc<Responder>,
    profile: ModelProfile,
}

impl FunctionModel {
    /// A model that answers with `respond(request)`.
    pub fn new(
        respond: impl Fn(&ModelRequest<'_>) -> Result<AssistantTurn, ModelError> + Send + Sync + 'static,
    ) -> Self {
        FunctionModel { respond: Arc::new(respond), profile: ModelProfile::default() }
    }
}

impl Model for FunctionModel {
    fn name(&self) -> &str {
        "test:function"
    }

    fn profile(&self) -> &ModelProfile {
        &self.profile
    }

    fn stream<'a>(&'a self, request: ModelRequest<'a>) -> ModelStream<'a> {
        let events = match (self.respond)(&request) {
            Ok(turn) => turn_events(turn),
            Err(error) => vec![Err(error)],
        };
        Box::pin(stream::iter(events))
    }
}

/// Where the real MCP peers the tests run against are installed: `TACKLE_MCP_PEERS`, else
/// `~/.cache/tackle/mcp-peers` (`.ci/run` installs them there).
pub fn mcp_peers() -> std::path::PathBuf {
    std::env::var_os("TACKLE_MCP_PEERS").map(std::path::PathBuf::from).unwrap_or_else(|| {
        std::path::PathBuf::from(std::env::var_os("HOME").unwrap_or_default()).join(".cache/tackle/mcp-peers")
    })
}

/// The installed MCP peer file `relative` (under [`mcp_peers`]); `None`, said on stderr,
/// when it is missing — unless `TACKLE_REQUIRE_PEERS` is set, which makes its absence a
/// failure (as in CI).
#[allow(clippy::print_stderr)]
pub fn mcp_peer(relative: &str) -> Option<std::path::PathBuf> {
    let path = mcp_peers().join(relative);
    if path.exists() {
        return Some(path);
    }
    assert!(
        std::env::var_os("TACKLE_REQUIRE_PEERS").is_none(),
        "TACKLE_REQUIRE_PEERS is set but {} is missing; .ci/run installs the peers",
        path.display()
    );
    eprintln!("skipped: {} is not installed", path.display());
    None
}

#[cfg(test)]
mod tests {
    use futures_util::StreamExt;
    use serde_json::json;
    use tackle_core::ToolCall;

    use super::*;

    #[tokio::test]
    async fn scripted_model_streams_and_records() {
        let model = ScriptedModel::new([AssistantTurn {
            parts: vec![
                AssistantPart::Text("checking".into()),
                AssistantPart::ToolCall(ToolCall::new("c1", "add", json!({"a": 1, "b": 2}))),
            ],
            ..AssistantTurn::default()
        }]);
        let messages = [Message::user("1+2?")];
        let settings = ModelSettings::default();
        let request = ModelRequest::new("be brief", &messages, &[], &settings);
        let events: Vec<_> = model.stream(request).collect().await;
        assert_eq!(events.len(), 4);
        let Some(Ok(ModelEvent::Completed(response))) = events.last() else { panic!("no completion") };
        assert_eq!(response.turn.finish_reason, Some(FinishReason::ToolCalls));
        assert_eq!(model.requests(), vec![RecordedRequest::of(&request)]);
        let after: Vec<_> = model.stream(request).collect().await;
        assert!(matches!(&after[0], Err(e) if e.message.contains("no more turns")));
    }

    #[tokio::test]
    async fn function_model_answers_from_the_request() {
        let model =
            FunctionModel::new(|req| Ok(AssistantTurn::text(format!("{} messages", req.messages.len()))));
        let settings = ModelSettings::default();
        let request = ModelRequest::new("", &[], &[], &settings);
        let events: Vec<_> = model.stream(request).collect().await;
        assert!(matches!(&events[0], Ok(ModelEvent::TextDelta(t)) if t == "0 messages"));
    }
}

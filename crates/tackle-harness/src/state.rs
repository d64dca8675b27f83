//! The state of a run — everything needed to continue it, serialisable — and what a run
//! ends with.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use tackle_core::{
    Confidence, Cost, InputRequest, InputResponse, Message, ModelError, Source, ToolCall, ToolReturn,
    ToolStatus, Usage,
};
use tackle_tools::{ExecutionState, RetryExhausted};

use crate::event::millis;
use crate::limits::LimitKind;

/// What a run has consumed so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default)]
#[non_exhaustive]
pub struct Counters {
    /// Model rounds.
    pub rounds: u32,
    /// Tool calls made (calls a limit stopped are not counted).
    pub tool_calls: u32,
    /// Characters of tool results the model was shown.
    pub result_chars: u64,
    /// Model usage, summed over rounds.
    pub usage: Usage,
    /// Tool costs, summed over calls.
    pub tool_cost: Cost,
    /// Time spent running (suspensions excluded).
    #[serde(with = "millis")]
    pub elapsed: Duration,
}

/// The trace of one call. Results are kept only when the harness is told to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct CallTrace {
    /// The call's position in the run, from 1.
    pub order: u32,
    /// The tool name as the model wrote it.
    pub tool: String,
    /// The call id.
    pub call_id: String,
    /// How it ended.
    pub status: ToolStatus,
    /// How long it took.
    #[serde(with = "millis")]
    pub duration: Duration,
    /// The arguments, sensitive ones replaced by `*****`.
    pub arguments: Value,
    /// What the model was shown, when the host keeps results in traces.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
    /// Why the call did not succeed, in full (kept whether or not results are).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// What the prompt-injection filter replaced in the result (kept whether or not
    /// results are).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub filter: Option<tackle_core::FilterReport>,
    /// What the tool left for the host (the diff an edit made, how a command ended), kept
    /// whether or not results are, up to [`METADATA_MAX_BYTES`] of JSON.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Value>,
}

/// The most JSON a call's metadata may take in a trace or an event; larger metadata is
/// replaced by a note of its size.
pub const METADATA_MAX_BYTES: usize = 64 * 1024;

/// `metadata` as traces and events keep it: as it is, or a note of its size when too large.
pub(crate) fn bounded_metadata(metadata: Option<&Value>) -> Option<Value> {
    let metadata = metadata?;
    let size = serde_json::to_string(metadata).map_or(usize::MAX, |s| s.len());
    Some(if size <= METADATA_MAX_BYTES {
        metadata.clone()
    } else {
        serde_json::json!({ "omitted": format!("{size} bytes of metadata, more than a trace keeps") })
    })
}

/// Why a call waits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PendingKind {
    /// A human must approve (or deny, or edit) the call.
    Approval,
    /// The result comes from elsewhere.
    Deferred,
    /// The running call asked the user a question; it runs again with the answer.
    Input,
}

/// A call the run waits for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct PendingCall {
    /// The call id.
    pub call_id: String,
    /// The tool.
    pub tool: String,
    /// The arguments, sensitive ones replaced by `*****`.
    pub arguments: Value,
    /// Why it waits.
    pub kind: PendingKind,
    /// The question, for a call that asked one (its tool's state left out).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request: Option<InputRequest>,
}

/// A batch of calls interrupted by a suspension.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct PendingBatch {
    /// The calls of the model's turn, in order.
    pub calls: Vec<ToolCall>,
    /// Their results so far; calls that wait have the status `approval_required` or
    /// `deferred`.
    pub returns: Vec<ToolReturn>,
    /// How long each finished call took.
    #[serde(with = "millis_vec")]
    pub durations: Vec<Duration>,
    /// Which calls count towards the call limit (not those a limit stopped).
    pub counted: Vec<bool>,
}

impl PendingBatch {
    /// The calls that wait, with why.
    pub fn waiting(&self) -> impl Iterator<Item = (usize, &ToolCall, PendingKind)> {
        self.calls.iter().zip(&self.returns).enumerate().filter_map(|(i, (call, ret))| match ret.status {
            ToolStatus::ApprovalRequired => Some((i, call, PendingKind::Approval)),
            ToolStatus::Deferred => Some((i, call, PendingKind::Deferred)),
            ToolStatus::InputRequired => Some((i, call, PendingKind::Input)),
            _ => None,
        })
    }
}

/// Everything needed to continue a run: the conversation, counters, budgets, sources,
/// confidence, traces and — when suspended — the interrupted batch. Serialise it to keep a
/// suspended run across a restart.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunState {
    /// The run's id.
    pub run_id: String,
    /// The application's system prompt.
    pub system: String,
    /// The conversation, without system messages.
    pub messages: Vec<Message>,
    /// What the run has consumed.
    pub counters: Counters,
    /// Sources used by tools, each once, in the order they came.
    pub sources: Vec<Source>,
    /// The provider confidence the conversation requires from now on.
    pub required_confidence: Confidence,
    /// Model-retry counts and approvals.
    pub execution: ExecutionState,
    /// One trace per call.
    pub traces: Vec<CallTrace>,
    /// Set once a limit was reached: the next round is the final one.
    pub final_round: Option<LimitKind>,
    /// The interrupted batch, while the run is suspended.
    pub pending: Option<PendingBatch>,
}

impl RunState {
    /// A context for this run (its id given once, at [`Harness::start`](crate::Harness::start)):
    /// nothing allowed beyond the defaults, no settings; set its fields for more.
    ///
    /// ```
    /// let harness = tackle_harness::Harness::new(tackle_tools::ToolRegistry::builder().build().unwrap());
    /// let run = harness.start("run-7", vec![tackle_core::Message::user("hi")]);
    /// assert_eq!(run.context().run_id, "run-7");
    /// ```
    pub fn context(&self) -> tackle_tools::RunContext {
        tackle_tools::RunContext::new(self.run_id.clone())
    }

    /// Whether the run waits for decisions.
    pub fn is_suspended(&self) -> bool {
        self.pending.is_some()
    }

    /// Adds a user message, to go on with the conversation after an answer.
    pub fn push_user(&mut self, text: impl Into<String>) {
        self.messages.push(Message::user(text));
        self.final_round = None;
    }
}

/// A conversation's title from its first prompt: the start of it, on one line (at most 60
/// characters, then `…`).
pub fn conversation_title(prompt: &str) -> String {
    let line = prompt.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut title: String = line.chars().take(60).collect();
    if title.len() < line.len() {
        title.push('…');
    }
    title
}

/// What a human (or a worker) decided about a waiting call.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "decision", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Decision {
    /// Run the call as the model asked.
    Approve,
    /// Run the call with these arguments instead.
    ApproveWithArguments {
        /// The edited arguments (a JSON object).
        arguments: Value,
    },
    /// Do not run the call; the model is told, with the reason when there is one.
    Deny {
        /// Why.
        reason: Option<String>,
    },
    /// The result of a deferred call. It goes through the same redaction and size cap as
    /// an executed call's.
    Result {
        /// The result; its status defaults to ok.
        result: Box<ToolReturn>,
    },
    /// The user's answer to the question a call asked; the call runs again with it. An
    /// accepted answer must match the question's form. (A denial declines the question.)
    Input {
        /// The answer.
        response: InputResponse,
    },
}

/// The end of a run that answered.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Answer {
    /// The answer text (the final round's text, or the harness's message when the model
    /// said nothing).
    pub text: String,
    /// Whether the model itself answered.
    pub model_answered: bool,
    /// Sources used by tools, each once.
    pub sources: Vec<Source>,
    /// Model usage over the run.
    pub usage: Usage,
    /// Tool costs over the run.
    pub tool_cost: Cost,
}

/// How a call to [`crate::Harness::run`] or [`crate::Harness::resume`] ended.
#[derive(Debug, Clone, PartialEq)]
#[must_use]
pub enum RunOutcome {
    /// The run answered.
    Answered(Answer),
    /// The run waits for decisions on these calls; the state holds everything else.
    Suspended(Vec<PendingCall>),
}

/// Why a run stopped without an answer. The state stays valid: every recorded call has a
/// result.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum RunError {
    /// The model request failed.
    #[error("the model request failed: {0}")]
    Model(#[from] ModelError),
    /// The model's stream ended before the round was complete.
    #[error("the model's response was cut off before it was complete")]
    StreamCut,
    /// The provider is not trusted enough for what the conversation now contains.
    #[error(
        "this conversation now requires a provider with confidence {required} or higher; the current provider has {provider}"
    )]
    ConfidenceTooLow {
        /// What the conversation requires.
        required: Confidence,
        /// What the provider has.
        provider: Confidence,
    },
    /// A tool's model-retry budget ran out.
    #[error("{0}")]
    RetryBudgetExhausted(RetryExhausted),
    /// The run was cancelled.
    #[error("the run was cancelled")]
    Cancelled,
    /// The host refused the next model round ([`crate::EventSink::admit`]): credits spent,
    /// say. Every recorded call has its result; the conversation can be continued.
    #[error("the run stopped before its next round: {0}")]
    Stopped(String),
    /// `run` was called on a suspended run; call `resume`.
    #[error("the run is suspended; resume it with decisions for its pending calls")]
    Suspended,
    /// `resume` was called on a run that is not suspended.
    #[error("the run is not suspended")]
    NotSuspended,
    /// A waiting call got no decision.
    #[error("no decision for pending call {0:?}")]
    MissingDecision(String),
    /// A decision names no waiting call, or does not fit it.
    #[error("decision for call {call_id:?} does not apply: {reason}")]
    BadDecision {
        /// The call id.
        call_id: String,
        /// Why.
        reason: String,
    },
}

mod millis_vec {
    use std::time::Duration;

    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub(super) fn serialize<S: Serializer>(value: &[Duration], serializer: S) -> Result<S::Ok, S::Error> {
        let ms: Vec<u64> = value.iter().map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX)).collect();
        ms.serialize(serializer)
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<Duration>, D::Error> {
        Ok(Vec::<u64>::deserialize(deserializer)?.into_iter().map(Duration::from_millis).collect())
    }
}

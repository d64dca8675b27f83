//! [`RunEvent`]: what a UI or the CLI sees while a run goes.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use tackle_core::{Source, ToolStatus, Usage};

use crate::state::PendingCall;

/// One thing that happened in a run, in the order it happened.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
#[non_exhaustive]
pub enum RunEvent {
    /// The run started (or resumed).
    RunStarted {
        /// The run's id.
        run_id: String,
    },
    /// A piece of answer text.
    TextDelta {
        /// The text.
        text: String,
    },
    /// A piece of reasoning text.
    ThinkingDelta {
        /// The text.
        text: String,
    },
    /// A tool call is about to run.
    ToolCallStarted {
        /// The call id.
        call_id: String,
        /// The tool name as the model wrote it.
        name: String,
        /// The arguments, with sensitive ones replaced by `*****`.
        arguments: Value,
    },
    /// A running call reported how far it has come (an MCP server's progress, say).
    ToolProgress {
        /// The call id.
        call_id: String,
        /// The tool name.
        name: String,
        /// How much is done.
        progress: f64,
        /// Out of how much, when known.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        total: Option<f64>,
        /// What it is doing.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        message: Option<String>,
    },
    /// A tool call ended.
    ToolCallFinished {
        /// The call id.
        call_id: String,
        /// The tool name.
        name: String,
        /// How it ended.
        status: ToolStatus,
        /// How long it took.
        #[serde(with = "millis")]
        duration: Duration,
        /// Why it did not succeed, in full (for the user; the model is told what the error
        /// table allows).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        detail: Option<String>,
        /// What the call cost: what the tool reported, else its definition's price for a
        /// call that reached it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cost: Option<tackle_core::Cost>,
        /// What the tool left for the host (its private metadata: the diff an edit made,
        /// how a command ended), bounded; never shown to the model.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        metadata: Option<Value>,
        /// The result as the model sees it: capped, secrets removed, suspicious spans of
        /// untrusted text replaced by markers.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        result: Option<String>,
    },
    /// A call ended with a status the host must hear about (an integration mistake the
    /// application, not the model, has to fix); the model was told only that the tool
    /// cannot run.
    HostAttention {
        /// The call id.
        call_id: String,
        /// The tool name.
        name: String,
        /// How it ended.
        status: ToolStatus,
        /// What the application must fix.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        detail: Option<String>,
    },
    /// The prompt-injection filter replaced spans of a call's result (or could not run);
    /// the model saw the markers, never what they replaced.
    ContentFiltered {
        /// The call id.
        call_id: String,
        /// The tool name.
        name: String,
        /// What was replaced, by source, and any warning.
        report: tackle_core::FilterReport,
    },
    /// Sources the run did not have before.
    Sources {
        /// The new sources.
        sources: Vec<Source>,
    },
    /// Tokens one model round consumed.
    Usage {
        /// The round's usage.
        usage: Usage,
    },
    /// The run waits for approvals or deferred results.
    Suspended {
        /// The calls waiting.
        pending: Vec<PendingCall>,
    },
    /// The run ended with an answer.
    Finished {
        /// Whether the model itself answered (false: the harness's message stands in).
        model_answered: bool,
    },
}

/// Where a run's events go.
pub trait EventSink: Send {
    /// Receives one event.
    fn emit(&mut self, event: RunEvent);

    /// Whether anyone listens; when not, the harness does not build per-call events.
    fn is_listening(&self) -> bool {
        true
    }

    /// The run's state at a point worth keeping: after the model's turn is recorded and
    /// before any of its calls starts, and after a batch's results are recorded. A sink
    /// that makes runs durable writes it before returning — the calls start only then — so
    /// that a run taken over later knows which calls may have run.
    fn checkpoint(&mut self, _state: &crate::RunState) {}

    /// The host's word before a step starts: a model round, or a call (with what its
    /// definition says it costs). A refusal ends the run before a round
    /// ([`RunError::Stopped`](crate::RunError::Stopped), the state valid for a later
    /// continuation), and answers a call with [`ToolStatus::Blocked`](tackle_core::ToolStatus)
    /// and the reason, without running it. A host that charges credits charges a call here.
    fn admit(&mut self, _step: Step<'_>) -> Result<(), String> {
        Ok(())
    }
}

/// A step the harness is about to take, for [`EventSink::admit`].
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum Step<'a> {
    /// A model round: the run's `round`-th (from 1).
    Round {
        /// Which round.
        round: u32,
    },
    /// A call about to start.
    Call {
        /// The call id.
        call_id: &'a str,
        /// The tool.
        tool: &'a str,
        /// What the tool's definition says one call costs.
        cost: Option<tackle_core::Cost>,
    },
}

impl<F: FnMut(RunEvent) + Send> EventSink for F {
    fn emit(&mut self, event: RunEvent) {
        self(event);
    }
}

impl EventSink for Vec<RunEvent> {
    fn emit(&mut self, event: RunEvent) {
        self.push(event);
    }
}

/// Discards every event.
#[derive(Debug, Clone, Copy, Default)]
pub struct Discard;

impl EventSink for Discard {
    fn emit(&mut self, _event: RunEvent) {}

    fn is_listening(&self) -> bool {
        false
    }
}

impl EventSink for tokio::sync::mpsc::UnboundedSender<RunEvent> {
    fn emit(&mut self, event: RunEvent) {
        // A receiver that went away no longer wants events; the run goes on.
        let _ = self.send(event);
    }
}

pub(crate) mod millis {
    use std::time::Duration;

    use serde::{Deserialize, Deserializer, Serializer};

    pub(crate) fn serialize<S: Serializer>(value: &Duration, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_u64(u64::try_from(value.as_millis()).unwrap_or(u64::MAX))
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Duration, D::Error> {
        Ok(Duration::from_millis(u64::deserialize(deserializer)?))
    }
}

//! The tool-calling loop of tackle.
//!
//! [`Harness`] drives any [`tackle_core::Model`] through rounds: it asks the model with the
//! tools offered in the run's context, passes its stream on as [`RunEvent`]s, runs the calls
//! through the [`tackle_tools::Executor`], records the model's turn once and the results in
//! call order, and repeats until the model answers. Limits ([`Limits`]) end tool use with
//! one last round that asks for the final answer. Approval-required and deferred calls
//! suspend the run; the [`RunState`] is serialisable and resumes with [`Decision`]s.
//!
//! The one decision that shaped this crate: the conversation lives in a [`RunState`] the
//! caller owns and the harness only lends it to each round (`ModelRequest` borrows), so no
//! round copies the history and any state can be stored and continued elsewhere.
//!
//! ```
//! use std::sync::Arc;
//! use serde_json::json;
//! use tackle_core::{AssistantPart, AssistantTurn, Message, ToolCall};
//! use tackle_harness::{Harness, RunOutcome};
//! use tackle_test::ScriptedModel;
//! use tackle_tools::{RunContext, ToolContext, ToolError, ToolRegistry, function_tool};
//!
//! # tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap().block_on(async {
//! let clock = function_tool("clock", "The time.", json!({"type": "object"}), |_ctx: ToolContext, _args| async move {
//!     Ok::<_, ToolError>("12:00")
//! })
//! .build()?;
//! let harness = Harness::new(ToolRegistry::builder().tool(clock).build()?);
//! // A model that first calls the tool, then answers.
//! let model = ScriptedModel::new([
//!     AssistantTurn { parts: vec![AssistantPart::ToolCall(ToolCall::new("c1", "clock", json!({})))], ..Default::default() },
//!     AssistantTurn::text("It is noon."),
//! ]);
//! let mut state = harness.start("run-1", vec![Message::user("What time is it?")]);
//! let mut events = Vec::new();
//! let outcome = harness.run(&model, &Arc::new(RunContext::new("run-1")), &mut state, &mut events).await?;
//! let RunOutcome::Answered(answer) = outcome else { unreachable!() };
//! assert_eq!(answer.text, "It is noon.");
//! assert_eq!(state.traces[0].tool, "clock");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! # }).unwrap();
//! ```

mod event;
mod limits;
mod run;
mod state;
mod wording;

pub use event::{Discard, EventSink, RunEvent, Step};
pub use limits::{LimitKind, Limits};
pub use run::Harness;
pub use state::{
    Answer, CallTrace, Counters, Decision, METADATA_MAX_BYTES, PendingBatch, PendingCall, PendingKind,
    RunError, RunOutcome, RunState, conversation_title,
};
pub use wording::Wording;

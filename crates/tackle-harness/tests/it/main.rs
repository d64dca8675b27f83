//! Integration tests for the harness, driven by the fakes of tackle-test.
#![allow(clippy::unwrap_used, missing_docs, unreachable_pub)]

mod limits;
mod loop_basics;
mod spans;
mod suspend;

use std::sync::Arc;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};
use tackle_core::{
    AssistantPart, AssistantTurn, Message, Source, ToolCall, ToolReturn, ToolReturnPart, UserPart,
};
use tackle_harness::{Harness, RunEvent, RunOutcome, RunState};
use tackle_tools::{RunContext, ToolContext, ToolError, ToolRegistry, function_tool, typed_tool};

#[derive(Deserialize, JsonSchema)]
pub struct AddArgs {
    pub a: i64,
    pub b: i64,
}

pub fn registry() -> ToolRegistry {
    let add = typed_tool("add", "Add two integers.", |_ctx: ToolContext, a: AddArgs| async move {
        Ok::<_, ToolError>(a.a + a.b)
    })
    .policy_in_group("math", "Use add for sums.")
    .build()
    .unwrap();
    let fetch = function_tool(
        "fetch",
        "Fetch a page.",
        json!({"type": "object", "properties": {"url": {"type": "string"}, "token": {"type": "string"}}, "required": ["url"]}),
        |_ctx: ToolContext, args| async move {
            let url = args["url"].as_str().unwrap_or_default().to_owned();
            let mut ret = ToolReturn::text(format!("page at {url}")).with_sources([Source::new(url.clone(), Some(format!("Title of {url}")))]);
            if url.contains("intranet") {
                ret = ret.with_required_confidence(tackle_core::Confidence::High);
            }
            // Something for the host only: the size of the page, or, for a huge page, all of it.
            let kept = if url.contains("huge") { "x".repeat(70_000) } else { url.len().to_string() };
            ret = ret.with_private_metadata(json!({ "kept": kept }));
            Ok::<_, ToolError>(ret.with_cost(tackle_core::Cost::credits(0.5)))
        },
    )
    .sensitive_argument("token")
    .policy("Cite the pages you read.")
    .build()
    .unwrap();
    ToolRegistry::builder().tool(add).tool(fetch).build().unwrap()
}

pub fn calls(calls: &[(&str, &str, Value)]) -> AssistantTurn {
    AssistantTurn {
        parts: calls
            .iter()
            .map(|(id, name, args)| AssistantPart::ToolCall(ToolCall::new(*id, *name, args.clone())))
            .collect(),
        ..AssistantTurn::default()
    }
}

pub fn ctx() -> Arc<RunContext> {
    Arc::new(RunContext::new("run-1"))
}

pub fn start(harness: &Harness) -> RunState {
    harness.start("run-1", vec![Message::system("You are terse."), Message::user("help")])
}

pub fn answered(outcome: RunOutcome) -> tackle_harness::Answer {
    match outcome {
        RunOutcome::Answered(answer) => answer,
        RunOutcome::Suspended(p) => panic!("suspended on {p:?}"),
    }
}

pub fn answer_text(outcome: RunOutcome) -> String {
    answered(outcome).text
}

/// The tool results of the last user message.
pub fn last_returns(messages: &[Message]) -> Vec<ToolReturnPart> {
    match messages.last() {
        Some(Message::User { parts }) => parts
            .iter()
            .filter_map(|p| match p {
                UserPart::ToolReturn(r) => Some(r.clone()),
                UserPart::Text(_) => None,
            })
            .collect(),
        other => panic!("last message is not tool results: {other:?}"),
    }
}

/// Every call in the history has exactly one result, right after its turn.
pub fn assert_history_valid(messages: &[Message]) {
    for (i, message) in messages.iter().enumerate() {
        if let Message::Assistant(turn) = message {
            let ids: Vec<&str> = turn.tool_calls().map(|c| c.id.as_str()).collect();
            if ids.is_empty() {
                continue;
            }
            let results: Vec<String> =
                last_returns(&messages[..=i + 1]).into_iter().map(|r| r.call_id).collect();
            assert_eq!(ids, results, "calls and results differ at message {i}");
        }
    }
}

pub fn event_names(events: &[RunEvent]) -> Vec<&'static str> {
    events
        .iter()
        .map(|e| match e {
            RunEvent::RunStarted { .. } => "started",
            RunEvent::TextDelta { .. } => "text",
            RunEvent::ThinkingDelta { .. } => "thinking",
            RunEvent::ToolCallStarted { .. } => "call_started",
            RunEvent::ToolCallFinished { .. } => "call_finished",
            RunEvent::ToolProgress { .. } => "progress",
            RunEvent::Sources { .. } => "sources",
            RunEvent::Usage { .. } => "usage",
            RunEvent::Suspended { .. } => "suspended",
            RunEvent::Finished { .. } => "finished",
            _ => "other",
        })
        .collect()
}

use std::sync::Arc;

use serde_json::json;
use tackle_core::{AssistantTurn, ToolKind, ToolReturn, ToolStatus};
use tackle_harness::{Decision, Harness, PendingKind, RunError, RunOutcome, RunState};
use tackle_test::ScriptedModel;
use tackle_tools::{StaticToolset, ToolContext, ToolError, ToolRegistry, ToolsetExt, function_tool};

use super::*;

/// `delete`, which records what it deleted so a test can see it ran once.
fn guarded_delete(deleted: Arc<std::sync::Mutex<Vec<String>>>) -> tackle_tools::FunctionTool {
    function_tool(
        "delete",
        "Delete a file.",
        json!({"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}),
        move |_ctx: ToolContext, args| {
            let deleted = Arc::clone(&deleted);
            async move {
                let path = args["path"].as_str().unwrap_or_default().to_owned();
                deleted.lock().unwrap().push(path.clone());
                Ok::<_, ToolError>(format!("deleted {path}"))
            }
        },
    )
    .build()
    .unwrap()
}

/// A registry with a tool needing approval (`delete`), a deferred one (`ticket`) and a
/// plain one (`add`).
fn guarded_registry(deleted: Arc<std::sync::Mutex<Vec<String>>>) -> ToolRegistry {
    let delete = guarded_delete(deleted);
    let ticket = function_tool(
        "ticket",
        "Open a ticket.",
        json!({"type": "object"}),
        |_ctx: ToolContext, _args| async move { Ok::<_, ToolError>("unreachable") },
    )
    .kind(ToolKind::Deferred)
    .build()
    .unwrap();
    ToolRegistry::builder()
        .toolset(StaticToolset::new("files").tool(delete).approval_required())
        .tool(ticket)
        .tool(
            tackle_tools::typed_tool("add", "Add.", |_ctx: ToolContext, a: super::AddArgs| async move {
                Ok::<_, ToolError>(a.a + a.b)
            })
            .build()
            .unwrap(),
        )
        .build()
        .unwrap()
}

fn script() -> Vec<AssistantTurn> {
    vec![
        calls(&[
            ("c1", "add", json!({"a": 1, "b": 2})),
            ("c2", "delete", json!({"path": "/tmp/a"})),
            ("c3", "ticket", json!({})),
            ("c4", "delete", json!({"path": "/tmp/b"})),
        ]),
        AssistantTurn::text("all done"),
    ]
}

/// Serialises the state, drops everything, and builds a fresh harness.
fn restart(state: RunState, deleted: &Arc<std::sync::Mutex<Vec<String>>>) -> (Harness, RunState) {
    let stored = serde_json::to_string(&state).unwrap();
    drop(state);
    let state: RunState = serde_json::from_str(&stored).unwrap();
    (Harness::new(guarded_registry(Arc::clone(deleted))), state)
}

#[tokio::test]
async fn suspend_serialise_restart_and_resume_the_hard_way() {
    let deleted = Arc::new(std::sync::Mutex::new(Vec::new()));
    let harness = Harness::new(guarded_registry(Arc::clone(&deleted)));
    let model = ScriptedModel::new(script());
    let mut state = start(&harness);
    let mut events = Vec::new();
    let outcome = harness.run(&model, &ctx(), &mut state, &mut events).await.unwrap();
    let RunOutcome::Suspended(pending) = outcome else { panic!("expected a suspension") };
    let waiting: Vec<_> = pending.iter().map(|p| (p.call_id.as_str(), p.kind)).collect();
    assert_eq!(
        waiting,
        [("c2", PendingKind::Approval), ("c3", PendingKind::Deferred), ("c4", PendingKind::Approval)]
    );
    assert!(deleted.lock().unwrap().is_empty(), "nothing ran before approval");
    assert!(event_names(&events).contains(&"suspended"));
    // Only the call that ran is said to start; the waiting ones have not started.
    let started: Vec<&str> = events
        .iter()
        .filter_map(|e| match e {
            tackle_harness::RunEvent::ToolCallStarted { call_id, .. } => Some(call_id.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(started, ["c1"]);
    assert_eq!(
        harness.run(&model, &ctx(), &mut state, &mut tackle_harness::Discard).await.unwrap_err(),
        RunError::Suspended
    );
    let remaining_script = model.remaining();
    drop(harness);

    let (harness, mut state) = restart(state, &deleted);
    // Decisions are checked before anything changes.
    let err = harness
        .resume(
            &model,
            &ctx(),
            &mut state,
            [("c2".to_owned(), Decision::Approve)],
            &mut tackle_harness::Discard,
        )
        .await
        .unwrap_err();
    assert_eq!(err, RunError::MissingDecision("c3".into()));
    let err = harness
        .resume(
            &model,
            &ctx(),
            &mut state,
            [
                ("c2".to_owned(), Decision::Approve),
                ("c3".to_owned(), Decision::Approve),
                ("c4".to_owned(), Decision::Approve),
            ],
            &mut tackle_harness::Discard,
        )
        .await
        .unwrap_err();
    assert!(matches!(err, RunError::BadDecision { ref call_id, .. } if call_id == "c3"), "{err:?}");
    assert!(state.is_suspended());
    assert_eq!(model.remaining(), remaining_script);

    let decisions = [
        ("c2".to_owned(), Decision::ApproveWithArguments { arguments: json!({"path": "/tmp/a-edited"}) }),
        ("c3".to_owned(), Decision::Result { result: Box::new(ToolReturn::text("ticket #42 opened")) }),
        ("c4".to_owned(), Decision::Deny { reason: Some("keep b".into()) }),
    ];
    let outcome =
        harness.resume(&model, &ctx(), &mut state, decisions, &mut tackle_harness::Discard).await.unwrap();
    assert_eq!(answer_text(outcome), "all done");
    assert_eq!(*deleted.lock().unwrap(), ["/tmp/a-edited"]);

    // The model saw the four results in call order, exactly as an uninterrupted run.
    let requests = model.requests();
    let returns = last_returns(&requests.last().unwrap().messages);
    let shown: Vec<_> = returns.iter().map(|r| (r.call_id.as_str(), r.status, r.content.as_str())).collect();
    assert_eq!(
        shown,
        [
            ("c1", ToolStatus::Ok, "3"),
            ("c2", ToolStatus::Ok, "deleted /tmp/a-edited"),
            ("c3", ToolStatus::Ok, "ticket #42 opened"),
            ("c4", ToolStatus::Denied, "The user denied this call: keep b"),
        ]
    );
    assert!(returns[3].is_error());
    assert_history_valid(&state.messages);
    assert_eq!(state.counters.tool_calls, 4);
    assert!(state.execution.approved.is_empty());
    assert!(!state.is_suspended());
}

#[tokio::test]
async fn resuming_a_run_that_is_not_suspended_is_an_error() {
    let harness = Harness::new(super::registry());
    let model = ScriptedModel::new([AssistantTurn::text("hi")]);
    let mut state = start(&harness);
    let err = harness.resume(&model, &ctx(), &mut state, [], &mut tackle_harness::Discard).await.unwrap_err();
    assert_eq!(err, RunError::NotSuspended);
}

#[tokio::test]
async fn a_deferred_result_is_redacted_and_capped_like_an_executed_one() {
    let deleted = Arc::default();
    let harness = Harness::new(guarded_registry(Arc::clone(&deleted)))
        .executor(tackle_tools::Executor::new().max_result_chars(40));
    let model = ScriptedModel::new([calls(&[("c1", "ticket", json!({}))]), AssistantTurn::text("ok")]);
    let mut ctx = tackle_tools::RunContext::new("run-1");
    ctx.redact.push(tackle_core::Secret::new("tok-9f2e"));
    let ctx = Arc::new(ctx);
    let mut state = start(&harness);
    let outcome = harness.run(&model, &ctx, &mut state, &mut tackle_harness::Discard).await.unwrap();
    assert!(matches!(outcome, RunOutcome::Suspended(_)));
    let leaky = format!("opened with tok-9f2e; {}", "x".repeat(200));
    let decisions = [("c1".to_owned(), Decision::Result { result: Box::new(ToolReturn::text(leaky)) })];
    let outcome =
        harness.resume(&model, &ctx, &mut state, decisions, &mut tackle_harness::Discard).await.unwrap();
    assert!(matches!(outcome, RunOutcome::Answered(_)));
    let requests = model.requests();
    let shown = &last_returns(&requests.last().unwrap().messages)[0].content;
    assert!(!shown.contains("tok-9f2e"), "{shown}");
    assert!(shown.starts_with("opened with [redacted]"), "{shown}");
    assert!(shown.contains("truncated"), "{shown}");
    assert!(shown.chars().count() < 120, "{shown}");
}

/// A tool that needs approval and then asks the user which name to give; it records every
/// run with what it was told.
fn asking_registry(runs: Arc<std::sync::Mutex<Vec<String>>>) -> ToolRegistry {
    let rename = function_tool("rename", "Rename the project.", json!({"type": "object"}), move |ctx: ToolContext, _args| {
        let runs = Arc::clone(&runs);
        async move {
            let Some(input) = ctx.input() else {
                runs.lock().unwrap().push(format!("asked, approved={}", ctx.approved()));
                return Err(ToolError::InputRequired(Box::new(tackle_core::InputRequest::new(
                    "Which name?",
                    json!({"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}),
                    json!({"step": 1}),
                ))));
            };
            let told = match input.response.action {
                tackle_core::InputAction::Accept => {
                    format!("renamed to {}", input.response.content.as_ref().unwrap()["name"].as_str().unwrap())
                }
                other => format!("{other:?}"),
            };
            runs.lock().unwrap().push(format!("{told}, state={}, approved={}", input.request.state, ctx.approved()));
            Ok::<_, ToolError>(told)
        }
    })
    .kind(ToolKind::ApprovalRequired)
    .build()
    .unwrap();
    ToolRegistry::builder().tool(rename).build().unwrap()
}

#[tokio::test]
async fn a_call_that_asks_the_user_suspends_and_runs_again_with_the_answer_after_a_restart() {
    let runs = Arc::default();
    let harness = Harness::new(asking_registry(Arc::clone(&runs)));
    let model = ScriptedModel::new([calls(&[("c1", "rename", json!({}))]), AssistantTurn::text("renamed")]);
    let mut state = start(&harness);
    let outcome = harness.run(&model, &ctx(), &mut state, &mut tackle_harness::Discard).await.unwrap();
    let RunOutcome::Suspended(pending) = outcome else { panic!("approval expected: {outcome:?}") };
    assert_eq!(pending[0].kind, PendingKind::Approval);
    let outcome = harness
        .resume(
            &model,
            &ctx(),
            &mut state,
            [("c1".to_owned(), Decision::Approve)],
            &mut tackle_harness::Discard,
        )
        .await
        .unwrap();
    let RunOutcome::Suspended(pending) = outcome else { panic!("a question expected: {outcome:?}") };
    assert_eq!(pending[0].kind, PendingKind::Input);
    let asked = pending[0].request.as_ref().expect("the question is shown");
    assert_eq!(asked.message, "Which name?");
    assert_eq!(asked.state, serde_json::Value::Null, "the tool's state is not shown to the host");

    // The suspended run survives a restart.
    let mut state: RunState = serde_json::from_str(&serde_json::to_string(&state).unwrap()).unwrap();
    let remaining = model.remaining();
    for (decision, why) in [
        (Decision::Approve, "needs an answer"),
        (
            Decision::Input {
                response: tackle_core::InputResponse::accept(json!({"name": 7}).as_object().unwrap().clone()),
            },
            "is not of type",
        ),
        (
            Decision::Input {
                response: tackle_core::InputResponse {
                    action: tackle_core::InputAction::Accept,
                    content: None,
                },
            },
            "\"name\" is a required property",
        ),
    ] {
        let err = harness
            .resume(&model, &ctx(), &mut state, [("c1".to_owned(), decision)], &mut tackle_harness::Discard)
            .await
            .unwrap_err();
        assert!(matches!(&err, RunError::BadDecision { reason, .. } if reason.contains(why)), "{err:?}");
        assert!(state.is_suspended());
        assert_eq!(model.remaining(), remaining);
    }
    let answer = tackle_core::InputResponse::accept(json!({"name": "tackle"}).as_object().unwrap().clone());
    let outcome = harness
        .resume(
            &model,
            &ctx(),
            &mut state,
            [("c1".to_owned(), Decision::Input { response: answer })],
            &mut tackle_harness::Discard,
        )
        .await
        .unwrap();
    assert!(matches!(outcome, RunOutcome::Answered(_)), "{outcome:?}");
    assert_eq!(
        *runs.lock().unwrap(),
        ["asked, approved=true", "renamed to tackle, state={\"step\":1}, approved=true"]
    );
    let requests = model.requests();
    let returns = last_returns(&requests.last().unwrap().messages);
    assert_eq!((returns[0].status, returns[0].content.as_str()), (ToolStatus::Ok, "renamed to tackle"));
    assert_history_valid(&state.messages);
    assert!(state.execution.approved.is_empty() && state.execution.inputs.is_empty());
    assert_eq!(state.counters.tool_calls, 1);
}

#[tokio::test]
async fn denying_a_question_declines_it_and_the_call_hears_so() {
    let runs = Arc::default();
    let harness = Harness::new(asking_registry(Arc::clone(&runs)));
    let model = ScriptedModel::new([calls(&[("c1", "rename", json!({}))]), AssistantTurn::text("ok")]);
    let mut state = start(&harness);
    let _ = harness.run(&model, &ctx(), &mut state, &mut tackle_harness::Discard).await.unwrap();
    let _ = harness
        .resume(
            &model,
            &ctx(),
            &mut state,
            [("c1".to_owned(), Decision::Approve)],
            &mut tackle_harness::Discard,
        )
        .await
        .unwrap();
    let outcome = harness
        .resume(
            &model,
            &ctx(),
            &mut state,
            [("c1".to_owned(), Decision::Deny { reason: None })],
            &mut tackle_harness::Discard,
        )
        .await
        .unwrap();
    assert!(matches!(outcome, RunOutcome::Answered(_)), "{outcome:?}");
    assert_eq!(runs.lock().unwrap()[1], "Decline, state={\"step\":1}, approved=true");
}

/// Keeps every checkpoint, as a durable host would.
#[derive(Default)]
struct Kept(Vec<RunState>);

impl tackle_harness::EventSink for Kept {
    fn emit(&mut self, _event: tackle_harness::RunEvent) {}

    fn checkpoint(&mut self, state: &RunState) {
        self.0.push(state.clone());
    }
}

const INTERRUPTED: &str = "interrupted: outcome unknown";

fn result_of<'s>(state: &'s RunState, call_id: &str) -> Option<&'s tackle_core::ToolReturnPart> {
    state.messages.iter().rev().find_map(|m| match m {
        Message::User { parts } => parts.iter().find_map(|p| match p {
            UserPart::ToolReturn(r) if r.call_id == call_id => Some(r),
            _ => None,
        }),
        _ => None,
    })
}

/// Taken over mid-batch (from the checkpoint before the calls): the idempotent call runs
/// again, the other started call is reported interrupted, and the calls that had not
/// started (approval, deferred) wait as they would have.
#[tokio::test]
async fn recovering_a_batch_in_flight() {
    let deleted = Arc::new(std::sync::Mutex::new(Vec::new()));
    let added = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let registry = |added: Arc<std::sync::atomic::AtomicUsize>| {
        let add = tackle_tools::typed_tool("add", "Add.", move |_ctx: ToolContext, a: super::AddArgs| {
            let added = Arc::clone(&added);
            async move {
                added.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                Ok::<_, ToolError>(a.a + a.b)
            }
        })
        .idempotent()
        .build()
        .unwrap();
        let note = function_tool(
            "note",
            "Write a note.",
            json!({"type": "object"}),
            |_ctx: ToolContext, _args| async move { Ok::<_, ToolError>("noted") },
        )
        .build()
        .unwrap();
        ToolRegistry::builder()
            .toolset(
                StaticToolset::new("files").tool(guarded_delete(Arc::clone(&deleted))).approval_required(),
            )
            .tool(add)
            .tool(note)
            .build()
            .unwrap()
    };
    let harness = Harness::new(registry(Arc::clone(&added)));
    let model = ScriptedModel::new([calls(&[
        ("c1", "add", json!({"a": 1, "b": 2})),
        ("c2", "note", json!({})),
        ("c3", "delete", json!({"path": "/tmp/a"})),
    ])]);
    let mut state = start(&harness);
    let mut kept = Kept::default();
    let outcome = harness.run(&model, &ctx(), &mut state, &mut kept).await.unwrap();
    assert!(matches!(outcome, RunOutcome::Suspended(_)));
    // The host died after the first checkpoint: the turn is kept, no result is.
    let checkpoint = serde_json::to_string(&kept.0[0]).unwrap();
    let mut state: RunState = serde_json::from_str(&checkpoint).unwrap();
    let harness = Harness::new(registry(Arc::clone(&added)));
    let outcome =
        harness.recover(&model, &ctx(), &mut state, INTERRUPTED, &mut Kept::default()).await.unwrap();
    let RunOutcome::Suspended(waiting) = outcome else { panic!("the delete still waits for approval") };
    assert_eq!(waiting.iter().map(|p| p.call_id.as_str()).collect::<Vec<_>>(), ["c3"]);
    assert_eq!(added.load(std::sync::atomic::Ordering::SeqCst), 2, "the idempotent add ran again");
    let batch = state.pending.as_ref().unwrap();
    let note = batch.returns.iter().find(|r| r.call_id == "c2").unwrap();
    assert_eq!(
        (note.status, note.content.model_text().into_owned()),
        (ToolStatus::Failed, INTERRUPTED.to_owned())
    );
    assert!(deleted.lock().unwrap().is_empty());
}

/// Taken over while approved calls ran: the approved call that may not run twice is
/// reported interrupted instead of running again, and the run goes on to its answer.
#[tokio::test]
async fn recovering_a_resume_in_flight() {
    let deleted = Arc::new(std::sync::Mutex::new(Vec::new()));
    let harness = Harness::new(guarded_registry(Arc::clone(&deleted)));
    let model = ScriptedModel::new([
        calls(&[("c2", "delete", json!({"path": "/tmp/a"}))]),
        AssistantTurn::text("done"),
        AssistantTurn::text("done after recovery"),
    ]);
    let mut state = start(&harness);
    let outcome = harness.run(&model, &ctx(), &mut state, &mut tackle_harness::Discard).await.unwrap();
    assert!(matches!(outcome, RunOutcome::Suspended(_)));
    let mut kept = Kept::default();
    let outcome = harness
        .resume(&model, &ctx(), &mut state, [("c2".to_owned(), Decision::Approve)], &mut kept)
        .await
        .unwrap();
    assert_eq!(answer_text(outcome), "done");
    assert_eq!(deleted.lock().unwrap().len(), 1);
    // The host died right after the checkpoint taken before the approved call started.
    let mut state = kept.0[0].clone();
    assert!(state.pending.is_some() && state.execution.approved.contains("c2"));
    let outcome =
        harness.recover(&model, &ctx(), &mut state, INTERRUPTED, &mut Kept::default()).await.unwrap();
    assert_eq!(answer_text(outcome), "done after recovery");
    assert_eq!(deleted.lock().unwrap().len(), 1, "the delete did not run twice");
    let result = result_of(&state, "c2").unwrap();
    assert_eq!(result.content, INTERRUPTED);
}

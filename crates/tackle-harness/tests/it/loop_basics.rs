use serde_json::json;
use tackle_core::{
    AssistantPart, AssistantTurn, Confidence, Message, ModelError, ModelErrorKind, ToolCall, ToolStatus,
    Usage,
};
use tackle_harness::{Harness, RunError, RunEvent, RunOutcome};
use tackle_test::ScriptedModel;

use super::*;

#[tokio::test]
async fn a_round_of_calls_then_an_answer() {
    let harness = Harness::new(registry());
    let mut turn = calls(&[
        ("c1", "add", json!({"a": 2, "b": 3})),
        ("c2", "fetch", json!({"url": "https://a.example/", "token": "t0p"})),
    ]);
    turn.parts.insert(0, AssistantPart::Text("Let me check. ".into()));
    turn.usage = Usage::default().requests(1).input_tokens(100).output_tokens(20);
    let mut answer = AssistantTurn::text("5, and the page says hello.");
    answer.usage = Usage::default().requests(1).input_tokens(150).output_tokens(10);
    let model = ScriptedModel::new([turn, answer]);
    let mut state = start(&harness);
    let mut events = Vec::new();
    let outcome = harness.run(&model, &ctx(), &mut state, &mut events).await.unwrap();
    let RunOutcome::Answered(answer) = outcome else { panic!("not answered") };
    assert_eq!(answer.text, "5, and the page says hello.");
    assert!(answer.model_answered);
    assert_eq!(answer.usage.total_tokens(), 280);
    assert_eq!(answer.tool_cost, tackle_core::Cost::credits(0.5));
    assert_eq!(answer.sources.len(), 1);

    // The second request saw: user, the model's turn (once), the results in call order.
    let requests = model.requests();
    assert_eq!(requests.len(), 2);
    assert_eq!(requests[0].tool_names(), ["add", "fetch"]);
    assert!(requests[0].instructions.starts_with("You are terse.\n\n# How to use the tools"));
    assert!(
        requests[0].instructions.contains("## math\nUse add for sums.\n\n## fetch\nCite the pages you read.")
    );
    let history = &requests[1].messages;
    assert_eq!(history.len(), 3);
    assert!(matches!(&history[1], Message::Assistant(t) if t.tool_calls().count() == 2));
    let returns = last_returns(history);
    assert_eq!(returns.iter().map(|r| r.call_id.as_str()).collect::<Vec<_>>(), ["c1", "c2"]);
    assert_eq!(returns[0].content, "5");
    assert_eq!(returns[1].content, "page at https://a.example/");
    assert_history_valid(&state.messages);

    assert_eq!(
        event_names(&events),
        [
            "started",
            "text",
            "usage",
            "call_started",
            "call_started",
            "call_finished",
            "call_finished",
            "sources",
            "text",
            "usage",
            "finished"
        ]
    );
    let redacted = events.iter().find_map(|e| match e {
        RunEvent::ToolCallStarted { name, arguments, .. } if name == "fetch" => Some(arguments.clone()),
        _ => None,
    });
    assert_eq!(redacted, Some(json!({"url": "https://a.example/", "token": "*****"})));

    // Traces: order, redacted arguments, no results unless asked for.
    assert_eq!(state.traces.len(), 2);
    assert_eq!(state.traces[1].order, 2);
    assert_eq!(state.traces[1].arguments["token"], "*****");
    assert!(state.traces.iter().all(|t| t.result.is_none()));
    let persisted = serde_json::to_string(&state.traces).unwrap();
    assert!(!persisted.contains("t0p") && !persisted.contains("page at"));
}

#[tokio::test]
async fn unusable_calls_become_results_and_the_run_goes_on() {
    let harness = Harness::new(registry());
    let turn = AssistantTurn {
        parts: vec![
            AssistantPart::ToolCall(ToolCall::from_raw("c1", "add", "[1, 2]")),
            AssistantPart::ToolCall(ToolCall::from_raw("c2", "add", "{\"a\": 1,")),
            AssistantPart::ToolCall(ToolCall::new("c3", "add two numbers", json!({}))),
            AssistantPart::ToolCall(ToolCall::new("c4", "subtract", json!({"a": 1}))),
        ],
        ..AssistantTurn::default()
    };
    let model = ScriptedModel::new([turn, AssistantTurn::text("sorry")]);
    let mut state = start(&harness);
    let text =
        answer_text(harness.run(&model, &ctx(), &mut state, &mut tackle_harness::Discard).await.unwrap());
    assert_eq!(text, "sorry");
    let returns = last_returns(&model.requests()[1].messages);
    let statuses: Vec<_> = returns.iter().map(|r| r.status).collect();
    assert_eq!(
        statuses,
        [
            ToolStatus::InvalidArguments,
            ToolStatus::InvalidArguments,
            ToolStatus::InvalidArguments,
            ToolStatus::NotAvailable
        ]
    );
    assert!(returns[2].content.contains("\"add two numbers\" is not a tool name"), "{}", returns[2].content);
    assert_eq!(state.counters.tool_calls, 4);
}

#[tokio::test]
async fn a_call_without_an_id_ends_the_round_cleanly() {
    let harness = Harness::new(registry());
    let mut turn = calls(&[("", "add", json!({"a": 1, "b": 2}))]);
    turn.parts.insert(0, AssistantPart::Text("adding".into()));
    let model = ScriptedModel::new([turn]);
    let mut state = start(&harness);
    let answer =
        answered(harness.run(&model, &ctx(), &mut state, &mut tackle_harness::Discard).await.unwrap());
    assert!(!answer.model_answered);
    assert!(answer.text.contains("no call id"), "{}", answer.text);
    assert_history_valid(&state.messages);
    assert!(matches!(state.messages.last(), Some(Message::Assistant(t)) if t.tool_calls().count() == 0));
}

#[tokio::test]
async fn a_spent_retry_budget_ends_the_run_naming_the_tool() {
    let harness = Harness::new(registry()).executor(tackle_tools::Executor::new().default_max_retries(1));
    let bad = || calls(&[("c", "add", json!({"a": "x", "b": 1}))]);
    let model = ScriptedModel::new([bad(), bad(), AssistantTurn::text("never")]);
    let mut state = start(&harness);
    let err = harness.run(&model, &ctx(), &mut state, &mut tackle_harness::Discard).await.unwrap_err();
    let RunError::RetryBudgetExhausted(exhausted) = &err else { panic!("{err:?}") };
    assert_eq!(exhausted.tool, "add");
    assert!(err.to_string().contains("\"add\"") && err.to_string().contains("`/a`"), "{err}");
    assert_history_valid(&state.messages);
}

#[tokio::test]
async fn required_confidence_rises_and_refuses_weaker_providers() {
    let harness = Harness::new(registry());
    let model = ScriptedModel::new([
        calls(&[("c1", "fetch", json!({"url": "https://intranet.corp/"}))]),
        AssistantTurn::text("read it"),
        AssistantTurn::text("never"),
    ]);
    let mut state = start(&harness);
    let high = std::sync::Arc::new(tackle_tools::RunContext::new("r").confidence(Confidence::High));
    answer_text(harness.run(&model, &high, &mut state, &mut tackle_harness::Discard).await.unwrap());
    assert_eq!(state.required_confidence, Confidence::High);
    state.push_user("and now?");
    let low = std::sync::Arc::new(tackle_tools::RunContext::new("r").confidence(Confidence::Medium));
    let err = harness.run(&model, &low, &mut state, &mut tackle_harness::Discard).await.unwrap_err();
    assert_eq!(err, RunError::ConfidenceTooLow { required: Confidence::High, provider: Confidence::Medium });
    assert!(err.to_string().contains("confidence high"));
}

#[tokio::test]
async fn sources_are_merged_once_by_url_across_rounds() {
    let harness = Harness::new(registry());
    let model = ScriptedModel::new([
        calls(&[
            ("c1", "fetch", json!({"url": "https://a/"})),
            ("c2", "fetch", json!({"url": "https://b/"})),
        ]),
        calls(&[
            ("c3", "fetch", json!({"url": "https://a/"})),
            ("c4", "fetch", json!({"url": "https://c/"})),
        ]),
        AssistantTurn::text("done"),
    ]);
    let mut state = start(&harness);
    let mut events = Vec::new();
    let answer = answered(harness.run(&model, &ctx(), &mut state, &mut events).await.unwrap());
    let urls: Vec<_> = answer.sources.iter().map(|s| s.url.as_str()).collect();
    assert_eq!(urls, ["https://a/", "https://b/", "https://c/"]);
    let announced: Vec<usize> = events
        .iter()
        .filter_map(|e| match e {
            RunEvent::Sources { sources } => Some(sources.len()),
            _ => None,
        })
        .collect();
    assert_eq!(announced, [2, 1]);
}

#[tokio::test]
async fn model_failures_and_cut_streams_are_errors() {
    let harness = Harness::new(registry());
    let model = ScriptedModel::with_results([Err(ModelError::new(ModelErrorKind::RateLimited, "slow down"))]);
    let mut state = start(&harness);
    let err = harness.run(&model, &ctx(), &mut state, &mut tackle_harness::Discard).await.unwrap_err();
    assert!(matches!(err, RunError::Model(ref e) if e.kind == ModelErrorKind::RateLimited), "{err:?}");

    struct Cut;
    impl tackle_core::Model for Cut {
        fn name(&self) -> &str {
            "cut"
        }
        fn profile(&self) -> &tackle_core::ModelProfile {
            static PROFILE: std::sync::OnceLock<tackle_core::ModelProfile> = std::sync::OnceLock::new();
            PROFILE.get_or_init(Default::default)
        }
        fn stream<'a>(&'a self, _request: tackle_core::ModelRequest<'a>) -> tackle_core::ModelStream<'a> {
            Box::pin(futures_util::stream::iter([Ok(tackle_core::ModelEvent::TextDelta(
                "half an ans".into(),
            ))]))
        }
    }
    let err = harness.run(&Cut, &ctx(), &mut state, &mut tackle_harness::Discard).await.unwrap_err();
    assert_eq!(err, RunError::StreamCut);
    assert_eq!(state.messages.len(), 1, "nothing was recorded from the cut round");
}

#[tokio::test]
async fn an_empty_response_gets_a_clear_message() {
    let harness = Harness::new(registry());
    let model = ScriptedModel::new([AssistantTurn::default()]);
    let mut state = start(&harness);
    let answer =
        answered(harness.run(&model, &ctx(), &mut state, &mut tackle_harness::Discard).await.unwrap());
    assert!(!answer.model_answered);
    assert_eq!(answer.text, "The model returned an empty response.");
}

#[tokio::test(start_paused = true)]
async fn cancelling_stops_tools_and_keeps_every_call_answered() {
    let slow = tackle_tools::function_tool(
        "slow",
        "Takes an hour.",
        json!({"type": "object"}),
        |_ctx: tackle_tools::ToolContext, _args| async move {
            tokio::time::sleep(std::time::Duration::from_secs(3600)).await;
            Ok::<_, tackle_tools::ToolError>("late")
        },
    )
    .build()
    .unwrap();
    let registry = tackle_tools::ToolRegistry::builder().tool(slow).build().unwrap();
    let harness = Harness::new(registry);
    let model = ScriptedModel::new([calls(&[("c1", "slow", json!({})), ("c2", "slow", json!({}))])]);
    let ctx = ctx();
    let cancel = ctx.cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(std::time::Duration::from_secs(1)).await;
        cancel.cancel();
    });
    let mut state = start(&harness);
    let err = harness.run(&model, &ctx, &mut state, &mut tackle_harness::Discard).await.unwrap_err();
    assert_eq!(err, RunError::Cancelled);
    assert_history_valid(&state.messages);
    let returns = last_returns(&state.messages);
    assert!(returns.iter().all(|r| r.status == ToolStatus::Cancelled), "{returns:?}");
}

#[tokio::test]
async fn thinking_streams_and_results_stay_in_traces_only_on_request() {
    let harness = Harness::new(registry()).keep_results_in_traces(true);
    let mut turn = calls(&[("c1", "add", json!({"a": 20, "b": 22}))]);
    turn.parts.insert(
        0,
        AssistantPart::Thinking(tackle_core::Thinking {
            text: "sum it".into(),
            ..tackle_core::Thinking::default()
        }),
    );
    let model = ScriptedModel::new([turn, AssistantTurn::text("42")]);
    let mut state = start(&harness);
    let mut events = Vec::new();
    answer_text(harness.run(&model, &ctx(), &mut state, &mut events).await.unwrap());
    assert!(events.iter().any(|e| matches!(e, RunEvent::ThinkingDelta { text } if text == "sum it")));
    assert_eq!(state.traces[0].result.as_deref(), Some("42"));
    // The thinking part is kept in the recorded turn for replay.
    assert!(
        matches!(&state.messages[1], Message::Assistant(t) if matches!(t.parts[0], AssistantPart::Thinking(_)))
    );
}

#[tokio::test]
async fn the_model_profile_decides_what_a_round_asks_for() {
    let harness = Harness::new(registry())
        .model_settings(tackle_core::ModelSettings::default().tool_choice(tackle_core::ToolChoice::Required));
    // A model that can call tools, but one at a time and without a required choice.
    let single = tackle_core::ModelProfile::default()
        .supports_parallel_tool_calls(false)
        .supports_tool_choice_required(false);
    let model = ScriptedModel::new([AssistantTurn::text("ok")]).profile(single);
    let mut state = start(&harness);
    let outcome = harness.run(&model, &ctx(), &mut state, &mut tackle_harness::Discard).await.unwrap();
    assert!(matches!(outcome, RunOutcome::Answered(_)));
    let sent = &model.requests()[0];
    assert_eq!(sent.tool_names(), ["add", "fetch"]);
    assert_eq!(sent.settings.parallel_tool_calls, Some(false));
    assert_eq!(sent.settings.tool_choice, tackle_core::ToolChoice::Auto);

    // A model without tool support is offered none, and a call it makes anyway runs nothing.
    let no_tools = tackle_core::ModelProfile::default().supports_tools(false);
    let model =
        ScriptedModel::new([calls(&[("c1", "add", json!({"a": 1, "b": 2}))]), AssistantTurn::text("fine")])
            .profile(no_tools);
    let mut state = start(&harness);
    let outcome = harness.run(&model, &ctx(), &mut state, &mut tackle_harness::Discard).await.unwrap();
    assert!(matches!(outcome, RunOutcome::Answered(_)));
    let requests = model.requests();
    assert!(requests[0].tools.is_empty());
    assert_eq!(state.traces[0].status, ToolStatus::NotAvailable);
}

#[tokio::test]
async fn an_integration_mistake_reaches_the_host_as_an_event() {
    let broken = tackle_tools::function_tool(
        "mailer",
        "Send mail.",
        json!({"type": "object"}),
        |_ctx: tackle_tools::ToolContext, _args| async move {
            Err::<String, _>(tackle_tools::ToolError::User(
                "no SMTP server configured (set mailer.host)".into(),
            ))
        },
    )
    .build()
    .unwrap();
    let harness = Harness::new(tackle_tools::ToolRegistry::builder().tool(broken).build().unwrap());
    let model =
        ScriptedModel::new([calls(&[("c1", "mailer", json!({}))]), AssistantTurn::text("Could not send.")]);
    let mut state = start(&harness);
    let mut events = Vec::new();
    let outcome = harness.run(&model, &ctx(), &mut state, &mut events).await.unwrap();
    assert!(matches!(outcome, RunOutcome::Answered(_)));
    let attention: Vec<_> = events.iter().filter(|e| matches!(e, RunEvent::HostAttention { .. })).collect();
    assert_eq!(attention.len(), 1, "{events:?}");
    let RunEvent::HostAttention { name, status, detail, .. } = attention[0] else { unreachable!() };
    assert_eq!(name, "mailer");
    assert_eq!(*status, ToolStatus::UserError);
    assert_eq!(detail.as_deref(), Some("no SMTP server configured (set mailer.host)"));
    // The model was told only that the tool cannot run.
    let shown = model.requests()[1].messages.last().unwrap().clone();
    assert!(!format!("{shown:?}").contains("SMTP"), "{shown:?}");
}

#[tokio::test]
async fn tool_metadata_reaches_traces_and_events_bounded_and_never_the_model() {
    let harness = Harness::new(registry());
    let model = ScriptedModel::new([
        calls(&[
            ("c1", "fetch", json!({"url": "https://a.example/"})),
            ("c2", "fetch", json!({"url": "https://huge.example/"})),
        ]),
        AssistantTurn::text("Read both."),
    ]);
    let mut state = start(&harness);
    let mut events = Vec::new();
    let outcome = harness.run(&model, &ctx(), &mut state, &mut events).await.unwrap();
    assert!(matches!(outcome, RunOutcome::Answered(_)));
    assert_eq!(state.traces[0].metadata, Some(json!({"kept": "18"})));
    let omitted = state.traces[1].metadata.as_ref().unwrap()["omitted"].as_str().unwrap();
    assert!(omitted.contains("more than a trace keeps"), "{omitted}");
    let finished: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            RunEvent::ToolCallFinished { metadata, .. } => Some(metadata.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(finished.len(), 2);
    assert!(finished.contains(&Some(json!({"kept": "18"}))));
    let seen = serde_json::to_string(&model.requests()[1].messages).unwrap();
    assert!(!seen.contains("kept") && !seen.contains("xxxx"), "{seen}");
}

#[tokio::test]
async fn progress_a_tool_reports_becomes_events_while_it_runs() {
    use tackle_tools::{ToolContext, ToolError, typed_tool};
    #[derive(serde::Deserialize, schemars::JsonSchema)]
    struct Steps {
        /// How many steps.
        n: u32,
    }
    let slow = typed_tool("slow", "Work in steps.", |ctx: ToolContext, args: Steps| async move {
        for step in 1..=args.n {
            ctx.report_progress(f64::from(step), Some(f64::from(args.n)), Some(&format!("step {step}")));
            tokio::task::yield_now().await;
        }
        Ok::<_, ToolError>("done")
    })
    .build()
    .unwrap();
    let harness = Harness::new(tackle_tools::ToolRegistry::builder().tool(slow).build().unwrap());
    let model = ScriptedModel::new([calls(&[("c1", "slow", json!({"n": 3}))]), AssistantTurn::text("Done.")]);
    let mut state = start(&harness);
    let mut events = Vec::new();
    let outcome = harness.run(&model, &ctx(), &mut state, &mut events).await.unwrap();
    assert!(matches!(outcome, RunOutcome::Answered(_)));
    let progress: Vec<(f64, Option<f64>, Option<String>)> = events
        .iter()
        .filter_map(|e| match e {
            RunEvent::ToolProgress { call_id, progress, total, message, .. } if call_id == "c1" => {
                Some((*progress, *total, message.clone()))
            }
            _ => None,
        })
        .collect();
    assert_eq!(progress.len(), 3, "{events:?}");
    assert_eq!(progress[2], (3.0, Some(3.0), Some("step 3".into())));
    let at = |name: &str| event_names(&events).iter().position(|n| *n == name).unwrap();
    assert!(at("progress") < at("call_finished"));
    // Nobody listening: the tool's reports go nowhere, and the run is the same.
    let mut state = start(&harness);
    let model = ScriptedModel::new([calls(&[("c1", "slow", json!({"n": 3}))]), AssistantTurn::text("Done.")]);
    let outcome = harness.run(&model, &ctx(), &mut state, &mut tackle_harness::Discard).await.unwrap();
    assert!(matches!(outcome, RunOutcome::Answered(_)));
}

/// A sink that keeps the states it is asked to checkpoint, as a durable host would.
struct Checkpoints(Vec<RunState>);

impl tackle_harness::EventSink for Checkpoints {
    fn emit(&mut self, _event: RunEvent) {}

    fn checkpoint(&mut self, state: &RunState) {
        self.0.push(state.clone());
    }
}

#[tokio::test]
async fn checkpoints_come_before_calls_start_and_after_their_results() {
    let harness = Harness::new(registry());
    let model = tackle_test::ScriptedModel::new([
        calls(&[("c1", "add", json!({"a": 1, "b": 2}))]),
        AssistantTurn::text("3"),
    ]);
    let mut state = start(&harness);
    let mut sink = Checkpoints(Vec::new());
    let outcome = harness.run(&model, &ctx(), &mut state, &mut sink).await.unwrap();
    assert_eq!(answer_text(outcome), "3");
    assert_eq!(sink.0.len(), 2, "one before the batch, one after it");
    // Before: the model's turn is recorded, no result yet.
    let before = &sink.0[0];
    assert!(
        matches!(before.messages.last(), Some(Message::Assistant(turn)) if turn.tool_calls().count() == 1)
    );
    assert_eq!(before.counters.tool_calls, 0);
    // After: the result is recorded.
    let after = &sink.0[1];
    assert!(
        matches!(after.messages.last(), Some(Message::User { parts }) if parts.iter().any(|p| matches!(p, UserPart::ToolReturn(_))))
    );
    assert_eq!(after.counters.tool_calls, 1);
}

/// A host that charges: a purse of credits, each call's declared cost taken when it is
/// admitted, rounds admitted while anything is left.
struct Purse {
    left: tackle_core::Cost,
    admitted: Vec<String>,
    costs: Vec<Option<tackle_core::Cost>>,
}

impl tackle_harness::EventSink for Purse {
    fn emit(&mut self, event: RunEvent) {
        if let RunEvent::ToolCallFinished { cost, .. } = event {
            self.costs.push(cost);
        }
    }

    fn admit(&mut self, step: tackle_harness::Step<'_>) -> Result<(), String> {
        match step {
            tackle_harness::Step::Round { round } if self.left == tackle_core::Cost::ZERO => {
                return Err(format!("no credits left for round {round}"));
            }
            tackle_harness::Step::Call { cost, .. } => {
                let cost = cost.unwrap_or(tackle_core::Cost::ZERO);
                if cost > self.left {
                    return Err(format!("this call costs {cost}; {} left", self.left));
                }
                self.left = tackle_core::Cost::from_micros(self.left.micros() - cost.micros());
            }
            _ => {}
        }
        self.admitted.push(format!("{step:?}"));
        Ok(())
    }
}

#[tokio::test]
async fn the_host_admits_each_round_and_call_and_a_refusal_is_clean() {
    let priced = function_tool(
        "lookup",
        "Look a word up.",
        json!({"type": "object"}),
        |_ctx: ToolContext, _args| async move { Ok::<_, ToolError>(ToolReturn::text("found")) },
    )
    .cost(tackle_core::Cost::credits(2.0))
    .build()
    .unwrap();
    let registry = ToolRegistry::builder().tool(priced).build().unwrap();
    let harness = Harness::new(registry);
    // Three credits: the first lookup is admitted (and its cost reported), the second
    // refused without running; the third round finds the purse empty.
    let model = tackle_test::ScriptedModel::new([
        calls(&[("c1", "lookup", json!({}))]),
        calls(&[("c2", "lookup", json!({}))]),
        AssistantTurn::text("never asked"),
    ]);
    let mut state = start(&harness);
    let mut purse = Purse { left: tackle_core::Cost::credits(3.0), admitted: Vec::new(), costs: Vec::new() };
    let outcome = harness.run(&model, &ctx(), &mut state, &mut purse).await;
    assert_eq!(
        purse.costs,
        vec![Some(tackle_core::Cost::credits(2.0)), None],
        "the refused call cost nothing"
    );
    // The answer follows the refused call's result.
    let returns = last_returns(&state.messages[..state.messages.len() - 1]);
    assert_eq!(returns[0].status, tackle_core::ToolStatus::Blocked);
    assert!(returns[0].content.contains("costs 2 credits; 1 credits left"), "{:?}", returns[0].content);
    // One credit is left: round three is admitted and answers.
    assert_eq!(answer_text(outcome.unwrap()), "never asked");
    assert_eq!(purse.admitted.len(), 4, "{:?}", purse.admitted);

    // With nothing left the run stops before its next round, its history whole.
    let model =
        tackle_test::ScriptedModel::new([calls(&[("c3", "lookup", json!({}))]), AssistantTurn::text("x")]);
    let mut state = start(&harness);
    let mut purse = Purse { left: tackle_core::Cost::credits(2.0), admitted: Vec::new(), costs: Vec::new() };
    let stopped = harness.run(&model, &ctx(), &mut state, &mut purse).await.unwrap_err();
    assert!(
        matches!(&stopped, tackle_harness::RunError::Stopped(why) if why.contains("round 2")),
        "{stopped}"
    );
    assert_history_valid(&state.messages);
}

/// A model that keeps what it was asked to get ready for.
struct Warming {
    inner: ScriptedModel,
    warmed: std::sync::Mutex<Vec<(String, Vec<String>)>>,
}

impl tackle_core::Model for Warming {
    fn name(&self) -> &str {
        tackle_core::Model::name(&self.inner)
    }
    fn profile(&self) -> &tackle_core::ModelProfile {
        tackle_core::Model::profile(&self.inner)
    }
    fn stream<'a>(&'a self, request: tackle_core::ModelRequest<'a>) -> tackle_core::ModelStream<'a> {
        tackle_core::Model::stream(&self.inner, request)
    }
    fn warm<'a>(
        &'a self,
        instructions: &'a str,
        tools: &'a [Arc<tackle_core::ToolDefinition>],
    ) -> tackle_core::WarmUp<'a> {
        let names = tools.iter().map(|t| t.name.to_string()).collect();
        self.warmed.lock().unwrap().push((instructions.to_owned(), names));
        Box::pin(async { Ok(()) })
    }
}

#[tokio::test]
async fn a_model_warms_up_on_exactly_the_prompt_its_rounds_start_with() {
    let harness = Harness::new(registry());
    let model = Warming {
        inner: ScriptedModel::new([
            calls(&[("c1", "add", json!({"a": 1, "b": 2}))]),
            AssistantTurn::text("3"),
        ]),
        warmed: Default::default(),
    };
    harness.warm(&model, "You are terse.", &ctx()).await.unwrap();
    let mut state = start(&harness);
    let outcome = harness.run(&model, &ctx(), &mut state, &mut Vec::new()).await.unwrap();
    assert!(matches!(outcome, RunOutcome::Answered(a) if a.text == "3"));
    let warmed = model.warmed.lock().unwrap().clone();
    let requests = model.inner.requests();
    assert_eq!(warmed.len(), 1);
    // Every round of the run starts with what was warmed: the same instructions, the same
    // tools in the same order.
    for request in &requests {
        assert_eq!(request.instructions, warmed[0].0);
        assert_eq!(request.tool_names(), warmed[0].1);
    }
    // A model with nothing to prepare (the default) is ready at once.
    harness.warm(&model.inner, "You are terse.", &ctx()).await.unwrap();

    // A model that cannot call tools is offered none, in its rounds and so in its warm-up.
    let toolless = Warming {
        inner: ScriptedModel::new([AssistantTurn::text("No tools here.")])
            .profile(tackle_core::ModelProfile::default().supports_tools(false)),
        warmed: Default::default(),
    };
    harness.warm(&toolless, "You are terse.", &ctx()).await.unwrap();
    let mut state = start(&harness);
    let outcome = harness.run(&toolless, &ctx(), &mut state, &mut Vec::new()).await.unwrap();
    assert!(matches!(outcome, RunOutcome::Answered(a) if a.text == "No tools here."));
    let warmed = toolless.warmed.lock().unwrap().clone();
    let request = &toolless.inner.requests()[0];
    assert!(warmed[0].1.is_empty() && request.tool_names().is_empty());
    assert_eq!(request.instructions, warmed[0].0);
}

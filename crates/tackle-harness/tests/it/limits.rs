use std::time::Duration;

use serde_json::json;
use tackle_core::{AssistantTurn, ToolStatus, Usage};
use tackle_harness::{Harness, Limits, Wording};
use tackle_test::ScriptedModel;

use super::*;

fn limits() -> Limits {
    Limits::default().max_tool_calls(100).max_result_chars(1_000_000).max_rounds(100)
}

#[tokio::test]
async fn the_call_limit_answers_the_rest_and_asks_for_a_final_answer() {
    let harness = Harness::new(registry()).limits(limits().max_tool_calls(3));
    let model = ScriptedModel::new([
        calls(&[("c1", "add", json!({"a": 1, "b": 1})), ("c2", "add", json!({"a": 2, "b": 2}))]),
        calls(&[("c3", "add", json!({"a": 3, "b": 3})), ("c4", "add", json!({"a": 4, "b": 4}))]),
        AssistantTurn::text("2, 4 and 6"),
    ]);
    let mut state = start(&harness);
    let text =
        answer_text(harness.run(&model, &ctx(), &mut state, &mut tackle_harness::Discard).await.unwrap());
    assert_eq!(text, "2, 4 and 6");
    let requests = model.requests();
    assert_eq!(requests.len(), 3);
    // The second round's last call was not run; its result says why, and is not an error.
    let returns = last_returns(&requests[2].messages);
    assert_eq!(returns[0].content, "6");
    assert_eq!(returns[1].status, ToolStatus::Feedback);
    assert!(returns[1].content.contains("not run because a limit was reached"));
    assert_eq!(state.counters.tool_calls, 3);
    // The final round offers no tools and carries the instruction for that round only.
    assert!(requests[2].tools.is_empty());
    assert!(requests[2].instructions.ends_with(&Wording::default().calls_limit.replace("{limit}", "3")));
    assert!(!requests[1].instructions.contains("maximum of 3 tool calls"));
    assert_history_valid(&state.messages);
}

#[tokio::test]
async fn a_silent_final_round_ends_with_a_clear_message() {
    let harness = Harness::new(registry()).limits(limits().max_rounds(2));
    let model = ScriptedModel::new([
        calls(&[("c1", "add", json!({"a": 1, "b": 1}))]),
        // The final round ignores the instruction and calls again, saying nothing.
        calls(&[("c2", "add", json!({"a": 2, "b": 2}))]),
    ]);
    let mut state = start(&harness);
    let answer =
        answered(harness.run(&model, &ctx(), &mut state, &mut tackle_harness::Discard).await.unwrap());
    assert!(!answer.model_answered);
    assert_eq!(answer.text, Wording::default().no_final_answer);
    assert!(model.requests()[1].instructions.contains("maximum of 2 rounds"));
    // The ignored call still has a result, so the conversation can go on.
    assert_history_valid(&state.messages);
    assert_eq!(state.counters.tool_calls, 1);
}

#[tokio::test]
async fn result_size_tokens_cost_and_time_limits() {
    // Result characters.
    let harness = Harness::new(registry()).limits(limits().max_result_chars(1));
    let model = ScriptedModel::new([
        calls(&[("c1", "add", json!({"a": 50, "b": 50})), ("c2", "add", json!({"a": 1, "b": 1}))]),
        AssistantTurn::text("ok"),
    ]);
    let mut state = start(&harness);
    answer_text(harness.run(&model, &ctx(), &mut state, &mut tackle_harness::Discard).await.unwrap());
    assert_eq!(state.counters.tool_calls, 2, "the size is checked as of the batch's start");
    assert!(model.requests()[1].tools.is_empty());
    assert!(model.requests()[1].instructions.contains("exceeded 1 characters"));

    // Tokens.
    let harness = Harness::new(registry()).limits(limits().max_total_tokens(Some(100)));
    let mut first = calls(&[("c1", "add", json!({"a": 1, "b": 1}))]);
    first.usage = Usage::default().input_tokens(90).output_tokens(20);
    let model = ScriptedModel::new([first, AssistantTurn::text("ok")]);
    let mut state = start(&harness);
    answer_text(harness.run(&model, &ctx(), &mut state, &mut tackle_harness::Discard).await.unwrap());
    assert!(model.requests()[1].tools.is_empty());
    assert!(model.requests()[1].instructions.contains("budget for this answer is spent"));

    // Tool cost.
    let harness =
        Harness::new(registry()).limits(limits().max_tool_cost(Some(tackle_core::Cost::credits(0.5))));
    let model = ScriptedModel::new([
        calls(&[("c1", "fetch", json!({"url": "https://a/"}))]),
        AssistantTurn::text("ok"),
    ]);
    let mut state = start(&harness);
    answer_text(harness.run(&model, &ctx(), &mut state, &mut tackle_harness::Discard).await.unwrap());
    assert!(model.requests()[1].tools.is_empty());
    assert_eq!(state.counters.tool_cost, tackle_core::Cost::credits(0.5));

    // Time: a run that already used its time gets the final round at once.
    let harness = Harness::new(registry()).limits(limits().max_duration(Some(Duration::from_secs(5))));
    let model = ScriptedModel::new([AssistantTurn::text("quick")]);
    let mut state = start(&harness);
    state.counters.elapsed = Duration::from_secs(6);
    answer_text(harness.run(&model, &ctx(), &mut state, &mut tackle_harness::Discard).await.unwrap());
    assert!(model.requests()[0].instructions.contains("time for this answer is up"));
    assert!(model.requests()[0].tools.is_empty());
}

#[tokio::test]
async fn wording_is_replaceable() {
    let wording = Wording { empty_response: "Keine Antwort.".into(), ..Wording::default() };
    let harness = Harness::new(registry()).wording(wording);
    let model = ScriptedModel::new([AssistantTurn::default()]);
    let mut state = start(&harness);
    let text =
        answer_text(harness.run(&model, &ctx(), &mut state, &mut tackle_harness::Discard).await.unwrap());
    assert_eq!(text, "Keine Antwort.");
}

//! `ask_user_question`: the run waits for the host; questions and answers are checked.
#![allow(clippy::unwrap_used, missing_docs)]

use std::sync::Arc;

use serde_json::json;
use tackle_core::{ToolCall, ToolStatus};
use tackle_env::{Answer, Questions, answer, ask_user_question};
use tackle_tools::{ExecutionState, Executor, RunContext, ToolRegistry};

fn questions() -> serde_json::Value {
    json!({"questions": [
        {"header": "Database", "question": "Which database should the service use?",
         "options": [{"label": "PostgreSQL", "description": "what production runs"},
                     {"label": "SQLite", "description": "one file, no server"}]},
        {"header": "Targets", "question": "Which platforms must it build on?", "multiple": true,
         "options": [{"label": "Linux", "description": ""}, {"label": "macOS", "description": ""},
                     {"label": "Windows", "description": ""}]}
    ]})
}

fn call(id: &str, args: serde_json::Value) -> ToolCall {
    ToolCall::new(id, "ask_user_question", args)
}

#[tokio::test]
async fn the_run_waits_for_answers_and_bad_questions_go_back_to_the_model() {
    let registry = ToolRegistry::builder().tool(ask_user_question().unwrap()).build().unwrap();
    let run = Arc::new(RunContext::new("r"));
    let offer = registry.offer(&run);
    let out = Executor::new()
        .execute(&offer, &run, &[call("q1", questions())], &mut ExecutionState::default())
        .await;
    assert_eq!(out.returns[0].status, ToolStatus::Deferred);
    for bad in [
        json!({"questions": []}),
        json!({"questions": [{"header": "A very long header", "question": "?", "options": [{"label": "a", "description": ""}, {"label": "b", "description": ""}]}]}),
        json!({"questions": [{"header": "One", "question": "Pick", "options": [{"label": "a", "description": ""}]}]}),
        json!({"questions": [{"header": "Twice", "question": "Pick", "options": [{"label": "a", "description": ""}, {"label": "a", "description": ""}]}]}),
    ] {
        let out = Executor::new()
            .execute(&offer, &run, &[call("q2", bad.clone())], &mut ExecutionState::default())
            .await;
        assert_eq!(out.returns[0].status, ToolStatus::InvalidArguments, "{bad}");
    }
}

#[test]
fn answers_are_checked_before_anything_is_decided() {
    let questions: Questions = serde_json::from_value(questions()).unwrap();
    let picked = |labels: &[&str]| Answer::Picked(labels.iter().map(|l| (*l).to_owned()).collect());
    let ok = answer(&questions, &[picked(&["SQLite"]), picked(&["Linux", "Windows"])]).unwrap();
    assert_eq!(
        ok,
        "The user answered:\n- Database (Which database should the service use?): SQLite\n- Targets (Which platforms must it build on?): Linux, Windows\n"
    );
    let own = answer(&questions, &[Answer::Own("whatever the team already runs".into()), picked(&["macOS"])])
        .unwrap();
    assert!(own.contains("whatever the team already runs (in their own words)"));
    for (answers, why) in [
        (vec![picked(&["SQLite"])], "give 2 answers"),
        (vec![picked(&["SQLite", "PostgreSQL"]), picked(&["Linux"])], "takes one option"),
        (vec![picked(&["Oracle"]), picked(&["Linux"])], "\"Oracle\" is not an option"),
        (vec![picked(&[]), picked(&["Linux"])], "picks nothing"),
        (vec![Answer::Own("  ".into()), picked(&["Linux"])], "is empty"),
    ] {
        let error = answer(&questions, &answers).unwrap_err();
        assert!(error.contains(why), "{error}");
    }
    // Answers as JSON: a list per question, or a string of one's own.
    let parsed: Vec<Answer> = serde_json::from_str(r#"[["SQLite"], "both, honestly"]"#).unwrap();
    assert_eq!(parsed, [picked(&["SQLite"]), Answer::Own("both, honestly".into())]);
}

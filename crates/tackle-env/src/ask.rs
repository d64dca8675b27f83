//! `ask_user_question`: the model asks the user one to four questions, each with two to four
//! options (and room for an answer of their own). The tool is external: the run suspends as
//! for an approval, and the host — a terminal, another process, a web page — asks and hands
//! back the answers, which [`answer`] checks before the run goes on.

use std::fmt::Write as _;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use tackle_core::{ToolError, ToolKind};
use tackle_tools::{FunctionTool, ToolBuildError, ToolContext, typed_tool};

/// One option.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Choice {
    /// What the user picks (a few words).
    pub label: String,
    /// What it means.
    pub description: String,
}

/// One question.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[non_exhaustive]
pub struct Question {
    /// A short header (at most 12 characters): "Database", "Scope".
    pub header: String,
    /// The question itself.
    pub question: String,
    /// Two to four options.
    pub options: Vec<Choice>,
    /// Whether several options may be picked.
    #[serde(default)]
    pub multiple: bool,
}

/// The tool's arguments.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Questions {
    /// One to four questions.
    pub questions: Vec<Question>,
}

impl Questions {
    /// Whether the questions are well formed: 1–4 questions, headers of 1–12 characters,
    /// 2–4 options each with distinct, non-empty labels.
    pub fn check(&self) -> Result<(), String> {
        if !(1..=4).contains(&self.questions.len()) {
            return Err(format!("ask 1 to 4 questions, not {}", self.questions.len()));
        }
        for (i, q) in self.questions.iter().enumerate() {
            let n = i + 1;
            if q.header.trim().is_empty() || q.header.chars().count() > 12 {
                return Err(format!("question {n}: the header must be 1 to 12 characters"));
            }
            if q.question.trim().is_empty() {
                return Err(format!("question {n}: the question is empty"));
            }
            if !(2..=4).contains(&q.options.len()) {
                return Err(format!("question {n}: give 2 to 4 options, not {}", q.options.len()));
            }
            let mut labels: Vec<&str> = q.options.iter().map(|o| o.label.trim()).collect();
            if labels.iter().any(|l| l.is_empty()) {
                return Err(format!("question {n}: an option has no label"));
            }
            labels.sort_unstable();
            labels.dedup();
            if labels.len() != q.options.len() {
                return Err(format!("question {n}: two options have the same label"));
            }
        }
        Ok(())
    }
}

/// One answer: the labels picked, or the user's own words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
#[non_exhaustive]
pub enum Answer {
    /// Labels of the options picked (one for a single-choice question).
    Picked(Vec<String>),
    /// The user's own answer, in place of the options.
    Own(String),
}

/// Checks `answers` (one per question, in order) against `questions` and words them for
/// the model; an error says what is wrong, and nothing is decided.
pub fn answer(questions: &Questions, answers: &[Answer]) -> Result<String, String> {
    if answers.len() != questions.questions.len() {
        return Err(format!(
            "give {} answers, one per question, not {}",
            questions.questions.len(),
            answers.len()
        ));
    }
    let mut out = String::from("The user answered:\n");
    for (i, (q, a)) in questions.questions.iter().zip(answers).enumerate() {
        let n = i + 1;
        let text = match a {
            Answer::Own(text) if text.trim().is_empty() => return Err(format!("answer {n} is empty")),
            Answer::Own(text) => format!("{} (in their own words)", text.trim()),
            Answer::Picked(labels) => {
                if labels.is_empty() {
                    return Err(format!("answer {n} picks nothing"));
                }
                if labels.len() > 1 && !q.multiple {
                    return Err(format!("question {n} takes one option, not {}", labels.len()));
                }
                for label in labels {
                    if !q.options.iter().any(|o| o.label.trim() == label.trim()) {
                        let known: Vec<&str> = q.options.iter().map(|o| o.label.as_str()).collect();
                        return Err(format!("answer {n}: {label:?} is not an option ({})", known.join(", ")));
                    }
                }
                labels.join(", ")
            }
        };
        let _ = writeln!(out, "- {} ({}): {text}", q.header, q.question);
    }
    Ok(out)
}

/// The `ask_user_question` tool: external, so the run suspends until the host answers;
/// malformed questions are the model's to fix before anyone is asked.
pub fn ask_user_question() -> Result<FunctionTool, ToolBuildError> {
    typed_tool(
        "ask_user_question",
        "Ask the user 1 to 4 multiple-choice questions when a decision is theirs to make (each with a short header and 2 to 4 options; they may also answer in their own words). The run waits for the answers.",
        |_ctx: ToolContext, _args: Questions| async move {
            Err::<String, _>(ToolError::failed("ask_user_question is answered by the host, not run"))
        },
    )
    .kind(ToolKind::External)
    .validator(|_ctx: &ToolContext, args: &mut serde_json::Map<String, serde_json::Value>| {
        let questions: Questions = serde_json::from_value(serde_json::Value::Object(args.clone())).map_err(|e| e.to_string())?;
        questions.check()
    })
    .routing_hint("Use when the request is ambiguous or needs a choice that only the user can make.")
    .build()
}

//! Every sentence the harness writes to the model or the user, in one place so that it can
//! be reviewed and translated. Replace [`Wording`] on the harness to change them.

use serde::{Deserialize, Serialize};

/// The harness's sentences. `{n}` and `{limit}` placeholders are filled in where noted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Wording {
    /// Final-answer instruction after the tool-call limit (`{limit}`).
    pub calls_limit: String,
    /// Final-answer instruction after the result-size limit (`{limit}`).
    pub result_chars_limit: String,
    /// Final-answer instruction after the round limit (`{limit}`).
    pub rounds_limit: String,
    /// Final-answer instruction after the time limit.
    pub time_limit: String,
    /// Final-answer instruction after the usage or cost budget.
    pub budget_limit: String,
    /// The result of a call that a limit stopped before it ran.
    pub call_not_run: String,
    /// The answer when the final-answer round said nothing.
    pub no_final_answer: String,
    /// The answer when the model used tools and then said nothing.
    pub no_answer_after_tools: String,
    /// The answer when the model said nothing at all.
    pub empty_response: String,
    /// The answer when a call came without an id and the round had to end.
    pub invalid_call: String,
    /// The result of a call whose tool name is malformed (`{name}`).
    pub malformed_name: String,
    /// Heading of the tool-policy part of the system prompt.
    pub policy_heading: String,
}

impl Default for Wording {
    fn default() -> Self {
        Wording {
            calls_limit: "The maximum of {limit} tool calls has been reached. No more tools are available. \
                          Give the best possible final answer from the tool results you already have."
                .into(),
            result_chars_limit: "The tool results have exceeded {limit} characters in total. Do not call any more \
                                 tools. Give the best possible final answer from the tool results you already have."
                .into(),
            rounds_limit: "The maximum of {limit} rounds has been reached. No more tools are available. \
                           Give the best possible final answer from the tool results you already have."
                .into(),
            time_limit: "The time for this answer is up. No more tools are available. \
                         Give the best possible final answer from the tool results you already have."
                .into(),
            budget_limit: "The budget for this answer is spent. No more tools are available. \
                           Give the best possible final answer from the tool results you already have."
                .into(),
            call_not_run: "This call was not run because a limit was reached. Do not call more tools; \
                           answer with the results you already have."
                .into(),
            no_final_answer: "The model did not give a final answer after using the available tool calls.".into(),
            no_answer_after_tools: "The model used tools but did not give an answer.".into(),
            empty_response: "The model returned an empty response.".into(),
            invalid_call: "The model made a tool call that could not be answered (it had no call id), so the \
                           answer stopped here."
                .into(),
            malformed_name: "The tool call was invalid: {name:?} is not a tool name. Call one of the tools you were \
                             given, by its exact name."
                .into(),
            policy_heading: "# How to use the tools".into(),
        }
    }
}

impl Wording {
    pub(crate) fn fill(template: &str, limit: impl std::fmt::Display) -> String {
        template.replace("{limit}", &limit.to_string())
    }

    pub(crate) fn malformed(&self, name: &str) -> String {
        let shown: String = name.chars().take(64).collect();
        self.malformed_name.replace("{name:?}", &format!("{shown:?}"))
    }
}

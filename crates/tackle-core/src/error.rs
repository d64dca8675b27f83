//! The tool-error table: every way a call can end, and what follows from each.
//!
//! [`ToolStatus`] names the outcome; [`ToolStatus::rule`] is the one table that decides
//! whether the model sees an error, whether the model is asked to correct itself (and pays
//! from its retry budget), whether the executor retries on its own, and whether the host
//! must hear about it. [`ToolError`] is what tool code returns to reach those outcomes.

use std::error::Error as StdError;
use std::fmt;
use std::time::Duration;

use serde::{Deserialize, Serialize};

/// How a tool call ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ToolStatus {
    /// The tool ran and returned a result.
    Ok,
    /// An expected condition the model can reason about (a missing file, an HTTP 404).
    Feedback,
    /// The arguments did not match the schema or the tool's own checks.
    InvalidArguments,
    /// The tool asked the model to correct the call.
    ModelRetry,
    /// A policy refused the call.
    Blocked,
    /// The tool is unknown, hidden or not offered here.
    NotAvailable,
    /// The tool failed unexpectedly.
    Failed,
    /// The tool did not finish in time and was stopped.
    Timeout,
    /// The call was cancelled.
    Cancelled,
    /// An integration mistake: the application, not the model, must fix something.
    UserError,
    /// The call waits for a human's approval; the run suspends.
    ApprovalRequired,
    /// The call is carried out elsewhere; the run suspends until its result arrives.
    Deferred,
    /// The running call asked the user a question; the run suspends until the answer
    /// arrives, then the call runs again with it.
    InputRequired,
    /// A human denied the call.
    Denied,
}

/// What follows from one [`ToolStatus`]: a row of the tool-error table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct StatusRule {
    /// Short lower-case name for traces and displays.
    pub label: &'static str,
    /// The result reaches the model now (false: the run suspends instead).
    pub reaches_model: bool,
    /// The result is an error towards the model (wire APIs with an error flag set it).
    pub is_error: bool,
    /// The model is asked to correct the call, which costs from the tool's retry budget.
    pub model_retry: bool,
    /// The executor may rerun the call itself (only for tools marked idempotent).
    pub internal_retry: bool,
    /// A success: the tool's model-retry budget starts afresh.
    pub resets_retry_budget: bool,
    /// The host application must be told: it is the host's mistake to fix.
    pub surfaces_to_host: bool,
}

impl ToolStatus {
    /// Every status.
    pub const ALL: [ToolStatus; 14] = [
        ToolStatus::Ok,
        ToolStatus::Feedback,
        ToolStatus::InvalidArguments,
        ToolStatus::ModelRetry,
        ToolStatus::Blocked,
        ToolStatus::NotAvailable,
        ToolStatus::Failed,
        ToolStatus::Timeout,
        ToolStatus::Cancelled,
        ToolStatus::UserError,
        ToolStatus::ApprovalRequired,
        ToolStatus::Deferred,
        ToolStatus::InputRequired,
        ToolStatus::Denied,
    ];

    /// This status's row of the tool-error table.
    pub const fn rule(self) -> StatusRule {
        const fn row(
            label: &'static str,
            reaches_model: bool,
            is_error: bool,
            model_retry: bool,
            internal_retry: bool,
        ) -> StatusRule {
            StatusRule {
                label,
                reaches_model,
                is_error,
                model_retry,
                internal_retry,
                resets_retry_budget: false,
                surfaces_to_host: false,
            }
        }
        //                                 label                reaches error  model  internal
        match self {
            ToolStatus::Ok => {
                StatusRule { resets_retry_budget: true, ..row("ok", true, false, false, false) }
            }
            ToolStatus::Feedback => row("feedback", true, false, false, false),
            ToolStatus::InvalidArguments => row("invalid_arguments", true, true, true, false),
            ToolStatus::ModelRetry => row("model_retry", true, true, true, false),
            ToolStatus::Blocked => row("blocked", true, true, false, false),
            ToolStatus::NotAvailable => row("not_available", true, true, false, false),
            ToolStatus::Failed => row("error", true, true, false, true),
            ToolStatus::Timeout => row("timeout", true, true, false, false),
            ToolStatus::Cancelled => row("cancelled", true, true, false, false),
            ToolStatus::UserError => {
                StatusRule { surfaces_to_host: true, ..row("user_error", true, true, false, false) }
            }
            ToolStatus::ApprovalRequired => row("approval_required", false, false, false, false),
            ToolStatus::Deferred => row("deferred", false, false, false, false),
            ToolStatus::InputRequired => row("input_required", false, false, false, false),
            ToolStatus::Denied => row("denied", true, true, false, false),
        }
    }

    /// Short lower-case name for traces and displays.
    pub const fn label(self) -> &'static str {
        self.rule().label
    }
}

impl fmt::Display for ToolStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// What tool code (and hooks and validators) return when a call does not succeed.
///
/// The model is shown [`ToolError::model_text`]; for [`ToolError::Failed`] that is only the
/// message the author chose, never the underlying source error, which stays with the host.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ToolError {
    /// The arguments are wrong; the message says what to fix.
    #[error("invalid arguments: {0}")]
    InvalidArguments(String),
    /// Ask the model to correct the call; the message says how.
    #[error("model retry requested: {0}")]
    ModelRetry(String),
    /// An expected condition, reported to the model as an ordinary result.
    #[error("{0}")]
    Feedback(String),
    /// A policy refused the call; the message names the rule.
    #[error("blocked: {0}")]
    Blocked(String),
    /// The named tool is not available here.
    #[error("tool {0:?} is not available")]
    NotAvailable(String),
    /// An unexpected failure.
    #[error("tool failed: {message}")]
    Failed {
        /// What the model may be told. Must not contain secrets.
        message: String,
        /// The underlying error, for the host's logs only.
        #[source]
        source: Option<Box<dyn StdError + Send + Sync>>,
    },
    /// The call ran out of time.
    #[error("timed out after {0:?}")]
    Timeout(Duration),
    /// The call was cancelled.
    #[error("cancelled")]
    Cancelled,
    /// An integration mistake the application must fix (a missing dependency, say).
    #[error("integration error: {0}")]
    User(String),
    /// The call needs a human's approval before it may run.
    #[error("approval required")]
    ApprovalRequired,
    /// The call is carried out elsewhere; its result arrives later.
    #[error("deferred")]
    Deferred,
    /// The running call asks the user a question; it runs again once answered.
    #[error("input required: {}", .0.message)]
    InputRequired(Box<crate::InputRequest>),
}

impl ToolError {
    /// An unexpected failure the model may be told about in these words.
    pub fn failed(message: impl Into<String>) -> Self {
        ToolError::Failed { message: message.into(), source: None }
    }

    /// An unexpected failure caused by `source`. The model is told only that the tool
    /// failed; the source error stays with the host.
    pub fn unexpected(source: impl Into<Box<dyn StdError + Send + Sync>>) -> Self {
        ToolError::Failed { message: wording::UNEXPECTED_FAILURE.into(), source: Some(source.into()) }
    }

    /// Ask the model to correct the call.
    pub fn retry(message: impl Into<String>) -> Self {
        ToolError::ModelRetry(message.into())
    }

    /// Refuse the call by policy.
    pub fn blocked(message: impl Into<String>) -> Self {
        ToolError::Blocked(message.into())
    }

    /// An expected condition for the model to reason about.
    pub fn feedback(message: impl Into<String>) -> Self {
        ToolError::Feedback(message.into())
    }

    /// The outcome this error stands for.
    pub fn kind(&self) -> ToolStatus {
        match self {
            ToolError::InvalidArguments(_) => ToolStatus::InvalidArguments,
            ToolError::ModelRetry(_) => ToolStatus::ModelRetry,
            ToolError::Feedback(_) => ToolStatus::Feedback,
            ToolError::Blocked(_) => ToolStatus::Blocked,
            ToolError::NotAvailable(_) => ToolStatus::NotAvailable,
            ToolError::Failed { .. } => ToolStatus::Failed,
            ToolError::Timeout(_) => ToolStatus::Timeout,
            ToolError::Cancelled => ToolStatus::Cancelled,
            ToolError::User(_) => ToolStatus::UserError,
            ToolError::ApprovalRequired => ToolStatus::ApprovalRequired,
            ToolError::Deferred => ToolStatus::Deferred,
            ToolError::InputRequired(_) => ToolStatus::InputRequired,
        }
    }

    /// The text the model is shown for this error from tool `tool`.
    pub fn model_text(&self, tool: &str) -> String {
        match self {
            ToolError::InvalidArguments(message) => wording::invalid_arguments(tool, message),
            ToolError::ModelRetry(message) => wording::model_retry(message),
            ToolError::Feedback(message) => message.clone(),
            ToolError::Blocked(message) => wording::blocked(message),
            ToolError::NotAvailable(name) => wording::not_available(name),
            ToolError::Failed { message, .. } => wording::failed(message),
            ToolError::Timeout(after) => wording::timeout(*after),
            ToolError::Cancelled => wording::CANCELLED.into(),
            ToolError::User(_) => wording::USER_ERROR.into(),
            ToolError::ApprovalRequired => wording::APPROVAL_PENDING.into(),
            ToolError::Deferred | ToolError::InputRequired(_) => wording::DEFERRED_PENDING.into(),
        }
    }
}

/// An error and its causes, outermost first, each said once, joined with `: ` — the whole
/// story of a failure for a user or a log.
///
/// ```
/// let io = std::io::Error::other("disk full");
/// assert_eq!(tackle_core::cause_chain(&io), "disk full");
/// ```
pub fn cause_chain(error: &(dyn StdError + 'static)) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut current = Some(error);
    while let Some(e) = current {
        let text = e.to_string();
        if !parts.iter().any(|p| p.contains(&text)) {
            parts.push(text);
        }
        current = e.source();
    }
    parts.join(": ")
}

/// Every sentence tackle itself writes to the model about a tool call, in one place so
/// that it can be reviewed and translated.
pub mod wording {
    use std::time::Duration;

    /// Shown for [`super::ToolError::unexpected`].
    pub const UNEXPECTED_FAILURE: &str = "an unexpected error occurred";
    /// Shown for a cancelled call.
    pub const CANCELLED: &str = "The call was cancelled before it finished.";
    /// Shown for an integration mistake; the details go to the host, not the model.
    pub const USER_ERROR: &str =
        "The tool could not run because the application is not set up for it. Do not retry this call.";
    /// Placeholder for a call waiting for approval (never sent while the run is suspended).
    pub const APPROVAL_PENDING: &str = "The call is waiting for approval.";
    /// Placeholder for a deferred call (never sent while the run is suspended).
    pub const DEFERRED_PENDING: &str = "The call is being carried out elsewhere.";
    /// Marks where a long result was cut.
    pub fn truncated(kept: usize, total: usize) -> String {
        format!("\n[… result truncated: showing the first {kept} of {total} characters]")
    }

    /// Invalid arguments, with what to fix.
    pub fn invalid_arguments(tool: &str, problem: &str) -> String {
        format!(
            "Invalid arguments for tool `{tool}`: {problem}. Correct the arguments and call the tool again."
        )
    }

    /// A correction the tool asked for.
    pub fn model_retry(message: &str) -> String {
        format!("{message}\nCorrect the call and try again.")
    }

    /// A policy refusal.
    pub fn blocked(message: &str) -> String {
        format!("The call was blocked: {message}")
    }

    /// An unknown, hidden or unoffered tool.
    pub fn not_available(name: &str) -> String {
        format!("Tool `{name}` is not available. Use only the tools you were given.")
    }

    /// An unexpected failure.
    pub fn failed(message: &str) -> String {
        format!("Tool execution failed: {message}")
    }

    /// A call that ran out of time.
    pub fn timeout(after: Duration) -> String {
        format!("The tool did not finish within {:.1} s and was stopped.", after.as_secs_f64())
    }

    /// A denied call, with the human's reason when one was given.
    pub fn denied(reason: Option<&str>) -> String {
        match reason {
            Some(reason) if !reason.trim().is_empty() => {
                format!("The user denied this call: {reason}")
            }
            _ => "The user denied this call.".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_consistent() {
        for status in ToolStatus::ALL {
            let rule = status.rule();
            // A correction request is always an error towards the model.
            if rule.model_retry {
                assert!(rule.is_error, "{status}");
            }
            // Only a success resets the budget, and a success is never an error.
            assert_eq!(rule.resets_retry_budget, status == ToolStatus::Ok);
            // Suspensions never reach the model and are no errors.
            if !rule.reaches_model {
                assert!(!rule.is_error && !rule.model_retry && !rule.internal_retry);
            }
            let json = serde_json::to_string(&status).unwrap();
            assert_eq!(serde_json::from_str::<ToolStatus>(&json).unwrap(), status);
        }
        assert!(ToolStatus::Failed.rule().internal_retry);
        assert!(!ToolStatus::Feedback.rule().is_error);
        assert!(ToolStatus::UserError.rule().surfaces_to_host);
    }

    #[test]
    fn failure_sources_never_reach_the_model() {
        let source = std::io::Error::other("connect to https://api.example?key=sk-SECRET failed");
        let error = ToolError::unexpected(source);
        let text = error.model_text("weather");
        assert!(!text.contains("SECRET"), "{text}");
        assert_eq!(error.kind(), ToolStatus::Failed);
        assert!(error.source().is_some_and(|s| s.to_string().contains("SECRET")));
    }

    #[test]
    fn errors_map_to_their_status() {
        assert_eq!(ToolError::retry("x").kind(), ToolStatus::ModelRetry);
        assert_eq!(ToolError::blocked("x").kind(), ToolStatus::Blocked);
        assert_eq!(ToolError::feedback("x").kind(), ToolStatus::Feedback);
        assert_eq!(ToolError::User("x".into()).kind(), ToolStatus::UserError);
        assert!(
            ToolError::InvalidArguments("`a` is required".into())
                .model_text("add")
                .contains("`add`: `a` is required")
        );
        assert_eq!(ToolError::feedback("no such file").model_text("read"), "no such file");
    }
}

//! Why a command did not succeed, and the exit code that says so.

use std::fmt;
use std::process::ExitCode;

/// A command's failure: a usage or configuration mistake (exit 2) or a run that failed
/// (exit 1), with hints on what to do next.
#[derive(Debug)]
pub(crate) struct Failure {
    kind: Kind,
    message: String,
    hints: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Usage,
    Run,
}

impl Failure {
    /// A usage or configuration mistake.
    pub(crate) fn usage(message: impl Into<String>) -> Self {
        Failure { kind: Kind::Usage, message: message.into(), hints: Vec::new() }
    }

    /// Something that went wrong while doing the work.
    pub(crate) fn run(message: impl Into<String>) -> Self {
        Failure { kind: Kind::Run, message: message.into(), hints: Vec::new() }
    }

    /// Adds a hint.
    pub(crate) fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hints.push(hint.into());
        self
    }

    /// The process exit code.
    pub(crate) fn exit_code(&self) -> ExitCode {
        match self.kind {
            Kind::Usage => ExitCode::from(2),
            Kind::Run => ExitCode::from(1),
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "error: {}", self.message)?;
        for hint in &self.hints {
            write!(f, "\n  hint: {hint}")?;
        }
        Ok(())
    }
}

//! `tackle run`: one agent run on one prompt.

use std::process::ExitCode;
use std::sync::Arc;

use tackle_core::Message;
use tackle_harness::{EventSink, Harness, RunError, RunOutcome};

use crate::cli::RunArgs;
use crate::config::Config;
use crate::failure::Failure;
use crate::render::{JsonLines, Terminal};
use crate::{provider, tools};

/// Exit code of a run that waits for approvals.
pub(crate) const SUSPENDED: u8 = 3;
/// Exit code of a run cancelled with Ctrl-C.
pub(crate) const CANCELLED: u8 = 130;

/// A short random id for runs.
pub(crate) fn new_id() -> String {
    const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyz23456789";
    (0..10).map(|_| ALPHABET[fastrand::usize(..ALPHABET.len())] as char).collect()
}

pub(crate) async fn run(args: RunArgs, config: &Config) -> Result<ExitCode, Failure> {
    let chosen =
        provider::choose(&args.provider, config)?.ok_or_else(|| provider::none_configured(config))?;
    let model = provider::build(&chosen)?;
    let registry = tools::registry(config)?;
    let run_id = new_id();
    let ctx = Arc::new(tools::run_context(&run_id, Some(chosen.confidence), config)?);
    let harness = Harness::new(registry).limits(config.limits());
    let mut messages = Vec::new();
    if let Some(system) = args.system.as_ref().or(config.file.system.as_ref()) {
        messages.push(Message::system(system.clone()));
    }
    messages.push(Message::user(args.prompt.clone()));
    let mut state = harness.start(run_id, messages);

    // Ctrl-C cancels the run; the state stays valid.
    let cancel = ctx.cancel.clone();
    let watcher = tokio::spawn(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            cancel.cancel();
        }
    });
    let mut terminal = Terminal::new();
    let mut json = JsonLines;
    let sink: &mut dyn EventSink = if args.json { &mut json } else { &mut terminal };
    let outcome = harness.run(model.as_ref(), &ctx, &mut state, sink).await;
    watcher.abort();
    crate::render::flush();
    match outcome {
        Ok(RunOutcome::Answered(answer)) => {
            if !args.json {
                if !terminal.wrote_answer() {
                    crate::print_raw(&answer.text);
                }
                terminal.finish_answer();
                if !answer.sources.is_empty() {
                    crate::print_line("\nSources:");
                    for (n, source) in answer.sources.iter().enumerate() {
                        crate::print_line(&format!("[{}] {}", n + 1, tools::source_line(source)));
                    }
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Ok(RunOutcome::Suspended(pending)) => {
            terminal.finish_answer();
            crate::eprint_line(&format!(
                "run {} waits for approval of {} call(s):",
                state.run_id,
                pending.len()
            ));
            for call in &pending {
                crate::eprint_line(&format!(
                    "  {} {}({})",
                    call.call_id,
                    call.tool,
                    crate::render::short_arguments(&call.arguments)
                ));
            }
            Ok(ExitCode::from(SUSPENDED))
        }
        Err(RunError::Cancelled) => {
            terminal.finish_answer();
            crate::eprint_line("cancelled");
            Ok(ExitCode::from(CANCELLED))
        }
        Err(error) => {
            terminal.finish_answer();
            Err(Failure::run(error.to_string()))
        }
    }
}

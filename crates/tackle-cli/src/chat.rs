//! `tackle chat`: an interactive session with line editing and history. Each line is a
//! run step of one saved session; `/tools`, `/sources`, `/reset`, `/exit`; Ctrl-C cancels
//! the current run and keeps the session; calls that need approval are asked about inline.

use std::process::ExitCode;

use rustyline::DefaultEditor;
use rustyline::error::ReadlineError;
use tackle_harness::{Decision, RunState};

use crate::cli::ChatArgs;
use crate::config::Config;
use crate::failure::Failure;
use crate::run::{Ended, Runner, Step};
use crate::sessions::{Store, data_dir, title_of};
use crate::tools::source_line;

const HELP: &str = "/tools    the tools and whether they are offered
/sources  the sources tools used in this conversation
/reset    start a new conversation
/exit     leave (Ctrl-D too)
Ctrl-C cancels a running answer; the conversation stays.";

/// Reads one line off the async runtime; `None` at the end of input.
async fn read_line(
    editor: DefaultEditor,
    prompt: &'static str,
) -> Result<(DefaultEditor, Option<String>), Failure> {
    let (editor, line) = tokio::task::spawn_blocking(move || {
        let mut editor = editor;
        let line = loop {
            match editor.readline(prompt) {
                Ok(line) => break Ok(Some(line)),
                // Ctrl-C at the prompt clears the line, as in a shell.
                Err(ReadlineError::Interrupted) => continue,
                Err(ReadlineError::Eof) => break Ok(None),
                Err(error) => break Err(error),
            }
        };
        (editor, line)
    })
    .await
    .map_err(|e| Failure::run(format!("the line editor stopped: {e}")))?;
    let line = line.map_err(|e| Failure::run(format!("cannot read input: {e}")))?;
    Ok((editor, line))
}

pub(crate) async fn chat(args: ChatArgs, config: &Config) -> Result<ExitCode, Failure> {
    let runner = Runner::new(&args.provider, config, false, None).await?.inline_approval();
    let store = Store::open()?;
    let history = data_dir().ok().map(|dir| dir.join("chat_history.txt"));
    let mut editor =
        DefaultEditor::new().map_err(|e| Failure::run(format!("cannot start the line editor: {e}")))?;
    if let Some(path) = &history {
        let _ = editor.load_history(path);
    }
    crate::eprint_line(&format!(
        "tackle chat with {}:{} — /help for commands, Ctrl-D to leave",
        runner.chosen.name, runner.chosen.model
    ));
    let mut state: Option<(RunState, String)> = None;
    loop {
        let (next, line) = read_line(editor, "› ").await?;
        editor = next;
        let Some(line) = line else { break };
        let line = line.trim().to_owned();
        if line.is_empty() {
            continue;
        }
        let _ = editor.add_history_entry(line.as_str());
        match line.as_str() {
            "/exit" | "/quit" => break,
            "/help" => crate::eprint_line(HELP),
            "/reset" => {
                state = None;
                crate::eprint_line("new conversation");
            }
            "/sources" => {
                let sources = state.as_ref().map(|(s, _)| s.sources.as_slice()).unwrap_or_default();
                if sources.is_empty() {
                    crate::print_line("no sources yet");
                }
                for (n, source) in sources.iter().enumerate() {
                    crate::print_line(&format!("[{}] {}", n + 1, source_line(source)));
                }
            }
            "/tools" => {
                let run = crate::tools::run_context("chat", Some(runner.chosen.confidence), config)?;
                let report = runner.harness.registry().availability(&run);
                for definition in runner.harness.registry().definitions() {
                    let why =
                        report.not_offered().find(|(n, _)| *n == definition.name).map(|(_, w)| w.to_string());
                    match why {
                        None => crate::print_line(&format!("{}  offered", definition.name)),
                        Some(why) => crate::print_line(&format!("{}  not offered: {why}", definition.name)),
                    }
                }
            }
            command if command.starts_with('/') => {
                crate::eprint_line(&format!("unknown command {command}; /help lists them"));
            }
            prompt => {
                let (conversation, title) =
                    state.get_or_insert_with(|| (runner.start(None), title_of(prompt)));
                conversation.push_user(prompt);
                editor = answer(&runner, conversation, title, &store, editor).await?;
            }
        }
    }
    if let Some(path) = &history {
        let _ = editor.save_history(path);
    }
    Ok(ExitCode::SUCCESS)
}

/// Runs one prompt to its end: asks about calls that wait for approval and goes on.
async fn answer(
    runner: &Runner,
    state: &mut RunState,
    title: &str,
    store: &Store,
    mut editor: DefaultEditor,
) -> Result<DefaultEditor, Failure> {
    let mut step = Step::Run;
    loop {
        match runner.step(state, step, store, title).await {
            Ok(Ended::Suspended) => {
                let (next, line) = read_line(editor, "run these calls? [y/N] ").await?;
                editor = next;
                let yes = line.as_deref().is_some_and(|l| matches!(l.trim(), "y" | "Y" | "yes"));
                let decision = if yes {
                    Decision::Approve
                } else {
                    Decision::Deny { reason: Some("the user declined".to_owned()) }
                };
                let waiting: Vec<String> = state
                    .pending
                    .as_ref()
                    .map(|p| p.waiting().map(|(_, call, _)| call.id.clone()).collect())
                    .unwrap_or_default();
                step = Step::Resume(waiting.into_iter().map(|id| (id, decision.clone())).collect());
            }
            Ok(Ended::Answered | Ended::Cancelled) => return Ok(editor),
            Err(failure) => {
                // A failed answer does not end the session.
                crate::eprint_line(&failure.to_string());
                return Ok(editor);
            }
        }
    }
}

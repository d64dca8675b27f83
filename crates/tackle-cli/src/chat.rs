//! `tackle chat`: an interactive session with line editing and history. Each line is a
//! run step of one saved session; `/tools`, `/skills`, `/sources`, `/reset`, `/exit`; the
//! skills are found again before each prompt; Ctrl-C cancels
//! the current run and keeps the session; calls that need approval are asked about inline.

use std::process::ExitCode;

use rustyline::DefaultEditor;
use rustyline::error::ReadlineError;
use tackle_harness::{Decision, RunState};

use crate::cli::ChatArgs;
use crate::config::Config;
use crate::failure::Failure;
use crate::run::{Ended, Runner, Step};
use crate::sessions::{Store, data_dir};
use crate::tools::source_line;
use tackle_harness::conversation_title as title_of;

const HELP: &str = "/tools    the tools and whether they are offered
/skills   the skills, found again (they are also found again before each prompt)
/sources  the sources tools used in this conversation
/reset    start a new conversation
/exit     leave (Ctrl-D too)
Ctrl-C cancels a running answer; the conversation stays.";

/// Reads one line off the async runtime; `None` at the end of input.
pub(crate) async fn read_line(
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
        // Nowhere left to write answers (a closed pipe): the conversation ends as a
        // cancelled run does, and the rest of the input is not read.
        if crate::stdout_is_gone() {
            if let Some(path) = &history {
                let _ = editor.save_history(path);
            }
            return Ok(ExitCode::from(crate::run::CANCELLED));
        }
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
            "/skills" => match &runner.skills {
                None => crate::eprint_line("no skills without a directory (--dir or [env] root)"),
                Some(skills) => {
                    reload_skills(skills);
                    let set = skills.current();
                    if set.skills.is_empty() {
                        crate::print_line("no skills");
                    }
                    for skill in set.skills.values() {
                        crate::print_line(&format!("{}  {}", skill.name, skill.description));
                    }
                }
            },
            command if command.starts_with('/') => {
                crate::eprint_line(&format!("unknown command {command}; /help lists them"));
            }
            prompt => {
                if let Some(skills) = &runner.skills {
                    reload_skills(skills);
                }
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

/// Finds the skills again; says what changed, and any new problem with a skill.
fn reload_skills(skills: &tackle_env::Skills) {
    let before = skills.current();
    let (changes, now) = skills.reload();
    if !changes.is_empty() {
        crate::eprint_line(&format!("skills: {changes}"));
    }
    for problem in now.diagnostics.iter().filter(|p| !before.diagnostics.contains(p)) {
        crate::eprint_line(&format!("warning: skill {problem}"));
    }
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
                let mut asked = Vec::new();
                let waiting: Vec<(String, bool, serde_json::Value)> = state
                    .pending
                    .as_ref()
                    .map(|p| {
                        p.waiting()
                            .filter_map(|(index, call, kind)| {
                                if kind == tackle_harness::PendingKind::Input {
                                    let request = p.returns[index].input_request.as_deref().cloned();
                                    asked.push((call.id.clone(), request));
                                    return None;
                                }
                                let args = serde_json::Value::Object(
                                    call.arguments.as_object().cloned().unwrap_or_default(),
                                );
                                Some((call.id.clone(), call.name == "ask_user_question", args))
                            })
                            .collect()
                    })
                    .unwrap_or_default();
                let mut decisions = Vec::new();
                // Questions a running tool asked: their forms, field by field.
                for (id, request) in asked {
                    let response = match request {
                        Some(request) => {
                            let (next, response) = crate::form::ask(editor, &request).await?;
                            editor = next;
                            response.unwrap_or_else(tackle_core::InputResponse::decline)
                        }
                        None => tackle_core::InputResponse::decline(),
                    };
                    decisions.push((id, Decision::Input { response }));
                }
                // Questions first, asked in place; then one yes or no for the other calls.
                for (id, _, args) in waiting.iter().filter(|(_, question, _)| *question) {
                    let (next, words) = ask(editor, args).await?;
                    editor = next;
                    let result = match words {
                        Some(words) => tackle_core::ToolReturn::text(words),
                        None => tackle_core::ToolReturn::text("The user did not answer."),
                    };
                    decisions.push((id.clone(), Decision::Result { result: Box::new(result) }));
                }
                if waiting.iter().any(|(_, question, _)| !*question) {
                    let (next, line) = read_line(editor, "run these calls? [y/N] ").await?;
                    editor = next;
                    let yes = line.as_deref().is_some_and(|l| matches!(l.trim(), "y" | "Y" | "yes"));
                    let decision = if yes {
                        Decision::Approve
                    } else {
                        Decision::Deny { reason: Some("the user declined".to_owned()) }
                    };
                    for (id, _, _) in waiting.iter().filter(|(_, question, _)| !*question) {
                        decisions.push((id.clone(), decision.clone()));
                    }
                }
                step = Step::Resume(decisions);
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

/// Asks the questions of one `ask_user_question` call, one by one: the number of an option
/// (or several, comma-separated, where the question takes several) or words of one's own;
/// an answer that does not fit is explained and asked again. `None` when input ends.
pub(crate) async fn ask(
    mut editor: DefaultEditor,
    args: &serde_json::Value,
) -> Result<(DefaultEditor, Option<String>), Failure> {
    let Ok(questions) = serde_json::from_value::<tackle_env::Questions>(args.clone()) else {
        return Ok((editor, None));
    };
    let mut answers = Vec::new();
    for (i, q) in questions.questions.iter().enumerate() {
        crate::eprint_line(&format!("{}. [{}] {}", i + 1, q.header, q.question));
        for (n, option) in q.options.iter().enumerate() {
            crate::eprint_line(&format!("   {}) {}: {}", n + 1, option.label, option.description));
        }
        let prompt =
            if q.multiple { "numbers (1,3) or your own words: " } else { "a number or your own words: " };
        loop {
            let (next, line) = read_line(editor, prompt).await?;
            editor = next;
            let Some(line) = line else { return Ok((editor, None)) };
            let numbers: Option<Vec<usize>> = line
                .split(',')
                .map(|t| t.trim().parse::<usize>().ok().filter(|n| (1..=q.options.len()).contains(n)))
                .collect();
            let answer = match numbers {
                Some(picked) if !picked.is_empty() => tackle_env::Answer::Picked(
                    picked.into_iter().map(|n| q.options[n - 1].label.clone()).collect(),
                ),
                _ => tackle_env::Answer::Own(line.trim().to_owned()),
            };
            // Checked alone, against its own question.
            let one = tackle_env::Questions { questions: vec![q.clone()] };
            match tackle_env::answer(&one, std::slice::from_ref(&answer)) {
                Ok(_) => {
                    answers.push(answer);
                    break;
                }
                Err(why) => crate::eprint_line(&format!("{why}; try again")),
            }
        }
    }
    Ok((editor, tackle_env::answer(&questions, &answers).ok()))
}

//! Runs: `tackle run` (new or `--continue`d) and `tackle approve`, through one runner that
//! renders, handles Ctrl-C and saves the session however the run ends.

use std::collections::HashSet;
use std::io::IsTerminal as _;
use std::process::ExitCode;
use std::sync::Arc;

use tackle_core::{Message, Model};
use tackle_harness::{Decision, EventSink, Harness, PendingCall, RunError, RunOutcome, RunState};

use crate::cli::{ApproveArgs, ProviderArgs, RunArgs};
use crate::config::Config;
use crate::failure::Failure;
use crate::provider::{self, Chosen};
use crate::render::{JsonLines, Terminal};
use crate::sessions::{Endpoint, Session, Status, Store};
use crate::tools;
use tackle_harness::conversation_title as title_of;

/// Exit code of a run that waits for approvals.
pub(crate) const SUSPENDED: u8 = 3;
/// Exit code of a run cancelled with Ctrl-C.
pub(crate) const CANCELLED: u8 = 130;

/// A short random id for runs.
pub(crate) fn new_id() -> String {
    const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyz23456789";
    (0..10).map(|_| ALPHABET[fastrand::usize(..ALPHABET.len())] as char).collect()
}

/// What a run step should do.
pub(crate) enum Step {
    /// Run the conversation as it stands.
    Run,
    /// Resume a suspended run with these decisions.
    Resume(Vec<(String, Decision)>),
}

/// How a run step ended, for the caller.
pub(crate) enum Ended {
    Answered,
    Suspended,
    Cancelled,
}

/// A model, the harness and how to show and keep runs.
pub(crate) struct Runner {
    pub(crate) chosen: Chosen,
    model: Box<dyn Model>,
    /// The embedded model, when it is the one running (for prefilling and speed figures).
    local: Option<tackle_local::LocalModel>,
    pub(crate) harness: Harness,
    config: Config,
    json: bool,
    /// Approvals are asked for in place (chat), not left for `tackle approve`.
    inline_approval: bool,
    /// Questions alone are asked in place (`tackle run` on a terminal).
    questions_in_place: bool,
    /// The skills `load_skill` offers, when there is an environment.
    pub(crate) skills: Option<tackle_env::Skills>,
}

impl Runner {
    /// The runner for `flags`. A resumed `session` goes on against the endpoint it was
    /// started on — its provider, model and base URL — unless the flags name another
    /// provider or base URL, which is then used with a warning.
    pub(crate) async fn new(
        flags: &ProviderArgs,
        config: &Config,
        json: bool,
        session: Option<&Session>,
    ) -> Result<Self, Failure> {
        let mut flags = flags.clone();
        if let Some(session) = session {
            // What the flags leave open comes from the session: its provider, and — for that
            // same provider — its model and base URL.
            let stored = session.endpoint.as_ref();
            let provider = stored.map_or(&session.provider, |e| &e.provider);
            if flags.provider.as_ref().is_none_or(|p| p == provider) {
                flags.model = flags.model.or_else(|| Some(session.model.clone()));
                flags.base_url = flags.base_url.or_else(|| stored.and_then(|e| e.base_url.clone()));
            }
            flags.provider = flags.provider.or_else(|| Some(provider.clone()));
        }
        // With nothing configured, the embedded model answers.
        let chosen = match provider::choose(&flags, config)? {
            Some(chosen) => chosen,
            None => provider::local(flags.model.clone(), "nothing configured: the embedded model".to_owned()),
        };
        if let Some(stored) = session.and_then(|s| s.endpoint.as_ref()) {
            let now = endpoint_of(&chosen);
            if (&now.provider, &now.api, &now.base_url) != (&stored.provider, &stored.api, &stored.base_url) {
                crate::eprint_line(&format!(
                    "warning: this session was started against {}; it goes on against {}, as asked",
                    stored.describe(),
                    now.describe()
                ));
            }
        }
        // The environment's root: `--dir` or `[env] root`, else the session's own.
        let mut config = config.clone();
        if config.env_root.is_none() {
            config.env_root = session.and_then(|s| s.endpoint.as_ref()).and_then(|e| e.root.clone());
        }
        let config = &config;
        // The MCP servers' tools follow their listings: tools a server adds mid-session are
        // offered from the next round.
        let (registry, skills, live) = tools::live_registry(config).await?;
        let harness = Harness::new(registry)
            .registry_source(live)
            .executor(tools::executor(config)?)
            .limits(config.limits());
        let (model, local): (Box<dyn Model>, _) = match provider::build(&chosen).await? {
            provider::Built::Remote(model) => (model, None),
            provider::Built::Local(model) => {
                // The static part of every prompt — system text and tools — processed once.
                let system = config.file.system.clone().unwrap_or_default();
                let run = tools::run_context("prefill", Some(chosen.confidence), config)?;
                harness.warm(&model, &system, &run).await.map_err(|e| Failure::run(e.message))?;
                (Box::new(model.clone()), Some(model))
            }
        };
        Ok(Runner {
            chosen,
            model,
            local,
            harness,
            config: config.clone(),
            json,
            inline_approval: false,
            questions_in_place: false,
            skills,
        })
    }

    /// Makes the model call `tool` first (a tool choice the local model honours once per
    /// user message).
    pub(crate) fn force_tool(mut self, tool: &str) -> Result<Self, Failure> {
        if self.harness.registry().definition(tool).is_none() {
            return Err(
                Failure::usage(format!("no tool named {tool:?}")).hint("`tackle tools list` shows them")
            );
        }
        if self.chosen.api != crate::config::Api::Local {
            return Err(Failure::usage(
                "--tool works with the local model only (a remote provider would call it every round)",
            ));
        }
        let settings =
            tackle_core::ModelSettings::default().tool_choice(tackle_core::ToolChoice::Tool(tool.to_owned()));
        self.harness = self.harness.model_settings(settings);
        Ok(self)
    }

    /// The local model's speed figures for its last round.
    pub(crate) fn report_speed(&self) {
        let Some(local) = &self.local else {
            crate::eprint_line("speed figures are reported for the local model only");
            return;
        };
        let stats = local.stats();
        crate::eprint_line(&format!(
            "prompt: {} tokens ({} reused) at {:.1} tok/s, first token after {} ms; generation: {} tokens at {:.1} tok/s",
            stats.prompt_tokens,
            stats.cached_tokens,
            stats.prompt_tokens_per_second(),
            stats.first_token().as_millis(),
            stats.output_tokens,
            stats.output_tokens_per_second()
        ));
    }

    /// Asks questions in place when nothing else waits (approvals still wait for
    /// `tackle approve`).
    pub(crate) fn questions_in_place(mut self) -> Self {
        self.questions_in_place = true;
        self
    }

    /// Asks for approvals in place instead of pointing at `tackle approve`.
    pub(crate) fn inline_approval(mut self) -> Self {
        self.inline_approval = true;
        self
    }

    /// A new conversation with the configured system prompt.
    pub(crate) fn start(&self, system: Option<&str>) -> RunState {
        let mut messages = Vec::new();
        if let Some(system) = system.or(self.config.file.system.as_deref()) {
            messages.push(Message::system(system));
        }
        self.harness.start(new_id(), messages)
    }

    /// Runs one step: the answer and tool activity rendered, Ctrl-C (or a closed stdout)
    /// cancelling the run, the session saved however it ends.
    pub(crate) async fn step(
        &self,
        state: &mut RunState,
        step: Step,
        store: &Store,
        title: &str,
    ) -> Result<Ended, Failure> {
        let mut ctx = tools::run_context(&state.run_id, Some(self.chosen.confidence), &self.config)?;
        // The registry's model-support gate reads what the model says it can do.
        ctx.model_supports_tools = self.model.profile().supports_tools;
        let ctx = Arc::new(ctx);
        let cancel = ctx.cancel.clone();
        // Ctrl-C, or nowhere left to write the answer, cancels the run.
        let watcher = tokio::spawn(async move {
            tokio::select! {
                pressed = tokio::signal::ctrl_c() => {
                    if pressed.is_ok() {
                        cancel.cancel();
                    }
                }
                () = crate::stdout_gone() => cancel.cancel(),
            }
        });
        let mut terminal = Terminal::new();
        let mut json = JsonLines;
        let sink: &mut dyn EventSink = if self.json { &mut json } else { &mut terminal };
        let outcome = match step {
            Step::Run => self.harness.run(self.model.as_ref(), &ctx, state, sink).await,
            Step::Resume(decisions) => {
                self.harness.resume(self.model.as_ref(), &ctx, state, decisions, sink).await
            }
        };
        watcher.abort();
        crate::render::flush();
        let (status, result) = match outcome {
            Ok(RunOutcome::Answered(answer)) => {
                if !self.json {
                    if !terminal.wrote_answer() {
                        let text = answer.text.trim_end();
                        crate::print_line(text);
                    }
                    terminal.finish_answer();
                    if !answer.sources.is_empty() {
                        crate::print_line("\nSources:");
                        for (n, source) in answer.sources.iter().enumerate() {
                            crate::print_line(&format!("[{}] {}", n + 1, tools::source_line(source)));
                        }
                    }
                    let limit = self.config.limits().max_tool_cost;
                    if answer.tool_cost > tackle_core::Cost::ZERO || limit.is_some() {
                        let of = limit.map(|l| format!(" of {l} allowed")).unwrap_or_default();
                        crate::eprint_line(&format!("tools cost {}{of}", answer.tool_cost));
                    }
                }
                (Status::Answered, Ok(Ended::Answered))
            }
            Ok(RunOutcome::Suspended(pending)) => {
                terminal.finish_answer();
                let asked_here =
                    self.inline_approval || (self.questions_in_place && only_questions(&pending));
                show_pending(&state.run_id, &pending, !asked_here, self.config.env_root.as_deref());
                (Status::Suspended, Ok(Ended::Suspended))
            }
            Err(RunError::Cancelled) => {
                terminal.finish_answer();
                crate::eprint_line("cancelled");
                (Status::Cancelled, Ok(Ended::Cancelled))
            }
            Err(error) => {
                terminal.finish_answer();
                (Status::Failed, Err(Failure::run(error.to_string())))
            }
        };
        let endpoint = Endpoint { root: self.config.env_root.clone(), ..endpoint_of(&self.chosen) };
        store.save(state, &endpoint, &self.chosen.model, title, status)?;
        result
    }
}

/// Where runs with `chosen` go, as a session keeps it.
pub(crate) fn endpoint_of(chosen: &Chosen) -> Endpoint {
    let api = match chosen.api {
        crate::config::Api::Chat => "chat",
        crate::config::Api::Responses => "responses",
        crate::config::Api::Anthropic => "anthropic",
        crate::config::Api::Gemini => "gemini",
        crate::config::Api::Vertex => "vertex",
        crate::config::Api::Bedrock => "bedrock",
        crate::config::Api::Local => "local",
    };
    Endpoint {
        provider: chosen.name.clone(),
        api: api.to_owned(),
        preset: chosen.preset.name.to_owned(),
        base_url: chosen.base_url.clone(),
        key_source: chosen.key_origin.clone(),
        root: None,
    }
}

/// Whether every waiting call is a question for the user.
fn only_questions(pending: &[PendingCall]) -> bool {
    pending
        .iter()
        .all(|call| call.tool == "ask_user_question" || call.kind == tackle_harness::PendingKind::Input)
}

fn show_pending(run_id: &str, pending: &[PendingCall], hint: bool, root: Option<&std::path::Path>) {
    let questions = pending
        .iter()
        .filter(|call| call.tool == "ask_user_question" || call.kind == tackle_harness::PendingKind::Input)
        .count();
    let approvals = pending.len() - questions;
    let waits_for = match (approvals, questions) {
        (_, 0) => format!("approval of {approvals} call(s)"),
        (0, _) => format!("answers to {questions} question(s)"),
        _ => format!("approval of {approvals} call(s) and answers to {questions} question(s)"),
    };
    crate::eprint_line(&format!("run {run_id} waits for {waits_for}:"));
    for call in pending {
        crate::eprint_line(&format!(
            "  {} {}({})",
            call.call_id,
            call.tool,
            crate::render::short_arguments(&call.arguments)
        ));
        if let Some(root) = root {
            for line in crate::render::edit_preview(root, &call.tool, &call.arguments) {
                crate::eprint_line(&format!("    {line}"));
            }
        }
        if let Some(request) = &call.request {
            for line in crate::form::show(request) {
                crate::eprint_line(&format!("    {line}"));
            }
            if hint {
                crate::eprint_line(&format!(
                    "  hint: `tackle approve {run_id} --answer '{{\"field\": value}}'` answers; `--deny` declines"
                ));
            }
        } else if call.tool == "ask_user_question"
            && let Ok(questions) = serde_json::from_value::<tackle_env::Questions>(call.arguments.clone())
        {
            for (i, q) in questions.questions.iter().enumerate() {
                let kind = if q.multiple { "pick one or more" } else { "pick one" };
                crate::eprint_line(&format!("    {}. [{}] {} ({kind})", i + 1, q.header, q.question));
                for option in &q.options {
                    crate::eprint_line(&format!("       - {}: {}", option.label, option.description));
                }
            }
            if hint {
                crate::eprint_line(&format!(
                    "  hint: `tackle approve {run_id} --answer '[[\"label\"], \"own words\"]'` answers, one entry per question"
                ));
            }
        }
    }
    // Questions have their own hints above; this one is for calls to approve.
    if hint && approvals > 0 {
        crate::eprint_line(&format!(
            "  hint: `tackle approve {run_id}` runs them; `--deny REASON` refuses; `--edit JSON` runs one with other arguments"
        ));
    }
}

fn exit(ended: Ended) -> ExitCode {
    match ended {
        Ended::Answered => ExitCode::SUCCESS,
        Ended::Suspended => ExitCode::from(SUSPENDED),
        Ended::Cancelled => ExitCode::from(CANCELLED),
    }
}

/// `tackle run`.
pub(crate) async fn run(args: RunArgs, config: &Config, verbose: bool) -> Result<ExitCode, Failure> {
    let store = Store::open()?;
    let (runner, mut state, title) = match &args.continue_id {
        Some(id) => {
            let session = store.load(id)?;
            if session.state.is_suspended() {
                return Err(Failure::usage(format!("session {id} waits for a decision"))
                    .hint(format!(
                        "decide first: `tackle approve {id}` (`--answer` for a question, `--deny REASON` to refuse)"
                    )));
            }
            let runner = Runner::new(&args.provider, config, args.json, Some(&session)).await?;
            (runner, session.state, session.title)
        }
        None => {
            let runner = Runner::new(&args.provider, config, args.json, None).await?;
            let state = runner.start(args.system.as_deref());
            (runner, state, title_of(&args.prompt))
        }
    };
    let runner = match &args.tool {
        Some(tool) => runner.force_tool(tool)?,
        None => runner,
    };
    // On a terminal, questions are asked in place (approvals still wait for `tackle approve`).
    let in_place = !args.json && std::io::stdin().is_terminal() && std::io::stderr().is_terminal();
    let runner = if in_place { runner.questions_in_place() } else { runner };
    state.push_user(args.prompt.clone());
    let mut ended = runner.step(&mut state, Step::Run, &store, &title).await;
    let mut editor = None;
    while in_place && matches!(ended, Ok(Ended::Suspended)) {
        let Some(decisions) = ask_waiting_questions(&state, &mut editor).await? else { break };
        ended = runner.step(&mut state, Step::Resume(decisions), &store, &title).await;
    }
    if verbose {
        runner.report_speed();
    }
    Ok(exit(ended?))
}

/// Asks the waiting questions in place, when questions are all that waits: the answers as
/// decisions, or `None` (the run stays suspended) when something else waits or input ends.
async fn ask_waiting_questions(
    state: &RunState,
    editor: &mut Option<rustyline::DefaultEditor>,
) -> Result<Option<Vec<(String, Decision)>>, Failure> {
    let Some(pending) = &state.pending else { return Ok(None) };
    let is_question = |call: &tackle_core::ToolCall, kind| {
        call.name == "ask_user_question" || kind == tackle_harness::PendingKind::Input
    };
    if pending.waiting().any(|(_, call, kind)| !is_question(call, kind)) {
        return Ok(None);
    }
    let mut decisions = Vec::new();
    for (index, call, kind) in pending.waiting() {
        if kind == tackle_harness::PendingKind::Input {
            let Some(request) = pending.returns[index].input_request.as_deref() else { return Ok(None) };
            let line_editor = match editor.take() {
                Some(e) => e,
                None => rustyline::DefaultEditor::new()
                    .map_err(|e| Failure::run(format!("cannot start the line editor: {e}")))?,
            };
            let (next, response) = crate::form::ask(line_editor, request).await?;
            *editor = Some(next);
            let Some(response) = response else {
                crate::eprint_line(&format!(
                    "no answer; the run waits: `tackle approve {} --answer JSON` answers later",
                    state.run_id
                ));
                return Ok(None);
            };
            decisions.push((call.id.clone(), Decision::Input { response }));
            continue;
        }
        let line_editor = match editor.take() {
            Some(e) => e,
            None => rustyline::DefaultEditor::new()
                .map_err(|e| Failure::run(format!("cannot start the line editor: {e}")))?,
        };
        let args = serde_json::Value::Object(call.arguments.as_object().cloned().unwrap_or_default());
        let (next, words) = crate::chat::ask(line_editor, &args).await?;
        *editor = Some(next);
        let Some(words) = words else {
            crate::eprint_line(&format!(
                "no answer; the run waits: `tackle approve {} --answer JSON` answers later",
                state.run_id
            ));
            return Ok(None);
        };
        decisions.push((
            call.id.clone(),
            Decision::Result { result: Box::new(tackle_core::ToolReturn::text(words)) },
        ));
    }
    Ok(Some(decisions))
}

/// `tackle approve ID`: decides every waiting call of a suspended session and runs on.
pub(crate) async fn approve(args: ApproveArgs, config: &Config) -> Result<ExitCode, Failure> {
    let store = Store::open()?;
    let session = store.load(&args.id)?;
    let mut state = session.state.clone();
    let Some(pending) = &state.pending else {
        return Err(Failure::usage(format!("session {} does not wait for approval", args.id)));
    };
    let waiting: Vec<String> = pending
        .waiting()
        .filter(|(_, call, kind)| {
            call.name != "ask_user_question" && *kind != tackle_harness::PendingKind::Input
        })
        .map(|(_, call, _)| call.id.clone())
        .collect();
    let decision = match (&args.deny, &args.edit) {
        (Some(_), Some(_)) => return Err(Failure::usage("--deny and --edit cannot go together")),
        (Some(reason), None) => {
            Decision::Deny { reason: Some(reason.clone()).filter(|r| !r.trim().is_empty()) }
        }
        (None, Some(edit)) => {
            if waiting.len() != 1 {
                return Err(Failure::usage(format!(
                    "--edit needs exactly one waiting call; {} wait",
                    waiting.len()
                )));
            }
            let arguments: serde_json::Value = serde_json::from_str(edit)
                .map_err(|e| Failure::usage(format!("--edit is not valid JSON: {e}")))?;
            if !arguments.is_object() {
                return Err(Failure::usage("--edit must be a JSON object of arguments"));
            }
            Decision::ApproveWithArguments { arguments }
        }
        (None, None) => Decision::Approve,
    };
    // Questions take answers; everything else waiting takes the decision.
    let mut decisions: Vec<(String, Decision)> = Vec::new();
    let mut answered = false;
    let mut seen: HashSet<String> = HashSet::new();
    for (index, call, kind) in pending.waiting() {
        if !seen.insert(call.id.clone()) {
            continue;
        }
        if kind == tackle_harness::PendingKind::Input {
            // A tool's question: `--answer` answers it, `--deny` declines it.
            let Some(request) = pending.returns[index].input_request.as_deref() else {
                return Err(Failure::run(format!("the question of call {} is lost", call.id)));
            };
            let decision = match (&args.answer, &args.deny) {
                (Some(text), _) => {
                    answered = true;
                    Decision::Input {
                        response: crate::form::from_json(request, text).map_err(Failure::usage)?,
                    }
                }
                (None, Some(_)) => Decision::Input { response: tackle_core::InputResponse::decline() },
                (None, None) => {
                    return Err(Failure::usage(format!("run {} waits for an answer to a question", args.id))
                        .hint(format!(
                            "tackle approve {} --answer '{{\"field\": value}}' (or --deny)",
                            args.id
                        )));
                }
            };
            decisions.push((call.id.clone(), decision));
        } else if kind == tackle_harness::PendingKind::Deferred && call.name == "ask_user_question" {
            let Some(text) = &args.answer else {
                return Err(Failure::usage(format!("run {} waits for answers to questions", args.id))
                    .hint(format!("tackle approve {} --answer '[[\"label\"], \"own words\"]'", args.id)));
            };
            let arguments =
                serde_json::Value::Object(call.arguments.as_object().cloned().unwrap_or_default());
            let questions: tackle_env::Questions = serde_json::from_value(arguments)
                .map_err(|e| Failure::run(format!("the waiting questions cannot be read: {e}")))?;
            let answers: Vec<tackle_env::Answer> = serde_json::from_str(text)
                .map_err(|e| Failure::usage(format!("--answer is not a JSON list of answers: {e}")))?;
            let words = tackle_env::answer(&questions, &answers)
                .map_err(|e| Failure::usage(format!("--answer: {e}")))?;
            decisions.push((
                call.id.clone(),
                Decision::Result { result: Box::new(tackle_core::ToolReturn::text(words)) },
            ));
            answered = true;
        } else {
            decisions.push((call.id.clone(), decision.clone()));
        }
    }
    if args.answer.is_some() && !answered {
        return Err(Failure::usage(format!(
            "run {} waits for no answers; --answer is for questions",
            args.id
        )));
    }
    let runner = Runner::new(&args.provider, config, args.json, Some(&session)).await?;
    let ended = runner.step(&mut state, Step::Resume(decisions), &store, &session.title).await?;
    Ok(exit(ended))
}

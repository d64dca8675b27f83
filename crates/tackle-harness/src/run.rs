//! [`Harness`]: the one loop.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use serde_json::Value;
use tackle_core::telemetry;
use tackle_core::{
    AssistantPart, AssistantTurn, InputResponse, Message, Model, ModelEvent, ModelRequest, ModelSettings,
    ResumedInput, ToolArguments, ToolCall, ToolChoice, ToolContent, ToolKind, ToolReturn, ToolStatus,
    validate_tool_name, wording,
};
use tackle_tools::{
    BatchOutcome, ExecutionState, Executor, Offer, ProgressSink, RegistrySource, RunContext, ToolRegistry,
};

use crate::event::{EventSink, RunEvent, Step};
use crate::limits::{LimitKind, Limits};
use crate::state::{
    Answer, CallTrace, Counters, Decision, PendingBatch, PendingCall, PendingKind, RunError, RunOutcome,
    RunState,
};
use crate::wording::Wording;

/// The tool-calling loop: asks the model, runs the calls it makes through the executor,
/// feeds the results back, until the model answers or a limit asks for the final answer.
///
/// A harness holds configuration only; the conversation lives in a [`RunState`] that the
/// caller owns, so one harness serves many runs and a suspended run can be continued by
/// another harness after a restart.
#[derive(Clone)]
pub struct Harness {
    registry: Arc<std::sync::RwLock<Arc<ToolRegistry>>>,
    source: Option<Arc<dyn RegistrySource>>,
    executor: Executor,
    limits: Limits,
    wording: Arc<Wording>,
    settings: ModelSettings,
    keep_results_in_traces: bool,
}

impl std::fmt::Debug for Harness {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Harness")
            .field("registry", &self.registry())
            .field("executor", &self.executor)
            .field("limits", &self.limits)
            .finish_non_exhaustive()
    }
}

/// How one batch of calls ended inside the harness.
enum BatchEnd {
    Done,
    Suspended(Vec<PendingCall>),
}

impl Harness {
    /// A harness over `registry` with the default executor, limits and wording.
    pub fn new(registry: ToolRegistry) -> Self {
        Harness {
            registry: Arc::new(std::sync::RwLock::new(Arc::new(registry))),
            source: None,
            executor: Executor::new(),
            limits: Limits::default(),
            wording: Arc::new(Wording::default()),
            settings: ModelSettings::default(),
            keep_results_in_traces: false,
        }
    }

    /// Uses `executor` to run calls.
    pub fn executor(mut self, executor: Executor) -> Self {
        self.executor = executor;
        self
    }

    /// Sets the limits.
    pub fn limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// Replaces the sentences the harness writes (for translations).
    pub fn wording(mut self, wording: Wording) -> Self {
        self.wording = Arc::new(wording);
        self
    }

    /// Settings sent with every model request.
    pub fn model_settings(mut self, settings: ModelSettings) -> Self {
        self.settings = settings;
        self
    }

    /// Keeps what the model was shown in the call traces (off by default: traces are
    /// persisted, results may be large or private).
    pub fn keep_results_in_traces(mut self, keep: bool) -> Self {
        self.keep_results_in_traces = keep;
        self
    }

    /// Asks `source` for the registry again at the start of every round: when the tools
    /// changed (an MCP server added some), the new registry is offered from that round on.
    /// A suspended run resumes with the registry as it is then.
    pub fn registry_source(mut self, source: Arc<dyn RegistrySource>) -> Self {
        self.source = Some(source);
        self
    }

    /// The registry as it is now.
    pub fn registry(&self) -> Arc<ToolRegistry> {
        Arc::clone(&self.registry.read().unwrap_or_else(std::sync::PoisonError::into_inner))
    }

    /// The registry for a new round: the source's new one when the tools changed.
    fn current(&self) -> Arc<ToolRegistry> {
        if let Some(fresh) = self.source.as_ref().and_then(|source| source.refreshed()) {
            *self.registry.write().unwrap_or_else(std::sync::PoisonError::into_inner) = Arc::new(fresh);
        }
        self.registry()
    }

    /// The settings a round asks `profile`'s model with: one call per round for a model
    /// that cannot make several, and an automatic tool choice where a required one is not
    /// accepted.
    fn settings_for(&self, profile: &tackle_core::ModelProfile) -> Cow<'_, ModelSettings> {
        let mut settings = Cow::Borrowed(&self.settings);
        if !profile.supports_parallel_tool_calls && self.settings.parallel_tool_calls.is_none() {
            settings.to_mut().parallel_tool_calls = Some(false);
        }
        let forced = matches!(self.settings.tool_choice, ToolChoice::Required | ToolChoice::Tool(_));
        if forced && !profile.supports_tool_choice_required {
            tracing::warn!("the model does not accept a required tool choice; asking with auto");
            settings.to_mut().tool_choice = ToolChoice::Auto;
        }
        settings
    }

    /// Lets `model` get ready for runs with system prompt `system` in `run`'s context: the
    /// instructions and tools of their rounds (all but a final round) go to
    /// [`Model::warm`], so the embedded model processes them once, before the first
    /// request, instead of in it. Models behind an API return at once.
    pub async fn warm(
        &self,
        model: &dyn Model,
        system: &str,
        run: &RunContext,
    ) -> Result<(), tackle_core::ModelError> {
        // As a round decides: a model that cannot call tools is offered none.
        let offer = if model.profile().supports_tools { self.current().offer(run) } else { Offer::default() };
        let instructions = self.instructions(system, &offer, None);
        model.warm(&instructions, &offer.definitions()).await
    }

    /// A new run over `messages`. Leading system messages become the system prompt.
    pub fn start(&self, run_id: impl Into<String>, messages: Vec<Message>) -> RunState {
        let mut system = String::new();
        let mut rest = Vec::with_capacity(messages.len());
        for message in messages {
            match message {
                Message::System { text } if rest.is_empty() => {
                    if !system.is_empty() {
                        system.push_str("\n\n");
                    }
                    system.push_str(&text);
                }
                other => rest.push(other),
            }
        }
        RunState {
            run_id: run_id.into(),
            system,
            messages: rest,
            counters: Counters::default(),
            sources: Vec::new(),
            required_confidence: tackle_core::Confidence::None,
            execution: Default::default(),
            traces: Vec::new(),
            final_round: None,
            pending: None,
        }
    }

    /// Runs until the model answers, a call needs a decision, or an error ends the run.
    pub async fn run(
        &self,
        model: &dyn Model,
        ctx: &Arc<RunContext>,
        state: &mut RunState,
        sink: &mut dyn EventSink,
    ) -> Result<RunOutcome, RunError> {
        if state.pending.is_some() {
            return Err(RunError::Suspended);
        }
        let started = Instant::now();
        let span = run_span(&state.run_id, ctx);
        sink.emit(RunEvent::RunStarted { run_id: state.run_id.clone() });
        let outcome = in_run_span(span, self.drive(model, ctx, state, sink, started)).await;
        state.counters.elapsed += started.elapsed();
        outcome
    }

    /// Continues a suspended run with a decision for every waiting call, then runs on
    /// exactly as if it had never stopped.
    pub async fn resume(
        &self,
        model: &dyn Model,
        ctx: &Arc<RunContext>,
        state: &mut RunState,
        decisions: impl IntoIterator<Item = (String, Decision)>,
        sink: &mut dyn EventSink,
    ) -> Result<RunOutcome, RunError> {
        in_run_span(run_span(&state.run_id, ctx), self.resume_inner(model, ctx, state, decisions, sink)).await
    }

    /// [`Harness::resume`], inside the run's span.
    async fn resume_inner(
        &self,
        model: &dyn Model,
        ctx: &Arc<RunContext>,
        state: &mut RunState,
        decisions: impl IntoIterator<Item = (String, Decision)>,
        sink: &mut dyn EventSink,
    ) -> Result<RunOutcome, RunError> {
        let Some(pending) = &state.pending else { return Err(RunError::NotSuspended) };
        let plan = plan_decisions(pending, decisions)?;

        let started = Instant::now();
        sink.emit(RunEvent::RunStarted { run_id: state.run_id.clone() });
        let Some(mut batch) = state.pending.take() else { return Err(RunError::NotSuspended) };
        let pending_kinds: Vec<(usize, PendingKind)> =
            batch.waiting().map(|(i, _, kind)| (i, kind)).collect();
        let mut approved = Vec::new();
        for (index, decision) in plan {
            let call = &batch.calls[index];
            let ret = match decision {
                Decision::Approve => {
                    approved.push((index, call.clone()));
                    continue;
                }
                Decision::ApproveWithArguments { arguments } => {
                    let mut edited = call.clone();
                    edited.arguments = ToolArguments::Json(arguments);
                    approved.push((index, edited));
                    continue;
                }
                Decision::Input { response } => {
                    let request = batch.returns[index].input_request.clone();
                    if let Some(request) = request {
                        state.execution.answer(call.id.clone(), ResumedInput { request: *request, response });
                    }
                    approved.push((index, call.clone()));
                    continue;
                }
                Decision::Deny { reason } => {
                    ToolReturn::with_status(ToolStatus::Denied, wording::denied(reason.as_deref()))
                }
                Decision::Result { result } => {
                    let offer = self.registry().offer(ctx);
                    self.executor.accept_result(&offer, ctx, call, *result)
                }
            };
            batch.returns[index] = ret.for_call(call);
            self.emit_finished(sink, &batch.returns[index], Duration::ZERO);
        }
        if !approved.is_empty() {
            for (index, call) in &approved {
                // A call that asked a question passed its approval (if it needed one)
                // before it asked, and keeps it.
                if kind_of(&pending_kinds, *index) != Some(PendingKind::Input) {
                    state.execution.approve(call.id.clone());
                }
            }
            // The decisions are kept before the approved calls start: a run taken over
            // later knows they may have run.
            state.pending = Some(batch);
            sink.checkpoint(state);
            let Some(taken) = state.pending.take() else { return Err(RunError::NotSuspended) };
            batch = taken;
            let offer = self.registry().offer(ctx);
            let mut approved = approved;
            approved.retain(|(index, call)| match self.refusal(&offer, call, sink) {
                None => true,
                Some(refused) => {
                    self.emit_finished(sink, &refused, Duration::ZERO);
                    batch.returns[*index] = refused;
                    false
                }
            });
            let calls: Vec<ToolCall> = approved.iter().map(|(_, call)| call.clone()).collect();
            self.emit_started(sink, &calls);
            let outcome = self.execute(&offer, ctx, &calls, &mut state.execution, sink).await;
            for (((index, _), ret), took) in approved.iter().zip(outcome.returns).zip(outcome.durations) {
                self.emit_finished(sink, &ret, took);
                batch.returns[*index] = ret;
                batch.durations[*index] = took;
            }
            if let Some(exhausted) = outcome.exhausted {
                self.settle(state, batch, sink)?;
                state.counters.elapsed += started.elapsed();
                return Err(RunError::RetryBudgetExhausted(exhausted));
            }
        }
        let outcome = match self.settle(state, batch, sink) {
            Ok(BatchEnd::Suspended(pending)) => {
                sink.checkpoint(state);
                Ok(RunOutcome::Suspended(pending))
            }
            Ok(BatchEnd::Done) if ctx.cancel.is_cancelled() => Err(RunError::Cancelled),
            Ok(BatchEnd::Done) => {
                sink.checkpoint(state);
                self.drive(model, ctx, state, sink, started).await
            }
            Err(e) => Err(e),
        };
        state.counters.elapsed += started.elapsed();
        outcome
    }

    /// Checks `decisions` against what `state` waits for, exactly as [`Harness::resume`]
    /// will, without changing anything (for hosts that take decisions now and resume later).
    pub fn check_decisions(
        &self,
        state: &RunState,
        decisions: &[(String, Decision)],
    ) -> Result<(), RunError> {
        let Some(pending) = &state.pending else { return Err(RunError::NotSuspended) };
        plan_decisions(pending, decisions.iter().cloned()).map(|_| ())
    }

    /// Goes on with a run from a checkpoint (see [`EventSink::checkpoint`]) taken by a host
    /// that stopped. Calls that may have started and have no result are run again when
    /// their tool is idempotent; every other one gets a failure saying `interrupted`. Calls
    /// that had not started (waiting for approval, deferred) go on as they would have.
    pub async fn recover(
        &self,
        model: &dyn Model,
        ctx: &Arc<RunContext>,
        state: &mut RunState,
        interrupted: &str,
        sink: &mut dyn EventSink,
    ) -> Result<RunOutcome, RunError> {
        in_run_span(run_span(&state.run_id, ctx), self.recover_inner(model, ctx, state, interrupted, sink))
            .await
    }

    /// [`Harness::recover`], inside the run's span.
    async fn recover_inner(
        &self,
        model: &dyn Model,
        ctx: &Arc<RunContext>,
        state: &mut RunState,
        interrupted: &str,
        sink: &mut dyn EventSink,
    ) -> Result<RunOutcome, RunError> {
        let idempotent = |name: &str| self.registry().definition(name).is_some_and(|d| d.idempotent);
        if let Some(mut batch) = state.pending.take() {
            // Decided calls that may have started: approved, or answered.
            let in_flight: Vec<(usize, ToolCall, PendingKind)> = batch
                .waiting()
                .filter(|(_, call, _)| {
                    state.execution.approved.contains(&call.id)
                        || state.execution.inputs.contains_key(&call.id)
                })
                .map(|(i, call, kind)| (i, call.clone(), kind))
                .collect();
            if in_flight.is_empty() {
                // Still waiting for decisions.
                let waiting = self.pending_calls(&batch);
                state.pending = Some(batch);
                return Ok(RunOutcome::Suspended(waiting));
            }
            let mut decisions = Vec::new();
            for (index, call, kind) in in_flight {
                let answer = state.execution.inputs.remove(&call.id);
                state.execution.approved.remove(&call.id);
                if idempotent(&call.name) {
                    let decision = match (kind, answer) {
                        (PendingKind::Input, Some(resumed)) => Decision::Input { response: resumed.response },
                        _ => Decision::Approve,
                    };
                    decisions.push((call.id.clone(), decision));
                } else {
                    batch.returns[index] =
                        ToolReturn::with_status(ToolStatus::Failed, interrupted).for_call(&call);
                }
            }
            state.pending = Some(batch);
            return self.resume(model, ctx, state, decisions, sink).await;
        }
        let started = Instant::now();
        sink.emit(RunEvent::RunStarted { run_id: state.run_id.clone() });
        // A batch in flight: the last turn asked for calls whose results are not recorded.
        let in_flight = match state.messages.last() {
            Some(Message::Assistant(turn)) => turn.tool_calls().cloned().collect::<Vec<_>>(),
            _ => Vec::new(),
        };
        let outcome = if in_flight.is_empty() {
            self.drive(model, ctx, state, sink, started).await
        } else {
            let offer = self.current().offer(ctx);
            match self.run_calls(&offer, ctx, state, in_flight, sink, (started, Some(interrupted))).await {
                Ok(BatchEnd::Done) => {
                    sink.checkpoint(state);
                    self.drive(model, ctx, state, sink, started).await
                }
                Ok(BatchEnd::Suspended(pending)) => {
                    sink.checkpoint(state);
                    Ok(RunOutcome::Suspended(pending))
                }
                Err(error) => Err(error),
            }
        };
        state.counters.elapsed += started.elapsed();
        outcome
    }

    /// The calls `batch` waits for, as `RunOutcome::Suspended` lists them (arguments
    /// redacted, questions without their tool's state).
    fn pending_calls(&self, batch: &PendingBatch) -> Vec<PendingCall> {
        batch
            .waiting()
            .map(|(_, call, kind)| PendingCall {
                call_id: call.id.clone(),
                tool: call.name.clone(),
                arguments: call.arguments.redacted(&self.sensitive(&call.name)),
                kind,
                request: batch.returns.iter().find(|r| r.call_id == call.id).and_then(|r| {
                    r.input_request.as_deref().map(|asked| {
                        let mut asked = asked.clone();
                        asked.state = Value::Null;
                        asked
                    })
                }),
            })
            .collect()
    }

    fn limit_reached(&self, state: &RunState, started: Instant, planned_calls: u32) -> Option<LimitKind> {
        let limits = &self.limits;
        let c = &state.counters;
        if c.result_chars > limits.max_result_chars {
            return Some(LimitKind::ResultChars);
        }
        if c.tool_calls.saturating_add(planned_calls) >= limits.max_tool_calls {
            return Some(LimitKind::ToolCalls);
        }
        if limits.max_duration.is_some_and(|max| c.elapsed + started.elapsed() >= max) {
            return Some(LimitKind::Time);
        }
        let over_tokens = limits.max_total_tokens.is_some_and(|max| c.usage.total_tokens() >= max);
        let over_cost = limits.max_tool_cost.is_some_and(|max| c.tool_cost >= max);
        if over_tokens || over_cost {
            return Some(LimitKind::Budget);
        }
        None
    }

    fn final_instruction(&self, limit: LimitKind) -> String {
        let w = &self.wording;
        let l = &self.limits;
        match limit {
            LimitKind::ToolCalls => Wording::fill(&w.calls_limit, l.max_tool_calls),
            LimitKind::ResultChars => Wording::fill(&w.result_chars_limit, l.max_result_chars),
            LimitKind::Rounds => Wording::fill(&w.rounds_limit, l.max_rounds),
            LimitKind::Time => w.time_limit.clone(),
            LimitKind::Budget => w.budget_limit.clone(),
        }
    }

    /// The system prompt of one round: the application's prompt, one section per policy
    /// group of the offered tools, and the final-answer instruction when this is the last
    /// round. Borrowed when there is nothing to add.
    fn instructions<'s>(
        &self,
        system: &'s str,
        offer: &Offer,
        final_round: Option<LimitKind>,
    ) -> Cow<'s, str> {
        let policies = offer.policy_instructions();
        if policies.is_empty() && final_round.is_none() {
            return Cow::Borrowed(system);
        }
        let mut text = system.to_owned();
        let separate = |text: &mut String| {
            if !text.is_empty() {
                text.push_str("\n\n");
            }
        };
        if !policies.is_empty() {
            separate(&mut text);
            text.push_str(&self.wording.policy_heading);
            for (group, policy) in policies {
                let _ = write!(text, "\n\n## {group}\n{}", policy.trim());
            }
        }
        if let Some(limit) = final_round {
            separate(&mut text);
            text.push_str(&self.final_instruction(limit));
        }
        Cow::Owned(text)
    }

    async fn drive(
        &self,
        model: &dyn Model,
        ctx: &Arc<RunContext>,
        state: &mut RunState,
        sink: &mut dyn EventSink,
        started: Instant,
    ) -> Result<RunOutcome, RunError> {
        loop {
            if ctx.cancel.is_cancelled() {
                return Err(RunError::Cancelled);
            }
            if state.final_round.is_none() {
                state.final_round = self.limit_reached(state, started, 0).or_else(|| {
                    (state.counters.rounds.saturating_add(1) >= self.limits.max_rounds)
                        .then_some(LimitKind::Rounds)
                });
            }
            if !ctx.provider_confidence.satisfies(state.required_confidence) {
                return Err(RunError::ConfidenceTooLow {
                    required: state.required_confidence,
                    provider: ctx.provider_confidence,
                });
            }
            sink.admit(Step::Round { round: state.counters.rounds.saturating_add(1) })
                .map_err(RunError::Stopped)?;
            let final_round = state.final_round;
            let profile = model.profile();
            // A model that cannot call tools is offered none; calls it makes anyway find
            // nothing to run.
            let offer = if final_round.is_some() || !profile.supports_tools {
                Offer::default()
            } else {
                self.current().offer(ctx)
            };
            let tools = offer.definitions();
            let settings = self.settings_for(profile);
            let turn = {
                let instructions = self.instructions(&state.system, &offer, final_round);
                let request = ModelRequest::new(&instructions, &state.messages, &tools, &settings)
                    .tool_call_deltas(false);
                let span = chat_span(model);
                let started = std::time::Instant::now();
                let turn = telemetry::in_span(stream_round(model, request, ctx, sink), &span).await;
                let took = started.elapsed();
                match &turn {
                    Ok(turn) => {
                        span.record("gen_ai.usage.input_tokens", turn.usage.input_tokens);
                        span.record("gen_ai.usage.output_tokens", turn.usage.output_tokens);
                        telemetry::record_round(model.name(), took, Some(&turn.usage), None);
                    }
                    Err(error) => {
                        span.record("error.type", error_type(error));
                        span.record("otel.status_code", "ERROR");
                        telemetry::record_round(model.name(), took, None, Some(error_type(error)));
                    }
                }
                turn?
            };
            state.counters.rounds += 1;
            state.counters.usage += turn.usage;
            sink.emit(RunEvent::Usage { usage: turn.usage });

            let text = turn.joined_text();
            let calls: Vec<ToolCall> = turn.tool_calls().cloned().collect();

            if final_round.is_some() {
                // Calls in the final round are not run; they get a result so the history
                // stays valid for a continuation.
                state.messages.push(Message::Assistant(turn));
                if !calls.is_empty() {
                    let not_run = calls.iter().map(|c| self.not_run(c).to_part());
                    state.messages.push(Message::tool_returns(not_run));
                }
                state.final_round = None;
                return Ok(self.answer(state, text, &self.wording.no_final_answer, sink));
            }
            if calls.iter().any(|c| c.id.is_empty()) {
                // A call without an id cannot be answered; record what the model said
                // without its calls and end the round cleanly.
                let kept = AssistantTurn {
                    parts: turn
                        .parts
                        .into_iter()
                        .filter(|p| !matches!(p, AssistantPart::ToolCall(_)))
                        .collect(),
                    ..turn
                };
                state.messages.push(Message::Assistant(kept));
                // The round's text is not an answer: the model meant to call tools.
                return Ok(self.answer(state, String::new(), &self.wording.invalid_call, sink));
            }
            state.messages.push(Message::Assistant(turn));
            if calls.is_empty() {
                let fallback = if state.counters.tool_calls > 0 {
                    &self.wording.no_answer_after_tools
                } else {
                    &self.wording.empty_response
                };
                return Ok(self.answer(state, text, fallback, sink));
            }
            sink.checkpoint(state);
            match self.run_calls(&offer, ctx, state, calls, sink, (started, None)).await? {
                BatchEnd::Done => sink.checkpoint(state),
                BatchEnd::Suspended(pending) => {
                    sink.checkpoint(state);
                    return Ok(RunOutcome::Suspended(pending));
                }
            }
        }
    }

    fn answer(&self, state: &RunState, text: String, fallback: &str, sink: &mut dyn EventSink) -> RunOutcome {
        let model_answered = !text.trim().is_empty();
        sink.emit(RunEvent::Finished { model_answered });
        RunOutcome::Answered(Answer {
            text: if model_answered { text } else { fallback.to_owned() },
            model_answered,
            sources: state.sources.clone(),
            usage: state.counters.usage,
            tool_cost: state.counters.tool_cost,
        })
    }

    fn not_run(&self, call: &ToolCall) -> ToolReturn {
        ToolReturn::with_status(ToolStatus::Feedback, self.wording.call_not_run.clone()).for_call(call)
    }

    /// Asks the host to admit `call`; a refusal is the call's result.
    fn refusal(&self, offer: &Offer, call: &ToolCall, sink: &mut dyn EventSink) -> Option<ToolReturn> {
        let cost = offer.get(&call.name).and_then(|t| t.definition().cost);
        sink.admit(Step::Call { call_id: &call.id, tool: &call.name, cost })
            .err()
            .map(|reason| ToolReturn::with_status(ToolStatus::Blocked, reason).for_call(call))
    }

    fn sensitive(&self, name: &str) -> Vec<String> {
        self.registry().definition(name).map_or_else(Vec::new, |d| d.sensitive_arguments.clone())
    }

    /// Runs `calls` through the executor; while they run, the progress their tools report
    /// goes to `sink` as [`RunEvent::ToolProgress`] (at most 64 waiting: a flood is cut).
    async fn execute(
        &self,
        offer: &Offer,
        ctx: &Arc<RunContext>,
        calls: &[ToolCall],
        execution: &mut ExecutionState,
        sink: &mut dyn EventSink,
    ) -> BatchOutcome {
        if !sink.is_listening() {
            return self.executor.execute(offer, ctx, calls, execution).await;
        }
        let (tx, mut rx) = tokio::sync::mpsc::channel(64);
        let mut run = (**ctx).clone();
        run.progress = Some(ProgressSink::new(move |report| {
            let _ = tx.try_send(report);
        }));
        let run = Arc::new(run);
        let emit = |sink: &mut dyn EventSink, report: tackle_tools::Progress| {
            sink.emit(RunEvent::ToolProgress {
                call_id: report.call_id,
                name: report.tool,
                progress: report.progress,
                total: report.total,
                message: report.message,
            });
        };
        let execute = self.executor.execute(offer, &run, calls, execution);
        tokio::pin!(execute);
        loop {
            tokio::select! {
                outcome = &mut execute => {
                    while let Ok(report) = rx.try_recv() {
                        emit(sink, report);
                    }
                    return outcome;
                }
                Some(report) = rx.recv() => emit(sink, report),
            }
        }
    }

    fn emit_started<'c>(&self, sink: &mut dyn EventSink, calls: impl IntoIterator<Item = &'c ToolCall>) {
        if !sink.is_listening() {
            return;
        }
        for call in calls {
            sink.emit(RunEvent::ToolCallStarted {
                call_id: call.id.clone(),
                name: call.name.clone(),
                arguments: call.arguments.redacted(&self.sensitive(&call.name)),
            });
        }
    }

    fn emit_finished(&self, sink: &mut dyn EventSink, ret: &ToolReturn, took: Duration) {
        if !ret.is_ok() && ret.status.rule().reaches_model {
            tracing::info!(
                tool = %ret.tool_name,
                call_id = %ret.call_id,
                status = %ret.status,
                detail = ret.detail.as_deref().unwrap_or(""),
                "tool call did not succeed"
            );
        }
        if ret.status.rule().surfaces_to_host {
            tracing::warn!(
                tool = %ret.tool_name,
                status = %ret.status,
                detail = ret.detail.as_deref().unwrap_or(""),
                "a tool cannot run until the application is fixed"
            );
        }
        if sink.is_listening() && ret.status.rule().reaches_model {
            sink.emit(RunEvent::ToolCallFinished {
                call_id: ret.call_id.clone(),
                name: ret.tool_name.clone(),
                status: ret.status,
                duration: took,
                detail: ret.detail.clone(),
                cost: ret.cost,
                metadata: crate::state::bounded_metadata(ret.private_metadata.as_ref()),
                result: Some(ret.model_text().into_owned()),
            });
        }
        // Not only for listeners that render calls: the host must hear about this.
        if ret.status.rule().surfaces_to_host {
            sink.emit(RunEvent::HostAttention {
                call_id: ret.call_id.clone(),
                name: ret.tool_name.clone(),
                status: ret.status,
                detail: ret.detail.clone(),
            });
        }
    }

    async fn run_calls(
        &self,
        offer: &Offer,
        ctx: &Arc<RunContext>,
        state: &mut RunState,
        calls: Vec<ToolCall>,
        sink: &mut dyn EventSink,
        (started, interrupted): (Instant, Option<&str>),
    ) -> Result<BatchEnd, RunError> {
        let n = calls.len();
        let mut returns: Vec<Option<ToolReturn>> = vec![None; n];
        let mut counted = vec![true; n];
        let mut to_run = Vec::with_capacity(n);
        let mut planned = 0u32;
        for (i, call) in calls.iter().enumerate() {
            if state.final_round.is_none() {
                state.final_round = self.limit_reached(state, started, planned);
            }
            if state.final_round.is_some() {
                returns[i] = Some(self.not_run(call));
                counted[i] = false;
                continue;
            }
            planned += 1;
            if validate_tool_name(&call.name).is_err() {
                let text = self.wording.malformed(&call.name);
                returns[i] = Some(ToolReturn::with_status(ToolStatus::InvalidArguments, text).for_call(call));
                continue;
            }
            // Taken over: a call that may have started gets `interrupted` unless its tool
            // may run twice.
            if let Some(text) = interrupted
                && let Some(definition) = offer.get(&call.name).map(|t| t.definition())
                && !definition.idempotent
                && match definition.kind {
                    ToolKind::ApprovalRequired => state.execution.approved.contains(&call.id),
                    ToolKind::External | ToolKind::Deferred => false,
                    _ => true,
                }
            {
                returns[i] = Some(ToolReturn::with_status(ToolStatus::Failed, text).for_call(call));
                continue;
            }
            to_run.push(i);
        }
        let mut durations = vec![Duration::ZERO; n];
        let mut exhausted = None;
        // Calls that will wait (for a human or another worker) do not start now; those that
        // start now are admitted by the host first.
        let starts_now = |call: &ToolCall, approved: &std::collections::BTreeSet<String>| match offer
            .get(&call.name)
            .map(|t| t.definition().kind)
        {
            Some(ToolKind::ApprovalRequired) => approved.contains(&call.id),
            Some(ToolKind::External | ToolKind::Deferred) => false,
            _ => true,
        };
        {
            to_run.retain(|&i| {
                let call = &calls[i];
                if !starts_now(call, &state.execution.approved) {
                    return true;
                }
                match self.refusal(offer, call, sink) {
                    None => true,
                    Some(refused) => {
                        self.emit_finished(sink, &refused, Duration::ZERO);
                        returns[i] = Some(refused);
                        false
                    }
                }
            });
        }
        if !to_run.is_empty() {
            let subset: Vec<ToolCall>;
            let batch: &[ToolCall] = if to_run.len() == n {
                &calls
            } else {
                subset = to_run.iter().map(|&i| calls[i].clone()).collect();
                &subset
            };
            let approved = &state.execution.approved;
            self.emit_started(sink, batch.iter().filter(|call| starts_now(call, approved)));
            let outcome = self.execute(offer, ctx, batch, &mut state.execution, sink).await;
            exhausted = outcome.exhausted;
            for ((&i, ret), took) in to_run.iter().zip(outcome.returns).zip(outcome.durations) {
                self.emit_finished(sink, &ret, took);
                returns[i] = Some(ret);
                durations[i] = took;
            }
        }
        let returns: Vec<ToolReturn> = returns
            .into_iter()
            .zip(&calls)
            .map(|(ret, call)| ret.unwrap_or_else(|| self.not_run(call)))
            .collect();
        let batch = PendingBatch { calls, returns, durations, counted };
        let end = self.settle(state, batch, sink)?;
        if let Some(exhausted) = exhausted {
            return Err(RunError::RetryBudgetExhausted(exhausted));
        }
        if ctx.cancel.is_cancelled() {
            return Err(RunError::Cancelled);
        }
        Ok(end)
    }

    /// Finishes a batch: suspends when calls wait, else records every result in call order
    /// and updates counters, sources, confidence and traces.
    fn settle(
        &self,
        state: &mut RunState,
        batch: PendingBatch,
        sink: &mut dyn EventSink,
    ) -> Result<BatchEnd, RunError> {
        let waiting = self.pending_calls(&batch);
        if !waiting.is_empty() {
            sink.emit(RunEvent::Suspended { pending: waiting.clone() });
            state.pending = Some(batch);
            return Ok(BatchEnd::Suspended(waiting));
        }
        let PendingBatch { calls, returns, durations, counted } = batch;
        let mut new_sources = Vec::new();
        let mut parts = Vec::with_capacity(returns.len());
        for (((call, mut ret), took), counted) in calls.iter().zip(returns).zip(durations).zip(counted) {
            // What the model sees, rendered once (JSON) or moved (text): it is counted,
            // traced and sent from this one string.
            let shown = match std::mem::take(&mut ret.content) {
                ToolContent { text: Some(text), json: None } => text,
                other => other.model_text().into_owned(),
            };
            let c = &mut state.counters;
            if counted {
                c.tool_calls += 1;
                c.result_chars += shown.chars().count() as u64;
                state.traces.push(CallTrace {
                    order: c.tool_calls,
                    tool: call.name.clone(),
                    call_id: call.id.clone(),
                    status: ret.status,
                    duration: took,
                    arguments: call.arguments.redacted(&self.sensitive(&call.name)),
                    result: self.keep_results_in_traces.then(|| shown.clone()),
                    detail: ret.detail.clone(),
                    filter: ret.filter.clone(),
                    metadata: crate::state::bounded_metadata(ret.private_metadata.as_ref()),
                });
            }
            if let Some(report) = &ret.filter {
                sink.emit(RunEvent::ContentFiltered {
                    call_id: call.id.clone(),
                    name: call.name.clone(),
                    report: report.clone(),
                });
            }
            if let Some(cost) = ret.cost {
                c.tool_cost += cost;
            }
            if let Some(required) = ret.required_confidence {
                state.required_confidence = state.required_confidence.max(required);
            }
            if ret.is_ok() {
                for source in &ret.sources {
                    if !state.sources.iter().any(|s| s.url == source.url) {
                        state.sources.push(source.clone());
                        new_sources.push(source.clone());
                    }
                }
            }
            parts.push(tackle_core::ToolReturnPart {
                call_id: ret.call_id,
                tool_name: ret.tool_name,
                content: shown,
                status: ret.status,
                attachments: ret.attachments,
            });
        }
        state.messages.push(Message::tool_returns(parts));
        if !new_sources.is_empty() {
            sink.emit(RunEvent::Sources { sources: new_sources });
        }
        Ok(BatchEnd::Done)
    }
}

/// The OpenTelemetry GenAI span of a run (`invoke_agent`): its id, and how it ended.
fn run_span(run_id: &str, ctx: &RunContext) -> tracing::Span {
    let span = tracing::info_span!(
        "invoke_agent",
        "otel.name" = "invoke_agent tackle",
        "gen_ai.operation.name" = "invoke_agent",
        "gen_ai.agent.name" = "tackle",
        "gen_ai.conversation.id" = %telemetry::clip(run_id, 128),
        "error.type" = tracing::field::Empty,
        "otel.status_code" = tracing::field::Empty,
    );
    if let Some(parent) = &ctx.trace_parent {
        telemetry::adopt_parent(&span, parent);
    }
    span
}

/// The span of one model round (`chat {model}`): provider, model and, once the round is
/// done, its tokens — never the prompt or the answer.
fn chat_span(model: &dyn Model) -> tracing::Span {
    // Field values are worked out only when someone records the span.
    let split = || {
        let name = model.name();
        name.split_once(':').unwrap_or(("unknown", name))
    };
    tracing::info_span!(
        "chat",
        "otel.name" = %format_args!("chat {}", split().1),
        "gen_ai.operation.name" = "chat",
        "gen_ai.provider.name" = split().0,
        "gen_ai.request.model" = split().1,
        "gen_ai.usage.input_tokens" = tracing::field::Empty,
        "gen_ai.usage.output_tokens" = tracing::field::Empty,
        "error.type" = tracing::field::Empty,
        "otel.status_code" = tracing::field::Empty,
        "otel.kind" = "client",
    )
}

/// The low-cardinality `error.type` of a run error.
fn error_type(error: &RunError) -> &'static str {
    match error {
        RunError::Model(_) => "model",
        RunError::StreamCut => "stream_cut",
        RunError::ConfidenceTooLow { .. } => "confidence_too_low",
        RunError::RetryBudgetExhausted(_) => "retry_budget_exhausted",
        RunError::Cancelled => "cancelled",
        RunError::Stopped(_) => "stopped",
        RunError::Suspended | RunError::NotSuspended => "state",
        RunError::MissingDecision(_) | RunError::BadDecision { .. } => "decision",
    }
}

/// Runs a run's `work` inside its `span`, and records how it failed, when it did.
async fn in_run_span(
    span: tracing::Span,
    work: impl std::future::Future<Output = Result<RunOutcome, RunError>>,
) -> Result<RunOutcome, RunError> {
    let outcome = telemetry::in_span(work, &span).await;
    if let Err(error) = &outcome {
        span.record("error.type", error_type(error));
        span.record("otel.status_code", "ERROR");
    }
    outcome
}

/// Streams one round, passing deltas on as they arrive; returns the complete turn.
async fn stream_round(
    model: &dyn Model,
    request: ModelRequest<'_>,
    ctx: &RunContext,
    sink: &mut dyn EventSink,
) -> Result<AssistantTurn, RunError> {
    let mut stream = model.stream(request);
    loop {
        if ctx.cancel.is_cancelled() {
            return Err(RunError::Cancelled);
        }
        let next = tokio::select! {
            biased;
            next = stream.next() => next,
            () = ctx.cancel.cancelled() => return Err(RunError::Cancelled),
        };
        match next {
            None => return Err(RunError::StreamCut),
            Some(Err(error)) => return Err(RunError::Model(error)),
            Some(Ok(event)) => match event {
                ModelEvent::TextDelta(text) => sink.emit(RunEvent::TextDelta { text }),
                ModelEvent::ThinkingDelta(text) => sink.emit(RunEvent::ThinkingDelta { text }),
                ModelEvent::Completed(response) => return Ok(response.turn),
                // Call pieces are assembled by the adapter; usage arrives with the turn.
                _ => {}
            },
        }
    }
}

/// Checks a decision for every waiting call of `pending` before anything changes, so that a
/// mistake loses nothing; returns each decision with its call's place, answers completed
/// with the form's defaults.
fn plan_decisions(
    pending: &PendingBatch,
    decisions: impl IntoIterator<Item = (String, Decision)>,
) -> Result<Vec<(usize, Decision)>, RunError> {
    let mut decisions: HashMap<String, Decision> = decisions.into_iter().collect();
    // Check every decision before anything changes, so that a mistake loses nothing.
    let mut plan = Vec::new();
    for (index, call, kind) in pending.waiting() {
        let decision =
            decisions.remove(&call.id).ok_or_else(|| RunError::MissingDecision(call.id.clone()))?;
        let bad = |reason: &str| RunError::BadDecision { call_id: call.id.clone(), reason: reason.into() };
        match (&decision, kind) {
            (Decision::Approve | Decision::ApproveWithArguments { .. }, PendingKind::Deferred) => {
                return Err(bad("a deferred call needs a result, not an approval"));
            }
            (Decision::Result { .. } | Decision::Input { .. }, PendingKind::Approval) => {
                return Err(bad("a call waiting for approval needs an approval or a denial"));
            }
            (Decision::Input { .. }, PendingKind::Deferred) => {
                return Err(bad("a deferred call needs a result, not an answer"));
            }
            (
                Decision::Approve | Decision::ApproveWithArguments { .. } | Decision::Result { .. },
                PendingKind::Input,
            ) => {
                return Err(bad("a call that asked the user a question needs an answer or a denial"));
            }
            (Decision::Input { .. }, PendingKind::Input) => {}
            (Decision::ApproveWithArguments { arguments }, _) if !arguments.is_object() => {
                return Err(bad("edited arguments must be a JSON object"));
            }
            _ => {}
        }
        // Denying a question declines it: the call runs again and hears so. An answer
        // gets the form's defaults for the fields it leaves out, then must fit the form.
        let decision = match (decision, kind) {
            (Decision::Deny { .. }, PendingKind::Input) => {
                Decision::Input { response: InputResponse::decline() }
            }
            (Decision::Input { response }, PendingKind::Input) => {
                let asked = pending.returns[index].input_request.as_deref();
                let Some(asked) = asked else { return Err(bad("the call's question is lost")) };
                let response = tackle_tools::with_defaults(asked, response);
                tackle_tools::check_input(asked, &response).map_err(|e| bad(&e))?;
                Decision::Input { response }
            }
            (decision, _) => decision,
        };
        plan.push((index, decision));
    }
    if let Some(call_id) = decisions.into_keys().next() {
        return Err(RunError::BadDecision { call_id, reason: "no such call is waiting".into() });
    }
    Ok(plan)
}

/// The kind a waiting call of the batch had, by its index.
fn kind_of(kinds: &[(usize, PendingKind)], index: usize) -> Option<PendingKind> {
    kinds.iter().find(|(i, _)| *i == index).map(|(_, kind)| *kind)
}

//! The [`Executor`]: one path for every call.
//!
//! availability → argument validation (schema, then the tool's validators) → pre-hooks
//! (global, then the tool's) → the call, bounded by its timeout, cancellable, panics caught,
//! failures of idempotent tools retried with backoff → post-hooks (the tool's, then global)
//! → secrets removed → size cap → [`ToolReturn`].

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::{FutureExt, StreamExt, stream};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use tackle_core::{
    ResumedInput, ToolArguments, ToolCall, ToolContent, ToolError, ToolKind, ToolReturn, ToolStatus, wording,
};

use crate::context::{CallInfo, RunContext, ToolContext};
use crate::hooks::{PostHook, PreHook};
use crate::registry::{Offer, OfferedTool};
use crate::schema::shorten;
use tackle_core::Secret;
use tackle_core::telemetry::clip;

use crate::untrusted::{GuardFilter, UntrustedFilter, UntrustedText};

/// How the executor retries unexpected failures of idempotent tools.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct RetryPolicy {
    /// Attempts in all, the first included.
    pub max_attempts: u32,
    /// The wait before the second attempt; it doubles for each further one.
    pub initial_backoff: Duration,
    /// The longest wait.
    pub max_backoff: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            max_attempts: 3,
            initial_backoff: Duration::from_millis(100),
            max_backoff: Duration::from_secs(2),
        }
    }
}

impl RetryPolicy {
    /// At most `max_attempts` attempts, waiting from `initial_backoff` (doubling) up to
    /// `max_backoff` between them.
    pub fn new(max_attempts: u32, initial_backoff: Duration, max_backoff: Duration) -> Self {
        RetryPolicy { max_attempts, initial_backoff, max_backoff }
    }

    /// The wait after failed attempt `attempt` (1-based): exponential, with full jitter
    /// over its upper half so that many callers do not retry in step.
    pub fn backoff(&self, attempt: u32) -> Duration {
        let exp = self.initial_backoff.saturating_mul(1u32 << attempt.saturating_sub(1).min(16));
        let ceiling = exp.min(self.max_backoff);
        let half = ceiling / 2;
        half + half.mul_f64(fastrand::f64())
    }
}

/// What the executor remembers between batches of a run: model-retry counts per tool and
/// the calls a human approved. Serialisable, so that it survives a suspended run.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ExecutionState {
    /// Correction requests in a row, per tool name.
    #[serde(default)]
    pub model_retries: BTreeMap<String, u32>,
    /// Ids of calls a human approved and that have not run yet (or that wait for the
    /// user's input, and run again once it arrives).
    #[serde(default)]
    pub approved: BTreeSet<String>,
    /// Answers to questions calls asked, by call id: the call gets its answer the next time
    /// it runs.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub inputs: BTreeMap<String, ResumedInput>,
}

impl ExecutionState {
    /// Marks call `call_id` approved: the next time it is executed, it runs.
    pub fn approve(&mut self, call_id: impl Into<String>) {
        self.approved.insert(call_id.into());
    }

    /// Hands call `call_id` the answer to the question it asked: the next time it is
    /// executed, its context carries `input`.
    pub fn answer(&mut self, call_id: impl Into<String>, input: ResumedInput) {
        self.inputs.insert(call_id.into(), input);
    }
}

/// A tool's model-retry budget ran out: the run should end with this error.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("tool {tool:?} exceeded its retry budget of {budget}; the last problem was: {message}")]
pub struct RetryExhausted {
    /// The tool.
    pub tool: String,
    /// The last correction request the model got.
    pub message: String,
    /// The budget.
    pub budget: u32,
}

/// The results of one batch.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct BatchOutcome {
    /// One result per call, in call order.
    pub returns: Vec<ToolReturn>,
    /// How long each call took, in call order.
    pub durations: Vec<Duration>,
    /// Set when a tool's model-retry budget ran out in this batch.
    pub exhausted: Option<RetryExhausted>,
}

/// Runs tool calls. Cheap to clone; one executor serves many runs.
#[derive(Clone)]
pub struct Executor {
    concurrency: usize,
    default_timeout: Duration,
    default_max_retries: u32,
    max_result_chars: usize,
    retry: RetryPolicy,
    pre_hooks: Vec<Arc<dyn PreHook>>,
    post_hooks: Vec<Arc<dyn PostHook>>,
    untrusted: Arc<dyn UntrustedFilter>,
}

impl Default for Executor {
    fn default() -> Self {
        Executor::new()
    }
}

impl std::fmt::Debug for Executor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Executor")
            .field("concurrency", &self.concurrency)
            .field("default_timeout", &self.default_timeout)
            .field("default_max_retries", &self.default_max_retries)
            .field("max_result_chars", &self.max_result_chars)
            .field("retry", &self.retry)
            .finish_non_exhaustive()
    }
}

/// Who may run: everything the executor needs for one call.
struct CallPlan<'a> {
    tool: &'a OfferedTool,
    call: &'a ToolCall,
    prior_retries: u32,
    approved: bool,
    input: Option<ResumedInput>,
}

impl Executor {
    /// Calls run at most this many at a time, by default.
    pub const DEFAULT_CONCURRENCY: usize = 8;
    /// How long a call may take, by default.
    pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(120);
    /// Correction requests in a row a tool allows the model, by default.
    pub const DEFAULT_MAX_RETRIES: u32 = 3;
    /// The longest result the model is shown, in characters, by default.
    pub const DEFAULT_MAX_RESULT_CHARS: usize = 200_000;

    /// An executor with the defaults.
    pub fn new() -> Self {
        Executor {
            concurrency: Self::DEFAULT_CONCURRENCY,
            default_timeout: Self::DEFAULT_TIMEOUT,
            default_max_retries: Self::DEFAULT_MAX_RETRIES,
            max_result_chars: Self::DEFAULT_MAX_RESULT_CHARS,
            retry: RetryPolicy::default(),
            pre_hooks: Vec::new(),
            post_hooks: Vec::new(),
            untrusted: Arc::new(GuardFilter::default()),
        }
    }

    /// Runs at most `n` calls at a time (at least one).
    pub fn concurrency(mut self, n: usize) -> Self {
        self.concurrency = n.max(1);
        self
    }

    /// The timeout for tools that do not set their own.
    pub fn default_timeout(mut self, timeout: Duration) -> Self {
        self.default_timeout = timeout;
        self
    }

    /// The model-retry budget for tools that do not set their own.
    pub fn default_max_retries(mut self, retries: u32) -> Self {
        self.default_max_retries = retries;
        self
    }

    /// The longest result the model is shown, in characters.
    pub fn max_result_chars(mut self, chars: usize) -> Self {
        self.max_result_chars = chars;
        self
    }

    /// Filters the results of tools whose definitions say `returns_untrusted_content`
    /// with `filter` (after secrets are removed and the size cap applied), unless the tool
    /// filtered them itself. [`GuardFilter`](crate::untrusted::GuardFilter) at its default strictness by
    /// default; [`PassThrough`](crate::untrusted::PassThrough) switches filtering off.
    pub fn untrusted_filter(mut self, filter: Arc<dyn UntrustedFilter>) -> Self {
        self.untrusted = filter;
        self
    }

    /// How failures of idempotent tools are retried.
    pub fn retry_policy(mut self, policy: RetryPolicy) -> Self {
        self.retry = policy;
        self
    }

    /// Adds a hook that runs before every call.
    pub fn pre_hook(mut self, hook: Arc<dyn PreHook>) -> Self {
        self.pre_hooks.push(hook);
        self
    }

    /// Adds a hook that runs after every call.
    pub fn post_hook(mut self, hook: Arc<dyn PostHook>) -> Self {
        self.post_hooks.push(hook);
        self
    }

    /// Runs a batch of calls from one model turn.
    ///
    /// Independent calls run concurrently, at most [`Executor::concurrency`] at a time.
    /// Calls that share a tool name run one after another in model order, and a call of a
    /// sequential tool runs alone: after everything before it, before everything after it.
    /// Results always come back in call order.
    pub async fn execute(
        &self,
        offer: &Offer,
        run: &Arc<RunContext>,
        calls: &[ToolCall],
        state: &mut ExecutionState,
    ) -> BatchOutcome {
        let mut slots: Vec<Option<(ToolReturn, Duration)>> = Vec::with_capacity(calls.len());
        slots.resize_with(calls.len(), || None);
        let is_sequential = |call: &ToolCall| offer.get(&call.name).is_some_and(|t| t.definition.sequential);
        let state_view = &*state;

        let mut i = 0;
        while i < calls.len() {
            if is_sequential(&calls[i]) {
                slots[i] = Some(self.run_call(offer, run, &calls[i], state_view).await);
                i += 1;
                continue;
            }
            let start = i;
            while i < calls.len() && !is_sequential(&calls[i]) {
                i += 1;
            }
            if i - start == 1 {
                slots[start] = Some(self.run_call(offer, run, &calls[start], state_view).await);
                continue;
            }
            // Chains of calls that share a name, in model order; chains run concurrently.
            let mut chains: Vec<Vec<usize>> = Vec::new();
            let mut chain_of: HashMap<&str, usize> = HashMap::new();
            for (index, call) in calls.iter().enumerate().take(i).skip(start) {
                let chain = *chain_of.entry(call.name.as_str()).or_insert_with(|| {
                    chains.push(Vec::new());
                    chains.len() - 1
                });
                chains[chain].push(index);
            }
            let finished: Vec<Vec<(usize, (ToolReturn, Duration))>> = stream::iter(chains)
                .map(|chain| async move {
                    let mut out = Vec::with_capacity(chain.len());
                    for index in chain {
                        out.push((index, self.run_call(offer, run, &calls[index], state_view).await));
                    }
                    out
                })
                .buffer_unordered(self.concurrency)
                .collect()
                .await;
            for (index, result) in finished.into_iter().flatten() {
                slots[index] = Some(result);
            }
        }

        let mut returns = Vec::with_capacity(calls.len());
        let mut durations = Vec::with_capacity(calls.len());
        for (slot, call) in slots.into_iter().zip(calls) {
            // Every slot is filled above; a missing one would be a scheduling bug, reported
            // as a failure rather than a crash.
            let (ret, took) = slot.unwrap_or_else(|| {
                (
                    finish_ids(
                        ToolReturn::with_status(
                            ToolStatus::Failed,
                            wording::failed("internal scheduling error"),
                        ),
                        call,
                    ),
                    Duration::ZERO,
                )
            });
            returns.push(ret);
            durations.push(took);
        }
        let exhausted = self.account(offer, calls, &returns, state);
        BatchOutcome { returns, durations, exhausted }
    }

    /// Updates the model-retry counts in call order and forgets approvals that were used.
    fn account(
        &self,
        offer: &Offer,
        calls: &[ToolCall],
        returns: &[ToolReturn],
        state: &mut ExecutionState,
    ) -> Option<RetryExhausted> {
        let mut exhausted = None;
        for (call, ret) in calls.iter().zip(returns) {
            // A call that asked the user keeps its approval for when it runs again.
            if !matches!(ret.status, ToolStatus::ApprovalRequired | ToolStatus::InputRequired) {
                state.approved.remove(&call.id);
            }
            state.inputs.remove(&call.id);
            let Some(tool) = offer.get(&call.name) else { continue };
            let rule = ret.status.rule();
            if rule.model_retry {
                let used = state.model_retries.entry(call.name.clone()).or_default();
                *used += 1;
                let budget = tool.definition.max_retries.unwrap_or(self.default_max_retries);
                if *used > budget && exhausted.is_none() {
                    exhausted = Some(RetryExhausted {
                        tool: call.name.clone(),
                        message: ret.model_text().into_owned(),
                        budget,
                    });
                }
            } else if rule.resets_retry_budget {
                state.model_retries.remove(&call.name);
            }
        }
        exhausted
    }

    async fn run_call(
        &self,
        offer: &Offer,
        run: &Arc<RunContext>,
        call: &ToolCall,
        state: &ExecutionState,
    ) -> (ToolReturn, Duration) {
        let started = Instant::now();
        // An OpenTelemetry GenAI `execute_tool` span: names and ids, never arguments or
        // results.
        let span = tracing::info_span!(
            "execute_tool",
            "otel.name" = %format_args!("execute_tool {}", clip(&call.name, 64)),
            "gen_ai.operation.name" = "execute_tool",
            "gen_ai.tool.name" = clip(&call.name, 64),
            "gen_ai.tool.call.id" = clip(&call.id, 128),
            "gen_ai.tool.type" = "function",
            "error.type" = tracing::field::Empty,
            "gen_ai.tool.call.arguments" = tracing::field::Empty,
            "gen_ai.tool.call.result" = tracing::field::Empty,
            "otel.status_code" = tracing::field::Empty,
        );
        let ret = match offer.get(&call.name) {
            None => {
                finish_ids(error_return(ToolError::NotAvailable(shorten(&call.name, 64)), &call.name), call)
            }
            Some(tool) => {
                let plan = CallPlan {
                    tool,
                    call,
                    prior_retries: state.model_retries.get(&call.name).copied().unwrap_or(0),
                    approved: state.approved.contains(&call.id),
                    input: state.inputs.get(&call.id).cloned(),
                };
                tackle_core::telemetry::in_span(self.run_offered(run, plan), &span).await
            }
        };
        if !ret.is_ok() {
            span.record("error.type", ret.status.label());
            span.record("otel.status_code", "ERROR");
        }
        let took = started.elapsed();
        let capture = tackle_core::telemetry::capture_content() && !span.is_disabled();
        if capture || tackle_core::telemetry::metrics() {
            let offered = offer.get(&call.name);
            if capture {
                // Only when the operator asked for content, and then with sensitive
                // arguments masked; the result has had the run's secrets scrubbed already.
                let sensitive =
                    offered.map(|t| t.definition().sensitive_arguments.clone()).unwrap_or_default();
                span.record("gen_ai.tool.call.arguments", call.arguments.redacted(&sensitive).to_string());
                span.record("gen_ai.tool.call.result", ret.model_text().as_ref());
            }
            let tool = if offered.is_some() { clip(&call.name, 64) } else { "unknown" };
            tackle_core::telemetry::record_tool_call(tool, ret.status.label(), took);
        }
        tracing::debug!(tool = %call.name, call_id = %call.id, status = %ret.status, ?took, "tool call finished");
        (ret, took)
    }

    /// Takes a result that arrived from elsewhere (a deferred or external call) through
    /// the same last steps as an executed one: the call's id and name, every secret the
    /// run redacts and every secret setting of the tool removed, the size cap applied.
    pub fn accept_result(
        &self,
        offer: &Offer,
        run: &RunContext,
        call: &ToolCall,
        ret: ToolReturn,
    ) -> ToolReturn {
        let mut ret = finish_ids(ret, call);
        let mut secrets = run.redact.clone();
        if let Some(tool) = offer.get(&call.name) {
            let definition = tool.definition();
            let key = &*tool.registered.settings_key;
            for field in definition.settings.fields.iter().filter(|f| f.secret) {
                secrets.extend(run.settings.secret(key, &field.name));
            }
        }
        if !secrets.is_empty() {
            scrub(&mut ret, &secrets);
        }
        cap(&mut ret, self.max_result_chars);
        ret
    }

    async fn run_offered(&self, run: &Arc<RunContext>, plan: CallPlan<'_>) -> ToolReturn {
        let CallPlan { tool, call, prior_retries, approved, input } = plan;
        let definition = &*tool.definition;
        let ctx = ToolContext::new(
            Arc::clone(run),
            CallInfo {
                call_id: call.id.clone(),
                tool_name: call.name.clone(),
                settings_key: Arc::clone(&tool.registered.settings_key),
                definition: Some(Arc::clone(&tool.definition)),
                attempt: AtomicU32::new(1),
                model_retries: prior_retries,
                approved,
                input,
                secrets_read: Mutex::new(Vec::new()),
            },
        );
        // Validators and hooks are host code: a panic there fails the call, not the run.
        let outcome = AssertUnwindSafe(self.prepare_and_call(&ctx, tool, call))
            .catch_unwind()
            .await
            .unwrap_or_else(|panic| Err(crashed(&ctx, &*panic)));
        let mut ret = match outcome {
            Ok(ret) => ret,
            Err(error) => error_return(error, &call.name),
        };
        // A call that reached the tool is charged the definition's cost unless the tool
        // reported what it cost.
        let reached_tool = matches!(
            ret.status,
            ToolStatus::Ok
                | ToolStatus::Feedback
                | ToolStatus::ModelRetry
                | ToolStatus::Failed
                | ToolStatus::Timeout
        );
        if ret.cost.is_none() && reached_tool {
            ret.cost = definition.cost;
        }
        ret = finish_ids(ret, call);
        if ret.status.rule().reaches_model {
            let hooks = tool.registered.tool.post_hooks().iter().chain(&self.post_hooks);
            let ran = AssertUnwindSafe(async {
                for hook in hooks {
                    hook.after(&ctx, definition, &mut ret).await;
                }
            })
            .catch_unwind()
            .await;
            if let Err(panic) = ran {
                ret = error_return(crashed(&ctx, &*panic), &call.name);
            }
            ret = finish_ids(ret, call);
        }
        let mut secrets = ctx.secrets_read();
        secrets.extend(run.redact.iter().cloned());
        if !secrets.is_empty() {
            scrub(&mut ret, &secrets);
        }
        cap(&mut ret, self.max_result_chars);
        if definition.returns_untrusted_content && !ret.untrusted_filtered && ret.status.rule().reaches_model
        {
            self.filter_untrusted(&mut ret).await;
        }
        ret
    }

    /// Passes every text of `ret` the model will see through the untrusted filter, as one
    /// batch whose source is the tool's name.
    async fn filter_untrusted(&self, ret: &mut ToolReturn) {
        let mut texts = Vec::new();
        if let Some(text) = &ret.content.text {
            texts.push(UntrustedText {
                tool: ret.tool_name.clone(),
                source: ret.tool_name.clone(),
                field: "content",
                text: text.clone(),
            });
        }
        if let Some(json) = &ret.content.json {
            let mut strings = Vec::new();
            collect_strings(json, &mut strings);
            texts.extend(strings.into_iter().map(|text| UntrustedText {
                tool: ret.tool_name.clone(),
                source: ret.tool_name.clone(),
                field: "json",
                text,
            }));
        }
        if texts.is_empty() {
            return;
        }
        let expected = texts.len();
        let filtered = self.untrusted.filter(texts).await;
        if filtered.texts.len() != expected {
            // A filter that loses texts is broken; the results stay as they were.
            tracing::warn!(tool = %ret.tool_name, "the untrusted-content filter returned another number of texts");
            return;
        }
        let mut texts = filtered.texts.into_iter().map(|t| t.text);
        if ret.content.text.is_some() {
            ret.content.text = texts.next();
        }
        if let Some(json) = &mut ret.content.json {
            visit_strings(json, &mut |s| {
                if let Some(text) = texts.next() {
                    *s = text;
                }
            });
        }
        ret.untrusted_filtered = true;
        if !filtered.report.is_empty() {
            ret.filter = Some(filtered.report);
        }
    }

    async fn prepare_and_call(
        &self,
        ctx: &ToolContext,
        tool: &OfferedTool,
        call: &ToolCall,
    ) -> Result<ToolReturn, ToolError> {
        let definition = &*tool.definition;
        if ctx.is_cancelled() {
            return Err(ToolError::Cancelled);
        }
        let value = match &call.arguments {
            ToolArguments::Json(value @ Value::Object(_)) => value,
            other => {
                let problem = other.problem().unwrap_or_default();
                return Err(ToolError::InvalidArguments(problem));
            }
        };
        tool.schema.check(value).map_err(ToolError::InvalidArguments)?;
        let mut args = match value {
            Value::Object(map) => map.clone(),
            _ => Map::new(),
        };
        let dyn_tool = &tool.registered.tool;
        dyn_tool.validate(ctx, &mut args)?;

        let tool_hooks = dyn_tool.pre_hooks();
        if !self.pre_hooks.is_empty() || !tool_hooks.is_empty() {
            for hook in self.pre_hooks.iter().chain(tool_hooks) {
                hook.before(ctx, definition, &mut args).await?;
            }
            let rewritten = Value::Object(args);
            tool.schema.check(&rewritten).map_err(|problem| {
                ToolError::User(format!(
                    "a pre-hook produced arguments that do not match the schema: {problem}"
                ))
            })?;
            args = match rewritten {
                Value::Object(map) => map,
                _ => Map::new(),
            };
        }

        match definition.kind {
            ToolKind::ApprovalRequired if !ctx.approved() => return Err(ToolError::ApprovalRequired),
            ToolKind::External | ToolKind::Deferred => return Err(ToolError::Deferred),
            _ => {}
        }

        let timeout = definition.timeout.unwrap_or(self.default_timeout);
        let attempts = if definition.idempotent { self.retry.max_attempts.max(1) } else { 1 };
        let mut attempt = 1;
        loop {
            let this_args = if attempt < attempts { args.clone() } else { std::mem::take(&mut args) };
            ctx.call.attempt.store(attempt, Ordering::Relaxed);
            let outcome = guarded(dyn_tool.call(ctx.clone(), this_args), timeout, ctx).await;
            match outcome {
                Err(ToolError::Failed { .. }) if attempt < attempts => {
                    let wait = self.retry.backoff(attempt);
                    tokio::select! {
                        () = tokio::time::sleep(wait) => {}
                        () = ctx.cancellation().cancelled() => return Err(ToolError::Cancelled),
                    }
                    attempt += 1;
                }
                other => return other,
            }
        }
    }
}

/// Runs the tool's future under its timeout and the run's cancellation, catching panics.
async fn guarded(
    call: impl std::future::Future<Output = Result<ToolReturn, ToolError>>,
    timeout: Duration,
    ctx: &ToolContext,
) -> Result<ToolReturn, ToolError> {
    let call = AssertUnwindSafe(call).catch_unwind();
    tokio::select! {
        biased;
        outcome = tokio::time::timeout(timeout, call) => match outcome {
            Err(_) => Err(ToolError::Timeout(timeout)),
            Ok(Err(panic)) => Err(crashed(ctx, &*panic)),
            Ok(Ok(result)) => result,
        },
        () = ctx.cancellation().cancelled() => Err(ToolError::Cancelled),
    }
}

/// The failure for a panic: the model hears that the tool crashed; the panic message (which
/// may hold anything) goes to the host only, and the log names just the call.
fn crashed(ctx: &ToolContext, panic: &(dyn std::any::Any + Send)) -> ToolError {
    let detail = panic
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_default();
    tracing::error!(tool = %ctx.tool_name(), call_id = %ctx.call_id(), "tool panicked");
    ToolError::Failed { message: "the tool crashed".into(), source: Some(format!("panic: {detail}").into()) }
}

fn finish_ids(mut ret: ToolReturn, call: &ToolCall) -> ToolReturn {
    ret.call_id.clone_from(&call.id);
    ret.tool_name.clone_from(&call.name);
    ret
}

/// The return for an error: the model's text from the error table, the whole story for
/// the host in `detail` (a failure's cause chain, an integration mistake's message).
fn error_return(error: ToolError, tool: &str) -> ToolReturn {
    let mut ret = ToolReturn::with_status(error.kind(), error.model_text(tool));
    if let ToolError::InputRequired(request) = error {
        ret.input_request = Some(request);
        return ret;
    }
    ret.detail = match &error {
        ToolError::Failed { message, source: Some(source) } => {
            let chain = tackle_core::cause_chain(source.as_ref());
            Some(if message == tackle_core::wording::UNEXPECTED_FAILURE || chain.contains(message.as_str()) {
                chain
            } else {
                format!("{message}: {chain}")
            })
        }
        ToolError::User(message)
        | ToolError::Blocked(message)
        | ToolError::InvalidArguments(message)
        | ToolError::ModelRetry(message)
        | ToolError::Failed { message, source: None } => Some(message.clone()),
        ToolError::Feedback(_) | ToolError::ApprovalRequired | ToolError::Deferred => None,
        other => Some(other.to_string()),
    };
    ret
}

/// Every string value of `value`, in document order (the order `visit_strings` walks).
fn collect_strings(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::String(s) => out.push(s.clone()),
        Value::Array(items) => items.iter().for_each(|v| collect_strings(v, out)),
        Value::Object(map) => map.values().for_each(|v| collect_strings(v, out)),
        _ => {}
    }
}

/// Calls `f` on every string value of `value`, in document order.
fn visit_strings(value: &mut Value, f: &mut impl FnMut(&mut String)) {
    match value {
        Value::String(s) => f(s),
        Value::Array(items) => items.iter_mut().for_each(|v| visit_strings(v, f)),
        Value::Object(map) => map.values_mut().for_each(|v| visit_strings(v, f)),
        _ => {}
    }
}

/// Removes every secret value from what the model will see.
fn scrub(ret: &mut ToolReturn, secrets: &[Secret]) {
    fn scrub_str(text: &mut String, secrets: &[Secret]) {
        Secret::scrub_all(secrets, text);
    }
    fn scrub_value(value: &mut Value, secrets: &[Secret]) {
        match value {
            Value::String(s) => scrub_str(s, secrets),
            Value::Array(items) => items.iter_mut().for_each(|v| scrub_value(v, secrets)),
            Value::Object(map) => {
                let keyed = map
                    .keys()
                    .any(|k| secrets.iter().any(|s| !s.expose().is_empty() && k.contains(s.expose())));
                if keyed {
                    let old = std::mem::take(map);
                    for (mut k, v) in old {
                        scrub_str(&mut k, secrets);
                        map.insert(k, v);
                    }
                }
                map.values_mut().for_each(|v| scrub_value(v, secrets));
            }
            _ => {}
        }
    }
    if let Some(text) = &mut ret.content.text {
        scrub_str(text, secrets);
    }
    if let Some(json) = &mut ret.content.json {
        scrub_value(json, secrets);
    }
    if let Some(detail) = &mut ret.detail {
        scrub_str(detail, secrets);
    }
    if let Some(metadata) = &mut ret.private_metadata {
        scrub_value(metadata, secrets);
    }
    for source in &mut ret.sources {
        scrub_str(&mut source.url, secrets);
        if let Some(title) = &mut source.title {
            scrub_str(title, secrets);
        }
    }
}

/// Cuts what the model sees to `max` characters, with a marker saying so.
fn cap(ret: &mut ToolReturn, max: usize) {
    let text = ret.model_text();
    if text.len() <= max {
        return;
    }
    let Some((cut, _)) = text.char_indices().nth(max) else { return };
    let total = text.chars().count();
    let mut kept = text[..cut].to_owned();
    kept.push_str(&wording::truncated(max, total));
    ret.content = ToolContent::text(kept);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_grows_and_stays_bounded() {
        let policy = RetryPolicy::default();
        for attempt in 1..40 {
            let wait = policy.backoff(attempt);
            assert!(wait <= policy.max_backoff, "{attempt}: {wait:?}");
        }
        let first = policy.backoff(1);
        assert!(first >= Duration::from_millis(50) && first <= Duration::from_millis(100));
    }

    #[test]
    fn cap_counts_characters_and_marks_the_cut() {
        let mut ret = ToolReturn::text("ä".repeat(10));
        cap(&mut ret, 4);
        let text = ret.model_text();
        assert!(text.starts_with("ääää\n[…"), "{text}");
        assert!(text.contains("first 4 of 10 characters"), "{text}");
        let mut short = ToolReturn::text("äää");
        cap(&mut short, 3);
        assert_eq!(short.model_text(), "äää");
    }

    #[test]
    fn scrub_reaches_every_model_visible_field() {
        let secret = [Secret::new("hunter2")];
        let mut ret = ToolReturn::json(serde_json::json!({"a": ["x hunter2 y"], "hunter2": 1}))
            .with_sources([tackle_core::Source::new("https://h/?k=hunter2", Some("hunter2".into()))]);
        ret.content.text = Some("hunter2".into());
        ret.detail = Some("bad token hunter2".into());
        ret.private_metadata = Some(serde_json::json!({"diff": "+key = hunter2"}));
        scrub(&mut ret, &secret);
        let all = serde_json::to_string(&ret).unwrap();
        assert!(!all.contains("hunter2"), "{all}");
    }
}

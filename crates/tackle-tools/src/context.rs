//! What tools and policies see of a run: [`RunContext`] for offering, [`ToolContext`] for
//! one call.

use std::any::{Any, TypeId, type_name};
use std::collections::{BTreeSet, HashMap};
use std::fmt;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

use tackle_core::{Component, Confidence, ResumedInput, ToolDefinition, ToolError};
use tokio_util::sync::CancellationToken;

use tackle_core::Secret;

use crate::settings::Settings;

/// Typed dependencies a host hands to its tools (a database pool, an HTTP client, ...).
/// Cheap to clone.
#[derive(Clone, Default)]
pub struct Deps(Arc<HashMap<TypeId, Arc<dyn Any + Send + Sync>>>);

impl Deps {
    /// No dependencies.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds `value`, replacing an earlier value of the same type.
    pub fn with<T: Send + Sync + 'static>(mut self, value: T) -> Self {
        Arc::make_mut(&mut self.0).insert(TypeId::of::<T>(), Arc::new(value));
        self
    }

    /// The dependency of type `T`.
    pub fn get<T: Send + Sync + 'static>(&self) -> Option<&T> {
        self.0.get(&TypeId::of::<T>()).and_then(|v| v.downcast_ref())
    }
}

impl fmt::Debug for Deps {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Deps({} values)", self.0.len())
    }
}

/// A plan: the capabilities it switches on. Tools that declare a capability are offered
/// only when the plan enables it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct Plan {
    /// The plan's name, for reports.
    pub name: String,
    /// The capabilities it enables.
    pub capabilities: BTreeSet<String>,
}

impl Plan {
    /// A plan enabling `capabilities`.
    pub fn new<I: IntoIterator<Item = S>, S: Into<String>>(name: impl Into<String>, capabilities: I) -> Self {
        Plan { name: name.into(), capabilities: capabilities.into_iter().map(Into::into).collect() }
    }
}

/// What the user switched off.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct UserPreferences {
    /// Tools the user turned off, by name.
    pub disabled_tools: BTreeSet<String>,
    /// Capabilities the user turned off.
    pub disabled_capabilities: BTreeSet<String>,
}

impl UserPreferences {
    /// These tools switched off too.
    pub fn disable_tools<I: IntoIterator<Item = S>, S: Into<String>>(mut self, tools: I) -> Self {
        self.disabled_tools.extend(tools.into_iter().map(Into::into));
        self
    }

    /// These capabilities switched off too.
    pub fn disable_capabilities<I: IntoIterator<Item = S>, S: Into<String>>(
        mut self,
        capabilities: I,
    ) -> Self {
        self.disabled_capabilities.extend(capabilities.into_iter().map(Into::into));
        self
    }
}

/// Everything that decides which tools a run is offered, and what its tools share.
///
/// Built once per run (or per round, when something changes) and shared by reference.
/// Made with [`RunContext::new`]; its fields are set afterwards.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct RunContext {
    /// The run's id.
    pub run_id: String,
    /// Where in the host the run happens.
    pub component: Component,
    /// How far the current provider is trusted.
    pub provider_confidence: Confidence,
    /// Whether the current model can call tools at all.
    pub model_supports_tools: bool,
    /// The host's (or organisation's) switch for all tools.
    pub tools_enabled: bool,
    /// Tools the host or organisation switched off.
    pub disabled_tools: BTreeSet<String>,
    /// The plan, when plans gate tools.
    pub plan: Option<Plan>,
    /// What the user switched off.
    pub preferences: UserPreferences,
    /// A temporary conversation: tools that keep conversation state are not offered.
    pub temporary: bool,
    /// Capability tags active in this run; tools hidden by one of them are not offered.
    pub active_tags: BTreeSet<String>,
    /// Tool settings and secrets.
    pub settings: Settings,
    /// Typed dependencies for tools.
    pub deps: Deps,
    /// Cancels every call of the run.
    pub cancel: CancellationToken,
    /// Values that must never reach the model (API keys the host holds); the executor
    /// removes them from every result.
    pub redact: Vec<Secret>,
    /// Where tools' progress reports go while a call runs (the harness sets it when
    /// someone listens to the run's events).
    pub progress: Option<ProgressSink>,
    /// The trace the run belongs to when it was started on behalf of a traced request
    /// (a server takes it from the request's `traceparent`); the run's span joins it.
    pub trace_parent: Option<tackle_core::telemetry::TraceContext>,
}

/// How far a running call has come, as its tool reports it.
#[derive(Debug, Clone, PartialEq)]
pub struct Progress {
    /// The call.
    pub call_id: String,
    /// The tool.
    pub tool: String,
    /// How much is done (rising).
    pub progress: f64,
    /// Out of how much, when known.
    pub total: Option<f64>,
    /// What it is doing.
    pub message: Option<String>,
}

/// Receives [`Progress`] reports; it must not block (reports may be dropped).
#[derive(Clone)]
pub struct ProgressSink(Arc<dyn Fn(Progress) + Send + Sync>);

impl ProgressSink {
    /// A sink that hands each report to `f`.
    pub fn new(f: impl Fn(Progress) + Send + Sync + 'static) -> Self {
        ProgressSink(Arc::new(f))
    }
}

impl fmt::Debug for ProgressSink {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ProgressSink")
    }
}

impl RunContext {
    /// A context for run `run_id` in the chat component, with nothing restricted.
    pub fn new(run_id: impl Into<String>) -> Self {
        RunContext {
            run_id: run_id.into(),
            component: Component::chat(),
            provider_confidence: Confidence::None,
            model_supports_tools: true,
            tools_enabled: true,
            disabled_tools: BTreeSet::new(),
            plan: None,
            preferences: UserPreferences::default(),
            temporary: false,
            active_tags: BTreeSet::new(),
            settings: Settings::default(),
            deps: Deps::default(),
            cancel: CancellationToken::new(),
            redact: Vec::new(),
            progress: None,
            trace_parent: None,
        }
    }

    /// Sets the component.
    pub fn component(mut self, component: impl Into<Component>) -> Self {
        self.component = component.into();
        self
    }

    /// Sets the provider's confidence.
    pub fn confidence(mut self, level: Confidence) -> Self {
        self.provider_confidence = level;
        self
    }

    /// Sets the plan.
    pub fn plan(mut self, plan: Plan) -> Self {
        self.plan = Some(plan);
        self
    }

    /// Sets the settings.
    pub fn settings(mut self, settings: Settings) -> Self {
        self.settings = settings;
        self
    }

    /// Sets the dependencies.
    pub fn deps(mut self, deps: Deps) -> Self {
        self.deps = deps;
        self
    }

    /// Marks the conversation temporary.
    pub fn temporary(mut self, temporary: bool) -> Self {
        self.temporary = temporary;
        self
    }
}

/// What one call of a tool knows about itself and its run.
#[derive(Clone)]
pub struct ToolContext {
    pub(crate) run: Arc<RunContext>,
    pub(crate) call: Arc<CallInfo>,
}

pub(crate) struct CallInfo {
    pub(crate) call_id: String,
    pub(crate) tool_name: String,
    pub(crate) settings_key: Arc<str>,
    pub(crate) definition: Option<Arc<ToolDefinition>>,
    pub(crate) attempt: AtomicU32,
    pub(crate) model_retries: u32,
    pub(crate) approved: bool,
    pub(crate) input: Option<ResumedInput>,
    pub(crate) secrets_read: Mutex<Vec<Secret>>,
}

impl CallInfo {
    /// The call of a tool that `proxy` (a call of `call_tool`) makes on the model's behalf.
    pub(crate) fn for_target(
        proxy: &ToolContext,
        settings_key: &Arc<str>,
        definition: Arc<ToolDefinition>,
    ) -> CallInfo {
        CallInfo {
            call_id: proxy.call.call_id.clone(),
            tool_name: definition.name.clone(),
            settings_key: Arc::clone(settings_key),
            definition: Some(definition),
            attempt: AtomicU32::new(1),
            model_retries: proxy.call.model_retries,
            approved: false,
            input: None,
            secrets_read: Mutex::new(Vec::new()),
        }
    }
}

impl ToolContext {
    /// Whether someone listens to progress reports (so that a tool may skip asking for them).
    pub fn wants_progress(&self) -> bool {
        self.run.progress.is_some()
    }

    /// Reports how far this call has come (for the user; the model never sees it). Reports
    /// go nowhere when nobody listens; a message is cut to 200 characters.
    pub fn report_progress(&self, progress: f64, total: Option<f64>, message: Option<&str>) {
        if let Some(sink) = &self.run.progress
            && progress.is_finite()
        {
            (sink.0)(Progress {
                call_id: self.call.call_id.clone(),
                tool: self.call.tool_name.clone(),
                progress,
                total: total.filter(|t| t.is_finite()),
                message: message.map(|m| m.chars().take(200).collect()),
            });
        }
    }

    /// Takes over the secrets `other` read, so that they are removed from this call's result.
    pub(crate) fn absorb_secrets(&self, other: &ToolContext) {
        let read = other.secrets_read();
        self.call.secrets_read.lock().unwrap_or_else(|p| p.into_inner()).extend(read);
    }

    pub(crate) fn new(run: Arc<RunContext>, call: CallInfo) -> Self {
        ToolContext { run, call: Arc::new(call) }
    }

    /// A context for calling a tool directly, outside an executor (tests, examples).
    pub fn detached(run: Arc<RunContext>, call_id: impl Into<String>, tool_name: impl Into<String>) -> Self {
        let tool_name = tool_name.into();
        ToolContext::new(
            run,
            CallInfo {
                call_id: call_id.into(),
                settings_key: Arc::from(tool_name.as_str()),
                definition: None,
                tool_name,
                attempt: AtomicU32::new(1),
                model_retries: 0,
                approved: false,
                input: None,
                secrets_read: Mutex::new(Vec::new()),
            },
        )
    }

    /// The run's id.
    pub fn run_id(&self) -> &str {
        &self.run.run_id
    }

    /// The id of this call.
    pub fn call_id(&self) -> &str {
        &self.call.call_id
    }

    /// The name the model called the tool by.
    pub fn tool_name(&self) -> &str {
        &self.call.tool_name
    }

    /// Which attempt this is: 1, then higher when the executor retries a failure.
    pub fn attempt(&self) -> u32 {
        self.call.attempt.load(Ordering::Relaxed)
    }

    /// How many correction requests in a row this tool has already cost the model.
    pub fn model_retries(&self) -> u32 {
        self.call.model_retries
    }

    /// Whether a human approved this call.
    pub fn approved(&self) -> bool {
        self.call.approved
    }

    /// The question this call asked the user in an earlier run, with the answer: set when
    /// the call runs again after returning [`ToolError::InputRequired`].
    pub fn input(&self) -> Option<&ResumedInput> {
        self.call.input.as_ref()
    }

    /// This context with `input` as the answer to a question the call asked (for calling
    /// a tool directly, outside an executor).
    pub fn with_input(self, input: ResumedInput) -> Self {
        let call = &*self.call;
        let info = CallInfo {
            call_id: call.call_id.clone(),
            tool_name: call.tool_name.clone(),
            settings_key: Arc::clone(&call.settings_key),
            definition: call.definition.clone(),
            attempt: AtomicU32::new(call.attempt.load(Ordering::Relaxed)),
            model_retries: call.model_retries,
            approved: call.approved,
            input: Some(input),
            secrets_read: Mutex::new(Vec::new()),
        };
        ToolContext { run: self.run, call: Arc::new(info) }
    }

    /// The run's context.
    pub fn run(&self) -> &RunContext {
        &self.run
    }

    /// Cancelled when the run (or this call) is cancelled; long-running tools should watch it.
    pub fn cancellation(&self) -> &CancellationToken {
        &self.run.cancel
    }

    /// Whether the run was cancelled.
    pub fn is_cancelled(&self) -> bool {
        self.run.cancel.is_cancelled()
    }

    /// The dependency of type `T`.
    pub fn dep<T: Send + Sync + 'static>(&self) -> Option<&T> {
        self.run.deps.get::<T>()
    }

    /// The dependency of type `T`, or an integration error naming the missing type.
    pub fn require<T: Send + Sync + 'static>(&self) -> Result<&T, ToolError> {
        self.dep::<T>().ok_or_else(|| {
            ToolError::User(format!("the host did not provide the dependency `{}`", type_name::<T>()))
        })
    }

    /// The plain value of this tool's setting `field` (locked → user → default).
    pub fn setting(&self, field: &str) -> Option<&str> {
        let key = &*self.call.settings_key;
        match self.call.definition.as_ref().and_then(|d| d.settings.field(field)) {
            Some(declared) => self.run.settings.resolve(key, declared).map(|(v, _)| v),
            None => self.run.settings.layered(key, field).map(|(v, _)| v),
        }
    }

    /// The secret value of this tool's setting `field`. The executor removes every secret
    /// a tool read from that tool's result before the model sees it.
    pub fn secret(&self, field: &str) -> Option<Secret> {
        let secret = self.run.settings.secret(&self.call.settings_key, field)?;
        let mut read = self.call.secrets_read.lock().unwrap_or_else(|p| p.into_inner());
        read.push(secret.clone());
        Some(secret)
    }

    pub(crate) fn secrets_read(&self) -> Vec<Secret> {
        self.call.secrets_read.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }
}

impl fmt::Debug for ToolContext {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolContext")
            .field("run_id", &self.run.run_id)
            .field("call_id", &self.call.call_id)
            .field("tool_name", &self.call.tool_name)
            .field("attempt", &self.attempt())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Db(&'static str);

    #[test]
    fn typed_dependencies() {
        let run = Arc::new(RunContext::new("r1").deps(Deps::new().with(Db("pg")).with(7u32)));
        let ctx = ToolContext::detached(run, "c1", "lookup");
        assert_eq!(ctx.dep::<Db>().map(|d| d.0), Some("pg"));
        assert_eq!(ctx.dep::<u32>(), Some(&7));
        let err = ctx.require::<String>().unwrap_err();
        assert!(err.to_string().contains("alloc::string::String"), "{err}");
        assert_eq!(err.kind(), tackle_core::ToolStatus::UserError);
    }
}

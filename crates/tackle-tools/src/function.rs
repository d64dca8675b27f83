//! [`FunctionTool`]: a tool made from a closure, with a builder that sets every
//! definition field and validates the result.

use std::fmt;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use tackle_core::{
    Component, Confidence, Cost, DefinitionError, JsonSchema, PolicyInstruction, SettingField,
    ToolDefinition, ToolError, ToolKind, ToolReturn,
};

use crate::context::{RunContext, ToolContext};
use crate::hooks::{PostHook, PreHook};
use crate::schema::{CompiledSchema, schema_for};
use crate::tool::{BoxFuture, DynTool, Prepared, ToolOutput, parse_args};

type Handler = Arc<
    dyn Fn(ToolContext, Map<String, Value>) -> BoxFuture<'static, Result<ToolReturn, ToolError>>
        + Send
        + Sync,
>;
type Validator = Arc<dyn Fn(&ToolContext, &mut Map<String, Value>) -> Result<(), String> + Send + Sync>;
type Availability = Arc<dyn Fn(&RunContext) -> bool + Send + Sync>;
type PrepareFn = Arc<dyn Fn(&RunContext, &ToolDefinition) -> Option<ToolDefinition> + Send + Sync>;

/// A tool made from a closure. Build one with [`typed_tool`] or [`function_tool`].
#[derive(Clone)]
pub struct FunctionTool {
    definition: ToolDefinition,
    parts: FunctionToolParts,
}

impl fmt::Debug for FunctionTool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FunctionTool").field("definition", &self.definition).finish_non_exhaustive()
    }
}

impl FunctionTool {
    /// The tool's definition.
    pub fn definition(&self) -> &ToolDefinition {
        &self.definition
    }
}

impl DynTool for FunctionTool {
    fn definition(&self) -> Result<ToolDefinition, DefinitionError> {
        Ok(self.definition.clone())
    }

    fn call<'a>(
        &'a self,
        ctx: ToolContext,
        args: Map<String, Value>,
    ) -> BoxFuture<'a, Result<ToolReturn, ToolError>> {
        (self.parts.handler)(ctx, args)
    }

    fn validate(&self, ctx: &ToolContext, args: &mut Map<String, Value>) -> Result<(), ToolError> {
        for validator in &self.parts.validators {
            validator(ctx, args).map_err(ToolError::InvalidArguments)?;
        }
        Ok(())
    }

    fn is_available(&self, run: &RunContext) -> bool {
        self.parts.availability.iter().all(|available| available(run))
    }

    fn prepare(&self, run: &RunContext, definition: &ToolDefinition) -> Prepared {
        match &self.parts.prepare {
            None => Prepared::Unchanged,
            Some(prepare) => match prepare(run, definition) {
                Some(prepared) => Prepared::Replaced(Box::new(prepared)),
                None => Prepared::Hidden,
            },
        }
    }

    fn pre_hooks(&self) -> &[Arc<dyn PreHook>] {
        &self.parts.pre_hooks
    }

    fn post_hooks(&self) -> &[Arc<dyn PostHook>] {
        &self.parts.post_hooks
    }
}

/// A tool whose arguments are the Rust type `A`: the schema is derived from `A` (field
/// doc comments become descriptions, `#[serde(default)]` fields are optional) and the
/// arguments are parsed with serde before `f` runs.
///
/// ```
/// use schemars::JsonSchema;
/// use serde::Deserialize;
/// use tackle_tools::{ToolContext, ToolError, typed_tool};
///
/// #[derive(Deserialize, JsonSchema)]
/// struct EchoArgs {
///     /// The text to send back.
///     text: String,
/// }
///
/// let echo = typed_tool("echo", "Send the text back.", |_ctx: ToolContext, args: EchoArgs| async move {
///     Ok::<_, ToolError>(args.text)
/// })
/// .timeout(std::time::Duration::from_secs(5))
/// .build()
/// .unwrap();
/// assert_eq!(echo.definition().parameters.required_names().collect::<Vec<_>>(), ["text"]);
/// ```
pub fn typed_tool<A, O, F, Fut>(name: impl Into<String>, description: impl Into<String>, f: F) -> ToolBuilder
where
    A: DeserializeOwned + schemars::JsonSchema + Send + 'static,
    O: ToolOutput + 'static,
    F: Fn(ToolContext, A) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<O, ToolError>> + Send + 'static,
{
    let f = Arc::new(f);
    let handler: Handler = Arc::new(move |ctx, args| {
        let f = Arc::clone(&f);
        Box::pin(async move {
            let args = parse_args::<A>(args)?;
            f(ctx, args).await?.into_return()
        })
    });
    let parameters = schema_for::<A>().map_err(|e| DefinitionError::Parameters(e.to_string()));
    ToolBuilder::new(name.into(), description.into(), parameters, handler)
}

/// A tool with a raw JSON Schema (from MCP, a file, ...); `f` receives the arguments as
/// a JSON object that passed the schema.
///
/// ```
/// use serde_json::json;
/// use tackle_tools::{ToolContext, ToolError, ToolReturn, function_tool};
///
/// let shout = function_tool(
///     "shout",
///     "Upper-case a text.",
///     json!({"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}),
///     |_ctx: ToolContext, args| async move {
///         let text = args["text"].as_str().unwrap_or_default().to_uppercase();
///         Ok::<_, ToolError>(ToolReturn::text(text))
///     },
/// )
/// .build()
/// .unwrap();
/// assert_eq!(shout.definition().name, "shout");
/// ```
pub fn function_tool<O, F, Fut>(
    name: impl Into<String>,
    description: impl Into<String>,
    parameters: Value,
    f: F,
) -> ToolBuilder
where
    O: ToolOutput + 'static,
    F: Fn(ToolContext, Map<String, Value>) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<O, ToolError>> + Send + 'static,
{
    let f = Arc::new(f);
    let handler: Handler = Arc::new(move |ctx, args| {
        let f = Arc::clone(&f);
        Box::pin(async move { f(ctx, args).await?.into_return() })
    });
    let parameters = JsonSchema::new(parameters).map_err(|e| DefinitionError::Parameters(e.to_string()));
    ToolBuilder::new(name.into(), description.into(), parameters, handler)
}

/// Why a tool could not be built: every rule its definition breaks.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("tool {name:?} is not valid: {}", .errors.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))]
pub struct ToolBuildError {
    /// The tool's name.
    pub name: String,
    /// The broken rules.
    pub errors: Vec<DefinitionError>,
}

/// Builds a [`FunctionTool`]: every definition field has a setter, and
/// [`ToolBuilder::build`] checks the whole definition and compiles its schema.
#[must_use]
pub struct ToolBuilder {
    name: String,
    definition: Result<ToolDefinition, DefinitionError>,
    tool: FunctionToolParts,
}

#[derive(Clone)]
struct FunctionToolParts {
    handler: Handler,
    validators: Vec<Validator>,
    availability: Vec<Availability>,
    prepare: Option<PrepareFn>,
    pre_hooks: Vec<Arc<dyn PreHook>>,
    post_hooks: Vec<Arc<dyn PostHook>>,
}

impl ToolBuilder {
    /// A tool from a complete definition — read from a file, or listed by an MCP server —
    /// whose calls `f` answers with JSON arguments that passed the schema. Every field of the
    /// definition is kept; [`ToolBuilder::build`] checks them all.
    ///
    /// ```
    /// use tackle_core::ToolDefinition;
    /// use tackle_tools::{ToolBuilder, ToolContext, ToolError};
    ///
    /// let definition: ToolDefinition = serde_json::from_str(r#"{
    ///     "name": "ping", "description": "Answer pong.",
    ///     "parameters": {"type": "object", "properties": {}},
    ///     "timeout": 500, "idempotent": true
    /// }"#)?;
    /// let ping = ToolBuilder::from_definition(definition, |_ctx: ToolContext, _args| async move {
    ///     Ok::<_, ToolError>("pong")
    /// })
    /// .build()?;
    /// assert!(ping.definition().idempotent);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_definition<O, F, Fut>(definition: ToolDefinition, f: F) -> ToolBuilder
    where
        O: ToolOutput + 'static,
        F: Fn(ToolContext, Map<String, Value>) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<O, ToolError>> + Send + 'static,
    {
        let mut builder = function_tool(
            definition.name.clone(),
            definition.description.clone(),
            Value::Object(definition.parameters.as_map().clone()),
            f,
        );
        builder.definition = Ok(definition);
        builder
    }

    fn new(
        name: String,
        description: String,
        parameters: Result<JsonSchema, DefinitionError>,
        handler: Handler,
    ) -> Self {
        ToolBuilder {
            definition: parameters.map(|p| ToolDefinition::new(name.clone(), description, p)),
            name,
            tool: FunctionToolParts {
                handler,
                validators: Vec::new(),
                availability: Vec::new(),
                prepare: None,
                pre_hooks: Vec::new(),
                post_hooks: Vec::new(),
            },
        }
    }

    fn edit(mut self, f: impl FnOnce(&mut ToolDefinition)) -> Self {
        if let Ok(definition) = &mut self.definition {
            f(definition);
        }
        self
    }

    /// Replaces the description.
    pub fn description(self, description: impl Into<String>) -> Self {
        self.edit(|d| d.description = description.into())
    }

    /// Sets the strict-schema preference.
    pub fn strict(self, strict: bool) -> Self {
        self.edit(|d| d.strict = Some(strict))
    }

    /// Calls of this tool run alone, in model order.
    pub fn sequential(self) -> Self {
        self.edit(|d| d.sequential = true)
    }

    /// How long one call may take.
    pub fn timeout(self, timeout: Duration) -> Self {
        self.edit(|d| d.timeout = Some(timeout))
    }

    /// How many correction requests in a row the model gets for this tool.
    pub fn max_retries(self, retries: u32) -> Self {
        self.edit(|d| d.max_retries = Some(retries))
    }

    /// Unexpected failures may be retried by the executor.
    pub fn idempotent(self) -> Self {
        self.edit(|d| d.idempotent = true)
    }

    /// Sets how calls are carried out.
    pub fn kind(self, kind: ToolKind) -> Self {
        self.edit(|d| d.kind = kind)
    }

    /// Calls need a human's approval.
    pub fn requires_approval(self) -> Self {
        self.kind(ToolKind::ApprovalRequired)
    }

    /// Adds a capability tag.
    pub fn tag(self, tag: impl Into<String>) -> Self {
        self.edit(|d| d.tags.push(tag.into()))
    }

    /// Hides the tool while `tag` is active.
    pub fn hidden_by_tag(self, tag: impl Into<String>) -> Self {
        self.edit(|d| d.hidden_by_tags.push(tag.into()))
    }

    /// Adds a system-prompt instruction in the tool's own group.
    pub fn policy(self, text: impl Into<String>) -> Self {
        self.edit(|d| d.policy = Some(PolicyInstruction { group: None, text: text.into() }))
    }

    /// Adds a system-prompt instruction shared with the other tools of `group`.
    pub fn policy_in_group(self, group: impl Into<String>, text: impl Into<String>) -> Self {
        self.edit(|d| d.policy = Some(PolicyInstruction { group: Some(group.into()), text: text.into() }))
    }

    /// The lowest provider confidence the tool may be offered to.
    pub fn min_confidence(self, level: Confidence) -> Self {
        self.edit(|d| d.min_confidence = level)
    }

    /// Limits the tool to `component` (call again to allow more).
    pub fn allow_in(self, component: impl Into<Component>) -> Self {
        self.edit(|d| d.visibility.allowed.push(component.into()))
    }

    /// Never offers the tool in `component`.
    pub fn deny_in(self, component: impl Into<Component>) -> Self {
        self.edit(|d| d.visibility.denied.push(component.into()))
    }

    /// Declares a setting.
    pub fn setting(self, field: SettingField) -> Self {
        self.edit(|d| d.settings.fields.push(field))
    }

    /// Results contain untrusted outside content.
    pub fn returns_untrusted_content(self) -> Self {
        self.edit(|d| d.returns_untrusted_content = true)
    }

    /// Keeps argument `name` out of traces and logs.
    pub fn sensitive_argument(self, name: impl Into<String>) -> Self {
        self.edit(|d| d.sensitive_arguments.push(name.into()))
    }

    /// What one call costs.
    pub fn cost(self, cost: Cost) -> Self {
        self.edit(|d| d.cost = Some(cost))
    }

    /// The plan capability that switches the tool on.
    pub fn capability(self, capability: impl Into<String>) -> Self {
        self.edit(|d| d.capability = Some(capability.into()))
    }

    /// The tool keeps conversation state; temporary conversations go without it.
    pub fn keeps_conversation_state(self) -> Self {
        self.edit(|d| d.keeps_conversation_state = true)
    }

    /// One sentence saying when to use the tool, for small models (see
    /// [`ToolDefinition::routing_hint`]).
    pub fn routing_hint(self, hint: impl Into<String>) -> Self {
        self.edit(|d| d.routing_hint = Some(hint.into()))
    }

    /// The schema of a successful result.
    pub fn return_schema(self, schema: Value) -> Self {
        self.edit(|d| d.return_schema = Some(schema))
    }

    /// The schema of a successful result, derived from `T`.
    pub fn returns<T: schemars::JsonSchema>(self) -> Self {
        self.return_schema(crate::schema::generator().into_root_schema_for::<T>().to_value())
    }

    /// Adds an argument validator. Validators run in order after schema validation; each
    /// may normalise the arguments in place, or reject them with a message for the model.
    pub fn validator<F>(mut self, f: F) -> Self
    where
        F: Fn(&ToolContext, &mut Map<String, Value>) -> Result<(), String> + Send + Sync + 'static,
    {
        self.tool.validators.push(Arc::new(f));
        self
    }

    /// Offers the tool only in runs where `f` holds.
    pub fn available_when<F>(mut self, f: F) -> Self
    where
        F: Fn(&RunContext) -> bool + Send + Sync + 'static,
    {
        self.tool.availability.push(Arc::new(f));
        self
    }

    /// Rewrites the definition per run; returning `None` hides the tool for that run.
    pub fn prepare<F>(mut self, f: F) -> Self
    where
        F: Fn(&RunContext, &ToolDefinition) -> Option<ToolDefinition> + Send + Sync + 'static,
    {
        self.tool.prepare = Some(Arc::new(f));
        self
    }

    /// Adds a hook that runs before this tool's calls.
    pub fn pre_hook(mut self, hook: Arc<dyn PreHook>) -> Self {
        self.tool.pre_hooks.push(hook);
        self
    }

    /// Adds a hook that runs after this tool's calls.
    pub fn post_hook(mut self, hook: Arc<dyn PostHook>) -> Self {
        self.tool.post_hooks.push(hook);
        self
    }

    /// Checks the definition and builds the tool.
    pub fn build(self) -> Result<FunctionTool, ToolBuildError> {
        let fail = |errors| ToolBuildError { name: self.name.clone(), errors };
        let definition = self.definition.clone().map_err(|e| fail(vec![e]))?;
        let mut errors = definition.check();
        if let Err(e) = CompiledSchema::parameters(&definition.parameters) {
            errors.push(e);
        }
        if let Some(schema) = &definition.return_schema
            && let Err(e) = CompiledSchema::compile(schema)
        {
            errors.push(DefinitionError::ReturnSchema(e));
        }
        if !errors.is_empty() {
            return Err(fail(errors));
        }
        Ok(FunctionTool { definition, parts: self.tool })
    }
}

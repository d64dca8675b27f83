//! The two tool traits: [`Tool`] for authors (typed arguments), [`DynTool`] for the
//! registry (object-safe, JSON arguments), joined by a blanket impl.

use std::future::Future;
use std::pin::Pin;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use tackle_core::{DefinitionError, ToolContent, ToolDefinition, ToolError, ToolReturn};

use crate::context::{RunContext, ToolContext};
use crate::hooks::{PostHook, PreHook};
use crate::schema::schema_for;

/// A boxed future, as object-safe traits return them.
pub(crate) type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// A tool as the registry and executor see it: a definition and a call on JSON arguments.
///
/// Only [`DynTool::definition`] and [`DynTool::call`] are required. Implement [`Tool`]
/// instead when the arguments have a Rust type; it gets this trait for free.
pub trait DynTool: Send + Sync + 'static {
    /// The tool's definition. Called once, when the tool is registered.
    fn definition(&self) -> Result<ToolDefinition, DefinitionError>;

    /// Runs the tool with arguments that passed schema validation.
    fn call<'a>(
        &'a self,
        ctx: ToolContext,
        args: Map<String, Value>,
    ) -> BoxFuture<'a, Result<ToolReturn, ToolError>>;

    /// Checks (and may normalise) the arguments after schema validation, before the hooks.
    fn validate(&self, _ctx: &ToolContext, _args: &mut Map<String, Value>) -> Result<(), ToolError> {
        Ok(())
    }

    /// Whether the tool may be offered in this run.
    fn is_available(&self, _run: &RunContext) -> bool {
        true
    }

    /// Rewrites or hides the definition for one run.
    fn prepare(&self, _run: &RunContext, _definition: &ToolDefinition) -> Prepared {
        Prepared::Unchanged
    }

    /// Hooks that run before this tool's calls, after the global ones.
    fn pre_hooks(&self) -> &[std::sync::Arc<dyn PreHook>] {
        &[]
    }

    /// Hooks that run after this tool's calls, before the global ones.
    fn post_hooks(&self) -> &[std::sync::Arc<dyn PostHook>] {
        &[]
    }
}

/// What a prepare step made of a definition for one run.
#[derive(Debug, Clone, PartialEq)]
pub enum Prepared {
    /// Offer the definition as registered.
    Unchanged,
    /// Do not offer the tool in this run.
    Hidden,
    /// Offer this definition instead (the name must stay the same).
    Replaced(Box<ToolDefinition>),
}

/// What a tool function may return: a full [`ToolReturn`], text, or JSON.
pub trait ToolOutput: Send {
    /// Converts into a successful return (or an error when serialising fails).
    fn into_return(self) -> Result<ToolReturn, ToolError>;
}

impl ToolOutput for ToolReturn {
    fn into_return(self) -> Result<ToolReturn, ToolError> {
        Ok(self)
    }
}

impl ToolOutput for ToolContent {
    fn into_return(self) -> Result<ToolReturn, ToolError> {
        Ok(ToolReturn::new(self))
    }
}

impl ToolOutput for String {
    fn into_return(self) -> Result<ToolReturn, ToolError> {
        Ok(ToolReturn::text(self))
    }
}

impl ToolOutput for &'static str {
    fn into_return(self) -> Result<ToolReturn, ToolError> {
        Ok(ToolReturn::text(self))
    }
}

impl ToolOutput for Value {
    fn into_return(self) -> Result<ToolReturn, ToolError> {
        Ok(ToolReturn::json(self))
    }
}

impl ToolOutput for () {
    fn into_return(self) -> Result<ToolReturn, ToolError> {
        Ok(ToolReturn::text("done"))
    }
}

macro_rules! json_output {
    ($($t:ty),*) => {$(
        impl ToolOutput for $t {
            fn into_return(self) -> Result<ToolReturn, ToolError> {
                Ok(ToolReturn::json(Value::from(self)))
            }
        }
    )*};
}
json_output!(bool, i8, i16, i32, i64, u8, u16, u32, u64, f32, f64);

/// Any serialisable value as a JSON result: `Ok(Json(report))`.
#[derive(Debug, Clone, PartialEq)]
pub struct Json<T>(pub T);

impl<T: Serialize + Send> ToolOutput for Json<T> {
    fn into_return(self) -> Result<ToolReturn, ToolError> {
        serde_json::to_value(&self.0)
            .map(ToolReturn::json)
            .map_err(|e| ToolError::failed(format!("the result could not be serialised ({e})")))
    }
}

/// A tool with typed arguments. The parameters schema is derived from `Args`
/// (serde + schemars); bad arguments become correction requests, never panics.
///
/// ```
/// use schemars::JsonSchema;
/// use serde::Deserialize;
/// use tackle_tools::{Tool, ToolContext, ToolError};
///
/// #[derive(Deserialize, JsonSchema)]
/// struct AddArgs {
///     /// The first addend.
///     a: i64,
///     /// The second addend.
///     b: i64,
/// }
///
/// struct Add;
///
/// impl Tool for Add {
///     type Args = AddArgs;
///     type Output = i64;
///     fn name(&self) -> &str { "add" }
///     fn description(&self) -> &str { "Add two integers." }
///     async fn call(&self, _ctx: ToolContext, args: AddArgs) -> Result<i64, ToolError> {
///         args.a.checked_add(args.b).ok_or_else(|| ToolError::feedback("the sum overflows"))
///     }
/// }
///
/// let registry = tackle_tools::ToolRegistry::builder().tool(Add).build().unwrap();
/// assert_eq!(registry.len(), 1);
/// ```
pub trait Tool: Send + Sync + 'static {
    /// The argument type.
    type Args: DeserializeOwned + schemars::JsonSchema + Send + 'static;
    /// The output type.
    type Output: ToolOutput;

    /// The tool's name.
    fn name(&self) -> &str;

    /// What the tool does, for the model.
    fn description(&self) -> &str;

    /// Sets further definition fields (timeout, policy, settings, ...).
    fn configure(&self, _definition: &mut ToolDefinition) {}

    /// Runs the tool.
    fn call(
        &self,
        ctx: ToolContext,
        args: Self::Args,
    ) -> impl Future<Output = Result<Self::Output, ToolError>> + Send;

    /// See [`DynTool::validate`].
    fn validate(&self, _ctx: &ToolContext, _args: &mut Map<String, Value>) -> Result<(), ToolError> {
        Ok(())
    }

    /// See [`DynTool::is_available`].
    fn is_available(&self, _run: &RunContext) -> bool {
        true
    }
}

/// Parses typed arguments; a mismatch is the model's to fix.
pub(crate) fn parse_args<A: DeserializeOwned>(args: Map<String, Value>) -> Result<A, ToolError> {
    serde_json::from_value(Value::Object(args)).map_err(|e| ToolError::InvalidArguments(e.to_string()))
}

impl<T: Tool> DynTool for T {
    fn definition(&self) -> Result<ToolDefinition, DefinitionError> {
        let parameters = schema_for::<T::Args>().map_err(|e| DefinitionError::Parameters(e.to_string()))?;
        let mut definition = ToolDefinition::new(Tool::name(self), Tool::description(self), parameters);
        self.configure(&mut definition);
        Ok(definition)
    }

    fn call<'a>(
        &'a self,
        ctx: ToolContext,
        args: Map<String, Value>,
    ) -> BoxFuture<'a, Result<ToolReturn, ToolError>> {
        Box::pin(async move {
            let args = parse_args::<T::Args>(args)?;
            Tool::call(self, ctx, args).await?.into_return()
        })
    }

    fn validate(&self, ctx: &ToolContext, args: &mut Map<String, Value>) -> Result<(), ToolError> {
        Tool::validate(self, ctx, args)
    }

    fn is_available(&self, run: &RunContext) -> bool {
        Tool::is_available(self, run)
    }
}

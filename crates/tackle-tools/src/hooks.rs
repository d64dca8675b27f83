//! Hooks around every call: pre-hooks may rewrite arguments or refuse the call; post-hooks
//! may rewrite or redact the result.
//!
//! Order: global pre-hooks, then the tool's own; the call; the tool's own post-hooks, then
//! the global ones.

use std::sync::Arc;

use serde_json::{Map, Value};
use tackle_core::{ToolDefinition, ToolError, ToolReturn};

use crate::context::ToolContext;
use crate::tool::BoxFuture;

/// Runs before a call, after argument validation.
pub trait PreHook: Send + Sync {
    /// Inspects the call and may rewrite `args`. An error ends the call with that error's
    /// outcome ([`ToolError::Blocked`] for a policy refusal).
    fn before<'a>(
        &'a self,
        ctx: &'a ToolContext,
        definition: &'a ToolDefinition,
        args: &'a mut Map<String, Value>,
    ) -> BoxFuture<'a, Result<(), ToolError>>;
}

/// Runs after a call, whatever its outcome.
pub trait PostHook: Send + Sync {
    /// May rewrite the result. Suspensions (approval, deferral) pass through unchanged.
    fn after<'a>(
        &'a self,
        ctx: &'a ToolContext,
        definition: &'a ToolDefinition,
        result: &'a mut ToolReturn,
    ) -> BoxFuture<'a, ()>;
}

struct FnPreHook<F>(F);

impl<F> PreHook for FnPreHook<F>
where
    F: Fn(&ToolContext, &ToolDefinition, &mut Map<String, Value>) -> Result<(), ToolError> + Send + Sync,
{
    fn before<'a>(
        &'a self,
        ctx: &'a ToolContext,
        definition: &'a ToolDefinition,
        args: &'a mut Map<String, Value>,
    ) -> BoxFuture<'a, Result<(), ToolError>> {
        let outcome = (self.0)(ctx, definition, args);
        Box::pin(std::future::ready(outcome))
    }
}

struct FnPostHook<F>(F);

impl<F> PostHook for FnPostHook<F>
where
    F: Fn(&ToolContext, &ToolDefinition, &mut ToolReturn) + Send + Sync,
{
    fn after<'a>(
        &'a self,
        ctx: &'a ToolContext,
        definition: &'a ToolDefinition,
        result: &'a mut ToolReturn,
    ) -> BoxFuture<'a, ()> {
        (self.0)(ctx, definition, result);
        Box::pin(std::future::ready(()))
    }
}

impl dyn PreHook {
    /// A pre-hook from a synchronous closure.
    pub fn from_fn<F>(f: F) -> Arc<dyn PreHook>
    where
        F: Fn(&ToolContext, &ToolDefinition, &mut Map<String, Value>) -> Result<(), ToolError>
            + Send
            + Sync
            + 'static,
    {
        Arc::new(FnPreHook(f))
    }
}

impl dyn PostHook {
    /// A post-hook from a synchronous closure.
    pub fn from_fn<F>(f: F) -> Arc<dyn PostHook>
    where
        F: Fn(&ToolContext, &ToolDefinition, &mut ToolReturn) + Send + Sync + 'static,
    {
        Arc::new(FnPostHook(f))
    }
}

//! Integration tests for tackle-tools: authoring, toolsets, the registry and the executor.
#![allow(clippy::unwrap_used, missing_docs, unreachable_pub)]

mod executor;
mod properties;
mod registry;
mod toolsets;
mod typed;

use std::sync::Arc;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};
use tackle_core::{ToolCall, ToolReturn};
use tackle_tools::{
    BatchOutcome, ExecutionState, Executor, FunctionTool, RunContext, ToolContext, ToolError, ToolRegistry,
    function_tool, typed_tool,
};

#[derive(Debug, Deserialize, JsonSchema)]
pub struct AddArgs {
    /// The first addend.
    pub a: i64,
    /// The second addend.
    pub b: i64,
}

pub fn add_tool() -> FunctionTool {
    typed_tool("add", "Add two integers.", |_ctx: ToolContext, args: AddArgs| async move {
        Ok::<_, ToolError>(args.a + args.b)
    })
    .build()
    .unwrap()
}

pub fn echo_tool() -> FunctionTool {
    function_tool(
        "echo",
        "Send the text back.",
        json!({"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}),
        |_ctx: ToolContext, args| async move {
            Ok::<_, ToolError>(ToolReturn::text(args["text"].as_str().unwrap_or_default()))
        },
    )
    .build()
    .unwrap()
}

pub fn call(id: &str, name: &str, args: Value) -> ToolCall {
    ToolCall::new(id, name, args)
}

/// Runs `calls` through `registry` offered in a default run.
pub async fn run_batch(executor: &Executor, registry: &ToolRegistry, calls: &[ToolCall]) -> BatchOutcome {
    let run = Arc::new(RunContext::new("run-1"));
    let offer = registry.offer(&run);
    executor.execute(&offer, &run, calls, &mut ExecutionState::default()).await
}

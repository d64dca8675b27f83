//! Defines typed tools, registers them, and runs one batch of calls through the executor,
//! printing the availability report and each return.
//!
//! ```text
//! cargo run -p tackle-tools --example batch              # the built-in batch
//! cargo run -p tackle-tools --example batch -- calls.json # your own: [{"id","name","arguments"}]
//! ```
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::sync::Arc;
use std::time::Duration;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tackle_core::{Confidence, SettingField, ToolCall};
use tackle_tools::{
    ExecutionState, Executor, Json, RunContext, StaticToolset, ToolContext, ToolError, ToolRegistry,
    ToolsetExt, typed_tool,
};

#[derive(Deserialize, JsonSchema)]
struct AddArgs {
    /// The first addend.
    a: i64,
    /// The second addend.
    b: i64,
}

#[derive(Deserialize, JsonSchema)]
struct CountArgs {
    /// The text whose words to count.
    text: String,
    /// Count only words at least this long.
    #[serde(default)]
    min_len: usize,
}

#[derive(Serialize)]
struct Counts {
    words: usize,
    longest: Option<String>,
}

#[derive(Deserialize, JsonSchema)]
struct DeleteArgs {
    /// The path to delete.
    path: String,
}

fn registry() -> Result<ToolRegistry, Box<dyn std::error::Error>> {
    let add = typed_tool("add", "Add two integers.", |_ctx: ToolContext, args: AddArgs| async move {
        args.a.checked_add(args.b).ok_or_else(|| ToolError::feedback("the sum does not fit in 64 bits"))
    })
    .build()?;
    let count = typed_tool(
        "count_words",
        "Count the words of a text.",
        |_ctx: ToolContext, args: CountArgs| async move {
            let words: Vec<&str> =
                args.text.split_whitespace().filter(|w| w.chars().count() >= args.min_len).collect();
            let longest = words.iter().max_by_key(|w| w.chars().count()).map(|w| (*w).to_owned());
            Ok::<_, ToolError>(Json(Counts { words: words.len(), longest }))
        },
    )
    .timeout(Duration::from_secs(2))
    .build()?;
    let delete =
        typed_tool("delete_file", "Delete a file.", |_ctx: ToolContext, args: DeleteArgs| async move {
            Ok::<_, ToolError>(format!("deleted {}", args.path))
        })
        .min_confidence(Confidence::High)
        .build()?;
    let lookup = typed_tool(
        "lookup",
        "Look a word up in the dictionary.",
        |ctx: ToolContext, args: DeleteArgs| async move {
            let _key = ctx.secret("api_key").ok_or_else(|| ToolError::User("no api key".into()))?;
            Ok::<_, ToolError>(format!("no entry for {}", args.path))
        },
    )
    .setting(SettingField::new("api_key").secret().required().describe("The dictionary service's key."))
    .build()?;
    let files = StaticToolset::new("files").tool(delete).approval_required();
    Ok(ToolRegistry::builder().tool(add).tool(count).toolset(files).tool(lookup).build()?)
}

fn default_batch() -> Vec<ToolCall> {
    vec![
        ToolCall::new("call_1", "add", json!({"a": 19, "b": 23})),
        ToolCall::new("call_2", "count_words", json!({"text": "the quick brown fox jumps", "min_len": 4})),
        ToolCall::new("call_3", "add", json!({"a": "nineteen", "b": 23})),
        ToolCall::from_raw("call_4", "count_words", r#"{"text": "unterminated"#),
        ToolCall::new("call_5", "delete_file", json!({"path": "/etc/passwd"})),
        ToolCall::new("call_6", "launch_rockets", json!({})),
    ]
}

fn read_batch(path: &str) -> Result<Vec<ToolCall>, Box<dyn std::error::Error>> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let items: Vec<Value> =
        serde_json::from_str(&text).map_err(|e| format!("{path} is not a JSON array: {e}"))?;
    items
        .into_iter()
        .enumerate()
        .map(|(i, item)| {
            let id = item["id"].as_str().map_or_else(|| format!("call_{}", i + 1), str::to_owned);
            let name =
                item["name"].as_str().ok_or_else(|| format!("{path}: call {} has no \"name\"", i + 1))?;
            Ok(match &item["arguments"] {
                Value::String(raw) => ToolCall::from_raw(id, name, raw),
                other => ToolCall::new(id, name, other.clone()),
            })
        })
        .collect()
}

async fn run() -> Result<(), Box<dyn std::error::Error>> {
    let registry = registry()?;
    let calls = match std::env::args().nth(1) {
        Some(path) => read_batch(&path)?,
        None => default_batch(),
    };
    let run = Arc::new(RunContext::new("example").confidence(Confidence::High));
    eprintln!("tools for a provider with confidence {}:", run.provider_confidence);
    for tool in registry.availability(&run).tools {
        match tool.status {
            Ok(()) => eprintln!("  {:<14} offered", tool.name),
            Err(reason) => eprintln!("  {:<14} not offered: {reason}", tool.name),
        }
    }
    let offer = registry.offer(&run);
    let outcome = Executor::new().execute(&offer, &run, &calls, &mut ExecutionState::default()).await;
    for (ret, took) in outcome.returns.iter().zip(&outcome.durations) {
        let line = json!({
            "call_id": ret.call_id,
            "tool": ret.tool_name,
            "status": ret.status,
            "content": ret.model_text(),
            "micros": took.as_micros(),
        });
        println!("{line}");
    }
    Ok(())
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    if let Err(error) = run().await {
        eprintln!("error: {error}");
        std::process::exit(2);
    }
}

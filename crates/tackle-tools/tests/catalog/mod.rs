//! The tool-search evaluation both tool-search tests share (tackle-tools' by words,
//! tackle-local's by words and meaning): the 237 real MCP tools of `data/mcp-catalog.jsonl`
//! as a registry, and the top-5 hit rate of `search_tools` over a file of requests.
#![allow(dead_code, clippy::unwrap_used)]

use std::sync::Arc;

use serde_json::{Value, json};
use tackle_core::ToolDefinition;
use tackle_tools::{ExecutionState, Executor, RunContext, ToolBuilder, ToolContext, ToolError, ToolRegistry};

/// The name a tool of `server` gets (as tackle-mcp names it).
pub(crate) fn name(server: &str, tool: &str) -> String {
    let clean: String = tool
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '_' || c == '-' { c } else { '_' })
        .collect();
    format!("{server}_{clean}")
}

/// The catalog's tools as tackle-mcp defines them: named and tagged by their server.
pub(crate) fn definitions() -> Vec<ToolDefinition> {
    let text = include_str!("../../data/mcp-catalog.jsonl");
    text.lines()
        .map(|line| {
            let tool: Value = serde_json::from_str(line).unwrap();
            let server = tool["server"].as_str().unwrap();
            let mut definition: ToolDefinition = serde_json::from_value(json!({
                "name": name(server, tool["name"].as_str().unwrap()),
                "description": tool["description"],
                "parameters": tool["inputSchema"],
            }))
            .unwrap();
            definition.tags = vec!["mcp".into(), format!("mcp:{server}")];
            definition
        })
        .collect()
}

pub(crate) fn catalog() -> ToolRegistry {
    let mut builder = ToolRegistry::builder();
    for definition in definitions() {
        let built = ToolBuilder::from_definition(definition, |_ctx: ToolContext, _args| async move {
            Ok::<_, ToolError>("done")
        })
        .build()
        .unwrap();
        builder = builder.tool(built);
    }
    builder.build().unwrap()
}

/// The names of the tools that serve a request of a request set (`"tools":
/// ["server/tool", …]`), as the registry names them.
pub(crate) fn wanted(case: &Value) -> Vec<String> {
    case["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            let (server, tool) = t.as_str().unwrap().split_once('/').unwrap();
            name(server, tool)
        })
        .collect()
}

/// The names `search_tools` returns for `query`, in order.
pub(crate) async fn search(registry: &ToolRegistry, run: &Arc<RunContext>, query: &str) -> Vec<String> {
    let offer = registry.offer(run);
    let call = tackle_core::ToolCall {
        id: "s".into(),
        name: "search_tools".into(),
        arguments: tackle_core::ToolArguments::Json(json!({ "query": query })),
        provider_data: None,
    };
    let outcome = Executor::new().execute(&offer, run, &[call], &mut ExecutionState::default()).await;
    let text = outcome.returns[0].content.model_text().into_owned();
    text.lines()
        .filter_map(|l| l.strip_prefix("- "))
        .map(|l| l.split('(').next().unwrap().to_owned())
        .collect()
}

/// Hits among the first five over one file of requests: (dev hits, dev count), (held-out
/// hits, held-out count), and the dev misses; `held_out` says which lines (by index) are
/// held out.
pub(crate) async fn evaluate(
    registry: &ToolRegistry,
    requests: &str,
    held_out: fn(usize) -> bool,
) -> ((usize, usize), (usize, usize), Vec<String>) {
    let run = Arc::new(RunContext::new("eval"));
    let (mut dev, mut held_back) = ((0, 0), (0, 0));
    let mut misses = Vec::new();
    for (i, line) in requests.lines().enumerate() {
        let case: Value = serde_json::from_str(line).unwrap();
        let wanted = wanted(&case);
        let found = search(registry, &run, case["request"].as_str().unwrap()).await;
        let hit = found.iter().take(5).any(|f| wanted.contains(f));
        let tally = if held_out(i) { &mut held_back } else { &mut dev };
        tally.0 += usize::from(hit);
        tally.1 += 1;
        if !hit && !held_out(i) {
            misses.push(format!("{} → {found:?} (wanted {wanted:?})", case["request"]));
        }
    }
    (dev, held_back, misses)
}

//! A registry served over MCP (stdio): any MCP client — an editor, an agent, the MCP
//! Inspector — lists and calls its tools. `cargo run --example mcp_server --features mcp`
use std::sync::Arc;
use tackle::mcp::{RegistryServer, serve_stdio};
use tackle::prelude::*;
use tackle::tools::Executor;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Greet {
    /// Who to greet.
    name: String,
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let greet = typed_tool("greet", "Greet someone by name.", |_ctx: ToolContext, g: Greet| async move {
        Ok::<_, ToolError>(format!("Hello, {}!", g.name))
    })
    .idempotent();
    let registry = Arc::new(ToolRegistry::builder().tool(greet.build()?).build()?);
    // Each call runs in a context of its own, as a run of the harness would.
    let server = RegistryServer::new(registry, Executor::new(), Arc::new(|| RunContext::new("mcp")));
    serve_stdio(server).await?;
    Ok(())
}

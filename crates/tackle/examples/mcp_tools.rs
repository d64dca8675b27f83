//! An MCP server's tools offered to a model. The server is any command that speaks MCP over
//! stdio; its tools are named `server_<tool>`, and since an unknown server's word that a
//! tool is harmless is not taken, each call is put to you first: `OPENAI_API_KEY=… cargo
//! run --example mcp_tools -- "Add 2 and 3." npx -y @modelcontextprotocol/server-everything`
#![allow(clippy::print_stdout)]
use std::io::{BufRead, Write};
use std::sync::Arc;
use tackle::mcp::{McpServer, McpToolset, ServerConfig};
use tackle::prelude::*;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let (Some(prompt), Some(command)) = (args.next(), args.next()) else {
        return Err("usage: mcp_tools PROMPT COMMAND [ARGUMENTS…]".into());
    };
    // Started, initialised and listed once; a server that changes its list is followed.
    let server = McpServer::connect(ServerConfig::stdio("server", command, args.collect())).await?;
    let harness = Harness::new(ToolRegistry::builder().toolset(McpToolset::load(server).await?).build()?);
    let names: Vec<String> = harness.registry().definitions().map(|d| d.name.to_string()).collect();
    println!("tools: {}", names.join(", "));
    let mut model = OpenAiChat::new(preset_named("openai").ok_or("no preset")?, "gpt-4.1-mini")?;
    if let Ok(url) = std::env::var("OPENAI_BASE_URL") {
        model = model.base_url(&url)?;
    }
    let mut run = harness.start("run-1", vec![Message::user(prompt)]);
    let context = Arc::new(run.context());
    let mut outcome = harness.run(&model, &context, &mut run, &mut Discard).await?;
    while let RunOutcome::Suspended(calls) = outcome {
        let mut decisions = Vec::new();
        for call in calls {
            print!("allow {} {}? [y/N] ", call.tool, call.arguments);
            std::io::stdout().flush()?;
            let mut line = String::new();
            std::io::stdin().lock().read_line(&mut line)?;
            let yes = matches!(line.trim(), "y" | "Y" | "yes");
            decisions
                .push((call.call_id, if yes { Decision::Approve } else { Decision::Deny { reason: None } }));
        }
        outcome = harness.resume(&model, &context, &mut run, decisions, &mut Discard).await?;
    }
    if let RunOutcome::Answered(answer) = outcome {
        println!("{}", answer.text);
    }
    Ok(())
}

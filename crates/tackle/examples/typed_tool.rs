//! A typed tool offered to an OpenAI model: `OPENAI_API_KEY=… cargo run --example typed_tool`
//! (`OPENAI_BASE_URL` points it at any compatible server).
#![allow(clippy::print_stdout)]
use std::sync::Arc;
use tackle::prelude::*;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Add {
    a: i64,
    b: i64,
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let add = typed_tool("add", "Add two integers.", |_ctx: ToolContext, args: Add| async move {
        Ok::<_, ToolError>(args.a + args.b)
    });
    let harness = Harness::new(ToolRegistry::builder().tool(add.build()?).build()?);
    let mut model = OpenAiChat::new(preset_named("openai").ok_or("no preset")?, "gpt-4.1-mini")?;
    if let Ok(url) = std::env::var("OPENAI_BASE_URL") {
        model = model.base_url(&url)?;
    }
    let mut run = harness.start("run-1", vec![Message::user("What is 2 + 40?")]);
    match harness.run(&model, &Arc::new(run.context()), &mut run, &mut Discard).await? {
        RunOutcome::Answered(answer) => println!("{}", answer.text),
        RunOutcome::Suspended(calls) => println!("{} calls wait for a decision", calls.len()),
    }
    Ok(())
}

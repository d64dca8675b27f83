//! A run's events on a terminal as they happen: the answer streaming in, each tool call as it
//! starts and ends. `OPENAI_API_KEY=… cargo run --example streaming -- "What is 12 × 34?"`
#![allow(clippy::print_stdout, clippy::print_stderr)]
use std::io::Write;
use std::sync::Arc;
use tackle::prelude::*;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Multiply {
    a: f64,
    b: f64,
}

/// Prints what the run does: text to stdout as it arrives, calls to stderr.
struct Terminal;

impl EventSink for Terminal {
    fn emit(&mut self, event: RunEvent) {
        match event {
            RunEvent::TextDelta { text } => {
                print!("{text}");
                let _ = std::io::stdout().flush();
            }
            RunEvent::ToolCallStarted { name, arguments, .. } => eprintln!("→ {name} {arguments}"),
            RunEvent::ToolCallFinished { name, status, duration, .. } => {
                eprintln!("← {name} {status} in {} ms", duration.as_millis());
            }
            RunEvent::Finished { .. } => println!(),
            _ => {}
        }
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let prompt = std::env::args().nth(1).unwrap_or_else(|| "What is 12 × 34?".into());
    let multiply =
        typed_tool("multiply", "Multiply two numbers.", |_ctx: ToolContext, m: Multiply| async move {
            Ok::<_, ToolError>(m.a * m.b)
        });
    let harness = Harness::new(ToolRegistry::builder().tool(multiply.build()?).build()?);
    let mut model = OpenAiChat::new(preset_named("openai").ok_or("no preset")?, "gpt-4.1-mini")?;
    if let Ok(url) = std::env::var("OPENAI_BASE_URL") {
        model = model.base_url(&url)?;
    }
    let mut run = harness.start("run-1", vec![Message::user(prompt)]);
    let outcome = harness.run(&model, &Arc::new(run.context()), &mut run, &mut Terminal).await?;
    if let RunOutcome::Suspended(calls) = outcome {
        eprintln!("{} calls wait for a decision", calls.len());
    }
    Ok(())
}

//! The embedded model: a small model run in-process on the CPU, with no key and no network.
//! Its calls are constrained to the offered tools' schemas. The model file comes from
//! `tackle model pull` (or `tackle::local::pull`, with the `local-pull` feature), in the
//! directory `TACKLE_MODEL_DIR` names: `cargo run --example local_model --features local --
//! "What's the weather in Lisbon?"`
#![allow(clippy::print_stdout, clippy::print_stderr)]
use std::sync::Arc;
use tackle::local::{LocalModel, SMOLLM2_135M, installed};
use tackle::prelude::*;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Weather {
    /// The city.
    city: String,
}

/// Shows each call on stderr as it starts.
struct Calls;

impl EventSink for Calls {
    fn emit(&mut self, event: RunEvent) {
        if let RunEvent::ToolCallStarted { name, arguments, .. } = event {
            eprintln!("→ {name} {arguments}");
        }
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let prompt = std::env::args().nth(1).unwrap_or_else(|| "What's the weather in Lisbon?".into());
    let dir = std::env::var_os("TACKLE_MODEL_DIR").ok_or("set TACKLE_MODEL_DIR to the model's directory")?;
    let path =
        installed(&SMOLLM2_135M, dir.as_ref()).ok_or("no model there; `tackle model pull` fetches it")?;
    let model = tokio::task::spawn_blocking(move || LocalModel::load(&path)).await??;
    let weather = typed_tool(
        "get_weather",
        "Get the current weather for a city.",
        |_ctx: ToolContext, w: Weather| async move {
            Ok::<_, ToolError>(format!("Sunny and 21 °C in {}.", w.city))
        },
    );
    let harness = Harness::new(ToolRegistry::builder().tool(weather.build()?).build()?);
    let mut run = harness.start("run-1", vec![Message::user(prompt)]);
    let context = Arc::new(run.context());
    // The instructions and tools every round starts with are processed once, up front.
    harness.warm(&model, "", &context).await?;
    match harness.run(&model, &context, &mut run, &mut Calls).await? {
        RunOutcome::Answered(answer) => println!("{}", answer.text),
        RunOutcome::Suspended(calls) => println!("{} calls wait for a decision", calls.len()),
    }
    Ok(())
}

//! An approval that survives a restart. The first invocation runs until the model asks for a
//! call that needs a person's approval, saves the run and exits; a later one (any process,
//! any time) loads it, approves or denies, and goes on to the answer.
//!
//! ```sh
//! cargo run --example approvals -- ask "Remove the old log."    # saves approval-state.json
//! cargo run --example approvals -- approve                       # or: deny "not today"
//! ```
#![allow(clippy::print_stdout)]
use std::sync::Arc;
use tackle::prelude::*;

const STATE: &str = "approval-state.json";

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Remove {
    /// The file to remove.
    path: String,
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let remove = typed_tool("remove_file", "Remove a file.", |_ctx: ToolContext, r: Remove| async move {
        Ok::<_, ToolError>(format!("removed {}", r.path))
    })
    .requires_approval();
    let harness = Harness::new(ToolRegistry::builder().tool(remove.build()?).build()?);
    let mut model = OpenAiChat::new(preset_named("openai").ok_or("no preset")?, "gpt-4.1-mini")?;
    if let Ok(url) = std::env::var("OPENAI_BASE_URL") {
        model = model.base_url(&url)?;
    }
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (run, outcome) = match args.first().map(String::as_str) {
        Some("ask") => {
            let prompt = args.get(1).cloned().unwrap_or_else(|| "Remove the old log.".into());
            let mut run = harness.start("run-1", vec![Message::user(prompt)]);
            let outcome = harness.run(&model, &Arc::new(run.context()), &mut run, &mut Discard).await?;
            (run, outcome)
        }
        Some(verb @ ("approve" | "deny")) => {
            let mut run: tackle::RunState = serde_json::from_str(&std::fs::read_to_string(STATE)?)?;
            let decision = match verb {
                "approve" => Decision::Approve,
                _ => Decision::Deny { reason: args.get(1).cloned() },
            };
            let waiting = run.pending.as_ref().ok_or("the saved run waits for nothing")?;
            let decisions: Vec<(String, Decision)> =
                waiting.waiting().map(|(_, call, _)| (call.id.clone(), decision.clone())).collect();
            let outcome =
                harness.resume(&model, &Arc::new(run.context()), &mut run, decisions, &mut Discard).await?;
            (run, outcome)
        }
        _ => return Err("say `ask [PROMPT]`, `approve` or `deny [REASON]`".into()),
    };
    match outcome {
        RunOutcome::Answered(answer) => {
            let _ = std::fs::remove_file(STATE);
            println!("{}", answer.text);
        }
        RunOutcome::Suspended(calls) => {
            std::fs::write(STATE, serde_json::to_string(&run)?)?;
            for call in calls {
                println!("waiting: {} {} — run `approve` or `deny`", call.tool, call.arguments);
            }
        }
    }
    Ok(())
}

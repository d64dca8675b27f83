//! Where each tool may be offered, decided per run: the plan's capabilities, what the user
//! turned off, the provider's confidence, a price per call, and a hook that refuses some
//! calls. No model is needed: `cargo run --example policies`.
#![allow(clippy::print_stdout)]
use std::sync::Arc;
use tackle::core::Cost;
use tackle::prelude::*;
use tackle::tools::{Plan, PreHook};

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Text {
    text: String,
}

/// Refuses to store anything that looks like a password.
struct NoPasswords;

impl PreHook for NoPasswords {
    fn before<'a>(
        &'a self,
        _ctx: &'a ToolContext,
        _definition: &'a tackle::ToolDefinition,
        args: &'a mut serde_json::Map<String, serde_json::Value>,
    ) -> futures_util::future::BoxFuture<'a, Result<(), ToolError>> {
        let refused = args.get("text").and_then(|t| t.as_str()).is_some_and(|t| t.contains("password"));
        Box::pin(async move {
            if refused { Err(ToolError::Blocked("passwords are not stored".into())) } else { Ok(()) }
        })
    }
}

fn tool(name: &str, description: &str) -> tackle::tools::ToolBuilder {
    let name = name.to_owned();
    typed_tool(name.clone(), description, move |_ctx: ToolContext, t: Text| {
        let name = name.clone();
        async move { Ok::<_, ToolError>(format!("{name}: {}", t.text)) }
    })
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let registry = ToolRegistry::builder()
        .tool(tool("note", "Keep a note.").pre_hook(Arc::new(NoPasswords)).build()?)
        .tool(tool("search", "Search the web.").capability("web").cost(Cost::credits(0.5)).build()?)
        .tool(tool("translate", "Translate a text.").capability("languages").build()?)
        .tool(tool("post", "Post a message.").min_confidence(tackle::Confidence::High).build()?)
        .build()?;

    // A run for someone on the free plan (web only), who turned translation off anyway,
    // talking to a provider trusted at the medium level.
    let mut ctx = RunContext::new("run-1");
    ctx.plan = Some(Plan::new("free", ["web"]));
    ctx.preferences.disabled_tools.insert("translate".into());
    ctx.provider_confidence = tackle::Confidence::Medium;
    for line in registry.availability(&ctx).tools {
        match line.status {
            Ok(()) => match registry.definition(&line.name).and_then(|d| d.cost) {
                Some(cost) => println!("{:<10} offered, {cost} a call", line.name),
                None => println!("{:<10} offered", line.name),
            },
            Err(why) => println!("{:<10} not offered: {why}", line.name),
        }
    }

    // The hook runs before the tool, whoever calls it; a refusal is the call's result.
    let ctx = Arc::new(ctx);
    let (executor, offer) = (tackle::tools::Executor::new(), registry.offer(&ctx));
    for text in ["buy milk", "my password is hunter2"] {
        let call = tackle::ToolCall::new("c1", "note", serde_json::json!({ "text": text }));
        let mut state = tackle::tools::ExecutionState::default();
        let batch = executor.execute(&offer, &ctx, &[call], &mut state).await;
        let ret = &batch.returns[0];
        println!("note({text:?}) → {}: {}", ret.status, ret.model_text());
    }
    Ok(())
}

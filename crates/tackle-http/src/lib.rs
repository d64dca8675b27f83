//! The HTTP layer of tackle — the only crate that uses reqwest.
//!
//! - [`HttpClient`]: JSON POSTs with retries for the retryable statuses (429, 5xx, 529) and
//!   connection failures, exponential backoff with jitter, and the server's `Retry-After`
//!   honoured up to a cap. A loopback-only guard makes any request to another host fail
//!   loudly (tests turn it on with `TACKLE_LOOPBACK_ONLY=1`).
//! - [`SseDecoder`]: server-sent events decoded from byte chunks split anywhere.
//! - [`PinnedGet`]: a GET that connects only to addresses the caller validated (no DNS
//!   lookup of its own, no redirects followed, no proxy unless given), with the body capped
//!   after decompression — the primitive under tackle's SSRF-safe page retrieval.
//!
//! The one decision that shaped this crate: it knows HTTP and nothing about any provider.
//! Failures are [`HttpError`]s with an [`HttpErrorKind`] (DNS, TLS, refused, reset, timeout,
//! too large, redirected, status); what a status means for a model — and the provider's
//! error body — is read by the adapters.

mod client;
mod error;
mod pinned;
mod sse;

pub use client::{HttpClient, RetryConfig, Sent, parse_retry_after};
pub use error::{HttpError, HttpErrorKind, TransportKind};
pub use pinned::{Hop, PinnedGet};
pub use sse::{SseDecoder, SseEvent};

/// Header types, re-exported so that adapters need no HTTP crate of their own.
pub use reqwest::header::{HeaderMap, HeaderName, HeaderValue};

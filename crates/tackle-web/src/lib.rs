//! Web tools for tackle, on one SSRF-safe retrieval service.
//!
//! - [`Retriever`]: the one way tackle reads a page. URLs are http(s) without user info;
//!   names are resolved by tackle and every address is checked against a
//!   [`TargetPolicy`]; the connection is pinned to the checked addresses (no second
//!   resolution, so DNS rebinding cannot redirect it); every redirect hop is checked the
//!   same way (at most 10); bodies are capped after decompression; only HTML and text
//!   are read, decoded from their charset.
//! - [`address`]: the address classes — public, private (allowlist only), never.
//! - [`extract`] (from `tackle-extract`, re-exported): a page's readable content as
//!   Markdown with its metadata; [`truncate`] cuts at a paragraph boundary with a marker.
//! - [`WebTools`]: the `read_web_page` and `web_search` tools (SearXNG, or any
//!   [`SearchBackend`]); every field that reaches the model passes through an
//!   [`UntrustedFilter`] in one batch per call, after truncation.
//!
//! ```
//! use tackle_web::{Retriever, RetrieveError, TargetPolicy};
//! # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
//! // A model-chosen URL that points at the cloud metadata service, spelled in hex.
//! let outcome = Retriever::new().retrieve("http://0xa9fea9fe/latest/", &TargetPolicy::PublicOnly).await;
//! assert!(matches!(outcome, Err(RetrieveError::Blocked { rule }) if rule.contains("metadata")));
//! # });
//! ```
//!
//! The one decision that shaped this crate: who chose the URL decides what it may reach.
//! A model's URL is public-only unless the host is allowlisted and the provider trusted;
//! a URL the user typed is not restricted.

pub mod address;
mod budget;
mod error;
mod filter;
pub mod iana;
mod policy;
mod resolve;
mod retrieve;
mod search;
mod tools;

pub use budget::allocate;
pub use error::{ResolveError, RetrieveErrorKind, SearchError};
pub use filter::{
    FilterFuture, Filtered, GuardFilter, GuardPolicy, PassThrough, UntrustedFilter, UntrustedText,
};
pub use policy::{HostPattern, TargetPolicy};
pub use resolve::{Resolve, SystemResolver};
pub use retrieve::{ContentKind, RetrieveError, Retrieved, Retriever, decode, kind_of};
pub use search::{SearchBackend, SearchHit, SearchQuery, SearxNg, dedup_key};
pub use tackle_extract::{HiddenText, Page, StopFlag, extract, extract_until, truncate};
pub use tools::{ReadArgs, SearchArgs, TimeRange, WebTools, limits};

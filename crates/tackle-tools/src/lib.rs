//! Tool authoring and execution for tackle.
//!
//! - Author tools as typed Rust functions ([`typed_tool`], or the [`Tool`] trait) whose
//!   JSON Schema comes from the argument struct, or from a raw JSON Schema
//!   ([`function_tool`]) for MCP and config-defined tools.
//! - Group them in [`Toolset`]s that compose: prefixed, filtered, renamed,
//!   approval-required, combined.
//! - Register them in a [`ToolRegistry`], which validates every definition the same way and
//!   decides per [`RunContext`] which tools are offered ([`Offer`]) and why the others are
//!   not ([`AvailabilityReport`]).
//! - Run calls with the [`Executor`]: validation, hooks, timeouts, cancellation, retries and
//!   concurrency, with results always in call order; results of tools that return untrusted
//!   content pass through the [`untrusted::UntrustedFilter`] seam.
//!
//! The one decision that shaped this crate: every call — typed or raw, from any source —
//! takes the same path through the executor, and only tools in the current [`Offer`] can
//! run. The registry compiles each tool's schema once, at registration.

mod context;
mod executor;
mod function;
mod hooks;
mod registry;
mod schema;
mod search;
mod settings;
mod tool;
mod toolset;
pub mod untrusted;

pub use context::{Deps, Plan, Progress, ProgressSink, RunContext, ToolContext, UserPreferences};
pub use executor::{BatchOutcome, ExecutionState, Executor, RetryExhausted, RetryPolicy};
pub use function::{FunctionTool, ToolBuildError, ToolBuilder, function_tool, typed_tool};
pub use hooks::{PostHook, PreHook};
pub use registry::{
    Availability, AvailabilityReport, NotOffered, Offer, OfferedTool, RegistryBuilder, RegistryError,
    RegistryProblem, RegistrySource, ToolRegistry,
};
pub use schema::{check_input, schema_for, with_defaults};
pub use search::{Features, RANKING_FEATURES, SearchOptions, ToolIndex};
pub use settings::{MemorySecretStore, SecretStore, SettingOrigin, Settings};
pub use tackle_core::Secret;
pub use tool::{DynTool, Json, Prepared, Tool, ToolOutput};
pub use toolset::{
    ApprovalRequired, ApprovalWaived, Combined, EntryError, Filtered, Prefixed, Priced, Renamed,
    StaticToolset, ToolEntry, Toolset, ToolsetExt,
};

pub use tackle_core::{ToolError, ToolReturn};

/// The README's examples, compiled and run as doc tests so that they stay true.
#[doc = include_str!("../../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

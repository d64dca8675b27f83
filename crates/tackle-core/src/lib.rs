//! The vocabulary of tackle.
//!
//! Everything else in the workspace speaks in these types: [`Message`]s made of parts,
//! the canonical [`ToolDefinition`], the [`ToolCall`] a model makes and the [`ToolReturn`]
//! a tool gives back, the tool-error table ([`ToolError`], [`ToolStatus`]), the
//! [`JsonSchema`] newtype, [`Usage`] and [`Cost`], the policy types ([`Confidence`],
//! [`Component`], [`Visibility`]) and the [`Model`] trait that a harness drives.
//!
//! The one decision that shaped this crate: it never names a vendor and never does I/O.
//! Wire formats live in provider adapters, which translate to and from these types; what a
//! vendor needs replayed verbatim travels as opaque, namespaced [`ProviderData`].

mod call;
mod definition;
mod embed;
mod error;
mod message;
mod model;
mod name;
mod policy;
mod schema;
mod secret;
pub mod telemetry;
mod tool_return;
mod usage;

pub use call::{ToolArguments, ToolCall};
pub use definition::{
    DefinitionError, MAX_ROUTING_HINT, PolicyInstruction, SettingField, SettingsSchema, ToolDefinition,
    ToolKind,
};
pub use embed::{EmbedError, Embedder, asks_to_change, changes_things, name_words, similarity, tool_meaning};
pub use error::{StatusRule, ToolError, ToolStatus, cause_chain, wording};
pub use message::{AssistantPart, AssistantTurn, Message, ProviderData, Thinking, ToolReturnPart, UserPart};
pub use model::{
    FinishReason, Model, ModelError, ModelErrorKind, ModelEvent, ModelProfile, ModelRequest, ModelResponse,
    ModelSettings, ModelStream, ToolChoice, WarmUp,
};
pub use name::{MAX_TOOL_NAME_LEN, NameError, validate_tool_name};
pub use policy::{Component, Confidence, Visibility};
pub use schema::{JsonSchema, SchemaError};
pub use secret::Secret;
pub use tool_return::{
    Attachment, FilterReport, FilteredSource, FilteredSpan, InputAction, InputRequest, InputResponse,
    ResumedInput, Source, ToolContent, ToolReturn,
};
pub use usage::{Cost, Usage};

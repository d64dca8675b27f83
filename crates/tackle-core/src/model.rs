//! The [`Model`] trait: one round of a conversation with a model.

use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use futures_core::Stream;
use serde::{Deserialize, Serialize};

use crate::definition::ToolDefinition;
use crate::message::{AssistantTurn, Message};
use crate::usage::Usage;

/// Which tools the model may or must call in a round.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "mode", content = "name")]
pub enum ToolChoice {
    /// The model decides.
    #[default]
    Auto,
    /// The model must not call tools.
    None,
    /// The model must call at least one tool.
    Required,
    /// The model must call this tool.
    Tool(String),
}

/// Settings for one request.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
#[non_exhaustive]
pub struct ModelSettings {
    /// Which tools the model may or must call.
    pub tool_choice: ToolChoice,
    /// Ask for at most one call per round (sent only where the host accepts the flag).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parallel_tool_calls: Option<bool>,
    /// Upper bound on output tokens.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_output_tokens: Option<u32>,
    /// Sampling temperature.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub temperature: Option<f32>,
    /// Nucleus sampling.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub top_p: Option<f32>,
    /// Seed for providers that can repeat a generation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
}

impl ModelSettings {
    /// With this tool choice.
    pub fn tool_choice(mut self, choice: ToolChoice) -> Self {
        self.tool_choice = choice;
        self
    }

    /// At most one call per round (`false`), or say nothing (`None`).
    pub fn parallel_tool_calls(mut self, parallel: Option<bool>) -> Self {
        self.parallel_tool_calls = parallel;
        self
    }

    /// At most `tokens` output tokens.
    pub fn max_output_tokens(mut self, tokens: u32) -> Self {
        self.max_output_tokens = Some(tokens);
        self
    }

    /// This sampling temperature.
    pub fn temperature(mut self, temperature: f32) -> Self {
        self.temperature = Some(temperature);
        self
    }

    /// This nucleus-sampling bound.
    pub fn top_p(mut self, top_p: f32) -> Self {
        self.top_p = Some(top_p);
        self
    }

    /// This seed, for providers that can repeat a generation.
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = Some(seed);
        self
    }
}

/// One round: instructions, the conversation so far, the tools offered, and the settings.
///
/// The request borrows everything: a harness keeps one history and lends it to each round,
/// so that no round copies the conversation. Adapters serialise what they need before the
/// stream they return starts waiting.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct ModelRequest<'a> {
    /// The system instructions for this round (the application's prompt, the offered tools'
    /// policy sections, and any instruction for this round only). May be empty.
    pub instructions: &'a str,
    /// The conversation.
    pub messages: &'a [Message],
    /// The tools offered this round, in a stable order.
    pub tools: &'a [Arc<ToolDefinition>],
    /// Settings for this round.
    pub settings: &'a ModelSettings,
    /// Whether the caller reads [`ModelEvent::ToolCallDelta`]s. When it does not (the
    /// harness does not), adapters leave them out instead of building pieces nobody reads;
    /// the completed turn carries every call either way.
    pub tool_call_deltas: bool,
}

impl<'a> ModelRequest<'a> {
    /// A request whose caller reads every event, tool-call deltas included.
    pub fn new(
        instructions: &'a str,
        messages: &'a [Message],
        tools: &'a [Arc<ToolDefinition>],
        settings: &'a ModelSettings,
    ) -> Self {
        ModelRequest { instructions, messages, tools, settings, tool_call_deltas: true }
    }

    /// Says whether the caller reads [`ModelEvent::ToolCallDelta`]s.
    pub fn tool_call_deltas(mut self, read: bool) -> Self {
        self.tool_call_deltas = read;
        self
    }
}

/// Why the model stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum FinishReason {
    /// The model finished its answer.
    Stop,
    /// The model called tools and waits for their results.
    ToolCalls,
    /// The output token limit was reached.
    Length,
    /// The provider's content filter stopped the output.
    ContentFilter,
    /// The provider gave a reason tackle does not know.
    Other,
}

/// The complete result of a round.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ModelResponse {
    /// The model's turn, ready to be recorded in the conversation.
    pub turn: AssistantTurn,
}

/// What a model stream yields while a round runs. The last item of a successful stream
/// is [`ModelEvent::Completed`].
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ModelEvent {
    /// A piece of answer text.
    TextDelta(String),
    /// A piece of reasoning text.
    ThinkingDelta(String),
    /// A piece of a tool call. The first piece of a call carries its name (and id, where
    /// the provider sends one); later pieces carry more argument text.
    ToolCallDelta {
        /// The call's position in the turn.
        index: usize,
        /// The call id, when this piece carries it.
        id: Option<String>,
        /// The tool name, when this piece carries it.
        name: Option<String>,
        /// More argument text.
        arguments: String,
    },
    /// Usage reported during the stream.
    Usage(Usage),
    /// The round is complete.
    Completed(ModelResponse),
}

/// A boxed stream of model events, which may borrow the request.
pub type ModelStream<'a> = Pin<Box<dyn Stream<Item = Result<ModelEvent, ModelError>> + Send + 'a>>;

/// What [`Model::warm`] returns: done when the model is ready for the prompts to come.
pub type WarmUp<'a> = Pin<Box<dyn std::future::Future<Output = Result<(), ModelError>> + Send + 'a>>;

/// What a model (and the endpoint serving it) can do. Data, not code: adapters and presets
/// fill it in, the harness and the schema lowering read it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
#[non_exhaustive]
pub struct ModelProfile {
    /// The model can call tools at all.
    pub supports_tools: bool,
    /// The model can return several calls in one round.
    pub supports_parallel_tool_calls: bool,
    /// The host accepts a flag that limits the model to one call per round.
    pub accepts_parallel_tool_calls_flag: bool,
    /// The host enforces strict tool schemas when asked.
    pub supports_strict_schemas: bool,
    /// The host accepts a `required` tool choice.
    pub supports_tool_choice_required: bool,
    /// Responses are streamed (the adapter asks for whole ones when false).
    pub supports_streaming: bool,
    /// The host reports usage in streams.
    pub reports_stream_usage: bool,
    /// The model takes images inside tool results (the adapter drops attachments, keeping
    /// their description, when false).
    pub accepts_tool_result_images: bool,
}

/// What a model or host can do, set one capability at a time from the defaults:
///
/// ```
/// let profile = tackle_core::ModelProfile::default().supports_parallel_tool_calls(false);
/// assert!(profile.supports_tools && !profile.supports_parallel_tool_calls);
/// ```
impl ModelProfile {
    /// Sets [`ModelProfile::supports_tools`].
    pub fn supports_tools(mut self, on: bool) -> Self {
        self.supports_tools = on;
        self
    }

    /// Sets [`ModelProfile::supports_parallel_tool_calls`].
    pub fn supports_parallel_tool_calls(mut self, on: bool) -> Self {
        self.supports_parallel_tool_calls = on;
        self
    }

    /// Sets [`ModelProfile::accepts_parallel_tool_calls_flag`].
    pub fn accepts_parallel_tool_calls_flag(mut self, on: bool) -> Self {
        self.accepts_parallel_tool_calls_flag = on;
        self
    }

    /// Sets [`ModelProfile::supports_strict_schemas`].
    pub fn supports_strict_schemas(mut self, on: bool) -> Self {
        self.supports_strict_schemas = on;
        self
    }

    /// Sets [`ModelProfile::supports_tool_choice_required`].
    pub fn supports_tool_choice_required(mut self, on: bool) -> Self {
        self.supports_tool_choice_required = on;
        self
    }

    /// Sets [`ModelProfile::supports_streaming`].
    pub fn supports_streaming(mut self, on: bool) -> Self {
        self.supports_streaming = on;
        self
    }

    /// Sets [`ModelProfile::reports_stream_usage`].
    pub fn reports_stream_usage(mut self, on: bool) -> Self {
        self.reports_stream_usage = on;
        self
    }

    /// Sets [`ModelProfile::accepts_tool_result_images`].
    pub fn accepts_tool_result_images(mut self, on: bool) -> Self {
        self.accepts_tool_result_images = on;
        self
    }
}

impl Default for ModelProfile {
    fn default() -> Self {
        ModelProfile {
            supports_tools: true,
            supports_parallel_tool_calls: true,
            accepts_parallel_tool_calls_flag: false,
            supports_strict_schemas: false,
            supports_tool_choice_required: true,
            supports_streaming: true,
            reports_stream_usage: true,
            accepts_tool_result_images: false,
        }
    }
}

/// The kind of a [`ModelError`], for deciding what to do about it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ModelErrorKind {
    /// The credentials were refused.
    Authentication,
    /// Too many requests.
    RateLimited,
    /// The provider is overloaded.
    Overloaded,
    /// The conversation does not fit the context window.
    ContextTooLong,
    /// The provider refused the request as malformed.
    InvalidRequest,
    /// The provider failed.
    Server,
    /// The connection failed or the stream was cut off.
    Transport,
    /// The provider's answer could not be understood.
    InvalidResponse,
    /// The request was cancelled.
    Cancelled,
    /// The provider refused to answer the request (a safety or policy block of the prompt).
    Refused,
}

impl ModelErrorKind {
    /// Whether trying the same request again later may succeed.
    pub fn is_retryable(self) -> bool {
        matches!(
            self,
            ModelErrorKind::RateLimited
                | ModelErrorKind::Overloaded
                | ModelErrorKind::Server
                | ModelErrorKind::Transport
        )
    }
}

/// A failed model request. The message never contains credentials.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{message}")]
#[non_exhaustive]
pub struct ModelError {
    /// What kind of failure this is.
    pub kind: ModelErrorKind,
    /// What happened, for people.
    pub message: String,
    /// How long the provider asked to wait before trying again.
    pub retry_after: Option<Duration>,
}

impl ModelError {
    /// An error of `kind`.
    pub fn new(kind: ModelErrorKind, message: impl Into<String>) -> Self {
        ModelError { kind, message: message.into(), retry_after: None }
    }

    /// The kind of failure.
    pub fn kind(&self) -> ModelErrorKind {
        self.kind
    }
}

/// A model behind some wire API: one round is a request in, a stream of events out.
///
/// Implementations translate; they hold no conversation state of their own, so one model
/// value can serve many runs at once.
pub trait Model: Send + Sync {
    /// A name for logs and traces (`provider:model`).
    fn name(&self) -> &str;

    /// What the model and its endpoint can do.
    fn profile(&self) -> &ModelProfile;

    /// Starts a round. The stream yields deltas as they arrive and ends with
    /// [`ModelEvent::Completed`]; a stream that ends without it was cut off.
    fn stream<'a>(&'a self, request: ModelRequest<'a>) -> ModelStream<'a>;

    /// Gets ready for rounds whose prompt starts with `instructions` and offers `tools`,
    /// before the first of them is asked for. A model that processes prompts itself (the
    /// embedded one) processes that static part here, once, so that each round only
    /// processes what follows it; a model behind an API has nothing to do, which is what
    /// the default does. The harness's `warm` works out the instructions and tools its
    /// rounds send and calls this.
    fn warm<'a>(&'a self, instructions: &'a str, tools: &'a [Arc<ToolDefinition>]) -> WarmUp<'a> {
        let _ = (instructions, tools);
        Box::pin(std::future::ready(Ok(())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retryable_kinds() {
        assert!(ModelErrorKind::RateLimited.is_retryable());
        assert!(!ModelErrorKind::Authentication.is_retryable());
        assert!(!ModelErrorKind::ContextTooLong.is_retryable());
        assert!(!ModelErrorKind::Refused.is_retryable());
    }

    #[test]
    fn tool_choice_serialises_readably() {
        let json = serde_json::to_string(&ToolChoice::Tool("search".into())).unwrap();
        assert_eq!(json, r#"{"mode":"tool","name":"search"}"#);
        let back: ToolChoice = serde_json::from_str(r#"{"mode":"required"}"#).unwrap();
        assert_eq!(back, ToolChoice::Required);
    }
}

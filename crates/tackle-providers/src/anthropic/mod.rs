//! Anthropic Messages.

mod request;
mod stream;
mod wire;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use tackle_core::Secret;
use tackle_core::{Model, ModelError, ModelEvent, ModelProfile, ModelRequest, ModelResponse, ModelStream};
use tackle_http::{HeaderMap, HeaderName, HeaderValue, HttpClient};

use crate::endpoint::{Endpoint, SetupError, inspect};
use crate::presets::KeyHeader;
use stream::MessagesAccumulator;

/// The API version this adapter speaks.
pub const API_VERSION: &str = "2023-06-01";

/// A model behind the Anthropic Messages API.
#[derive(Debug, Clone)]
pub struct Anthropic {
    name: String,
    model: String,
    api_key: Secret,
    profile: ModelProfile,
    endpoint: Endpoint,
    max_tokens: u32,
    thinking_budget: Option<u32>,
    /// The size of the last request body: the next one's buffer starts that large.
    last_body: Arc<AtomicUsize>,
}

const PATH: &str = "messages";

impl Anthropic {
    /// The default base URL.
    pub const BASE_URL: &'static str = "https://api.anthropic.com/v1";

    /// A model with the key from `ANTHROPIC_API_KEY`.
    pub fn new(model: impl Into<String>) -> Result<Self, SetupError> {
        let key = Secret::from_env("ANTHROPIC_API_KEY")
            .ok_or(SetupError::MissingKey { preset: "anthropic", env: "ANTHROPIC_API_KEY" })?;
        Self::with_key(model, key)
    }

    /// A model with an explicit key.
    pub fn with_key(model: impl Into<String>, api_key: Secret) -> Result<Self, SetupError> {
        let model = model.into();
        let profile = ModelProfile::default()
            .supports_tools(true)
            .supports_parallel_tool_calls(true)
            .accepts_parallel_tool_calls_flag(true)
            .supports_strict_schemas(false)
            .supports_tool_choice_required(true)
            .supports_streaming(true)
            .reports_stream_usage(true)
            .accepts_tool_result_images(true);
        Ok(Anthropic {
            name: format!("anthropic:{model}"),
            model,
            api_key,
            profile,
            endpoint: Endpoint::new(Self::BASE_URL, PATH)?,
            max_tokens: 8192,
            thinking_budget: None,
            last_body: Arc::default(),
        })
    }

    /// Uses another base URL (`…/v1`); `/messages` is appended.
    pub fn base_url(mut self, base_url: &str) -> Result<Self, SetupError> {
        self.endpoint.rebase(base_url, PATH)?;
        Ok(self)
    }

    /// Uses this HTTP client.
    pub fn client(mut self, client: HttpClient) -> Self {
        self.endpoint.client = client;
        self
    }

    /// Streams responses (the default) or asks for whole ones.
    pub fn streaming(mut self, streaming: bool) -> Self {
        self.endpoint.streaming = streaming;
        self.profile.supports_streaming = streaming;
        self
    }

    /// How long a streamed response may stay silent before it counts as cut off.
    pub fn idle_timeout(mut self, timeout: Duration) -> Self {
        self.endpoint.idle_timeout = timeout;
        self
    }

    /// Output tokens per round when the request does not say (default 8192).
    pub fn max_tokens(mut self, max_tokens: u32) -> Self {
        self.max_tokens = max_tokens;
        self
    }

    /// Declares what the model can do, in place of the defaults (for a model without tool
    /// support, say).
    pub fn with_profile(mut self, profile: ModelProfile) -> Self {
        self.endpoint.streaming = profile.supports_streaming;
        self.profile = profile;
        self
    }

    /// Turns on extended thinking with this token budget.
    pub fn thinking(mut self, budget_tokens: u32) -> Self {
        self.thinking_budget = Some(budget_tokens);
        self
    }

    fn headers(&self) -> HeaderMap {
        let mut headers = KeyHeader::XApiKey.headers(Some(&self.api_key));
        headers.insert(HeaderName::from_static("anthropic-version"), HeaderValue::from_static(API_VERSION));
        headers
    }

    fn body(&self, request: &ModelRequest<'_>) -> Result<Vec<u8>, String> {
        let body = request::build(
            &self.model,
            &self.profile,
            self.max_tokens,
            self.thinking_budget,
            self.endpoint.streaming,
            request,
            self.last_body.load(Ordering::Relaxed),
        );
        if let Ok(body) = &body {
            self.last_body.store(body.len() + body.len() / 8 + 1024, Ordering::Relaxed);
        }
        body
    }

    /// The request body this model would send for `request` (for inspection and tests).
    pub fn request_body(&self, request: &ModelRequest<'_>) -> Result<serde_json::Value, ModelError> {
        inspect(self.body(request))
    }
}

/// Decodes a recorded streamed Messages body, split into chunks anywhere, exactly as a live
/// response is decoded.
pub fn decode_stream<'c>(
    chunks: impl IntoIterator<Item = &'c [u8]>,
) -> Result<(Vec<ModelEvent>, ModelResponse), ModelError> {
    crate::drive::decode_recorded(MessagesAccumulator::new(None), chunks)
}

/// Decodes a recorded non-streamed Messages body.
pub fn decode_response(body: &[u8]) -> Result<(Vec<ModelEvent>, ModelResponse), ModelError> {
    crate::drive::decode_whole(MessagesAccumulator::new(None), body)
}

impl Model for Anthropic {
    fn name(&self) -> &str {
        &self.name
    }

    fn profile(&self) -> &ModelProfile {
        &self.profile
    }

    fn stream<'a>(&'a self, request: ModelRequest<'a>) -> ModelStream<'a> {
        let secret = Some(self.api_key.clone());
        self.endpoint.round(
            self.headers(),
            self.body(&request),
            MessagesAccumulator::new(secret).call_deltas(request.tool_call_deltas),
        )
    }
}

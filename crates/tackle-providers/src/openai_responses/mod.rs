//! OpenAI Responses, stateless (`store: false`).

mod request;
mod stream;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use tackle_core::Secret;
use tackle_core::{Model, ModelError, ModelEvent, ModelProfile, ModelRequest, ModelResponse, ModelStream};
use tackle_http::HttpClient;

use crate::endpoint::{Endpoint, SetupError, inspect, require_key};
use crate::presets::Preset;
use stream::ResponsesAccumulator;

/// A model behind a Responses endpoint.
#[derive(Debug, Clone)]
pub struct OpenAiResponses {
    name: String,
    model: String,
    api_key: Option<Secret>,
    profile: ModelProfile,
    endpoint: Endpoint,
    include_reasoning: bool,
    /// Strict tool schemas, lowered once per definition.
    lowered: Arc<crate::strict::Lowered>,
    /// The size of the last request body: the next one's buffer starts that large.
    last_body: Arc<AtomicUsize>,
    /// The key header, built once.
    headers: tackle_http::HeaderMap,
}

const PATH: &str = "responses";

impl OpenAiResponses {
    /// A model on `preset` (normally OpenAI or Azure) with the key from its variable.
    pub fn new(preset: &Preset, model: impl Into<String>) -> Result<Self, SetupError> {
        let key = preset.api_key_env.and_then(Secret::from_env);
        Self::with_key(preset, model, key)
    }

    /// A model on `preset` with an explicit key.
    pub fn with_key(
        preset: &Preset,
        model: impl Into<String>,
        api_key: Option<Secret>,
    ) -> Result<Self, SetupError> {
        require_key(preset, api_key.as_ref())?;
        let model = model.into();
        let profile = ModelProfile::default()
            .supports_tools(true)
            .supports_parallel_tool_calls(true)
            .accepts_parallel_tool_calls_flag(preset.accepts_parallel_tool_calls)
            .supports_strict_schemas(true)
            .supports_tool_choice_required(true)
            .supports_streaming(true)
            .reports_stream_usage(true)
            .accepts_tool_result_images(true);
        Ok(OpenAiResponses {
            name: format!("{}-responses:{model}", preset.name),
            model,
            headers: preset.key_header.headers(api_key.as_ref()),
            api_key,
            profile,
            endpoint: Endpoint::new(preset.base_url, PATH)?,
            include_reasoning: true,
            lowered: Arc::default(),
            last_body: Arc::default(),
        })
    }

    /// Uses another base URL (`…/v1`); `/responses` is appended. Presets whose URL has a
    /// placeholder (Azure's `{resource}`) need one.
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

    /// Asks for encrypted reasoning so that it can be replayed (on by default).
    pub fn include_reasoning(mut self, include: bool) -> Self {
        self.include_reasoning = include;
        self
    }

    /// Declares what the model and host can do, in place of what the preset says.
    pub fn with_profile(mut self, profile: ModelProfile) -> Self {
        self.endpoint.streaming = profile.supports_streaming;
        self.profile = profile;
        self
    }

    /// The request body this model would send for `request` (for inspection and tests).
    pub fn request_body(&self, request: &ModelRequest<'_>) -> Result<serde_json::Value, ModelError> {
        let built = request::build(
            &self.model,
            &self.profile,
            self.endpoint.streaming,
            self.include_reasoning,
            request,
            &self.lowered,
            0,
        );
        inspect(built.map(|b| b.body))
    }
}

/// Decodes a recorded streamed Responses body, split into chunks anywhere.
pub fn decode_stream<'c>(
    chunks: impl IntoIterator<Item = &'c [u8]>,
) -> Result<(Vec<ModelEvent>, ModelResponse), ModelError> {
    crate::drive::decode_recorded(ResponsesAccumulator::new(Default::default(), None), chunks)
}

/// Decodes a recorded non-streamed Responses body.
pub fn decode_response(body: &[u8]) -> Result<(Vec<ModelEvent>, ModelResponse), ModelError> {
    crate::drive::decode_whole(ResponsesAccumulator::new(Default::default(), None), body)
}

impl Model for OpenAiResponses {
    fn name(&self) -> &str {
        &self.name
    }

    fn profile(&self) -> &ModelProfile {
        &self.profile
    }

    fn stream<'a>(&'a self, request: ModelRequest<'a>) -> ModelStream<'a> {
        let built = request::build(
            &self.model,
            &self.profile,
            self.endpoint.streaming,
            self.include_reasoning,
            &request,
            &self.lowered,
            self.last_body.load(Ordering::Relaxed),
        );
        let (body, strict_tools) = match built {
            Ok(built) => {
                self.last_body.store(built.body.len() + built.body.len() / 8 + 1024, Ordering::Relaxed);
                (Ok(built.body), built.strict_tools)
            }
            Err(message) => (Err(message), Default::default()),
        };
        let secret = self.api_key.clone();
        self.endpoint.round(
            self.headers.clone(),
            body,
            ResponsesAccumulator::new(strict_tools, secret).call_deltas(request.tool_call_deltas),
        )
    }
}

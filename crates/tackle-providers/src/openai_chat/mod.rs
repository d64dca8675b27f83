//! OpenAI Chat Completions, and every server that speaks it (see [`crate::presets`]).

mod request;
mod stream;
mod wire;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use tackle_core::Secret;
use tackle_core::{Model, ModelError, ModelEvent, ModelProfile, ModelRequest, ModelResponse, ModelStream};
use tackle_http::HttpClient;

use crate::endpoint::{Endpoint, SetupError, inspect, require_key};
use crate::presets::Preset;
use stream::ChatAccumulator;
pub(crate) use stream::error_from_body;

/// A model behind a Chat Completions endpoint.
#[derive(Debug, Clone)]
pub struct OpenAiChat {
    name: String,
    model: String,
    api_key: Option<Secret>,
    profile: ModelProfile,
    endpoint: Endpoint,
    /// Strict tool schemas, lowered once per definition.
    lowered: Arc<crate::strict::Lowered>,
    /// The size of the last request body: the next one's buffer starts that large.
    last_body: Arc<AtomicUsize>,
    /// The key header (and the others the host wants), built once.
    headers: tackle_http::HeaderMap,
}

const PATH: &str = "chat/completions";

impl OpenAiChat {
    /// A model on the host `preset`, with the key from the preset's environment variable.
    pub fn new(preset: &Preset, model: impl Into<String>) -> Result<Self, SetupError> {
        let api_key = preset.api_key_env.and_then(Secret::from_env);
        Self::with_key(preset, model, api_key)
    }

    /// A model on the host `preset` with an explicit key (or none).
    pub fn with_key(
        preset: &Preset,
        model: impl Into<String>,
        api_key: Option<Secret>,
    ) -> Result<Self, SetupError> {
        require_key(preset, api_key.as_ref())?;
        let model = model.into();
        // Chat Completions tool messages are text: attachments stay described.
        let profile = ModelProfile::default()
            .supports_tools(true)
            .supports_parallel_tool_calls(true)
            .accepts_parallel_tool_calls_flag(preset.accepts_parallel_tool_calls)
            .supports_strict_schemas(preset.strict_schemas)
            .supports_tool_choice_required(preset.tool_choice_required)
            .supports_streaming(true)
            .reports_stream_usage(preset.stream_usage)
            .accepts_tool_result_images(false);
        Ok(OpenAiChat {
            name: format!("{}:{model}", preset.name),
            model,
            api_key: api_key.clone(),
            profile,
            endpoint: Endpoint::new(preset.base_url, PATH)?,
            lowered: Arc::default(),
            last_body: Arc::default(),
            headers: preset.key_header.headers(api_key.as_ref()),
        })
    }

    /// Uses another base URL (`…/v1`); `/chat/completions` is appended. Presets whose URL
    /// has a placeholder (Azure's `{resource}`) need one.
    pub fn base_url(mut self, base_url: &str) -> Result<Self, SetupError> {
        self.endpoint.rebase(base_url, PATH)?;
        Ok(self)
    }

    /// Uses this HTTP client (retry policy, guards).
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

    /// Declares what the model and host can do, in place of what the preset says (for a
    /// host the presets do not know, or a model without tool support).
    pub fn with_profile(mut self, profile: ModelProfile) -> Self {
        self.endpoint.streaming = profile.supports_streaming;
        self.profile = profile;
        self
    }

    /// The endpoint requests go to.
    pub fn endpoint(&self) -> &str {
        &self.endpoint.url
    }

    /// The request body this model would send for `request` (for inspection and tests).
    pub fn request_body(&self, request: &ModelRequest<'_>) -> Result<serde_json::Value, ModelError> {
        inspect(
            request::build(&self.model, &self.profile, self.endpoint.streaming, request, &self.lowered, 0)
                .map(|b| b.body),
        )
    }
}

/// Decodes a recorded streamed Chat Completions body, split into chunks anywhere, exactly
/// as a live response is decoded (for replaying recordings).
pub fn decode_stream<'c>(
    chunks: impl IntoIterator<Item = &'c [u8]>,
) -> Result<(Vec<ModelEvent>, ModelResponse), ModelError> {
    crate::drive::decode_recorded(ChatAccumulator::new(Default::default(), None), chunks)
}

/// Decodes a recorded non-streamed Chat Completions body.
pub fn decode_response(body: &[u8]) -> Result<(Vec<ModelEvent>, ModelResponse), ModelError> {
    crate::drive::decode_whole(ChatAccumulator::new(Default::default(), None), body)
}

impl Model for OpenAiChat {
    fn name(&self) -> &str {
        &self.name
    }

    fn profile(&self) -> &ModelProfile {
        &self.profile
    }

    fn stream<'a>(&'a self, request: ModelRequest<'a>) -> ModelStream<'a> {
        let hint = self.last_body.load(Ordering::Relaxed);
        let built = request::build(
            &self.model,
            &self.profile,
            self.endpoint.streaming,
            &request,
            &self.lowered,
            hint,
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
            ChatAccumulator::new(strict_tools, secret).call_deltas(request.tool_call_deltas),
        )
    }
}

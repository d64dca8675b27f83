//! OpenAI Responses, stateless (`store: false`).

mod request;
mod stream;

use std::time::Duration;

use tackle_core::{
    Model, ModelError, ModelErrorKind, ModelEvent, ModelProfile, ModelRequest, ModelResponse, ModelStream,
};
use tackle_http::{HttpClient, SecretString};

use crate::drive::{drive, failed};
use crate::openai_chat::{SetupError, unfilled_endpoint};
use crate::presets::Preset;
use stream::ResponsesAccumulator;

/// A model behind a Responses endpoint.
#[derive(Debug, Clone)]
pub struct OpenAiResponses {
    name: String,
    model: String,
    endpoint: String,
    api_key: Option<SecretString>,
    preset: Preset,
    profile: ModelProfile,
    client: HttpClient,
    streaming: bool,
    include_reasoning: bool,
    idle_timeout: Duration,
}

impl OpenAiResponses {
    /// A model on `preset` (normally OpenAI or Azure) with the key from its variable.
    pub fn new(preset: &Preset, model: impl Into<String>) -> Result<Self, SetupError> {
        let key = preset.api_key_env.and_then(SecretString::from_env);
        Self::with_key(preset, model, key)
    }

    /// A model on `preset` with an explicit key.
    pub fn with_key(
        preset: &Preset,
        model: impl Into<String>,
        api_key: Option<SecretString>,
    ) -> Result<Self, SetupError> {
        if preset.requires_key && api_key.is_none() {
            return Err(SetupError::MissingKey {
                preset: preset.name,
                env: preset.api_key_env.unwrap_or("an API key"),
            });
        }
        let model = model.into();
        let client = HttpClient::new().map_err(|e| SetupError::Http(e.to_string()))?;
        let profile = ModelProfile {
            supports_tools: true,
            supports_parallel_tool_calls: true,
            accepts_parallel_tool_calls_flag: preset.accepts_parallel_tool_calls,
            supports_strict_schemas: true,
            supports_tool_choice_required: true,
            supports_thinking: true,
            supports_streaming: true,
            reports_stream_usage: true,
            supports_image_results: true,
            context_window: None,
        };
        Ok(OpenAiResponses {
            name: format!("{}-responses:{model}", preset.name),
            endpoint: format!("{}/responses", preset.base_url),
            model,
            api_key,
            preset: *preset,
            profile,
            client,
            streaming: true,
            include_reasoning: true,
            idle_timeout: Duration::from_secs(120),
        })
    }

    /// Uses another base URL (`…/v1`); `/responses` is appended. Presets whose URL has a
    /// placeholder (Azure's `{resource}`) need one.
    pub fn base_url(mut self, base_url: &str) -> Self {
        self.endpoint = format!("{}/responses", base_url.trim_end_matches('/'));
        self
    }

    /// Uses this HTTP client.
    pub fn client(mut self, client: HttpClient) -> Self {
        self.client = client;
        self
    }

    /// Streams responses (the default) or asks for whole ones.
    pub fn streaming(mut self, streaming: bool) -> Self {
        self.streaming = streaming;
        self.profile.supports_streaming = streaming;
        self
    }

    /// Asks for encrypted reasoning so that it can be replayed (on by default).
    pub fn include_reasoning(mut self, include: bool) -> Self {
        self.include_reasoning = include;
        self
    }

    /// The request body this model would send for `request` (for inspection and tests).
    pub fn request_body(&self, request: &ModelRequest<'_>) -> Result<serde_json::Value, ModelError> {
        let built =
            request::build(&self.model, &self.preset, self.streaming, self.include_reasoning, request)
                .map_err(|e| ModelError::new(ModelErrorKind::InvalidRequest, e))?;
        serde_json::from_slice(&built.body)
            .map_err(|e| ModelError::new(ModelErrorKind::InvalidRequest, e.to_string()))
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
        if let Some(error) = unfilled_endpoint(&self.endpoint) {
            return failed(error);
        }
        let built =
            request::build(&self.model, &self.preset, self.streaming, self.include_reasoning, &request);
        let built = match built {
            Ok(built) => built,
            Err(message) => return failed(ModelError::new(ModelErrorKind::InvalidRequest, message)),
        };
        let headers = self.preset.key_header.headers(self.api_key.as_ref());
        let body = bytes::Bytes::from(built.body);
        let send = async move { self.client.post_json(&self.endpoint, &headers, body).await };
        let secret = self.api_key.as_ref().map(|k| k.expose().to_owned());
        drive(send, ResponsesAccumulator::new(built.strict_tools, secret), self.streaming, self.idle_timeout)
    }
}

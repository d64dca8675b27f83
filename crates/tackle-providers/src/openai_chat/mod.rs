//! OpenAI Chat Completions, and every server that speaks it (see [`crate::presets`]).

mod request;
mod stream;
mod wire;

use std::time::Duration;

use tackle_core::{Model, ModelError, ModelErrorKind, ModelProfile, ModelRequest, ModelStream};
use tackle_http::{HttpClient, SecretString};

use crate::drive::{drive, failed};
use crate::presets::Preset;
use stream::ChatAccumulator;
pub(crate) use stream::error_from_body;

/// A model behind a Chat Completions endpoint.
#[derive(Debug, Clone)]
pub struct OpenAiChat {
    name: String,
    model: String,
    endpoint: String,
    api_key: Option<SecretString>,
    preset: Preset,
    profile: ModelProfile,
    client: HttpClient,
    streaming: bool,
    idle_timeout: Duration,
}

/// Why a Chat Completions model could not be set up.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SetupError {
    /// The host needs a key and none was found.
    #[error("{preset} needs an API key: set {env} or pass one in the settings")]
    MissingKey {
        /// The preset.
        preset: &'static str,
        /// The environment variable to set.
        env: &'static str,
    },
    /// The base URL still has a placeholder.
    #[error("the base URL {0:?} has a placeholder to fill in (for example your Azure resource name)")]
    Placeholder(String),
    /// The HTTP client could not be built.
    #[error("{0}")]
    Http(String),
}

/// The error for an endpoint whose preset URL still has a placeholder.
pub(crate) fn unfilled_endpoint(endpoint: &str) -> Option<ModelError> {
    endpoint.contains('{').then(|| {
        ModelError::new(
            ModelErrorKind::InvalidRequest,
            SetupError::Placeholder(endpoint.to_owned()).to_string(),
        )
    })
}

impl OpenAiChat {
    /// A model on the host `preset`, with the key from the preset's environment variable.
    pub fn new(preset: &Preset, model: impl Into<String>) -> Result<Self, SetupError> {
        let api_key = preset.api_key_env.and_then(SecretString::from_env);
        Self::with_key(preset, model, api_key)
    }

    /// A model on the host `preset` with an explicit key (or none).
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
            supports_strict_schemas: preset.strict_schemas,
            supports_tool_choice_required: preset.tool_choice_required,
            supports_streaming: true,
            reports_stream_usage: preset.stream_usage,
            ..ModelProfile::default()
        };
        let mut chat = OpenAiChat {
            name: format!("{}:{model}", preset.name),
            model,
            endpoint: String::new(),
            api_key,
            preset: *preset,
            profile,
            client,
            streaming: true,
            idle_timeout: Duration::from_secs(120),
        };
        chat.endpoint = format!("{}/chat/completions", preset.base_url);
        Ok(chat)
    }

    /// Uses another base URL (`…/v1`); `/chat/completions` is appended. Presets whose URL
    /// has a placeholder (Azure's `{resource}`) need one.
    pub fn base_url(mut self, base_url: &str) -> Result<Self, SetupError> {
        if base_url.contains('{') {
            return Err(SetupError::Placeholder(base_url.to_owned()));
        }
        self.endpoint = format!("{}/chat/completions", base_url.trim_end_matches('/'));
        Ok(self)
    }

    /// Uses this HTTP client (retry policy, guards).
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

    /// How long a streamed response may stay silent before it counts as cut off.
    pub fn idle_timeout(mut self, timeout: Duration) -> Self {
        self.idle_timeout = timeout;
        self
    }

    /// The endpoint requests go to.
    pub fn endpoint(&self) -> &str {
        &self.endpoint
    }

    /// The request body this model would send for `request` (for inspection and tests).
    pub fn request_body(&self, request: &ModelRequest<'_>) -> Result<serde_json::Value, ModelError> {
        let built = request::build(&self.model, &self.preset, self.streaming, request)
            .map_err(|e| ModelError::new(ModelErrorKind::InvalidRequest, e))?;
        serde_json::from_slice(&built.body)
            .map_err(|e| ModelError::new(ModelErrorKind::InvalidRequest, e.to_string()))
    }
}

/// Decodes a recorded streamed Chat Completions body, split into chunks anywhere, exactly
/// as a live response is decoded (for replaying recordings).
pub fn decode_stream<'c>(
    chunks: impl IntoIterator<Item = &'c [u8]>,
) -> Result<(Vec<tackle_core::ModelEvent>, tackle_core::ModelResponse), ModelError> {
    crate::drive::decode_recorded(ChatAccumulator::new(Default::default(), None), chunks)
}

/// Decodes a recorded non-streamed Chat Completions body.
pub fn decode_response(
    body: &[u8],
) -> Result<(Vec<tackle_core::ModelEvent>, tackle_core::ModelResponse), ModelError> {
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
        if let Some(error) = unfilled_endpoint(&self.endpoint) {
            return failed(error);
        }
        let built = match request::build(&self.model, &self.preset, self.streaming, &request) {
            Ok(built) => built,
            Err(message) => return failed(ModelError::new(ModelErrorKind::InvalidRequest, message)),
        };
        let headers = self.preset.key_header.headers(self.api_key.as_ref());
        let body = bytes::Bytes::from(built.body);
        let send = async move { self.client.post_json(&self.endpoint, &headers, body).await };
        let secret = self.api_key.as_ref().map(|k| k.expose().to_owned());
        drive(send, ChatAccumulator::new(built.strict_tools, secret), self.streaming, self.idle_timeout)
    }
}

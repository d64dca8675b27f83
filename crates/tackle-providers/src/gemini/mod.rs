//! Google Gemini `generateContent`, on the Gemini API (Google AI, an API key) and on
//! Vertex AI (a project and location, an OAuth token).
//!
//! Each turn is replayed exactly as received: every part, with its thought signature, in
//! its place (Gemini 3 refuses a function call turn whose signature is missing). All results
//! of a round go back as `functionResponse` parts of one user turn, by name and by the call's
//! id where the API gave one.

mod auth;
mod request;
mod schema;
mod stream;
mod wire;

use std::borrow::Cow;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use serde::Serialize;
use tackle_core::{
    Model, ModelError, ModelErrorKind, ModelEvent, ModelProfile, ModelRequest, ModelResponse, ModelStream,
    Secret, ToolDefinition,
};
use tackle_http::{HeaderMap, HeaderName, HttpClient};

pub use auth::{GoogleCredentials, VERTEX_SCOPE};
pub use request::MAX_DECLARATIONS;

use crate::endpoint::{Endpoint, SetupError, inspect, segment};
use crate::strict::Lowered;
use stream::GeminiAccumulator;

/// Lowers a canonical JSON Schema to the OpenAPI subset Gemini's `parameters` take (what
/// this adapter sends to models that do not read `parametersJsonSchema`).
pub fn lower_schema(schema: &serde_json::Map<String, serde_json::Value>) -> serde_json::Value {
    schema::lower(schema)
}

/// The Gemini API's base URL.
pub const GOOGLE_AI_BASE_URL: &str = "https://generativelanguage.googleapis.com/v1beta";

/// How a Gemini model thinks, sent as `generationConfig.thinkingConfig`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ThinkingConfig {
    /// Tokens the model may think with (`0` turns thinking off where the model allows it,
    /// `-1` lets the model decide): Gemini 2.5.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub thinking_budget: Option<i32>,
    /// `minimal`, `low`, `medium` or `high`: Gemini 3.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub thinking_level: Option<String>,
    /// Whether thought summaries come back with the answer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub include_thoughts: Option<bool>,
}

/// Tool names as sent: tackle's own where they fit Gemini's rule, else a mapped name,
/// turned back on the way in.
#[derive(Debug, Default)]
pub(crate) struct Names {
    /// `(wire, canonical)` for each offered tool whose name had to change.
    mapped: Vec<(String, String)>,
}

impl Names {
    fn of(tools: &[Arc<ToolDefinition>]) -> Self {
        let mapped = tools
            .iter()
            .filter_map(|d| match request::wire_name(&d.name) {
                Cow::Owned(wire) => Some((wire, d.name.clone())),
                Cow::Borrowed(_) => None,
            })
            .collect();
        Names { mapped }
    }

    pub(crate) fn wire<'a>(&self, name: &'a str) -> Cow<'a, str> {
        request::wire_name(name)
    }

    pub(crate) fn canonical<'a>(&'a self, wire: &'a str) -> &'a str {
        self.mapped.iter().find(|(w, _)| w == wire).map_or(wire, |(_, canonical)| canonical)
    }
}

/// Where the requests go and how they are authorised.
#[derive(Debug, Clone)]
enum Target {
    /// The Gemini API: `x-goog-api-key`.
    GoogleAi { key: Secret },
    /// Vertex AI: a bearer token from these credentials.
    Vertex { project: String, location: String, credentials: Arc<GoogleCredentials> },
}

/// A model behind Gemini's `generateContent`.
#[derive(Debug, Clone)]
pub struct Gemini {
    name: String,
    model: String,
    target: Target,
    profile: ModelProfile,
    endpoint: Endpoint,
    /// `…/models/{model}`: the method is appended per round.
    model_url: String,
    pub(crate) json_schema: bool,
    pub(crate) thinking: Option<ThinkingConfig>,
    pub(crate) max_tokens: Option<u32>,
    pub(crate) lowered: Arc<GeminiLowered>,
    last_body: Arc<AtomicUsize>,
}

/// The lowered `parameters` of each offered definition, made once per definition.
#[derive(Debug, Default)]
pub(crate) struct GeminiLowered(Lowered);

impl GeminiLowered {
    pub(crate) fn get(&self, definition: &Arc<ToolDefinition>) -> Arc<serde_json::Value> {
        match self.0.get_with(definition, |schema| Ok(schema::lower(schema))) {
            Ok(lowered) => lowered,
            // The lowering never fails; should it, the schema goes as it is.
            Err(_) => Arc::new(serde_json::Value::Object(definition.parameters.as_map().clone())),
        }
    }
}

/// Whether a model reads `parametersJsonSchema`: Gemini 2.5 and later.
fn reads_json_schema(model: &str) -> bool {
    let Some(version) = model.strip_prefix("gemini-") else { return false };
    let number: String = version.chars().take_while(|c| c.is_ascii_digit() || *c == '.').collect();
    let mut pieces = number.split('.').map(|p| p.parse::<u32>().unwrap_or(0));
    let (major, minor) = (pieces.next().unwrap_or(0), pieces.next().unwrap_or(0));
    (major, minor) >= (2, 5)
}

impl Gemini {
    /// A model on the Gemini API with the key from `GEMINI_API_KEY` (or `GOOGLE_API_KEY`).
    pub fn new(model: impl Into<String>) -> Result<Self, SetupError> {
        let key = Secret::from_env("GEMINI_API_KEY")
            .or_else(|| Secret::from_env("GOOGLE_API_KEY"))
            .ok_or(SetupError::MissingKey { preset: "gemini", env: "GEMINI_API_KEY" })?;
        Self::with_key(model, key)
    }

    /// A model on the Gemini API with an explicit key.
    pub fn with_key(model: impl Into<String>, key: Secret) -> Result<Self, SetupError> {
        Self::build(model.into(), Target::GoogleAi { key }, GOOGLE_AI_BASE_URL)
    }

    /// A model on Vertex AI in `project` and `location` (`global`, `us-central1`, …).
    pub fn vertex(
        model: impl Into<String>,
        project: impl Into<String>,
        location: impl Into<String>,
        credentials: GoogleCredentials,
    ) -> Result<Self, SetupError> {
        let location = location.into();
        let base = if location == "global" {
            "https://aiplatform.googleapis.com/v1".to_owned()
        } else {
            format!("https://{}-aiplatform.googleapis.com/v1", segment(&location))
        };
        let target = Target::Vertex { project: project.into(), location, credentials: Arc::new(credentials) };
        Self::build(model.into(), target, &base)
    }

    /// A model on Vertex AI configured from the environment: the project from
    /// `GOOGLE_CLOUD_PROJECT` (else the credentials' own), the location from
    /// `GOOGLE_CLOUD_LOCATION` (default `global`), the credentials from
    /// [`GoogleCredentials::from_env`].
    pub fn vertex_from_env(model: impl Into<String>) -> Result<Self, SetupError> {
        let credentials = GoogleCredentials::from_env()?;
        let project = std::env::var("GOOGLE_CLOUD_PROJECT")
            .ok()
            .filter(|p| !p.is_empty())
            .or_else(|| credentials.project_id().map(str::to_owned))
            .ok_or(SetupError::MissingKey { preset: "vertex", env: "GOOGLE_CLOUD_PROJECT" })?;
        let location = std::env::var("GOOGLE_CLOUD_LOCATION")
            .ok()
            .filter(|l| !l.is_empty())
            .unwrap_or_else(|| "global".into());
        Self::vertex(model, project, location, credentials)
    }

    fn build(model: String, target: Target, base: &str) -> Result<Self, SetupError> {
        let model = model.strip_prefix("models/").map(str::to_owned).unwrap_or(model);
        let gemini3 = model.starts_with("gemini-3");
        // Function responses with media parts: Gemini 3.
        let profile = ModelProfile::default()
            .supports_tools(true)
            .supports_parallel_tool_calls(true)
            .accepts_parallel_tool_calls_flag(false)
            .supports_strict_schemas(false)
            .supports_tool_choice_required(true)
            .supports_streaming(true)
            .reports_stream_usage(true)
            .accepts_tool_result_images(gemini3);
        let prefix = match &target {
            Target::GoogleAi { .. } => "gemini",
            Target::Vertex { .. } => "vertex",
        };
        let mut gemini = Gemini {
            name: format!("{prefix}:{model}"),
            json_schema: reads_json_schema(&model),
            model,
            target,
            profile,
            endpoint: Endpoint::new(base, "")?,
            model_url: String::new(),
            thinking: None,
            max_tokens: None,
            lowered: Arc::default(),
            last_body: Arc::default(),
        };
        gemini.set_base(base)?;
        Ok(gemini)
    }

    fn set_base(&mut self, base: &str) -> Result<(), SetupError> {
        if base.contains('{') {
            return Err(SetupError::Placeholder(base.to_owned()));
        }
        let base = base.trim_end_matches('/');
        self.model_url = match &self.target {
            Target::GoogleAi { .. } => format!("{base}/models/{}", segment(&self.model)),
            Target::Vertex { project, location, .. } => format!(
                "{base}/projects/{}/locations/{}/publishers/google/models/{}",
                segment(project),
                segment(location),
                segment(&self.model)
            ),
        };
        Ok(())
    }

    /// Uses another base URL: `…/v1beta` for the Gemini API (`/models/{model}` is
    /// appended), `…/v1` for Vertex AI (`/projects/…/models/{model}` is appended).
    pub fn base_url(mut self, base_url: &str) -> Result<Self, SetupError> {
        self.set_base(base_url)?;
        Ok(self)
    }

    /// Uses this HTTP client (for the model and for token exchanges).
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

    /// Output tokens per round when the request does not say (default: the model's own).
    pub fn max_tokens(mut self, max_tokens: u32) -> Self {
        self.max_tokens = Some(max_tokens);
        self
    }

    /// Sends tool schemas as plain JSON Schema (`parametersJsonSchema`) or lowered to the
    /// OpenAPI subset (`parameters`). The default is JSON Schema for Gemini 2.5 and later.
    pub fn json_schema(mut self, on: bool) -> Self {
        self.json_schema = on;
        self
    }

    /// Sets how the model thinks.
    pub fn thinking(mut self, config: ThinkingConfig) -> Self {
        self.thinking = Some(config);
        self
    }

    /// A thinking budget in tokens (Gemini 2.5), with thought summaries returned.
    pub fn thinking_budget(self, tokens: i32) -> Self {
        let config = ThinkingConfig {
            thinking_budget: Some(tokens),
            include_thoughts: Some(true),
            ..Default::default()
        };
        self.thinking(config)
    }

    /// A thinking level (Gemini 3: `minimal`, `low`, `medium`, `high`), with thought
    /// summaries returned.
    pub fn thinking_level(self, level: impl Into<String>) -> Self {
        let config = ThinkingConfig {
            thinking_level: Some(level.into()),
            include_thoughts: Some(true),
            ..Default::default()
        };
        self.thinking(config)
    }

    /// Declares what the model can do, in place of the defaults.
    pub fn with_profile(mut self, profile: ModelProfile) -> Self {
        self.endpoint.streaming = profile.supports_streaming;
        self.profile = profile;
        self
    }

    fn url(&self) -> String {
        if self.endpoint.streaming {
            format!("{}:streamGenerateContent?alt=sse", self.model_url)
        } else {
            format!("{}:generateContent", self.model_url)
        }
    }

    fn body(&self, request: &ModelRequest<'_>, names: &Names) -> Result<Vec<u8>, String> {
        let body =
            request::build(self, &self.profile, request, names, self.last_body.load(Ordering::Relaxed));
        if let Ok(body) = &body {
            self.last_body.store(body.len() + body.len() / 8 + 1024, Ordering::Relaxed);
        }
        body
    }

    /// The request body this model would send for `request` (for inspection and tests).
    pub fn request_body(&self, request: &ModelRequest<'_>) -> Result<serde_json::Value, ModelError> {
        inspect(self.body(request, &Names::of(request.tools)))
    }

    fn secrets(&self) -> Vec<Secret> {
        match &self.target {
            Target::GoogleAi { key } => vec![key.clone()],
            Target::Vertex { credentials, .. } => credentials.secrets(),
        }
    }
}

/// Decodes a recorded `streamGenerateContent?alt=sse` body, split into chunks anywhere,
/// exactly as a live response is decoded.
pub fn decode_stream<'c>(
    chunks: impl IntoIterator<Item = &'c [u8]>,
) -> Result<(Vec<ModelEvent>, ModelResponse), ModelError> {
    crate::drive::decode_recorded(GeminiAccumulator::new(Arc::default(), Vec::new()), chunks)
}

/// Decodes a recorded non-streamed `generateContent` body.
pub fn decode_response(body: &[u8]) -> Result<(Vec<ModelEvent>, ModelResponse), ModelError> {
    crate::drive::decode_whole(GeminiAccumulator::new(Arc::default(), Vec::new()), body)
}

impl Model for Gemini {
    fn name(&self) -> &str {
        &self.name
    }

    fn profile(&self) -> &ModelProfile {
        &self.profile
    }

    fn stream<'a>(&'a self, request: ModelRequest<'a>) -> ModelStream<'a> {
        let names = Arc::new(Names::of(request.tools));
        let body = self.body(&request, &names);
        let acc = GeminiAccumulator::new(names, self.secrets()).call_deltas(request.tool_call_deltas);
        let client = &self.endpoint.client;
        let target = &self.target;
        self.endpoint.round_to(
            self.url(),
            move |_| async move {
                let mut headers = HeaderMap::new();
                let (name, value) = match target {
                    Target::GoogleAi { key } => ("x-goog-api-key", HttpClient::secret_header(key)),
                    Target::Vertex { credentials, .. } => {
                        let token = credentials.token(client).await?;
                        ("authorization", HttpClient::bearer(&token))
                    }
                };
                let value = value.ok_or_else(|| {
                    ModelError::new(
                        ModelErrorKind::Authentication,
                        "the credential holds characters a header cannot",
                    )
                })?;
                headers.insert(HeaderName::from_static(name), value);
                Ok(headers)
            },
            body,
            acc,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_schema_from_two_point_five() {
        assert!(reads_json_schema("gemini-2.5-flash"));
        assert!(reads_json_schema("gemini-3-pro-preview"));
        assert!(reads_json_schema("gemini-3.1-flash-lite"));
        assert!(!reads_json_schema("gemini-2.0-flash"));
        assert!(!reads_json_schema("gemini-1.5-pro"));
        assert!(!reads_json_schema("gemma-3-27b-it"));
    }

    #[test]
    fn urls_for_both_hosts() {
        let ai = Gemini::with_key("models/gemini-2.5-flash", Secret::new("k")).unwrap();
        assert_eq!(
            ai.url(),
            "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse"
        );
        let vertex = Gemini::vertex(
            "gemini-2.5-pro",
            "my-proj",
            "europe-west4",
            GoogleCredentials::access_token(Secret::new("t")),
        )
        .unwrap()
        .streaming(false);
        assert_eq!(
            vertex.url(),
            "https://europe-west4-aiplatform.googleapis.com/v1/projects/my-proj/locations/europe-west4/publishers/google/models/gemini-2.5-pro:generateContent"
        );
        let global =
            Gemini::vertex("gemini-3-pro", "p", "global", GoogleCredentials::access_token(Secret::new("t")))
                .unwrap();
        assert!(
            global.url().starts_with("https://aiplatform.googleapis.com/v1/projects/p/locations/global/")
        );
    }
}

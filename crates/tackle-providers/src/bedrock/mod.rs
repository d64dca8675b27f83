//! AWS Bedrock Converse (`converse-stream`, or `converse` for whole responses).
//!
//! Requests are signed with SigV4 (or carry a Bedrock API key); the streamed body is AWS's
//! binary event-stream, decoded with its checksums checked. The assistant turn is replayed
//! as received (reasoning with its signature); all results of a round go back in one user
//! message, failed and blocked ones with `status: "error"`. Model ids, inference profiles
//! and ARNs are passed through as given.

mod credentials;
mod request;
mod stream;
mod wire;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, SystemTime};

use serde_json::{Value, json};
use tackle_core::{
    Model, ModelError, ModelErrorKind, ModelEvent, ModelProfile, ModelRequest, ModelResponse, ModelStream,
};
use tackle_http::{HeaderMap, HeaderName, HttpClient};

pub use credentials::{AwsCredentials, BedrockAuth, region_from_env};

use crate::endpoint::{Endpoint, SetupError, inspect, segment};
use request::Options;
use stream::ConverseAccumulator;

/// A model on AWS Bedrock, through the Converse API.
#[derive(Debug, Clone)]
pub struct Bedrock {
    name: String,
    model: String,
    region: String,
    auth: BedrockAuth,
    profile: ModelProfile,
    endpoint: Endpoint,
    /// `…/model/{id}`: the method is appended per round.
    model_url: String,
    max_tokens: Option<u32>,
    additional_fields: Option<Value>,
    last_body: Arc<AtomicUsize>,
}

impl Bedrock {
    /// A model in the region and with the credentials the AWS CLI would use (see
    /// [`BedrockAuth::load`] and [`region_from_env`]).
    pub fn new(model: impl Into<String>) -> Result<Self, SetupError> {
        let region =
            region_from_env().ok_or(SetupError::MissingKey { preset: "bedrock", env: "AWS_REGION" })?;
        Self::with_auth(model, region, BedrockAuth::load()?)
    }

    /// A model in `region` with these credentials.
    pub fn with_auth(
        model: impl Into<String>,
        region: impl Into<String>,
        auth: BedrockAuth,
    ) -> Result<Self, SetupError> {
        let model = model.into();
        let region = region.into();
        if region.is_empty() || !region.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
            return Err(SetupError::Credentials(format!("{region:?} is not an AWS region name")));
        }
        let profile = ModelProfile::default()
            .supports_tools(true)
            .supports_parallel_tool_calls(true)
            .accepts_parallel_tool_calls_flag(false)
            .supports_strict_schemas(false)
            .supports_tool_choice_required(true)
            .supports_streaming(true)
            .reports_stream_usage(true)
            .accepts_tool_result_images(true);
        let base = format!("https://bedrock-runtime.{region}.amazonaws.com");
        let mut bedrock = Bedrock {
            name: format!("bedrock:{model}"),
            model,
            region,
            auth,
            profile,
            endpoint: Endpoint::new(&base, "")?,
            model_url: String::new(),
            max_tokens: None,
            additional_fields: None,
            last_body: Arc::default(),
        };
        bedrock.set_base(&base)?;
        Ok(bedrock)
    }

    fn set_base(&mut self, base: &str) -> Result<(), SetupError> {
        if base.contains('{') {
            return Err(SetupError::Placeholder(base.to_owned()));
        }
        self.model_url = format!("{}/model/{}", base.trim_end_matches('/'), segment(&self.model));
        Ok(())
    }

    /// Uses another endpoint (a VPC endpoint, a proxy); `/model/{id}/…` is appended.
    pub fn base_url(mut self, base_url: &str) -> Result<Self, SetupError> {
        self.set_base(base_url)?;
        Ok(self)
    }

    /// Uses this HTTP client.
    pub fn client(mut self, client: HttpClient) -> Self {
        self.endpoint.client = client;
        self
    }

    /// Streams responses (the default, `converse-stream`) or asks for whole ones (`converse`).
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

    /// Model-specific request fields, sent as `additionalModelRequestFields`.
    pub fn additional_fields(mut self, fields: Value) -> Self {
        self.additional_fields = Some(fields);
        self
    }

    /// Extended thinking with this budget, for Anthropic models on Bedrock.
    pub fn thinking(mut self, budget_tokens: u32) -> Self {
        let mut fields = self.additional_fields.take().unwrap_or_else(|| json!({}));
        if let Value::Object(map) = &mut fields {
            map.insert("thinking".into(), json!({"type": "enabled", "budget_tokens": budget_tokens}));
        }
        self.additional_fields = Some(fields);
        self
    }

    /// Declares what the model can do, in place of the defaults.
    pub fn with_profile(mut self, profile: ModelProfile) -> Self {
        self.endpoint.streaming = profile.supports_streaming;
        self.profile = profile;
        self
    }

    fn url(&self) -> String {
        let method = if self.endpoint.streaming { "converse-stream" } else { "converse" };
        format!("{}/{method}", self.model_url)
    }

    fn body(&self, request: &ModelRequest<'_>) -> Result<Vec<u8>, String> {
        let options =
            Options { max_tokens: self.max_tokens, additional_fields: self.additional_fields.as_ref() };
        let body = request::build(&self.profile, &options, request, self.last_body.load(Ordering::Relaxed));
        if let Ok(body) = &body {
            self.last_body.store(body.len() + body.len() / 8 + 1024, Ordering::Relaxed);
        }
        body
    }

    /// The request body this model would send for `request` (for inspection and tests).
    pub fn request_body(&self, request: &ModelRequest<'_>) -> Result<Value, ModelError> {
        inspect(self.body(request))
    }
}

/// Decodes a recorded `converse-stream` body (binary event-stream), split into chunks
/// anywhere, exactly as a live response is decoded.
pub fn decode_stream<'c>(
    chunks: impl IntoIterator<Item = &'c [u8]>,
) -> Result<(Vec<ModelEvent>, ModelResponse), ModelError> {
    crate::drive::decode_recorded(ConverseAccumulator::new(Vec::new()), chunks)
}

/// Decodes a recorded `converse` body.
pub fn decode_response(body: &[u8]) -> Result<(Vec<ModelEvent>, ModelResponse), ModelError> {
    crate::drive::decode_whole(ConverseAccumulator::new(Vec::new()), body)
}

impl Model for Bedrock {
    fn name(&self) -> &str {
        &self.name
    }

    fn profile(&self) -> &ModelProfile {
        &self.profile
    }

    fn stream<'a>(&'a self, request: ModelRequest<'a>) -> ModelStream<'a> {
        let body = self.body(&request);
        let acc = ConverseAccumulator::new(self.auth.secrets()).call_deltas(request.tool_call_deltas);
        let url = self.url();
        let signed_url = url.clone();
        self.endpoint.round_to(
            url,
            move |body| {
                // Signed over the exact bytes that are sent.
                let headers = match &self.auth {
                    BedrockAuth::SigV4(credentials) => {
                        credentials.sign(&self.region, &signed_url, body, SystemTime::now())
                    }
                    BedrockAuth::ApiKey(key) => HttpClient::bearer(key)
                        .map(|value| {
                            let mut headers = HeaderMap::new();
                            headers.insert(HeaderName::from_static("authorization"), value);
                            headers
                        })
                        .ok_or_else(|| {
                            ModelError::new(
                                ModelErrorKind::Authentication,
                                "the API key holds characters a header cannot",
                            )
                        }),
                };
                std::future::ready(headers)
            },
            body,
            acc,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tackle_core::Secret;

    #[test]
    fn model_ids_and_profiles_are_passed_through_encoded() {
        let auth = BedrockAuth::ApiKey(Secret::new("k"));
        let model =
            Bedrock::with_auth("us.anthropic.claude-sonnet-4-5-20250929-v1:0", "us-west-2", auth.clone())
                .unwrap();
        assert_eq!(
            model.url(),
            "https://bedrock-runtime.us-west-2.amazonaws.com/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse-stream"
        );
        let arn =
            "arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.meta.llama3-1-70b-instruct-v1:0";
        let model = Bedrock::with_auth(arn, "us-east-1", auth.clone()).unwrap().streaming(false);
        assert!(model.url().ends_with("/model/arn%3Aaws%3Abedrock%3Aus-east-1%3A123456789012%3Ainference-profile%2Fus.meta.llama3-1-70b-instruct-v1%3A0/converse"));
        assert!(Bedrock::with_auth("m", "us-east-1/../x", auth).is_err());
    }
}

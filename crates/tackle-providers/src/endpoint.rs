//! What every adapter shares about where its requests go: the URL, the HTTP client,
//! streaming or not, the idle timeout, and how a round is sent.

use std::time::Duration;

use tackle_core::{ModelError, ModelErrorKind, ModelStream};
use tackle_http::{HeaderMap, HttpClient};

use crate::drive::{Accumulate, Failed, drive, failed};

/// Why a model could not be set up.
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
    /// Credentials were found but cannot be used.
    #[error("{0}")]
    Credentials(String),
}

/// A path segment, percent-encoded (a model or project name in a URL path).
#[cfg(any(feature = "gemini", feature = "bedrock"))]
pub(crate) fn segment(text: &str) -> String {
    const KEEP: &percent_encoding::AsciiSet =
        &percent_encoding::NON_ALPHANUMERIC.remove(b'-').remove(b'_').remove(b'.').remove(b'~');
    percent_encoding::utf8_percent_encode(text, KEEP).to_string()
}

/// Refuses a preset that needs a key when there is none.
#[cfg(feature = "openai")]
pub(crate) fn require_key(
    preset: &crate::Preset,
    key: Option<&tackle_core::Secret>,
) -> Result<(), SetupError> {
    if preset.requires_key && key.is_none() {
        return Err(SetupError::MissingKey {
            preset: preset.name,
            env: preset.api_key_env.unwrap_or("an API key"),
        });
    }
    Ok(())
}

/// Where and how an adapter sends its rounds.
#[derive(Debug, Clone)]
pub(crate) struct Endpoint {
    // Gemini and Bedrock build their URLs per round themselves.
    #[cfg_attr(not(any(feature = "openai", feature = "anthropic")), allow(dead_code))]
    pub(crate) url: String,
    pub(crate) client: HttpClient,
    pub(crate) streaming: bool,
    pub(crate) idle_timeout: Duration,
}

impl Endpoint {
    /// `base` (`…/v1`) joined with `path`, streaming, a default client and a 120 s idle
    /// timeout. A placeholder in the URL is reported when a round is sent.
    pub(crate) fn new(base: &str, path: &str) -> Result<Self, SetupError> {
        let client = HttpClient::new().map_err(|e| SetupError::Http(e.to_string()))?.trace_context(true);
        Ok(Endpoint {
            url: format!("{}/{path}", base.trim_end_matches('/')),
            client,
            streaming: true,
            idle_timeout: Duration::from_secs(120),
        })
    }

    /// Points at another base URL, refusing one with a placeholder.
    #[cfg(any(feature = "openai", feature = "anthropic"))]
    pub(crate) fn rebase(&mut self, base: &str, path: &str) -> Result<(), SetupError> {
        if base.contains('{') {
            return Err(SetupError::Placeholder(base.to_owned()));
        }
        self.url = format!("{}/{path}", base.trim_end_matches('/'));
        Ok(())
    }

    /// Sends one round: `body` is the serialised request, `acc` reads the response.
    #[cfg(any(feature = "openai", feature = "anthropic"))]
    pub(crate) fn round<'a, A: Accumulate + 'a>(
        &'a self,
        headers: HeaderMap,
        body: Result<Vec<u8>, String>,
        acc: A,
    ) -> ModelStream<'a> {
        self.round_to(self.url.clone(), |_| std::future::ready(Ok(headers)), body, acc)
    }

    /// Sends one round to `url`: `headers` are made for the serialised body once it is
    /// known (a signature covers it; a token may have to be fetched first).
    pub(crate) fn round_to<'a, A, H, F>(
        &'a self,
        url: String,
        headers: H,
        body: Result<Vec<u8>, String>,
        acc: A,
    ) -> ModelStream<'a>
    where
        A: Accumulate + 'a,
        H: FnOnce(&[u8]) -> F,
        F: std::future::Future<Output = Result<HeaderMap, ModelError>> + Send + 'a,
    {
        if url.contains('{') {
            let message = SetupError::Placeholder(url).to_string();
            return failed(ModelError::new(ModelErrorKind::InvalidRequest, message));
        }
        let body = match body {
            Ok(body) => bytes::Bytes::from(body),
            Err(message) => return failed(ModelError::new(ModelErrorKind::InvalidRequest, message)),
        };
        let headers = headers(&body);
        let send = async move {
            let headers = headers.await.map_err(Failed::Model)?;
            Ok(self.client.post_json(&url, &headers, body).await?)
        };
        drive(send, acc, self.streaming, self.idle_timeout)
    }
}

/// Parses a request body for inspection.
pub(crate) fn inspect(body: Result<Vec<u8>, String>) -> Result<serde_json::Value, ModelError> {
    let body = body.map_err(|e| ModelError::new(ModelErrorKind::InvalidRequest, e))?;
    serde_json::from_slice(&body).map_err(|e| ModelError::new(ModelErrorKind::InvalidRequest, e.to_string()))
}

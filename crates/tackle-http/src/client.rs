//! [`HttpClient`]: JSON POSTs with retries, backoff and `Retry-After`.

use std::net::IpAddr;
use std::time::{Duration, SystemTime};

use reqwest::header::{HeaderMap, HeaderValue, RETRY_AFTER};
use tackle_core::{ModelError, ModelErrorKind};

use tackle_core::Secret;

/// How failed requests are retried.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryConfig {
    /// Retries after the first attempt.
    pub max_retries: u32,
    /// The wait before the first retry; it doubles each time.
    pub initial_backoff: Duration,
    /// The longest computed wait.
    pub max_backoff: Duration,
    /// The longest `Retry-After` honoured; a server asking for more is not retried.
    pub max_retry_after: Duration,
}

impl Default for RetryConfig {
    fn default() -> Self {
        RetryConfig {
            max_retries: 2,
            initial_backoff: Duration::from_millis(500),
            max_backoff: Duration::from_secs(8),
            max_retry_after: Duration::from_secs(60),
        }
    }
}

impl RetryConfig {
    fn backoff(&self, retry: u32) -> Duration {
        let exp = self.initial_backoff.saturating_mul(1u32 << retry.min(16));
        let ceiling = exp.min(self.max_backoff);
        let half = ceiling / 2;
        half + half.mul_f64(fastrand::f64())
    }
}

/// A failed HTTP exchange. Messages never contain credentials or URL queries.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum HttpError {
    /// The URL is not usable.
    #[error("invalid URL: {0}")]
    InvalidUrl(String),
    /// The loopback-only guard refused a request to another host.
    #[error("refused a request to {host}: only loopback hosts may be reached here (TACKLE_LOOPBACK_ONLY)")]
    NotLoopback {
        /// The host that was refused.
        host: String,
    },
    /// The server answered with an error status.
    #[error("the server answered {status}")]
    Status {
        /// The status code.
        status: u16,
        /// The response body (at most 64 KiB), for the adapter to read the provider's error.
        body: String,
        /// How long the server asked to wait.
        retry_after: Option<Duration>,
    },
    /// No response headers arrived in time.
    #[error("no response within {0:?}")]
    Timeout(Duration),
    /// The connection failed.
    #[error("connection failed: {0}")]
    Transport(String),
    /// The body is larger than allowed (counted after decompression).
    #[error("the response is larger than {limit} bytes")]
    TooLarge {
        /// The limit.
        limit: u64,
    },
    /// The response was refused before its body was read (for example its content type).
    #[error("{0}")]
    Unacceptable(String),
}

/// The kind of failure an HTTP status stands for.
pub fn kind_for_status(status: u16) -> ModelErrorKind {
    match status {
        401 | 403 => ModelErrorKind::Authentication,
        408 | 429 => ModelErrorKind::RateLimited,
        413 => ModelErrorKind::ContextTooLong,
        503 | 529 => ModelErrorKind::Overloaded,
        500..=599 => ModelErrorKind::Server,
        _ => ModelErrorKind::InvalidRequest,
    }
}

impl HttpError {
    /// The kind of failure.
    pub fn kind(&self) -> ModelErrorKind {
        match self {
            HttpError::Status { status, .. } => kind_for_status(*status),
            HttpError::Timeout(_) | HttpError::Transport(_) => ModelErrorKind::Transport,
            HttpError::InvalidUrl(_) | HttpError::NotLoopback { .. } => ModelErrorKind::InvalidRequest,
            HttpError::TooLarge { .. } | HttpError::Unacceptable(_) => ModelErrorKind::InvalidResponse,
        }
    }

    fn retryable(&self) -> bool {
        match self {
            HttpError::Status { status, .. } => {
                matches!(status, 408 | 409 | 429 | 500 | 502 | 503 | 504 | 529)
            }
            HttpError::Timeout(_) | HttpError::Transport(_) => true,
            _ => false,
        }
    }

    /// A model error with this failure's kind, the given message and the retry hint.
    pub fn into_model_error(self, message: impl Into<String>) -> ModelError {
        let retry_after = match &self {
            HttpError::Status { retry_after, .. } => *retry_after,
            _ => None,
        };
        ModelError { kind: self.kind(), message: message.into(), retry_after }
    }
}

/// Whether `TACKLE_LOOPBACK_ONLY` asks every request to stay on loopback.
pub(crate) fn loopback_only_from_env() -> bool {
    std::env::var_os("TACKLE_LOOPBACK_ONLY").is_some_and(|v| !v.is_empty() && v != "0")
}

/// Reads `Retry-After`: seconds, or an HTTP date.
pub fn parse_retry_after(value: &str) -> Option<Duration> {
    let value = value.trim();
    if let Ok(seconds) = value.parse::<u64>() {
        return Some(Duration::from_secs(seconds));
    }
    if let Ok(seconds) = value.parse::<f64>() {
        return (seconds.is_finite() && seconds >= 0.0).then(|| Duration::from_secs_f64(seconds));
    }
    let when = httpdate::parse_http_date(value).ok()?;
    Some(when.duration_since(SystemTime::now()).unwrap_or(Duration::ZERO))
}

/// A response that arrived with a success status, its body not yet read.
#[derive(Debug)]
pub struct Sent {
    response: reqwest::Response,
    /// Attempts it took, the successful one included.
    pub attempts: u32,
}

impl Sent {
    /// The body's length, when the server said it.
    pub fn content_length(&self) -> Option<u64> {
        self.response.content_length()
    }

    /// The body as a stream of byte chunks as they arrive.
    pub fn into_byte_stream(
        self,
    ) -> futures_util::stream::BoxStream<'static, Result<bytes::Bytes, HttpError>> {
        use futures_util::StreamExt;
        self.response
            .bytes_stream()
            .map(|chunk| {
                chunk
                    .map_err(|e| HttpError::Transport(format!("the response broke off: {}", e.without_url())))
            })
            .boxed()
    }

    /// The whole body, refusing more than `cap` bytes.
    pub async fn read_all(mut self, cap: usize) -> Result<Vec<u8>, HttpError> {
        let mut body = Vec::new();
        loop {
            match self.response.chunk().await {
                Ok(Some(chunk)) => {
                    if body.len() + chunk.len() > cap {
                        return Err(HttpError::Transport(format!("the response is larger than {cap} bytes")));
                    }
                    body.extend_from_slice(&chunk);
                }
                Ok(None) => return Ok(body),
                Err(e) => {
                    return Err(HttpError::Transport(format!("the response broke off: {}", e.without_url())));
                }
            }
        }
    }
}

/// An HTTP client for model APIs. Cheap to clone.
#[derive(Debug, Clone)]
pub struct HttpClient {
    client: reqwest::Client,
    retry: RetryConfig,
    loopback_only: bool,
    first_byte_timeout: Duration,
}

const MAX_ERROR_BODY: usize = 64 * 1024;

impl HttpClient {
    /// A client with the default retry policy, a 10 s connect timeout and a 120 s wait for
    /// the first byte. The loopback-only guard is on when `TACKLE_LOOPBACK_ONLY` is set.
    pub fn new() -> Result<Self, HttpError> {
        let client = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(10))
            .user_agent(concat!("tackle/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| HttpError::Transport(e.without_url().to_string()))?;
        let loopback_only =
            std::env::var_os("TACKLE_LOOPBACK_ONLY").is_some_and(|v| !v.is_empty() && v != "0");
        Ok(HttpClient {
            client,
            retry: RetryConfig::default(),
            loopback_only,
            first_byte_timeout: Duration::from_secs(120),
        })
    }

    /// Sets the retry policy.
    pub fn retry(mut self, retry: RetryConfig) -> Self {
        self.retry = retry;
        self
    }

    /// Refuses every request to a host that is not loopback.
    pub fn loopback_only(mut self, on: bool) -> Self {
        self.loopback_only = on || self.loopback_only;
        self
    }

    /// How long to wait for the response headers of one attempt.
    pub fn first_byte_timeout(mut self, timeout: Duration) -> Self {
        self.first_byte_timeout = timeout;
        self
    }

    /// An `Authorization: Bearer …` value, marked sensitive so it never prints.
    pub fn bearer(secret: &Secret) -> Option<HeaderValue> {
        let mut value = HeaderValue::from_str(&format!("Bearer {}", secret.expose())).ok()?;
        value.set_sensitive(true);
        Some(value)
    }

    /// A header value holding a secret, marked sensitive.
    pub fn secret_header(secret: &Secret) -> Option<HeaderValue> {
        let mut value = HeaderValue::from_str(secret.expose()).ok()?;
        value.set_sensitive(true);
        Some(value)
    }

    fn check_target(&self, url: &str) -> Result<reqwest::Url, HttpError> {
        let parsed = reqwest::Url::parse(url).map_err(|e| HttpError::InvalidUrl(format!("{e}")))?;
        if self.loopback_only {
            let host = parsed
                .host_str()
                .unwrap_or_default()
                .trim_start_matches('[')
                .trim_end_matches(']')
                .to_owned();
            let loopback = match host.parse::<IpAddr>() {
                Ok(ip) => ip.is_loopback(),
                Err(_) => host == "localhost" || host.ends_with(".localhost"),
            };
            if !loopback {
                return Err(HttpError::NotLoopback { host });
            }
        }
        Ok(parsed)
    }

    /// POSTs `body` (JSON) to `url` with `headers`, retrying retryable failures.
    pub async fn post_json(
        &self,
        url: &str,
        headers: &HeaderMap,
        body: bytes::Bytes,
    ) -> Result<Sent, HttpError> {
        self.send(url, |client, target| {
            client
                .post(target)
                .headers(headers.clone())
                .header(reqwest::header::CONTENT_TYPE, "application/json")
                .body(body.clone())
        })
        .await
    }

    /// GETs `url` with `headers`, retrying retryable failures (for downloads; pages a model
    /// chose are read through a pinned connection instead).
    pub async fn get(&self, url: &str, headers: &HeaderMap) -> Result<Sent, HttpError> {
        self.send(url, |client, target| client.get(target).headers(headers.clone())).await
    }

    async fn send(
        &self,
        url: &str,
        build: impl Fn(&reqwest::Client, reqwest::Url) -> reqwest::RequestBuilder,
    ) -> Result<Sent, HttpError> {
        let target = self.check_target(url)?;
        let mut attempt = 0;
        loop {
            attempt += 1;
            let request = build(&self.client, target.clone());
            let error = match tokio::time::timeout(self.first_byte_timeout, request.send()).await {
                Err(_) => HttpError::Timeout(self.first_byte_timeout),
                Ok(Err(e)) => HttpError::Transport(e.without_url().to_string()),
                Ok(Ok(response)) if response.status().is_success() => {
                    return Ok(Sent { response, attempts: attempt });
                }
                Ok(Ok(response)) => error_status(response).await,
            };
            let retries_used = attempt - 1;
            if !error.retryable() || retries_used >= self.retry.max_retries {
                return Err(error);
            }
            let wait = match &error {
                HttpError::Status { retry_after: Some(asked), .. } if *asked > self.retry.max_retry_after => {
                    return Err(error);
                }
                HttpError::Status { retry_after: Some(asked), .. } => *asked,
                _ => self.retry.backoff(retries_used),
            };
            tracing::debug!(attempt, ?wait, error = %error, "retrying request");
            tokio::time::sleep(wait).await;
        }
    }
}

async fn error_status(response: reqwest::Response) -> HttpError {
    let status = response.status();
    let retry_after =
        response.headers().get(RETRY_AFTER).and_then(|v| v.to_str().ok()).and_then(parse_retry_after);
    let body = read_capped(response).await;
    HttpError::Status { status: status.as_u16(), body, retry_after }
}

async fn read_capped(mut response: reqwest::Response) -> String {
    let mut body = Vec::new();
    while let Ok(Some(chunk)) = response.chunk().await {
        let room = MAX_ERROR_BODY.saturating_sub(body.len());
        body.extend_from_slice(&chunk[..chunk.len().min(room)]);
        if body.len() >= MAX_ERROR_BODY {
            break;
        }
    }
    String::from_utf8_lossy(&body).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_in_seconds_and_dates() {
        assert_eq!(parse_retry_after("7"), Some(Duration::from_secs(7)));
        assert_eq!(parse_retry_after("1.5"), Some(Duration::from_millis(1500)));
        assert_eq!(parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT"), Some(Duration::ZERO));
        assert_eq!(parse_retry_after("soon"), None);
        assert_eq!(parse_retry_after("-3"), None);
    }

    #[test]
    fn statuses_map_to_kinds() {
        assert_eq!(kind_for_status(401), ModelErrorKind::Authentication);
        assert_eq!(kind_for_status(429), ModelErrorKind::RateLimited);
        assert_eq!(kind_for_status(529), ModelErrorKind::Overloaded);
        assert_eq!(kind_for_status(502), ModelErrorKind::Server);
        assert_eq!(kind_for_status(400), ModelErrorKind::InvalidRequest);
    }

    #[test]
    fn the_guard_refuses_other_hosts() {
        let client = HttpClient::new().unwrap().loopback_only(true);
        assert!(client.check_target("http://127.0.0.1:9/v1").is_ok());
        assert!(client.check_target("http://[::1]:9/v1").is_ok());
        assert!(client.check_target("http://localhost:9/v1").is_ok());
        let err = client.check_target("https://api.openai.com/v1").unwrap_err();
        assert!(matches!(err, HttpError::NotLoopback { ref host } if host == "api.openai.com"));
        assert!(err.to_string().contains("only loopback hosts"));
    }
}

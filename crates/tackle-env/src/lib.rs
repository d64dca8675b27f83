//! Where the environment tools act. An [`Environment`] is a tree of files under one root —
//! a directory on disk ([`LocalDir`]) or a tree in memory ([`MemoryTree`], for tests and for
//! hosts that keep files elsewhere) — and every path into it is a [`RelPath`]: relative,
//! `/`-separated, made of plain names only, so that `..`, absolute and drive paths,
//! backslashes and percent-encoded separators are refused before anything is touched, with
//! an error that names the path. On disk, symbolic links are followed only while they stay
//! under the root, and files with more than one hard link are refused (their other names
//! may be anywhere).
//!
//! ```
//! use std::sync::Arc;
//! use tackle_env::{FileTools, MemoryTree};
//! use tackle_tools::ToolRegistry;
//!
//! // A tree in memory; `LocalDir::new("project")?` confines the same tools to a directory.
//! let env = Arc::new(MemoryTree::new().with_file("notes/todo.md", "- ship it\n"));
//! let mut tools = ToolRegistry::builder();
//! for tool in FileTools::new(env).all()? {
//!     tools = tools.tool(tool);
//! }
//! let registry = tools.build()?;
//! assert!(registry.definition("read_file").is_some());
//! assert!(registry.definition("write_file").is_some());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The one decision that shaped this crate: a path is checked twice — once as text, when it
//! is parsed, and once as the file system resolves it, when it is used — because neither
//! alone covers links.

mod ask;
mod background;
mod env;
mod files;
mod local;
mod memory;
mod path;
mod search;
mod shell;
mod skills;

pub use ask::{Answer, Choice, Question, Questions, answer, ask_user_question};
pub use background::{Background, EndReason, Exit, STDIN_MAX_BYTES, Snapshot};
pub use env::{EntryKind, EnvError, Environment, FileData, Metadata};
pub use files::{
    DIFF_MAX_LINES, EDIT_MAX_BYTES, FileTools, LIST_MAX_ENTRIES, READ_DEFAULT_LINES, READ_OUTPUT_CHARS,
    READ_SCAN_BYTES, preview, unified_diff,
};
pub use local::LocalDir;
pub use memory::MemoryTree;
pub use path::RelPath;
pub use search::{GLOB_MAX_PATHS, GREP_MAX_FILE_BYTES, GREP_MAX_RESULTS, SearchTools};
pub use shell::{Captured, CommandOutcome, CommandRequest, ShellError, ShellPolicy, ShellTools, run_command};
pub use skills::{Scope, Skill, SkillChanges, SkillSet, Skills, discover};

//! `glob` and `grep`: finding files and text the way ripgrep does, on any [`Environment`].

use std::fmt::Write as _;
use std::sync::Arc;

use grep_regex::RegexMatcherBuilder;
use grep_searcher::{BinaryDetection, SearcherBuilder, sinks};
use schemars::JsonSchema;
use serde::Deserialize;
use tackle_core::ToolError;
use tackle_tools::{FunctionTool, ToolBuildError, ToolContext, typed_tool};

use crate::env::tool_error;
use crate::{EntryKind, Environment, RelPath};

/// Paths `glob` names at most.
pub const GLOB_MAX_PATHS: usize = 1_000;
/// Lines (or files, or counts) `grep` returns at most.
pub const GREP_MAX_RESULTS: usize = 500;
/// Files larger than this are not searched.
pub const GREP_MAX_FILE_BYTES: u64 = 8 << 20;
/// A matching line longer than this is cut.
const GREP_LINE_CHARS: usize = 500;

/// The search tools over one environment.
#[derive(Clone)]
pub struct SearchTools {
    env: Arc<dyn Environment>,
}

#[derive(Deserialize, JsonSchema)]
struct GlobArgs {
    /// A glob: `*.rs` matches file names anywhere, `src/**/*.rs` paths under the directory.
    pattern: String,
    /// The directory to look in (default: the root).
    #[serde(default)]
    path: Option<String>,
    /// Include hidden files and directories (a leading dot; `.agents` is always included).
    #[serde(default)]
    hidden: bool,
}

/// What `grep` returns.
#[derive(Deserialize, JsonSchema, Default, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
enum OutputMode {
    /// Matching lines, as `path:line:text`.
    #[default]
    Content,
    /// The files that match.
    FilesWithMatches,
    /// Matching lines per file.
    Count,
}

#[derive(Deserialize, JsonSchema)]
struct GrepArgs {
    /// A regular expression (Rust regex syntax, as ripgrep's).
    pattern: String,
    /// A file or directory to search (default: the root).
    #[serde(default)]
    path: Option<String>,
    /// Only files whose names (or, with a `/`, paths) match this glob.
    #[serde(default)]
    glob: Option<String>,
    /// Match regardless of case.
    #[serde(default)]
    case_insensitive: bool,
    /// `content` (default), `files_with_matches` or `count`.
    #[serde(default)]
    output_mode: OutputMode,
    /// Include hidden files and directories.
    #[serde(default)]
    hidden: bool,
}

/// Matches files by name, or by path below `base` when the glob holds a `/`.
struct NameGlob {
    set: globset::GlobMatcher,
    by_path: bool,
}

impl NameGlob {
    fn new(pattern: &str) -> Result<Self, ToolError> {
        let glob = globset::GlobBuilder::new(pattern)
            .literal_separator(true)
            .build()
            .map_err(|e| ToolError::feedback(format!("the glob {pattern:?} is not valid: {e}")))?;
        Ok(NameGlob { set: glob.compile_matcher(), by_path: pattern.contains('/') })
    }

    fn matches(&self, base: &RelPath, path: &RelPath) -> bool {
        if self.by_path {
            let rest = if base.is_root() { path.as_str() } else { &path.as_str()[base.as_str().len() + 1..] };
            self.set.is_match(rest)
        } else {
            path.file_name().is_some_and(|n| self.set.is_match(n))
        }
    }
}

impl SearchTools {
    /// The tools over `env`.
    pub fn new(env: Arc<dyn Environment>) -> Self {
        SearchTools { env }
    }

    /// Both.
    pub fn all(&self) -> Result<Vec<FunctionTool>, ToolBuildError> {
        Ok(vec![self.glob()?, self.grep()?])
    }

    async fn with_env<T: Send + 'static>(
        &self,
        f: impl FnOnce(&dyn Environment) -> Result<T, ToolError> + Send + 'static,
    ) -> Result<T, ToolError> {
        crate::env::blocking(&self.env, f).await
    }

    /// `glob`: files whose names or paths match a pattern.
    pub fn glob(&self) -> Result<FunctionTool, ToolBuildError> {
        let tools = self.clone();
        typed_tool(
            "glob",
            "Find files under the root by glob (`*.rs`, `src/**/*.toml`), as ripgrep lists them: .gitignore respected, hidden files only when asked.",
            move |_ctx: ToolContext, args: GlobArgs| {
                let tools = tools.clone();
                async move {
                    let base = RelPath::parse(args.path.as_deref().unwrap_or(".")).map_err(tool_error)?;
                    let glob = NameGlob::new(&args.pattern)?;
                    tools
                        .with_env(move |env| {
                            let found: Vec<RelPath> = env
                                .walk(&base, args.hidden)
                                .map_err(tool_error)?
                                .into_iter()
                                .filter(|(p, k)| *k == EntryKind::File && glob.matches(&base, p))
                                .map(|(p, _)| p)
                                .collect();
                            let mut out = format!("{} files match {:?} in {base}\n", found.len(), args.pattern);
                            for path in found.iter().take(GLOB_MAX_PATHS) {
                                let _ = writeln!(out, "{path}");
                            }
                            if found.len() > GLOB_MAX_PATHS {
                                let _ = writeln!(out, "[{} more not shown; narrow the pattern]", found.len() - GLOB_MAX_PATHS);
                            }
                            Ok(out)
                        })
                        .await
                }
            },
        )
        .idempotent()
        .routing_hint("Use when the user looks for files by name or type (all .py files, files named config.json), not by what they contain.")
        .build()
    }

    /// `grep`: lines matching a regular expression.
    pub fn grep(&self) -> Result<FunctionTool, ToolBuildError> {
        let tools = self.clone();
        typed_tool(
            "grep",
            "Search file contents under the root for a regular expression, as ripgrep does (.gitignore respected, binary files skipped): matching lines, matching files, or counts.",
            move |_ctx: ToolContext, args: GrepArgs| {
                let tools = tools.clone();
                async move {
                    let base = RelPath::parse(args.path.as_deref().unwrap_or(".")).map_err(tool_error)?;
                    let glob = args.glob.as_deref().map(NameGlob::new).transpose()?;
                    let matcher = RegexMatcherBuilder::new()
                        .case_insensitive(args.case_insensitive)
                        .line_terminator(Some(b'\n'))
                        .build(&args.pattern)
                        .map_err(|e| ToolError::feedback(format!("the pattern {:?} is not a valid regular expression: {e}", args.pattern)))?;
                    tools.with_env(move |env| grep(env, &base, glob.as_ref(), &matcher, args.output_mode, args.hidden)).await
                }
            },
        )
        .returns_untrusted_content()
        .idempotent()
        .routing_hint("Use when the user looks for text inside files: where a word, a function, an import or a TODO appears.")
        .build()
    }
}

fn grep(
    env: &dyn Environment,
    base: &RelPath,
    glob: Option<&NameGlob>,
    matcher: &grep_regex::RegexMatcher,
    mode: OutputMode,
    hidden: bool,
) -> Result<String, ToolError> {
    // A file is searched alone; a directory, file by file.
    let meta = env.metadata(base).map_err(tool_error)?;
    let files: Vec<RelPath> = if meta.kind == EntryKind::File {
        vec![base.clone()]
    } else {
        env.walk(base, hidden)
            .map_err(tool_error)?
            .into_iter()
            .filter(|(p, k)| *k == EntryKind::File && glob.is_none_or(|g| g.matches(base, p)))
            .map(|(p, _)| p)
            .collect()
    };
    // Files are handed out one at a time to as many threads as there are cores (at most
    // four), each with its own searcher; results go back in path order.
    let threads =
        std::thread::available_parallelism().map_or(1, usize::from).clamp(1, 4).min(files.len().max(1));
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut outcomes: Vec<(usize, Option<Matches>)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut searcher = SearcherBuilder::new()
                        .binary_detection(BinaryDetection::quit(0))
                        .line_number(true)
                        .build();
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(path) = files.get(i) else { break };
                        mine.push((i, search_file(env, path, matcher, &mut searcher)));
                    }
                    mine
                })
            })
            .collect();
        workers.into_iter().flat_map(|w| w.join().unwrap_or_default()).collect()
    });
    outcomes.sort_unstable_by_key(|(i, _)| *i);
    let (mut lines, mut results) = (0usize, Vec::new());
    let (mut files_matched, mut skipped) = (0usize, 0usize);
    for (i, outcome) in outcomes {
        let path = &files[i];
        let Some(found) = outcome else {
            skipped += 1;
            continue;
        };
        if found.is_empty() {
            continue;
        }
        files_matched += 1;
        lines += found.len();
        match mode {
            OutputMode::Content => {
                for (line, text) in found {
                    let mut text = text;
                    if text.len() > GREP_LINE_CHARS {
                        let mut cut = GREP_LINE_CHARS;
                        while !text.is_char_boundary(cut) {
                            cut -= 1;
                        }
                        text.truncate(cut);
                        text.push_str(" [...]");
                    }
                    results.push(format!("{path}:{line}:{text}"));
                }
            }
            OutputMode::FilesWithMatches => results.push(path.to_string()),
            OutputMode::Count => results.push(format!("{path}:{}", found.len())),
        }
    }
    let mut out =
        format!("{lines} matching lines in {files_matched} files ({} searched", files.len() - skipped);
    if skipped > 0 {
        let _ = write!(out, ", {skipped} skipped: larger than 8 MiB or not readable");
    }
    out.push_str(")\n");
    for result in results.iter().take(GREP_MAX_RESULTS) {
        out.push_str(result);
        out.push('\n');
    }
    if results.len() > GREP_MAX_RESULTS {
        let _ = writeln!(
            out,
            "[{} more not shown; narrow the pattern, the path or the glob]",
            results.len() - GREP_MAX_RESULTS
        );
    }
    Ok(out)
}

/// Matching lines of one file: line number and text.
type Matches = Vec<(u64, String)>;

/// The matching lines of one file; `None` when it could not be searched (unreadable, or
/// larger than [`GREP_MAX_FILE_BYTES`]).
fn search_file(
    env: &dyn Environment,
    path: &RelPath,
    matcher: &grep_regex::RegexMatcher,
    searcher: &mut grep_searcher::Searcher,
) -> Option<Matches> {
    let data = env.read(path, GREP_MAX_FILE_BYTES).ok().filter(|d| !d.truncated())?;
    let mut found: Matches = Vec::new();
    let searched = searcher.search_slice(
        matcher,
        &data.bytes,
        sinks::Lossy(|line, text| {
            found.push((line, text.trim_end_matches(['\n', '\r']).to_owned()));
            Ok(true)
        }),
    );
    // A file the searcher gives up on (invalid data mid-way) counts as matching nothing.
    Some(if searched.is_ok() { found } else { Vec::new() })
}

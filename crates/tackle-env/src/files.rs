//! The file tools: `read_file`, `list_dir`, `write_file`, `edit_file`, `multi_edit`, on any
//! [`Environment`].

use std::fmt::Write as _;
use std::sync::Arc;

use schemars::JsonSchema;
use serde::Deserialize;
use tackle_core::ToolError;
use tackle_tools::{FunctionTool, ToolBuildError, ToolContext, typed_tool};

use crate::env::tool_error;
use crate::{EntryKind, EnvError, Environment, RelPath};

/// How much of a file `read_file` looks at: lines past it cannot be read with the tool.
pub const READ_SCAN_BYTES: u64 = 8 << 20;
/// How many characters `read_file` returns at most; the rest is cut with a marker.
pub const READ_OUTPUT_CHARS: usize = 100_000;
/// Lines returned when no limit is asked for.
pub const READ_DEFAULT_LINES: usize = 2_000;
/// The largest file the edit tools change.
pub const EDIT_MAX_BYTES: u64 = 8 << 20;
/// Entries `list_dir` names at most.
pub const LIST_MAX_ENTRIES: usize = 1_000;
/// Lines of a diff the write and edit tools leave for the host at most.
pub const DIFF_MAX_LINES: usize = 400;

/// The unified diff of `path` from `before` to `after`, with two lines of context, cut to
/// `max_lines` lines (and a line saying how many more there were).
pub fn unified_diff(path: &str, before: &str, after: &str, max_lines: usize) -> String {
    let diff = similar::TextDiff::from_lines(before, after);
    let text =
        diff.unified_diff().context_radius(2).header(&format!("a/{path}"), &format!("b/{path}")).to_string();
    let total = text.lines().count();
    if total <= max_lines {
        return text;
    }
    let mut kept: String = text.lines().take(max_lines).flat_map(|l| [l, "\n"]).collect();
    let _ = writeln!(kept, "... {} more diff lines", total - max_lines);
    kept
}

/// A write's or an edit's result: `message` for the model; the path and the diff it made
/// for the host (shown to the user after the call, kept in the trace).
fn changed(message: String, path: &RelPath, before: &str, after: &str) -> tackle_core::ToolReturn {
    let diff = unified_diff(path.as_str(), before, after, DIFF_MAX_LINES);
    tackle_core::ToolReturn::text(message)
        .with_private_metadata(serde_json::json!({ "path": path.as_str(), "diff": diff }))
}

/// The file tools over one environment.
#[derive(Clone)]
pub struct FileTools {
    env: Arc<dyn Environment>,
}

#[derive(Deserialize, JsonSchema)]
struct ReadArgs {
    /// The file, relative to the root.
    path: String,
    /// The first line to return, counting from 1.
    #[serde(default)]
    offset: Option<usize>,
    /// How many lines to return (default 2,000).
    #[serde(default)]
    limit: Option<usize>,
}

#[derive(Deserialize, JsonSchema)]
struct ListArgs {
    /// The directory, relative to the root (default: the root).
    #[serde(default)]
    path: Option<String>,
}

#[derive(Deserialize, JsonSchema)]
struct WriteArgs {
    /// The file, relative to the root; missing directories are made.
    path: String,
    /// The whole new content.
    content: String,
}

#[derive(Deserialize, JsonSchema, Clone)]
struct Edit {
    /// The exact text to replace, with enough surrounding lines to occur once.
    old_string: String,
    /// What replaces it.
    new_string: String,
    /// Replace every occurrence instead of exactly one.
    #[serde(default)]
    replace_all: bool,
}

#[derive(Deserialize, JsonSchema)]
struct EditArgs {
    /// The file, relative to the root.
    path: String,
    #[serde(flatten)]
    edit: Edit,
}

#[derive(Deserialize, JsonSchema)]
struct MultiEditArgs {
    /// The file, relative to the root.
    path: String,
    /// Edits applied in order, each to the result of the one before; if one fails, none is
    /// written.
    edits: Vec<Edit>,
}

fn parse(path: &str) -> Result<RelPath, ToolError> {
    RelPath::parse(path).map_err(tool_error)
}

impl FileTools {
    /// The tools over `env`.
    pub fn new(env: Arc<dyn Environment>) -> Self {
        FileTools { env }
    }

    /// All five, read-only ones first.
    pub fn all(&self) -> Result<Vec<FunctionTool>, ToolBuildError> {
        Ok(vec![
            self.read_file()?,
            self.list_dir()?,
            self.write_file()?,
            self.edit_file()?,
            self.multi_edit()?,
        ])
    }

    /// Runs `f` on the environment off the async threads (a directory's I/O blocks).
    async fn with_env<T: Send + 'static>(
        &self,
        f: impl FnOnce(&dyn Environment) -> Result<T, ToolError> + Send + 'static,
    ) -> Result<T, ToolError> {
        crate::env::blocking(&self.env, f).await
    }

    /// `read_file`: numbered lines of a text file, from `offset` for `limit` lines.
    pub fn read_file(&self) -> Result<FunctionTool, ToolBuildError> {
        let tools = self.clone();
        typed_tool(
            "read_file",
            "Read a text file under the root: numbered lines, from `offset` (1-based) for `limit` lines. Binary files are described, not shown.",
            move |_ctx: ToolContext, args: ReadArgs| {
                let tools = tools.clone();
                async move {
                    let path = parse(&args.path)?;
                    tools.with_env(move |env| read_text(env, &path, args.offset, args.limit)).await
                }
            },
        )
        .returns_untrusted_content()
        .idempotent()
        .routing_hint("Use when the user names a file and wants to see, read, explain or check what is in it.")
        .build()
    }

    /// `list_dir`: the entries of a directory.
    pub fn list_dir(&self) -> Result<FunctionTool, ToolBuildError> {
        let tools = self.clone();
        typed_tool(
            "list_dir",
            "List a directory under the root: directories end with '/'.",
            move |_ctx: ToolContext, args: ListArgs| {
                let tools = tools.clone();
                async move {
                    let path = parse(args.path.as_deref().unwrap_or("."))?;
                    tools.with_env(move |env| list(env, &path)).await
                }
            },
        )
        .idempotent()
        .routing_hint(
            "Use when the user asks what files or folders a directory holds, or for a directory listing.",
        )
        .build()
    }

    /// `write_file`: creates or replaces a file (approval required).
    pub fn write_file(&self) -> Result<FunctionTool, ToolBuildError> {
        let tools = self.clone();
        typed_tool(
            "write_file",
            "Create or replace a file under the root with the given content. Prefer edit_file for changes to an existing file.",
            move |_ctx: ToolContext, args: WriteArgs| {
                let tools = tools.clone();
                async move {
                    let path = parse(&args.path)?;
                    tools
                        .with_env(move |env| {
                            let existed = env.metadata(&path).ok();
                            // The old text, for the diff (none when it is binary or too large).
                            let before = match &existed {
                                Some(meta) if meta.len <= EDIT_MAX_BYTES => env
                                    .read(&path, EDIT_MAX_BYTES)
                                    .ok()
                                    .and_then(|data| String::from_utf8(data.bytes).ok()),
                                Some(_) => None,
                                None => Some(String::new()),
                            };
                            env.write(&path, args.content.as_bytes()).map_err(tool_error)?;
                            let verb = if existed.is_some() { "Replaced" } else { "Created" };
                            let message = format!("{verb} {path} ({} bytes).", args.content.len());
                            Ok(match before {
                                Some(before) => changed(message, &path, &before, &args.content),
                                None => tackle_core::ToolReturn::text(message),
                            })
                        })
                        .await
                }
            },
        )
        .requires_approval()
        .sequential()
        .routing_hint("Use when the user asks to create a new file or to save text to a file.")
        .build()
    }

    /// `edit_file`: replaces one exact occurrence (or all) of a text (approval required).
    pub fn edit_file(&self) -> Result<FunctionTool, ToolBuildError> {
        let tools = self.clone();
        typed_tool(
            "edit_file",
            "Replace an exact piece of text in a file under the root. `old_string` must occur exactly once unless `replace_all` is set; include surrounding lines to make it unique.",
            move |_ctx: ToolContext, args: EditArgs| {
                let tools = tools.clone();
                async move {
                    let path = parse(&args.path)?;
                    tools.with_env(move |env| edit(env, &path, &[args.edit])).await
                }
            },
        )
        .requires_approval()
        .sequential()
        .routing_hint("Use when the user asks to change, fix, rename or replace something in an existing file.")
        .build()
    }

    /// `multi_edit`: several edits to one file, all or nothing (approval required).
    pub fn multi_edit(&self) -> Result<FunctionTool, ToolBuildError> {
        let tools = self.clone();
        typed_tool(
            "multi_edit",
            "Apply several exact replacements to one file under the root, in order; if any fails, the file is left unchanged.",
            move |_ctx: ToolContext, args: MultiEditArgs| {
                let tools = tools.clone();
                async move {
                    let path = parse(&args.path)?;
                    if args.edits.is_empty() {
                        return Err(ToolError::feedback("multi_edit needs at least one edit"));
                    }
                    tools.with_env(move |env| edit(env, &path, &args.edits)).await
                }
            },
        )
        .requires_approval()
        .sequential()
        .routing_hint("Use when the user asks for several changes to one existing file at once.")
        .build()
    }
}

/// Text of `bytes` and the encoding it was read in; `None` when the bytes are binary.
fn decode(bytes: &[u8]) -> Option<(String, &'static str)> {
    if let Some((encoding, bom)) = encoding_rs::Encoding::for_bom(bytes) {
        let (text, _) = encoding.decode_without_bom_handling(&bytes[bom..]);
        return Some((text.into_owned(), encoding.name()));
    }
    // NUL bytes do not occur in text without a byte-order mark.
    if bytes[..bytes.len().min(8192)].contains(&0) {
        return None;
    }
    match std::str::from_utf8(bytes) {
        Ok(text) => Some((text.to_owned(), "UTF-8")),
        // A read cut inside a character is still UTF-8.
        Err(e) if e.error_len().is_none() => {
            Some((String::from_utf8_lossy(&bytes[..e.valid_up_to()]).into_owned(), "UTF-8"))
        }
        Err(_) => {
            let (text, _, _) = encoding_rs::WINDOWS_1252.decode(bytes);
            // Mostly control characters: binary after all.
            let control = text.chars().filter(|c| c.is_control() && !c.is_whitespace()).count();
            (control * 10 <= text.chars().count()).then(|| (text.into_owned(), "windows-1252"))
        }
    }
}

fn read_text(
    env: &dyn Environment,
    path: &RelPath,
    offset: Option<usize>,
    limit: Option<usize>,
) -> Result<String, ToolError> {
    let data = env.read(path, READ_SCAN_BYTES).map_err(tool_error)?;
    let Some((text, encoding)) = decode(&data.bytes) else {
        return Ok(format!("{path} is a binary file ({} bytes); it is not shown.", data.len));
    };
    let first = offset.unwrap_or(1).max(1);
    let limit = limit.unwrap_or(READ_DEFAULT_LINES).max(1);
    let lines: Vec<&str> = text.lines().collect();
    let total = lines.len();
    if first > total.max(1) {
        return Err(ToolError::feedback(format!(
            "{path} has {total} lines{}; offset {first} is past the end.",
            if data.truncated() { " in its first 8 MiB" } else { "" }
        )));
    }
    let mut out = String::new();
    let last = (first - 1 + limit).min(total);
    let mut shown_to = first - 1;
    for (i, line) in lines.iter().enumerate().take(last).skip(first - 1) {
        if out.len() + line.len() > READ_OUTPUT_CHARS {
            if i + 1 == first {
                // One line longer than the whole allowance: its start, and what it is.
                let mut cut = READ_OUTPUT_CHARS;
                while !line.is_char_boundary(cut) {
                    cut -= 1;
                }
                let _ = writeln!(out, "{:>6}\t{}", i + 1, &line[..cut]);
                let _ = writeln!(
                    out,
                    "[line {} is {} bytes long; only its first {cut} are shown]",
                    i + 1,
                    line.len()
                );
                shown_to = i + 1;
            }
            break;
        }
        let _ = writeln!(out, "{:>6}\t{line}", i + 1);
        shown_to = i + 1;
    }
    let mut header =
        format!("{path}: lines {first}-{shown_to} of {total}{}", if data.truncated() { "+" } else { "" });
    if encoding != "UTF-8" {
        let _ = write!(header, " (read as {encoding})");
    }
    header.push('\n');
    if shown_to < last {
        let _ = writeln!(
            out,
            "[output cut at {READ_OUTPUT_CHARS} characters; continue with offset {}]",
            shown_to + 1
        );
    } else if shown_to < total {
        let _ = writeln!(out, "[{} more lines; continue with offset {}]", total - shown_to, shown_to + 1);
    }
    if data.truncated() && shown_to == total {
        let _ = writeln!(out, "[the file is {} bytes; only its first 8 MiB can be read]", data.len);
    }
    Ok(header + &out)
}

fn list(env: &dyn Environment, path: &RelPath) -> Result<String, ToolError> {
    let mut entries = env.list(path).map_err(tool_error)?;
    entries.sort_by(|a, b| (a.1 != EntryKind::Dir, &a.0).cmp(&(b.1 != EntryKind::Dir, &b.0)));
    let total = entries.len();
    let mut out = format!("{path}: {total} entries\n");
    for (name, kind) in entries.iter().take(LIST_MAX_ENTRIES) {
        let suffix = match kind {
            EntryKind::Dir => "/",
            EntryKind::File => "",
            EntryKind::Other => " (other)",
        };
        let _ = writeln!(out, "{name}{suffix}");
    }
    if total > LIST_MAX_ENTRIES {
        let _ = writeln!(out, "[{} more entries not shown]", total - LIST_MAX_ENTRIES);
    }
    if entries.iter().any(|(name, kind)| name == "SKILL.md" && *kind == EntryKind::File) {
        out.push_str("This directory holds a skill (SKILL.md): read it to learn what the skill does and how to use it.\n");
    }
    Ok(out)
}

/// The 1-based line of byte `at` in `text`.
fn line_of(text: &str, at: usize) -> usize {
    text.as_bytes()[..at].iter().filter(|b| **b == b'\n').count() + 1
}

/// Text with every run of white space made one space, and where each of its bytes came from.
fn squeeze(text: &str) -> (String, Vec<usize>) {
    let (mut out, mut from) = (String::new(), Vec::new());
    let mut space = false;
    for (i, c) in text.char_indices() {
        if c.is_whitespace() {
            if !space {
                out.push(' ');
                from.push(i);
            }
            space = true;
        } else {
            out.push(c);
            from.extend(std::iter::repeat_n(i, c.len_utf8()));
            space = false;
        }
    }
    (out, from)
}

/// Applies `edit` (the `n`th of `count`) to `text`.
fn apply(
    path: &RelPath,
    text: &str,
    edit: &Edit,
    n: usize,
    count: usize,
) -> Result<(String, usize), ToolError> {
    let which = if count > 1 { format!("edit {} of {count}: ", n + 1) } else { String::new() };
    if edit.old_string.is_empty() {
        return Err(ToolError::feedback(format!(
            "{which}old_string is empty; to create a file use write_file"
        )));
    }
    if edit.old_string == edit.new_string {
        return Err(ToolError::feedback(format!("{which}old_string and new_string are the same")));
    }
    let found: Vec<usize> = text.match_indices(&edit.old_string).map(|(i, _)| i).collect();
    match found.len() {
        0 => {
            // The usual slip: the right text with other white space.
            let (hay, from) = squeeze(text);
            let (needle, _) = squeeze(edit.old_string.trim());
            let hint = hay
                .find(&needle)
                .filter(|_| !needle.trim().is_empty())
                .map(|at| format!(" It occurs with different white space at line {}; copy it exactly, as read_file shows it (without the line numbers).", line_of(text, from[at])))
                .unwrap_or_else(|| " Read the file again and copy the text exactly.".to_owned());
            Err(ToolError::feedback(format!("{which}old_string was not found in {path}.{hint}")))
        }
        1 => Ok((text.replacen(&edit.old_string, &edit.new_string, 1), 1)),
        n if edit.replace_all => Ok((text.replace(&edit.old_string, &edit.new_string), n)),
        n => {
            let lines: Vec<String> = found.iter().take(10).map(|at| line_of(text, *at).to_string()).collect();
            Err(ToolError::feedback(format!(
                "{which}old_string occurs {n} times in {path} (at lines {}{}); include more surrounding lines to make it unique, or set replace_all.",
                lines.join(", "),
                if n > 10 { ", ..." } else { "" }
            )))
        }
    }
}

fn edit(env: &dyn Environment, path: &RelPath, edits: &[Edit]) -> Result<tackle_core::ToolReturn, ToolError> {
    let meta = env.metadata(path).map_err(tool_error)?;
    if meta.len > EDIT_MAX_BYTES {
        return Err(ToolError::feedback(format!(
            "{path} is {} bytes, more than the edit tools change (8 MiB).",
            meta.len
        )));
    }
    let data = env.read(path, EDIT_MAX_BYTES).map_err(tool_error)?;
    let Ok(mut text) = String::from_utf8(data.bytes) else {
        return Err(ToolError::feedback(format!(
            "{path} is not UTF-8 text; the edit tools change UTF-8 files only."
        )));
    };
    let before = text.clone();
    let mut replaced = 0;
    for (n, e) in edits.iter().enumerate() {
        let (next, count) = apply(path, &text, e, n, edits.len())?;
        text = next;
        replaced += count;
    }
    env.write(path, text.as_bytes()).map_err(tool_error)?;
    let edits = if edits.len() > 1 { format!(" in {} edits", edits.len()) } else { String::new() };
    let message =
        format!("Edited {path}: {replaced} replacement{}{edits}.", if replaced == 1 { "" } else { "s" });
    Ok(changed(message, path, &before, &text))
}

/// What a write or edit call would make of its file: the content now (empty for a new file)
/// and after, without changing anything — for showing a diff before a human approves the
/// call. `None` for other tools; an error (the call's own correction request) when the call
/// would fail.
pub fn preview(
    env: &dyn Environment,
    tool: &str,
    args: &serde_json::Value,
) -> Option<Result<(RelPath, String, String), String>> {
    let path = args.get("path").and_then(serde_json::Value::as_str)?;
    let run = || -> Result<(RelPath, String, String), ToolError> {
        let path = parse(path)?;
        let current = |must: bool| -> Result<String, ToolError> {
            match env.read(&path, EDIT_MAX_BYTES) {
                Ok(data) => String::from_utf8(data.bytes)
                    .map_err(|_| ToolError::feedback(format!("{path} is not UTF-8 text"))),
                Err(EnvError::NotFound { .. }) if !must => Ok(String::new()),
                Err(e) => Err(tool_error(e)),
            }
        };
        let edits: Vec<Edit> = match tool {
            "write_file" => {
                let content = args.get("content").and_then(serde_json::Value::as_str).unwrap_or_default();
                return Ok((path.clone(), current(false)?, content.to_owned()));
            }
            "edit_file" => {
                vec![serde_json::from_value(args.clone()).map_err(|e| ToolError::feedback(e.to_string()))?]
            }
            "multi_edit" => serde_json::from_value(args.get("edits").cloned().unwrap_or_default())
                .map_err(|e| ToolError::feedback(e.to_string()))?,
            _ => return Err(ToolError::feedback(String::new())),
        };
        let before = current(true)?;
        let mut after = before.clone();
        for (n, e) in edits.iter().enumerate() {
            after = apply(&path, &after, e, n, edits.len())?.0;
        }
        Ok((path, before, after))
    };
    matches!(tool, "write_file" | "edit_file" | "multi_edit").then(|| run().map_err(|e| e.to_string()))
}

//! A server's tools as tackle tools: each definition made from what the server lists
//! (its schema checked like any other tool's), its calls sent to the server, its results
//! mapped to [`ToolReturn`]s.

use std::sync::Arc;

use serde_json::{Map, Value};
use tackle_core::{JsonSchema, Source, ToolDefinition, ToolError, ToolKind, ToolReturn, ToolStatus};
use tackle_tools::{FunctionTool, StaticToolset, ToolBuilder, ToolContext, Toolset};

use crate::client::{Called, McpError, McpServer};

/// The longest tool name providers take.
const NAME_MAX: usize = 64;

/// The name tackle gives tool `name` of a server with `prefix`: `prefix_name`, every
/// character outside `[A-Za-z0-9_-]` made `_`, at most 64 characters (a long name keeps
/// its start and gets a hash of the whole, so that two long names stay apart).
pub fn tool_name(prefix: &str, name: &str) -> String {
    let clean = |s: &str| -> String {
        s.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' || c == '-' { c } else { '_' }).collect()
    };
    let full = if prefix.is_empty() { clean(name) } else { format!("{}_{}", clean(prefix), clean(name)) };
    if full.len() <= NAME_MAX {
        return full;
    }
    // FNV-1a over the original, as eight hex digits.
    let hash = format!("{prefix}\u{0}{name}")
        .bytes()
        .fold(0x811c_9dc5_u32, |h, b| (h ^ u32::from(b)).wrapping_mul(0x0100_0193));
    format!("{}_{hash:08x}", &full[..NAME_MAX - 9])
}

/// A tool the server listed that is not offered, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    /// The tool's name as the server gave it.
    pub tool: String,
    /// Why it is not offered.
    pub reason: String,
}

/// The tools of one server.
pub struct McpToolset {
    name: String,
    server: Arc<McpServer>,
    tools: StaticToolset,
    count: usize,
    skipped: Vec<Skipped>,
}

impl std::fmt::Debug for McpToolset {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpToolset")
            .field("server", &self.name)
            .field("tools", &self.count)
            .field("skipped", &self.skipped)
            .finish()
    }
}

impl McpToolset {
    /// Lists the server's tools and makes the toolset.
    pub async fn load(server: Arc<McpServer>) -> Result<McpToolset, McpError> {
        let listed = server.list_tools().await?;
        Ok(McpToolset::new(server, listed))
    }

    /// The toolset of what the server listed last (after a change it announced, the new
    /// listing), without asking it again.
    pub fn current(server: Arc<McpServer>) -> McpToolset {
        let (listed, _) = server.listing();
        McpToolset::new(server, listed)
    }

    /// The toolset of `listed` (what the server listed): the tools its filters admit,
    /// named with its prefix; those whose definitions do not hold are skipped and kept in
    /// [`McpToolset::skipped`].
    pub fn new(server: Arc<McpServer>, listed: Vec<rmcp::model::Tool>) -> McpToolset {
        let config = server.config().clone();
        let mut tools = StaticToolset::new(format!("mcp:{}", config.name));
        let (mut skipped, mut names, mut count) = (Vec::new(), std::collections::HashSet::new(), 0);
        for tool in listed {
            let original = tool.name.to_string();
            if !config.admits(&original) {
                continue;
            }
            match build(&server, &tool) {
                Ok(built) => {
                    let name = built.definition().name.clone();
                    if !names.insert(name.clone()) {
                        skipped.push(Skipped {
                            tool: original,
                            reason: format!("another tool of this server is named {name} here too"),
                        });
                        continue;
                    }
                    tools = tools.tool(built);
                    count += 1;
                }
                Err(reason) => {
                    tracing::warn!(server = %config.name, tool = %original, "MCP tool skipped: {reason}");
                    skipped.push(Skipped { tool: original, reason });
                }
            }
        }
        McpToolset { name: config.name, server, tools, count, skipped }
    }

    /// The server.
    pub fn server(&self) -> &Arc<McpServer> {
        &self.server
    }

    /// How many tools are offered.
    pub fn len(&self) -> usize {
        self.count
    }

    /// Whether no tool is offered.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The listed tools that are not offered, and why.
    pub fn skipped(&self) -> &[Skipped] {
        &self.skipped
    }
}

impl Toolset for McpToolset {
    fn name(&self) -> &str {
        &self.name
    }

    fn entries(&self) -> Vec<Result<tackle_tools::ToolEntry, tackle_tools::EntryError>> {
        self.tools.entries()
    }
}

/// The tackle tool for one MCP tool.
fn build(server: &Arc<McpServer>, tool: &rmcp::model::Tool) -> Result<FunctionTool, String> {
    let config = server.config();
    let original = tool.name.to_string();
    let name = tool_name(config.tool_prefix(), &original);
    let parameters = JsonSchema::new(Value::Object((*tool.input_schema).clone()))
        .map_err(|e| format!("its input schema is not usable: {e}"))?;
    let annotations = tool.annotations.clone().unwrap_or_default();
    let title = tool.title.clone().or_else(|| annotations.title.clone());
    let description = match (tool.description.as_deref(), title) {
        (Some(d), _) if !d.trim().is_empty() => d.to_owned(),
        (_, Some(title)) => title,
        _ => format!("The tool {original} of the MCP server {}.", config.name),
    };
    let mut definition = ToolDefinition::new(name, description, parameters);
    definition.return_schema = tool.output_schema.as_ref().map(|s| Value::Object((**s).clone()));
    // The spec's defaults: a tool is not read-only, and a tool that is not read-only may
    // destroy. A trusted server's word that a tool changes nothing (or nothing for good)
    // lets it run without asking; an untrusted server's hints are not believed.
    let read_only = annotations.read_only_hint == Some(true);
    let destructive = !read_only && annotations.destructive_hint != Some(false);
    if !config.trusted || destructive {
        definition.kind = ToolKind::ApprovalRequired;
    }
    // Results come from outside unless a trusted server says its world is closed.
    definition.returns_untrusted_content = !(config.trusted && annotations.open_world_hint == Some(false));
    definition.idempotent = config.trusted && (read_only || annotations.idempotent_hint == Some(true));
    definition.timeout = Some(config.call_timeout + std::time::Duration::from_secs(1));
    definition.tags = vec!["mcp".to_owned(), format!("mcp:{}", config.name)];
    let server = Arc::clone(server);
    let (still, listed_as) = (Arc::clone(&server), original.clone());
    ToolBuilder::from_definition(definition, move |ctx: ToolContext, args: Map<String, Value>| {
        let (server, original) = (Arc::clone(&server), original.clone());
        async move {
            // The server's progress notifications become the call's progress reports.
            let progress: Option<crate::client::ProgressFn> = ctx.wants_progress().then(|| {
                let ctx = ctx.clone();
                Arc::new(move |done: f64, total: Option<f64>, message: Option<String>| {
                    ctx.report_progress(done, total, message.as_deref());
                }) as crate::client::ProgressFn
            });
            // A question from the server suspends the run; the answer comes back with the
            // call's next run.
            match server.call(&original, args, progress, ctx.input()).await {
                Ok(Called::Done(response)) => {
                    Ok(map_result(server.config().name.as_str(), server.config().trusted, &response))
                }
                Ok(Called::Asks(request)) => Err(ToolError::InputRequired(Box::new(request))),
                Err(e) => Err(ToolError::failed(e.to_string())),
            }
        }
    })
    // A tool the server stopped listing is not offered from the next round on.
    .available_when(move |_run| still.still_listed(&listed_as))
    .build()
    .map_err(|e| e.errors.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))
}

/// The result as tackle keeps it: structured content (when given) for the model, the
/// content blocks as text — binary ones described, links and resources named — and web
/// links among the sources; `isError` becomes a failed call the model reads.
fn map_result(server: &str, trusted: bool, result: &rmcp::model::CallToolResult) -> ToolReturn {
    let blocks = serde_json::to_value(&result.content).unwrap_or(Value::Null);
    let (mut texts, mut sources, mut attachments) = (Vec::new(), Vec::new(), Vec::new());
    for block in blocks.as_array().map(Vec::as_slice).unwrap_or_default() {
        let field = |name: &str| block.get(name).and_then(Value::as_str);
        let size = |data: Option<&str>| data.map_or(0, |d| d.len() / 4 * 3);
        match field("type") {
            Some("text") => texts.push(field("text").unwrap_or_default().to_owned()),
            // Images reach the model only from a trusted server: the prompt-injection filter
            // cannot read them.
            Some("image") if trusted && attachable(field("mimeType"), field("data")) => {
                let (mime_type, data) =
                    (field("mimeType").unwrap_or_default(), field("data").unwrap_or_default());
                texts.push(format!("[image: {mime_type}, about {} bytes, attached]", size(Some(data))));
                attachments.push(tackle_core::Attachment::image(mime_type, data));
            }
            Some(kind @ ("image" | "audio")) => texts.push(format!(
                "[{kind}: {}, about {} bytes, not shown]",
                field("mimeType").unwrap_or("unknown type"),
                size(field("data"))
            )),
            Some("resource_link") => {
                let uri = field("uri").unwrap_or_default();
                let name = field("name").unwrap_or(uri);
                let mut line = format!("[resource {name}: {uri}]");
                if let Some(description) = field("description") {
                    line.push_str(&format!(" {description}"));
                }
                texts.push(line);
                if uri.starts_with("https://") || uri.starts_with("http://") {
                    sources.push(Source::new(uri.to_owned(), Some(name.to_owned())));
                }
            }
            Some("resource") => {
                let resource = block.get("resource").cloned().unwrap_or(Value::Null);
                let get = |name: &str| resource.get(name).and_then(Value::as_str);
                let uri = get("uri").unwrap_or_default();
                match (get("text"), get("blob")) {
                    (Some(text), _) => texts.push(format!("[resource {uri}]\n{text}")),
                    (None, blob) => texts.push(format!(
                        "[resource {uri}: {}, about {} bytes, not shown]",
                        get("mimeType").unwrap_or("unknown type"),
                        size(blob)
                    )),
                }
            }
            other => texts.push(format!("[content of type {} not shown]", other.unwrap_or("unknown"))),
        }
    }
    let text = texts.join("\n");
    if result.is_error == Some(true) {
        let text = if text.trim().is_empty() {
            format!("the MCP server {server:?} reported an error")
        } else {
            text
        };
        return ToolReturn::with_status(ToolStatus::Failed, format!("Tool execution failed: {text}"));
    }
    let mut ret = match &result.structured_content {
        Some(structured) => {
            let mut ret = ToolReturn::json(structured.clone());
            ret.content.text = (!text.is_empty()).then_some(text);
            ret
        }
        None => ToolReturn::text(text),
    };
    ret = ret.with_sources(sources);
    ret.attachments = attachments;
    ret
}

/// The largest image passed on to the model (decoded bytes).
const IMAGE_MAX_BYTES: usize = 4 << 20;

/// Whether an image block can go to the model as an attachment: a type the model APIs
/// take, valid base64, within the size bound.
fn attachable(mime_type: Option<&str>, data: Option<&str>) -> bool {
    use base64::Engine as _;
    let (Some(mime_type), Some(data)) = (mime_type, data) else { return false };
    matches!(mime_type, "image/png" | "image/jpeg" | "image/gif" | "image/webp")
        && data.len() / 4 * 3 <= IMAGE_MAX_BYTES
        && base64::engine::general_purpose::STANDARD.decode(data).is_ok()
}

#[cfg(test)]
mod tests {
    use super::tool_name;

    #[test]
    fn names_are_prefixed_cleaned_and_bounded() {
        assert_eq!(tool_name("github", "create_issue"), "github_create_issue");
        assert_eq!(tool_name("", "get.sum"), "get_sum");
        assert_eq!(tool_name("fs", "read file/v2"), "fs_read_file_v2");
        let long = "x".repeat(80);
        let (a, b) = (tool_name("s", &format!("{long}a")), tool_name("s", &format!("{long}b")));
        assert!(a.len() <= 64 && b.len() <= 64 && a != b, "{a} {b}");
    }
}

//! MCP servers from the settings (`[mcp.servers.NAME]`): connected when a command needs
//! tools, their tools put in the registry beside the built-in ones; a server that cannot
//! be used is reported once and left out. `tackle mcp list`.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use serde::Deserialize;
use serde_json::json;
use tackle_core::Secret;
use tackle_mcp::{Era, McpServer, McpToolset, ServerConfig, Transport};

use crate::config::Config;
use crate::failure::Failure;

/// `[mcp]` in the settings.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct McpEntry {
    /// The servers by name.
    #[serde(default)]
    pub(crate) servers: BTreeMap<String, ServerEntry>,
}

/// A value that is written in the settings or named there and kept in the secret store.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub(crate) enum Value {
    /// Written out.
    Plain(String),
    /// `{ secret = "NAME" }`: the secret called NAME.
    Secret {
        /// The secret's name.
        secret: String,
    },
}

/// `[mcp.servers.NAME]`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ServerEntry {
    /// A program speaking MCP on stdio.
    command: Option<String>,
    #[serde(default)]
    args: Vec<String>,
    /// Variables for it (values may name secrets).
    #[serde(default)]
    env: BTreeMap<String, Value>,
    cwd: Option<PathBuf>,
    /// Or a Streamable HTTP endpoint.
    url: Option<String>,
    #[serde(default)]
    headers: BTreeMap<String, Value>,
    /// The secret holding a bearer token for the endpoint.
    bearer_secret: Option<String>,
    prefix: Option<String>,
    #[serde(default)]
    include: Vec<String>,
    #[serde(default)]
    exclude: Vec<String>,
    #[serde(default)]
    trusted: bool,
    /// Seconds one call may take (default 60).
    timeout: Option<u64>,
    /// Seconds connecting may take (default 30).
    connect_timeout: Option<u64>,
    /// `false` leaves the server out without deleting its settings.
    enabled: Option<bool>,
}

/// The servers the settings configure (enabled ones), secrets read from the store.
pub(crate) fn configs(config: &Config) -> Result<Vec<ServerConfig>, Failure> {
    let servers = &config.file.mcp.servers;
    if servers.is_empty() {
        return Ok(Vec::new());
    }
    let store = crate::secrets::Backend::chosen(config)?;
    let eras = read_eras();
    let mut out = Vec::new();
    for (name, entry) in servers.iter().filter(|(_, e)| e.enabled != Some(false)) {
        let bad = |what: String| Failure::usage(format!("[mcp.servers.{name}]: {what}"));
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
            return Err(bad("a server's name is letters, digits, '_' and '-'".into()));
        }
        let resolve = |values: &BTreeMap<String, Value>| -> Result<Vec<(String, Secret)>, Failure> {
            values
                .iter()
                .map(|(key, value)| match value {
                    Value::Plain(text) => Ok((key.clone(), Secret::new(text.as_str()))),
                    Value::Secret { secret } => {
                        store.get(secret).map(|s| (key.clone(), s)).ok_or_else(|| {
                            bad(format!("{key} names the secret {secret:?}, which is not stored"))
                                .hint(format!("tackle secret set {secret}"))
                        })
                    }
                })
                .collect()
        };
        let transport = match (&entry.command, &entry.url) {
            (Some(command), None) => Transport::Stdio {
                command: command.clone(),
                args: entry.args.clone(),
                env: resolve(&entry.env)?,
                cwd: entry.cwd.clone(),
            },
            (None, Some(url)) => {
                let bearer = match &entry.bearer_secret {
                    Some(secret) => Some(store.get(secret).ok_or_else(|| {
                        bad(format!("bearer_secret names the secret {secret:?}, which is not stored"))
                            .hint(format!("tackle secret set {secret}"))
                    })?),
                    None => None,
                };
                Transport::Http { url: url.clone(), headers: resolve(&entry.headers)?, bearer }
            }
            _ => return Err(bad("give either `command` (stdio) or `url` (Streamable HTTP)".into())),
        };
        let mut server = ServerConfig::new(name.clone(), transport);
        server.prefix.clone_from(&entry.prefix);
        server.include.clone_from(&entry.include);
        server.exclude.clone_from(&entry.exclude);
        server.trusted = entry.trusted;
        if let Some(seconds) = entry.timeout {
            server.call_timeout = Duration::from_secs(seconds.max(1));
        }
        if let Some(seconds) = entry.connect_timeout {
            server.connect_timeout = Duration::from_secs(seconds.max(1));
        }
        server.era = eras.get(&era_key(&server)).copied();
        out.push(server);
    }
    Ok(out)
}

/// What connecting the configured servers gave: their toolsets, and why others are left out.
pub(crate) struct Connected {
    pub(crate) toolsets: Vec<McpToolset>,
    pub(crate) failures: Vec<(String, String)>,
}

/// Connects every server of `servers` (from [`configs`]) at once and lists its tools; a
/// server that fails is left out with the reason. The eras found are remembered for the
/// next start.
pub(crate) async fn connect_all(servers: Vec<ServerConfig>) -> Connected {
    let attempts = servers.into_iter().map(|server| async move {
        let name = server.name.clone();
        let key = era_key(&server);
        let known = server.era;
        let result = async {
            let connected = McpServer::connect(server).await?;
            McpToolset::load(connected).await
        }
        .await;
        (name, key, known, result)
    });
    let mut connected = Connected { toolsets: Vec::new(), failures: Vec::new() };
    let mut found = Vec::new();
    for (name, key, known, result) in futures_util::future::join_all(attempts).await {
        match result {
            Ok(toolset) => {
                let era = toolset.server().era();
                if known != Some(era) {
                    found.push((key, era));
                }
                connected.toolsets.push(toolset);
            }
            Err(error) => connected.failures.push((name, error.to_string())),
        }
    }
    // The cache is read again only when something new is to be written into it.
    if !found.is_empty() {
        let mut eras = read_eras();
        eras.extend(found);
        write_eras(&eras);
    }
    connected
}

/// What identifies a server for the era cache: its name and how it is reached.
fn era_key(server: &ServerConfig) -> String {
    match &server.transport {
        Transport::Stdio { command, args, .. } => format!("{}|{command} {}", server.name, args.join(" ")),
        Transport::Http { url, .. } => format!("{}|{url}", server.name),
        _ => server.name.clone(),
    }
}

fn eras_path() -> Option<PathBuf> {
    crate::sessions::data_dir().ok().map(|dir| dir.join("mcp-eras.json"))
}

fn read_eras() -> BTreeMap<String, Era> {
    eras_path()
        .and_then(|path| std::fs::read_to_string(path).ok())
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or_default()
}

fn write_eras(eras: &BTreeMap<String, Era>) {
    let Some(path) = eras_path() else { return };
    if let Some(dir) = path.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    if let Ok(text) = serde_json::to_string_pretty(eras) {
        // A cache: a failed write costs a slower start next time, nothing else.
        let _ = std::fs::write(path, text);
    }
}

/// `tackle mcp list`: each server with how it is reached, its era, its tools (and those
/// left out), or why it cannot be used.
pub(crate) async fn list(json_out: bool, config: &Config) -> Result<ExitCode, Failure> {
    let configured = configs(config)?;
    if configured.is_empty() {
        crate::eprint_line("no MCP servers are configured; add [mcp.servers.NAME] to the settings");
        return Ok(ExitCode::SUCCESS);
    }
    // The servers are resolved once (secrets from the store included), then connected.
    let connected = connect_all(configured.clone()).await;
    let mut lines = Vec::new();
    for server in &configured {
        let reached = match &server.transport {
            Transport::Stdio { command, args, .. } => {
                format!("{command} {}", args.join(" ")).trim_end().to_owned()
            }
            Transport::Http { url, .. } => url.clone(),
            _ => String::new(),
        };
        let toolset = connected.toolsets.iter().find(|t| t.server().config().name == server.name);
        let failure = connected.failures.iter().find(|(name, _)| *name == server.name).map(|(_, why)| why);
        if json_out {
            let tools: Vec<String> = toolset
                .map(|t| {
                    tackle_tools::Toolset::entries(t)
                        .into_iter()
                        .filter_map(Result::ok)
                        .map(|e| e.definition.name)
                        .collect()
                })
                .unwrap_or_default();
            let skipped: Vec<serde_json::Value> = toolset
                .map(|t| t.skipped().iter().map(|s| json!({"tool": s.tool, "reason": s.reason})).collect())
                .unwrap_or_default();
            lines.push(
                json!({
                    "server": server.name,
                    "transport": reached,
                    "era": toolset.map(|t| t.server().era().revision()),
                    "status": if failure.is_some() { "failed" } else { "ok" },
                    "reason": failure,
                    "tools": tools,
                    "skipped": skipped,
                    "trusted": server.trusted,
                })
                .to_string(),
            );
            continue;
        }
        match (toolset, failure) {
            (Some(toolset), _) => {
                lines.push(format!(
                    "{}  {reached}  era {}  {} tools{}",
                    server.name,
                    toolset.server().era(),
                    toolset.len(),
                    if server.trusted { "  trusted" } else { "" }
                ));
                for entry in tackle_tools::Toolset::entries(toolset).into_iter().filter_map(Result::ok) {
                    let gate = if entry.definition.kind == tackle_core::ToolKind::ApprovalRequired {
                        "  (asks for approval)"
                    } else {
                        ""
                    };
                    lines.push(format!("  {}{gate}", entry.definition.name));
                }
                for skipped in toolset.skipped() {
                    lines.push(format!("  left out: {}: {}", skipped.tool, skipped.reason));
                }
            }
            (None, Some(why)) => lines.push(format!("{}  {reached}  cannot be used: {why}", server.name)),
            (None, None) => lines.push(format!("{}  {reached}  not connected", server.name)),
        }
    }
    for line in lines {
        crate::print_line(&line);
    }
    Ok(if connected.failures.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// The MCP servers of the settings as registry toolsets; a server that cannot be used is
/// reported on stderr once and left out.
pub(crate) async fn toolsets(config: &Config) -> Result<Vec<McpToolset>, Failure> {
    if config.file.mcp.servers.is_empty() {
        return Ok(Vec::new());
    }
    let connected = connect_all(configs(config)?).await;
    for (name, why) in &connected.failures {
        crate::eprint_line(&format!("warning: MCP server {name} is left out: {why}"));
    }
    for toolset in &connected.toolsets {
        for skipped in toolset.skipped() {
            crate::eprint_line(&format!(
                "warning: MCP server {}: tool {} is left out: {}",
                toolset.server().config().name,
                skipped.tool,
                skipped.reason
            ));
        }
    }
    Ok(connected.toolsets)
}

/// Whether `name` may be a tool of a configured MCP server (its prefix is one of theirs):
/// settings for it are not refused when the server is down.
pub(crate) fn may_be_mcp_tool(config: &Config, name: &str) -> bool {
    config.file.mcp.servers.iter().any(|(server, entry)| {
        let prefix = entry.prefix.as_deref().unwrap_or(server);
        prefix.is_empty() || name.starts_with(&format!("{prefix}_"))
    })
}

/// How often `tackle mcp serve` looks for changed skills.
const SKILLS_RELOAD: Duration = Duration::from_secs(2);

/// `tackle mcp serve`: the registry over MCP, on stdio or Streamable HTTP.
pub(crate) async fn serve(
    http: Option<std::net::SocketAddr>,
    token_secret: Option<&str>,
    allow_host: Vec<String>,
    config: &Config,
) -> Result<ExitCode, Failure> {
    let (registry, skills, live) = crate::tools::live_registry(config).await?;
    let registry = std::sync::Arc::new(registry);
    let executor = crate::tools::executor(config)?;
    let base = crate::tools::run_context("mcp-serve", None, config)?;
    let count = std::sync::atomic::AtomicU64::new(0);
    // Each request is a run of its own: its own id and its own cancellation.
    let run: tackle_mcp::RunFactory = std::sync::Arc::new(move || {
        let mut run = base.clone();
        let n = count.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        run.run_id = format!("mcp-serve-{n}");
        run.cancel = tokio_util::sync::CancellationToken::new();
        run
    });
    let server = tackle_mcp::RegistryServer::new(registry, executor, run);
    // The skills are found again every few seconds; when they change, so does the offer
    // (`load_skill`'s description, or whether it is offered), and clients are told. So are
    // they when an MCP server behind tackle changes its tools.
    {
        let server = server.clone();
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(SKILLS_RELOAD).await;
                if let Some(registry) = tackle_tools::RegistrySource::refreshed(&*live) {
                    server.replace_registry(registry).await;
                }
                let Some(skills) = skills.clone() else { continue };
                let changed = tokio::task::spawn_blocking(move || !skills.reload().0.is_empty()).await;
                if changed.unwrap_or(false) {
                    server.tools_changed().await;
                }
            }
        });
    }
    let Some(addr) = http else {
        tackle_mcp::serve_stdio(server)
            .await
            .map_err(|e| Failure::run(format!("the MCP session failed: {e}")))?;
        return Ok(ExitCode::SUCCESS);
    };
    let mut options = tackle_mcp::HttpOptions::default();
    options.allowed_hosts.extend(allow_host.iter().cloned());
    if !addr.ip().is_loopback() {
        options.allowed_hosts.push(addr.ip().to_string());
        options.allowed_hosts.push(addr.to_string());
    }
    if let Some(name) = token_secret {
        let store = crate::secrets::Backend::chosen(config)?;
        let token = store.get(name).ok_or_else(|| {
            Failure::usage(format!("--token-secret names the secret {name:?}, which is not stored"))
                .hint(format!("tackle secret set {name}"))
        })?;
        options.bearer = Some(token);
    } else if !addr.ip().is_loopback() {
        crate::eprint_line(
            "warning: serving beyond loopback without --token-secret: anyone who reaches it can call the tools",
        );
    }
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| Failure::usage(format!("cannot listen on {addr}: {e}")))?;
    let bound = listener.local_addr().map_err(|e| Failure::run(e.to_string()))?;
    crate::eprint_line(&format!("serving MCP on http://{bound}/mcp (Ctrl-C stops)"));
    let cancel = options.cancel.clone();
    tokio::spawn(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            cancel.cancel();
        }
    });
    tackle_mcp::serve_http(server, listener, options)
        .await
        .map_err(|e| Failure::run(format!("the MCP server failed: {e}")))?;
    Ok(ExitCode::SUCCESS)
}

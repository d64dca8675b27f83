//! MCP servers as toolsets: a connection to one server (a child process over stdio, or a
//! Streamable HTTP endpoint), in whichever protocol era it speaks, and its tools as tackle
//! tools.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::model::{ClientCapabilities, Implementation, InitializeRequestParams, ProtocolVersion};
use rmcp::service::{ClientLifecycleMode, ClientServiceExt, NotificationContext, RoleClient, RunningService};
use tackle_core::Secret;

/// The protocol era a server speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Era {
    /// The stateless protocol of `2026-07-28` (`server/discover`, per-request metadata).
    Modern,
    /// The handshake-based protocol of `2025-11-25` and before (`initialize`).
    Legacy,
}

impl Era {
    /// The protocol revision of the era.
    pub fn revision(self) -> &'static str {
        match self {
            Era::Modern => "2026-07-28",
            Era::Legacy => "2025-11-25",
        }
    }
}

impl std::fmt::Display for Era {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.revision())
    }
}

/// How to reach a server.
#[derive(Clone)]
#[non_exhaustive]
pub enum Transport {
    /// A child process speaking over its stdin and stdout.
    Stdio {
        /// The program.
        command: String,
        /// Its arguments.
        args: Vec<String>,
        /// Variables set for it (on top of an environment cleared but for `PATH`, `HOME`,
        /// `LANG` and a few more: the process does not see tackle's keys).
        env: Vec<(String, Secret)>,
        /// Where it runs (tackle's working directory when `None`).
        cwd: Option<PathBuf>,
    },
    /// A Streamable HTTP endpoint.
    Http {
        /// Its URL.
        url: String,
        /// Headers sent with every request (values may be secrets).
        headers: Vec<(String, Secret)>,
        /// A bearer token for the `Authorization` header.
        bearer: Option<Secret>,
    },
}

impl std::fmt::Debug for Transport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Transport::Stdio { command, args, env, cwd } => f
                .debug_struct("Stdio")
                .field("command", command)
                .field("args", args)
                .field("env", &env.iter().map(|(k, _)| k).collect::<Vec<_>>())
                .field("cwd", cwd)
                .finish(),
            Transport::Http { url, headers, bearer } => f
                .debug_struct("Http")
                .field("url", url)
                .field("headers", &headers.iter().map(|(k, _)| k).collect::<Vec<_>>())
                .field("bearer", &bearer.as_ref().map(|_| "[redacted]"))
                .finish(),
        }
    }
}

/// The variables a stdio server gets from tackle's own environment.
const ENV_ALLOWLIST: [&str; 9] =
    ["PATH", "HOME", "LANG", "LC_ALL", "TERM", "USER", "TMPDIR", "SHELL", "NODE_PATH"];

/// One server and what tackle makes of its tools.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct ServerConfig {
    /// The server's name in the settings; tool names are prefixed with it unless `prefix`
    /// says otherwise.
    pub name: String,
    /// How to reach it.
    pub transport: Transport,
    /// The prefix of its tools' names (`NAME_tool`); `Some("")` for none.
    pub prefix: Option<String>,
    /// When not empty, only tools matching one of these patterns (`*` matches any run of
    /// characters) are offered.
    pub include: Vec<String>,
    /// Tools matching one of these patterns are not offered.
    pub exclude: Vec<String>,
    /// Whether the server's tool annotations are believed: a trusted server's tools that
    /// say they change nothing run without approval, and results of tools that say they
    /// stay in a closed world skip the untrusted-content filter.
    pub trusted: bool,
    /// How long connecting (starting, the handshake, the first listing) may take.
    pub connect_timeout: Duration,
    /// How long one call may take.
    pub call_timeout: Duration,
    /// The era found last time, when known: connecting starts with it.
    pub era: Option<Era>,
}

impl ServerConfig {
    /// A server reached by `transport`, with the default timeouts, untrusted.
    pub fn new(name: impl Into<String>, transport: Transport) -> Self {
        ServerConfig {
            name: name.into(),
            transport,
            prefix: None,
            include: Vec::new(),
            exclude: Vec::new(),
            trusted: false,
            connect_timeout: Duration::from_secs(30),
            call_timeout: Duration::from_secs(60),
            era: None,
        }
    }

    /// A server started as `command args` and spoken to over stdio.
    pub fn stdio(name: impl Into<String>, command: impl Into<String>, args: Vec<String>) -> Self {
        Self::new(name, Transport::Stdio { command: command.into(), args, env: Vec::new(), cwd: None })
    }

    /// A server at a Streamable HTTP `url`.
    pub fn http(name: impl Into<String>, url: impl Into<String>) -> Self {
        Self::new(name, Transport::Http { url: url.into(), headers: Vec::new(), bearer: None })
    }

    /// The prefix tool names get.
    pub fn tool_prefix(&self) -> &str {
        self.prefix.as_deref().unwrap_or(&self.name)
    }

    /// Whether the tool named `name` (as the server names it) is offered.
    pub fn admits(&self, name: &str) -> bool {
        (self.include.is_empty() || self.include.iter().any(|p| matches_pattern(p, name)))
            && !self.exclude.iter().any(|p| matches_pattern(p, name))
    }
}

/// Whether `name` matches `pattern`, where `*` stands for any run of characters.
fn matches_pattern(pattern: &str, name: &str) -> bool {
    let parts: Vec<&str> = pattern.split('*').collect();
    if parts.len() == 1 {
        return pattern == name;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !name.starts_with(first)
        || !name[first.len()..].ends_with(last)
        || name.len() < first.len() + last.len()
    {
        return false;
    }
    let mut rest = &name[first.len()..name.len() - last.len()];
    for middle in &parts[1..parts.len() - 1] {
        match rest.find(middle) {
            Some(at) => rest = &rest[at + middle.len()..],
            None => return false,
        }
    }
    true
}

/// Why a server could not be used.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum McpError {
    /// It could not be started or reached, or the handshake failed.
    #[error("MCP server {server:?} could not be connected: {message}")]
    Connect {
        /// The server's name.
        server: String,
        /// What went wrong (with the last lines it wrote to stderr, for a process).
        message: String,
    },
    /// It did not answer in time.
    #[error("MCP server {server:?} did not answer {what} within {} s", .after.as_secs_f64())]
    Timeout {
        /// The server's name.
        server: String,
        /// What it was asked.
        what: String,
        /// How long it had.
        after: Duration,
    },
    /// It answered with a protocol error.
    #[error("MCP server {server:?} failed {what}: {message}")]
    Protocol {
        /// The server's name.
        server: String,
        /// What it was asked.
        what: String,
        /// Its error.
        message: String,
    },
}

/// Receives one call's progress: done so far, out of how much, and a message.
pub type ProgressFn = Arc<dyn Fn(f64, Option<f64>, Option<String>) + Send + Sync>;

/// What the client tells servers about itself, and what it hears from them.
struct Handler {
    server: String,
    progress: Progress,
    asking: Asking,
    listed: Listed,
}

/// Progress listeners by the progress token of their request, and notifications that came
/// before their listener was in place (a fast server can answer before the request's sender
/// learns its token).
type Progress = Arc<Mutex<ProgressTable>>;

/// How many notifications without a listener are kept for one that may come.
const EARLY_KEPT: usize = 64;

#[derive(Default)]
struct ProgressTable {
    listeners: HashMap<String, ProgressFn>,
    early: std::collections::VecDeque<(String, f64, Option<f64>, Option<String>)>,
}

impl ProgressTable {
    /// Listens to the request with `token`, handing it what came already.
    fn listen(&mut self, token: String, listener: ProgressFn) {
        let (early, rest) = std::mem::take(&mut self.early).into_iter().partition(|(t, ..)| *t == token);
        self.early = rest;
        for (_, done, total, message) in early {
            listener(done, total, message);
        }
        self.listeners.insert(token, listener);
    }
}

/// A progress token as a table key.
fn token_key(token: &rmcp::model::ProgressToken) -> String {
    match &token.0 {
        rmcp::model::NumberOrString::Number(n) => format!("n{n}"),
        rmcp::model::NumberOrString::String(s) => format!("s{s}"),
    }
}

/// Tells the server a request was abandoned when its future is dropped (the call's
/// deadline, or the run stopping) before the answer came.
struct CancelOnDrop {
    peer: rmcp::service::Peer<RoleClient>,
    id: Option<rmcp::model::RequestId>,
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        let Some(id) = self.id.take() else { return };
        let peer = self.peer.clone();
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move {
                let reason = Some("abandoned by the caller".to_owned());
                let _ = peer
                    .notify_cancelled(rmcp::model::CancelledNotificationParam::new(Some(id), reason))
                    .await;
            });
        }
    }
}

/// The questions of the calls in flight, by call key.
type Asking = Arc<Mutex<HashMap<String, Questions>>>;

/// One call's questions to the user, as a legacy server asks them (`elicitation/create`
/// while the call runs): answers given in an earlier run of the call, in order, and the
/// first question no answer was ready for.
#[derive(Default)]
struct Questions {
    ready: std::collections::VecDeque<Answered>,
    asked: Option<(String, serde_json::Value)>,
}

/// A question and the user's answer.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
struct Answered {
    message: String,
    schema: serde_json::Value,
    response: tackle_core::InputResponse,
}

/// How a call ended: with the server's result, or with a question for the user, after
/// which the call is made again with the answer ([`McpServer::call`]).
#[derive(Debug)]
pub enum Called {
    /// The server's result.
    Done(rmcp::model::CallToolResult),
    /// The server asked the user something.
    Asks(tackle_core::InputRequest),
}

/// The most questions one call may ask (or rounds a modern server may ask for).
const MAX_QUESTIONS: usize = 16;

/// The continuation of a call that asked the user, kept in the question's state.
#[derive(Debug, Default, serde::Serialize, serde::Deserialize)]
struct Continuation {
    /// The era the call was made in.
    era: Option<Era>,
    /// Legacy: every question asked so far with its answer, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    answered: Vec<Answered>,
    /// Legacy: the question being asked (message and form, as the server sent them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    asked: Option<(String, serde_json::Value)>,
    /// Modern: the key of the request being asked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    key: Option<String>,
    /// Modern: the responses gathered for this round, by key.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    responses: std::collections::BTreeMap<String, serde_json::Value>,
    /// Modern: requests of this round still to ask (key, message, schema).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    waiting: Vec<(String, String, serde_json::Value)>,
    /// Modern: the server's opaque state, echoed back.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    request_state: Option<String>,
    /// Rounds and questions so far.
    #[serde(default)]
    rounds: usize,
}

/// The answer as an elicitation result.
fn elicit_result(response: &tackle_core::InputResponse) -> serde_json::Value {
    let action = match response.action {
        tackle_core::InputAction::Accept => "accept",
        tackle_core::InputAction::Decline => "decline",
        tackle_core::InputAction::Cancel => "cancel",
    };
    match (&response.content, response.action) {
        (Some(content), tackle_core::InputAction::Accept) => {
            serde_json::json!({"action": action, "content": content})
        }
        _ => serde_json::json!({"action": action}),
    }
}

/// The message and form of an elicitation request, as sent (`None` for anything but a
/// form: a URL to open is not something a suspended run can wait on).
fn form_of(params: &serde_json::Value) -> Option<(String, serde_json::Value)> {
    let mode = params.get("mode").and_then(serde_json::Value::as_str).unwrap_or("form");
    if mode != "form" {
        return None;
    }
    let message = params.get("message")?.as_str()?.to_owned();
    let schema = params.get("requestedSchema")?.clone();
    schema.is_object().then_some((message, schema))
}

/// What a server lists now (`None` until it was first asked), and a revision that grows
/// each time the listing changes.
#[derive(Default)]
struct Listing {
    tools: Option<Vec<rmcp::model::Tool>>,
    revision: u64,
    /// How many listings were asked for, and the number of the one kept: two asked at once
    /// (a notification's and a run's) may answer in either order, and the later-asked one's
    /// answer is the newer.
    asked: u64,
    kept: u64,
}

/// Numbers a listing about to be asked for (see [`Listing::asked`]).
fn ask_listing(listed: &Listed) -> u64 {
    let mut guard = listed.write().unwrap_or_else(std::sync::PoisonError::into_inner);
    guard.asked += 1;
    guard.asked
}

type Listed = Arc<std::sync::RwLock<Listing>>;

/// Keeps `tools` (sorted by name, one per name), the answer to listing number `ticket`
/// ([`ask_listing`]), as the server's listing, unless a later-asked listing was kept already;
/// says what came and went, and counts a revision when anything changed.
fn keep_listing(
    listed: &Listed,
    server: &str,
    ticket: u64,
    mut tools: Vec<rmcp::model::Tool>,
) -> Vec<rmcp::model::Tool> {
    tools.sort_by(|a, b| a.name.cmp(&b.name));
    tools.dedup_by(|a, b| a.name == b.name);
    let mut guard = listed.write().unwrap_or_else(std::sync::PoisonError::into_inner);
    if ticket < guard.kept {
        return tools;
    }
    guard.kept = ticket;
    if let Some(before) = guard.tools.as_ref() {
        if *before == tools {
            return tools;
        }
        let names = |list: &[rmcp::model::Tool]| -> std::collections::BTreeSet<String> {
            list.iter().map(|t| t.name.to_string()).collect()
        };
        let (before, now) = (names(before), names(&tools));
        let added: Vec<&String> = now.difference(&before).collect();
        let removed: Vec<&String> = before.difference(&now).collect();
        tracing::info!(server = %server, ?added, ?removed, "the MCP server's tools changed; the offer follows from the next round");
    }
    guard.tools = Some(tools.clone());
    guard.revision += 1;
    tools
}

/// Lists the server's tools again and keeps them.
async fn relist(peer: &rmcp::service::Peer<RoleClient>, listed: &Listed, server: &str) {
    let ticket = ask_listing(listed);
    if let Ok(tools) = peer.list_all_tools().await {
        keep_listing(listed, server, ticket, tools);
    }
}

/// Takes a request's progress listener out of the table when it ends, however it ends.
struct StopListening<'a>(&'a Mutex<ProgressTable>, String);

impl Drop for StopListening<'_> {
    fn drop(&mut self) {
        lock(self.0).listeners.remove(&self.1);
    }
}

/// Takes a call's entry out of a table when the call ends, however it ends.
struct Listening<'a, T>(&'a Mutex<HashMap<String, T>>, Option<String>);

impl<T> Drop for Listening<'_, T> {
    fn drop(&mut self) {
        if let Some(key) = self.1.take() {
            lock(self.0).remove(&key);
        }
    }
}

impl rmcp::ClientHandler for Handler {
    fn get_info(&self) -> InitializeRequestParams {
        let mut capabilities = ClientCapabilities::default();
        // Forms only: a question suspends the run, and a form's answer can wait for the
        // user across a restart; a URL to visit cannot be answered that way.
        capabilities.elicitation = Some(
            rmcp::model::ElicitationCapability::new()
                .with_form(rmcp::model::FormElicitationCapability::new()),
        );
        InitializeRequestParams::new(capabilities, Implementation::new("tackle", env!("CARGO_PKG_VERSION")))
    }

    /// A legacy server asks during a call: the answer given in an earlier run of the call
    /// when it is the same question, else the call is cancelled (its result is set aside)
    /// and the question goes to the user. With several calls in flight, a question cannot
    /// be told apart and is declined.
    fn create_elicitation(
        &self,
        request: rmcp::model::ElicitRequestParams,
        _context: rmcp::service::RequestContext<RoleClient>,
    ) -> impl Future<Output = Result<rmcp::model::ElicitResult, rmcp::ErrorData>> + Send + '_ {
        use rmcp::model::{ElicitResult, ElicitationAction};
        let params = serde_json::to_value(&request).unwrap_or_default();
        let mut asking = lock(&self.asking);
        let only = if asking.len() == 1 { asking.values_mut().next() } else { None };
        let result = match (form_of(&params), only) {
            (Some((message, schema)), Some(questions)) => {
                let same =
                    questions.ready.front().is_some_and(|r| r.message == message && r.schema == schema);
                match same.then(|| questions.ready.pop_front()).flatten() {
                    Some(answer) => serde_json::from_value(elicit_result(&answer.response))
                        .unwrap_or(ElicitResult::new(ElicitationAction::Decline)),
                    None => {
                        if questions.asked.is_none() {
                            questions.asked = Some((message, schema));
                        }
                        ElicitResult::new(ElicitationAction::Cancel)
                    }
                }
            }
            _ => ElicitResult::new(ElicitationAction::Decline),
        };
        std::future::ready(Ok(result))
    }

    fn on_progress(
        &self,
        params: rmcp::model::ProgressNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) -> impl Future<Output = ()> + Send + '_ {
        let key = token_key(&params.progress_token);
        let listener = {
            let mut table = lock(&self.progress);
            let listener = table.listeners.get(&key).cloned();
            if listener.is_none() {
                if table.early.len() == EARLY_KEPT {
                    table.early.pop_front();
                }
                table.early.push_back((key, params.progress, params.total, params.message.clone()));
            }
            listener
        };
        if let Some(listener) = listener {
            listener(params.progress, params.total, params.message);
        }
        std::future::ready(())
    }

    fn on_tool_list_changed(
        &self,
        context: NotificationContext<RoleClient>,
    ) -> impl Future<Output = ()> + Send + '_ {
        // Listed again off the notification path: tools it dropped stop being offered.
        let (peer, listed, server) = (context.peer.clone(), self.listed.clone(), self.server.clone());
        tokio::spawn(async move { relist(&peer, &listed, &server).await });
        std::future::ready(())
    }
}

/// How many lines of a server's stderr are kept for error messages.
const STDERR_LINES: usize = 20;

/// A connected server.
pub struct McpServer {
    config: ServerConfig,
    service: RunningService<RoleClient, Handler>,
    era: Era,
    pgid: Option<u32>,
    progress: Progress,
    asking: Asking,
    calls: AtomicU64,
    listed: Listed,
    watcher: Option<tokio::task::JoinHandle<()>>,
}

impl std::fmt::Debug for McpServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpServer").field("name", &self.config.name).field("era", &self.era).finish()
    }
}

impl Drop for McpServer {
    /// A stdio server's whole process group ends with the connection, even when no runtime
    /// is left to run the transport's own cleanup.
    fn drop(&mut self) {
        if let Some(watcher) = &self.watcher {
            watcher.abort();
        }
        #[cfg(unix)]
        if let Some(pid) =
            self.pgid.and_then(|p| i32::try_from(p).ok()).and_then(rustix::process::Pid::from_raw)
        {
            let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
        }
    }
}

impl McpServer {
    /// Connects to the server of `config`: starts it (stdio) or reaches it (HTTP), finds
    /// its era — the one `config.era` names first, else `2026-07-28` with a fall-back to
    /// the `2025-11-25` handshake — all within the connect timeout.
    pub async fn connect(config: ServerConfig) -> Result<Arc<McpServer>, McpError> {
        let deadline = config.connect_timeout;
        let name = config.name.clone();
        match tokio::time::timeout(deadline, Self::connect_inner(config)).await {
            Ok(result) => result.map(Arc::new),
            Err(_) => Err(McpError::Timeout { server: name, what: "the handshake".into(), after: deadline }),
        }
    }

    async fn connect_inner(config: ServerConfig) -> Result<McpServer, McpError> {
        let fail = |message: String| McpError::Connect { server: config.name.clone(), message };
        let progress: Progress = Arc::default();
        let asking: Asking = Arc::default();
        let listed: Listed = Arc::default();
        let handler = Handler {
            server: config.name.clone(),
            progress: progress.clone(),
            asking: asking.clone(),
            listed: listed.clone(),
        };
        let lifecycle = match config.era {
            Some(Era::Legacy) => ClientLifecycleMode::Initialize,
            // A server that spoke the modern era before is asked that way first, but may
            // have been replaced by one that does not.
            Some(Era::Modern) | None => ClientLifecycleMode::Auto {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
                legacy_version: Some(ProtocolVersion::V_2025_11_25),
            },
        };
        let stderr = Arc::new(Mutex::new(std::collections::VecDeque::new()));
        let (service, pgid) = match &config.transport {
            Transport::Stdio { command, args, env, cwd } => {
                let mut cmd = tokio::process::Command::new(command);
                cmd.args(args).env_clear().kill_on_drop(true);
                for name in ENV_ALLOWLIST {
                    if let Some(value) = std::env::var_os(name) {
                        cmd.env(name, value);
                    }
                }
                for (key, value) in env {
                    cmd.env(key, value.expose());
                }
                if let Some(cwd) = cwd {
                    cmd.current_dir(cwd);
                }
                let mut wrapped = process_wrap::tokio::CommandWrap::from(cmd);
                #[cfg(unix)]
                wrapped.wrap(process_wrap::tokio::ProcessGroup::leader());
                let (transport, child_stderr) = rmcp::transport::TokioChildProcess::builder(wrapped)
                    .stderr(std::process::Stdio::piped())
                    .spawn()
                    .map_err(|e| fail(format!("cannot start {command}: {e}")))?;
                let pgid = transport.id();
                if let Some(child_stderr) = child_stderr {
                    let secrets =
                        env.iter().map(|(_, v)| v.clone()).filter(|v| v.expose().len() >= 8).collect();
                    spawn_stderr_reader(config.name.clone(), child_stderr, stderr.clone(), secrets);
                }
                let service = handler.serve_with_lifecycle(transport, lifecycle).await.map_err(|e| {
                    let said: Vec<String> = lock(&stderr).iter().cloned().collect();
                    let said = if said.is_empty() {
                        String::new()
                    } else {
                        format!("; it said: {}", said.join(" | "))
                    };
                    fail(format!("{e}{said}"))
                })?;
                (service, pgid)
            }
            Transport::Http { url, headers, bearer } => {
                use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
                let mut custom = HashMap::new();
                for (key, value) in headers {
                    let key = http::HeaderName::try_from(key.as_str())
                        .map_err(|e| fail(format!("header {key:?} is not a header name: {e}")))?;
                    let value = http::HeaderValue::try_from(value.expose())
                        .map_err(|_| fail(format!("the value of header {key} is not a header value")))?;
                    custom.insert(key, value);
                }
                let mut transport_config =
                    StreamableHttpClientTransportConfig::with_uri(url.as_str()).custom_headers(custom);
                if let Some(bearer) = bearer {
                    transport_config = transport_config.auth_header(bearer.expose());
                }
                let transport = rmcp::transport::StreamableHttpClientTransport::with_client(
                    http_client(),
                    transport_config,
                );
                let service = handler
                    .serve_with_lifecycle(transport, lifecycle)
                    .await
                    .map_err(|e| fail(e.to_string()))?;
                (service, None)
            }
        };
        let era = match service.peer().peer_info() {
            Some(info) if info.protocol_version == ProtocolVersion::V_2026_07_28 => Era::Modern,
            _ => Era::Legacy,
        };
        // A modern server announces changes only to a subscription, opened before connecting
        // ends so that no change after the first listing is missed.
        let announces = service
            .peer()
            .peer_info()
            .is_some_and(|info| info.capabilities.tools.as_ref().and_then(|t| t.list_changed) == Some(true));
        let watcher = if era == Era::Modern && announces {
            let filter = rmcp::model::SubscriptionFilter::builder().tools_list_changed().build();
            match service.peer().listen(filter).await {
                Ok(mut subscription) => {
                    let (peer, listed, server) =
                        (service.peer().clone(), listed.clone(), config.name.clone());
                    Some(tokio::spawn(async move {
                        while let Ok(Some(_)) = subscription.next().await {
                            relist(&peer, &listed, &server).await;
                        }
                    }))
                }
                Err(error) => {
                    tracing::warn!(server = %config.name, "cannot follow the MCP server's tool list: {error}");
                    None
                }
            }
        } else {
            None
        };
        Ok(McpServer {
            config,
            service,
            era,
            pgid,
            progress,
            asking,
            calls: AtomicU64::new(0),
            listed,
            watcher,
        })
    }

    /// The server's settings.
    pub fn config(&self) -> &ServerConfig {
        &self.config
    }

    /// The era it speaks.
    pub fn era(&self) -> Era {
        self.era
    }

    /// The process id of a stdio server (also its process group's).
    pub fn pid(&self) -> Option<u32> {
        self.pgid
    }

    /// Whether tool `name` (as the server names it) is still listed: after the server said
    /// its tools changed, they are listed again, and a tool that is gone is not offered.
    pub fn still_listed(&self, name: &str) -> bool {
        let listing = self.listed.read().unwrap_or_else(std::sync::PoisonError::into_inner);
        listing.tools.as_ref().is_none_or(|tools| tools.iter().any(|t| t.name == name))
    }

    /// What it listed last (in name order), with the listing's revision, which grows each
    /// time the listing changes: after the server says its tools changed they are listed
    /// again, so a toolset made from this offers the tools it added too.
    pub fn listing(&self) -> (Vec<rmcp::model::Tool>, u64) {
        let listing = self.listed.read().unwrap_or_else(std::sync::PoisonError::into_inner);
        (listing.tools.clone().unwrap_or_default(), listing.revision)
    }

    /// The revision of its listing (see [`McpServer::listing`]).
    pub fn revision(&self) -> u64 {
        self.listed.read().unwrap_or_else(std::sync::PoisonError::into_inner).revision
    }

    /// Every tool it offers (all pages), in name order, as it describes them.
    pub async fn list_tools(&self) -> Result<Vec<rmcp::model::Tool>, McpError> {
        let deadline = self.config.connect_timeout;
        let ticket = ask_listing(&self.listed);
        let listed = tokio::time::timeout(deadline, self.service.list_all_tools())
            .await
            .map_err(|_| self.timeout("tools/list", deadline))?
            .map_err(|e| self.protocol("tools/list", e))?;
        Ok(keep_listing(&self.listed, &self.config.name, ticket, listed))
    }

    /// Calls tool `name` (as the server names it) with `arguments`, within the call timeout.
    ///
    /// A server may ask the user something during the call: a modern one answers
    /// `input_required`, a legacy one sends `elicitation/create`. Either way the call ends
    /// with [`Called::Asks`], whose state holds what is needed to go on; calling again with
    /// the question and its answer (`resumed`) sends the answer — a modern server gets it
    /// with its own request state, a legacy one is called again from the start and gets
    /// the answer when it asks the same question (so whatever the tool did before asking,
    /// it does again). Requests for the client's roots are answered that there are none;
    /// a request to sample a model fails the call.
    ///
    /// With `progress`, the server's progress notifications for the call (by the progress
    /// token of its request) go to it while the call runs.
    pub async fn call(
        &self,
        name: &str,
        arguments: serde_json::Map<String, serde_json::Value>,
        progress: Option<ProgressFn>,
        resumed: Option<&tackle_core::ResumedInput>,
    ) -> Result<Called, McpError> {
        let what = format!("tools/call {name}");
        let mut params = rmcp::model::CallToolRequestParams::new(name.to_owned()).with_arguments(arguments);
        // The call's trace context travels in `_meta` (SEP-414), over stdio and HTTP alike.
        if let Some(trace) = tackle_core::telemetry::current_trace_context() {
            let mut meta = rmcp::model::MetaObject::new();
            meta.set_traceparent(trace.traceparent);
            if let Some(state) = trace.tracestate {
                meta.set_tracestate(state);
            }
            params.meta = Some(meta.into());
        }
        let key = format!("call-{}", self.calls.fetch_add(1, Ordering::Relaxed));
        let mut state = Continuation::default();
        if let Some(resumed) = resumed {
            // The form's defaults stand for the fields the answer leaves out.
            let resumed = &tackle_core::ResumedInput {
                request: resumed.request.clone(),
                response: tackle_tools::with_defaults(&resumed.request, resumed.response.clone()),
            };
            state = serde_json::from_value(resumed.request.state.clone()).map_err(|e| {
                self.protocol_text(&what, format!("the question's state cannot be read: {e}"))
            })?;
            match state.era {
                Some(Era::Modern) => {
                    if let Some(key) = state.key.take() {
                        state.responses.insert(key, elicit_result(&resumed.response));
                    }
                    if !state.waiting.is_empty() {
                        let (key, message, schema) = state.waiting.remove(0);
                        state.key = Some(key);
                        return Ok(Called::Asks(self.question(message, schema, &state)));
                    }
                    params.input_responses = Some(std::mem::take(&mut state.responses));
                    params.request_state = state.request_state.take();
                }
                _ => {
                    if let Some((message, schema)) = state.asked.take() {
                        state.answered.push(Answered { message, schema, response: resumed.response.clone() });
                    }
                }
            }
        }
        lock(&self.asking)
            .insert(key.clone(), Questions { ready: state.answered.iter().cloned().collect(), asked: None });
        let _asking = Listening(&self.asking, Some(key.clone()));
        let deadline = self.config.call_timeout;
        // Dropping the request (at the deadline, or when the run stops) tells the server
        // with `notifications/cancelled`.
        tokio::time::timeout(deadline, self.rounds(&what, &key, params, state, progress))
            .await
            .map_err(|_| self.timeout(&what, deadline))?
    }

    /// Sends the call, answering what can be answered without the user, until the server
    /// answers or asks the user.
    async fn rounds(
        &self,
        what: &str,
        key: &str,
        mut params: rmcp::model::CallToolRequestParams,
        mut state: Continuation,
        progress: Option<ProgressFn>,
    ) -> Result<Called, McpError> {
        use rmcp::model::CallToolResponse;
        loop {
            let response = self.send(what, params.clone(), progress.clone()).await?;
            let required = match response {
                CallToolResponse::Complete(result) => {
                    // A legacy server asked during the call: the result of the cancelled
                    // question is set aside and the user is asked.
                    let asked = lock(&self.asking).get_mut(key).and_then(|q| q.asked.take());
                    let Some((message, schema)) = asked else { return Ok(Called::Done(result)) };
                    state.era = Some(Era::Legacy);
                    if state.answered.len() >= MAX_QUESTIONS {
                        return Err(
                            self.protocol_text(what, format!("it asked more than {MAX_QUESTIONS} questions"))
                        );
                    }
                    state.asked = Some((message.clone(), schema.clone()));
                    return Ok(Called::Asks(self.question(message, schema, &state)));
                }
                CallToolResponse::InputRequired(required) => required,
                CallToolResponse::Task(_) => {
                    return Err(self
                        .protocol_text(what, "it answered with a task, which tackle does not poll".into()));
                }
                _ => return Err(self.protocol_text(what, "it answered with an unknown result".into())),
            };
            state.era = Some(Era::Modern);
            state.rounds += 1;
            if state.rounds > MAX_QUESTIONS {
                return Err(
                    self.protocol_text(what, format!("it asked for input more than {MAX_QUESTIONS} times"))
                );
            }
            let (mut responses, mut waiting) = (std::collections::BTreeMap::new(), Vec::new());
            for (request_key, request) in required.input_requests.unwrap_or_default() {
                let request = serde_json::to_value(&request).unwrap_or_default();
                let method = request.get("method").and_then(serde_json::Value::as_str).unwrap_or_default();
                let request_params = request.get("params").cloned().unwrap_or_default();
                match method {
                    "elicitation/create" => match form_of(&request_params) {
                        Some((message, schema)) => waiting.push((request_key, message, schema)),
                        None => {
                            responses.insert(request_key, serde_json::json!({"action": "decline"}));
                        }
                    },
                    "roots/list" => {
                        responses.insert(request_key, serde_json::json!({"roots": []}));
                    }
                    other => {
                        return Err(self.protocol_text(
                            what,
                            format!("it asked the client for {other:?}, which tackle does not offer"),
                        ));
                    }
                }
            }
            state.request_state = required.request_state;
            if waiting.is_empty() {
                if responses.is_empty() && state.request_state.is_none() {
                    return Err(self.protocol_text(what, "it asked for input without saying what".into()));
                }
                if responses.is_empty() {
                    // Only its own state: the server is not ready yet.
                    tokio::time::sleep(Duration::from_millis(20 * state.rounds as u64)).await;
                }
                params.input_responses = (!responses.is_empty()).then_some(responses);
                params.request_state = state.request_state.take();
                continue;
            }
            let (request_key, message, schema) = waiting.remove(0);
            state.key = Some(request_key);
            state.responses = responses;
            state.waiting = waiting;
            return Ok(Called::Asks(self.question(message, schema, &state)));
        }
    }

    /// Sends one `tools/call` request; its progress notifications (by its token) go to
    /// `progress` while it runs; dropping it tells the server it was abandoned.
    async fn send(
        &self,
        what: &str,
        params: rmcp::model::CallToolRequestParams,
        progress: Option<ProgressFn>,
    ) -> Result<rmcp::model::CallToolResponse, McpError> {
        use rmcp::model::{CallToolResponse, ClientRequest, ServerResult};
        let request = ClientRequest::CallToolRequest(rmcp::model::CallToolRequest::new(params));
        let handle = self
            .service
            .peer()
            .send_request_with_option(request, rmcp::service::PeerRequestOptions::no_options())
            .await
            .map_err(|e| self.protocol(what, e))?;
        let mut abandon = CancelOnDrop { peer: handle.peer.clone(), id: Some(handle.id.clone()) };
        let token = token_key(&handle.progress_token);
        let _listening = progress.map(|listener| {
            lock(&self.progress).listen(token.clone(), listener);
            StopListening(&self.progress, token)
        });
        let result = handle.await_response().await;
        abandon.id = None;
        match result.map_err(|e| self.protocol(what, e))? {
            ServerResult::CallToolResult(result) => Ok(CallToolResponse::Complete(result)),
            ServerResult::InputRequiredResult(result) => Ok(CallToolResponse::InputRequired(result)),
            ServerResult::CreateTaskResult(result) => Ok(CallToolResponse::Task(result)),
            // A result with nothing but metadata is an empty success.
            ServerResult::EmptyResult(_) => {
                Ok(CallToolResponse::Complete(rmcp::model::CallToolResult::success(Vec::new())))
            }
            _ => Err(self.protocol_text(what, "it answered with something that is not a tool result".into())),
        }
    }

    /// The question for the user, with what the call needs to go on.
    fn question(
        &self,
        message: String,
        schema: serde_json::Value,
        state: &Continuation,
    ) -> tackle_core::InputRequest {
        let message = format!("The MCP server {:?} asks: {message}", self.config.name);
        tackle_core::InputRequest::new(message, schema, serde_json::to_value(state).unwrap_or_default())
    }

    fn protocol_text(&self, what: &str, message: String) -> McpError {
        McpError::Protocol { server: self.config.name.clone(), what: what.to_owned(), message }
    }

    fn timeout(&self, what: &str, after: Duration) -> McpError {
        McpError::Timeout { server: self.config.name.clone(), what: what.to_owned(), after }
    }

    fn protocol(&self, what: &str, error: rmcp::ServiceError) -> McpError {
        McpError::Protocol {
            server: self.config.name.clone(),
            what: what.to_owned(),
            message: error.to_string(),
        }
    }
}

/// The HTTP client for Streamable HTTP servers. Unlike rmcp's default it keeps idle
/// connections, so a call does not pay for a new connection (about 0.15 ms on loopback,
/// more across a network); redirects are followed only within the origin, only as 307 or
/// 308 (which keep the method and body), at most ten.
fn http_client() -> reqwest::Client {
    let policy = reqwest::redirect::Policy::custom(|attempt| {
        let same_origin = attempt.previous().first().is_some_and(|first| {
            first.scheme() == attempt.url().scheme()
                && first.host_str() == attempt.url().host_str()
                && first.port_or_known_default() == attempt.url().port_or_known_default()
        });
        let keeps_body = matches!(attempt.status().as_u16(), 307 | 308);
        if same_origin && keeps_body && attempt.previous().len() <= 10 {
            attempt.follow()
        } else {
            attempt.stop()
        }
    });
    reqwest::Client::builder().redirect(policy).build().unwrap_or_default()
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Reads a server's stderr line by line into the log, keeping the last lines.
/// Values given to the server that its lines must not carry into the log or an error
/// message (its environment's values of eight characters or more: keys, tokens).
fn spawn_stderr_reader(
    server: String,
    stderr: tokio::process::ChildStderr,
    kept: Arc<Mutex<std::collections::VecDeque<String>>>,
    secrets: Vec<Secret>,
) {
    tokio::spawn(async move {
        use tokio::io::AsyncReadExt as _;
        let mut stderr = stderr;
        let (mut buf, mut line) = (vec![0u8; 4096], Vec::new());
        let keep = |line: &mut Vec<u8>| {
            let mut text = String::from_utf8_lossy(line).into_owned();
            line.clear();
            for secret in &secrets {
                text = text.replace(secret.expose(), "[redacted]");
            }
            let text: String = text.chars().take(500).collect();
            tracing::debug!(server = %server, "{text}");
            let mut kept = lock(&kept);
            if kept.len() == STDERR_LINES {
                kept.pop_front();
            }
            kept.push_back(text);
        };
        // Lines are cut at 2 KiB: a server that never ends a line cannot fill memory.
        while let Ok(n) = stderr.read(&mut buf).await {
            if n == 0 {
                break;
            }
            for &b in &buf[..n] {
                if b == b'\n' {
                    keep(&mut line);
                } else if line.len() < 2048 {
                    line.push(b);
                }
            }
        }
        if !line.is_empty() {
            keep(&mut line);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::{Listed, ask_listing, keep_listing, matches_pattern};

    fn tools(names: &[&str]) -> Vec<rmcp::model::Tool> {
        names
            .iter()
            .map(|n| rmcp::model::Tool::new(n.to_string(), "", std::sync::Arc::new(serde_json::Map::new())))
            .collect()
    }

    /// Two listings asked at once may answer in either order: the later-asked one's answer
    /// stays, whichever came last.
    #[test]
    fn an_earlier_asked_listing_never_replaces_a_later_one() {
        let listed = Listed::default();
        let (first, second) = (ask_listing(&listed), ask_listing(&listed));
        keep_listing(&listed, "s", second, tools(&["b"]));
        keep_listing(&listed, "s", first, tools(&["a", "b"]));
        let listing = listed.read().unwrap();
        let names: Vec<&str> = listing.tools.iter().flatten().map(|t| t.name.as_ref()).collect();
        assert_eq!(names, ["b"]);
        assert_eq!(listing.revision, 1);
        drop(listing);
        // A listing asked after both is kept.
        let third = ask_listing(&listed);
        keep_listing(&listed, "s", third, tools(&["c"]));
        assert_eq!(listed.read().unwrap().revision, 2);
    }

    #[test]
    fn patterns_match_as_globs() {
        for (pattern, name, expected) in [
            ("echo", "echo", true),
            ("echo", "echoes", false),
            ("get-*", "get-sum", true),
            ("*-sum", "get-sum", true),
            ("*", "anything", true),
            ("a*b*c", "aXXbYYc", true),
            ("a*b*c", "acb", false),
            ("ab*ba", "aba", false),
        ] {
            assert_eq!(matches_pattern(pattern, name), expected, "{pattern} ~ {name}");
        }
    }
}

//! A tool registry served over MCP: the tools a run would be offered (the same gates), each
//! call through the same executor (validation, timeouts, approvals, the untrusted-content
//! filter), over stdio or Streamable HTTP, in both protocol eras.
//!
//! A tool that needs approval is not run: its call answers with an error result saying so,
//! since an MCP client has no way to approve a call of ours (the decision documented in
//! the crate's README section of the CLI).

use std::sync::{Arc, Mutex};

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation, InitializeResult,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ToolAnnotations,
};
use rmcp::service::{NotificationContext, Peer, RequestContext, RoleServer};
use rmcp::{ErrorData, ServerHandler};
use serde_json::Value;
use tackle_core::{ToolArguments, ToolCall, ToolDefinition, ToolKind, ToolStatus};
use tackle_tools::{ExecutionState, Executor, RunContext, ToolRegistry};

/// Makes the run context of one listing or call (its id, confidence, settings).
pub type RunFactory = Arc<dyn Fn() -> RunContext + Send + Sync>;

/// The registry as an MCP server. Clones share everything (one per HTTP session).
#[derive(Clone)]
pub struct RegistryServer {
    registry: Arc<std::sync::RwLock<Arc<ToolRegistry>>>,
    executor: Executor,
    run: RunFactory,
    info: Implementation,
    changed: tokio::sync::broadcast::Sender<()>,
    /// Whether the offer changed since the server started.
    ever_changed: Arc<std::sync::atomic::AtomicBool>,
    legacy_peers: Arc<Mutex<Vec<Peer<RoleServer>>>>,
}

impl std::fmt::Debug for RegistryServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RegistryServer").field("tools", &self.registry().len()).finish_non_exhaustive()
    }
}

impl RegistryServer {
    /// Serves `registry` with `executor`, each request in a run context from `run`.
    pub fn new(registry: Arc<ToolRegistry>, executor: Executor, run: RunFactory) -> Self {
        RegistryServer {
            registry: Arc::new(std::sync::RwLock::new(registry)),
            executor,
            run,
            info: Implementation::new("tackle", env!("CARGO_PKG_VERSION")),
            changed: tokio::sync::broadcast::channel(16).0,
            ever_changed: Arc::default(),
            legacy_peers: Arc::default(),
        }
    }

    /// The registry served now.
    pub fn registry(&self) -> Arc<ToolRegistry> {
        Arc::clone(&self.registry.read().unwrap_or_else(std::sync::PoisonError::into_inner))
    }

    /// Serves `registry` from now on (the tools changed: an MCP server behind it added
    /// some) and tells connected clients.
    pub async fn replace_registry(&self, registry: ToolRegistry) {
        *self.registry.write().unwrap_or_else(std::sync::PoisonError::into_inner) = Arc::new(registry);
        self.tools_changed().await;
    }

    /// Tells connected clients that the offer changed (`notifications/tools/list_changed`
    /// to legacy sessions, and to modern clients that subscribed).
    pub async fn tools_changed(&self) {
        self.ever_changed.store(true, std::sync::atomic::Ordering::Release);
        let _ = self.changed.send(());
        let peers: Vec<Peer<RoleServer>> = lock(&self.legacy_peers).clone();
        for peer in peers {
            let _ = peer.notify_tool_list_changed().await;
        }
    }

    /// The MCP description of every tool offered now, in name order.
    pub fn tools(&self) -> Vec<rmcp::model::Tool> {
        let run = (self.run)();
        let offer = self.registry().offer(&run);
        let mut tools: Vec<rmcp::model::Tool> =
            offer.definitions().iter().filter(|d| served(d)).map(|d| describe(d)).collect();
        tools.sort_by(|a, b| a.name.cmp(&b.name));
        tools
    }

    /// Runs one call as the executor runs a model's, and words the result for MCP.
    async fn call(
        &self,
        request: CallToolRequestParams,
        cancel: tokio_util::sync::CancellationToken,
    ) -> Result<CallToolResult, ErrorData> {
        let run = Arc::new((self.run)());
        let offer = self.registry().offer(&run);
        let Some(tool) = offer.get(&request.name).filter(|t| served(t.definition())) else {
            return Err(ErrorData::invalid_params(format!("Unknown tool: {}", request.name), None));
        };
        if tool.definition().kind == ToolKind::ApprovalRequired {
            return Ok(CallToolResult::error(vec![ContentBlock::text(format!(
                "{} needs a person's approval before it runs, and this server cannot ask for it; run it from tackle itself (tackle run, tackle approve)",
                request.name
            ))]));
        }
        let arguments = Value::Object(request.arguments.clone().unwrap_or_default());
        let call = ToolCall {
            id: "mcp-call".into(),
            name: request.name.to_string(),
            arguments: ToolArguments::Json(arguments),
            provider_data: None,
        };
        // The client's cancellation stops the call as a stopped run would.
        let stop = run.cancel.clone();
        let watcher = tokio::spawn(async move {
            cancel.cancelled().await;
            stop.cancel();
        });
        let mut state = ExecutionState::default();
        let outcome = self.executor.execute(&offer, &run, std::slice::from_ref(&call), &mut state).await;
        watcher.abort();
        let Some(ret) = outcome.returns.into_iter().next() else {
            return Err(ErrorData::internal_error("the call gave no result", None));
        };
        let text = ret.content.model_text().into_owned();
        if ret.status.rule().is_error || !ret.status.rule().reaches_model {
            return Ok(CallToolResult::error(vec![ContentBlock::text(text)]));
        }
        let structured =
            tool.definition().return_schema.is_some().then(|| ret.content.json.clone()).flatten();
        Ok(match structured {
            // `structured` adds the JSON as a text block too, for clients that read only text.
            Some(json @ Value::Object(_)) => CallToolResult::structured(json),
            _ => {
                let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
                if ret.status == ToolStatus::Feedback {
                    result.is_error = Some(false);
                }
                result
            }
        })
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Whether a tool is served: tools carried out by the host or another worker cannot
/// answer a client here.
fn served(definition: &ToolDefinition) -> bool {
    matches!(definition.kind, ToolKind::Function | ToolKind::ApprovalRequired)
}

/// A tackle definition as an MCP tool: schema, output schema (an object schema only, as
/// the `2025-11-25` era requires), and the hints the definition supports.
fn describe(definition: &ToolDefinition) -> rmcp::model::Tool {
    let mut tool = rmcp::model::Tool::new(
        definition.name.clone(),
        definition.description.clone(),
        Arc::new(definition.parameters.as_map().clone()),
    );
    if let Some(Value::Object(schema)) = &definition.return_schema
        && schema.get("type").and_then(Value::as_str) == Some("object")
    {
        tool = tool.with_raw_output_schema(Arc::new(schema.clone()));
    }
    let mut hints = ToolAnnotations::new();
    hints.idempotent_hint = Some(definition.idempotent);
    hints.open_world_hint = Some(definition.returns_untrusted_content);
    hints.destructive_hint = Some(definition.kind == ToolKind::ApprovalRequired);
    tool.with_annotations(hints)
}

impl ServerHandler for RegistryServer {
    fn get_info(&self) -> InitializeResult {
        InitializeResult::new(ServerCapabilities::builder().enable_tools().enable_tool_list_changed().build())
            .with_server_info(self.info.clone())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools()))
    }

    /// One tool (rmcp asks for it on every HTTP call): looked up, not the whole list made.
    fn get_tool(&self, name: &str) -> Option<rmcp::model::Tool> {
        let offer = self.registry().offer(&(self.run)());
        offer.get(name).map(|t| t.definition()).filter(|d| served(d)).map(|d| describe(d))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        // A traced client's call joins its trace (`_meta.traceparent`, SEP-414).
        let meta = request.meta.as_ref().map(|m| &m.0).unwrap_or(&context.meta.0);
        let parent =
            meta.get_traceparent().and_then(tackle_core::telemetry::parse_traceparent).map(|mut trace| {
                trace.tracestate = meta.get_tracestate().filter(|s| s.len() <= 512).map(str::to_owned);
                trace
            });
        let span = tracing::info_span!(
            "tools/call",
            "otel.name" = %format_args!("tools/call {}", tackle_core::telemetry::clip(&request.name, 64)),
            "otel.kind" = "server",
            "mcp.method.name" = "tools/call",
            "gen_ai.operation.name" = "execute_tool",
            "gen_ai.tool.name" = tackle_core::telemetry::clip(&request.name, 64),
        );
        if let Some(parent) = &parent {
            tackle_core::telemetry::adopt_parent(&span, parent);
        }
        let ct = context.ct.clone();
        tackle_core::telemetry::in_span(self.call(request, ct), &span).await.map(Into::into)
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        // Legacy sessions hear of changes on the session itself; closed ones are let go.
        let mut peers = lock(&self.legacy_peers);
        peers.retain(|peer| !peer.is_transport_closed());
        peers.push(context.peer.clone());
    }

    fn accepted_subscription_filter(
        &self,
        requested: &rmcp::model::SubscriptionFilter,
    ) -> Option<rmcp::model::SubscriptionFilter> {
        Some(requested.clone())
    }

    async fn listen(&self, context: rmcp::service::SubscriptionContext) -> Result<(), ErrorData> {
        let mut changes = self.changed.subscribe();
        // rmcp acknowledges the subscription before this runs, so a change between the two
        // would reach no one: the client, told the subscription stands, may already have
        // listed the tools. When the offer ever changed, the subscriber hears once now and
        // lists again (our client counts a new revision only if the listing differs).
        let wants = context.accepted().tools_list_changed == Some(true);
        if wants && self.ever_changed.load(std::sync::atomic::Ordering::Acquire) {
            let _ = context.sink().notify_tool_list_changed().await;
        }
        loop {
            tokio::select! {
                () = context.cancelled() => return Ok(()),
                change = changes.recv() => {
                    if change.is_err() && changes.is_closed() {
                        return Ok(());
                    }
                    if context.accepted().tools_list_changed == Some(true) {
                        let _ = context.sink().notify_tool_list_changed().await;
                    }
                }
            }
        }
    }
}

/// How the registry is served over HTTP.
#[derive(Debug, Clone)]
pub struct HttpOptions {
    /// The `Host` values accepted (DNS-rebinding protection); loopback names by default.
    pub allowed_hosts: Vec<String>,
    /// The browser `Origin`s accepted; loopback ones by default (requests without an
    /// `Origin`, from programs, pass).
    pub allowed_origins: Vec<String>,
    /// When set, every request must carry `Authorization: Bearer <token>`.
    pub bearer: Option<tackle_core::Secret>,
    /// Stops the server.
    pub cancel: tokio_util::sync::CancellationToken,
}

impl Default for HttpOptions {
    fn default() -> Self {
        HttpOptions {
            allowed_hosts: ["localhost", "127.0.0.1", "::1"].map(String::from).to_vec(),
            allowed_origins: ["http://localhost:*", "http://127.0.0.1:*", "http://[::1]:*"]
                .map(String::from)
                .to_vec(),
            bearer: None,
            cancel: tokio_util::sync::CancellationToken::new(),
        }
    }
}

/// Serves `server` on stdin and stdout until the client closes them.
pub async fn serve_stdio(server: RegistryServer) -> Result<(), std::io::Error> {
    use rmcp::ServiceExt as _;
    let running = server.serve(rmcp::transport::stdio()).await.map_err(std::io::Error::other)?;
    running.waiting().await.map_err(std::io::Error::other)?;
    Ok(())
}

/// The HTTP routes: the MCP endpoint at `/mcp`, behind the bearer check when a token is set.
pub fn http_router(server: RegistryServer, options: &HttpOptions) -> axum::Router {
    use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
    use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
    let mut config = StreamableHttpServerConfig::default()
        .with_allowed_hosts(options.allowed_hosts.clone())
        .with_allowed_origins(options.allowed_origins.clone())
        .enforce_origin_validation();
    config.cancellation_token = options.cancel.clone();
    let service = StreamableHttpService::new(
        move || Ok(server.clone()),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    let router = axum::Router::new().nest_service("/mcp", service);
    match options.bearer.clone() {
        None => router,
        Some(token) => router.layer(axum::middleware::from_fn(
            move |request: axum::extract::Request, next: axum::middleware::Next| {
                let token = token.clone();
                async move {
                    let given = request
                        .headers()
                        .get(http::header::AUTHORIZATION)
                        .and_then(|v| v.to_str().ok())
                        .and_then(|v| v.strip_prefix("Bearer "));
                    if given.is_some_and(|g| same(g.as_bytes(), token.expose().as_bytes())) {
                        next.run(request).await
                    } else {
                        axum::response::IntoResponse::into_response((
                            http::StatusCode::UNAUTHORIZED,
                            [(http::header::WWW_AUTHENTICATE, "Bearer")],
                            "a bearer token is required",
                        ))
                    }
                }
            },
        )),
    }
}

/// Compares two byte strings in time that depends on their lengths only.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
}

/// Serves `server` over Streamable HTTP on `listener` until `options.cancel` fires.
pub async fn serve_http(
    server: RegistryServer,
    listener: tokio::net::TcpListener,
    options: HttpOptions,
) -> Result<(), std::io::Error> {
    let cancel = options.cancel.clone();
    let router = http_router(server, &options);
    axum::serve(listener, router).with_graceful_shutdown(async move { cancel.cancelled().await }).await
}

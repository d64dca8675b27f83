//! `tackle-bench serve`: `tackle-server` under load on loopback, in one process. A scripted
//! model makes R rounds of one `add` call per run and then answers; C clients each post a
//! run, follow its events over SSE to the end, and post the next, until N runs are done.
//! Printed: runs/s, tool-call rounds/s, the time from posting a run to its first event
//! (p50, p99), and memory. `--model-ms MS` makes the model take that long before each turn,
//! as a provider would, and the clients arrive spread over one run's time (with 0 they all
//! start at once and saturate the machine, and the time to the first event is mostly time
//! queued). `--suspended N` instead holds N runs suspended on an approval
//! and reports the memory each takes while idle. The store is SQLite in a temp dir, or
//! `--database postgres://…`. Raise the open-file limit (`ulimit -n 8192`) for C ≥ 500.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use serde_json::json;
use tackle_core::{AssistantPart, AssistantTurn, Message, ToolCall, UserPart};
use tackle_harness::Harness;
use tackle_server::store::SessionLink;
use tackle_server::{Engine, Server, ServerConfig};
use tackle_test::FunctionModel;
use tackle_tools::{ToolContext, ToolError, ToolRegistry, ToolsetExt as _, typed_tool};

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct AddArgs {
    a: i64,
    b: i64,
}

/// The process's resident memory now and at its peak, in KiB (Linux; 0 elsewhere).
fn memory_kib() -> (u64, u64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|n| n.parse().ok())
            .unwrap_or(0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

/// A model that calls `add` until `rounds` results came back, then answers.
fn model(rounds: usize) -> FunctionModel {
    FunctionModel::new(move |request| {
        let results = request
            .messages
            .iter()
            .filter_map(|m| match m {
                Message::User { parts } => {
                    Some(parts.iter().filter(|p| matches!(p, UserPart::ToolReturn(_))).count())
                }
                _ => None,
            })
            .sum::<usize>();
        Ok(if results >= rounds {
            AssistantTurn::text("done")
        } else {
            AssistantTurn {
                parts: vec![AssistantPart::ToolCall(ToolCall::new(
                    format!("c{results}"),
                    "add",
                    json!({"a": results, "b": results + 1}),
                ))],
                ..AssistantTurn::default()
            }
        })
    })
}

fn add_registry(approval: bool) -> Result<ToolRegistry, Box<dyn std::error::Error>> {
    let add = typed_tool("add", "Add two integers.", |_ctx: ToolContext, a: AddArgs| async move {
        Ok::<_, ToolError>(a.a + a.b)
    })
    .build()?;
    let builder = ToolRegistry::builder();
    let builder = if approval {
        builder.toolset(tackle_tools::StaticToolset::new("guarded").tool(add).approval_required())
    } else {
        builder.tool(add)
    };
    Ok(builder.build()?)
}

/// What a load run is.
pub(crate) struct Load<'a> {
    pub(crate) database: Option<&'a str>,
    pub(crate) concurrency: usize,
    pub(crate) runs: usize,
    pub(crate) rounds: usize,
    pub(crate) workers: usize,
    /// PostgreSQL connections in the pool.
    pub(crate) connections: usize,
    /// How long the model takes before each turn (a provider's latency).
    pub(crate) model_ms: u64,
    /// Server processes on the database: this one, and more started as `serve-node`
    /// children (PostgreSQL only); clients take turns between them.
    pub(crate) servers: usize,
    pub(crate) suspended: Option<usize>,
}

/// A model that waits before each turn, as a provider would.
struct Slow {
    inner: FunctionModel,
    delay: Duration,
}

impl tackle_core::Model for Slow {
    fn name(&self) -> &str {
        self.inner.name()
    }

    fn profile(&self) -> &tackle_core::ModelProfile {
        self.inner.profile()
    }

    fn stream<'a>(&'a self, request: tackle_core::ModelRequest<'a>) -> tackle_core::ModelStream<'a> {
        let delay = tokio::time::sleep(self.delay);
        let inner = self.inner.stream(request);
        Box::pin(futures_util::stream::once(delay).filter_map(|()| async { None }).chain(inner))
    }
}

fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

/// Starts one more server process (`tackle-bench serve-node`) on `database`; its URL.
fn node(
    load: &Load<'_>,
    database: &str,
) -> Result<(std::process::Child, String), Box<dyn std::error::Error>> {
    use std::io::BufRead as _;
    let mut child = std::process::Command::new(std::env::current_exe()?)
        .args(["serve-node", "--database", database])
        .args(["--rounds", &load.rounds.to_string(), "--workers", &load.workers.to_string()])
        .args(["--connections", &load.connections.to_string(), "--model-ms", &load.model_ms.to_string()])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()?;
    let stdout = child.stdout.take().ok_or("no stdout")?;
    let mut line = String::new();
    std::io::BufReader::new(stdout).read_line(&mut line)?;
    let url = line.trim().to_owned();
    if !url.starts_with("http://") {
        return Err(format!("the server node said {line:?}").into());
    }
    Ok((child, url))
}

/// `tackle-bench serve-node`: a server on the database, its URL printed, until standard
/// input closes.
pub(crate) fn serve_node(load: Load<'_>) -> Result<(), Box<dyn std::error::Error>> {
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build()?;
    let database = load.database.ok_or("serve-node needs --database")?.to_owned();
    runtime.block_on(async move {
        let store = tackle_server::open(&database, load.connections as u32)?;
        let model = Slow { inner: model(load.rounds), delay: Duration::from_millis(load.model_ms) };
        let engine = Engine::new(Harness::new(add_registry(false)?), Arc::new(model));
        let config = ServerConfig::default().with_workers(load.workers).with_poll(Duration::from_millis(100));
        let server = Server::start(store, engine, config);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        out!("http://{}", listener.local_addr()?);
        let router = server.router();
        tokio::spawn(async move { axum::serve(tackle_server::nodelay(listener), router).await });
        tokio::task::spawn_blocking(|| std::io::copy(&mut std::io::stdin(), &mut std::io::sink())).await??;
        server.shutdown(Duration::from_secs(1)).await;
        Ok(())
    })
}

pub(crate) fn bench(load: Load<'_>) -> Result<(), Box<dyn std::error::Error>> {
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build()?;
    let dir = tempfile::tempdir()?;
    let sqlite = dir.path().join("server.db").display().to_string();
    let database = load.database.unwrap_or(&sqlite).to_owned();
    let backend = if database.starts_with("postgres") { "postgres" } else { "sqlite" };
    runtime.block_on(async move {
        let store = tackle_server::open(&database, load.connections as u32)?;
        let approval = load.suspended.is_some();
        let model = Slow { inner: model(load.rounds), delay: Duration::from_millis(load.model_ms) };
        let engine = Engine::new(Harness::new(add_registry(approval)?), Arc::new(model));
        let config = ServerConfig::default().with_workers(load.workers).with_poll(Duration::from_millis(100));
        let server = Server::start(store, engine, config);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let url = format!("http://{}", listener.local_addr()?);
        let router = server.router();
        tokio::spawn(async move { axum::serve(tackle_server::nodelay(listener), router).await });
        let token = server.store().create_token("bench", "load")?;
        let owner = server.store().authenticate(&token)?.ok_or("no principal")?;
        let mut urls = vec![url.clone()];
        let mut nodes = Vec::new();
        if load.servers > 1 {
            if backend != "postgres" {
                return Err("--servers needs --database postgres://…".into());
            }
            for _ in 1..load.servers {
                let (child, url) = node(&load, &database)?;
                nodes.push(child);
                urls.push(url);
            }
        }

        if let Some(count) = load.suspended {
            let (before, _) = memory_kib();
            let mut ids = Vec::with_capacity(count);
            for _ in 0..count {
                ids.push(server.store().create_run(&owner, &json!({"prompt": "go"}), &SessionLink::New { title: "go".into() })?.id);
            }
            for id in &ids {
                loop {
                    let run = server.store().run(&owner, id)?.ok_or("lost run")?;
                    if run.status.is_settled() {
                        break;
                    }
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
            }
            let (after, peak) = memory_kib();
            let line = json!({"framework": "tackle", "bench": "serve_suspended", "store": backend, "runs": count,
                              "rss_kib_before": before, "rss_kib_after": after, "peak_kib": peak,
                              "bytes_per_suspended_run": ((after.saturating_sub(before)) * 1024) as f64 / count as f64});
            out!("{line}");
            server.shutdown(Duration::ZERO).await;
            return Ok::<_, Box<dyn std::error::Error>>(());
        }

        let http = reqwest::Client::builder().pool_max_idle_per_host(load.concurrency).build()?;
        let next = Arc::new(AtomicUsize::new(0));
        let started = Instant::now();
        let mut clients = Vec::new();
        // With a slow model, clients arrive spread over one run's time rather than all in
        // the same millisecond (as users would); without one they all start at once.
        let ramp = Duration::from_millis(load.model_ms * (load.rounds as u64 + 1));
        for client in 0..load.concurrency {
            let url = urls[client % urls.len()].clone();
            let (http, token, next) = (http.clone(), token.clone(), Arc::clone(&next));
            let total = load.runs;
            let arrival = ramp.mul_f64(client as f64 / load.concurrency as f64);
            clients.push(tokio::spawn(async move {
                tokio::time::sleep(arrival).await;
                let mut firsts = Vec::new();
                while next.fetch_add(1, Ordering::SeqCst) < total {
                    let posted = Instant::now();
                    let created: serde_json::Value = http
                        .post(format!("{url}/v1/runs"))
                        .bearer_auth(&token)
                        .json(&json!({"prompt": "go"}))
                        .send()
                        .await?
                        .json()
                        .await?;
                    let id = created["id"].as_str().ok_or("no run id")?.to_owned();
                    let response = http.get(format!("{url}/v1/runs/{id}/events")).bearer_auth(&token).send().await?;
                    let mut body = response.bytes_stream();
                    let mut first = None;
                    let mut text = Vec::new();
                    while let Some(chunk) = body.next().await {
                        let chunk = chunk?;
                        if first.is_none() && chunk.windows(3).any(|w| w == b"id:") {
                            first = Some(posted.elapsed().as_secs_f64() * 1e3);
                        }
                        text.extend_from_slice(&chunk);
                    }
                    if !String::from_utf8_lossy(&text).contains("\"finished\"") {
                        return Err::<Vec<f64>, Box<dyn std::error::Error + Send + Sync>>(
                            format!("run {id} ended without finishing").into(),
                        );
                    }
                    firsts.push(first.ok_or("no event came")?);
                }
                Ok(firsts)
            }));
        }
        let mut firsts = Vec::new();
        for client in clients {
            firsts.extend(client.await?.map_err(|e| e.to_string())?);
        }
        let elapsed = started.elapsed().as_secs_f64();
        firsts.sort_by(f64::total_cmp);
        let (rss, peak) = memory_kib();
        let line = json!({
            "framework": "tackle", "bench": "serve", "store": backend,
            "concurrency": load.concurrency, "runs": load.runs, "rounds_per_run": load.rounds, "workers": load.workers,
            "connections": load.connections, "model_ms": load.model_ms, "servers": load.servers,
            "runs_per_s": crate::round3(load.runs as f64 / elapsed),
            "tool_rounds_per_s": crate::round3((load.runs * load.rounds) as f64 / elapsed),
            "first_event_ms_p50": crate::round3(quantile(&firsts, 0.5)),
            "first_event_ms_p99": crate::round3(quantile(&firsts, 0.99)),
            "rss_kib": rss, "peak_kib": peak,
        });
        out!("{line}");
        for mut node in nodes {
            drop(node.stdin.take());
            let _ = tokio::task::spawn_blocking(move || node.wait()).await;
        }
        server.shutdown(Duration::from_secs(5)).await;
        Ok(())
    })
}

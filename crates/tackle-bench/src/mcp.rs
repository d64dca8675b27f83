//! `tackle-bench mcp`: tackle's MCP client against real peers (installed by `.ci/run` into
//! `TACKLE_MCP_PEERS`): time to the first tool list from a cold start, per peer and era
//! path; and `server-everything`'s `echo` called one after another over stdio and over
//! Streamable HTTP, through tackle (rmcp, the tool mapping) and through a bare JSON-RPC
//! client that only writes the request and reads the answer — the difference is what
//! tackle's side adds per call.

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tackle_mcp::{Era, McpServer, McpToolset, ServerConfig};
use tackle_tools::{RunContext, ToolContext, Toolset};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt};

const CALLS: usize = 500;
const WARMUP: usize = 20;

/// The `q` quantile of `values`, in microseconds.
fn quantile_us(mut values: Vec<Duration>, q: f64) -> f64 {
    values.sort();
    let at = ((values.len() as f64 - 1.0) * q).round() as usize;
    values[at].as_secs_f64() * 1e6
}

fn report(name: &str, transport: &str, client: &str, times: &[Duration], total: Duration) {
    out!(
        "{}",
        json!({
            "bench": "mcp_echo",
            "transport": transport,
            "client": client,
            "peer": name,
            "calls": times.len(),
            "median_us": (quantile_us(times.to_vec(), 0.5) * 10.0).round() / 10.0,
            "p99_us": (quantile_us(times.to_vec(), 0.99) * 10.0).round() / 10.0,
            "calls_per_s": (times.len() as f64 / total.as_secs_f64()).round(),
        })
    );
}

/// Calls `ev_echo` through tackle's client `CALLS` times (after a warm-up).
async fn ours(server: Arc<McpServer>) -> Result<(Vec<Duration>, Duration), Box<dyn std::error::Error>> {
    let set = McpToolset::load(server).await?;
    let entry = set
        .entries()
        .into_iter()
        .filter_map(Result::ok)
        .find(|e| e.definition.name.ends_with("_echo"))
        .ok_or("no echo")?;
    let run = Arc::new(RunContext::new("bench"));
    let mut times = Vec::with_capacity(CALLS);
    let started = Instant::now();
    for i in 0..WARMUP + CALLS {
        let Value::Object(args) = json!({"message": format!("ping {i}")}) else { unreachable!() };
        let t = Instant::now();
        let ret =
            entry.tool.call(ToolContext::detached(run.clone(), "c", &entry.definition.name), args).await?;
        if i >= WARMUP {
            times.push(t.elapsed());
        }
        std::hint::black_box(ret);
    }
    Ok((times, started.elapsed()))
}

/// The bare client over stdio: newline-delimited JSON-RPC, the legacy handshake, then calls.
async fn bare_stdio(bin: &std::path::Path) -> Result<(Vec<Duration>, Duration), Box<dyn std::error::Error>> {
    let mut child = tokio::process::Command::new(bin)
        .arg("stdio")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()?;
    let mut stdin = child.stdin.take().ok_or("stdin")?;
    let mut lines = tokio::io::BufReader::new(child.stdout.take().ok_or("stdout")?).lines();
    async fn answer(
        lines: &mut tokio::io::Lines<tokio::io::BufReader<tokio::process::ChildStdout>>,
        id: usize,
    ) -> Result<Value, Box<dyn std::error::Error>> {
        while let Some(line) = lines.next_line().await? {
            let message: Value = serde_json::from_str(&line)?;
            if message["id"] == json!(id) {
                return Ok(message);
            }
        }
        Err("the server closed its output".into())
    }
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bare", "version": "1"}}});
    stdin.write_all(format!("{init}\n").as_bytes()).await?;
    answer(&mut lines, 0).await?;
    stdin.write_all(b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n").await?;
    let mut times = Vec::with_capacity(CALLS);
    let started = Instant::now();
    for i in 1..=WARMUP + CALLS {
        let call = json!({"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": {"name": "echo", "arguments": {"message": format!("ping {i}")}}});
        let t = Instant::now();
        stdin.write_all(format!("{call}\n").as_bytes()).await?;
        let result = answer(&mut lines, i).await?;
        if i > WARMUP {
            times.push(t.elapsed());
        }
        std::hint::black_box(result);
    }
    Ok((times, started.elapsed()))
}

/// The bare client over Streamable HTTP: one POST per message on one keep-alive connection,
/// the answer read from the JSON or the event stream.
async fn bare_http(url: &str) -> Result<(Vec<Duration>, Duration), Box<dyn std::error::Error>> {
    let client = reqwest::Client::new();
    let post = |body: Value, session: Option<String>| {
        let mut request = client
            .post(url)
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .header("MCP-Protocol-Version", "2025-11-25");
        if let Some(session) = session {
            request = request.header("Mcp-Session-Id", session);
        }
        request.body(body.to_string()).send()
    };
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bare", "version": "1"}}});
    let response = post(init, None).await?;
    let session = response.headers().get("mcp-session-id").and_then(|v| v.to_str().ok()).map(String::from);
    response.bytes().await?;
    post(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}), session.clone())
        .await?
        .bytes()
        .await?;
    let mut times = Vec::with_capacity(CALLS);
    let started = Instant::now();
    for i in 1..=WARMUP + CALLS {
        let call = json!({"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": {"name": "echo", "arguments": {"message": format!("ping {i}")}}});
        let t = Instant::now();
        let text = post(call, session.clone()).await?.text().await?;
        // A JSON body, or an event stream whose data lines hold the answer (and maybe a
        // priming event with no data).
        let result = std::iter::once(text.as_str())
            .chain(text.lines().filter_map(|l| l.strip_prefix("data:")))
            .filter_map(|part| serde_json::from_str::<Value>(part.trim()).ok())
            .find(|message| message["id"] == json!(i))
            .ok_or_else(|| format!("no answer to call {i} in {text:?}"))?;
        if i > WARMUP {
            times.push(t.elapsed());
        }
        std::hint::black_box(result);
    }
    Ok((times, started.elapsed()))
}

/// Time from nothing to the first tool list.
async fn cold(name: &str, config: ServerConfig) -> Result<(), Box<dyn std::error::Error>> {
    let hint = config.era;
    let t = Instant::now();
    let server = McpServer::connect(config).await?;
    let tools = server.list_tools().await?;
    out!(
        "{}",
        json!({
            "bench": "mcp_first_list",
            "peer": name,
            "era": server.era().revision(),
            "era_known": hint.is_some(),
            "tools": tools.len(),
            "ms": (t.elapsed().as_secs_f64() * 1e4).round() / 10.0,
        })
    );
    Ok(())
}

pub(crate) fn bench() -> Result<(), Box<dyn std::error::Error>> {
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build()?;
    runtime.block_on(async {
        let root = tackle_test::mcp_peers();
        let everything = root.join("node_modules/.bin/mcp-server-everything");
        let time = root.join("venv/bin/mcp-server-time");
        if !everything.exists() || !time.exists() {
            return Err(format!(
                "the MCP peers are not installed under {} (.ci/run installs them)",
                root.display()
            )
            .into());
        }
        let stdio = |era| {
            let mut config =
                ServerConfig::stdio("ev", everything.display().to_string(), vec!["stdio".into()]);
            config.era = era;
            config
        };
        cold("server-everything stdio", stdio(None)).await?;
        cold("server-everything stdio", stdio(Some(Era::Legacy))).await?;
        let mut time_config = ServerConfig::stdio("time", time.display().to_string(), Vec::new());
        cold("mcp-server-time stdio", time_config.clone()).await?;
        time_config.era = Some(Era::Modern);
        cold("mcp-server-time stdio", time_config).await?;

        let (times, total) = bare_stdio(&everything).await?;
        report("server-everything", "stdio", "bare", &times, total);
        let (times, total) = ours(McpServer::connect(stdio(Some(Era::Legacy))).await?).await?;
        report("server-everything", "stdio", "tackle", &times, total);

        let port = std::net::TcpListener::bind("127.0.0.1:0")?.local_addr()?.port();
        let mut child = tokio::process::Command::new(&everything)
            .arg("streamableHttp")
            .env("PORT", port.to_string())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .kill_on_drop(true)
            .spawn()?;
        for _ in 0..100 {
            if tokio::net::TcpStream::connect(("127.0.0.1", port)).await.is_ok() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let url = format!("http://127.0.0.1:{port}/mcp");
        cold("server-everything http", ServerConfig::http("ev", url.clone())).await?;
        let (times, total) = bare_http(&url).await?;
        report("server-everything", "http", "bare", &times, total);
        let (times, total) = ours(McpServer::connect(ServerConfig::http("ev", url)).await?).await?;
        report("server-everything", "http", "tackle", &times, total);
        child.kill().await?;
        Ok(())
    })
}

//! The registry served over Streamable HTTP, and our own client against it, in both eras:
//! listing, typed calls with structured output, approval, validation, the bearer token,
//! and the Host and Origin checks.
#![allow(clippy::unwrap_used, missing_docs)]

use std::sync::Arc;

use serde_json::json;
use tackle_core::{Secret, ToolStatus};
use tackle_mcp::{Era, HttpOptions, McpError, McpServer, McpToolset, RegistryServer, ServerConfig};
use tackle_tools::{Executor, RunContext, ToolContext, ToolError, ToolRegistry, Toolset, typed_tool};

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct AddArgs {
    /// The first addend.
    a: i64,
    /// The second addend.
    b: i64,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct NoArgs {}

#[derive(serde::Serialize, schemars::JsonSchema)]
struct Sum {
    sum: i64,
}

fn registry() -> Arc<ToolRegistry> {
    let add = typed_tool("add", "Add two integers.", |_ctx: ToolContext, args: AddArgs| async move {
        Ok::<_, ToolError>(tackle_tools::Json(Sum { sum: args.a + args.b }))
    })
    .returns::<Sum>()
    .build()
    .unwrap();
    let wipe = typed_tool("wipe", "Delete everything.", |_ctx: ToolContext, _args: NoArgs| async move {
        Ok::<_, ToolError>("wiped")
    })
    .requires_approval()
    .build()
    .unwrap();
    Arc::new(ToolRegistry::builder().tool(add).tool(wipe).build().unwrap())
}

/// Serves the registry on a loopback port; the address and the stop switch.
async fn serve(options: HttpOptions) -> (std::net::SocketAddr, tokio_util::sync::CancellationToken) {
    let server = RegistryServer::new(registry(), Executor::new(), Arc::new(|| RunContext::new("mcp")));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let cancel = options.cancel.clone();
    tokio::spawn(tackle_mcp::serve_http(server, listener, options));
    (addr, cancel)
}

async fn call(set: &McpToolset, name: &str, args: serde_json::Value) -> tackle_core::ToolReturn {
    let entry = set.entries().into_iter().map(Result::unwrap).find(|e| e.definition.name == name).unwrap();
    let serde_json::Value::Object(args) = args else { panic!("an object") };
    entry.tool.call(ToolContext::detached(Arc::new(RunContext::new("r")), "c1", name), args).await.unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn our_client_lists_and_calls_our_server_in_both_eras() {
    let (addr, stop) = serve(HttpOptions::default()).await;
    for era in [None, Some(Era::Legacy)] {
        let mut config = ServerConfig::http("us", format!("http://{addr}/mcp"));
        config.era = era;
        let server = McpServer::connect(config).await.unwrap();
        assert_eq!(server.era(), era.unwrap_or(Era::Modern));
        let listed = server.list_tools().await.unwrap();
        let names: Vec<&str> = listed.iter().map(|t| t.name.as_ref()).collect();
        assert_eq!(names, ["add", "wipe"]);
        let add = &listed[0];
        assert!(add.output_schema.is_some(), "typed tools promise their output");
        assert_eq!(add.input_schema["required"], json!(["a", "b"]));
        let set = McpToolset::new(server, listed);
        let sum = call(&set, "us_add", json!({"a": 2, "b": 3})).await;
        assert_eq!(sum.content.json, Some(json!({"sum": 5})), "{sum:?}");
        // Validation is the registry's, before the tool runs; the model reads what to fix.
        let wrong = call(&set, "us_add", json!({"a": "two", "b": 3})).await;
        assert_eq!(wrong.status, ToolStatus::Failed, "{wrong:?}");
        assert!(wrong.content.model_text().contains("a"), "{wrong:?}");
        // A tool that needs approval does not run.
        let wiped = call(&set, "us_wipe", json!({})).await;
        assert_eq!(wiped.status, ToolStatus::Failed);
        assert!(wiped.content.model_text().contains("needs a person's approval"), "{wiped:?}");
    }
    stop.cancel();
}

#[tokio::test(flavor = "multi_thread")]
async fn a_bearer_token_and_the_host_and_origin_checks_guard_the_endpoint() {
    let options = HttpOptions { bearer: Some(Secret::new("s3cret-token")), ..HttpOptions::default() };
    let (addr, stop) = serve(options).await;
    let url = format!("http://{addr}/mcp");
    let refused = McpServer::connect(ServerConfig::http("anon", url.clone())).await;
    assert!(matches!(refused, Err(McpError::Connect { .. })), "{refused:?}");
    let mut config = ServerConfig::http("authed", url);
    if let tackle_mcp::Transport::Http { bearer, .. } = &mut config.transport {
        *bearer = Some(Secret::new("s3cret-token"));
    }
    let server = McpServer::connect(config).await.unwrap();
    assert_eq!(server.list_tools().await.unwrap().len(), 2);

    // A rebinding page's Host, and a foreign Origin, are refused before anything else.
    for (header, value) in [("Host", "evil.example"), ("Origin", "https://evil.example")] {
        let status = raw_post(addr, header, value).await;
        assert!(status == 403 || status == 421 || status == 400, "{header}: {value} → {status}");
    }
    stop.cancel();
}

/// The status of a bare `initialize` POST with one header replaced.
async fn raw_post(addr: std::net::SocketAddr, header: &str, value: &str) -> u16 {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;
    let host = if header == "Host" { value.to_owned() } else { addr.to_string() };
    let extra = if header == "Host" { String::new() } else { format!("{header}: {value}\r\n") };
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: {host}\r\n{extra}Authorization: Bearer s3cret-token\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await.unwrap();
    let text = String::from_utf8_lossy(&response);
    text.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0)
}

/// When the offer changes, our server says so, and our client stops offering the tool
/// that is gone, in both eras.
#[tokio::test(flavor = "multi_thread")]
async fn a_changed_list_reaches_the_client() {
    use std::sync::atomic::{AtomicBool, Ordering};
    let hide = Arc::new(AtomicBool::new(false));
    let flag = hide.clone();
    let server = RegistryServer::new(
        registry(),
        Executor::new(),
        Arc::new(move || {
            let mut run = RunContext::new("mcp");
            if flag.load(Ordering::Acquire) {
                run.disabled_tools.insert("add".into());
            }
            run
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let options = HttpOptions::default();
    let stop = options.cancel.clone();
    tokio::spawn(tackle_mcp::serve_http(server.clone(), listener, options));
    for era in [Era::Modern, Era::Legacy] {
        hide.store(false, Ordering::Release);
        let mut config = ServerConfig::http("us", format!("http://{addr}/mcp"));
        config.era = Some(era);
        let client = McpServer::connect(config).await.unwrap();
        let set = McpToolset::load(client.clone()).await.unwrap();
        let offered = ToolRegistry::builder().toolset(set).build().unwrap();
        let run = RunContext::new("r");
        assert_eq!(offered.offer(&run).len(), 2, "{era:?}");
        let before = client.revision();
        hide.store(true, Ordering::Release);
        server.tools_changed().await;
        let mut gone = false;
        for _ in 0..250 {
            if !client.still_listed("add") {
                gone = true;
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
        assert!(gone, "{era:?}: the client did not hear of the change");
        assert!(client.revision() > before, "{era:?}: the listing's revision did not grow");
        let names: Vec<String> = offered.offer(&run).names().map(String::from).collect();
        assert_eq!(names, ["us_wipe"], "{era:?}");
    }
    stop.cancel();
}

/// A change can fall between the server's acknowledging a subscription and its listening
/// for changes; so a modern client that subscribes to a server whose offer ever changed
/// hears once at the start and lists the tools without being asked to.
#[tokio::test(flavor = "multi_thread")]
async fn a_subscriber_lists_again_when_the_offer_changed_before_it_came() {
    let server = RegistryServer::new(registry(), Executor::new(), Arc::new(|| RunContext::new("mcp")));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let options = HttpOptions::default();
    let stop = options.cancel.clone();
    tokio::spawn(tackle_mcp::serve_http(server.clone(), listener, options));
    let connect = || async {
        let mut config = ServerConfig::http("us", format!("http://{addr}/mcp"));
        config.era = Some(Era::Modern);
        McpServer::connect(config).await.unwrap()
    };
    // Nothing changed yet: connecting alone lists nothing.
    let quiet = connect().await;
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(quiet.revision(), 0, "a server that never changed sent a change");
    server.tools_changed().await;
    let late = connect().await;
    let mut listed = false;
    for _ in 0..250 {
        if late.revision() > 0 {
            listed = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert!(listed, "the late subscriber did not list the tools");
    assert!(late.still_listed("add"));
    stop.cancel();
}

/// A harness's tools: a local one, and the server's as the client sees them now — built
/// again from its latest listing when the listing changed.
struct Following {
    client: Arc<McpServer>,
    local: tackle_tools::FunctionTool,
    seen: std::sync::Mutex<u64>,
}

impl Following {
    fn build(&self) -> ToolRegistry {
        ToolRegistry::builder()
            .tool(self.local.clone())
            .toolset(McpToolset::current(self.client.clone()))
            .build()
            .unwrap()
    }
}

impl tackle_tools::RegistrySource for Following {
    fn refreshed(&self) -> Option<ToolRegistry> {
        let now = self.client.revision();
        let mut seen = self.seen.lock().unwrap();
        if *seen == now {
            return None;
        }
        *seen = now;
        Some(self.build())
    }
}

/// A tool the server adds mid-run is offered (and callable) from the next round, in both
/// eras.
#[tokio::test(flavor = "multi_thread")]
async fn a_tool_the_server_adds_is_offered_from_the_next_round() {
    use std::sync::atomic::{AtomicBool, Ordering};
    use tackle_core::{AssistantPart, AssistantTurn, Message, ToolCall};
    let hide = Arc::new(AtomicBool::new(true));
    let flag = hide.clone();
    let server = RegistryServer::new(
        registry(),
        Executor::new(),
        Arc::new(move || {
            let mut run = RunContext::new("mcp");
            if flag.load(Ordering::Acquire) {
                run.disabled_tools.insert("add".into());
            }
            run
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let options = HttpOptions::default();
    let stop = options.cancel.clone();
    tokio::spawn(tackle_mcp::serve_http(server.clone(), listener, options));
    for era in [Era::Modern, Era::Legacy] {
        hide.store(true, Ordering::Release);
        let mut config = ServerConfig::http("us", format!("http://{addr}/mcp"));
        config.era = Some(era);
        config.trusted = true;
        let client = McpServer::connect(config).await.unwrap();
        client.list_tools().await.unwrap();
        // A local tool that makes the server add `add`, and returns once the client has
        // listed the tools again.
        let (reveal_flag, reveal_server, reveal_client) = (hide.clone(), server.clone(), client.clone());
        let reveal = typed_tool("reveal", "Reveal more tools.", move |_ctx: ToolContext, _args: NoArgs| {
            let (flag, server, client) = (reveal_flag.clone(), reveal_server.clone(), reveal_client.clone());
            async move {
                let before = client.revision();
                flag.store(false, Ordering::Release);
                server.tools_changed().await;
                for _ in 0..200 {
                    if client.revision() > before {
                        return Ok::<_, ToolError>("revealed");
                    }
                    tokio::time::sleep(std::time::Duration::from_millis(10)).await;
                }
                Err(ToolError::failed("the client did not list the tools again"))
            }
        })
        .build()
        .unwrap();
        let source = Following {
            client: client.clone(),
            local: reveal,
            seen: std::sync::Mutex::new(client.revision()),
        };
        let harness = tackle_harness::Harness::new(source.build()).registry_source(Arc::new(source));
        let call = |id: &str, name: &str, args: serde_json::Value| AssistantTurn {
            parts: vec![AssistantPart::ToolCall(ToolCall::new(id, name, args))],
            ..AssistantTurn::default()
        };
        let model = tackle_test::ScriptedModel::new([
            call("c1", "reveal", json!({})),
            call("c2", "us_add", json!({"a": 40, "b": 2})),
            AssistantTurn::text("42"),
        ]);
        let ctx = Arc::new(RunContext::new("r"));
        let mut state = harness.start("r", vec![Message::user("add 40 and 2")]);
        let outcome = harness.run(&model, &ctx, &mut state, &mut tackle_harness::Discard).await.unwrap();
        assert!(matches!(outcome, tackle_harness::RunOutcome::Answered(_)), "{era:?}: {outcome:?}");
        let requests = model.requests();
        let offered = |i: usize| requests[i].tools.iter().map(|t| t.name.clone()).collect::<Vec<_>>();
        assert!(!offered(0).contains(&"us_add".to_owned()), "{era:?}: {:?}", offered(0));
        assert!(offered(1).contains(&"us_add".to_owned()), "{era:?}: {:?}", offered(1));
        let shown = format!("{:?}", requests[2].messages.last().unwrap());
        assert!(shown.contains("sum") && shown.contains("42"), "{era:?}: {shown}");
        assert!(!shown.contains("not available"), "{era:?}: {shown}");
    }
    stop.cancel();
}

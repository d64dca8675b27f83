//! The client against real MCP servers: `@modelcontextprotocol/server-everything` (npm,
//! `2025-11-25`, over stdio and Streamable HTTP) and `mcp-server-time` (PyPI, `2026-07-28`).
//! `.ci/run` installs them into `TACKLE_MCP_PEERS` and sets `TACKLE_REQUIRE_PEERS=1`, which
//! makes their absence a failure; elsewhere a test without its peer says so and passes.
#![allow(clippy::unwrap_used, clippy::print_stderr, missing_docs)]

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};
use tackle_core::{ToolKind, ToolStatus};
use tackle_mcp::{Era, McpError, McpServer, McpToolset, ServerConfig};
use tackle_tools::{RunContext, ToolContext, Toolset};

fn peer(relative: &str) -> Option<PathBuf> {
    tackle_test::mcp_peer(relative)
}

fn everything() -> Option<PathBuf> {
    peer("node_modules/.bin/mcp-server-everything")
}

fn time_server() -> Option<PathBuf> {
    peer("venv/bin/mcp-server-time")
}

/// Calls the toolset's tool `name` (tackle's name) with `args`.
async fn call(set: &McpToolset, name: &str, args: Value) -> tackle_core::ToolReturn {
    let entry = set.entries().into_iter().map(Result::unwrap).find(|e| e.definition.name == name).unwrap();
    let Value::Object(args) = args else { panic!("an object") };
    let ctx = ToolContext::detached(Arc::new(RunContext::new("r")), "c1", name);
    match entry.tool.call(ctx, args).await {
        Ok(ret) => ret,
        Err(e) => panic!("{name} failed: {e:?}"),
    }
}

fn alive(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => !stat.rsplit(')').next().is_some_and(|rest| rest.trim_start().starts_with('Z')),
        Err(_) => false,
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn everything_over_stdio_speaks_the_legacy_era() {
    let Some(bin) = everything() else { return };
    let mut config = ServerConfig::stdio("ev", bin.display().to_string(), vec!["stdio".into()]);
    config.exclude = vec!["gzip-*".into()];
    let server = McpServer::connect(config).await.unwrap();
    assert_eq!(server.era(), Era::Legacy);
    let set = McpToolset::load(server.clone()).await.unwrap();
    let names: Vec<String> = set.entries().into_iter().map(|e| e.unwrap().definition.name).collect();
    assert!(names.contains(&"ev_echo".to_owned()) && names.contains(&"ev_get-sum".to_owned()), "{names:?}");
    assert!(!names.iter().any(|n| n.starts_with("ev_gzip")), "excluded: {names:?}");
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted, "deterministic order");
    // An untrusted server's tools ask first and their results are filtered.
    let echo =
        set.entries().into_iter().map(Result::unwrap).find(|e| e.definition.name == "ev_echo").unwrap();
    assert_eq!(echo.definition.kind, ToolKind::ApprovalRequired);
    assert!(echo.definition.returns_untrusted_content);

    let echoed = call(&set, "ev_echo", json!({"message": "hello there"})).await;
    assert_eq!((echoed.status, echoed.content.model_text().as_ref()), (ToolStatus::Ok, "Echo: hello there"));
    let sum = call(&set, "ev_get-sum", json!({"a": 2, "b": 40})).await;
    assert!(sum.content.model_text().contains("42"), "{sum:?}");
    let image = call(&set, "ev_get-tiny-image", json!({})).await;
    assert!(image.content.model_text().contains("[image: image/png, about"), "{image:?}");
    // An untrusted server's image is described only (the filter cannot read images)...
    assert!(image.attachments.is_empty() && image.content.model_text().contains("not shown"), "{image:?}");
    let structured = call(&set, "ev_get-structured-content", json!({"location": "New York"})).await;
    assert!(structured.content.json.is_some(), "{structured:?}");

    // A long operation's progress notifications become the call's progress reports.
    let reports = Arc::new(std::sync::Mutex::new(Vec::new()));
    let mut run = RunContext::new("r");
    let into = reports.clone();
    run.progress = Some(tackle_tools::ProgressSink::new(move |p| into.lock().unwrap().push(p)));
    let entry = set
        .entries()
        .into_iter()
        .map(Result::unwrap)
        .find(|e| e.definition.name == "ev_trigger-long-running-operation")
        .unwrap();
    let Value::Object(args) = json!({"duration": 0.6, "steps": 3}) else { unreachable!() };
    let ctx = ToolContext::detached(Arc::new(run), "c9", "ev_trigger-long-running-operation");
    let done = entry.tool.call(ctx, args).await.unwrap();
    assert_eq!(done.status, ToolStatus::Ok, "{done:?}");
    let reports = reports.lock().unwrap().clone();
    // (The last notification may be handled after the answer: it is then dropped.)
    assert!(!reports.is_empty() && reports.len() <= 3, "{reports:?}");
    assert!(reports.iter().all(|r| r.call_id == "c9" && r.total == Some(3.0)), "{reports:?}");
    assert!(reports.windows(2).all(|w| w[0].progress < w[1].progress), "{reports:?}");

    // ...a trusted server's goes with the result, for the model APIs that take it.
    let mut trusted = ServerConfig::stdio("ev", bin.display().to_string(), vec!["stdio".into()]);
    trusted.trusted = true;
    let trusted_set = McpToolset::load(McpServer::connect(trusted).await.unwrap()).await.unwrap();
    let image = call(&trusted_set, "ev_get-tiny-image", json!({})).await;
    assert!(image.content.model_text().contains("attached"), "{image:?}");
    assert_eq!(image.attachments.len(), 1, "{image:?}");
    assert_eq!(image.attachments[0].mime_type, "image/png");
    drop(trusted_set);

    // The server's process group ends with the connection.
    let pid = server.pid().unwrap();
    assert!(alive(pid));
    drop((echo, entry, set));
    drop(server);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(!alive(pid), "server {pid} outlived its connection");
}

#[tokio::test(flavor = "multi_thread")]
async fn progress_goes_to_its_own_call_when_several_run_at_once() {
    let Some(bin) = everything() else { return };
    let config = ServerConfig::stdio("ev", bin.display().to_string(), vec!["stdio".into()]);
    let server = McpServer::connect(config).await.unwrap();
    let call = |steps: u64| {
        let server = server.clone();
        async move {
            let reports = Arc::new(std::sync::Mutex::new(Vec::new()));
            let into = reports.clone();
            let listener: tackle_mcp::ProgressFn =
                Arc::new(move |done, total, _message| into.lock().unwrap().push((done, total)));
            let Value::Object(args) = json!({"duration": 0.6, "steps": steps}) else { unreachable!() };
            let called =
                server.call("trigger-long-running-operation", args, Some(listener), None).await.unwrap();
            assert!(matches!(called, tackle_mcp::Called::Done(_)), "{called:?}");
            reports.lock().unwrap().clone()
        }
    };
    let (three, four) = tokio::join!(call(3), call(4));
    // Each call hears only its own operation (the last notification may come after the
    // answer and is then dropped).
    assert!(three.len() >= 2 && three.iter().all(|(_, total)| *total == Some(3.0)), "{three:?}");
    assert!(four.len() >= 3 && four.iter().all(|(_, total)| *total == Some(4.0)), "{four:?}");
}

/// The run's state, as a store keeps it across a restart.
fn restarted(state: &tackle_harness::RunState) -> tackle_harness::RunState {
    serde_json::from_str(&serde_json::to_string(state).unwrap()).unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_servers_question_suspends_the_run_and_the_answer_reaches_the_server() {
    use tackle_core::{AssistantPart, AssistantTurn, InputAction, InputResponse, Message, ToolCall};
    use tackle_harness::{Decision, Harness, PendingKind, RunOutcome};
    let Some(bin) = everything() else { return };
    let mut config = ServerConfig::stdio("ev", bin.display().to_string(), vec!["stdio".into()]);
    config.include = vec!["trigger-elicitation-request".into()];
    config.trusted = true;
    let set = McpToolset::load(McpServer::connect(config).await.unwrap()).await.unwrap();
    assert_eq!(set.len(), 1, "the server offers its asking tool to a client that can answer");
    let harness = Harness::new(tackle_tools::ToolRegistry::builder().toolset(set).build().unwrap());
    let call = |id: &str| AssistantTurn {
        parts: vec![AssistantPart::ToolCall(ToolCall::new(id, "ev_trigger-elicitation-request", json!({})))],
        ..AssistantTurn::default()
    };
    let model = tackle_test::ScriptedModel::new([
        call("c1"),
        AssistantTurn::text("thanks, Ada"),
        call("c2"),
        AssistantTurn::text("fine"),
    ]);
    let ctx = Arc::new(RunContext::new("run-1"));
    let mut state = harness.start("run-1", vec![Message::user("sign me up")]);
    let outcome = harness.run(&model, &ctx, &mut state, &mut tackle_harness::Discard).await.unwrap();
    let RunOutcome::Suspended(pending) = outcome else { panic!("a question expected: {outcome:?}") };
    assert_eq!(pending[0].kind, PendingKind::Input);
    let asked = pending[0].request.as_ref().unwrap();
    assert!(asked.message.contains("\"ev\" asks: Please provide inputs"), "{asked:?}");
    assert_eq!(asked.schema["required"], json!(["name"]));

    // An answer that does not fit the form is refused and loses nothing.
    let mut state = restarted(&state);
    let wrong = InputResponse::accept(json!({"check": true}).as_object().unwrap().clone());
    let err = harness
        .resume(
            &model,
            &ctx,
            &mut state,
            [("c1".into(), Decision::Input { response: wrong })],
            &mut tackle_harness::Discard,
        )
        .await
        .unwrap_err();
    assert!(err.to_string().contains("name"), "{err}");
    let answer =
        InputResponse::accept(json!({"name": "Ada Lovelace", "check": true}).as_object().unwrap().clone());
    let outcome = harness
        .resume(
            &model,
            &ctx,
            &mut state,
            [("c1".into(), Decision::Input { response: answer })],
            &mut tackle_harness::Discard,
        )
        .await
        .unwrap();
    assert!(matches!(outcome, RunOutcome::Answered(_)), "{outcome:?}");
    let requests = model.requests();
    let shown = format!("{:?}", requests.last().unwrap().messages.last().unwrap());
    assert!(shown.contains("- Name: Ada Lovelace") && shown.contains("Agreed to terms: true"), "{shown}");
    assert_eq!(shown.matches("User provided the requested information").count(), 1, "{shown}");

    // Declining is the server's to hear too.
    state.push_user("again");
    let outcome = harness.run(&model, &ctx, &mut state, &mut tackle_harness::Discard).await.unwrap();
    assert!(matches!(outcome, RunOutcome::Suspended(_)), "{outcome:?}");
    let declined = InputResponse { action: InputAction::Decline, content: None };
    let outcome = harness
        .resume(
            &model,
            &ctx,
            &mut state,
            [("c2".into(), Decision::Input { response: declined })],
            &mut tackle_harness::Discard,
        )
        .await
        .unwrap();
    assert!(matches!(outcome, RunOutcome::Answered(_)), "{outcome:?}");
    let requests = model.requests();
    let shown = format!("{:?}", requests.last().unwrap().messages.last().unwrap());
    assert!(shown.contains("User declined to provide the requested information"), "{shown}");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_time_server_speaks_the_modern_era_and_trust_relaxes_its_tools() {
    let Some(bin) = time_server() else { return };
    let mut config =
        ServerConfig::stdio("time", bin.display().to_string(), vec!["--local-timezone".into(), "UTC".into()]);
    config.trusted = true;
    let server = McpServer::connect(config.clone()).await.unwrap();
    assert_eq!(server.era(), Era::Modern);
    let set = McpToolset::load(server).await.unwrap();
    let entry = set
        .entries()
        .into_iter()
        .map(Result::unwrap)
        .find(|e| e.definition.name == "time_get_current_time")
        .unwrap();
    // It says it is read-only and stays in a closed world; the server is trusted.
    assert_eq!(entry.definition.kind, ToolKind::Function, "{:?}", entry.definition);
    let now = call(&set, "time_get_current_time", json!({"timezone": "Europe/Berlin"})).await;
    assert_eq!(now.status, ToolStatus::Ok);
    assert!(now.content.model_text().contains("Europe/Berlin"), "{now:?}");
    // A wrong timezone is the tool's error, for the model to read.
    let wrong = call(&set, "time_get_current_time", json!({"timezone": "Mars/Olympus"})).await;
    assert_eq!(wrong.status, ToolStatus::Failed, "{wrong:?}");
    assert!(wrong.content.model_text().contains("Mars/Olympus"), "{wrong:?}");
    // The era found is used first next time: a legacy start still works against it.
    config.era = Some(Era::Legacy);
    let again = McpServer::connect(config).await.unwrap();
    assert_eq!(again.era(), Era::Legacy);
}

#[tokio::test(flavor = "multi_thread")]
async fn everything_over_streamable_http() {
    let Some(bin) = everything() else { return };
    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let mut child = tokio::process::Command::new(&bin)
        .arg("streamableHttp")
        .env("PORT", port.to_string())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    for _ in 0..100 {
        if tokio::net::TcpStream::connect(("127.0.0.1", port)).await.is_ok() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let server =
        McpServer::connect(ServerConfig::http("web", format!("http://127.0.0.1:{port}/mcp"))).await.unwrap();
    let set = McpToolset::load(server).await.unwrap();
    let echoed = call(&set, "web_echo", json!({"message": "over http"})).await;
    assert_eq!(echoed.content.model_text(), "Echo: over http");
    child.kill().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn servers_that_do_not_start_or_answer_fail_clearly() {
    let missing =
        McpServer::connect(ServerConfig::stdio("gone", "no-such-mcp-server-tackle", Vec::new())).await;
    assert!(matches!(&missing, Err(McpError::Connect { server, .. }) if server == "gone"), "{missing:?}");
    let mut silent =
        ServerConfig::stdio("silent", "sh", vec!["-c".into(), "echo starting >&2; sleep 30".into()]);
    silent.connect_timeout = Duration::from_millis(800);
    let started = std::time::Instant::now();
    let timed_out = McpServer::connect(silent).await;
    assert!(matches!(&timed_out, Err(McpError::Timeout { .. })), "{timed_out:?}");
    assert!(started.elapsed() < Duration::from_secs(5));
    // What it says on stderr is in the error, without the secrets it was given.
    let mut chatty = ServerConfig::stdio(
        "chatty",
        "sh",
        vec!["-c".into(), "echo 'not json'; echo \"bad token $API_TOKEN\" >&2; sleep 1; exit 3".into()],
    );
    if let tackle_mcp::Transport::Stdio { env, .. } = &mut chatty.transport {
        env.push(("API_TOKEN".into(), tackle_core::Secret::new("sk-live-0123456789")));
    }
    chatty.connect_timeout = Duration::from_secs(5);
    let failed = McpServer::connect(chatty).await;
    let message = failed.unwrap_err().to_string();
    assert!(message.contains("chatty") && message.contains("bad token [redacted]"), "{message}");
    assert!(!message.contains("sk-live"), "{message}");
}

/// The official conformance suite's client scenarios against tackle's client (through the
/// `mcp-conformance-client` binary), in both eras; every check must pass but one: a legacy
/// server's first `elicitation/create` is answered `cancel` while the question goes to the
/// user (the run suspends; the call is made again with the answer), where the suite expects
/// the answer at once.
#[test]
fn the_conformance_suite_passes_against_our_client() {
    let Some(node) = peer("node_modules/.bin/node") else { return };
    let Some(suite) = peer("node_modules/@modelcontextprotocol/conformance/dist/index.js") else { return };
    let client = env!("CARGO_BIN_EXE_mcp-conformance-client");
    let (mut passed, mut total) = (0, 0);
    for (version, scenario) in [
        ("2026-07-28", "tools_call"),
        ("2026-07-28", "request-metadata"),
        ("2026-07-28", "sep-2322-client-request-state"),
        ("2025-11-25", "tools_call"),
        ("2025-11-25", "elicitation-sep1034-client-defaults"),
    ] {
        let out = std::process::Command::new(&node)
            .arg(&suite)
            .args(["client", "--command", client, "--scenario", scenario, "--spec-version", version])
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
        let failures: Vec<&str> = text
            .lines()
            .filter(|l| l.contains("FAILURE") && !l.contains("Client accepts elicitation request"))
            .collect();
        assert!(failures.is_empty(), "{version} {scenario}: {failures:#?}");
        let score =
            text.lines().find_map(|l| l.trim().strip_prefix("Passed: ")).unwrap_or_else(|| panic!("{text}"));
        let (p, t) = score.split_once(',').unwrap().0.split_once('/').unwrap();
        passed += p.trim().parse::<u32>().unwrap();
        total += t.trim().parse::<u32>().unwrap();
        eprintln!("conformance client {version} {scenario}: {score}");
    }
    eprintln!("conformance client: {passed}/{total} checks passed");
    assert!(total >= 20 && passed + 1 >= total, "{passed}/{total}");
}

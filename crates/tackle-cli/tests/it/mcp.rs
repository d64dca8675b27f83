//! MCP servers from the settings: `tackle mcp list`, their tools in `tools list`, a run that
//! calls a tool on each real peer and answers, and a server that cannot start left out.

use std::path::PathBuf;

use serde_json::json;
use wiremock::MockServer;

use super::{Wire, output, requests, settings, tackle};

fn peer(relative: &str) -> Option<PathBuf> {
    tackle_test::mcp_peer(relative)
}

/// The four peers (and one that cannot start), `files` being the directory the
/// filesystem server may read.
fn servers(files: &std::path::Path) -> Option<String> {
    let everything = peer("node_modules/.bin/mcp-server-everything")?;
    let filesystem = peer("node_modules/.bin/mcp-server-filesystem")?;
    let time = peer("venv/bin/mcp-server-time")?;
    let fetch = peer("venv/bin/mcp-server-fetch")?;
    Some(format!(
        "[mcp.servers.ev]\ncommand = \"{}\"\nargs = [\"stdio\"]\nexclude = [\"gzip-*\"]\n\n\
         [mcp.servers.fs]\ncommand = \"{}\"\nargs = [\"{}\"]\n\n\
         [mcp.servers.time]\ncommand = \"{}\"\nargs = [\"--local-timezone\", \"UTC\"]\ntrusted = true\n\n\
         [mcp.servers.fetch]\ncommand = \"{}\"\nargs = [\"--ignore-robots-txt\", \"--allow-private-ips\"]\n\n\
         [mcp.servers.broken]\ncommand = \"no-such-mcp-server-tackle\"\n\n\
         [tools.ev_echo]\napproval = false\n\n[tools.fs_read_text_file]\napproval = false\n\n\
         [tools.fetch_fetch]\napproval = false\n",
        everything.display(),
        filesystem.display(),
        files.display(),
        time.display(),
        fetch.display()
    ))
}

#[tokio::test(flavor = "multi_thread")]
async fn a_run_calls_a_tool_on_each_peer_and_answers() {
    let dir = tempfile::tempdir().unwrap();
    let files = dir.path().join("files");
    std::fs::create_dir_all(&files).unwrap();
    std::fs::write(files.join("plan.txt"), "ship on Friday\n").unwrap();
    let Some(extra) = servers(&files) else { return };
    let wire = Wire::Chat;
    let server = MockServer::start().await;
    // A page for the fetch server, on loopback.
    wiremock::Mock::given(wiremock::matchers::method("GET"))
        .and(wiremock::matchers::path("/page"))
        .respond_with(
            wiremock::ResponseTemplate::new(200)
                .insert_header("content-type", "text/html")
                .set_body_string("<html><body><h1>Release notes</h1><p>Version 2 is out.</p></body></html>"),
        )
        .mount(&server)
        .await;
    let page = format!("{}/page", server.uri());
    wire.mount(
        &server,
        vec![
            wire.turn(
                "",
                &[
                    ("c1", "ev_echo", json!({"message": "ping"})),
                    ("c2", "time_get_current_time", json!({"timezone": "Asia/Tokyo"})),
                    ("c3", "fs_read_text_file", json!({"path": files.join("plan.txt")})),
                    ("c4", "fetch_fetch", json!({"url": page})),
                ],
            ),
            wire.turn("Echoed; evening in Tokyo; ship Friday; version 2 is out.", &[]),
        ],
    )
    .await;
    let config = settings(dir.path(), wire, &server, &extra);
    let mut command = tackle(&config);
    command.args(["run", "Ping, tell the time in Tokyo, read the plan and the release notes."]);
    let (code, stdout, stderr) = output(command).await;
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout, "Echoed; evening in Tokyo; ship Friday; version 2 is out.\n");
    // The server that cannot start is reported once; the run goes on without it.
    assert_eq!(stderr.matches("MCP server broken is left out").count(), 1, "{stderr}");
    let first = requests(&server, wire).await[0].to_string();
    assert!(first.contains("ev_echo") && first.contains("time_get_current_time"), "{first}");
    let second = requests(&server, wire).await[1].to_string();
    assert!(second.contains("Echo: ping"), "{second}");
    assert!(second.contains("Asia/Tokyo"), "{second}");
    assert!(second.contains("ship on Friday"), "{second}");
    assert!(second.contains("Version 2 is out"), "{second}");
}

#[tokio::test(flavor = "multi_thread")]
async fn servers_are_listed_with_their_eras_and_tools() {
    let dir = tempfile::tempdir().unwrap();
    let Some(extra) = servers(dir.path()) else { return };
    let server = MockServer::start().await;
    let config = settings(dir.path(), Wire::Chat, &server, &extra);
    let mut command = tackle(&config);
    command.args(["mcp", "list", "--json"]);
    let (code, stdout, stderr) = output(command).await;
    assert_eq!(code, 1, "one server cannot be used: {stderr}");
    let rows: Vec<serde_json::Value> = stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let row = |name: &str| rows.iter().find(|r| r["server"] == name).unwrap().clone();
    assert_eq!((row("ev")["era"].as_str(), row("ev")["status"].as_str()), (Some("2025-11-25"), Some("ok")));
    assert_eq!(row("time")["era"], "2026-07-28");
    assert!(row("time")["tools"].as_array().unwrap().contains(&json!("time_convert_time")));
    assert_eq!(row("broken")["status"], "failed");
    assert!(row("broken")["reason"].as_str().unwrap().contains("no-such-mcp-server-tackle"));

    let mut command = tackle(&config);
    command.args(["tools", "list"]);
    let (_, stdout, _) = output(command).await;
    assert!(stdout.contains("ev_echo") && stdout.contains("(MCP server ev)"), "{stdout}");
}

/// The environment every `tackle` the tests start gets, for a server started by our client.
fn tackle_env(config: &std::path::Path) -> Vec<(String, tackle_core::Secret)> {
    let data = config.parent().unwrap().join("data");
    [
        ("TACKLE_CONFIG", config.display().to_string()),
        ("TACKLE_DATA_DIR", data.display().to_string()),
        ("TACKLE_MODEL_DIR", super::model_dir().display().to_string()),
        ("TACKLE_LOOPBACK_ONLY", "1".to_owned()),
        ("TACKLE_SECRETS", "file".to_owned()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), tackle_core::Secret::new(v)))
    .collect()
}

/// Calls `name` on `set` and returns its status and text.
async fn call_on(
    set: &tackle_mcp::McpToolset,
    name: &str,
    args: serde_json::Value,
) -> (tackle_core::ToolStatus, String) {
    use tackle_tools::Toolset as _;
    let entry = set.entries().into_iter().map(Result::unwrap).find(|e| e.definition.name == name).unwrap();
    let serde_json::Value::Object(args) = args else { panic!("an object") };
    let ctx = tackle_tools::ToolContext::detached(
        std::sync::Arc::new(tackle_tools::RunContext::new("r")),
        "c1",
        name,
    );
    let ret = entry.tool.call(ctx, args).await.unwrap();
    (ret.status, ret.content.model_text().into_owned())
}

/// `tackle mcp serve` over stdio and over HTTP, driven by tackle's own MCP client: the
/// offered tools listed, a read-only one run, one that needs approval refused.
#[tokio::test(flavor = "multi_thread")]
async fn tackle_serves_its_tools_over_stdio_and_http() {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("project");
    std::fs::create_dir_all(&project).unwrap();
    std::fs::write(project.join("notes.txt"), "served over MCP\n").unwrap();
    let provider = MockServer::start().await;
    let extra = format!("[env]\nroot = \"{}\"", project.display());
    let config = settings(dir.path(), Wire::Chat, &provider, &extra);
    let binary = assert_cmd::cargo::cargo_bin("tackle").display().to_string();

    let mut stdio = tackle_mcp::ServerConfig::stdio(
        "tk",
        binary.clone(),
        vec!["mcp".into(), "serve".into(), "--stdio".into()],
    );
    if let tackle_mcp::Transport::Stdio { env, .. } = &mut stdio.transport {
        *env = tackle_env(&config);
    }
    let server = tackle_mcp::McpServer::connect(stdio).await.unwrap();
    assert_eq!(server.era(), tackle_mcp::Era::Modern);
    let set = tackle_mcp::McpToolset::load(server).await.unwrap();
    let (status, text) = call_on(&set, "tk_read_file", json!({"path": "notes.txt"})).await;
    assert_eq!(status, tackle_core::ToolStatus::Ok, "{text}");
    assert!(text.contains("served over MCP"), "{text}");
    let (status, text) = call_on(&set, "tk_write_file", json!({"path": "x.txt", "content": "no"})).await;
    assert_eq!(status, tackle_core::ToolStatus::Failed, "{text}");
    assert!(text.contains("needs a person's approval") && !project.join("x.txt").exists(), "{text}");
    // Escapes are refused by the tool as ever.
    let (_, text) = call_on(&set, "tk_read_file", json!({"path": "../config.toml"})).await;
    assert!(text.contains("is refused") && !text.contains("provider"), "{text}");

    let (mut child, port) = serve_http(&config).await;
    let http = tackle_mcp::ServerConfig::http("web", format!("http://127.0.0.1:{port}/mcp"));
    let server = tackle_mcp::McpServer::connect(http).await.unwrap();
    let set = tackle_mcp::McpToolset::load(server).await.unwrap();
    let (status, text) = call_on(&set, "web_read_file", json!({"path": "notes.txt"})).await;
    assert_eq!((status, text.contains("served over MCP")), (tackle_core::ToolStatus::Ok, true), "{text}");
    // A skill added to the project changes the offer: the client is told, and lists it.
    let server = set.server().clone();
    let before = server.revision();
    std::fs::create_dir_all(project.join(".agents/skills/notes")).unwrap();
    std::fs::write(
        project.join(".agents/skills/notes/SKILL.md"),
        "---\nname: notes\ndescription: Keep notes.\n---\nWrite them down.\n",
    )
    .unwrap();
    let mut told = false;
    for _ in 0..100 {
        if server.revision() > before {
            told = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(told, "the server did not say its tools changed");
    let listed: Vec<String> = server.list_tools().await.unwrap().iter().map(|t| t.name.to_string()).collect();
    assert!(listed.contains(&"load_skill".to_owned()), "{listed:?}");
    child.kill().await.unwrap();
}

/// Starts `tackle mcp serve --http` on a free loopback port; the child and the port.
async fn serve_http(config: &std::path::Path) -> (tokio::process::Child, u16) {
    let binary = assert_cmd::cargo::cargo_bin("tackle");
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let mut serve = tokio::process::Command::new(&binary);
    for (key, value) in tackle_env(config) {
        serve.env(key, value.expose());
    }
    let child = serve
        .args(["mcp", "serve", "--http", &format!("127.0.0.1:{port}")])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    for _ in 0..100 {
        if tokio::net::TcpStream::connect(("127.0.0.1", port)).await.is_ok() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    (child, port)
}

/// A settings file with a project directory holding `notes.txt`.
fn project_settings(dir: &std::path::Path, provider: &MockServer) -> PathBuf {
    let project = dir.join("project");
    std::fs::create_dir_all(&project).unwrap();
    std::fs::write(project.join("notes.txt"), "served over MCP\n").unwrap();
    settings(dir, Wire::Chat, provider, &format!("[env]\nroot = \"{}\"", project.display()))
}

/// The official MCP Inspector CLI lists and calls tackle's tools, over stdio and HTTP.
#[tokio::test(flavor = "multi_thread")]
async fn the_inspector_drives_tackle_mcp_serve() {
    let Some(inspector) = peer("node_modules/.bin/mcp-inspector") else { return };
    let dir = tempfile::tempdir().unwrap();
    let provider = MockServer::start().await;
    let config = project_settings(dir.path(), &provider);
    let binary = assert_cmd::cargo::cargo_bin("tackle").display().to_string();
    let inspect = |target: Vec<String>, method: Vec<&str>| {
        let mut command = std::process::Command::new(&inspector);
        command.arg("--cli").args(&target).args(["--method"]).args(&method);
        for (key, value) in tackle_env(&config) {
            command.env(key, value.expose());
        }
        command
    };
    // The inspector starts the server with a clean environment, but for what `-e` passes.
    let mut stdio: Vec<String> = Vec::new();
    for (key, value) in tackle_env(&config) {
        stdio.extend(["-e".to_owned(), format!("{key}={}", value.expose())]);
    }
    stdio.extend([binary.clone(), "mcp".into(), "serve".into(), "--stdio".into()]);
    let listed = inspect(stdio.clone(), vec!["tools/list"]).output().unwrap();
    let listed = String::from_utf8_lossy(&listed.stdout).into_owned();
    assert!(listed.contains("\"read_file\"") && listed.contains("\"read_web_page\""), "{listed}");
    // A question for the user cannot be answered over MCP: it is not listed.
    assert!(!listed.contains("ask_user_question"), "{listed}");
    let called =
        inspect(stdio, vec!["tools/call", "--tool-name", "read_file", "--tool-arg", "path=notes.txt"])
            .output()
            .unwrap();
    let called = String::from_utf8_lossy(&called.stdout).into_owned();
    assert!(called.contains("served over MCP"), "{called}");

    let (mut child, port) = serve_http(&config).await;
    let http = vec![format!("http://127.0.0.1:{port}/mcp"), "--transport".into(), "http".into()];
    let listed = inspect(http, vec!["tools/list"]).output().unwrap();
    let listed = String::from_utf8_lossy(&listed.stdout).into_owned();
    assert!(listed.contains("\"read_file\""), "{listed}");
    child.kill().await.unwrap();
}

/// The official conformance suite against `tackle mcp serve --http`, in both eras. The
/// scenarios that apply to a server of tools only must pass, but for the checks listed
/// here, which need what tackle does not serve (prompts, resources, logging, the suite's
/// fixture tools).
#[tokio::test(flavor = "multi_thread")]
async fn the_conformance_suite_passes_against_tackle_mcp_serve() {
    let Some(node) = peer("node_modules/.bin/node") else { return };
    let Some(suite) = peer("node_modules/@modelcontextprotocol/conformance/dist/index.js") else { return };
    let expected_failures = [
        "sep-2575-server-rejects-undeclared-capability",
        "sep-2575-missing-capability-http-400",
        "sep-2575-http-server-no-independent-requests-on-stream",
        "sep-2575-server-no-log-without-loglevel",
        "sep-2549-prompts-list-caching-hints",
        "sep-2549-resources-list-caching-hints",
        "sep-2549-resources-templates-list-caching-hints",
    ];
    let dir = tempfile::tempdir().unwrap();
    let provider = MockServer::start().await;
    let config = project_settings(dir.path(), &provider);
    let (mut child, port) = serve_http(&config).await;
    let (mut passed, mut total) = (0, 0);
    for (version, scenarios) in [
        (
            "2026-07-28",
            &[
                "server-stateless",
                "tools-list",
                "dns-rebinding-protection",
                "caching",
                "http-header-validation",
            ][..],
        ),
        ("2025-11-25", &["server-initialize", "ping", "tools-list", "dns-rebinding-protection"][..]),
    ] {
        for scenario in scenarios {
            let out = std::process::Command::new(&node)
                .arg(&suite)
                .args(["server", "--url", &format!("http://127.0.0.1:{port}/mcp"), "--scenario", scenario])
                .args(["--spec-version", version])
                .env("NO_COLOR", "1")
                .output()
                .unwrap();
            let text =
                String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
            let failures: Vec<&str> = text
                .lines()
                .filter(|l| l.contains("FAILURE"))
                .filter(|l| !expected_failures.iter().any(|id| l.contains(id)))
                .collect();
            assert!(failures.is_empty(), "{version} {scenario}: {failures:#?}");
            let score = text
                .lines()
                .find_map(|l| l.trim().strip_prefix("Passed: "))
                .unwrap_or_else(|| panic!("{text}"));
            let (p, t) = score.split_once(',').unwrap().0.split_once('/').unwrap();
            passed += p.trim().parse::<u32>().unwrap();
            total += t.trim().parse::<u32>().unwrap();
            eprintln!("conformance {version} {scenario}: {score}");
        }
    }
    eprintln!("conformance: {passed}/{total} checks passed");
    assert!(total >= 60, "{passed}/{total}");
    child.kill().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn a_servers_question_waits_for_the_user_and_an_answer_from_another_process_goes_on() {
    let Some(everything) = peer("node_modules/.bin/mcp-server-everything") else { return };
    let dir = tempfile::tempdir().unwrap();
    let wire = Wire::Chat;
    let server = MockServer::start().await;
    wire.mount(
        &server,
        vec![
            wire.turn("", &[("c1", "ev_trigger-elicitation-request", json!({}))]),
            wire.turn("Signed up as Ada.", &[]),
        ],
    )
    .await;
    let extra = format!(
        "[mcp.servers.ev]\ncommand = \"{}\"\nargs = [\"stdio\"]\ninclude = [\"trigger-elicitation-request\"]\n\n\
         [tools.\"ev_trigger-elicitation-request\"]\napproval = false\n",
        everything.display()
    );
    let config = settings(dir.path(), wire, &server, &extra);
    let mut command = tackle(&config);
    command.args(["run", "Sign me up."]);
    let (code, stdout, stderr) = output(command).await;
    assert_eq!((code, stdout.as_str()), (3, ""), "{stderr}");
    assert!(stderr.contains("\"ev\" asks: Please provide inputs for the following fields:"), "{stderr}");
    assert!(stderr.contains("String (name, string, required): Your full, legal name"), "{stderr}");
    assert!(stderr.contains("3) Wonder Woman"), "{stderr}");
    let line = stderr.lines().find(|l| l.contains("waits for answers to 1 question(s)")).unwrap();
    let id = line.split_whitespace().nth(1).unwrap().to_owned();

    // Without an answer, or with one that does not fit, nothing changes.
    for (args, why) in [
        (vec!["approve", &id], "waits for an answer"),
        (vec!["approve", &id, "--answer", "{\"check\": true}"], "name"),
    ] {
        let mut command = tackle(&config);
        command.args(args);
        let (code, _, stderr) = output(command).await;
        assert_eq!(code, 2, "{stderr}");
        assert!(stderr.contains(why), "{stderr}");
    }
    let mut command = tackle(&config);
    command.args(["approve", &id, "--answer", "{\"name\": \"Ada Lovelace\", \"integer\": 7}"]);
    let (code, stdout, stderr) = output(command).await;
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout, "Signed up as Ada.\n");
    let sent = requests(&server, wire).await;
    assert_eq!(sent.len(), 2);
    let second = sent[1].to_string();
    assert!(second.contains("- Name: Ada Lovelace") && second.contains("Favorite Integer: 7"), "{second}");
    // The fields the answer left out got the form's defaults.
    assert!(second.contains("Favorite Number: 3.14") && second.contains("legacyTitledEnum"), "{second}");
}

#[tokio::test(flavor = "multi_thread")]
async fn with_many_tools_the_model_searches_by_meaning_and_calls_what_it_found() {
    let dir = tempfile::tempdir().unwrap();
    let (Some(everything), Some(filesystem), Some(time)) = (
        peer("node_modules/.bin/mcp-server-everything"),
        peer("node_modules/.bin/mcp-server-filesystem"),
        peer("venv/bin/mcp-server-time"),
    ) else {
        return;
    };
    if !super::embedder_present() {
        return;
    }
    // Two everything servers, the filesystem and the time server: more tools than a
    // prompt is offered whole.
    let extra = format!(
        "[mcp.servers.ev]\ncommand = \"{ev}\"\nargs = [\"stdio\"]\n\n\
         [mcp.servers.ev2]\ncommand = \"{ev}\"\nargs = [\"stdio\"]\n\n\
         [mcp.servers.fs]\ncommand = \"{}\"\nargs = [\"{}\"]\n\n\
         [mcp.servers.time]\ncommand = \"{}\"\nargs = [\"--local-timezone\", \"UTC\"]\ntrusted = true\n",
        filesystem.display(),
        dir.path().display(),
        time.display(),
        ev = everything.display(),
    );
    let wire = Wire::Chat;
    let server = MockServer::start().await;
    wire.mount(
        &server,
        vec![
            // No word of this query is in the time tools' definitions: only their meaning
            // matches.
            wire.turn("", &[("s1", "search_tools", json!({"query": "what o'clock is it over in Japan"}))]),
            wire.turn("", &[("c1", "time_get_current_time", json!({"timezone": "Asia/Tokyo"}))]),
            wire.turn("It is evening in Tokyo.", &[]),
        ],
    )
    .await;
    let config = settings(dir.path(), wire, &server, &extra);
    let mut command = tackle(&config);
    command.args(["run", "What time is it in Tokyo?"]);
    let (code, stdout, stderr) = output(command).await;
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout, "It is evening in Tokyo.\n");
    let sent = requests(&server, wire).await;
    let offered = |i: usize| -> Vec<String> {
        sent[i]["tools"]
            .as_array()
            .map(|tools| {
                tools.iter().filter_map(|t| t["function"]["name"].as_str().map(String::from)).collect()
            })
            .unwrap_or_default()
    };
    assert_eq!(offered(0), ["search_tools", "call_tool"]);
    assert!(sent[1].to_string().contains("time_get_current_time"), "{}", sent[1]);
    assert!(offered(1).contains(&"time_get_current_time".to_owned()), "{:?}", offered(1));
    assert!(sent[2].to_string().contains("Asia/Tokyo"), "{}", sent[2]);
}

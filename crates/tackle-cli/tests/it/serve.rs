//! `tackle serve`: a token made by the CLI, a run posted over HTTP, its events followed to
//! the answer from the scripted provider.

use std::io::{BufRead, BufReader};
use std::process::Stdio;

use serde_json::{Value, json};
use wiremock::MockServer;

use super::{Wire, output, settings, tackle, tackle_process};

#[tokio::test(flavor = "multi_thread")]
async fn serve_runs_a_posted_prompt_for_a_token_holder() {
    let provider = MockServer::start().await;
    let wire = Wire::Chat;
    wire.mount(&provider, vec![wire.turn("Served.", &[])]).await;
    let dir = tempfile::tempdir().unwrap();
    let config = settings(dir.path(), wire, &provider, "");

    let mut create = tackle(&config);
    create.args(["serve", "token", "create", "--org", "acme", "--user", "alice"]);
    let (code, token, stderr) = output(create).await;
    assert_eq!(code, 0, "{stderr}");
    let token = token.trim().to_owned();
    assert!(token.starts_with("tk_"), "{token}");
    assert!(stderr.contains("shown this once"));

    // Nothing configured: the store is SQLite in the data dir.
    let (mut server, url) = serve_process(&config, &["--workers", "2"]).await;

    let http = reqwest::Client::new();
    let id = post_run(&http, &url, &token, "Say something.").await;
    let (events, run) = follow_to_end(&http, &url, &token, &id).await;
    assert!(events.contains("\"event\":\"finished\""), "{events}");
    assert_eq!(run["status"], "answered", "{run}");
    assert_eq!(run["answer"], "Served.");
    let refused = http.get(format!("{url}/v1/runs/{id}")).send().await.unwrap();
    assert_eq!(refused.status().as_u16(), 401);

    // Ctrl-C stops it cleanly.
    let _ = std::process::Command::new("kill").args(["-INT", &server.id().to_string()]).status();
    let status = tokio::task::spawn_blocking(move || server.wait().unwrap()).await.unwrap();
    assert!(status.success(), "{status:?}");
}

/// The database for a test: a fresh PostgreSQL database when `TACKLE_TEST_POSTGRES` names a
/// server (required in CI), else a SQLite file in `dir`.
fn database(dir: &std::path::Path) -> String {
    match std::env::var("TACKLE_TEST_POSTGRES") {
        Ok(admin) if !admin.is_empty() => {
            let name = format!(
                "tackle_cli_{}_{}",
                std::process::id(),
                dir.file_name().unwrap().to_string_lossy().replace(|c: char| !c.is_ascii_alphanumeric(), "")
            );
            let name = name.to_ascii_lowercase();
            let created = name.clone();
            let admin_url = admin.clone();
            std::thread::spawn(move || {
                let mut client = postgres::Client::connect(&admin_url, postgres::NoTls).unwrap();
                client.batch_execute(&format!("CREATE DATABASE {created}")).unwrap();
            })
            .join()
            .unwrap();
            format!("{}/{name}", admin.rsplit_once('/').unwrap().0)
        }
        _ => {
            assert!(
                std::env::var_os("TACKLE_REQUIRE_POSTGRES").is_none(),
                "TACKLE_REQUIRE_POSTGRES is set but TACKLE_TEST_POSTGRES is not"
            );
            dir.join("server.db").display().to_string()
        }
    }
}

/// Posts `prompt` as a run; its id.
async fn post_run(http: &reqwest::Client, url: &str, token: &str, prompt: &str) -> String {
    let created: Value = http
        .post(format!("{url}/v1/runs"))
        .bearer_auth(token)
        .json(&json!({ "prompt": prompt }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    created["id"].as_str().expect("a run id").to_owned()
}

/// Follows a run's events to the end (at most 60 s); the events as sent, then the run.
async fn follow_to_end(http: &reqwest::Client, url: &str, token: &str, id: &str) -> (String, Value) {
    let events = http.get(format!("{url}/v1/runs/{id}/events")).bearer_auth(token).send().await.unwrap();
    let events =
        tokio::time::timeout(std::time::Duration::from_secs(60), events.text()).await.unwrap().unwrap();
    let run = http
        .get(format!("{url}/v1/runs/{id}"))
        .bearer_auth(token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    (events, run)
}

/// Starts `tackle serve` on a loopback port with `extra` arguments; returns the process and
/// its URL.
async fn serve_process(config: &std::path::Path, extra: &[&str]) -> (std::process::Child, String) {
    serve_with(tackle_process(config), extra).await
}

/// Starts `process` as `tackle serve` on a loopback port with `extra` arguments.
pub(super) async fn serve_with(
    mut process: std::process::Command,
    extra: &[&str],
) -> (std::process::Child, String) {
    let mut server = process
        .args(["serve", "--listen", "127.0.0.1:0"])
        .args(extra)
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let stderr = server.stderr.take().unwrap();
    let first = tokio::task::spawn_blocking(move || {
        let mut reader = BufReader::new(stderr);
        // The line with the address comes after the lines about the models.
        let mut line = String::new();
        while !line.contains("http://") {
            line.clear();
            if reader.read_line(&mut line).unwrap() == 0 {
                break;
            }
        }
        // Keep draining so the server never blocks on a full pipe.
        std::thread::spawn(move || std::io::copy(&mut reader, &mut std::io::sink()));
        line
    })
    .await
    .unwrap();
    let url = first.split_whitespace().find(|w| w.starts_with("http://")).expect(&first).to_owned();
    (server, url)
}

/// Two `tackle serve` processes on one database; the one running a run is killed with
/// SIGKILL in the middle of a tool call. The other takes the run over once the lease runs
/// out: the call is not run again (web_search is not idempotent; the model hears that its
/// outcome is unknown), the run answers, and a client sees every event once.
#[tokio::test(flavor = "multi_thread")]
async fn a_server_killed_mid_call_loses_nothing_and_repeats_nothing() {
    let provider = MockServer::start().await;
    let wire = Wire::Chat;
    let search = [("call_s", "web_search", json!({"query": "rivers"}))];
    wire.mount(&provider, vec![wire.turn("Looking.", &search), wire.turn("Found it.", &[])]).await;
    // The search answers slowly: the first server dies while it waits.
    wiremock::Mock::given(wiremock::matchers::path("/search"))
        .respond_with(
            wiremock::ResponseTemplate::new(200)
                .set_delay(std::time::Duration::from_secs(30))
                .set_body_json(json!({"results": []})),
        )
        .mount(&provider)
        .await;
    let dir = tempfile::tempdir().unwrap();
    let extra = format!("[tools.web_search]\nsearxng_url = \"{}\"", provider.uri());
    let config = settings(dir.path(), wire, &provider, &extra);
    let database = database(dir.path());

    let mut create = tackle(&config);
    create.args(["serve", "token", "create", "--org", "acme", "--user", "alice", "--database", &database]);
    let (code, token, stderr) = output(create).await;
    assert_eq!(code, 0, "{stderr}");
    let token = token.trim().to_owned();

    let (mut first, first_url) =
        serve_process(&config, &["--workers", "1", "--lease", "2", "--database", &database]).await;
    let http = reqwest::Client::new();
    let id = post_run(&http, &first_url, &token, "Tell me about rivers.").await;
    let searches = || async {
        provider.received_requests().await.unwrap().iter().filter(|r| r.url.path() == "/search").count()
    };
    for _ in 0..200 {
        if searches().await == 1 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(searches().await, 1, "the first server is in the middle of the call");

    let (mut second, second_url) =
        serve_process(&config, &["--workers", "1", "--lease", "2", "--database", &database]).await;
    first.kill().unwrap();
    let _ = first.wait();

    let (events, run) = follow_to_end(&http, &second_url, &token, &id).await;
    let ids: Vec<i64> =
        events.lines().filter_map(|l| l.strip_prefix("id: ")).map(|n| n.parse().unwrap()).collect();
    assert_eq!(ids, (1..=ids.len() as i64).collect::<Vec<_>>(), "every event once, in order: {events}");
    assert!(events.contains("\"event\":\"finished\""), "{events}");
    assert_eq!(run["status"], "answered", "{run}");
    assert_eq!(run["answer"], "Found it.");
    assert_eq!(searches().await, 1, "the call was not run a second time");
    let asked: Vec<Value> = provider
        .received_requests()
        .await
        .unwrap()
        .iter()
        .filter(|r| r.url.path() == "/v1/chat/completions")
        .map(|r| serde_json::from_slice(&r.body).unwrap())
        .collect();
    assert_eq!(asked.len(), 2);
    assert!(asked[1].to_string().contains("outcome is unknown"), "{}", asked[1]);

    let _ = std::process::Command::new("kill").args(["-INT", &second.id().to_string()]).status();
    let status = tokio::task::spawn_blocking(move || second.wait().unwrap()).await.unwrap();
    assert!(status.success(), "{status:?}");
}

/// The operator's commands: a key, an organisation's policy, a plan, a user on it, a sealed
/// secret and credits; a server started with the key and a price table runs a user's
/// prompt within all of it and reports what it cost.
#[tokio::test(flavor = "multi_thread")]
async fn the_operator_sets_policy_plans_secrets_and_credits() {
    let provider = MockServer::start().await;
    let wire = Wire::Anthropic;
    wire.mount(&provider, vec![wire.turn("Priced.", &[])]).await;
    let dir = tempfile::tempdir().unwrap();
    // 20 input tokens at 1,000 credits per million, 5 output at 2,000: 0.03 credits.
    let config = settings(
        dir.path(),
        wire,
        &provider,
        "[prices.anthropic]\ninput = 1000.0\noutput = 2000.0\nround_minimum = 0.01\n",
    );
    let database = database(dir.path());
    let run = |args: &[&str]| {
        let mut command = tackle(&config);
        command.args(args).args(["--database", &database]);
        command
    };

    let (code, key, stderr) = output(run(&["serve", "key", "create"])).await;
    assert_eq!(code, 0, "{stderr}");
    let key = key.trim().to_owned();
    assert_eq!(key.len(), 64, "{key}");

    let policy = dir.path().join("acme.toml");
    std::fs::write(
        &policy,
        "models = [\"anthropic\"]\ndisabled_tools = [\"shell\"]\n[locked]\n\"web_search.region\" = \"de\"\n",
    )
    .unwrap();
    let (code, _, stderr) =
        output(run(&["serve", "org", "set", "--org", "acme", "--file", policy.to_str().unwrap()])).await;
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("acme: 1 locked, 0 defaults, models anthropic, 1 tools off"), "{stderr}");
    std::fs::write(&policy, "[locked]\nregion = \"de\"\n").unwrap();
    let (code, _, stderr) =
        output(run(&["serve", "org", "set", "--org", "acme", "--file", policy.to_str().unwrap()])).await;
    assert_eq!(code, 2, "a key that is not <tool>.<field>: {stderr}");

    let (code, _, stderr) =
        output(run(&["serve", "plan", "set", "basic", "--capability", "web_search", "--allowance", "10"]))
            .await;
    assert_eq!(code, 0, "{stderr}");
    let (code, _, stderr) =
        output(run(&["serve", "user", "plan", "--org", "acme", "--user", "alice", "--plan", "basic"])).await;
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("balance 10 credits"), "{stderr}");
    let (code, _, stderr) =
        output(run(&["serve", "credits", "grant", "--org", "acme", "--user", "alice", "5"])).await;
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("balance 15 credits"), "{stderr}");

    // A secret needs the key; with it, it is kept sealed.
    let mut secret = run(&["serve", "secret", "set", "--org", "acme", "web_search.api_key"]);
    secret.write_stdin("brave-123456\n");
    let (code, _, stderr) = output(secret).await;
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("TACKLE_SERVER_KEY"), "{stderr}");
    let mut secret = run(&["serve", "secret", "set", "--org", "acme", "web_search.api_key"]);
    secret.env("TACKLE_SERVER_KEY", &key).write_stdin("brave-123456\n");
    let (code, _, stderr) = output(secret).await;
    assert_eq!(code, 0, "{stderr}");
    assert!(!stderr.contains("brave-123456"));

    let (code, token, stderr) =
        output(run(&["serve", "token", "create", "--org", "acme", "--user", "alice"])).await;
    assert_eq!(code, 0, "{stderr}");
    let token = token.trim().to_owned();

    let mut process = tackle_process(&config);
    process.env("TACKLE_SERVER_KEY", &key);
    let (mut server, url) = serve_with(process, &["--database", &database]).await;
    let http = reqwest::Client::new();
    let me: Value =
        http.get(format!("{url}/v1/me")).bearer_auth(&token).send().await.unwrap().json().await.unwrap();
    assert_eq!(me["plan"]["name"], "basic", "{me}");
    assert_eq!(me["balance"], 15.0, "{me}");
    assert_eq!(me["models"], json!(["anthropic"]), "{me}");
    let tools: Value =
        http.get(format!("{url}/v1/tools")).bearer_auth(&token).send().await.unwrap().json().await.unwrap();
    let shell = tools["tools"].as_array().unwrap().iter().find(|t| t["name"] == "shell").cloned();
    if let Some(shell) = shell {
        assert_eq!(shell["offered"], false, "switched off by the organisation: {shell}");
    }

    let id = post_run(&http, &url, &token, "Say something.").await;
    let (_, run) = follow_to_end(&http, &url, &token, &id).await;
    assert_eq!(run["status"], "answered", "{run}");
    let usage: Value =
        http.get(format!("{url}/v1/usage")).bearer_auth(&token).send().await.unwrap().json().await.unwrap();
    assert_eq!(usage["runs"][0]["model"], 0.03, "{usage}");
    assert_eq!(usage["balance"], 14.97, "{usage}");

    let _ = std::process::Command::new("kill").args(["-INT", &server.id().to_string()]).status();
    let status = tokio::task::spawn_blocking(move || server.wait().unwrap()).await.unwrap();
    assert!(status.success(), "{status:?}");
}

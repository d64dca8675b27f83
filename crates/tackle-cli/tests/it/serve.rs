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

    let mut server = tackle_process(&config)
        .args(["serve", "--listen", "127.0.0.1:0", "--workers", "2"])
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let stderr = server.stderr.take().unwrap();
    let first = tokio::task::spawn_blocking(move || {
        let mut line = String::new();
        BufReader::new(stderr).read_line(&mut line).unwrap();
        line
    })
    .await
    .unwrap();
    let url = first.split_whitespace().find(|w| w.starts_with("http://")).expect(&first).to_owned();

    let http = reqwest::Client::new();
    let created: Value = http
        .post(format!("{url}/v1/runs"))
        .bearer_auth(&token)
        .json(&json!({"prompt": "Say something."}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let id = created["id"].as_str().expect("a run id").to_owned();
    let events = http.get(format!("{url}/v1/runs/{id}/events")).bearer_auth(&token).send().await.unwrap();
    let events =
        tokio::time::timeout(std::time::Duration::from_secs(30), events.text()).await.unwrap().unwrap();
    assert!(events.contains("\"event\":\"finished\""), "{events}");
    let run: Value = http
        .get(format!("{url}/v1/runs/{id}"))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(run["status"], "answered", "{run}");
    assert_eq!(run["answer"], "Served.");
    let refused = http.get(format!("{url}/v1/runs/{id}")).send().await.unwrap();
    assert_eq!(refused.status().as_u16(), 401);

    // Ctrl-C stops it cleanly.
    let _ = std::process::Command::new("kill").args(["-INT", &server.id().to_string()]).status();
    let status = tokio::task::spawn_blocking(move || server.wait().unwrap()).await.unwrap();
    assert!(status.success(), "{status:?}");
}

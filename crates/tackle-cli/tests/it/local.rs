//! The embedded model through the command line: the real model, greedy decoding.

use serde_json::json;
use wiremock::MockServer;

use super::{output, searxng, tackle};

#[tokio::test(flavor = "multi_thread")]
async fn with_nothing_configured_the_embedded_model_answers() {
    if !super::local_model_present() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config.toml");
    std::fs::write(&config, "").unwrap();
    let mut command = tackle(&config);
    command.args(["run", "--verbose", "Hello, who are you?"]);
    let (code, stdout, stderr) = output(command).await;
    assert_eq!(code, 0, "{stderr}");
    assert!(!stdout.trim().is_empty(), "an answer: {stderr}");
    assert!(stderr.contains("reused") && stderr.contains("tok/s"), "--verbose reports speed: {stderr}");

    let mut command = tackle(&config);
    command.args(["sessions", "list", "--json"]);
    let (_, stdout, _) = output(command).await;
    assert!(stdout.contains("\"provider\":\"local\""), "{stdout}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_forced_tool_call_runs_and_the_result_is_answered() {
    if !super::local_model_present() {
        return;
    }
    let server = MockServer::start().await;
    searxng(
        &server,
        json!([{"url": "http://127.0.0.1:9/a", "title": "Paris weather", "content": "Sunny, 21 degrees."}]),
    )
    .await;
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config.toml");
    std::fs::write(&config, format!("[tools.web_search]\nsearxng_url = \"{}\"\n", server.uri())).unwrap();
    let mut command = tackle(&config);
    command.args(["run", "--tool", "web_search", "What is the weather in Paris today?"]);
    let (code, stdout, stderr) = output(command).await;
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("✓ web_search(query: "), "the call ran: {stderr}");
    assert!(!stdout.trim().is_empty(), "a final answer: {stderr}");
    assert!(!stdout.trim_start().starts_with('{'), "the answer is text, not another call: {stdout}");
    let searches = server.received_requests().await.unwrap();
    assert!(searches.iter().any(|r| r.url.path() == "/search"), "the search reached SearXNG");

    let mut command = tackle(&config);
    command.args(["model", "list"]);
    let (code, stdout, _) = output(command).await;
    assert_eq!(code, 0);
    assert!(stdout.starts_with("smollm2-135m  (default)  installed"), "{stdout}");
}

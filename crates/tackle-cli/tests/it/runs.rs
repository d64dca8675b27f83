//! `tackle run` against each wire API.

use serde_json::json;
use wiremock::MockServer;

use super::{Wire, output, requests, searxng, settings, tackle};

fn hits() -> serde_json::Value {
    // Result pages on loopback: a model-chosen target, so they come back as snippets.
    json!([{"url": "http://127.0.0.1:9/rivers", "title": "Rivers", "content": "How rivers shape valleys."}])
}

#[tokio::test(flavor = "multi_thread")]
async fn a_run_with_two_tool_calls_on_every_wire_api() {
    for wire in Wire::ALL {
        let server = MockServer::start().await;
        searxng(&server, hits()).await;
        let calls = [
            ("call_a", "web_search", json!({"query": "rivers"})),
            ("call_b", "web_search", json!({"query": "valleys"})),
        ];
        wire.mount(&server, vec![wire.turn("Let me look.", &calls), wire.turn("Rivers carve valleys.", &[])])
            .await;
        let dir = tempfile::tempdir().unwrap();
        let extra = format!("[tools.web_search]\nsearxng_url = \"{}\"", server.uri());
        let mut command = tackle(&settings(dir.path(), wire, &server, &extra));
        command.args(["run", "How do rivers shape valleys?"]);
        let (code, stdout, stderr) = output(command).await;
        assert_eq!(code, 0, "{wire:?}: {stderr}");
        assert_eq!(stdout, "Let me look.\nRivers carve valleys.\n", "{wire:?}");
        for query in ["rivers", "valleys"] {
            assert!(
                stderr.contains(&format!("tool web_search(query: \"{query}\") started")),
                "{wire:?}: {stderr}"
            );
            assert!(
                stderr.contains(&format!("✓ web_search(query: \"{query}\") ok in ")),
                "{wire:?}: {stderr}"
            );
        }
        let sent = requests(&server, wire).await;
        assert_eq!(sent.len(), 2, "{wire:?}");
        let second = sent[1].to_string();
        for needle in ["call_a", "call_b", "How rivers shape valleys."] {
            assert!(second.contains(needle), "{wire:?}: {needle} not sent back: {second}");
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_run_that_hits_the_tool_call_limit() {
    let wire = Wire::Chat;
    let server = MockServer::start().await;
    searxng(&server, hits()).await;
    let calls = [
        ("call_a", "web_search", json!({"query": "one"})),
        ("call_b", "web_search", json!({"query": "two"})),
    ];
    wire.mount(&server, vec![wire.turn("", &calls), wire.turn("With what I have: valleys.", &[])]).await;
    let dir = tempfile::tempdir().unwrap();
    let extra =
        format!("[limits]\nmax_tool_calls = 1\n\n[tools.web_search]\nsearxng_url = \"{}\"", server.uri());
    let mut command = tackle(&settings(dir.path(), wire, &server, &extra));
    command.args(["run", "--json", "Search twice."]);
    let (code, stdout, stderr) = output(command).await;
    assert_eq!(code, 0, "{stderr}");
    let events: Vec<serde_json::Value> = stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let started = events.iter().filter(|e| e["event"] == "tool_call_started").count();
    assert_eq!(started, 1, "only one call runs: {stdout}");
    assert_eq!(events.last().unwrap()["event"], "finished");
    let sent = requests(&server, wire).await;
    let last = &sent[1];
    assert!(last.get("tools").is_none(), "the final round offers no tools: {last}");
    let text = last.to_string();
    assert!(text.contains("This call was not run because a limit was reached"), "{text}");
    assert!(text.contains("The maximum of 1 tool calls has been reached"), "{text}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_blocked_tool_call_is_shown_and_sent_back() {
    let wire = Wire::Anthropic;
    let server = MockServer::start().await;
    let target = format!("{}/admin", server.uri());
    wire.mount(
        &server,
        vec![
            wire.turn("", &[("toolu_1", "read_web_page", json!({"url": target}))]),
            wire.turn("I may not read that page.", &[]),
        ],
    )
    .await;
    let dir = tempfile::tempdir().unwrap();
    let mut command = tackle(&settings(dir.path(), wire, &server, ""));
    command.args(["run", "Read my admin page."]);
    let (code, stdout, stderr) = output(command).await;
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout, "I may not read that page.\n");
    insta::with_settings!({filters => vec![(r" in \d+ ms", " in [DURATION]"), (r"127\.0\.0\.1:\d+", "127.0.0.1:[PORT]")]}, {
        insta::assert_snapshot!(stderr, @r#"
        tool read_web_page(url: "http://127.0.0.1:[PORT]/admin") started
        ✗ read_web_page(url: "http://127.0.0.1:[PORT]/admin") blocked in [DURATION]: 127.0.0.1 is loopback (127.0.0.0/8)
        "#);
    });
    let second = requests(&server, wire).await[1].to_string();
    assert!(second.contains("\"is_error\":true") && second.contains("loopback"), "{second}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_provider_error_fails_the_run() {
    let wire = Wire::Chat;
    let server = MockServer::start().await;
    wire.mount(
        &server,
        vec![wiremock::ResponseTemplate::new(401).set_body_json(json!({"error": {"message": "bad key"}}))],
    )
    .await;
    let dir = tempfile::tempdir().unwrap();
    let mut command = tackle(&settings(dir.path(), wire, &server, ""));
    command.args(["run", "Hello"]);
    let (code, _stdout, stderr) = output(command).await;
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.starts_with("error: the model request failed"), "{stderr}");
    assert!(!stderr.contains("sk-test-key"), "{stderr}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_failed_tool_call_says_why_everywhere_but_to_the_model() {
    let wire = Wire::Responses;
    let server = MockServer::start().await;
    // The search service breaks: the user must learn why, the model only what the table allows.
    wiremock::Mock::given(wiremock::matchers::path("/search"))
        .respond_with(wiremock::ResponseTemplate::new(502).set_body_string("upstream down"))
        .mount(&server)
        .await;
    let turns = || {
        vec![
            wire.turn("", &[("call_1", "web_search", json!({"query": "rivers"}))]),
            wire.turn("The search failed.", &[]),
        ]
    };
    wire.mount(&server, [turns(), turns()].concat()).await;
    let dir = tempfile::tempdir().unwrap();
    let extra = format!("[tools.web_search]\nsearxng_url = \"{}\"\n", server.uri());
    let config = settings(dir.path(), wire, &server, &extra);

    let mut command = tackle(&config);
    command.args(["run", "Search rivers."]);
    let (code, stdout, stderr) = output(command).await;
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout, "The search failed.\n");
    let why = "the search service failed: the server answered HTTP 502 for http://127.0.0.1";
    let line = stderr.lines().find(|l| l.starts_with("✗ web_search")).unwrap_or_else(|| panic!("{stderr}"));
    assert!(line.contains(" failed in ") && line.contains(why), "{line}");

    // The model was told less.
    let sent = requests(&server, wire).await[1].to_string();
    assert!(sent.contains("the search service failed"), "{sent}");

    // `--json` carries the detail.
    let mut command = tackle(&config);
    command.args(["run", "--json", "Search rivers."]);
    let (code, stdout, stderr) = output(command).await;
    assert_eq!(code, 0, "{stderr}");
    let finished: serde_json::Value = stdout
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .find(|e| e["event"] == "tool_call_finished")
        .unwrap();
    assert_eq!(finished["status"], "failed");
    assert!(finished["detail"].as_str().unwrap().contains(why), "{finished}");

    // So does the saved session, and -v logs it.
    let mut command = tackle(&config);
    command.args(["sessions", "list", "--json"]);
    let (_, stdout, _) = output(command).await;
    let id = serde_json::from_str::<serde_json::Value>(stdout.lines().next().unwrap()).unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let mut command = tackle(&config);
    command.args(["sessions", "show", &id]);
    let (code, stdout, _) = output(command).await;
    assert_eq!(code, 0);
    assert!(stdout.contains(why), "{stdout}");

    let mut command = tackle(&config);
    command.args(["sessions", "show", &id, "-v"]);
    let (code, _, stderr) = output(command).await;
    assert_eq!(code, 0, "{stderr}");
}

#[tokio::test(flavor = "multi_thread")]
async fn verbose_runs_log_tool_failures_through_tracing() {
    let wire = Wire::Chat;
    let server = MockServer::start().await;
    wiremock::Mock::given(wiremock::matchers::path("/search"))
        .respond_with(wiremock::ResponseTemplate::new(503))
        .mount(&server)
        .await;
    wire.mount(
        &server,
        vec![wire.turn("", &[("call_1", "web_search", json!({"query": "x"}))]), wire.turn("Done.", &[])],
    )
    .await;
    let dir = tempfile::tempdir().unwrap();
    let extra = format!("[tools.web_search]\nsearxng_url = \"{}\"\n", server.uri());
    let mut command = tackle(&settings(dir.path(), wire, &server, &extra));
    command.env_remove("RUST_LOG").args(["-v", "run", "Search."]);
    let (code, _, stderr) = output(command).await;
    assert_eq!(code, 0, "{stderr}");
    let logged = stderr
        .lines()
        .find(|l| l.contains("tool call did not succeed"))
        .unwrap_or_else(|| panic!("{stderr}"));
    assert!(
        logged.contains("INFO") && logged.contains("web_search") && logged.contains("HTTP 503"),
        "{logged}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn declared_capabilities_shape_what_the_provider_is_sent() {
    let wire = Wire::Chat;
    let server = MockServer::start().await;
    wire.mount(&server, vec![wire.turn("No tools here.", &[]), wire.turn("One at a time.", &[])]).await;
    let dir = tempfile::tempdir().unwrap();
    let no_tools = "[providers.openai.capabilities]\ntools = false\n";
    let config = settings(dir.path(), wire, &server, no_tools);
    let mut command = tackle(&config);
    command.args(["tools", "list", "--json"]);
    let (code, stdout, _) = output(command).await;
    assert_eq!(code, 0);
    assert!(stdout.lines().all(|l| l.contains("\"offered\":false")), "{stdout}");
    let mut command = tackle(&config);
    command.args(["run", "Hi"]);
    let (code, _, stderr) = output(command).await;
    assert_eq!(code, 0, "{stderr}");
    assert!(requests(&server, wire).await[0].get("tools").is_none());

    let strict_off = "[providers.openai.capabilities]\nstrict_schemas = false\nparallel_tool_calls_flag = false\nstream_usage = false\n";
    let config = settings(dir.path(), wire, &server, strict_off);
    let mut command = tackle(&config);
    command.args(["run", "Hi"]);
    let (code, _, stderr) = output(command).await;
    assert_eq!(code, 0, "{stderr}");
    let sent = &requests(&server, wire).await[1];
    assert!(sent.get("tools").is_some() && sent.get("stream_options").is_none(), "{sent}");
    assert!(sent["tools"][0]["function"].get("strict").is_none(), "{sent}");
}

#[tokio::test(flavor = "multi_thread")]
async fn tool_costs_are_charged_shown_and_limited() {
    let wire = Wire::Anthropic;
    let server = MockServer::start().await;
    super::searxng(&server, json!([])).await;
    wire.mount(
        &server,
        vec![
            wire.turn("", &[("toolu_1", "web_search", json!({"query": "one"}))]),
            wire.turn("Stopping here.", &[]),
        ],
    )
    .await;
    let dir = tempfile::tempdir().unwrap();
    let extra = format!(
        "[limits]\nmax_tool_cost = 0.5\n\n[tools.web_search]\nsearxng_url = \"{}\"\ncost = 0.5\n",
        server.uri()
    );
    let mut command = tackle(&settings(dir.path(), wire, &server, &extra));
    command.args(["run", "Search twice."]);
    let (code, stdout, stderr) = output(command).await;
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout, "Stopping here.\n");
    assert!(stderr.contains("tools cost 0.5 credits of 0.5 credits allowed"), "{stderr}");
    // The budget is spent after one call: the next round offers no tools and asks for
    // the final answer.
    let sent = requests(&server, wire).await;
    assert!(sent[0].get("tools").is_some());
    assert!(sent[1].get("tools").is_none(), "{}", sent[1]);
}

/// Bedrock with no key in the settings: AWS credentials from the profile named by
/// `AWS_PROFILE` in the shared files, the region from that profile, every request signed.
#[tokio::test(flavor = "multi_thread")]
async fn bedrock_signs_with_the_profile_of_the_shared_files() {
    let server = MockServer::start().await;
    Wire::Bedrock.mount(&server, vec![Wire::Bedrock.turn("Signed and answered.", &[])]).await;
    let dir = tempfile::tempdir().unwrap();
    let credentials = dir.path().join("credentials");
    std::fs::write(&credentials, "[default]\naws_access_key_id = AKIADEFAULT\naws_secret_access_key = nope\n\n[work]\naws_access_key_id = AKIAWORKPROFILE\naws_secret_access_key = secret-canary-Zq81\n").unwrap();
    let aws_config = dir.path().join("aws-config");
    std::fs::write(
        &aws_config,
        "[profile work]\nregion = eu-west-3\n\n[profile sso]\nsso_session = corp\nregion = us-east-1\n",
    )
    .unwrap();
    let config = dir.path().join("config.toml");
    std::fs::write(
        &config,
        format!(
            "provider = \"bedrock\"\nmodel = \"test-model\"\n[providers.bedrock]\nbase_url = \"{}/v1\"\n",
            server.uri()
        ),
    )
    .unwrap();
    let aws = |profile: &str| {
        let mut command = tackle(&config);
        command
            .env("AWS_SHARED_CREDENTIALS_FILE", &credentials)
            .env("AWS_CONFIG_FILE", &aws_config)
            .env("AWS_PROFILE", profile)
            .args(["run", "Hello"]);
        command
    };
    let (code, stdout, stderr) = output(aws("work")).await;
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout, "Signed and answered.\n");
    assert!(!stderr.contains("secret-canary-Zq81") && !stdout.contains("secret-canary-Zq81"));
    let sent = server.received_requests().await.unwrap();
    let authorization = sent[0].headers.get("authorization").unwrap().to_str().unwrap();
    assert!(
        authorization.starts_with("AWS4-HMAC-SHA256 Credential=AKIAWORKPROFILE/")
            && authorization.contains("/eu-west-3/bedrock/aws4_request"),
        "{authorization}"
    );

    // A profile that needs SSO is refused with the way out.
    let (code, _, stderr) = output(aws("sso")).await;
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("aws configure export-credentials --profile sso"), "{stderr}");
}

/// Vertex AI with a service account's key file: the token exchanged once on loopback, the
/// project from the file, the location from the settings.
#[tokio::test(flavor = "multi_thread")]
async fn vertex_runs_with_a_service_account_file() {
    use wiremock::matchers::{method, path};
    let server = MockServer::start().await;
    wiremock::Mock::given(method("POST"))
        .and(path("/token"))
        .respond_with(
            wiremock::ResponseTemplate::new(200)
                .set_body_json(json!({"access_token": "ya29.cli-token", "expires_in": 3600})),
        )
        .expect(1)
        .mount(&server)
        .await;
    Wire::Gemini.mount(&server, vec![Wire::Gemini.turn("From Vertex.", &[])]).await;
    let dir = tempfile::tempdir().unwrap();
    let key_file = dir.path().join("service-account.json");
    let key = json!({
        "type": "service_account", "project_id": "proj-from-file", "client_email": "cli@proj-from-file.iam.gserviceaccount.com",
        "private_key": include_str!("../../../tackle-providers/tests/it/fixtures/test-service-account-key.pem"),
        "token_uri": format!("{}/token", server.uri())
    });
    std::fs::write(&key_file, key.to_string()).unwrap();
    let config = dir.path().join("config.toml");
    std::fs::write(
        &config,
        format!("provider = \"vertex\"\nmodel = \"test-model\"\n[providers.vertex]\nbase_url = \"{}/v1\"\nlocation = \"us-central1\"\n", server.uri()),
    )
    .unwrap();
    let mut command = tackle(&config);
    command.env("GOOGLE_APPLICATION_CREDENTIALS", &key_file).args(["run", "Hello"]);
    let (code, stdout, stderr) = output(command).await;
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout, "From Vertex.\n");
    let sent = server.received_requests().await.unwrap();
    let call = sent
        .iter()
        .find(|r| r.url.path().contains("generateContent") || r.url.path().contains("GenerateContent"))
        .unwrap();
    assert_eq!(
        call.url.path(),
        "/v1/projects/proj-from-file/locations/us-central1/publishers/google/models/test-model:streamGenerateContent"
    );
    assert_eq!(call.headers.get("authorization").unwrap(), "Bearer ya29.cli-token");
    assert!(!stderr.contains("PRIVATE KEY"));
}

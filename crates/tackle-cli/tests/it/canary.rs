//! The canary: a unique provider key and a unique secret tool setting go through every
//! wire API, a tool call, a provider error that echoes the key, a search service that
//! echoes the token, `--json` events, traces, saved sessions and logs at the most verbose
//! level — and neither string may appear in any output, in any file tackle wrote, or in
//! any row of its database. (The secret store itself is where the token lives, so it is
//! the one file not searched.)

use std::path::Path;

use serde_json::json;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

use super::{Wire, output, tackle};

const KEY: &str = "sk-canary-KEY-7c1e0b9a";
const TOKEN: &str = "tok-canary-SETTING-4d92f1";

fn key_variable(wire: Wire) -> &'static str {
    match wire {
        Wire::Anthropic => "ANTHROPIC_API_KEY",
        Wire::Gemini => "GEMINI_API_KEY",
        Wire::Bedrock => "AWS_BEARER_TOKEN_BEDROCK",
        Wire::Chat | Wire::Responses => "OPENAI_API_KEY",
    }
}

/// The status a provider refuses a bad key with.
fn refusal(wire: Wire) -> u16 {
    match wire {
        Wire::Gemini => 400,
        Wire::Bedrock => 403,
        _ => 401,
    }
}

/// A provider error whose message repeats the key, as some providers' do.
fn echoing_error(wire: Wire) -> ResponseTemplate {
    let body = match wire {
        Wire::Anthropic => {
            json!({"type": "error", "error": {"type": "authentication_error", "message": format!("invalid x-api-key: {KEY}")}})
        }
        Wire::Gemini => {
            json!({"error": {"code": 400, "message": format!("API key not valid: {KEY}. Please pass a valid API key."), "status": "INVALID_ARGUMENT"}})
        }
        Wire::Bedrock => json!({"message": format!("Invalid API key {KEY}")}),
        Wire::Chat | Wire::Responses => {
            json!({"error": {"message": format!("Incorrect API key provided: {KEY}."), "type": "invalid_request_error", "code": "invalid_api_key"}})
        }
    };
    ResponseTemplate::new(refusal(wire)).set_body_json(body)
}

/// Every file under `dir` but the secret store, as text.
fn files_under(dir: &Path, out: &mut Vec<(String, String)>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files_under(&path, out);
        } else if path.file_name().is_some_and(|n| n != "secrets.toml") {
            let bytes = std::fs::read(&path).unwrap();
            out.push((path.display().to_string(), String::from_utf8_lossy(&bytes).into_owned()));
        }
    }
}

/// Every text cell of every table of the session database.
fn database_cells(db: &Path) -> Vec<String> {
    let connection = rusqlite::Connection::open(db).unwrap();
    let tables: Vec<String> = connection
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
        .unwrap()
        .query_map([], |row| row.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let mut cells = Vec::new();
    for table in tables {
        let mut statement = connection.prepare(&format!("SELECT * FROM {table}")).unwrap();
        let columns = statement.column_count();
        let mut rows = statement.query([]).unwrap();
        while let Some(row) = rows.next().unwrap() {
            for i in 0..columns {
                if let Ok(text) = row.get::<_, String>(i) {
                    cells.push(text);
                }
            }
        }
    }
    cells
}

#[tokio::test(flavor = "multi_thread")]
async fn neither_the_key_nor_the_secret_setting_appears_anywhere() {
    let mut seen = Vec::new();
    let mut covered = Vec::new();
    for wire in Wire::ALL {
        let server = MockServer::start().await;
        // The search service echoes the token back in a result.
        Mock::given(method("GET"))
            .and(path("/search"))
            .respond_with(ResponseTemplate::new(200).set_body_json(json!({"results": [
                {"url": format!("http://127.0.0.1:9/r?t={TOKEN}"), "title": format!("Echo {TOKEN}"), "content": format!("your token is {TOKEN}")}
            ]})))
            .mount(&server)
            .await;
        let turns = vec![
            wire.turn("", &[("call_1", "web_search", json!({"query": "rivers"}))]),
            wire.turn("Rivers flow.", &[]),
            wire.turn("", &[("call_2", "web_search", json!({"query": "more"}))]),
            wire.turn("More rivers.", &[]),
            echoing_error(wire),
        ];
        wire.mount(&server, turns).await;
        let dir = tempfile::tempdir().unwrap();
        let name = wire.provider();
        let config = dir.path().join("config.toml");
        std::fs::write(
            &config,
            format!(
                "secrets = \"file\"\nprovider = \"{name}\"\nmodel = \"test-model\"\n[providers.{name}]\nbase_url = \"{}/v1\"\n{}\n\
                 [tools.web_search]\nsearxng_url = \"{}\"\n",
                server.uri(),
                wire.place(),
                server.uri()
            ),
        )
        .unwrap();
        let command = |args: &[&str]| {
            let mut command = tackle(&config);
            command.env(key_variable(wire), KEY).env("RUST_LOG", "trace").args(args);
            command
        };
        let mut secret = command(&["secret", "set", "web_search.token"]);
        secret.write_stdin(format!("{TOKEN}\n"));
        let (code, out, err) = output(secret).await;
        assert_eq!(code, 0, "{err}");
        seen.push(out + &err);

        // A run with a tool call, at the most verbose log level.
        let (code, out, err) = output(command(&["-vvv", "run", "Tell me about rivers."])).await;
        assert_eq!(code, 0, "{wire:?}: {err}");
        assert!(err.contains("TRACE") || err.contains("DEBUG"), "logs are on: {err}");
        seen.push(out + &err);
        // The same as JSON events.
        let (code, out, err) = output(command(&["run", "--json", "More?"])).await;
        assert_eq!(code, 0, "{wire:?}: {err}");
        seen.push(out + &err);
        // A provider error that repeats the key.
        let (code, out, err) = output(command(&["run", "Once more."])).await;
        assert_eq!(code, 1, "{wire:?}: {err}");
        assert!(err.contains(&format!("HTTP {}", refusal(wire))), "{err}");
        seen.push(out + &err);

        let (_, list, err) = output(command(&["sessions", "list", "--json"])).await;
        seen.push(list.clone() + &err);
        for line in list.lines() {
            let id =
                serde_json::from_str::<serde_json::Value>(line).unwrap()["id"].as_str().unwrap().to_owned();
            for args in [vec!["sessions", "show", &id], vec!["sessions", "show", &id, "--json"]] {
                let (code, out, err) = output(command(&args)).await;
                assert_eq!(code, 0, "{err}");
                seen.push(out + &err);
            }
        }
        for args in [
            vec!["config", "show"],
            vec!["config", "show", "--json"],
            vec!["tools", "list", "--json"],
            vec!["tools", "call", "web_search", "{\"query\": \"direct\"}", "--json"],
        ] {
            let (_, out, err) = output(command(&args)).await;
            seen.push(out + &err);
        }

        // The canaries did travel where they belong, so the search below can fail.
        let sent = server.received_requests().await.unwrap();
        let key_sent =
            sent.iter().any(|r| r.headers.values().any(|v| v.to_str().is_ok_and(|v| v.contains(KEY))));
        let token_sent = sent.iter().any(|r| {
            r.url.path() == "/search"
                && r.headers.get("authorization").is_some_and(|v| v == &format!("Bearer {TOKEN}"))
        });
        assert!(key_sent && token_sent, "{wire:?}: key sent {key_sent}, token sent {token_sent}");

        let mut files = Vec::new();
        files_under(dir.path(), &mut files);
        assert!(files.iter().any(|(p, _)| p.ends_with("sessions.db")));
        for (file, text) in files {
            seen.push(format!("file {file}:\n{text}"));
        }
        for cell in database_cells(&dir.path().join("data").join("sessions.db")) {
            seen.push(format!("database cell:\n{cell}"));
        }
        covered.push(wire);
    }
    assert_eq!(covered, Wire::ALL);
    for text in &seen {
        for canary in [KEY, TOKEN] {
            if let Some(at) = text.find(canary) {
                let start = text[..at].char_indices().rev().nth(200).map_or(0, |(i, _)| i);
                panic!("{canary} leaked: …{}…", &text[start..(at + canary.len() + 100).min(text.len())]);
            }
        }
    }
}

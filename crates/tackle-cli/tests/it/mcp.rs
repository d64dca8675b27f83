//! MCP servers from the settings: `tackle mcp list`, their tools in `tools list`, a run that
//! calls a tool on each real peer and answers, and a server that cannot start left out.

use std::path::PathBuf;

use serde_json::json;
use wiremock::MockServer;

use super::{Wire, output, requests, settings, tackle};

/// The installed MCP peer `relative` (see tackle-mcp's tests; `.ci/run` installs them).
fn peer(relative: &str) -> Option<PathBuf> {
    let root = std::env::var_os("TACKLE_MCP_PEERS")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache/tackle/mcp-peers")))?;
    let path = root.join(relative);
    if path.exists() {
        return Some(path);
    }
    assert!(std::env::var_os("TACKLE_REQUIRE_PEERS").is_none(), "{} is missing", path.display());
    eprintln!("skipped: {} is not installed", path.display());
    None
}

fn servers() -> Option<String> {
    let everything = peer("node_modules/.bin/mcp-server-everything")?;
    let time = peer("venv/bin/mcp-server-time")?;
    Some(format!(
        "[mcp.servers.ev]\ncommand = \"{}\"\nargs = [\"stdio\"]\nexclude = [\"gzip-*\"]\n\n\
         [mcp.servers.time]\ncommand = \"{}\"\nargs = [\"--local-timezone\", \"UTC\"]\ntrusted = true\n\n\
         [mcp.servers.broken]\ncommand = \"no-such-mcp-server-tackle\"\n\n\
         [tools.ev_echo]\napproval = false\n",
        everything.display(),
        time.display()
    ))
}

#[tokio::test(flavor = "multi_thread")]
async fn a_run_calls_a_tool_on_each_peer_and_answers() {
    let Some(extra) = servers() else { return };
    let wire = Wire::Chat;
    let server = MockServer::start().await;
    wire.mount(
        &server,
        vec![
            wire.turn(
                "",
                &[
                    ("c1", "ev_echo", json!({"message": "ping"})),
                    ("c2", "time_get_current_time", json!({"timezone": "Asia/Tokyo"})),
                ],
            ),
            wire.turn("Echoed, and it is evening in Tokyo.", &[]),
        ],
    )
    .await;
    let dir = tempfile::tempdir().unwrap();
    let config = settings(dir.path(), wire, &server, &extra);
    let mut command = tackle(&config);
    command.args(["run", "Ping the echo server and tell me the time in Tokyo."]);
    let (code, stdout, stderr) = output(command).await;
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout, "Echoed, and it is evening in Tokyo.\n");
    // The server that cannot start is reported once; the run goes on without it.
    assert_eq!(stderr.matches("MCP server broken is left out").count(), 1, "{stderr}");
    let first = requests(&server, wire).await[0].to_string();
    assert!(first.contains("ev_echo") && first.contains("time_get_current_time"), "{first}");
    let second = requests(&server, wire).await[1].to_string();
    assert!(second.contains("Echo: ping"), "{second}");
    assert!(second.contains("Asia/Tokyo"), "{second}");
}

#[tokio::test(flavor = "multi_thread")]
async fn servers_are_listed_with_their_eras_and_tools() {
    let Some(extra) = servers() else { return };
    let dir = tempfile::tempdir().unwrap();
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

//! The client side of the MCP conformance suite: `conformance client --command
//! mcp-conformance-client` starts a scenario server and runs this with its URL as the last
//! argument. It connects with tackle's client (the era probed), lists the tools and calls
//! each once with arguments made from its schema, then exits. Not part of tackle's CLI.
#![allow(clippy::print_stderr)]

use serde_json::{Map, Value, json};

/// Arguments that fit `schema`: each required (or declared) property given a plain value
/// of its type.
fn arguments(schema: &Map<String, Value>) -> Map<String, Value> {
    let mut out = Map::new();
    let Some(Value::Object(properties)) = schema.get("properties") else { return out };
    for (name, property) in properties {
        let value = match property.get("type").and_then(Value::as_str) {
            Some("number") => json!(2.5),
            Some("integer") => json!(2),
            Some("boolean") => json!(true),
            Some("array") => json!([]),
            Some("object") => json!({}),
            _ => json!("conformance"),
        };
        out.insert(name.clone(), value);
    }
    out
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> std::process::ExitCode {
    let Some(url) = std::env::args().skip(1).last() else {
        eprintln!("usage: mcp-conformance-client URL");
        return std::process::ExitCode::from(2);
    };
    let mut config = tackle_mcp::ServerConfig::http("conformance", url);
    config.connect_timeout = std::time::Duration::from_secs(20);
    let server = match tackle_mcp::McpServer::connect(config).await {
        Ok(server) => server,
        Err(error) => {
            eprintln!("{error}");
            return std::process::ExitCode::from(1);
        }
    };
    let tools = match server.list_tools().await {
        Ok(tools) => tools,
        Err(error) => {
            eprintln!("{error}");
            return std::process::ExitCode::from(1);
        }
    };
    for tool in tools {
        let args = arguments(&tool.input_schema);
        // A question is answered as a user who accepts the form as offered (its defaults,
        // and a plain value for a required field without one), through the same path a
        // suspended run takes when it resumes.
        let mut resumed = None;
        for _ in 0..8 {
            match server.call(&tool.name, args.clone(), None, resumed.as_ref()).await {
                Ok(tackle_mcp::Called::Asks(request)) => {
                    eprintln!("{} asks: {}", tool.name, request.message);
                    let form = request.schema.as_object().cloned().unwrap_or_default();
                    let required: Vec<&str> = form
                        .get("required")
                        .and_then(Value::as_array)
                        .into_iter()
                        .flatten()
                        .filter_map(Value::as_str)
                        .collect();
                    let mut content = arguments(&form);
                    content.retain(|name, _| {
                        required.contains(&name.as_str())
                            && form["properties"][name.as_str()].get("default").is_none()
                    });
                    let response = tackle_core::InputResponse::accept(content);
                    resumed = Some(tackle_core::ResumedInput { request, response });
                }
                Ok(tackle_mcp::Called::Done(_)) => {
                    eprintln!("called {}", tool.name);
                    break;
                }
                Err(error) => {
                    eprintln!("{}: {error}", tool.name);
                    break;
                }
            }
        }
    }
    std::process::ExitCode::SUCCESS
}

//! `tackle sessions list|show`.

use std::process::ExitCode;

use serde_json::json;
use tackle_core::{AssistantPart, Message, UserPart};

use crate::failure::Failure;
use crate::render::short_arguments;
use crate::sessions::{Store, format_time};
use crate::tools::source_line;

pub(crate) fn list(limit: usize, json_out: bool) -> Result<ExitCode, Failure> {
    let store = Store::open()?;
    let rows = store.list(limit)?;
    if rows.is_empty() && !json_out {
        crate::eprint_line("no sessions yet; `tackle run \"…\"` saves one");
    }
    for (id, updated, provider, model, title, status) in rows {
        if json_out {
            let line = json!({
                "id": id,
                "updated": humantime::format_rfc3339_seconds(updated).to_string(),
                "provider": provider,
                "model": model,
                "title": title,
                "status": status,
            });
            crate::print_line(&line.to_string());
        } else {
            crate::print_line(&format!(
                "{id}  {}  {status:<20}  {provider}:{model}  {title}",
                format_time(updated)
            ));
        }
    }
    Ok(ExitCode::SUCCESS)
}

pub(crate) fn show(id: &str, json_out: bool) -> Result<ExitCode, Failure> {
    let store = Store::open()?;
    let session = store.load(id)?;
    if json_out {
        let text = serde_json::to_string_pretty(&session.state).map_err(|e| Failure::run(e.to_string()))?;
        crate::print_line(&text);
        return Ok(ExitCode::SUCCESS);
    }
    let state = &session.state;
    let mut out = vec![
        format!("session {}  {}", session.id, session.status),
        format!("provider {}:{}", session.provider, session.model),
        format!(
            "endpoint {}",
            session.endpoint.as_ref().map_or_else(|| "(not recorded)".to_owned(), |e| e.describe())
        ),
        format!("started {}, saved {}", format_time(session.created), format_time(session.updated)),
    ];
    if !state.system.is_empty() {
        out.push(format!("\n[system]\n{}", state.system));
    }
    for message in &state.messages {
        match message {
            Message::System { text } => out.push(format!("\n[system]\n{text}")),
            Message::User { parts } => {
                for part in parts {
                    match part {
                        UserPart::Text(text) => out.push(format!("\n[user]\n{text}")),
                        UserPart::ToolReturn(result) => {
                            let status = serde_json::to_value(result.status).ok();
                            let status = status.as_ref().and_then(|s| s.as_str()).unwrap_or("?");
                            let first = result.content.lines().next().unwrap_or("");
                            let short: String = first.chars().take(100).collect();
                            out.push(format!("  ← {} {status}: {short}", result.tool_name));
                        }
                    }
                }
            }
            Message::Assistant(turn) => {
                let mut text = String::new();
                for part in &turn.parts {
                    match part {
                        AssistantPart::Text(t) => text.push_str(t),
                        AssistantPart::ToolCall(call) => {
                            let args = match &call.arguments {
                                tackle_core::ToolArguments::Json(v) => short_arguments(v),
                                other => format!("{other:?}"),
                            };
                            out.push(format!("  → {}({args})", call.name));
                        }
                        _ => {}
                    }
                }
                if !text.is_empty() {
                    out.push(format!("\n[assistant]\n{text}"));
                }
            }
        }
    }
    if let Some(pending) = &state.pending {
        out.push("\nwaiting for approval:".to_owned());
        for (_, call, _) in pending.waiting() {
            out.push(format!("  {} {}", call.id, call.name));
        }
    }
    if !state.sources.is_empty() {
        out.push("\nSources:".to_owned());
        for (n, source) in state.sources.iter().enumerate() {
            out.push(format!("[{}] {}", n + 1, source_line(source)));
        }
    }
    if !state.traces.is_empty() {
        out.push("\nTool calls:".to_owned());
        for trace in &state.traces {
            let status = serde_json::to_value(trace.status).ok();
            let status = status.as_ref().and_then(|s| s.as_str()).unwrap_or("?").to_owned();
            let why = trace
                .detail
                .as_deref()
                .map(|d| format!(": {}", crate::render::one_line(d, 1000)))
                .unwrap_or_default();
            out.push(format!(
                "{:>3}. {}({}) {status} in {} ms{why}",
                trace.order,
                trace.tool,
                short_arguments(&trace.arguments),
                trace.duration.as_millis()
            ));
            // What the tool left for the record: the diff an edit made, how a command ended.
            if let Some(metadata) = trace.metadata.as_ref() {
                match metadata.get("diff").and_then(|d| d.as_str()) {
                    Some(diff) => {
                        out.extend(
                            crate::render::diff_lines(diff).into_iter().map(|l| format!("       {l}")),
                        );
                    }
                    None => {
                        out.push(format!("       {}", crate::render::one_line(&metadata.to_string(), 300)))
                    }
                }
            }
        }
    }
    crate::print_line(&out.join("\n"));
    Ok(ExitCode::SUCCESS)
}

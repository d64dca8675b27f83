//! `tackle guard check`: the prompt-injection filter on a file, stdin, or a stream of JSON
//! lines for batch evaluation.

use std::io::{BufRead as _, Read as _};
use std::path::Path;
use std::process::ExitCode;

use serde_json::{Value, json};
use tackle_guard::{Guard, Input, Strictness, Thresholds, Trees};

use crate::failure::Failure;

fn guard() -> Guard<Trees> {
    Guard::new(Trees::trained(), Strictness::Default, Thresholds::default())
}

/// `tackle guard check FILE|-` (`--json` for the report), at the strictness asked for, else
/// the settings' `[guard] strictness`, else the default.
pub(crate) fn check(
    input: &Path,
    json_out: bool,
    strictness: Option<&str>,
    config: &crate::config::Config,
) -> Result<ExitCode, Failure> {
    let strictness = match strictness.or(config.file.guard.strictness.as_deref()) {
        None => Strictness::Default,
        Some(name) => Strictness::from_name(name).ok_or_else(|| {
            Failure::usage(format!("guard.strictness = {name:?}: expected relaxed, default or strict"))
        })?,
    };
    let (source, text) = if input == Path::new("-") {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| Failure::usage(format!("cannot read stdin as text: {e}")))?;
        ("stdin".to_owned(), text)
    } else {
        let text = fs_err::read_to_string(input).map_err(|e| Failure::usage(e.to_string()))?;
        (input.display().to_string(), text)
    };
    let (mut out, report) =
        guard().check_at(vec![Input { source: source.clone(), field: "content".into(), text }], strictness);
    let filtered = out.pop().unwrap_or_default();
    let findings: Vec<Value> = report
        .sources
        .iter()
        .flat_map(|s| {
            s.findings.iter().map(|f| {
                json!({
                    "source": s.source,
                    "start": f.range.start,
                    "end": f.range.end,
                    "score": (f64::from(f.score) * 1000.0).round() / 1000.0,
                    "reasons": f.reasons.iter().map(|r| r.name()).collect::<Vec<_>>(),
                    "encoded": f.carrier.map(|c| format!("{c:?}")),
                })
            })
        })
        .collect();
    if json_out {
        crate::print_line(&json!({"source": source, "findings": findings, "filtered": filtered}).to_string());
    } else {
        crate::print_raw(&filtered);
        for finding in &findings {
            crate::eprint_line(&format!(
                "marked {}..{} (score {}): {}",
                finding["start"], finding["end"], finding["score"], finding["reasons"]
            ));
        }
    }
    Ok(if report.is_clean() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// `tackle guard check --jsonl`: a score per input line, in order.
pub(crate) fn check_lines() -> Result<ExitCode, Failure> {
    let guard = guard();
    for (n, line) in std::io::stdin().lock().lines().enumerate() {
        let line = line.map_err(|e| Failure::usage(format!("stdin line {}: {e}", n + 1)))?;
        if line.trim().is_empty() {
            continue;
        }
        let value: Value = serde_json::from_str(&line)
            .map_err(|e| Failure::usage(format!("stdin line {} is not JSON: {e}", n + 1)))?;
        let Some(text) = value.get("text").and_then(Value::as_str) else {
            return Err(Failure::usage(format!("stdin line {} has no string \"text\"", n + 1)));
        };
        let score = (f64::from(guard.score(text)) * 10_000.0).round() / 10_000.0;
        crate::print_line(
            &json!({"id": value.get("id").cloned().unwrap_or(Value::Null), "score": score}).to_string(),
        );
    }
    Ok(ExitCode::SUCCESS)
}

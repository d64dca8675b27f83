//! What a run looks like on a terminal: the answer streams to stdout; each tool call shows
//! on stderr as it starts and ends (a spinner while it runs when stderr is a terminal,
//! plain lines otherwise). `--json` prints the harness's events instead.

use std::collections::HashMap;
use std::io::{IsTerminal, Write};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use serde_json::Value;
use tackle_core::ToolStatus;
use tackle_harness::{EventSink, RunEvent};

/// Arguments as one short line.
pub(crate) fn short_arguments(arguments: &Value) -> String {
    let text = match arguments {
        Value::Object(map) => map
            .iter()
            .map(|(k, v)| match v {
                Value::String(s) => format!("{k}: {s:?}"),
                other => format!("{k}: {other}"),
            })
            .collect::<Vec<_>>()
            .join(", "),
        other => other.to_string(),
    };
    let mut short: String = text.chars().take(80).collect();
    if short.len() < text.len() {
        short.push('…');
    }
    short
}

fn status_text(status: ToolStatus) -> String {
    serde_json::to_value(status)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_else(|| format!("{status:?}"))
}

/// `text` on one line (whitespace runs folded) and at most `max` characters.
pub(crate) fn one_line(text: &str, max: usize) -> String {
    let folded = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut short: String = folded.chars().take(max).collect();
    if short.len() < folded.len() {
        short.push('…');
    }
    short
}

/// The terminal view of a run.
pub(crate) struct Terminal {
    spinner: Option<ProgressBar>,
    fancy: bool,
    running: HashMap<String, String>,
    /// How far each running call says it has come.
    progress: HashMap<String, String>,
    /// The last byte written to stdout, to end the answer with a newline.
    last: Option<u8>,
}

impl Terminal {
    pub(crate) fn new() -> Self {
        let fancy = std::io::stderr().is_terminal() && std::env::var_os("TERM").is_none_or(|t| t != "dumb");
        Terminal { spinner: None, fancy, running: HashMap::new(), progress: HashMap::new(), last: None }
    }

    /// Ends the streamed answer with a newline when it has none.
    pub(crate) fn finish_answer(&mut self) {
        if self.last.is_some_and(|b| b != b'\n') {
            crate::print_raw("\n");
            self.last = Some(b'\n');
        }
    }

    /// Whether any answer text was written.
    pub(crate) fn wrote_answer(&self) -> bool {
        self.last.is_some()
    }

    fn line(&mut self, text: &str) {
        match &self.spinner {
            Some(spinner) => spinner.println(text),
            None => crate::eprint_line(text),
        }
    }

    fn update_spinner(&mut self) {
        if !self.fancy {
            return;
        }
        if self.running.is_empty() {
            if let Some(spinner) = self.spinner.take() {
                spinner.finish_and_clear();
            }
            return;
        }
        let mut names: Vec<String> = self
            .running
            .iter()
            .map(|(id, label)| match self.progress.get(id) {
                Some(progress) => format!("{label} {progress}"),
                None => label.clone(),
            })
            .collect();
        names.sort_unstable();
        let message = names.join(", ");
        let spinner = self.spinner.get_or_insert_with(|| {
            let bar = ProgressBar::new_spinner();
            if let Ok(style) = ProgressStyle::with_template("{spinner} {msg} {elapsed}") {
                bar.set_style(style);
            }
            bar.enable_steady_tick(Duration::from_millis(100));
            bar
        });
        spinner.set_message(message);
    }
}

impl EventSink for Terminal {
    fn emit(&mut self, event: RunEvent) {
        match event {
            RunEvent::TextDelta { text } => {
                if let Some(spinner) = &self.spinner {
                    spinner.suspend(|| crate::print_raw(&text));
                } else {
                    crate::print_raw(&text);
                }
                if let Some(&b) = text.as_bytes().last() {
                    self.last = Some(b);
                }
            }
            RunEvent::ToolCallStarted { call_id, name, arguments } => {
                self.finish_answer();
                let label = format!("{name}({})", short_arguments(&arguments));
                if !self.fancy {
                    self.line(&format!("tool {label} started"));
                }
                self.running.insert(call_id, label);
                self.update_spinner();
            }
            RunEvent::ToolCallFinished {
                call_id, name, status, duration, detail, metadata, cost, ..
            } => {
                let label = self.running.remove(&call_id).unwrap_or(name);
                self.progress.remove(&call_id);
                let mark = if status == ToolStatus::Ok { "✓" } else { "✗" };
                let millis = duration.as_millis();
                let why = detail.map(|d| format!(": {}", one_line(&d, 1000))).unwrap_or_default();
                let paid = cost
                    .filter(|c| *c > tackle_core::Cost::ZERO)
                    .map(|c| format!(", {c}"))
                    .unwrap_or_default();
                self.line(&format!("{mark} {label} {} in {millis} ms{paid}{why}", status_text(status)));
                // What a write or an edit changed, as it ran.
                if let Some(diff) = metadata.as_ref().and_then(|m| m.get("diff")).and_then(|d| d.as_str()) {
                    for line in diff_lines(diff) {
                        self.line(&format!("    {line}"));
                    }
                }
                self.update_spinner();
            }
            RunEvent::ToolProgress { call_id, progress, total, message, .. } => {
                let mut text = match total {
                    Some(total) if total > 0.0 => {
                        format!("{:.0}%", (progress / total * 100.0).clamp(0.0, 100.0))
                    }
                    _ => format!("{progress}"),
                };
                if let Some(message) = message {
                    text.push_str(&format!(" {}", one_line(&message, 60)));
                }
                self.progress.insert(call_id, text);
                self.update_spinner();
            }
            RunEvent::ContentFiltered { name, report, .. } => {
                for line in filter_lines(&name, &report) {
                    self.line(&line);
                }
            }
            RunEvent::HostAttention { name, detail, .. } => {
                let why = detail.map(|d| format!(": {}", one_line(&d, 1000))).unwrap_or_default();
                self.line(&format!("warning: tool {name} cannot run until its setup is fixed{why}"));
            }
            RunEvent::Suspended { .. } | RunEvent::Finished { .. } => {
                self.running.clear();
                self.update_spinner();
            }
            _ => {}
        }
    }
}

/// The warning lines for what the prompt-injection filter did to one result: one per
/// source (spans removed and the reasons behind them), and one if it could not run.
pub(crate) fn filter_lines(tool: &str, report: &tackle_core::FilterReport) -> Vec<String> {
    let mut lines = Vec::new();
    for source in report.sources.iter().filter(|s| !s.spans.is_empty()) {
        let mut reasons: Vec<&str> = Vec::new();
        for reason in source.spans.iter().flat_map(|s| &s.reasons) {
            if !reasons.contains(&reason.as_str()) {
                reasons.push(reason);
            }
        }
        let n = source.spans.len();
        let fields: Vec<&str> = {
            let mut fields: Vec<&str> = source.spans.iter().map(|s| s.field.as_str()).collect();
            fields.dedup();
            fields
        };
        lines.push(format!(
            "warning: {tool}: removed {n} suspicious span{} (possible prompt injection) from {} [{}]: {}",
            if n == 1 { "" } else { "s" },
            one_line(&source.source, 200),
            fields.join(", "),
            reasons.join(", ")
        ));
    }
    if let Some(warning) = &report.warning {
        lines.push(format!("warning: {tool}: {}", one_line(warning, 500)));
    }
    lines
}

/// `--json`: every event as one JSON object per line on stdout.
pub(crate) struct JsonLines;

impl EventSink for JsonLines {
    fn emit(&mut self, event: RunEvent) {
        if let Ok(line) = serde_json::to_string(&event) {
            crate::print_line(&line);
        }
    }
}

/// Flushes stdout (the answer streams in pieces).
pub(crate) fn flush() {
    let _ = std::io::stdout().flush();
}

/// The most diff lines shown for one call.
const DIFF_LINES: usize = 80;

/// What a waiting write or edit call would change, as unified-diff lines (`--- a/x`, `+++
/// b/x`, hunks), or why it would fail; nothing for other tools.
pub(crate) fn edit_preview(root: &std::path::Path, tool: &str, args: &serde_json::Value) -> Vec<String> {
    let Ok(dir) = tackle_env::LocalDir::new(root) else { return Vec::new() };
    match tackle_env::preview(&dir, tool, args) {
        None => Vec::new(),
        Some(Err(why)) => vec![format!("(this call would fail: {why})")],
        Some(Ok((path, before, after))) => {
            diff_lines(&tackle_env::unified_diff(path.as_str(), &before, &after, tackle_env::DIFF_MAX_LINES))
        }
    }
}

/// A diff's lines as the terminal shows them: at most `DIFF_LINES`, then how many more.
pub(crate) fn diff_lines(diff: &str) -> Vec<String> {
    // Indentation stays; control characters (a file's escape sequences) do not reach the
    // terminal; very long lines are cut.
    let shown = |line: &str| -> String {
        let mut kept: String = line
            .chars()
            .take(500)
            .map(|c| if c.is_control() && c != '\t' { '\u{fffd}' } else { c })
            .collect();
        if line.chars().nth(500).is_some() {
            kept.push('…');
        }
        kept
    };
    let mut lines: Vec<String> = diff.lines().map(shown).collect();
    if lines.len() > DIFF_LINES {
        let more = lines.len() - DIFF_LINES;
        lines.truncate(DIFF_LINES);
        lines.push(format!("... {more} more diff lines"));
    }
    lines
}

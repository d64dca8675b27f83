//! What tackle tells an operator's telemetry, and the seams where a telemetry pipeline
//! plugs in.
//!
//! Spans are plain `tracing` spans named after the OpenTelemetry GenAI conventions; whoever
//! installs a subscriber decides where they go. Three things cannot be said through spans
//! alone, so they are seams here, empty until a pipeline fills them (`tackle-telemetry`
//! does):
//!
//! - the W3C trace context of the current span, which outgoing provider and MCP requests
//!   carry ([`current_trace_context`]);
//! - taking a trace context that arrived from elsewhere (an incoming HTTP request, a stored
//!   run) as the parent of a span ([`adopt_parent`]);
//! - whether message content (tool arguments and results) may be recorded
//!   ([`capture_content`]).
//!
//! Metrics go through the OpenTelemetry API's global meter once [`set_metrics`] turns them
//! on (a pipeline does when it installs a meter provider): [`record_round`] and
//! [`record_tool_call`].

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use opentelemetry::KeyValue;
use opentelemetry::metrics::{Counter, Histogram};

use crate::Usage;

/// A W3C trace context: the `traceparent` header value and, when there is one, `tracestate`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TraceContext {
    /// `version-traceid-parentid-flags`, as [`parse_traceparent`] accepts it.
    pub traceparent: String,
    /// Vendor entries, passed on unread.
    pub tracestate: Option<String>,
}

/// The functions a telemetry pipeline provides.
#[derive(Clone, Copy)]
pub struct Hooks {
    /// The trace context of the current span, when it is recorded.
    pub current: fn() -> Option<TraceContext>,
    /// Makes the given context the parent of the span.
    pub adopt: fn(&tracing::Span, &TraceContext),
}

static HOOKS: OnceLock<Hooks> = OnceLock::new();
static CAPTURE: AtomicBool = AtomicBool::new(false);
static METRICS: AtomicBool = AtomicBool::new(false);

/// Installs the pipeline's hooks, once per process; `false` when some were installed before.
pub fn install(hooks: Hooks) -> bool {
    HOOKS.set(hooks).is_ok()
}

/// The trace context outgoing requests carry: the current span's, when a pipeline records it.
pub fn current_trace_context() -> Option<TraceContext> {
    HOOKS.get().and_then(|hooks| (hooks.current)())
}

/// Makes `parent` (a context that arrived from elsewhere) the parent of `span`; nothing
/// happens without a pipeline, or when the span is not recorded.
pub fn adopt_parent(span: &tracing::Span, parent: &TraceContext) {
    if let Some(hooks) = HOOKS.get()
        && !span.is_disabled()
    {
        (hooks.adopt)(span, parent);
    }
}

/// Whether spans may carry message content: tool arguments (sensitive ones redacted) and
/// results. Off unless the operator turns it on.
pub fn capture_content() -> bool {
    CAPTURE.load(Ordering::Relaxed)
}

/// Turns recording of message content on or off.
pub fn set_capture_content(on: bool) {
    CAPTURE.store(on, Ordering::Relaxed);
}

pin_project_lite::pin_project! {
    /// A future run inside a borrowed span; see [`in_span`].
    #[must_use = "futures do nothing unless polled"]
    pub struct InSpan<'a, F> {
        #[pin]
        work: F,
        span: &'a tracing::Span,
    }
}

impl<F: std::future::Future> std::future::Future for InSpan<'_, F> {
    type Output = F::Output;

    fn poll(self: std::pin::Pin<&mut Self>, cx: &mut std::task::Context<'_>) -> std::task::Poll<F::Output> {
        let this = self.project();
        let _entered = this.span.enter();
        this.work.poll(cx)
    }
}

/// Runs `work` inside `span`: the span is entered around each poll. Unlike
/// `tracing::Instrument` the span is borrowed (no clone, and the caller records on it
/// afterwards); a span nobody records costs a branch per poll.
pub fn in_span<F: std::future::Future>(work: F, span: &tracing::Span) -> InSpan<'_, F> {
    InSpan { work, span }
}

/// At most `max` characters of `text`, without copying: how long names and ids become
/// attribute values.
pub fn clip(text: &str, max: usize) -> &str {
    if text.len() <= max {
        return text;
    }
    match text.char_indices().nth(max) {
        Some((end, _)) => &text[..end],
        None => text,
    }
}

/// Whether rounds and calls are recorded on the OpenTelemetry global meter. Off until a
/// pipeline that installed a meter provider says so, so that a process without one pays
/// nothing for the attributes.
pub fn metrics() -> bool {
    METRICS.load(Ordering::Relaxed)
}

/// Turns recording on the global meter on or off (`tackle-telemetry` turns it on with its
/// meter provider; an embedder that installs its own calls this).
pub fn set_metrics(on: bool) {
    METRICS.store(on, Ordering::Relaxed);
}

/// Checks a `traceparent` value as the W3C Trace Context spec reads it: version `00` (or a
/// later version, whose first four fields are read the same way), a 32-hex-digit trace id
/// and a 16-hex-digit parent id that are not all zeros, and two hex digits of flags.
/// Anything else is `None`, so a malformed header starts a new trace instead of joining a
/// wrong one.
pub fn parse_traceparent(value: &str) -> Option<TraceContext> {
    let value = value.trim();
    let mut parts = value.split('-');
    let (version, trace, parent, flags) = (parts.next()?, parts.next()?, parts.next()?, parts.next()?);
    let hex =
        |s: &str, len: usize| s.len() == len && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
    let zero = |s: &str| s.bytes().all(|b| b == b'0');
    let valid = hex(version, 2)
        && version != "ff"
        && hex(trace, 32)
        && !zero(trace)
        && hex(parent, 16)
        && !zero(parent)
        && hex(flags, 2)
        // Version 00 has exactly four fields; later versions may add more.
        && (version != "00" || parts.next().is_none());
    valid.then(|| TraceContext { traceparent: format!("00-{trace}-{parent}-{flags}"), tracestate: None })
}

struct Instruments {
    token_usage: Histogram<u64>,
    operation_duration: Histogram<f64>,
    tool_calls: Counter<u64>,
    tool_duration: Histogram<f64>,
}

fn instruments() -> &'static Instruments {
    static INSTRUMENTS: OnceLock<Instruments> = OnceLock::new();
    INSTRUMENTS.get_or_init(|| {
        let meter = opentelemetry::global::meter("tackle");
        Instruments {
            token_usage: meter
                .u64_histogram("gen_ai.client.token.usage")
                .with_unit("{token}")
                .with_description("Tokens used by each model round")
                .with_boundaries((0..14).map(|i| 4f64.powi(i)).collect())
                .build(),
            operation_duration: meter
                .f64_histogram("gen_ai.client.operation.duration")
                .with_unit("s")
                .with_description("How long each model round took")
                .with_boundaries(vec![
                    0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92,
                ])
                .build(),
            tool_calls: meter
                .u64_counter("tackle.tool.calls")
                .with_unit("{call}")
                .with_description("Tool calls, by tool and status")
                .build(),
            tool_duration: meter
                .f64_histogram("tackle.tool.call.duration")
                .with_unit("s")
                .with_description("How long tool calls took, by tool and status")
                .build(),
        }
    })
}

/// A model round's duration and, when it ended with an answer, its tokens. `model` is the
/// `provider:model` name; `error` the round's low-cardinality `error.type`. Nothing is
/// done unless [`metrics`] is on.
pub fn record_round(model: &str, took: Duration, usage: Option<&Usage>, error: Option<&'static str>) {
    if !metrics() {
        return;
    }
    let (provider, model) = model.split_once(':').unwrap_or(("unknown", model));
    let mut attributes = vec![
        KeyValue::new("gen_ai.operation.name", "chat"),
        KeyValue::new("gen_ai.provider.name", provider.to_owned()),
        KeyValue::new("gen_ai.request.model", model.to_owned()),
    ];
    let instruments = instruments();
    if let Some(error) = error {
        attributes.push(KeyValue::new("error.type", error));
    }
    instruments.operation_duration.record(took.as_secs_f64(), &attributes);
    if let Some(usage) = usage {
        for (kind, tokens) in [("input", usage.input_tokens), ("output", usage.output_tokens)] {
            attributes.push(KeyValue::new("gen_ai.token.type", kind));
            instruments.token_usage.record(tokens, &attributes);
            attributes.pop();
        }
    }
}

/// A finished tool call: its tool (as offered, else `unknown`) and status label. Nothing
/// is done unless [`metrics`] is on.
pub fn record_tool_call(tool: &str, status: &'static str, took: Duration) {
    if !metrics() {
        return;
    }
    let attributes = [KeyValue::new("gen_ai.tool.name", tool.to_owned()), KeyValue::new("status", status)];
    let instruments = instruments();
    instruments.tool_calls.add(1, &attributes);
    instruments.tool_duration.record(took.as_secs_f64(), &attributes);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn traceparent_is_checked_field_by_field() {
        let good = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
        assert_eq!(parse_traceparent(good).unwrap().traceparent, good);
        assert!(parse_traceparent(&format!(" {good} ")).is_some());
        // A later version may carry more fields; it is passed on as version 00.
        let later = "cc-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-what-the-future-will-be-like";
        assert_eq!(parse_traceparent(later).unwrap().traceparent, good);
        for bad in [
            "",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra",
            "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
            "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-1",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902bz-01",
            "0-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        ] {
            assert!(parse_traceparent(bad).is_none(), "{bad:?}");
        }
    }

    #[test]
    fn nothing_is_captured_or_propagated_until_a_pipeline_says_so() {
        assert!(!capture_content() && !metrics());
        assert!(current_trace_context().is_none());
        // Recording without a meter provider is a no-op, not an error.
        record_round("openai:gpt", Duration::from_millis(5), Some(&Usage::default()), None);
        record_tool_call("search", "ok", Duration::from_millis(1));
    }
}

//! What `/metrics` reports (Prometheus text format), counted in this process.

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::Registry;

/// A status label.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub(crate) struct Status {
    pub(crate) status: String,
}

/// The labels of `gen_ai.client.token.usage` (OpenTelemetry GenAI conventions).
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub(crate) struct TokenLabels {
    pub(crate) gen_ai_operation_name: &'static str,
    pub(crate) gen_ai_provider_name: String,
    pub(crate) gen_ai_request_model: String,
    pub(crate) gen_ai_token_type: &'static str,
}

/// The labels of `gen_ai.client.operation.duration`.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub(crate) struct RoundLabels {
    pub(crate) gen_ai_operation_name: &'static str,
    pub(crate) gen_ai_provider_name: String,
    pub(crate) gen_ai_request_model: String,
}

/// The labels of a tool call: the tool (one the registry knows, else `unknown`) and how it
/// ended.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub(crate) struct ToolLabels {
    pub(crate) gen_ai_tool_name: String,
    pub(crate) status: String,
}

type Histograms<L> = Family<L, Histogram, fn() -> Histogram>;

fn token_buckets() -> Histogram {
    // The GenAI conventions' advice: powers of 4 from 1 to 4^13.
    Histogram::new((0..14).map(|i| 4f64.powi(i)))
}

fn round_buckets() -> Histogram {
    // The GenAI conventions' advice: 0.01 s doubling to 81.92 s.
    Histogram::new((0..14).map(|i| 0.01 * 2f64.powi(i)))
}

fn duration_buckets() -> Histogram {
    Histogram::new([0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0])
}

/// The server's counters and gauges.
pub(crate) struct Metrics {
    registry: Registry,
    /// Tokens per model round, by provider, model and input or output.
    pub(crate) token_usage: Histograms<TokenLabels>,
    /// How long model rounds took, by provider and model.
    pub(crate) operation_duration: Histograms<RoundLabels>,
    /// Tool calls, by tool and status.
    pub(crate) tool_calls: Family<ToolLabels, Counter>,
    /// How long tool calls took, by tool and status.
    pub(crate) tool_duration: Histograms<ToolLabels>,
    /// Runs created through this process.
    pub(crate) runs_created: Counter,
    /// Runs this process settled, by how they ended.
    pub(crate) runs_settled: Family<Status, Counter>,
    /// Runs this process claimed (taken-over ones included).
    pub(crate) runs_claimed: Counter,
    /// Runs this process took over from a checkpoint another worker left.
    pub(crate) runs_recovered: Counter,
    /// Events this process wrote.
    pub(crate) events_written: Counter,
    /// Runs under way in this process.
    pub(crate) runs_running: Gauge,
}

impl Metrics {
    pub(crate) fn new() -> Self {
        let mut root = Registry::default();
        let metrics = Metrics {
            token_usage: Family::new_with_constructor(token_buckets),
            operation_duration: Family::new_with_constructor(round_buckets),
            tool_calls: Family::default(),
            tool_duration: Family::new_with_constructor(duration_buckets),
            runs_created: Counter::default(),
            runs_settled: Family::default(),
            runs_claimed: Counter::default(),
            runs_recovered: Counter::default(),
            events_written: Counter::default(),
            runs_running: Gauge::default(),
            registry: Registry::default(),
        };
        root.register(
            "gen_ai_client_token_usage",
            "Tokens used by each model round (gen_ai.client.token.usage)",
            metrics.token_usage.clone(),
        );
        root.register_with_unit(
            "gen_ai_client_operation_duration",
            "How long each model round took (gen_ai.client.operation.duration)",
            prometheus_client::registry::Unit::Seconds,
            metrics.operation_duration.clone(),
        );
        let registry = root.sub_registry_with_prefix("tackle_server");
        registry.register(
            "tool_calls",
            "Tool calls this process ran, by tool and status",
            metrics.tool_calls.clone(),
        );
        registry.register_with_unit(
            "tool_call_duration",
            "How long tool calls took, by tool and status",
            prometheus_client::registry::Unit::Seconds,
            metrics.tool_duration.clone(),
        );
        registry.register("runs_created", "Runs created through this process", metrics.runs_created.clone());
        registry.register(
            "runs_settled",
            "Runs this process settled, by status",
            metrics.runs_settled.clone(),
        );
        registry.register("runs_claimed", "Runs this process claimed", metrics.runs_claimed.clone());
        registry.register(
            "runs_recovered",
            "Runs this process took over from another worker's checkpoint",
            metrics.runs_recovered.clone(),
        );
        registry.register("events_written", "Run events this process wrote", metrics.events_written.clone());
        registry.register("runs_running", "Runs under way in this process", metrics.runs_running.clone());
        Metrics { registry: root, ..metrics }
    }

    /// A model round: its tokens and, when it was timed, its duration.
    pub(crate) fn round(
        &self,
        provider: &str,
        model: &str,
        usage: &tackle_core::Usage,
        took: Option<std::time::Duration>,
    ) {
        for (kind, tokens) in [("input", usage.input_tokens), ("output", usage.output_tokens)] {
            let labels = TokenLabels {
                gen_ai_operation_name: "chat",
                gen_ai_provider_name: provider.to_owned(),
                gen_ai_request_model: model.to_owned(),
                gen_ai_token_type: kind,
            };
            self.token_usage.get_or_create(&labels).observe(tokens as f64);
        }
        if let Some(took) = took {
            let labels = RoundLabels {
                gen_ai_operation_name: "chat",
                gen_ai_provider_name: provider.to_owned(),
                gen_ai_request_model: model.to_owned(),
            };
            self.operation_duration.get_or_create(&labels).observe(took.as_secs_f64());
        }
    }

    /// A finished tool call.
    pub(crate) fn tool(&self, tool: &str, status: &str, took: std::time::Duration) {
        let labels = ToolLabels { gen_ai_tool_name: tool.to_owned(), status: status.to_owned() };
        self.tool_calls.get_or_create(&labels).inc();
        self.tool_duration.get_or_create(&labels).observe(took.as_secs_f64());
    }

    /// The text exposition.
    pub(crate) fn render(&self) -> String {
        let mut text = String::new();
        if prometheus_client::encoding::text::encode(&mut text, &self.registry).is_err() {
            text.clear();
        }
        text
    }

    pub(crate) fn settled(&self, status: &str) {
        self.runs_settled.get_or_create(&Status { status: status.to_owned() }).inc();
    }
}

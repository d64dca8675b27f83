//! What `/metrics` reports (Prometheus text format), counted in this process.

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::registry::Registry;

/// A status label.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub(crate) struct Status {
    pub(crate) status: String,
}

/// The server's counters and gauges.
pub(crate) struct Metrics {
    registry: Registry,
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
        let mut registry = Registry::with_prefix("tackle_server");
        let metrics = Metrics {
            runs_created: Counter::default(),
            runs_settled: Family::default(),
            runs_claimed: Counter::default(),
            runs_recovered: Counter::default(),
            events_written: Counter::default(),
            runs_running: Gauge::default(),
            registry: Registry::default(),
        };
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
        Metrics { registry, ..metrics }
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

//! OpenTelemetry for tackle.
//!
//! tackle's runs, model rounds and tool calls are `tracing` spans named after the
//! OpenTelemetry GenAI conventions (`invoke_agent`, `chat {model}`, `execute_tool {tool}`),
//! and its GenAI metrics go through the OpenTelemetry API ([`tackle_core::telemetry`]).
//! [`Telemetry::from_env`] turns both into OTLP exports when the standard variables ask for
//! them:
//!
//! | variable | what it does here |
//! |---|---|
//! | `OTEL_EXPORTER_OTLP_ENDPOINT`, `…_TRACES_ENDPOINT`, `…_METRICS_ENDPOINT` | where to export; nothing is exported without one |
//! | `OTEL_EXPORTER_OTLP_PROTOCOL` (and per signal) | `http/protobuf` (the default) or `grpc` |
//! | `OTEL_EXPORTER_OTLP_HEADERS`, `…_TIMEOUT`, `…_COMPRESSION` (and per signal) | passed to the exporter |
//! | `OTEL_TRACES_EXPORTER`, `OTEL_METRICS_EXPORTER` | `otlp` (the default) or `none` |
//! | `OTEL_SDK_DISABLED` | `true` turns everything off |
//! | `OTEL_SERVICE_NAME`, `OTEL_RESOURCE_ATTRIBUTES` | the resource (`service.name` defaults to `tackle`) |
//! | `OTEL_TRACES_SAMPLER`, `…_ARG`, `OTEL_BSP_*`, `OTEL_METRIC_EXPORT_INTERVAL` | sampling, batching, the metric period |
//! | `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT` | `true` puts tool arguments (sensitive ones masked) and results on spans |
//!
//! With a trace exporter, provider requests carry the W3C `traceparent` of their `chat`
//! span and MCP `tools/call` requests carry it in `_meta` (SEP-414); a server run joins the
//! trace of the request that started it.
//!
//! ```no_run
//! use tracing_subscriber::layer::SubscriberExt;
//! use tracing_subscriber::util::SubscriberInitExt;
//!
//! // Inside a Tokio runtime: the gRPC exporter needs one.
//! let telemetry = tackle_telemetry::Telemetry::from_env().unwrap_or_else(|error| {
//!     eprintln!("warning: telemetry is off: {error}");
//!     tackle_telemetry::Telemetry::off()
//! });
//! tracing_subscriber::registry().with(telemetry.layer()).init();
//! // … runs …
//! drop(telemetry); // flushes what is left
//! ```

use std::collections::HashMap;

use opentelemetry::propagation::TextMapPropagator;
use opentelemetry::trace::{TraceContextExt, TracerProvider as _};
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::metrics::SdkMeterProvider;
use opentelemetry_sdk::propagation::TraceContextPropagator;
use opentelemetry_sdk::trace::SdkTracerProvider;
use tackle_core::telemetry::{Hooks, TraceContext};
use tracing_opentelemetry::OpenTelemetrySpanExt;
use tracing_subscriber::Layer;
use tracing_subscriber::filter::{FilterExt, Targets};
use tracing_subscriber::registry::LookupSpan;

/// Why telemetry could not be set up as the environment asks.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TelemetryError {
    /// A variable asks for something tackle does not do.
    #[error("{variable}={value:?} is not supported: {hint}")]
    Unsupported {
        /// The variable.
        variable: &'static str,
        /// What it says.
        value: String,
        /// What is supported instead.
        hint: &'static str,
    },
    /// The exporter could not be built.
    #[error("cannot set up the OTLP {signal} exporter: {message}")]
    Exporter {
        /// `traces` or `metrics`.
        signal: &'static str,
        /// The exporter's words.
        message: String,
    },
}

/// The telemetry pipeline of one process: the trace and metric exporters the environment
/// asked for, or none. Dropping it flushes and stops them.
#[must_use = "dropping the pipeline stops its exporters"]
pub struct Telemetry {
    tracer: Option<SdkTracerProvider>,
    meter: Option<SdkMeterProvider>,
}

impl std::fmt::Debug for Telemetry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Telemetry")
            .field("traces", &self.tracer.is_some())
            .field("metrics", &self.meter.is_some())
            .finish()
    }
}

/// Which way a signal is exported.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Protocol {
    HttpProtobuf,
    Grpc,
}

/// What the environment asks of one signal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Export {
    Off,
    Otlp(Protocol),
}

/// What the environment asks for, read before anything is built.
#[derive(Debug, PartialEq, Eq)]
struct Plan {
    traces: Export,
    metrics: Export,
    capture_content: bool,
    default_service_name: bool,
}

fn truthy(value: Option<String>) -> bool {
    value.is_some_and(|v| v.trim().eq_ignore_ascii_case("true"))
}

fn set(value: Option<String>) -> Option<String> {
    value.map(|v| v.trim().to_owned()).filter(|v| !v.is_empty())
}

impl Plan {
    fn read(var: &dyn Fn(&str) -> Option<String>) -> Result<Plan, TelemetryError> {
        let disabled = truthy(var("OTEL_SDK_DISABLED"));
        let signal = |exporter: &'static str, endpoint: &str, protocol: &'static str| {
            match set(var(exporter)).map(|v| v.to_ascii_lowercase()).as_deref() {
                None | Some("otlp") => {}
                Some("none") => return Ok(Export::Off),
                Some(other) => {
                    return Err(TelemetryError::Unsupported {
                        variable: exporter,
                        value: other.to_owned(),
                        hint: "tackle exports over OTLP (`otlp`) or not at all (`none`)",
                    });
                }
            }
            if disabled || (set(var(endpoint)).is_none() && set(var("OTEL_EXPORTER_OTLP_ENDPOINT")).is_none())
            {
                return Ok(Export::Off);
            }
            let (variable, value) = match set(var(protocol)) {
                Some(value) => (protocol, Some(value)),
                None => ("OTEL_EXPORTER_OTLP_PROTOCOL", set(var("OTEL_EXPORTER_OTLP_PROTOCOL"))),
            };
            match value.as_deref().map(str::to_ascii_lowercase).as_deref() {
                None | Some("http/protobuf") => Ok(Export::Otlp(Protocol::HttpProtobuf)),
                Some("grpc") => Ok(Export::Otlp(Protocol::Grpc)),
                Some(other) => Err(TelemetryError::Unsupported {
                    variable,
                    value: other.to_owned(),
                    hint: "use `http/protobuf` or `grpc`",
                }),
            }
        };
        let traces = signal(
            "OTEL_TRACES_EXPORTER",
            "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
            "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL",
        )?;
        let metrics = signal(
            "OTEL_METRICS_EXPORTER",
            "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT",
            "OTEL_EXPORTER_OTLP_METRICS_PROTOCOL",
        )?;
        let named = set(var("OTEL_SERVICE_NAME")).is_some()
            || var("OTEL_RESOURCE_ATTRIBUTES").is_some_and(|attributes| {
                attributes.split(',').any(|kv| kv.trim().starts_with("service.name="))
            });
        Ok(Plan {
            traces,
            metrics,
            capture_content: !disabled && truthy(var("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT")),
            default_service_name: !named,
        })
    }
}

/// The OTLP exporter a span or metric exporter builder makes for `protocol`; an error names
/// the signal.
macro_rules! otlp_exporter {
    ($builder:expr, $protocol:expr, $signal:literal) => {
        match $protocol {
            Protocol::HttpProtobuf => {
                use opentelemetry_otlp::WithExportConfig;
                $builder.with_http().with_protocol(opentelemetry_otlp::Protocol::HttpBinary).build()
            }
            Protocol::Grpc => $builder.with_tonic().build(),
        }
        .map_err(|e| TelemetryError::Exporter { signal: $signal, message: e.to_string() })?
    };
}

impl Telemetry {
    /// No exporters: spans go only where other layers send them.
    pub fn off() -> Self {
        Telemetry { tracer: None, meter: None }
    }

    /// The pipeline the `OTEL_*` variables ask for (see the crate documentation). With the
    /// gRPC protocol it must be called inside a Tokio runtime, which must outlive it.
    pub fn from_env() -> Result<Self, TelemetryError> {
        let plan = Plan::read(&|name| std::env::var(name).ok())?;
        tackle_core::telemetry::set_capture_content(plan.capture_content);
        let mut resource = Resource::builder();
        if plan.default_service_name {
            resource = resource.with_service_name("tackle");
        }
        let resource = resource
            .with_attribute(opentelemetry::KeyValue::new("service.version", env!("CARGO_PKG_VERSION")))
            .build();

        let tracer = match plan.traces {
            Export::Off => None,
            Export::Otlp(protocol) => {
                let exporter =
                    otlp_exporter!(opentelemetry_otlp::SpanExporter::builder(), protocol, "traces");
                Some(
                    SdkTracerProvider::builder()
                        .with_batch_exporter(exporter)
                        .with_resource(resource.clone())
                        .build(),
                )
            }
        };
        let meter = match plan.metrics {
            Export::Off => None,
            Export::Otlp(protocol) => {
                let exporter =
                    otlp_exporter!(opentelemetry_otlp::MetricExporter::builder(), protocol, "metrics");
                let provider = SdkMeterProvider::builder()
                    .with_periodic_exporter(exporter)
                    .with_resource(resource)
                    .build();
                opentelemetry::global::set_meter_provider(provider.clone());
                tackle_core::telemetry::set_metrics(true);
                Some(provider)
            }
        };
        if tracer.is_some() {
            opentelemetry::global::set_text_map_propagator(TraceContextPropagator::new());
            tackle_core::telemetry::install(Hooks { current: current_context, adopt: adopt_parent });
        }
        Ok(Telemetry { tracer, meter })
    }

    /// Whether spans are exported.
    pub fn traces(&self) -> bool {
        self.tracer.is_some()
    }

    /// Whether metrics are exported.
    pub fn metrics(&self) -> bool {
        self.meter.is_some()
    }

    /// The `tracing` layer that exports tackle's spans (those of the `tackle*` crates at
    /// `info` and above; no log events), when traces are exported. It filters for itself, so it can sit
    /// beside a log layer with a quieter filter.
    pub fn layer<S>(&self) -> Option<Box<dyn Layer<S> + Send + Sync>>
    where
        S: tracing::Subscriber + for<'a> LookupSpan<'a> + Send + Sync,
    {
        let tracer = self.tracer.as_ref()?.tracer("tackle");
        let layer = tracing_opentelemetry::layer()
            .with_tracer(tracer)
            .with_location(false)
            .with_threads(false)
            .with_level(false)
            .with_target(false)
            .with_tracked_inactivity(false)
            // Spans only: their fields are chosen to carry no content, while log events
            // (an error's full detail, say) are for the local log, not the collector.
            .with_filter(
                Targets::new()
                    .with_target("tackle", tracing::Level::INFO)
                    .and(tracing_subscriber::filter::filter_fn(|metadata| metadata.is_span())),
            );
        Some(Box::new(layer))
    }
}

impl Drop for Telemetry {
    fn drop(&mut self) {
        if let Some(tracer) = self.tracer.take()
            && let Err(error) = tracer.shutdown()
        {
            tracing::warn!("the last spans may not have been exported: {error}");
        }
        if let Some(meter) = self.meter.take()
            && let Err(error) = meter.shutdown()
        {
            tracing::warn!("the last metrics may not have been exported: {error}");
        }
    }
}

/// The trace context of the current span, as a `traceparent` header would carry it.
fn current_context() -> Option<TraceContext> {
    let context = tracing::Span::current().context();
    if !context.span().span_context().is_valid() {
        return None;
    }
    let mut carrier: HashMap<String, String> = HashMap::new();
    TraceContextPropagator::new().inject_context(&context, &mut carrier);
    Some(TraceContext {
        traceparent: carrier.remove("traceparent")?,
        tracestate: carrier.remove("tracestate").filter(|state| !state.is_empty()),
    })
}

/// Makes a remote context the parent of `span`.
fn adopt_parent(span: &tracing::Span, parent: &TraceContext) {
    let mut carrier: HashMap<String, String> = HashMap::new();
    carrier.insert("traceparent".into(), parent.traceparent.clone());
    if let Some(state) = &parent.tracestate {
        carrier.insert("tracestate".into(), state.clone());
    }
    let context = TraceContextPropagator::new().extract(&carrier);
    if context.span().span_context().is_valid() {
        let _ = span.set_parent(context);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(vars: &[(&str, &str)]) -> Result<Plan, TelemetryError> {
        let vars: HashMap<String, String> = vars.iter().map(|(k, v)| ((*k).into(), (*v).into())).collect();
        Plan::read(&|name| vars.get(name).cloned())
    }

    #[test]
    fn nothing_is_exported_without_an_endpoint() {
        let off = plan(&[]).unwrap();
        assert_eq!((off.traces, off.metrics), (Export::Off, Export::Off));
        assert!(!off.capture_content && off.default_service_name);
        let blank = plan(&[("OTEL_EXPORTER_OTLP_ENDPOINT", " ")]).unwrap();
        assert_eq!(blank.traces, Export::Off);
    }

    #[test]
    fn the_standard_variables_choose_signals_and_protocols() {
        let both = plan(&[("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318")]).unwrap();
        assert_eq!(both.traces, Export::Otlp(Protocol::HttpProtobuf));
        assert_eq!(both.metrics, Export::Otlp(Protocol::HttpProtobuf));

        let grpc = plan(&[
            ("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4317"),
            ("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc"),
            ("OTEL_EXPORTER_OTLP_METRICS_PROTOCOL", "HTTP/protobuf"),
            ("OTEL_METRICS_EXPORTER", "otlp"),
        ])
        .unwrap();
        assert_eq!(grpc.traces, Export::Otlp(Protocol::Grpc));
        assert_eq!(grpc.metrics, Export::Otlp(Protocol::HttpProtobuf));

        let traces_only = plan(&[
            ("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "http://127.0.0.1:4318/v1/traces"),
            ("OTEL_SERVICE_NAME", "agents"),
        ])
        .unwrap();
        assert_eq!(
            (traces_only.traces, traces_only.metrics),
            (Export::Otlp(Protocol::HttpProtobuf), Export::Off)
        );
        assert!(!traces_only.default_service_name);

        let no_metrics = plan(&[
            ("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318"),
            ("OTEL_METRICS_EXPORTER", "none"),
            ("OTEL_RESOURCE_ATTRIBUTES", "deployment.environment=prod, service.name=agents"),
            ("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT", "TRUE"),
        ])
        .unwrap();
        assert_eq!(no_metrics.metrics, Export::Off);
        assert!(no_metrics.capture_content && !no_metrics.default_service_name);

        let disabled = plan(&[
            ("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318"),
            ("OTEL_SDK_DISABLED", "true"),
            ("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT", "true"),
        ])
        .unwrap();
        assert_eq!(
            (disabled.traces, disabled.metrics, disabled.capture_content),
            (Export::Off, Export::Off, false)
        );
    }

    #[test]
    fn what_is_not_supported_is_named() {
        let json = plan(&[
            ("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318"),
            ("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "http/json"),
        ])
        .unwrap_err();
        assert_eq!(
            json.to_string(),
            "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL=\"http/json\" is not supported: use `http/protobuf` or `grpc`"
        );
        let zipkin = plan(&[("OTEL_TRACES_EXPORTER", "zipkin")]).unwrap_err();
        assert!(
            zipkin.to_string().starts_with("OTEL_TRACES_EXPORTER=\"zipkin\" is not supported"),
            "{zipkin}"
        );
    }

    #[test]
    fn a_remote_parent_is_adopted_and_passed_on() {
        use tracing_subscriber::layer::SubscriberExt;
        let provider = SdkTracerProvider::builder().build();
        let layer = tracing_opentelemetry::layer().with_tracer(provider.tracer("test"));
        let subscriber = tracing_subscriber::registry().with(layer);
        tracing::subscriber::with_default(subscriber, || {
            let parent = tackle_core::telemetry::parse_traceparent(
                "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            )
            .unwrap();
            let span = tracing::info_span!("invoke_agent");
            adopt_parent(&span, &parent);
            let _entered = span.enter();
            let child = tracing::info_span!("chat");
            let _in_child = child.enter();
            let passed = current_context().unwrap();
            let fields: Vec<&str> = passed.traceparent.split('-').collect();
            assert_eq!(fields[1], "4bf92f3577b34da6a3ce929d0e0e4736");
            assert_ne!(fields[2], "00f067aa0ba902b7", "the child's own span id is passed on");
        });
        // Outside any span there is nothing to pass on.
        assert!(current_context().is_none());
    }
}

//! Telemetry as an operator's collector sees it: a local OTLP receiver (HTTP/protobuf and
//! gRPC) decodes what `tackle run`, `tackle serve` and `tackle mcp serve` export, and the
//! tests check the span tree, the GenAI attributes, the metrics, the trace context passed
//! to providers and MCP servers, and that no key, prompt, argument or result is in any of
//! it unless content capture is asked for.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::Bytes;
use opentelemetry_proto::tonic::collector::metrics::v1::metrics_service_server::{
    MetricsService, MetricsServiceServer,
};
use opentelemetry_proto::tonic::collector::metrics::v1::{
    ExportMetricsServiceRequest, ExportMetricsServiceResponse,
};
use opentelemetry_proto::tonic::collector::trace::v1::trace_service_server::{
    TraceService, TraceServiceServer,
};
use opentelemetry_proto::tonic::collector::trace::v1::{
    ExportTraceServiceRequest, ExportTraceServiceResponse,
};
use opentelemetry_proto::tonic::common::v1::any_value::Value as Any;
use opentelemetry_proto::tonic::common::v1::{AnyValue, KeyValue};
use opentelemetry_proto::tonic::metrics::v1::metric::Data;
use opentelemetry_proto::tonic::trace::v1::Span;
use prost::Message;
use serde_json::json;
use wiremock::MockServer;

use super::{Wire, output, settings, tackle};

/// What a collector received: the decoded requests and their bytes.
#[derive(Clone, Default)]
struct Collector {
    traces: Arc<Mutex<Vec<ExportTraceServiceRequest>>>,
    metrics: Arc<Mutex<Vec<ExportMetricsServiceRequest>>>,
    bytes: Arc<Mutex<Vec<u8>>>,
}

/// One exported span with the `service.name` of the process that sent it.
#[derive(Debug, Clone)]
struct Exported {
    service: String,
    span: Span,
}

impl Exported {
    fn attribute(&self, key: &str) -> Option<String> {
        attribute(&self.span.attributes, key)
    }
}

fn attribute(attributes: &[KeyValue], key: &str) -> Option<String> {
    let value = attributes.iter().find(|kv| kv.key == key)?.value.as_ref()?;
    match value {
        AnyValue { value: Some(Any::StringValue(s)) } => Some(s.clone()),
        AnyValue { value: Some(Any::IntValue(n)) } => Some(n.to_string()),
        AnyValue { value: Some(Any::BoolValue(b)) } => Some(b.to_string()),
        other => Some(format!("{other:?}")),
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

impl Collector {
    /// A collector serving OTLP/HTTP (`/v1/traces`, `/v1/metrics`) on loopback; its base URL.
    async fn http() -> (Collector, String) {
        use axum::routing::post;
        let collector = Collector::default();
        let (traces, metrics) = (collector.clone(), collector.clone());
        let app = axum::Router::new()
            .route(
                "/v1/traces",
                post(move |body: Bytes| async move {
                    let request = ExportTraceServiceRequest::decode(body.as_ref()).expect("OTLP traces");
                    traces.bytes.lock().unwrap().extend_from_slice(&body);
                    traces.traces.lock().unwrap().push(request);
                    (
                        [("content-type", "application/x-protobuf")],
                        ExportTraceServiceResponse::default().encode_to_vec(),
                    )
                }),
            )
            .route(
                "/v1/metrics",
                post(move |body: Bytes| async move {
                    let request = ExportMetricsServiceRequest::decode(body.as_ref()).expect("OTLP metrics");
                    metrics.bytes.lock().unwrap().extend_from_slice(&body);
                    metrics.metrics.lock().unwrap().push(request);
                    (
                        [("content-type", "application/x-protobuf")],
                        ExportMetricsServiceResponse::default().encode_to_vec(),
                    )
                }),
            );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, app).await });
        (collector, url)
    }

    /// A collector serving OTLP/gRPC on loopback; its URL.
    async fn grpc() -> (Collector, String) {
        let collector = Collector::default();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let server = tonic::transport::Server::builder()
            .add_service(TraceServiceServer::new(collector.clone()))
            .add_service(MetricsServiceServer::new(collector.clone()))
            .serve_with_incoming(tokio_stream::wrappers::TcpListenerStream::new(listener));
        tokio::spawn(server);
        (collector, url)
    }

    fn spans(&self) -> Vec<Exported> {
        let mut out = Vec::new();
        for request in self.traces.lock().unwrap().iter() {
            for resource in &request.resource_spans {
                let service = resource
                    .resource
                    .as_ref()
                    .and_then(|r| attribute(&r.attributes, "service.name"))
                    .unwrap_or_default();
                for scope in &resource.scope_spans {
                    for span in &scope.spans {
                        out.push(Exported { service: service.clone(), span: span.clone() });
                    }
                }
            }
        }
        out
    }

    /// Metric name → the attribute sets of its data points, over every export.
    fn metric_points(&self) -> std::collections::BTreeMap<String, Vec<Vec<(String, String)>>> {
        let mut out: std::collections::BTreeMap<String, Vec<Vec<(String, String)>>> = Default::default();
        for request in self.metrics.lock().unwrap().iter() {
            for resource in &request.resource_metrics {
                for scope in &resource.scope_metrics {
                    for metric in &scope.metrics {
                        let attributes: Vec<&Vec<KeyValue>> = match &metric.data {
                            Some(Data::Histogram(h)) => h.data_points.iter().map(|p| &p.attributes).collect(),
                            Some(Data::Sum(s)) => s.data_points.iter().map(|p| &p.attributes).collect(),
                            _ => Vec::new(),
                        };
                        let entry = out.entry(metric.name.clone()).or_default();
                        for set in attributes {
                            let mut pairs: Vec<(String, String)> = set
                                .iter()
                                .map(|kv| {
                                    (kv.key.clone(), attribute(std::slice::from_ref(kv), &kv.key).unwrap())
                                })
                                .collect();
                            pairs.sort();
                            entry.push(pairs);
                        }
                    }
                }
            }
        }
        out
    }

    /// Waits (at most 20 s) until `done` says what arrived is enough.
    async fn wait_for(&self, what: &str, done: impl Fn(&Collector) -> bool) {
        for _ in 0..200 {
            if done(self) {
                return;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("the collector never received {what}: {:#?}", self.spans());
    }

    /// Whether `needle` is anywhere in what was exported.
    fn saw(&self, needle: &str) -> bool {
        let bytes = self.bytes.lock().unwrap();
        bytes.windows(needle.len()).any(|w| w == needle.as_bytes())
    }
}

#[tonic::async_trait]
impl TraceService for Collector {
    async fn export(
        &self,
        request: tonic::Request<ExportTraceServiceRequest>,
    ) -> Result<tonic::Response<ExportTraceServiceResponse>, tonic::Status> {
        let request = request.into_inner();
        self.bytes.lock().unwrap().extend_from_slice(&request.encode_to_vec());
        self.traces.lock().unwrap().push(request);
        Ok(tonic::Response::new(ExportTraceServiceResponse::default()))
    }
}

#[tonic::async_trait]
impl MetricsService for Collector {
    async fn export(
        &self,
        request: tonic::Request<ExportMetricsServiceRequest>,
    ) -> Result<tonic::Response<ExportMetricsServiceResponse>, tonic::Status> {
        let request = request.into_inner();
        self.bytes.lock().unwrap().extend_from_slice(&request.encode_to_vec());
        self.metrics.lock().unwrap().push(request);
        Ok(tonic::Response::new(ExportMetricsServiceResponse::default()))
    }
}

fn named<'a>(spans: &'a [Exported], name: &str) -> Vec<&'a Exported> {
    spans.iter().filter(|s| s.span.name == name).collect()
}

/// A search call, then an answer; the search service is the provider's mock too.
async fn search_then_answer(server: &MockServer, wire: Wire) {
    wiremock::Mock::given(wiremock::matchers::path("/search"))
        .respond_with(wiremock::ResponseTemplate::new(200).set_body_json(json!({
            "query": "rivers",
            "results": [{"url": "https://example.org/meanders", "title": "Meanders", "content": "Rivers carve valleys slowly."}]
        })))
        .mount(server)
        .await;
    wire.mount(
        server,
        vec![
            wire.turn("", &[("call_1", "web_search", json!({"query": "rivers"}))]),
            wire.turn("Valleys come from rivers.", &[]),
        ],
    )
    .await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_cli_run_exports_its_span_tree_and_metrics_over_otlp_http_without_content() {
    let (collector, endpoint) = Collector::http().await;
    let server = MockServer::start().await;
    let wire = Wire::Chat;
    search_then_answer(&server, wire).await;
    let dir = tempfile::tempdir().unwrap();
    let extra = format!("[tools.web_search]\nsearxng_url = \"{}\"\n", server.uri());
    let config = settings(dir.path(), wire, &server, &extra);

    let mut command = tackle(&config);
    command.env("OTEL_EXPORTER_OTLP_ENDPOINT", &endpoint).args(["run", "Search rivers for me."]);
    let (code, stdout, stderr) = output(command).await;
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout, "Valleys come from rivers.\n");
    // The exit flushed everything: no waiting.
    let spans = collector.spans();

    let runs = named(&spans, "invoke_agent tackle");
    assert_eq!(runs.len(), 1, "{spans:#?}");
    let run = runs[0];
    assert_eq!(run.service, "tackle");
    assert_eq!(run.attribute("gen_ai.operation.name").as_deref(), Some("invoke_agent"));
    assert!(run.span.parent_span_id.is_empty(), "a CLI run starts its own trace");
    let chats = named(&spans, "chat test-model");
    assert_eq!(chats.len(), 2, "{spans:#?}");
    for chat in &chats {
        assert_eq!(chat.span.trace_id, run.span.trace_id);
        assert_eq!(chat.span.parent_span_id, run.span.span_id);
        assert_eq!(chat.span.kind, 3, "a client span");
        assert_eq!(chat.attribute("gen_ai.operation.name").as_deref(), Some("chat"));
        assert_eq!(chat.attribute("gen_ai.provider.name").as_deref(), Some("openai"));
        assert_eq!(chat.attribute("gen_ai.request.model").as_deref(), Some("test-model"));
        assert!(chat.attribute("gen_ai.usage.input_tokens").is_some(), "{chat:?}");
    }
    let tools = named(&spans, "execute_tool web_search");
    assert_eq!(tools.len(), 1, "{spans:#?}");
    let tool = tools[0];
    assert_eq!(tool.span.parent_span_id, run.span.span_id);
    assert_eq!(tool.attribute("gen_ai.tool.name").as_deref(), Some("web_search"));
    assert_eq!(tool.attribute("gen_ai.tool.call.id").as_deref(), Some("call_1"));
    assert_eq!(tool.attribute("gen_ai.tool.call.arguments"), None);

    // Each provider request carried its round's trace context; the search service, a third
    // party, got none.
    let requests = server.received_requests().await.unwrap();
    let parents: Vec<String> = requests
        .iter()
        .filter(|r| r.url.path() == "/v1/chat/completions")
        .map(|r| r.headers.get("traceparent").expect("a traceparent").to_str().unwrap().to_owned())
        .collect();
    let expected: Vec<String> =
        chats.iter().map(|c| format!("00-{}-{}-01", hex(&c.span.trace_id), hex(&c.span.span_id))).collect();
    assert_eq!(parents, expected);
    assert!(
        requests.iter().filter(|r| r.url.path() == "/search").all(|r| r.headers.get("traceparent").is_none())
    );

    // Metrics, flushed at exit.
    let points = collector.metric_points();
    let tokens = &points["gen_ai.client.token.usage"];
    assert!(
        tokens.iter().any(|p| p.contains(&("gen_ai.token.type".into(), "input".into()))
            && p.contains(&("gen_ai.request.model".into(), "test-model".into()))),
        "{points:#?}"
    );
    assert!(points.contains_key("gen_ai.client.operation.duration"), "{points:#?}");
    assert_eq!(
        points["tackle.tool.calls"],
        [vec![("gen_ai.tool.name".to_owned(), "web_search".to_owned()), ("status".into(), "ok".into())]]
    );
    assert!(points.contains_key("tackle.tool.call.duration"), "{points:#?}");

    // Neither the key, the prompt, the arguments, the result nor the answer.
    for private in ["sk-test-key", "Search rivers", "rivers", "valleys", "Meanders"] {
        assert!(!collector.saw(private), "{private:?} was exported");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_served_run_joins_the_callers_trace_and_exports_over_grpc() {
    let (collector, endpoint) = Collector::grpc().await;
    let server = MockServer::start().await;
    let wire = Wire::Chat;
    search_then_answer(&server, wire).await;
    let dir = tempfile::tempdir().unwrap();
    let extra = format!("[tools.web_search]\nsearxng_url = \"{}\"\n", server.uri());
    let config = settings(dir.path(), wire, &server, &extra);
    let mut create = tackle(&config);
    create.args(["serve", "token", "create", "--org", "acme", "--user", "alice"]);
    let (code, token, stderr) = output(create).await;
    assert_eq!(code, 0, "{stderr}");
    let token = token.trim().to_owned();

    let mut serve = super::tackle_process(&config);
    serve
        .env("OTEL_EXPORTER_OTLP_ENDPOINT", &endpoint)
        .env("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc")
        .env("OTEL_SERVICE_NAME", "tackle-server")
        .env("OTEL_BSP_SCHEDULE_DELAY", "100")
        .env("OTEL_METRIC_EXPORT_INTERVAL", "300")
        .env("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT", "true");
    let (mut child, url) = super::serve::serve_with(serve, &["--workers", "2"]).await;

    let caller_trace = "0af7651916cd43dd8448eb211c80319c";
    let caller_span = "b7ad6b7169203331";
    let http = reqwest::Client::new();
    let created: serde_json::Value = http
        .post(format!("{url}/v1/runs"))
        .bearer_auth(&token)
        .header("traceparent", format!("00-{caller_trace}-{caller_span}-01"))
        .json(&json!({"prompt": "Search rivers for me."}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let id = created["id"].as_str().unwrap().to_owned();
    collector.wait_for("the run's spans", |c| named(&c.spans(), "chat test-model").len() == 2).await;
    collector.wait_for("the tool-call metric", |c| c.metric_points().contains_key("tackle.tool.calls")).await;
    let _ = std::process::Command::new("kill").args(["-INT", &child.id().to_string()]).status();
    let _ = tokio::task::spawn_blocking(move || child.wait()).await;

    let spans = collector.spans();
    let run = named(&spans, "invoke_agent tackle")[0];
    assert_eq!(run.service, "tackle-server");
    assert_eq!(hex(&run.span.trace_id), caller_trace, "the run joined the caller's trace");
    assert_eq!(hex(&run.span.parent_span_id), caller_span);
    assert_eq!(run.attribute("gen_ai.conversation.id").as_deref(), Some(id.as_str()));
    let tool = named(&spans, "execute_tool web_search")[0];
    assert_eq!(tool.span.parent_span_id, run.span.span_id);
    // The operator asked for content: the arguments and the result are there.
    assert_eq!(tool.attribute("gen_ai.tool.call.arguments").as_deref(), Some(r#"{"query":"rivers"}"#));
    assert!(tool.attribute("gen_ai.tool.call.result").unwrap().contains("Rivers carve valleys"), "{tool:?}");
    // Never the provider key or the caller's token.
    assert!(!collector.saw("sk-test-key"));
    assert!(!collector.saw(&token));
}

#[tokio::test(flavor = "multi_thread")]
async fn an_mcp_call_carries_the_trace_into_the_server_that_runs_it() {
    let (collector, endpoint) = Collector::http().await;
    let server = MockServer::start().await;
    let wire = Wire::Chat;
    wire.mount(
        &server,
        vec![
            wire.turn("", &[("call_1", "tk_read_file", json!({"path": "notes.txt"}))]),
            wire.turn("It says hello.", &[]),
        ],
    )
    .await;
    let dir = tempfile::tempdir().unwrap();
    // The MCP server: `tackle mcp serve` with a project of its own, exporting as `tackle-mcp`.
    let project = dir.path().join("project");
    std::fs::create_dir_all(&project).unwrap();
    std::fs::write(project.join("notes.txt"), "hello\n").unwrap();
    let served = dir.path().join("served");
    std::fs::create_dir_all(&served).unwrap();
    let served_config = settings(&served, wire, &server, &format!("[env]\nroot = \"{}\"", project.display()));
    let binary = assert_cmd::cargo::cargo_bin("tackle").display().to_string();
    let extra = format!(
        "[mcp.servers.tk]\ncommand = \"{binary}\"\nargs = [\"mcp\", \"serve\", \"--stdio\"]\ntrusted = true\n\
         env = {{ TACKLE_CONFIG = \"{}\", TACKLE_DATA_DIR = \"{}\", TACKLE_LOOPBACK_ONLY = \"1\", \
         OTEL_EXPORTER_OTLP_ENDPOINT = \"{endpoint}\", OTEL_SERVICE_NAME = \"tackle-mcp\", \
         OTEL_BSP_SCHEDULE_DELAY = \"50\" }}\n",
        served_config.display(),
        served.join("data").display(),
    );
    let config = settings(dir.path(), wire, &server, &extra);

    let mut command = tackle(&config);
    command.env("OTEL_EXPORTER_OTLP_ENDPOINT", &endpoint).args(["run", "What do my notes say?"]);
    let (code, stdout, stderr) = output(command).await;
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout, "It says hello.\n");
    collector
        .wait_for("the MCP server's spans", |c| c.spans().iter().any(|s| s.service == "tackle-mcp"))
        .await;

    let spans = collector.spans();
    let call = named(&spans, "execute_tool tk_read_file")[0];
    assert_eq!(call.service, "tackle");
    let served = named(&spans, "tools/call read_file");
    let served = served.first().unwrap_or_else(|| panic!("{spans:#?}"));
    assert_eq!(served.service, "tackle-mcp");
    assert_eq!(served.span.kind, 2, "a server span");
    assert_eq!(served.span.trace_id, call.span.trace_id, "one trace across both processes");
    assert_eq!(served.span.parent_span_id, call.span.span_id);
    let inner = named(&spans, "execute_tool read_file")[0];
    assert_eq!(inner.span.parent_span_id, served.span.span_id);
    assert!(!collector.saw("hello"), "no result without content capture");
}

//! A modern-era server that asks during a call (`input_required`, SEP-2322): the question
//! becomes the call's input request, the answer goes back with the server's own request
//! state, requests tackle can answer alone (`roots/list`) are answered without the user, and
//! one request after another is asked in turn; and a call abandoned at its deadline is
//! cancelled on the server.
#![allow(clippy::unwrap_used, missing_docs)]

use std::sync::{Arc, Mutex};

use rmcp::ServerHandler;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorData, InitializeResult,
    InputRequiredResult, ListToolsResult, PaginatedRequestParams, ServerCapabilities, Tool,
};
use rmcp::service::{RequestContext, RoleServer};
use serde_json::{Value, json};
use tackle_core::{InputAction, InputResponse, ResumedInput};
use tackle_mcp::{Called, Era, McpServer, ServerConfig};

/// Books a table: asks for the party size and the time (two questions in one round, with a
/// `roots/list` request beside them), then answers with what it was told.
#[derive(Clone, Default)]
struct Booking {
    seen: Arc<Mutex<Vec<Value>>>,
    cancelled: Arc<tokio::sync::Notify>,
}

fn form(message: &str, field: &str, kind: &str) -> Value {
    json!({"method": "elicitation/create", "params": {"mode": "form", "message": message,
        "requestedSchema": {"type": "object", "properties": {field: {"type": kind}}, "required": [field]}}})
}

impl ServerHandler for Booking {
    fn get_info(&self) -> InitializeResult {
        InitializeResult::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let schema = Arc::new(json!({"type": "object"}).as_object().unwrap().clone());
        Ok(ListToolsResult::with_all_items(vec![
            Tool::new("book", "Book a table.", schema.clone()),
            Tool::new("wait", "Wait for ever.", schema),
        ]))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if request.name == "wait" {
            context.ct.cancelled().await;
            self.cancelled.notify_one();
            return Err(ErrorData::internal_error("cancelled", None));
        }
        self.seen.lock().unwrap().push(json!({
            "responses": request.input_responses,
            "state": request.request_state,
        }));
        let Some(responses) = request.input_responses else {
            let requests = serde_json::from_value(json!({
                "size": form("How many people?", "size", "integer"),
                "time": form("At what time?", "time", "string"),
                "roots": {"method": "roots/list", "params": {}},
            }))
            .unwrap();
            return Ok(InputRequiredResult::new(Some(requests), Some("sealed-1".into())).into());
        };
        if request.request_state.as_deref() != Some("sealed-1") {
            return Err(ErrorData::invalid_params("the request state was not echoed", None));
        }
        let text = match (&responses["size"]["action"], &responses["time"]["action"]) {
            (Value::String(a), Value::String(b)) if a == "accept" && b == "accept" => format!(
                "booked for {} at {}",
                responses["size"]["content"]["size"], responses["time"]["content"]["time"]
            ),
            (a, b) => format!("not booked: {a} / {b}"),
        };
        Ok(CallToolResult::success(vec![ContentBlock::text(text)]).into())
    }
}

async fn booking_server() -> (Arc<McpServer>, Booking) {
    booking_server_with(std::time::Duration::from_secs(60)).await
}

async fn booking_server_with(call_timeout: std::time::Duration) -> (Arc<McpServer>, Booking) {
    use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
    use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
    let booking = Booking::default();
    let handler = booking.clone();
    let service = StreamableHttpService::new(
        move || Ok(handler.clone()),
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default(),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    tokio::spawn(
        async move { axum::serve(listener, axum::Router::new().nest_service("/mcp", service)).await },
    );
    let mut config = ServerConfig::http("booking", url);
    config.call_timeout = call_timeout;
    let server = McpServer::connect(config).await.unwrap();
    (server, booking)
}

fn accept(content: Value) -> InputResponse {
    InputResponse::accept(content.as_object().unwrap().clone())
}

/// The state a question carries, as a store keeps it across a restart.
fn restarted(request: tackle_core::InputRequest) -> tackle_core::InputRequest {
    serde_json::from_str(&serde_json::to_string(&request).unwrap()).unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn each_question_of_a_round_is_asked_in_turn_and_the_answers_go_back_together() {
    let (server, booking) = booking_server().await;
    assert_eq!(server.era(), Era::Modern);
    let call = |resumed: Option<ResumedInput>| {
        let server = server.clone();
        async move { server.call("book", serde_json::Map::new(), None, resumed.as_ref()).await.unwrap() }
    };
    let Called::Asks(first) = call(None).await else { panic!("a question expected") };
    assert!(first.message.ends_with("asks: How many people?"), "{first:?}");
    let resumed = ResumedInput { request: restarted(first), response: accept(json!({"size": 4})) };
    let Called::Asks(second) = call(Some(resumed)).await else { panic!("the second question expected") };
    assert!(second.message.ends_with("asks: At what time?"), "{second:?}");
    // Asking the second question did not call the server again.
    assert_eq!(booking.seen.lock().unwrap().len(), 1);
    let resumed = ResumedInput { request: restarted(second), response: accept(json!({"time": "19:30"})) };
    let Called::Done(result) = call(Some(resumed)).await else { panic!("the result expected") };
    let text = serde_json::to_value(&result.content).unwrap()[0]["text"].clone();
    assert_eq!(text, json!("booked for 4 at \"19:30\""));
    let seen = booking.seen.lock().unwrap().clone();
    assert_eq!(seen.len(), 2);
    assert_eq!(seen[1]["state"], json!("sealed-1"));
    assert_eq!(seen[1]["responses"]["roots"], json!({"roots": []}), "roots answered without the user");
    assert_eq!(seen[1]["responses"]["size"], json!({"action": "accept", "content": {"size": 4}}));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_declined_question_is_the_servers_to_hear() {
    let (server, _booking) = booking_server().await;
    let Called::Asks(first) = server.call("book", serde_json::Map::new(), None, None).await.unwrap() else {
        panic!("a question expected")
    };
    let declined = InputResponse { action: InputAction::Decline, content: None };
    let resumed = ResumedInput { request: first, response: declined };
    let Called::Asks(second) =
        server.call("book", serde_json::Map::new(), None, Some(&resumed)).await.unwrap()
    else {
        panic!("the second question expected")
    };
    let cancelled = InputResponse { action: InputAction::Cancel, content: None };
    let resumed = ResumedInput { request: second, response: cancelled };
    let Called::Done(result) =
        server.call("book", serde_json::Map::new(), None, Some(&resumed)).await.unwrap()
    else {
        panic!("the result expected")
    };
    let text = serde_json::to_value(&result.content).unwrap()[0]["text"].clone();
    assert_eq!(text, json!("not booked: \"decline\" / \"cancel\""));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_question_state_that_was_tampered_with_fails_clearly() {
    let (server, _booking) = booking_server().await;
    let Called::Asks(mut first) = server.call("book", serde_json::Map::new(), None, None).await.unwrap()
    else {
        panic!("a question expected")
    };
    first.state = json!("not a state");
    let resumed = ResumedInput { request: first, response: accept(json!({"size": 2})) };
    let err = server.call("book", serde_json::Map::new(), None, Some(&resumed)).await.unwrap_err();
    assert!(err.to_string().contains("state cannot be read"), "{err}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_call_abandoned_at_its_deadline_is_cancelled_on_the_server() {
    let (server, booking) = booking_server_with(std::time::Duration::from_millis(300)).await;
    let err = server.call("wait", serde_json::Map::new(), None, None).await.unwrap_err();
    assert!(matches!(err, tackle_mcp::McpError::Timeout { .. }), "{err}");
    tokio::time::timeout(std::time::Duration::from_secs(5), booking.cancelled.notified())
        .await
        .expect("the server heard notifications/cancelled");
}

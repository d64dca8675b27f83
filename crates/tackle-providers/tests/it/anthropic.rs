use std::sync::Arc;

use proptest::prelude::*;
use serde_json::{Value, json};
use tackle_core::{
    AssistantPart, AssistantTurn, FinishReason, Message, ModelErrorKind, ModelEvent, ModelRequest,
    ModelSettings, ProviderData, Thinking, ToolCall, ToolChoice, ToolReturnPart, ToolStatus,
};
use tackle_providers::Anthropic;
use tackle_providers::anthropic::{decode_response, decode_stream};
use wiremock::matchers::{header, method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

use super::{Script, settings, test_client, weather_tool};

const TEXT_THEN_TOOL: &str = include_str!("fixtures/anthropic_text_then_tool.sse");
const THINKING_PARALLEL: &str = include_str!("fixtures/anthropic_thinking_parallel.sse");

fn model() -> Anthropic {
    Anthropic::with_key("claude-test", tackle_core::Secret::new("sk-ant-test")).unwrap().client(test_client())
}

fn body(messages: &[Message], tools: &[Arc<tackle_core::ToolDefinition>], settings: &ModelSettings) -> Value {
    model().request_body(&ModelRequest::new("Be brief.", messages, tools, settings)).unwrap()
}

fn thinking_turn() -> AssistantTurn {
    AssistantTurn {
        parts: vec![
            AssistantPart::Thinking(Thinking {
                text: "both at once".into(),
                redacted: false,
                provider_data: Some(ProviderData::new("anthropic", json!({"signature": "c2lnLTE="}))),
            }),
            AssistantPart::Thinking(Thinking {
                text: String::new(),
                redacted: true,
                provider_data: Some(ProviderData::new("anthropic", json!({"data": "ZW5jcnlwdGVk"}))),
            }),
            AssistantPart::ToolCall(ToolCall::new("toolu_1", "get_weather", json!({"city": "Oslo"}))),
            AssistantPart::ToolCall(ToolCall::new("toolu_2", "get_weather", json!({"city": "Rome"}))),
        ],
        ..AssistantTurn::default()
    }
}

fn results(statuses: [(ToolStatus, &str); 2]) -> Message {
    Message::tool_returns(statuses.iter().enumerate().map(|(i, (status, content))| ToolReturnPart {
        call_id: format!("toolu_{}", i + 1),
        tool_name: "get_weather".into(),
        content: (*content).into(),
        status: *status,
        attachments: Vec::new(),
    }))
}

#[test]
fn request_shapes() {
    let plain = [Message::user("Hi there")];
    insta::assert_json_snapshot!("anthropic_plain_text", body(&plain, &[], &settings()));

    let tools = [weather_tool(Some(true))];
    let parallel = [
        Message::user("Weather in Oslo and Rome?"),
        Message::Assistant(thinking_turn()),
        results([(ToolStatus::Ok, "3 degrees"), (ToolStatus::Ok, "18 degrees")]),
    ];
    let one_at_a_time = settings().parallel_tool_calls(Some(false));
    insta::assert_json_snapshot!(
        "anthropic_thinking_and_two_parallel_calls",
        body(&parallel, &tools, &one_at_a_time)
    );

    let failed = [
        Message::user("Weather?"),
        Message::Assistant(thinking_turn()),
        results([
            (ToolStatus::Failed, "Tool execution failed: upstream timeout"),
            (ToolStatus::Blocked, "The call was blocked: not allowed here"),
        ]),
    ];
    let required = settings().tool_choice(ToolChoice::Required);
    insta::assert_json_snapshot!("anthropic_failed_and_blocked_results", body(&failed, &tools, &required));
}

#[test]
fn a_turn_from_another_provider_drops_unsigned_thinking() {
    let turn = AssistantTurn {
        parts: vec![
            AssistantPart::Thinking(Thinking { text: "from elsewhere".into(), ..Thinking::default() }),
            AssistantPart::Text("ok".into()),
        ],
        ..AssistantTurn::default()
    };
    let sent = body(&[Message::user("?"), Message::Assistant(turn)], &[], &settings());
    assert_eq!(sent["messages"][1]["content"], json!([{"type": "text", "text": "ok"}]));
}

#[test]
fn the_documented_streams_decode() {
    let (events, response) = decode_stream([TEXT_THEN_TOOL.as_bytes()]).unwrap();
    let turn = &response.turn;
    assert_eq!(turn.joined_text(), "Okay, let's check the weather for San Francisco, CA:");
    let call = turn.tool_calls().next().unwrap();
    assert_eq!(call.id, "toolu_01T1x1fJ34qAmk2tNTrN7Up6");
    assert_eq!(call.arguments.as_object().unwrap()["unit"], "fahrenheit");
    assert_eq!(turn.finish_reason, Some(FinishReason::ToolCalls));
    assert_eq!(turn.usage.input_tokens, 472);
    assert_eq!(turn.usage.output_tokens, 89);
    assert!(events.iter().any(|e| matches!(e, ModelEvent::TextDelta(t) if t == " Francisco")));

    let (_, response) = decode_stream([THINKING_PARALLEL.as_bytes()]).unwrap();
    let turn = &response.turn;
    let AssistantPart::Thinking(thinking) = &turn.parts[0] else { panic!("thinking first") };
    assert_eq!(thinking.provider_data.as_ref().unwrap().data["signature"], "EsECCokBCBAYAipA…");
    assert_eq!(turn.tool_calls().count(), 2);
    // Replayed exactly as received.
    let stored = &turn.provider_data.as_ref().unwrap().data["content"];
    assert_eq!(
        stored[0],
        json!({"type": "thinking", "thinking": "I need weather and time for SF; both tools can run at once.", "signature": "EsECCokBCBAYAipA…"})
    );
    assert_eq!(stored[2]["input"], json!({"timezone": "America/Los_Angeles"}));
    let replayed = body(&[Message::user("?"), Message::Assistant(turn.clone())], &[], &settings());
    assert_eq!(&replayed["messages"][1]["content"], stored);
}

#[test]
fn a_whole_response_decodes_through_the_same_code() {
    let whole = json!({
        "model": "claude-sonnet-4-6", "id": "msg_011CfWBu94HWxZXjXK6ZhEXM", "type": "message", "role": "assistant",
        "content": [
            {"type": "thinking", "thinking": "The user wants me to call checkSandboxErrors immediately.", "signature": "Eq4CCpIBCBIYAipAM+SGYGx7…GAE="},
            {"type": "tool_use", "id": "toolu_017R7ACrx7NF7sLDDtvdQ1u9", "name": "checkSandboxErrors", "input": {}, "caller": {"type": "direct"}}
        ],
        "container": null, "stop_reason": "tool_use", "stop_sequence": null, "stop_details": null,
        "usage": {"input_tokens": 599, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0, "output_tokens": 59,
                  "output_tokens_details": {"thinking_tokens": 18}, "service_tier": "standard", "inference_geo": "global"}
    });
    let (_, response) = decode_response(whole.to_string().as_bytes()).unwrap();
    let turn = &response.turn;
    let call = turn.tool_calls().next().unwrap();
    assert_eq!(call.name, "checkSandboxErrors");
    assert!(call.arguments.as_object().unwrap().is_empty());
    assert_eq!(turn.usage.input_tokens, 599);
    let stored = &turn.provider_data.as_ref().unwrap().data["content"];
    assert_eq!(stored[1]["caller"], json!({"type": "direct"}), "unknown fields survive for replay");
}

#[test]
fn stream_errors_and_cuts() {
    let overloaded = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":5}}}\n\nevent: error\ndata: {\"type\": \"error\", \"error\": {\"type\": \"overloaded_error\", \"message\": \"Overloaded\"}}\n\n";
    let err = decode_stream([overloaded.as_bytes()]).unwrap_err();
    assert_eq!(err.kind, ModelErrorKind::Overloaded);
    let cut = TEXT_THEN_TOOL.split("event: message_delta").next().unwrap();
    let err = decode_stream([cut.as_bytes()]).unwrap_err();
    assert!(err.message.contains("cut off"), "{}", err.message);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Any split of the documented stream gives the same turn.
    #[test]
    fn any_split_gives_the_same_turn(cuts in prop::collection::vec(0usize..THINKING_PARALLEL.len(), 0..40)) {
        let bytes = THINKING_PARALLEL.as_bytes();
        let chunks = super::split_at(bytes, cuts);
        let (_, split) = decode_stream(chunks).unwrap();
        let (_, whole) = decode_stream([bytes]).unwrap();
        prop_assert_eq!(split.turn, whole.turn);
    }
}

fn sse(events: &[Value]) -> ResponseTemplate {
    let body: String = events
        .iter()
        .map(|e| format!("event: {}\ndata: {e}\n\n", e["type"].as_str().unwrap_or("message")))
        .collect();
    ResponseTemplate::new(200).insert_header("content-type", "text/event-stream").set_body_string(body)
}

#[tokio::test]
async fn a_full_harness_round_trip_over_http() {
    let server = MockServer::start().await;
    let first = sse(&[
        json!({"type": "message_start", "message": {"model": "claude-test", "usage": {"input_tokens": 40, "output_tokens": 1}}}),
        json!({"type": "content_block_start", "index": 0, "content_block": {"type": "thinking", "thinking": "", "signature": ""}}),
        json!({"type": "content_block_delta", "index": 0, "delta": {"type": "thinking_delta", "thinking": "add them"}}),
        json!({"type": "content_block_delta", "index": 0, "delta": {"type": "signature_delta", "signature": "U0lH"}}),
        json!({"type": "content_block_stop", "index": 0}),
        json!({"type": "content_block_start", "index": 1, "content_block": {"type": "tool_use", "id": "toolu_a", "name": "add", "input": {}}}),
        json!({"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": "{\"a\": 2, "}}),
        json!({"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": "\"b\": 40}"}}),
        json!({"type": "content_block_stop", "index": 1}),
        json!({"type": "content_block_start", "index": 2, "content_block": {"type": "tool_use", "id": "toolu_b", "name": "add", "input": {}}}),
        json!({"type": "content_block_delta", "index": 2, "delta": {"type": "input_json_delta", "partial_json": "{\"a\": \"x\", \"b\": 1}"}}),
        json!({"type": "content_block_stop", "index": 2}),
        json!({"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {"output_tokens": 30}}),
        json!({"type": "message_stop"}),
    ]);
    let second = sse(&[
        json!({"type": "message_start", "message": {"usage": {"input_tokens": 90, "cache_read_input_tokens": 20}}}),
        json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
        json!({"type": "ping"}),
        json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "It is 42."}}),
        json!({"type": "content_block_stop", "index": 0}),
        json!({"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 5}}),
        json!({"type": "message_stop"}),
    ]);
    Mock::given(method("POST"))
        .and(path("/v1/messages"))
        .and(header("anthropic-version", "2023-06-01"))
        .and(header("x-api-key", "sk-ant-test"))
        .respond_with(Script::new(vec![first.clone(), second]))
        .expect(2)
        .mount(&server)
        .await;

    super::deltas_only_when_wanted(first, |url| model().base_url(url).unwrap()).await;
    let model = model().base_url(&format!("{}/v1", server.uri())).unwrap();
    let answer = super::add_round_trip(&model).await;
    assert_eq!(answer.text, "It is 42.");
    assert_eq!(answer.usage.input_tokens, 40 + 110);

    let requests = server.received_requests().await.unwrap();
    let second: Value = serde_json::from_slice(&requests[1].body).unwrap();
    assert_eq!(second["system"], "Be brief.");
    let messages = second["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 3);
    assert_eq!(
        messages[1]["content"][0],
        json!({"type": "thinking", "thinking": "add them", "signature": "U0lH"})
    );
    assert_eq!(messages[1]["content"][1]["input"], json!({"a": 2, "b": 40}));
    // All results of the round in ONE user message, the failed one flagged.
    assert_eq!(messages[2]["role"], "user");
    let results = messages[2]["content"].as_array().unwrap();
    assert_eq!(results.len(), 2);
    assert_eq!(results[0], json!({"type": "tool_result", "tool_use_id": "toolu_a", "content": "42"}));
    assert_eq!(results[1]["tool_use_id"], "toolu_b");
    assert_eq!(results[1]["is_error"], true);
}

#[tokio::test]
async fn overloaded_is_retried_then_reported() {
    let server = MockServer::start().await;
    let overloaded = || {
        ResponseTemplate::new(529).set_body_json(
            json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}),
        )
    };
    Mock::given(method("POST"))
        .respond_with(Script::new(vec![overloaded(), overloaded(), overloaded()]))
        .expect(3)
        .mount(&server)
        .await;
    let model = model().base_url(&format!("{}/v1", server.uri())).unwrap();
    let messages = [Message::user("hi")];
    let settings = settings();
    let request = ModelRequest::new("", &messages, &[], &settings);
    use futures_util::StreamExt;
    use tackle_core::Model;
    let first = model.stream(request).next().await.unwrap().unwrap_err();
    assert_eq!(first.kind, ModelErrorKind::Overloaded);
    assert_eq!(first.message, "HTTP 529: Overloaded");
}

#[test]
fn extended_thinking_asks_with_an_automatic_tool_choice() {
    let thinking = model().thinking(2048);
    let messages = [Message::user("?")];
    let tools = [weather_tool(None)];
    let forced = settings().tool_choice(ToolChoice::Tool("get_weather".into()));
    let sent = thinking.request_body(&ModelRequest::new("", &messages, &tools, &forced)).unwrap();
    assert_eq!(sent["tool_choice"], json!({"type": "auto"}));
    assert_eq!(sent["thinking"], json!({"type": "enabled", "budget_tokens": 2048}));
    let plain = body(&messages, &tools, &forced);
    assert_eq!(plain["tool_choice"], json!({"type": "tool", "name": "get_weather"}));
}

/// An image that comes with a tool result goes beside its text as an image block.
#[test]
fn images_go_with_tool_results() {
    let mut returns = results([(ToolStatus::Ok, "[image: image/png, 4 bytes]"), (ToolStatus::Ok, "15")]);
    if let Message::User { parts } = &mut returns
        && let Some(tackle_core::UserPart::ToolReturn(first)) = parts.first_mut()
    {
        first.attachments.push(tackle_core::Attachment::image("image/png", "iVBORw=="));
    }
    let history = [Message::user("Show me."), Message::Assistant(thinking_turn()), returns];
    let sent = body(&history, &[weather_tool(None)], &settings());
    let content = &sent["messages"][2]["content"];
    assert_eq!(
        content[0]["content"],
        json!([
            {"type": "text", "text": "[image: image/png, 4 bytes]"},
            {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw=="}}
        ])
    );
    assert_eq!(content[1]["content"], json!("15"), "results without images stay text");
}

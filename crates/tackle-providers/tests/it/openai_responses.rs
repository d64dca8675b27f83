use std::sync::Arc;

use proptest::prelude::*;
use serde_json::{Value, json};
use tackle_core::{
    AssistantPart, AssistantTurn, FinishReason, Message, ModelErrorKind, ModelRequest, ModelSettings,
    Thinking, ToolCall, ToolReturnPart, ToolStatus,
};
use tackle_providers::openai_responses::{decode_response, decode_stream};
use tackle_providers::{OpenAiResponses, preset_named};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer};

use super::{Script, settings, test_client, weather_tool};

const RECORDED: &str = include_str!("fixtures/responses_one_call.sse");

fn model() -> OpenAiResponses {
    OpenAiResponses::with_key(
        preset_named("openai").unwrap(),
        "gpt-test",
        Some(tackle_core::Secret::new("sk-test")),
    )
    .unwrap()
    .client(test_client())
}

fn event(value: Value) -> String {
    format!("event: {}\ndata: {value}\n\n", value["type"].as_str().unwrap_or_default())
}

/// Reasoning, then two parallel calls; the reasoning's encrypted content is only complete
/// in `.done`.
fn reasoning_stream() -> String {
    let rs_added =
        json!({"id": "rs_1", "type": "reasoning", "summary": [], "encrypted_content": "gAAA-partial"});
    let rs_done = json!({"id": "rs_1", "type": "reasoning", "summary": [{"type": "summary_text", "text": "two cities"}], "encrypted_content": "gAAA-complete-blob"});
    let fc = |id: &str, call: &str, args: &str, status: &str| json!({"id": id, "type": "function_call", "status": status, "call_id": call, "name": "get_weather", "arguments": args});
    [
        json!({"type": "response.created", "response": {"model": "gpt-5.1", "output": []}, "sequence_number": 0}),
        json!({"type": "response.output_item.added", "output_index": 0, "item": rs_added}),
        json!({"type": "response.reasoning_summary_text.delta", "output_index": 0, "summary_index": 0, "delta": "two cities"}),
        json!({"type": "response.output_item.done", "output_index": 0, "item": rs_done}),
        json!({"type": "response.output_item.added", "output_index": 1, "item": fc("fc_A", "call_A", "", "in_progress")}),
        json!({"type": "response.function_call_arguments.delta", "output_index": 1, "item_id": "fc_A", "delta": "{\"city\":\"Par"}),
        json!({"type": "response.function_call_arguments.delta", "output_index": 1, "item_id": "fc_A", "delta": "is\"}"}),
        json!({"type": "response.function_call_arguments.done", "output_index": 1, "item_id": "fc_A", "arguments": "{\"city\":\"Paris\"}"}),
        json!({"type": "response.output_item.done", "output_index": 1, "item": fc("fc_A", "call_A", "{\"city\":\"Paris\"}", "completed")}),
        json!({"type": "response.output_item.added", "output_index": 2, "item": fc("fc_B", "call_B", "", "in_progress")}),
        json!({"type": "response.function_call_arguments.delta", "output_index": 2, "item_id": "fc_B", "delta": "{\"city\":\"Bogotá\",\"unit\":null}"}),
        json!({"type": "response.output_item.done", "output_index": 2, "item": fc("fc_B", "call_B", "{\"city\":\"Bogotá\",\"unit\":null}", "completed")}),
        json!({"type": "response.completed", "response": {"model": "gpt-5.1", "status": "completed", "output": [], "usage": {
            "input_tokens": 134, "input_tokens_details": {"cached_tokens": 100}, "output_tokens": 61, "output_tokens_details": {"reasoning_tokens": 18}}}}),
    ]
    .into_iter()
    .map(event)
    .collect()
}

fn body(messages: &[Message], tools: &[Arc<tackle_core::ToolDefinition>], settings: &ModelSettings) -> Value {
    model().request_body(&ModelRequest::new("Be brief.", messages, tools, settings)).unwrap()
}

#[test]
fn request_shapes() {
    let plain = [Message::user("Hi there")];
    insta::assert_json_snapshot!("responses_plain_text", body(&plain, &[], &settings()));

    let (_, replayed) = decode_stream([reasoning_stream().as_bytes()]).unwrap();
    let history = [
        Message::user("Weather in Paris and Bogotá?"),
        Message::Assistant(replayed.turn),
        Message::tool_returns([
            ToolReturnPart {
                call_id: "call_A".into(),
                tool_name: "get_weather".into(),
                content: "15".into(),
                status: ToolStatus::Ok,
                attachments: Vec::new(),
            },
            ToolReturnPart {
                call_id: "call_B".into(),
                tool_name: "get_weather".into(),
                content: "The call was blocked: not allowed".into(),
                status: ToolStatus::Blocked,
                attachments: Vec::new(),
            },
        ]),
    ];
    let tools = [weather_tool(Some(true))];
    let sent = body(&history, &tools, &settings());
    insta::assert_json_snapshot!("responses_reasoning_replay_and_results", sent);
    assert_eq!(
        sent["input"][1]["encrypted_content"], "gAAA-complete-blob",
        "the complete version from .done"
    );
    assert_eq!(sent["store"], false);
    assert_eq!(sent["tools"][0]["strict"], true);

    // A tool that does not prefer strict says so, since Responses defaults to strict.
    let loose = body(&plain, &[weather_tool(None)], &settings());
    assert_eq!(loose["tools"][0]["strict"], false);
}

#[test]
fn turns_from_elsewhere_are_rebuilt() {
    let turn = AssistantTurn {
        parts: vec![
            AssistantPart::Thinking(Thinking { text: "not replayable".into(), ..Thinking::default() }),
            AssistantPart::Text("Let me see.".into()),
            AssistantPart::ToolCall(ToolCall::new("call_1", "get_weather", json!({"city": "Oslo"}))),
            AssistantPart::ToolCall(ToolCall::from_raw("call_2", "get_weather", "{\"city\": ")),
        ],
        ..AssistantTurn::default()
    };
    let sent = body(&[Message::user("?"), Message::Assistant(turn)], &[], &settings());
    let input = sent["input"].as_array().unwrap();
    assert_eq!(
        input[1],
        json!({"type": "function_call", "call_id": "call_1", "name": "get_weather", "arguments": "{\"city\":\"Oslo\"}"})
    );
    assert_eq!(input[2]["arguments"], "{}");
    assert_eq!(input[3], json!({"role": "assistant", "content": "Let me see."}));
}

#[test]
fn the_recorded_stream_decodes() {
    let (_, response) = decode_stream([RECORDED.as_bytes()]).unwrap();
    let turn = &response.turn;
    let call = turn.tool_calls().next().unwrap();
    assert_eq!(call.id, "call_2FQdm3Br7Qb35YUBSkDR7kue", "the call_id, not the item id");
    assert_eq!(call.arguments.as_object().unwrap()["city"], "Beijing");
    assert_eq!(turn.finish_reason, Some(FinishReason::ToolCalls));
    assert_eq!(turn.usage.input_tokens, 45);
    assert_eq!(turn.model_name.as_deref(), Some("gpt-5.1-2025-11-13"));
}

#[test]
fn reasoning_and_parallel_calls() {
    let (events, response) = decode_stream([reasoning_stream().as_bytes()]).unwrap();
    let turn = &response.turn;
    let AssistantPart::Thinking(thinking) = &turn.parts[0] else { panic!("reasoning first") };
    assert_eq!(thinking.text, "two cities");
    assert!(
        events.iter().any(|e| matches!(e, tackle_core::ModelEvent::ThinkingDelta(t) if t == "two cities"))
    );
    let calls: Vec<_> = turn.tool_calls().collect();
    assert_eq!(calls.iter().map(|c| c.id.as_str()).collect::<Vec<_>>(), ["call_A", "call_B"]);
    assert_eq!(turn.usage.reasoning_tokens, 18);
    assert_eq!(turn.usage.cache_read_tokens, 100);
}

#[test]
fn whole_responses_errors_and_cuts() {
    let whole = json!({"id": "resp_1", "object": "response", "status": "completed", "model": "gpt-5.1", "output": [
        {"id": "msg_1", "type": "message", "role": "assistant", "status": "completed", "phase": "final_answer",
         "content": [{"type": "output_text", "text": "Hello.", "annotations": []}]}
    ], "usage": {"input_tokens": 5, "output_tokens": 2}});
    let (_, response) = decode_response(whole.to_string().as_bytes()).unwrap();
    assert_eq!(response.turn.joined_text(), "Hello.");
    assert_eq!(response.turn.finish_reason, Some(FinishReason::Stop));
    assert_eq!(response.turn.provider_data.as_ref().unwrap().data["output"][0]["phase"], "final_answer");

    let nested = event(
        json!({"type": "error", "sequence_number": 2, "error": {"type": "insufficient_quota", "code": "insufficient_quota", "message": "You exceeded your current quota", "param": null}}),
    );
    assert_eq!(decode_stream([nested.as_bytes()]).unwrap_err().kind, ModelErrorKind::RateLimited);
    let flat = event(
        json!({"type": "error", "code": "server_error", "message": "Something went wrong", "param": null}),
    );
    let err = decode_stream([flat.as_bytes()]).unwrap_err();
    assert_eq!((err.kind, err.message.as_str()), (ModelErrorKind::Server, "Something went wrong"));

    let cut = RECORDED.split("event: response.completed").next().unwrap();
    assert!(decode_stream([cut.as_bytes()]).unwrap_err().message.contains("cut off"));

    let incomplete = event(
        json!({"type": "response.incomplete", "response": {"status": "incomplete", "incomplete_details": {"reason": "max_output_tokens"}, "output": []}}),
    );
    let (_, response) = decode_stream([incomplete.as_bytes()]).unwrap();
    assert_eq!(response.turn.finish_reason, Some(FinishReason::Length));
    let filtered =
        json!({"status": "incomplete", "incomplete_details": {"reason": "content_filter"}, "output": []});
    let (_, response) = decode_response(filtered.to_string().as_bytes()).unwrap();
    assert_eq!(response.turn.finish_reason, Some(FinishReason::ContentFilter));

    let failed =
        json!({"status": "failed", "error": {"code": "rate_limit_exceeded", "message": "slow down"}});
    let err = decode_response(failed.to_string().as_bytes()).unwrap_err();
    assert_eq!((err.kind, err.message.as_str()), (ModelErrorKind::RateLimited, "slow down"));
    let failed = event(
        json!({"type": "response.failed", "response": {"status": "failed", "error": {"code": "server_error", "message": "boom"}}}),
    );
    assert_eq!(decode_stream([failed.as_bytes()]).unwrap_err().kind, ModelErrorKind::Server);

    // Items that are not objects are ignored; fields of the wrong type are a clear error.
    let odd = [
        event(json!({"type": "response.output_item.added", "output_index": 0, "item": 5})),
        event(json!({"type": "response.output_item.done", "output_index": -1, "item": null})),
        event(json!({"type": "response.completed", "response": {"output": [], "model": "m"}})),
    ]
    .concat();
    let (_, response) = decode_stream([odd.as_bytes()]).unwrap();
    assert!(response.turn.parts.is_empty());
    assert_eq!(response.turn.model_name.as_deref(), Some("m"));
    let wrong = event(json!({"type": "response.output_text.delta", "delta": 7}));
    assert_eq!(decode_stream([wrong.as_bytes()]).unwrap_err().kind, ModelErrorKind::InvalidResponse);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    /// Any split of the bytes gives the same turn.
    #[test]
    fn any_split_gives_the_same_turn(cuts in prop::collection::vec(0usize..4000, 0..40)) {
        let text = reasoning_stream();
        let bytes = text.as_bytes();
        let chunks = super::split_at(bytes, cuts);
        let (_, split) = decode_stream(chunks).unwrap();
        let (_, whole) = decode_stream([bytes]).unwrap();
        prop_assert_eq!(split.turn, whole.turn);
    }
}

#[tokio::test]
async fn a_full_harness_round_trip_over_http() {
    let server = MockServer::start().await;
    let fc = json!({"id": "fc_1", "type": "function_call", "status": "completed", "call_id": "call_sum", "name": "add", "arguments": "{\"a\":2,\"b\":40}"});
    let first = [
        json!({"type": "response.created", "response": {"model": "gpt-test"}}),
        json!({"type": "response.output_item.added", "output_index": 0, "item": {"id": "rs_9", "type": "reasoning", "summary": [], "encrypted_content": "partial"}}),
        json!({"type": "response.output_item.done", "output_index": 0, "item": {"id": "rs_9", "type": "reasoning", "summary": [], "encrypted_content": "ENC-FULL"}}),
        json!({"type": "response.output_item.added", "output_index": 1, "item": {"id": "fc_1", "type": "function_call", "status": "in_progress", "call_id": "call_sum", "name": "add", "arguments": ""}}),
        json!({"type": "response.function_call_arguments.delta", "output_index": 1, "delta": "{\"a\":2,\"b\":40}"}),
        json!({"type": "response.output_item.done", "output_index": 1, "item": fc}),
        json!({"type": "response.completed", "response": {"status": "completed", "output": [
            {"id": "rs_9", "type": "reasoning", "summary": [], "encrypted_content": "ENC-FULL"}, fc], "usage": {"input_tokens": 30, "output_tokens": 9}}}),
    ];
    let second = [
        json!({"type": "response.output_item.added", "output_index": 0, "item": {"id": "msg_1", "type": "message", "role": "assistant", "content": []}}),
        json!({"type": "response.output_text.delta", "output_index": 0, "content_index": 0, "delta": "It is 42."}),
        json!({"type": "response.output_item.done", "output_index": 0, "item": {"id": "msg_1", "type": "message", "role": "assistant", "status": "completed", "content": [{"type": "output_text", "text": "It is 42.", "annotations": []}]}}),
        json!({"type": "response.completed", "response": {"status": "completed", "output": [], "usage": {"input_tokens": 60, "output_tokens": 4}}}),
    ];
    Mock::given(method("POST"))
        .and(path("/v1/responses"))
        .respond_with(Script::new(vec![
            super::sse_response(first.iter().cloned().map(event).collect()),
            super::sse_response(second.into_iter().map(event).collect()),
        ]))
        .expect(2)
        .mount(&server)
        .await;

    let again = super::sse_response(first.into_iter().map(event).collect());
    super::deltas_only_when_wanted(again, |url| model().base_url(url).unwrap()).await;
    let model = model().base_url(&format!("{}/v1", server.uri())).unwrap();
    let answer = super::add_round_trip(&model).await;
    assert_eq!(answer.text, "It is 42.");

    let requests = server.received_requests().await.unwrap();
    let second: Value = serde_json::from_slice(&requests[1].body).unwrap();
    assert_eq!(second["instructions"], "Be brief.");
    let input = second["input"].as_array().unwrap();
    assert_eq!(input[0], json!({"role": "user", "content": "2+40?"}));
    assert_eq!(input[1]["encrypted_content"], "ENC-FULL");
    assert_eq!(input[2]["call_id"], "call_sum");
    assert_eq!(input[3], json!({"type": "function_call_output", "call_id": "call_sum", "output": "42"}));
    assert_eq!(second["include"], json!(["reasoning.encrypted_content"]));
}

/// An image that comes with a tool result goes beside its text as an `input_image`.
#[test]
fn images_go_with_tool_results() {
    let history = [
        Message::user("Show me."),
        Message::tool_returns([tackle_core::ToolReturnPart {
            call_id: "call_A".into(),
            tool_name: "snap".into(),
            content: "[image: image/png, 4 bytes]".into(),
            status: ToolStatus::Ok,
            attachments: vec![tackle_core::Attachment::image("image/png", "iVBORw==")],
        }]),
    ];
    let sent = body(&history, &[weather_tool(None)], &settings());
    let output =
        sent["input"].as_array().unwrap().iter().find(|i| i["type"] == "function_call_output").unwrap();
    assert_eq!(
        output["output"],
        json!([
            {"type": "input_text", "text": "[image: image/png, 4 bytes]"},
            {"type": "input_image", "image_url": "data:image/png;base64,iVBORw=="}
        ])
    );
    // A model declared not to take images gets the description alone.
    let blind =
        model().with_profile(tackle_core::Model::profile(&model()).clone().accepts_tool_result_images(false));
    let tools = [weather_tool(None)];
    let sent = blind.request_body(&ModelRequest::new("Be brief.", &history, &tools, &settings())).unwrap();
    let output =
        sent["input"].as_array().unwrap().iter().find(|i| i["type"] == "function_call_output").unwrap();
    assert_eq!(output["output"], json!("[image: image/png, 4 bytes]"));
}

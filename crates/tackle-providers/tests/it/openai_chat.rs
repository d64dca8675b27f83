use std::sync::Arc;
use std::time::Duration;

use proptest::prelude::*;
use serde_json::{Value, json};
use tackle_core::{
    AssistantPart, AssistantTurn, FinishReason, Message, Model, ModelErrorKind, ModelEvent, ModelRequest,
    ModelSettings, ProviderData, Thinking, ToolCall, ToolChoice, ToolReturnPart, ToolStatus,
};
use tackle_providers::openai_chat::{decode_response, decode_stream};
use tackle_providers::{OpenAiChat, preset_named};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

use super::{Script, settings, sse_response, test_client, weather_tool};

const RECORDED: &str = include_str!("fixtures/chat_two_calls.sse");

fn model(preset: &str) -> OpenAiChat {
    let preset = preset_named(preset).unwrap();
    OpenAiChat::with_key(preset, "gpt-test", Some(tackle_core::Secret::new("sk-test-key")))
        .unwrap()
        .base_url("http://127.0.0.1:9/v1")
        .unwrap()
        .client(test_client())
}

fn two_calls_turn() -> AssistantTurn {
    AssistantTurn {
        parts: vec![
            AssistantPart::Thinking(Thinking { text: "need both".into(), ..Thinking::default() }),
            AssistantPart::Text("Checking.".into()),
            AssistantPart::ToolCall(ToolCall::new("call_1", "get_weather", json!({"city": "Oslo"}))),
            AssistantPart::ToolCall(ToolCall::new(
                "call_2",
                "get_weather",
                json!({"city": "Rome", "unit": "c"}),
            )),
        ],
        ..AssistantTurn::default()
    }
}

fn results(statuses: [(ToolStatus, &str); 2]) -> Message {
    Message::tool_returns(statuses.iter().enumerate().map(|(i, (status, content))| ToolReturnPart {
        call_id: format!("call_{}", i + 1),
        tool_name: "get_weather".into(),
        content: (*content).into(),
        status: *status,
        attachments: Vec::new(),
    }))
}

fn body(
    model: &OpenAiChat,
    messages: &[Message],
    tools: &[Arc<tackle_core::ToolDefinition>],
    settings: &ModelSettings,
) -> Value {
    model.request_body(&ModelRequest::new("Be brief.", messages, tools, settings)).unwrap()
}

#[test]
fn request_shapes() {
    let openai = model("openai");
    let plain = [Message::user("Hi there")];
    insta::assert_json_snapshot!("chat_plain_text", body(&openai, &plain, &[], &settings()));

    let parallel = [
        Message::user("Weather in Oslo and Rome?"),
        Message::Assistant(two_calls_turn()),
        results([(ToolStatus::Ok, "{\"t\":3}"), (ToolStatus::Ok, "{\"t\":18}")]),
    ];
    let tools = [weather_tool(None)];
    let with_flag = settings().parallel_tool_calls(Some(false));
    insta::assert_json_snapshot!("chat_two_parallel_calls", body(&openai, &parallel, &tools, &with_flag));

    let failed = [
        Message::user("Weather?"),
        Message::Assistant(two_calls_turn()),
        results([
            (ToolStatus::Failed, "Tool execution failed: upstream timeout"),
            (ToolStatus::Blocked, "The call was blocked: not allowed here"),
        ]),
    ];
    insta::assert_json_snapshot!(
        "chat_failed_and_blocked_results",
        body(&openai, &failed, &tools, &settings())
    );

    let strict_tools = [weather_tool(Some(true))];
    let forced = settings().tool_choice(ToolChoice::Tool("get_weather".into()));
    insta::assert_json_snapshot!("chat_strict_schema", body(&openai, &plain, &strict_tools, &forced));

    // A host without strict support gets the plain schema; a host without the parallel
    // flag does not get it.
    let ollama = model("ollama");
    let sent = body(&ollama, &plain, &strict_tools, &with_flag);
    assert!(sent["tools"][0]["function"].get("strict").is_none());
    assert!(sent.get("parallel_tool_calls").is_none());
    assert_eq!(sent["tools"][0]["function"]["parameters"]["required"], json!(["city"]));

    // The profile, not the preset, decides: declared capabilities change the request.
    let declared = openai
        .profile()
        .clone()
        .supports_strict_schemas(false)
        .accepts_parallel_tool_calls_flag(false)
        .supports_tool_choice_required(false)
        .reports_stream_usage(false);
    let narrowed = model("openai").with_profile(declared);
    let required = with_flag.clone().tool_choice(ToolChoice::Required);
    let sent = body(&narrowed, &plain, &strict_tools, &required);
    assert!(sent["tools"][0]["function"].get("strict").is_none(), "{sent}");
    assert!(sent.get("parallel_tool_calls").is_none(), "{sent}");
    assert!(sent.get("stream_options").is_none(), "{sent}");
    assert_eq!(sent["tool_choice"], "auto");
    let no_tools = model("openai").with_profile(tackle_core::ModelProfile::default().supports_tools(false));
    let sent = body(&no_tools, &plain, &strict_tools, &required);
    assert!(sent.get("tools").is_none() && sent.get("tool_choice").is_none(), "{sent}");
}

#[test]
fn mangled_calls_are_replayed_in_a_shape_strict_hosts_accept() {
    let openai = model("openai");
    let mut raw = ToolCall::from_raw("call_9", "get_weather", "{\"city\": \"Oslo\",  \"unit\":\"c\"}");
    raw.provider_data =
        Some(ProviderData::new("openai_chat", json!({"arguments": "{\"city\": \"Oslo\",  \"unit\":\"c\"}"})));
    let turn = AssistantTurn {
        parts: vec![
            AssistantPart::ToolCall(ToolCall::from_raw("call_7", "functions.get weather", "{}")),
            AssistantPart::ToolCall(ToolCall::from_raw("call_8", "get_weather", "{\"city\": ")),
            AssistantPart::ToolCall(raw),
        ],
        ..AssistantTurn::default()
    };
    let history = [Message::user("?"), Message::Assistant(turn)];
    let sent = body(&openai, &history, &[], &settings());
    let calls = &sent["messages"][2]["tool_calls"];
    assert_eq!(calls[0]["function"], json!({"name": "invalid_tool_call", "arguments": "{}"}));
    assert_eq!(calls[1]["function"]["arguments"], "{}");
    assert_eq!(
        calls[2]["function"]["arguments"], "{\"city\": \"Oslo\",  \"unit\":\"c\"}",
        "replayed byte for byte"
    );
    assert_eq!(sent["messages"][2]["content"], Value::Null);
}

fn assert_recorded_turn(turn: &AssistantTurn) {
    let calls: Vec<_> = turn.tool_calls().collect();
    assert_eq!(calls.len(), 2);
    assert_eq!(calls[0].id, "call_JMW1whyEaYG438VE1OIflxA2");
    assert_eq!(calls[0].name, "GetWeatherArgs");
    assert_eq!(calls[0].arguments.as_object().unwrap()["city"], "Edinburgh");
    assert_eq!(calls[1].name, "get_stock_price");
    assert_eq!(calls[1].arguments.as_object().unwrap()["exchange"], "NASDAQ");
    assert_eq!(turn.finish_reason, Some(FinishReason::ToolCalls));
    assert_eq!(turn.usage.input_tokens, 149);
    assert_eq!(turn.usage.output_tokens, 60);
    assert_eq!(turn.model_name.as_deref(), Some("gpt-4o-2024-08-06"));
}

#[test]
fn the_recorded_stream_decodes() {
    let (events, response) = decode_stream([RECORDED.as_bytes()]).unwrap();
    assert_recorded_turn(&response.turn);
    let deltas = events.iter().filter(|e| matches!(e, ModelEvent::ToolCallDelta { .. })).count();
    assert_eq!(deltas, 22);
    // The id and the name come with the piece that brings them, once per call; the
    // argument pieces after it carry only text.
    let named: Vec<(usize, Option<&str>, Option<&str>)> = events
        .iter()
        .filter_map(|e| match e {
            ModelEvent::ToolCallDelta { index, id, name, .. } if id.is_some() || name.is_some() => {
                Some((*index, id.as_deref(), name.as_deref()))
            }
            _ => None,
        })
        .collect();
    assert_eq!(
        named,
        [
            (0, Some("call_JMW1whyEaYG438VE1OIflxA2"), Some("GetWeatherArgs")),
            (1, Some("call_DNYTawLBoN8fj3KN6qU9N1Ou"), Some("get_stock_price"))
        ]
    );
}

#[test]
fn a_whole_response_decodes_through_the_same_code() {
    let body = json!({
        "id": "chatcmpl-ABfvyvfNWKcl7Ohqos4UFrmMs1v4C", "object": "chat.completion", "created": 1727346166,
        "model": "gpt-4o-2024-08-06",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": null, "refusal": null, "tool_calls": [
            {"id": "call_fdNz3vOBKYgOIpMdWotB9MjY", "type": "function", "function": {"name": "GetWeatherArgs", "arguments": "{\"city\": \"Edinburgh\", \"country\": \"GB\", \"units\": \"c\"}"}},
            {"id": "call_h1DWI1POMJLb0KwIyQHWXD4p", "type": "function", "function": {"name": "get_stock_price", "arguments": "{\"ticker\": \"AAPL\", \"exchange\": \"NASDAQ\"}"}}
        ]}, "logprobs": null, "finish_reason": "tool_calls"}],
        "usage": {"prompt_tokens": 149, "completion_tokens": 60, "total_tokens": 209, "completion_tokens_details": {"reasoning_tokens": 0}}
    });
    let (_, response) = decode_response(body.to_string().as_bytes()).unwrap();
    let calls: Vec<_> = response.turn.tool_calls().collect();
    assert_eq!(calls.len(), 2);
    assert_eq!(calls[1].id, "call_h1DWI1POMJLb0KwIyQHWXD4p");
    assert_eq!(response.turn.usage.input_tokens, 149);

    // A forced tool choice answers with finish_reason "stop" although calls are present.
    let forced = json!({"choices": [{"message": {"content": null, "tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "f", "arguments": ""}}]}, "finish_reason": "stop"}]});
    let (_, response) = decode_response(forced.to_string().as_bytes()).unwrap();
    assert_eq!(response.turn.finish_reason, Some(FinishReason::ToolCalls));
    assert!(response.turn.tool_calls().next().unwrap().arguments.as_object().unwrap().is_empty());
}

#[test]
fn compatible_server_quirks() {
    // No ids, the name split over fragments, usage without stream_options, no [DONE].
    let stream = concat!(
        "data: {\"choices\":[{\"index\":0,\"delta\":{\"reasoning_content\":\"hmm\"}}]}\n\n",
        "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"name\":\"get_\",\"arguments\":\"\"}}]}}]}\n\n",
        "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"name\":\"weather\",\"arguments\":\"{\\\"city\\\":\\\"Oslo\\\"}\"}}]}}]}\n\n",
        "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}],\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":7}}\n\n",
    );
    let (events, response) = decode_stream([stream.as_bytes()]).unwrap();
    let call = response.turn.tool_calls().next().unwrap();
    assert_eq!(call.name, "get_weather");
    assert!(call.id.starts_with("call_") && call.id.len() > 10, "an id is supplied: {}", call.id);
    assert!(matches!(&response.turn.parts[0], AssistantPart::Thinking(t) if t.text == "hmm"));
    assert!(events.iter().any(|e| matches!(e, ModelEvent::ThinkingDelta(t) if t == "hmm")));
    assert_eq!(response.turn.usage.output_tokens, 7);

    // The pseudo-call some models use for parallel calls is unwrapped.
    let wrapped = json!({"choices": [{"message": {"tool_calls": [{"id": "call_x", "type": "function", "function": {
        "name": "multi_tool_use.parallel",
        "arguments": "{\"tool_uses\":[{\"recipient_name\":\"functions.a\",\"parameters\":{\"x\":1}},{\"recipient_name\":\"functions.b\",\"parameters\":{}}]}"
    }}]}, "finish_reason": "tool_calls"}]});
    let (_, response) = decode_response(wrapped.to_string().as_bytes()).unwrap();
    let names: Vec<_> = response.turn.tool_calls().map(|c| (c.id.clone(), c.name.clone())).collect();
    assert_eq!(names, [("call_x_0".to_owned(), "a".to_owned()), ("call_x_1".to_owned(), "b".to_owned())]);
}

#[test]
fn cut_and_malformed_streams_are_errors() {
    let cut = RECORDED.split("\"finish_reason\":\"tool_calls\"").next().unwrap();
    let cut = &cut[..cut.rfind("\n\n").unwrap() + 2];
    let err = decode_stream([cut.as_bytes()]).unwrap_err();
    assert_eq!(err.kind, ModelErrorKind::Transport);
    assert!(err.message.contains("cut off"), "{}", err.message);

    let half_event = &RECORDED[..RECORDED.len() / 2];
    assert!(decode_stream([half_event.as_bytes()]).is_err());

    let malformed = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hi\"}}]}\n\ndata: {not json}\n\ndata: [DONE]\n\n";
    let err = decode_stream([malformed.as_bytes()]).unwrap_err();
    assert_eq!(err.kind, ModelErrorKind::InvalidResponse);

    let streamed_error = "data: {\"error\":{\"message\":\"The server had an error\",\"type\":\"server_error\",\"param\":null,\"code\":null}}\n\n";
    let err = decode_stream([streamed_error.as_bytes()]).unwrap_err();
    assert_eq!(err.kind, ModelErrorKind::Server);
    assert_eq!(err.message, "The server had an error");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Any split of the recorded bytes gives the same turn.
    #[test]
    fn any_split_of_the_stream_gives_the_same_turn(cuts in prop::collection::vec(0usize..RECORDED.len(), 0..40)) {
        let bytes = RECORDED.as_bytes();
        let chunks = super::split_at(bytes, cuts);
        let (_, response) = decode_stream(chunks).unwrap();
        let (_, whole) = decode_stream([bytes]).unwrap();
        prop_assert_eq!(response.turn.parts, whole.turn.parts);
    }
}

fn sse(lines: &[Value]) -> String {
    let mut body: String = lines.iter().map(|l| format!("data: {l}\n\n")).collect();
    body.push_str("data: [DONE]\n\n");
    body
}

fn live(server: &MockServer) -> OpenAiChat {
    model("openai").base_url(&format!("{}/v1", server.uri())).unwrap()
}

#[tokio::test]
async fn a_full_harness_round_trip_over_http() {
    let server = MockServer::start().await;
    let first = sse(&[
        json!({"choices": [{"index": 0, "delta": {"role": "assistant", "content": "Let me add. "}}]}),
        json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "call_a", "type": "function", "function": {"name": "add", "arguments": ""}}]}}]}),
        json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"arguments": "{\"a\": 2, "}}]}}]}),
        json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"arguments": "\"b\": 40}"}}]}}]}),
        json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}),
        json!({"choices": [], "usage": {"prompt_tokens": 50, "completion_tokens": 12, "prompt_tokens_details": {"cached_tokens": 10}}}),
    ]);
    let second = sse(&[
        json!({"choices": [{"index": 0, "delta": {"content": "It is 42."}}]}),
        json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}),
    ]);
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .respond_with(Script::new(vec![sse_response(first.clone()), sse_response(second)]))
        .expect(2)
        .mount(&server)
        .await;

    super::deltas_only_when_wanted(sse_response(first), |url| model("openai").base_url(url).unwrap()).await;
    let model = live(&server);
    let answer = super::add_round_trip(&model).await;
    assert_eq!(answer.text, "It is 42.");
    assert_eq!(answer.usage.input_tokens, 50);
    assert_eq!(answer.usage.cache_read_tokens, 10);

    let requests = server.received_requests().await.unwrap();
    assert_eq!(requests.len(), 2);
    assert_eq!(requests[0].headers.get("authorization").unwrap(), "Bearer sk-test-key");
    let second: Value = serde_json::from_slice(&requests[1].body).unwrap();
    let messages = second["messages"].as_array().unwrap();
    assert_eq!(messages[0], json!({"role": "system", "content": "Be brief."}));
    assert_eq!(messages[2]["role"], "assistant");
    assert_eq!(messages[2]["content"], "Let me add. ");
    assert_eq!(messages[2]["tool_calls"][0]["function"]["arguments"], "{\"a\": 2, \"b\": 40}");
    assert_eq!(messages[3], json!({"role": "tool", "tool_call_id": "call_a", "content": "42"}));
    assert_eq!(second["stream"], true);
    assert_eq!(second["stream_options"], json!({"include_usage": true}));
}

async fn first_event(model: &OpenAiChat) -> Result<Vec<ModelEvent>, tackle_core::ModelError> {
    use futures_util::StreamExt;
    let messages = [Message::user("hi")];
    let settings = settings();
    let request = ModelRequest::new("", &messages, &[], &settings);
    let mut stream = model.stream(request);
    let mut events = Vec::new();
    while let Some(event) = stream.next().await {
        events.push(event?);
    }
    Ok(events)
}

fn hello() -> ResponseTemplate {
    sse_response(sse(&[
        json!({"choices": [{"index": 0, "delta": {"content": "hello"}}]}),
        json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}),
    ]))
}

#[tokio::test]
async fn rate_limits_are_waited_out_and_server_errors_retried() {
    let server = MockServer::start().await;
    // How long Retry-After makes the client wait is tested in tackle-http; here it asks
    // for no wait, so the test takes no wall-clock time.
    let limited = ResponseTemplate::new(429)
        .insert_header("retry-after", "0")
        .set_body_json(json!({"error": {"message": "Rate limit reached", "type": "requests", "param": null, "code": "rate_limit_exceeded"}}));
    let broken = ResponseTemplate::new(500).set_body_json(
        json!({"error": {"message": "boom", "type": "server_error", "param": null, "code": null}}),
    );
    Mock::given(method("POST"))
        .respond_with(Script::new(vec![limited, broken, hello()]))
        .expect(3)
        .mount(&server)
        .await;
    let events = first_event(&live(&server)).await.unwrap();
    assert!(matches!(events.last(), Some(ModelEvent::Completed(r)) if r.turn.joined_text() == "hello"));
}

#[tokio::test]
async fn errors_are_typed_and_carry_the_providers_message_without_the_key() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(401).set_body_json(json!({"error": {
            "message": "Incorrect API key provided: sk-test-key.", "type": "invalid_request_error", "param": null, "code": "invalid_api_key"}})))
        .mount(&server)
        .await;
    let err = first_event(&live(&server)).await.unwrap_err();
    assert_eq!(err.kind, ModelErrorKind::Authentication);
    assert!(err.message.starts_with("HTTP 401: Incorrect API key provided"), "{}", err.message);
    assert!(!err.message.contains("sk-test-key"), "{}", err.message);

    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(
            ResponseTemplate::new(429).insert_header("retry-after", "3600").set_body_string("slow down"),
        )
        .expect(1)
        .mount(&server)
        .await;
    let err = first_event(&live(&server)).await.unwrap_err();
    assert_eq!(err.kind, ModelErrorKind::RateLimited);
    assert_eq!(
        err.retry_after,
        Some(Duration::from_secs(3600)),
        "too long to wait here: handed to the caller"
    );

    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(400).set_body_json(json!({"error": {
            "message": "This model's maximum context length is 128000 tokens.", "type": "invalid_request_error", "param": "messages", "code": "context_length_exceeded"}})))
        .mount(&server)
        .await;
    assert_eq!(first_event(&live(&server)).await.unwrap_err().kind, ModelErrorKind::ContextTooLong);
}

#[tokio::test]
async fn a_slow_first_byte_is_retried_and_a_truncated_stream_is_an_error() {
    let server = MockServer::start().await;
    let slow = hello().set_delay(Duration::from_secs(3));
    Mock::given(method("POST")).respond_with(Script::new(vec![slow, hello()])).expect(2).mount(&server).await;
    let events = first_event(&live(&server)).await.unwrap();
    assert!(matches!(events.last(), Some(ModelEvent::Completed(_))));

    let server = MockServer::start().await;
    let truncated = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"half an ans\"}}]}\n\n";
    Mock::given(method("POST")).respond_with(sse_response(truncated.into())).mount(&server).await;
    let err = first_event(&live(&server)).await.unwrap_err();
    assert!(err.message.contains("cut off"), "{}", err.message);
}

#[tokio::test]
async fn the_loopback_guard_refuses_other_hosts() {
    let remote = model("openai").base_url("https://api.openai.com/v1").unwrap();
    let err = first_event(&remote).await.unwrap_err();
    assert!(err.message.contains("only loopback hosts"), "{}", err.message);
}

#[tokio::test]
async fn presets_with_placeholders_ask_for_the_base_url_and_keys_come_from_the_environment() {
    let azure = preset_named("azure").unwrap();
    let unset = OpenAiChat::with_key(azure, "gpt-4o", Some(tackle_core::Secret::new("k")))
        .unwrap()
        .client(test_client());
    let err = first_event(&unset).await.unwrap_err();
    assert!(err.message.contains("placeholder"), "{}", err.message);
    assert!(unset.clone().base_url("https://{resource}.openai.azure.com/openai/v1").is_err());
    let set = unset.base_url("https://contoso.openai.azure.com/openai/v1").unwrap();
    assert_eq!(set.endpoint(), "https://contoso.openai.azure.com/openai/v1/chat/completions");

    let groq = preset_named("groq").unwrap();
    let err = OpenAiChat::with_key(groq, "llama", None).unwrap_err();
    assert_eq!(err.to_string(), "groq needs an API key: set GROQ_API_KEY or pass one in the settings");
    assert!(
        OpenAiChat::with_key(preset_named("ollama").unwrap(), "qwen3", None).is_ok(),
        "local hosts need no key"
    );
}

#[tokio::test]
async fn nulls_that_strict_mode_forces_are_absent_again_for_the_tool() {
    let server = MockServer::start().await;
    let first = sse(&[
        json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "call_w", "type": "function",
            "function": {"name": "get_weather", "arguments": "{\"city\":\"Oslo\",\"unit\":null,\"when\":{\"day\":\"2026-12-01\",\"hour\":null}}"}}]}}]}),
        json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}),
    ]);
    let second = sse(&[
        json!({"choices": [{"index": 0, "delta": {"content": "Cold."}}]}),
        json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}),
    ]);
    Mock::given(method("POST"))
        .respond_with(Script::new(vec![sse_response(first), sse_response(second)]))
        .mount(&server)
        .await;

    let seen = Arc::new(std::sync::Mutex::new(None));
    let recorder = Arc::clone(&seen);
    let schema = weather_tool(Some(true)).parameters.to_value();
    let tool = tackle_tools::function_tool(
        "get_weather",
        "Weather.",
        schema,
        move |_ctx: tackle_tools::ToolContext, args| {
            *recorder.lock().unwrap() = Some(Value::Object(args));
            async move { Ok::<_, tackle_tools::ToolError>("-3 degrees") }
        },
    )
    .strict(true)
    .build()
    .unwrap();
    let harness =
        tackle_harness::Harness::new(tackle_tools::ToolRegistry::builder().tool(tool).build().unwrap());
    let model = live(&server);
    let mut state = harness.start("r", vec![Message::user("Weather in Oslo?")]);
    let ctx = Arc::new(tackle_tools::RunContext::new("r"));
    let outcome = harness.run(&model, &ctx, &mut state, &mut tackle_harness::Discard).await.unwrap();
    assert!(
        matches!(outcome, tackle_harness::RunOutcome::Answered(ref a) if a.text == "Cold."),
        "{outcome:?}"
    );
    assert_eq!(*seen.lock().unwrap(), Some(json!({"city": "Oslo", "when": {"day": "2026-12-01"}})));
    let sent: Value = serde_json::from_slice(&server.received_requests().await.unwrap()[0].body).unwrap();
    assert_eq!(sent["tools"][0]["function"]["strict"], true);
}

#[tokio::test]
async fn events_decoded_before_a_failure_come_before_it() {
    use futures_util::StreamExt;
    let server = MockServer::start().await;
    let body = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hi\"}}]}\n\ndata: {not json}\n\n";
    Mock::given(method("POST")).respond_with(sse_response(body.into())).mount(&server).await;
    let model = live(&server);
    let messages = [Message::user("hi")];
    let settings = settings();
    let request = ModelRequest::new("", &messages, &[], &settings);
    let items: Vec<_> = model.stream(request).collect().await;
    assert_eq!(items.len(), 2, "{items:?}");
    assert!(matches!(&items[0], Ok(ModelEvent::TextDelta(t)) if t == "hi"), "{items:?}");
    assert!(matches!(&items[1], Err(e) if e.kind == ModelErrorKind::InvalidResponse), "{items:?}");
}

#[test]
fn the_key_header_built_once_never_prints() {
    let model = model("openai");
    let shown = format!("{model:?}");
    assert!(!shown.contains("sk-test-key"), "{shown}");
}

use std::sync::Arc;

use proptest::prelude::*;
use serde_json::{Value, json};
use tackle_core::{
    AssistantPart, AssistantTurn, FinishReason, Message, Model, ModelErrorKind, ModelEvent, ModelRequest,
    ModelSettings, ProviderData, Secret, Thinking, ToolCall, ToolChoice, ToolDefinition, ToolReturnPart,
    ToolStatus,
};
use tackle_providers::Bedrock;
use tackle_providers::bedrock::{AwsCredentials, BedrockAuth, decode_response, decode_stream};
use tackle_providers::eventstream::{encode, encode_event};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

use super::{Script, settings, test_client, weather_tool};

const MODEL: &str = "us.anthropic.claude-sonnet-4-5-20250929-v1:0";
const KEY_ID: &str = "AKIAIOSFODNN7EXAMPLE";
const SECRET: &str = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
const TOKEN: &str = "IQoJb3JpZ2luX2VjEXAMPLETOKEN";

/// The documented event sequence of a reasoning turn with two tool calls, as the service
/// frames it.
fn recorded() -> Vec<u8> {
    let events: Vec<(String, Value)> =
        serde_json::from_str(include_str!("fixtures/bedrock_reasoning_tool_use.json")).unwrap();
    events.iter().flat_map(|(kind, payload)| encode_event(kind, payload)).collect()
}

fn credentials(token: bool) -> AwsCredentials {
    AwsCredentials::new(KEY_ID, Secret::new(SECRET), token.then(|| Secret::new(TOKEN)))
}

fn model() -> Bedrock {
    Bedrock::with_auth(MODEL, "us-east-1", BedrockAuth::SigV4(credentials(true)))
        .unwrap()
        .client(test_client())
}

fn body(
    model: &Bedrock,
    messages: &[Message],
    tools: &[Arc<ToolDefinition>],
    settings: &ModelSettings,
) -> Value {
    model.request_body(&ModelRequest::new("Be brief.", messages, tools, settings)).unwrap()
}

fn reasoning_turn() -> AssistantTurn {
    AssistantTurn {
        parts: vec![
            AssistantPart::Thinking(Thinking {
                text: "both at once".into(),
                redacted: false,
                provider_data: Some(ProviderData::new("bedrock", json!({"signature": "c2lnLTE="}))),
            }),
            AssistantPart::Thinking(Thinking { text: "from elsewhere".into(), ..Thinking::default() }),
            AssistantPart::ToolCall(ToolCall::new("tooluse_1", "get_weather", json!({"city": "Oslo"}))),
            AssistantPart::ToolCall(ToolCall::new("tooluse_2", "get_weather", json!({"city": "Rome"}))),
        ],
        ..AssistantTurn::default()
    }
}

fn results(statuses: [(ToolStatus, &str); 2]) -> Message {
    Message::tool_returns(statuses.iter().enumerate().map(|(i, (status, content))| ToolReturnPart {
        call_id: format!("tooluse_{}", i + 1),
        tool_name: "get_weather".into(),
        content: (*content).into(),
        status: *status,
        attachments: Vec::new(),
    }))
}

#[test]
fn request_shapes() {
    let plain = [Message::user("Hi there")];
    insta::assert_json_snapshot!("bedrock_plain_text", body(&model(), &plain, &[], &settings()));

    let tools = [weather_tool(None)];
    let round = [
        Message::user("Weather in Oslo and Rome?"),
        Message::Assistant(reasoning_turn()),
        results([
            (ToolStatus::Ok, "3 degrees"),
            (ToolStatus::Blocked, "The call was blocked: not allowed here"),
        ]),
    ];
    let required = settings().tool_choice(ToolChoice::Required).max_output_tokens(1024);
    let thinking = model().thinking(2048);
    insta::assert_json_snapshot!("bedrock_reasoning_and_results", body(&thinking, &round, &tools, &required));
}

#[test]
fn tool_choice_none_offers_no_tools_unless_the_history_needs_them() {
    let tools = [weather_tool(None)];
    let none = settings().tool_choice(ToolChoice::None);
    let fresh = body(&model(), &[Message::user("hi")], &tools, &none);
    assert!(fresh.get("toolConfig").is_none());
    let round = [
        Message::user("?"),
        Message::Assistant(reasoning_turn()),
        results([(ToolStatus::Ok, "1"), (ToolStatus::Ok, "2")]),
    ];
    let later = body(&model(), &round, &tools, &none);
    assert_eq!(later["toolConfig"]["tools"][0]["toolSpec"]["name"], "get_weather");
    let forced = settings().tool_choice(ToolChoice::Tool("get_weather".into()));
    assert_eq!(
        body(&model(), &round, &tools, &forced)["toolConfig"]["toolChoice"],
        json!({"tool": {"name": "get_weather"}})
    );
}

#[test]
fn the_documented_stream_decodes_and_replays_unchanged() {
    let bytes = recorded();
    let (events, response) = decode_stream([bytes.as_slice()]).unwrap();
    let turn = &response.turn;
    let AssistantPart::Thinking(thinking) = &turn.parts[0] else {
        panic!("reasoning first: {:?}", turn.parts)
    };
    assert_eq!(thinking.text, "The user wants the weather in two cities; both calls can go at once.");
    assert_eq!(thinking.provider_data.as_ref().unwrap().data["signature"], "ErUBCkgIBhABGAIiQJ0uPPdUJw…");
    assert_eq!(turn.joined_text(), "I'll check both cities.");
    let calls: Vec<_> = turn.tool_calls().collect();
    assert_eq!(calls.len(), 2);
    assert_eq!(calls[0].id, "tooluse_kZJMlvQmRJ6eAyJE5GIl7Q");
    assert_eq!(calls[0].arguments.as_object().unwrap()["city"], "Madrid");
    assert_eq!(turn.finish_reason, Some(FinishReason::ToolCalls));
    assert_eq!((turn.usage.input_tokens, turn.usage.output_tokens), (412, 143));
    assert!(
        events
            .iter()
            .any(|e| matches!(e, ModelEvent::ToolCallDelta { arguments, .. } if arguments == "drid\"}"))
    );

    let replayed = body(&model(), &[Message::user("?"), Message::Assistant(turn.clone())], &[], &settings());
    let content = &replayed["messages"][1]["content"];
    assert_eq!(
        content[0],
        json!({"reasoningContent": {"reasoningText": {"text": "The user wants the weather in two cities; both calls can go at once.", "signature": "ErUBCkgIBhABGAIiQJ0uPPdUJw…"}}})
    );
    assert_eq!(
        content[3],
        json!({"toolUse": {"toolUseId": "tooluse_Q1pHUVvYTGy4Ez7rn2W_Xw", "name": "get_weather", "input": {"city": "Lisbon", "unit": "c"}}})
    );
}

#[test]
fn a_whole_response_decodes_through_the_same_code() {
    let whole = json!({
        "output": {"message": {"role": "assistant", "content": [
            {"reasoningContent": {"reasoningText": {"text": "Need the tool.", "signature": "U0lH"}}},
            {"toolUse": {"toolUseId": "tooluse_abc", "name": "get_weather", "input": {"city": "Paris"}}}
        ]}},
        "stopReason": "tool_use",
        "usage": {"inputTokens": 30, "outputTokens": 12, "totalTokens": 42, "cacheReadInputTokens": 8},
        "metrics": {"latencyMs": 640}
    });
    let (_, response) = decode_response(whole.to_string().as_bytes()).unwrap();
    let turn = response.turn;
    assert_eq!(turn.tool_calls().next().unwrap().arguments.as_object().unwrap()["city"], "Paris");
    assert_eq!(turn.usage.cache_read_tokens, 8);
    assert_eq!(turn.usage.input_tokens, 38);
    let stored = &turn.provider_data.as_ref().unwrap().data["content"];
    assert_eq!(stored[0]["reasoningContent"]["reasoningText"]["signature"], "U0lH");
}

#[test]
fn stream_exceptions_cuts_and_corruption() {
    let mut body = encode_event("messageStart", &json!({"role": "assistant"}));
    body.extend(encode_event(
        "contentBlockDelta",
        &json!({"contentBlockIndex": 0, "delta": {"text": "Hel"}}),
    ));
    let mut throttled = body.clone();
    throttled.extend(encode(
        &[
            (":exception-type", "throttlingException"),
            (":content-type", "application/json"),
            (":message-type", "exception"),
        ],
        br#"{"message":"Too many requests, please wait before trying again."}"#,
    ));
    assert_eq!(decode_stream([throttled.as_slice()]).unwrap_err().kind, ModelErrorKind::RateLimited);

    // Ended before messageStop: cut off.
    assert!(decode_stream([body.as_slice()]).unwrap_err().message.contains("cut off"));
    // Ended in the middle of a message: cut off too.
    let full = recorded();
    let err = decode_stream([&full[..full.len() - 10]]).unwrap_err();
    assert_eq!(err.kind, ModelErrorKind::Transport);
    assert!(err.message.contains("in the middle of an event"), "{}", err.message);
    // A flipped bit fails the checksum.
    let mut flipped = full.clone();
    flipped[40] ^= 0x20;
    assert_eq!(decode_stream([flipped.as_slice()]).unwrap_err().kind, ModelErrorKind::InvalidResponse);

    let mut guarded = body.clone();
    guarded.extend(encode_event("messageStop", &json!({"stopReason": "guardrail_intervened"})));
    assert_eq!(
        decode_stream([guarded.as_slice()]).unwrap().1.turn.finish_reason,
        Some(FinishReason::ContentFilter)
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Any split of the binary stream gives the same turn.
    #[test]
    fn any_split_gives_the_same_turn(cuts in prop::collection::vec(0usize..4000, 0..60)) {
        let bytes = recorded();
        let (_, split) = decode_stream(super::split_at(&bytes, cuts)).unwrap();
        let (_, whole) = decode_stream([bytes.as_slice()]).unwrap();
        prop_assert_eq!(split.turn, whole.turn);
    }
}

fn stream_of(events: &[(&str, Value)]) -> ResponseTemplate {
    let body: Vec<u8> = events.iter().flat_map(|(kind, payload)| encode_event(kind, payload)).collect();
    ResponseTemplate::new(200)
        .insert_header("content-type", "application/vnd.amazon.eventstream")
        .set_body_bytes(body)
}

fn two_calls() -> ResponseTemplate {
    stream_of(&[
        ("messageStart", json!({"role": "assistant"})),
        (
            "contentBlockDelta",
            json!({"contentBlockIndex": 0, "delta": {"reasoningContent": {"text": "add them"}}}),
        ),
        (
            "contentBlockDelta",
            json!({"contentBlockIndex": 0, "delta": {"reasoningContent": {"signature": "U0lH"}}}),
        ),
        (
            "contentBlockStart",
            json!({"contentBlockIndex": 1, "start": {"toolUse": {"toolUseId": "tu_a", "name": "add"}}}),
        ),
        (
            "contentBlockDelta",
            json!({"contentBlockIndex": 1, "delta": {"toolUse": {"input": "{\"a\": 2, \"b\": 40}"}}}),
        ),
        (
            "contentBlockStart",
            json!({"contentBlockIndex": 2, "start": {"toolUse": {"toolUseId": "tu_b", "name": "add"}}}),
        ),
        (
            "contentBlockDelta",
            json!({"contentBlockIndex": 2, "delta": {"toolUse": {"input": "{\"a\": \"x\", \"b\": 1}"}}}),
        ),
        ("messageStop", json!({"stopReason": "tool_use"})),
        ("metadata", json!({"usage": {"inputTokens": 40, "outputTokens": 30}, "metrics": {"latencyMs": 10}})),
    ])
}

#[tokio::test]
async fn a_full_harness_round_trip_over_http() {
    let server = MockServer::start().await;
    let answer = stream_of(&[
        ("messageStart", json!({"role": "assistant"})),
        ("contentBlockDelta", json!({"contentBlockIndex": 0, "delta": {"text": "It is 42."}})),
        ("messageStop", json!({"stopReason": "end_turn"})),
        ("metadata", json!({"usage": {"inputTokens": 90, "outputTokens": 5}})),
    ]);
    let encoded_model = "us.anthropic.claude-sonnet-4-5-20250929-v1%3A0";
    Mock::given(method("POST"))
        .and(path(format!("/model/{encoded_model}/converse-stream")))
        .respond_with(Script::new(vec![two_calls(), answer]))
        .expect(2)
        .mount(&server)
        .await;

    super::deltas_only_when_wanted(two_calls(), |url| model().base_url(url.trim_end_matches("/v1")).unwrap())
        .await;
    let model = model().base_url(&server.uri()).unwrap();
    let answer = super::add_round_trip(&model).await;
    assert_eq!(answer.text, "It is 42.");
    assert_eq!(answer.usage.input_tokens, 40 + 90);

    let requests = server.received_requests().await.unwrap();
    for request in &requests {
        verify_signature(request, true);
    }
    let second: Value = serde_json::from_slice(&requests[1].body).unwrap();
    assert_eq!(second["system"], json!([{"text": "Be brief."}]));
    let messages = second["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 3);
    assert_eq!(
        messages[1]["content"][0],
        json!({"reasoningContent": {"reasoningText": {"text": "add them", "signature": "U0lH"}}})
    );
    // All results of the round in ONE user message, the failed one with status error.
    let results = messages[2]["content"].as_array().unwrap();
    assert_eq!(results.len(), 2);
    assert_eq!(results[0], json!({"toolResult": {"toolUseId": "tu_a", "content": [{"text": "42"}]}}));
    assert_eq!(results[1]["toolResult"]["status"], "error");
}

/// Checks a received request's SigV4 signature with a signer written out from the
/// specification (aws-lc-rs primitives), over the request exactly as it arrived.
fn verify_signature(request: &wiremock::Request, with_token: bool) {
    let header = |name: &str| request.headers.get(name).map(|v| v.to_str().unwrap().to_owned());
    let authorization = header("authorization").expect("signed");
    let rest = authorization.strip_prefix("AWS4-HMAC-SHA256 ").unwrap();
    let fields: std::collections::HashMap<&str, &str> =
        rest.split(", ").filter_map(|f| f.split_once('=')).collect();
    let scope = fields["Credential"].strip_prefix(&format!("{KEY_ID}/")).unwrap();
    let signed: Vec<&str> = fields["SignedHeaders"].split(';').collect();
    assert!(signed.contains(&"host") && signed.contains(&"x-amz-date"));
    assert_eq!(signed.contains(&"x-amz-security-token"), with_token);
    let amz_date = header("x-amz-date").unwrap();
    let canonical_headers: String =
        signed.iter().map(|name| format!("{name}:{}\n", header(name).unwrap().trim())).collect();
    let canonical = format!(
        "POST\n{}\n\n{canonical_headers}\n{}\n{}",
        request.url.path().replace('%', "%25"),
        fields["SignedHeaders"],
        hex(&sha256(&request.body))
    );
    let to_sign = format!("AWS4-HMAC-SHA256\n{amz_date}\n{scope}\n{}", hex(&sha256(canonical.as_bytes())));
    let mut parts = scope.split('/');
    let (date, region, service) = (parts.next().unwrap(), parts.next().unwrap(), parts.next().unwrap());
    assert_eq!((region, service), ("us-east-1", "bedrock"));
    let mut key = hmac(format!("AWS4{SECRET}").as_bytes(), date.as_bytes());
    for part in [region, service, "aws4_request"] {
        key = hmac(&key, part.as_bytes());
    }
    assert_eq!(
        fields["Signature"],
        hex(&hmac(&key, to_sign.as_bytes())),
        "the signature covers the request as sent"
    );
}

fn sha256(data: &[u8]) -> Vec<u8> {
    aws_lc_rs::digest::digest(&aws_lc_rs::digest::SHA256, data).as_ref().to_vec()
}

fn hmac(key: &[u8], data: &[u8]) -> Vec<u8> {
    aws_lc_rs::hmac::sign(&aws_lc_rs::hmac::Key::new(aws_lc_rs::hmac::HMAC_SHA256, key), data)
        .as_ref()
        .to_vec()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

async fn outcome(
    server: &MockServer,
    model: &Bedrock,
    responses: Vec<ResponseTemplate>,
) -> Result<(), tackle_core::ModelError> {
    server.reset().await;
    Mock::given(method("POST")).respond_with(Script::new(responses)).mount(server).await;
    let messages = [Message::user("hi")];
    let settings = settings();
    use futures_util::StreamExt;
    let mut stream = model.stream(ModelRequest::new("", &messages, &[], &settings));
    while let Some(event) = stream.next().await {
        event?;
    }
    Ok(())
}

#[tokio::test]
async fn errors_are_mapped_and_credentials_never_show() {
    let server = MockServer::start().await;
    let model = model().base_url(&server.uri()).unwrap();
    let error =
        |status: u16, message: &str| ResponseTemplate::new(status).set_body_json(json!({"message": message}));

    let throttled = || error(429, "Too many requests, please wait before trying again.");
    let err = outcome(&server, &model, vec![throttled(), throttled(), throttled()]).await.unwrap_err();
    assert_eq!(err.kind, ModelErrorKind::RateLimited);
    assert_eq!(server.received_requests().await.unwrap().len(), 3, "retried twice");

    let ok = stream_of(&[("messageStop", json!({"stopReason": "end_turn"}))]);
    outcome(&server, &model, vec![throttled(), ok]).await.unwrap();

    let err = outcome(&server, &model, vec![error(500, "Internal server error"); 3]).await.unwrap_err();
    assert_eq!(err.kind, ModelErrorKind::Server);

    let err = outcome(&server, &model, vec![error(400, "Input is too long for requested model.")])
        .await
        .unwrap_err();
    assert_eq!(err.kind, ModelErrorKind::ContextTooLong);

    let echoed = format!(
        "The security token included in the request is invalid. Key {KEY_ID}, token {TOKEN}, secret {SECRET}"
    );
    let err = outcome(&server, &model, vec![error(403, &echoed)]).await.unwrap_err();
    assert_eq!(err.kind, ModelErrorKind::Authentication);
    for secret in [KEY_ID, TOKEN, SECRET] {
        assert!(!err.message.contains(secret), "{}", err.message);
    }
    verify_signature(&server.received_requests().await.unwrap()[0], true);
}

#[tokio::test]
async fn an_api_key_goes_as_a_bearer_token_and_temporary_credentials_are_optional() {
    let server = MockServer::start().await;
    let ok = || {
        stream_of(&[
            ("contentBlockDelta", json!({"contentBlockIndex": 0, "delta": {"text": "ok"}})),
            ("messageStop", json!({"stopReason": "end_turn"})),
        ])
    };
    let keyed = Bedrock::with_auth(MODEL, "us-east-1", BedrockAuth::ApiKey(Secret::new("ABSKbedrock-key")))
        .unwrap()
        .client(test_client())
        .base_url(&server.uri())
        .unwrap();
    outcome(&server, &keyed, vec![ok()]).await.unwrap();
    let request = &server.received_requests().await.unwrap()[0];
    assert_eq!(request.headers.get("authorization").unwrap(), "Bearer ABSKbedrock-key");

    let long_term = Bedrock::with_auth(MODEL, "us-east-1", BedrockAuth::SigV4(credentials(false)))
        .unwrap()
        .client(test_client())
        .base_url(&server.uri())
        .unwrap()
        .streaming(false);
    let whole = ResponseTemplate::new(200).set_body_json(json!({"output": {"message": {"role": "assistant", "content": [{"text": "ok"}]}}, "stopReason": "end_turn"}));
    outcome(&server, &long_term, vec![whole]).await.unwrap();
    let request = &server.received_requests().await.unwrap()[0];
    assert!(request.url.path().ends_with("/converse"));
    verify_signature(request, false);
}

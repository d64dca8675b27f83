//! Every fuzz target as a bounded property test over arbitrary bytes (and over bytes that
//! look like the target's input), plus the inputs the fuzzer found, replayed.
#![allow(clippy::unwrap_used, missing_docs)]

use proptest::prelude::*;
use tackle_fuzz::TARGETS;

fn target(name: &str) -> fn(&[u8]) {
    TARGETS.iter().find(|(n, _)| *n == name).map(|(_, f)| *f).unwrap()
}

/// Bytes drawn from pieces of the target's own syntax, so that cases reach past the
/// first parse error.
fn shaped(pieces: &'static [&'static str]) -> impl Strategy<Value = Vec<u8>> {
    (any::<u8>(), prop::collection::vec((0..pieces.len(), any::<u8>(), any::<bool>()), 0..60)).prop_map(
        move |(seed, picks)| {
            let mut out = vec![seed];
            for (i, byte, raw) in picks {
                if raw {
                    out.push(byte);
                } else {
                    out.extend_from_slice(pieces[i].as_bytes());
                }
            }
            out
        },
    )
}

const HTML: &[&str] = &[
    "<p>",
    "</p>",
    "<div class=\"nav\">",
    "</div>",
    "<a href=\"/x\">",
    "</a>",
    "<script>",
    "</script>",
    "<!--",
    "-->",
    "&amp;",
    "&#x1F600;",
    "&#99999999;",
    "<table><tr><td>",
    "<h1>",
    "<pre>",
    "<li>",
    "<article>",
    "text, words. ",
    "<br>",
    "<meta property=og:title content=T>",
    "<title>",
    "</title>",
    "<base href=\"//h/\">",
    "<img src=a alt=b>",
    "<",
    ">",
    "\"",
    "=",
    " a=1",
    "<svg>",
    "<template>",
];
const SSE: &[&str] = &["data: ", "event: x", ":", "\n", "\r", "\r\n", "\n\n", "{\"a\":1}", "[DONE]", "é"];
const CHAT: &[&str] = &[
    "data: ",
    "\n\n",
    "[DONE]",
    "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hi\"}}]}",
    "{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"c\",\"function\":{\"name\":\"f\",\"arguments\":\"{\\\"a\\\"\"}}]}}]}",
    "{\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}",
    "{\"error\":{\"message\":\"x\"}}",
    "{\"usage\":{\"prompt_tokens\":3}}",
    "{",
    "}",
];
const RESPONSES: &[&str] = &[
    "event: response.output_text.delta\n",
    "data: ",
    "\n\n",
    "{\"type\":\"response.output_text.delta\",\"output_index\":0,\"delta\":\"hi\"}",
    "{\"type\":\"response.output_item.added\",\"output_index\":0,\"item\":{\"type\":\"function_call\",\"call_id\":\"c\",\"name\":\"f\"}}",
    "{\"type\":\"response.function_call_arguments.delta\",\"output_index\":0,\"delta\":\"{}\"}",
    "{\"type\":\"response.completed\",\"response\":{\"output\":[],\"usage\":{\"input_tokens\":1}}}",
    "{\"type\":\"error\",\"message\":\"x\"}",
    "{",
    "}",
];
const ANTHROPIC: &[&str] = &[
    "event: message_start\n",
    "data: ",
    "\n\n",
    "{\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":1}}}",
    "{\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"f\",\"input\":{}}}",
    "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"a\\\":\"}}",
    "{\"type\":\"content_block_stop\",\"index\":0}",
    "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"}}",
    "{\"type\":\"message_stop\"}",
    "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\"}}",
    "{",
    "}",
];
const GEMINI: &[&str] = &[
    "data: ",
    "\r\n\r\n",
    "\n\n",
    "{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"hi\",\"thought\":true}]}}]}",
    "{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"there\"}]}}],\"responseId\":\"r\"}",
    "{\"candidates\":[{\"content\":{\"parts\":[{\"functionCall\":{\"name\":\"f\",\"args\":{\"a\":1}},\"thoughtSignature\":\"c2ln\"}]},\"finishReason\":\"STOP\"}]}",
    "{\"candidates\":[{\"finishReason\":\"MALFORMED_FUNCTION_CALL\"}]}",
    "{\"usageMetadata\":{\"promptTokenCount\":3,\"thoughtsTokenCount\":2}}",
    "{\"promptFeedback\":{\"blockReason\":\"SAFETY\"}}",
    "{\"error\":{\"code\":429,\"status\":\"RESOURCE_EXHAUSTED\"}}",
    "{",
    "}",
];

/// Bedrock bodies: event-stream frames of the API's events, some cut, some with a byte
/// flipped, between raw bytes.
fn bedrock_frames() -> impl Strategy<Value = Vec<u8>> {
    const EVENTS: &[(&str, &str)] = &[
        ("messageStart", "{\"role\":\"assistant\"}"),
        ("contentBlockDelta", "{\"contentBlockIndex\":0,\"delta\":{\"text\":\"hi\"}}"),
        (
            "contentBlockDelta",
            "{\"contentBlockIndex\":1,\"delta\":{\"reasoningContent\":{\"text\":\"t\",\"signature\":\"s\"}}}",
        ),
        (
            "contentBlockStart",
            "{\"contentBlockIndex\":2,\"start\":{\"toolUse\":{\"toolUseId\":\"t\",\"name\":\"f\"}}}",
        ),
        (
            "contentBlockDelta",
            "{\"contentBlockIndex\":2,\"delta\":{\"toolUse\":{\"input\":\"{\\\"a\\\":\"}}}",
        ),
        ("contentBlockStop", "{\"contentBlockIndex\":2}"),
        ("messageStop", "{\"stopReason\":\"tool_use\"}"),
        ("metadata", "{\"usage\":{\"inputTokens\":1,\"outputTokens\":2}}"),
        ("exception:throttlingException", "{\"message\":\"slow\"}"),
    ];
    (any::<u8>(), prop::collection::vec((0..EVENTS.len(), any::<u8>(), 0u8..8), 0..30)).prop_map(
        |(seed, picks)| {
            let mut out = vec![seed];
            for (i, byte, how) in picks {
                let (kind, payload) = EVENTS[i];
                let mut frame = match kind.strip_prefix("exception:") {
                    Some(exception) => tackle_providers::eventstream::encode(
                        &[(":exception-type", exception), (":message-type", "exception")],
                        payload.as_bytes(),
                    ),
                    None => tackle_providers::eventstream::encode(
                        &[(":event-type", kind), (":message-type", "event")],
                        payload.as_bytes(),
                    ),
                };
                match how {
                    0 => frame.truncate(usize::from(byte) % frame.len()),
                    1 => {
                        let at = usize::from(byte) % frame.len();
                        frame[at] ^= 0x41;
                    }
                    2 => frame = vec![byte],
                    _ => {}
                }
                out.extend(frame);
            }
            out
        },
    )
}

const SCHEMA: &[&str] = &[
    "[",
    "]",
    "{",
    "}",
    ",",
    ":",
    "\"type\"",
    "\"object\"",
    "\"properties\"",
    "\"required\"",
    "\"anyOf\"",
    "\"$defs\"",
    "\"$ref\"",
    "\"#/$defs/a\"",
    "\"a\"",
    "\"items\"",
    "\"array\"",
    "null",
    "\"format\"",
    "\"date\"",
    "\"additionalProperties\"",
    "true",
    "1",
];
const ARGUMENTS: &[&str] = &[
    "{",
    "}",
    "\"city\"",
    ":",
    "\"Paris\"",
    ",",
    "\"days\"",
    "3",
    "-1",
    "1e999",
    "\"tags\"",
    "[",
    "]",
    "null",
    "\"units\"",
    "\"c\"",
    "\\u0000",
    "\"",
];

const GUARD: &[&str] = &[
    "ignore",
    "\u{200B}",
    "\u{202E}",
    "\u{E0041}",
    "ＩＧ",
    "sуstеm",
    "ΙGΝΟRΕ",
    "=?utf-8?B?",
    "?=",
    "SWdub3Jl",
    "%69%67",
    "&#73;",
    "\\u0049",
    "=49=67",
    "\\x69",
    "0x",
    " ",
    "\n",
    "é",
    "東京",
];

fn config() -> ProptestConfig {
    ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn every_target_takes_any_bytes(index in 0..TARGETS.len(), bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        (TARGETS[index].1)(&bytes);
    }

    #[test]
    fn html_shaped(bytes in shaped(HTML)) { target("html")(&bytes); }

    #[test]
    fn sse_shaped(bytes in shaped(SSE)) { target("sse")(&bytes); }

    #[test]
    fn chat_stream_shaped(bytes in shaped(CHAT)) { target("chat_stream")(&bytes); }

    #[test]
    fn responses_stream_shaped(bytes in shaped(RESPONSES)) { target("responses_stream")(&bytes); }

    #[test]
    fn anthropic_stream_shaped(bytes in shaped(ANTHROPIC)) { target("anthropic_stream")(&bytes); }

    #[test]
    fn gemini_stream_shaped(bytes in shaped(GEMINI)) { target("gemini_stream")(&bytes); }

    #[test]
    fn bedrock_stream_shaped(bytes in bedrock_frames()) { target("bedrock_stream")(&bytes); }

    #[test]
    fn gemini_schema_shaped(bytes in shaped(SCHEMA)) { target("gemini_schema")(&bytes[1..]); }

    #[test]
    fn charset_shaped(bytes in shaped(HTML)) { target("charset")(&bytes); }

    #[test]
    fn strict_schema_shaped(bytes in shaped(SCHEMA)) { target("strict_schema")(&bytes[1..]); }

    #[test]
    fn arguments_shaped(bytes in shaped(ARGUMENTS)) { target("arguments")(&bytes[1..]); }

    #[test]
    fn guard_shaped(bytes in shaped(GUARD)) { target("guard_normalize")(&bytes); }
}

/// Inputs the fuzzer found (crashes, once fixed, and interesting cases) stay as tests.
#[test]
fn regressions_replay() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/regressions");
    let mut replayed = 0;
    for (name, check) in TARGETS {
        let Ok(entries) = std::fs::read_dir(root.join(name)) else { continue };
        for entry in entries {
            let path = entry.unwrap().path();
            check(&std::fs::read(&path).unwrap());
            replayed += 1;
        }
    }
    println!("replayed {replayed} regression inputs");
}

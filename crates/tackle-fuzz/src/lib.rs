//! The checks behind tackle's fuzz targets. Each function takes arbitrary bytes, feeds them
//! to one parser of outside input, and panics only when something that must hold does not:
//! no parser may panic, loop without end or disagree with itself when its input arrives
//! split differently.
//!
//! The one decision that shaped this crate: the checks live here, in the workspace, so
//! that the same code runs under libFuzzer (the `fuzz/` crate, nightly) and as bounded
//! property tests over arbitrary bytes in CI (stable), and inputs the fuzzer found are
//! replayed by the tests from `fuzz/regressions/<target>/`.
#![allow(clippy::missing_panics_doc)]

use std::sync::{Arc, OnceLock};

use serde_json::{Map, Value, json};
use tackle_core::{ModelError, ModelEvent, ModelResponse, ToolArguments, ToolCall};
use tackle_http::SseDecoder;

/// One check: arbitrary bytes in, a panic when something that must hold does not.
pub type Check = fn(&[u8]);

/// Every target, by the name its fuzz binary has.
pub const TARGETS: &[(&str, Check)] = &[
    ("html", html),
    ("sse", sse),
    ("chat_stream", chat_stream),
    ("responses_stream", responses_stream),
    ("anthropic_stream", anthropic_stream),
    ("gemini_stream", gemini_stream),
    ("bedrock_stream", bedrock_stream),
    ("gemini_schema", gemini_schema),
    ("charset", charset),
    ("strict_schema", strict_schema),
    ("arguments", arguments),
    ("guard_normalize", guard_normalize),
];

/// Splits `data` into chunks whose sizes come from `seed` (1 to 64 bytes).
fn chunks(data: &[u8], seed: u8) -> Vec<&[u8]> {
    let mut out = Vec::new();
    let mut rest = data;
    let mut state = u32::from(seed) | 1;
    while !rest.is_empty() {
        state = state.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        let size = (1 + (state >> 16) as usize % 64).min(rest.len());
        out.push(&rest[..size]);
        rest = &rest[size..];
    }
    out
}

/// HTML extraction: any bytes (as text, lossily) extract without panicking; page fields
/// are bounded as documented; the same text extracts the same way twice.
pub fn html(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let Ok(url) = url::Url::parse("https://example.com/a/b?c=d") else { return };
    let page = tackle_extract::extract(&text, tackle_extract::ContentKind::Html, &url);
    for field in [&page.title, &page.description, &page.author, &page.site_name].into_iter().flatten() {
        assert!(field.chars().count() <= 1000, "a metadata field longer than its cap");
    }
    let again = tackle_extract::extract(&text, tackle_extract::ContentKind::Html, &url);
    assert_eq!(page, again, "extraction is not deterministic");
    let (cut, _) = tackle_extract::truncate(&page.markdown, 200);
    assert!(cut.chars().count() <= 200 + 60, "truncation overshoots its budget");
}

/// The SSE decoder: one feed and a split feed agree, and nothing is buffered past the
/// line limit.
pub fn sse(data: &[u8]) {
    let Some((&seed, body)) = data.split_first() else { return };
    let limit = 256;
    let mut whole = SseDecoder::new().max_line(limit);
    let all = whole.feed(body).map(|mut events| {
        events.extend(whole.finish());
        events
    });
    let mut split = SseDecoder::new().max_line(limit);
    let mut parts = Ok(Vec::new());
    for chunk in chunks(body, seed) {
        match split.feed(chunk) {
            Ok(events) => {
                if let Ok(so_far) = &mut parts {
                    so_far.extend(events);
                }
            }
            Err(error) => {
                parts = Err(error);
                break;
            }
        }
    }
    if let Ok(so_far) = &mut parts {
        so_far.extend(split.finish());
    }
    match (all, parts) {
        (Ok(a), Ok(b)) => assert_eq!(a, b, "a split stream decoded differently"),
        (Err(_), Err(_)) => {}
        (a, b) => panic!("whole ok: {}, split ok: {}", a.is_ok(), b.is_ok()),
    }
}

type Decoded = Result<(Vec<ModelEvent>, ModelResponse), ModelError>;

/// A recorded stream: decoded whole and split, the outcomes must agree; a whole body
/// decodes without panicking.
fn stream(data: &[u8], decode_stream: fn(Vec<&[u8]>) -> Decoded, decode_response: fn(&[u8]) -> Decoded) {
    let Some((&seed, body)) = data.split_first() else { return };
    let whole = decode_stream(vec![body]);
    let split = decode_stream(chunks(body, seed));
    match (&whole, &split) {
        (Ok((_, a)), Ok((_, b))) => {
            assert_eq!(a.turn.parts.len(), b.turn.parts.len(), "a split stream gave another turn");
            assert_eq!(a.turn.finish_reason, b.turn.finish_reason);
            assert_eq!(a.turn.usage, b.turn.usage);
        }
        (Err(a), Err(b)) => assert_eq!(a.kind, b.kind, "a split stream failed differently"),
        (a, b) => panic!("whole ok: {}, split ok: {}", a.is_ok(), b.is_ok()),
    }
    let _ = decode_response(body);
}

/// The Chat Completions accumulator.
pub fn chat_stream(data: &[u8]) {
    stream(
        data,
        |chunks| tackle_providers::openai_chat::decode_stream(chunks),
        tackle_providers::openai_chat::decode_response,
    );
}

/// The Responses accumulator.
pub fn responses_stream(data: &[u8]) {
    stream(
        data,
        |chunks| tackle_providers::openai_responses::decode_stream(chunks),
        tackle_providers::openai_responses::decode_response,
    );
}

/// The Anthropic Messages accumulator.
pub fn anthropic_stream(data: &[u8]) {
    stream(
        data,
        |chunks| tackle_providers::anthropic::decode_stream(chunks),
        tackle_providers::anthropic::decode_response,
    );
}

/// The Gemini accumulator.
pub fn gemini_stream(data: &[u8]) {
    stream(
        data,
        |chunks| tackle_providers::gemini::decode_stream(chunks),
        tackle_providers::gemini::decode_response,
    );
}

/// The Bedrock accumulator behind the event-stream decoder (binary frames, checksums).
pub fn bedrock_stream(data: &[u8]) {
    stream(
        data,
        |chunks| tackle_providers::bedrock::decode_stream(chunks),
        tackle_providers::bedrock::decode_response,
    );
}

/// The keywords a lowered Gemini schema may hold.
const GEMINI_KEYWORDS: &[&str] = &[
    "type",
    "format",
    "title",
    "description",
    "nullable",
    "enum",
    "properties",
    "required",
    "items",
    "minItems",
    "maxItems",
    "minProperties",
    "maxProperties",
    "minLength",
    "maxLength",
    "pattern",
    "minimum",
    "maximum",
    "anyOf",
    "default",
    "example",
    "additionalProperties",
];

/// Walks a lowered schema: every schema holds only the subset's keywords, `type` is one
/// name, and the nesting is bounded.
fn gemini_subset(schema: &Value, depth: usize) {
    assert!(depth <= 64, "a lowered schema nests without bound");
    let Value::Object(map) = schema else { panic!("a lowered schema is not an object: {schema}") };
    for (key, value) in map {
        assert!(GEMINI_KEYWORDS.contains(&key.as_str()), "{key} is outside Gemini's subset");
        match key.as_str() {
            "type" | "description" | "title" | "format" | "pattern" => {
                assert!(value.is_string(), "{key} is not a string: {value}");
            }
            "enum" | "required" => {
                assert!(value.as_array().is_some_and(|v| v.iter().all(Value::is_string)), "{key}: {value}");
            }
            "nullable" => assert!(value.is_boolean(), "nullable: {value}"),
            "properties" => {
                value.as_object().into_iter().flatten().for_each(|(_, s)| gemini_subset(s, depth + 1))
            }
            "anyOf" => value.as_array().into_iter().flatten().for_each(|s| gemini_subset(s, depth + 1)),
            "items" | "additionalProperties" => gemini_subset(value, depth + 1),
            _ => {}
        }
    }
}

/// Gemini's schema lowering: any object schema lowers to one inside the subset, of bounded
/// size, the same way twice.
pub fn gemini_schema(data: &[u8]) {
    let Ok(Value::Object(schema)) = serde_json::from_slice::<Value>(data) else { return };
    let lowered = tackle_providers::gemini::lower_schema(&schema);
    gemini_subset(&lowered, 0);
    assert_eq!(lowered, tackle_providers::gemini::lower_schema(&schema), "lowering is not deterministic");
}

const CONTENT_TYPES: &[Option<&str>] = &[
    None,
    Some("text/html"),
    Some("text/html; charset=utf-8"),
    Some("text/html; charset=\"windows-1252\""),
    Some("text/plain; charset=shift_jis"),
    Some("text/plain; charset=utf-16le"),
    Some("text/html; charset=iso-2022-jp"),
    Some("text/html; charset=gb18030"),
    Some("text/html; charset=nonsense"),
    Some("text/html; charset="),
    Some(";;;charset=koi8-r;charset=big5"),
];

/// Charset decoding: any body under any content type decodes to text; the kind check
/// accepts or refuses without panicking.
pub fn charset(data: &[u8]) {
    let Some((&pick, body)) = data.split_first() else { return };
    let content_type = CONTENT_TYPES[usize::from(pick) % CONTENT_TYPES.len()];
    let kind = tackle_web::kind_of(content_type).unwrap_or(tackle_web::ContentKind::Text);
    let text = tackle_web::decode(body, content_type, kind);
    // Decoding never invents more than a replacement character (3 bytes) per input byte.
    assert!(text.len() <= 3 * body.len() + 3, "decoded text out of proportion");
    if let Ok(as_header) = std::str::from_utf8(body) {
        let _ = tackle_web::kind_of(Some(as_header));
    }
}

/// Strict-schema lowering: a JSON document `[schema, arguments]` (or a schema alone)
/// lowers or is refused without panicking; a lowered schema is an object schema that
/// forbids undeclared properties; removing strict-mode nulls keeps an object an object.
pub fn strict_schema(data: &[u8]) {
    let Ok(value) = serde_json::from_slice::<Value>(data) else { return };
    let (schema, mut arguments) = match value {
        Value::Array(mut pair) if pair.len() == 2 => {
            let arguments = pair.pop().unwrap_or_default();
            (pair.pop().unwrap_or_default(), arguments)
        }
        other => (other, json!({})),
    };
    let Value::Object(schema) = schema else { return };
    if let Ok(lowered) = tackle_providers::strict::lower(&schema) {
        assert!(lowered.is_object(), "a lowered schema is not an object");
        if lowered.get("type") == Some(&json!("object")) && lowered.get("properties").is_some() {
            assert_eq!(lowered.get("additionalProperties"), Some(&json!(false)), "{lowered}");
        }
    }
    let was_object = arguments.is_object();
    tackle_providers::strict::strip_optional_nulls(&schema, &mut arguments);
    assert_eq!(arguments.is_object(), was_object);
}

fn runtime() -> &'static tokio::runtime::Runtime {
    static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap_or_else(|e| panic!("{e}"))
    })
}

fn registry() -> &'static tackle_tools::ToolRegistry {
    static REGISTRY: OnceLock<tackle_tools::ToolRegistry> = OnceLock::new();
    REGISTRY.get_or_init(|| {
        let schema = json!({
            "type": "object",
            "properties": {
                "city": {"type": "string", "maxLength": 40},
                "days": {"type": "integer", "minimum": 1, "maximum": 14},
                "units": {"enum": ["c", "f"]},
                "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 5}
            },
            "required": ["city"],
            "additionalProperties": false
        });
        let tool = tackle_tools::function_tool(
            "forecast",
            "Forecast.",
            schema,
            |_ctx, args: Map<String, Value>| async move {
                Ok::<_, tackle_tools::ToolError>(tackle_core::ToolReturn::text(
                    Value::Object(args).to_string(),
                ))
            },
        )
        .build()
        .unwrap_or_else(|e| panic!("{e}"));
        tackle_tools::ToolRegistry::builder().tool(tool).build().unwrap_or_else(|e| panic!("{e}"))
    })
}

/// Argument parsing and validation: any text a model sends as arguments is parsed, and a
/// call with it goes through the executor to exactly one result — the tool's, or an
/// invalid-arguments correction — never a panic.
pub fn arguments(data: &[u8]) {
    let raw = String::from_utf8_lossy(data);
    let parsed = ToolArguments::parse(&raw);
    assert_eq!(parsed.problem().is_none(), parsed.as_object().is_some());
    if let ToolArguments::Invalid { .. } = &parsed {
        assert_eq!(parsed.raw_text(), raw);
    }
    let call = ToolCall::from_raw("call_1", "forecast", &raw);
    let run = Arc::new(tackle_tools::RunContext::new("fuzz"));
    let registry = registry();
    let offer = registry.offer(&run);
    let executor = tackle_tools::Executor::new();
    let outcome = runtime().block_on(async {
        let mut state = tackle_tools::ExecutionState::default();
        executor.execute(&offer, &run, std::slice::from_ref(&call), &mut state).await
    });
    assert_eq!(outcome.returns.len(), 1, "one call, one result");
}

/// The guard's first layers: normalisation maps every normalised range back to a range of
/// the original on character boundaries; every carrier found lies within the text.
pub fn guard_normalize(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let normalized = tackle_guard::normalize(&text);
    let n = normalized.text.len();
    for (start, end) in [(0, n), (n / 3, n / 2), (n / 2, n)] {
        let back = normalized.original_range(start..end);
        assert!(back.start <= back.end && back.end <= text.len());
        assert!(text.is_char_boundary(back.start) && text.is_char_boundary(back.end));
    }
    for found in tackle_guard::find_carriers(&text) {
        assert!(found.range.start < found.range.end && found.range.end <= text.len());
        assert!(text.is_char_boundary(found.range.start) && text.is_char_boundary(found.range.end));
    }
    // The whole guard, at its most eager: text without findings comes back byte for byte,
    // findings lie within the text and each leaves a marker.
    static GUARD: std::sync::OnceLock<tackle_guard::Guard<tackle_guard::Trees>> = std::sync::OnceLock::new();
    let guard = GUARD.get_or_init(|| {
        tackle_guard::Guard::new(
            tackle_guard::Trees::trained(),
            tackle_guard::Strictness::Strict,
            tackle_guard::Thresholds::default(),
        )
    });
    let input = tackle_guard::Input {
        source: "fuzz".into(),
        field: "content".into(),
        text: text.clone().into_owned(),
    };
    let (out, report) = guard.check(vec![input]);
    assert_eq!(out.len(), 1);
    if report.is_clean() {
        assert_eq!(out[0], text);
    } else {
        for finding in report.sources.iter().flat_map(|s| &s.findings) {
            assert!(finding.range.start <= finding.range.end && finding.range.end <= text.len());
        }
        assert!(out[0].contains("[tackle-guard: suspicious text removed"));
    }
}

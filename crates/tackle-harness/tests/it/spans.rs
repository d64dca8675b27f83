//! The OpenTelemetry GenAI spans a run makes: `invoke_agent`, `chat {model}` per round and
//! `execute_tool {tool}` per call, with their attributes, and nothing of what was said.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use serde_json::json;
use tackle_core::AssistantTurn;
use tackle_harness::Harness;
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing_subscriber::layer::{Context, Layer, SubscriberExt as _};
use tracing_subscriber::registry::LookupSpan;

use super::{answer_text, calls, ctx, registry, start};

#[derive(Debug, Clone, Default)]
struct Captured {
    name: String,
    parent: Option<String>,
    fields: BTreeMap<String, String>,
}

/// Keeps every span with its fields (as recorded, then as updated) and its parent's name.
#[derive(Clone, Default)]
struct Spans(Arc<Mutex<Vec<(u64, Captured)>>>);

struct Fields<'a>(&'a mut BTreeMap<String, String>);

impl Visit for Fields<'_> {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        self.0.insert(field.name().to_owned(), format!("{value:?}"));
    }
    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.insert(field.name().to_owned(), value.to_owned());
    }
}

impl<S: tracing::Subscriber + for<'a> LookupSpan<'a>> Layer<S> for Spans {
    fn on_new_span(&self, attrs: &Attributes<'_>, id: &Id, ctx: Context<'_, S>) {
        let mut captured = Captured { name: attrs.metadata().name().to_owned(), ..Captured::default() };
        attrs.record(&mut Fields(&mut captured.fields));
        captured.parent = ctx.span(id).and_then(|span| span.parent()).map(|parent| parent.name().to_owned());
        self.0.lock().unwrap().push((id.into_u64(), captured));
    }

    fn on_record(&self, id: &Id, values: &Record<'_>, _ctx: Context<'_, S>) {
        let mut spans = self.0.lock().unwrap();
        if let Some((_, captured)) = spans.iter_mut().rev().find(|(n, _)| *n == id.into_u64()) {
            values.record(&mut Fields(&mut captured.fields));
        }
    }
}

#[tokio::test]
async fn a_run_makes_genai_spans_without_prompts_arguments_or_results() {
    let recorded = Spans::default();
    let subscriber = tracing_subscriber::registry().with(recorded.clone());
    let _guard = tracing::subscriber::set_default(subscriber);

    let harness = Harness::new(registry());
    let mut first =
        calls(&[("c1", "fetch", json!({"url": "https://example.org/secret-page", "token": "tok-123"}))]);
    first.usage = tackle_core::Usage::default().input_tokens(120).output_tokens(7);
    let model = tackle_test::ScriptedModel::new([first, AssistantTurn::text("The page says hello.")]);
    let mut state = start(&harness);
    let outcome = harness.run(&model, &ctx(), &mut state, &mut tackle_harness::Discard).await.unwrap();
    assert_eq!(answer_text(outcome), "The page says hello.");

    let spans: Vec<Captured> = recorded.0.lock().unwrap().iter().map(|(_, c)| c.clone()).collect();
    let names: Vec<&str> = spans.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["invoke_agent", "chat", "execute_tool", "chat"], "{spans:#?}");
    let run = &spans[0];
    assert_eq!(run.fields["gen_ai.operation.name"], "invoke_agent");
    assert_eq!(run.fields["gen_ai.conversation.id"], "run-1");
    assert!(!run.fields.contains_key("error.type"));

    let chat = &spans[1];
    assert_eq!(chat.parent.as_deref(), Some("invoke_agent"));
    assert_eq!(chat.fields["otel.name"], "chat scripted");
    assert_eq!(chat.fields["gen_ai.operation.name"], "chat");
    assert_eq!(chat.fields["gen_ai.provider.name"], "test");
    assert_eq!(chat.fields["gen_ai.request.model"], "scripted");
    assert_eq!(chat.fields["gen_ai.usage.input_tokens"], "120");
    assert_eq!(chat.fields["gen_ai.usage.output_tokens"], "7");

    let tool = &spans[2];
    assert_eq!(tool.parent.as_deref(), Some("invoke_agent"), "calls are the run's, beside its rounds");
    assert_eq!(tool.fields["otel.name"], "execute_tool fetch");
    assert_eq!(tool.fields["gen_ai.tool.name"], "fetch");
    assert_eq!(tool.fields["gen_ai.tool.call.id"], "c1");
    assert_eq!(tool.fields["gen_ai.tool.type"], "function");

    // Nothing said, asked or returned is in any span.
    let everything = format!("{spans:?}");
    for private in ["help", "terse", "example.org", "tok-123", "secret-page", "hello", "page at"] {
        assert!(!everything.contains(private), "{private:?} leaked into a span: {everything}");
    }

    // An operator who opts in sees arguments, sensitive ones masked, and results. (The only
    // test in this binary that turns the process-wide switch on, after its own checks.)
    recorded.0.lock().unwrap().clear();
    tackle_core::telemetry::set_capture_content(true);
    let first =
        calls(&[("c2", "fetch", json!({"url": "https://example.org/secret-page", "token": "tok-123"}))]);
    let model = tackle_test::ScriptedModel::new([first, AssistantTurn::text("Done.")]);
    let mut state = start(&harness);
    let outcome = harness.run(&model, &ctx(), &mut state, &mut tackle_harness::Discard).await;
    tackle_core::telemetry::set_capture_content(false);
    assert_eq!(answer_text(outcome.unwrap()), "Done.");
    let spans: Vec<Captured> = recorded.0.lock().unwrap().iter().map(|(_, c)| c.clone()).collect();
    let tool = spans.iter().find(|s| s.name == "execute_tool").unwrap();
    assert_eq!(
        tool.fields["gen_ai.tool.call.arguments"],
        r#"{"url":"https://example.org/secret-page","token":"*****"}"#
    );
    assert!(
        tool.fields["gen_ai.tool.call.result"].contains("page at https://example.org/secret-page"),
        "{tool:?}"
    );
    assert!(!format!("{spans:?}").contains("tok-123"));
}

#[tokio::test]
async fn a_failed_call_and_a_failed_run_name_their_error_type() {
    let spans = Spans::default();
    let subscriber = tracing_subscriber::registry().with(spans.clone());
    let _guard = tracing::subscriber::set_default(subscriber);

    let harness = Harness::new(registry());
    // A call of a tool nobody offers, then the model's stream breaks off.
    let model = tackle_test::ScriptedModel::new([calls(&[("c1", "nope", json!({}))])]);
    let mut state = start(&harness);
    let error = harness.run(&model, &ctx(), &mut state, &mut tackle_harness::Discard).await.unwrap_err();
    let spans: Vec<Captured> = spans.0.lock().unwrap().iter().map(|(_, c)| c.clone()).collect();
    let tool = spans.iter().find(|s| s.name == "execute_tool").expect("a tool span");
    assert_eq!(tool.fields["error.type"], "not_available", "{tool:?}");
    let run = &spans[0];
    assert!(run.fields.contains_key("error.type"), "{error}: {run:?}");
    let last_chat = spans.iter().rev().find(|s| s.name == "chat").unwrap();
    assert_eq!(last_chat.fields.get("error.type"), run.fields.get("error.type"));
}

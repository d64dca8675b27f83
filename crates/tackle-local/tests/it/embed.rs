//! The sentence embedder: the real all-MiniLM-L6-v2 against an independent implementation
//! (NumPy, written from the BERT paper's equations, run once to produce the figures below),
//! the embedding cache, and tool search over 237 real MCP tools ranked by words and meaning.

#![allow(clippy::print_stderr)]

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

use tackle_core::{EmbedError, Embedder, similarity};
use tackle_local::{CachedEmbedder, MINILM_L6_TOKENIZER, MINILM_L6_WEIGHTS, MiniLm};
use tackle_tools::SearchOptions;

use crate::{model_dir, required};

/// The embedder from the model cache, once; `None` (after saying why) when its files are
/// not there and `TACKLE_REQUIRE_MODEL` does not ask for them.
fn minilm() -> Option<Arc<MiniLm>> {
    static MODEL: OnceLock<Option<Arc<MiniLm>>> = OnceLock::new();
    MODEL
        .get_or_init(|| {
            let dir = model_dir();
            let present = [MINILM_L6_WEIGHTS, MINILM_L6_TOKENIZER]
                .iter()
                .all(|r| tackle_local::installed(r, &dir).is_some());
            match present {
                true => Some(Arc::new(MiniLm::load(&dir).expect("the embedder loads"))),
                false if required() => panic!(
                    "TACKLE_REQUIRE_MODEL is set but the embedder is not in {}; run `tackle model pull`",
                    dir.display()
                ),
                false => {
                    eprintln!("note: skipping the embedder tests: run `tackle model pull` to fetch it");
                    None
                }
            }
        })
        .clone()
}

#[test]
fn minilm_agrees_with_an_independent_implementation() {
    let Some(model) = minilm() else { return };
    let texts = [
        "A man is eating food.",
        "A man is eating a piece of bread.",
        "A man is riding a horse.",
        "The new movie is awesome",
    ];
    let vectors = model.embed(&texts).unwrap();
    assert_eq!(vectors.len(), 4);
    assert!(vectors.iter().all(|v| v.len() == 384));
    // The reference's first six dimensions of the first sentence, and its cosines.
    let head = [0.03324, 0.00441, -0.00628, 0.04838, -0.1387, -0.03362];
    for (got, want) in vectors[0].iter().zip(head) {
        assert!((got - want).abs() < 1e-3, "{:?}", &vectors[0][..6]);
    }
    for (i, want) in [(1, 0.7553), (2, 0.2474), (3, -0.0402)] {
        let got = similarity(&vectors[0], &vectors[i]);
        assert!((got - want).abs() < 2e-3, "{} ↔ {}: {got}", texts[0], texts[i]);
    }
    // Unit length, and a text embeds the same alone as in a batch of longer ones (the
    // padding is masked out of the mean).
    for v in &vectors {
        let norm: f32 = v.iter().map(|x| x * x).sum::<f32>().sqrt();
        assert!((norm - 1.0).abs() < 1e-4);
    }
    let alone = model.embed(&[texts[3]]).unwrap();
    assert!(similarity(&alone[0], &vectors[3]) > 0.9999);
    // Text beyond the model's window is cut, not refused.
    let long = "word ".repeat(2000);
    assert_eq!(model.embed(&[&long]).unwrap()[0].len(), 384);
}

/// An embedder for the cache tests: a vector from the text's length, and a count of calls.
struct Counting(Arc<AtomicUsize>);

impl Embedder for Counting {
    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
        self.0.fetch_add(texts.len(), Ordering::Relaxed);
        Ok(texts.iter().map(|t| vec![t.len() as f32, 1.0]).collect())
    }

    fn name(&self) -> &str {
        "counting"
    }
}

#[test]
fn the_cache_embeds_each_text_once_per_machine() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("embeddings.bin");
    let calls = Arc::new(AtomicUsize::new(0));
    let first = CachedEmbedder::new(Counting(calls.clone()), &path);
    assert_eq!(first.embed(&["ab", "abc"]).unwrap(), [vec![2.0, 1.0], vec![3.0, 1.0]]);
    assert_eq!(first.embed(&["abc", "abcd"]).unwrap(), [vec![3.0, 1.0], vec![4.0, 1.0]]);
    assert_eq!(calls.load(Ordering::Relaxed), 3);
    // Another process (a new cache on the same file) embeds nothing again.
    let second = CachedEmbedder::new(Counting(calls.clone()), &path);
    assert_eq!(second.embed(&["abcd", "ab"]).unwrap(), [vec![4.0, 1.0], vec![2.0, 1.0]]);
    assert_eq!(calls.load(Ordering::Relaxed), 3);
    // A write cut short at the end loses only that record.
    let mut bytes = std::fs::read(&path).unwrap();
    bytes.truncate(bytes.len() - 3);
    std::fs::write(&path, &bytes).unwrap();
    let third = CachedEmbedder::new(Counting(calls.clone()), &path);
    third.embed(&["ab", "abc", "abcd"]).unwrap();
    assert_eq!(calls.load(Ordering::Relaxed), 4, "only the cut record is embedded again");
    // Queries pass through: asked twice, embedded twice, and the file does not grow.
    let size = std::fs::metadata(&path).unwrap().len();
    third.embed_query("a question").unwrap();
    third.embed_query("a question").unwrap();
    assert_eq!(calls.load(Ordering::Relaxed), 6);
    assert_eq!(std::fs::metadata(&path).unwrap().len(), size);
    // A file that is no cache is ignored, then replaced.
    std::fs::write(&path, b"not a cache at all").unwrap();
    let fourth = CachedEmbedder::new(Counting(calls.clone()), &path);
    assert_eq!(fourth.embed(&["ab"]).unwrap(), [vec![2.0, 1.0]]);
    assert_eq!(calls.load(Ordering::Relaxed), 7);
    let fifth = CachedEmbedder::new(Counting(calls.clone()), &path);
    fifth.embed(&["ab"]).unwrap();
    assert_eq!(calls.load(Ordering::Relaxed), 7, "the replaced file is read");
}

// The catalog and the evaluation tackle-tools' own tool-search test uses.
#[path = "../../../tackle-tools/tests/catalog/mod.rs"]
mod catalog;

#[tokio::test]
async fn tool_search_by_words_and_meaning_finds_the_right_tool() {
    let Some(model) = minilm() else { return };
    let registry = catalog::catalog().with_tool_search_by(SearchOptions::default(), Some(model)).unwrap();
    let rate = |(hits, n): (usize, usize)| hits as f64 / n as f64;
    let every_third: fn(usize) -> bool = |i| i % 3 == 2;
    let all: fn(usize) -> bool = |_| true;
    let none: fn(usize) -> bool = |_| false;
    for (set, requests, held_out_lines, dev_floor, held_out_floor) in [
        // Floors against regressions, below what was measured when the ranking was fixed
        // (held out: set 1 0.980, set 2 0.958, set 16 0.905, set 17 0.943; development: sets 3 to 15,
        // 0.942, 0.986, 0.963, 0.935, 0.934, 0.938, 0.926, 0.910, 0.972, 0.919, 0.918, 0.919
        // and 0.961, on which the ranking's weights were learnt and its words chosen).
        ("1", include_str!("../../../tackle-tools/data/tool-requests.jsonl"), every_third, 0.95, 0.95),
        ("2", include_str!("../../../tackle-tools/data/tool-requests-2.jsonl"), every_third, 0.95, 0.93),
        ("3", include_str!("../../../tackle-tools/data/tool-requests-3.jsonl"), none, 0.92, 0.0),
        ("4", include_str!("../../../tackle-tools/data/tool-requests-4.jsonl"), none, 0.95, 0.0),
        ("5", include_str!("../../../tackle-tools/data/tool-requests-5.jsonl"), none, 0.93, 0.0),
        ("6", include_str!("../../../tackle-tools/data/tool-requests-6.jsonl"), none, 0.91, 0.0),
        ("7", include_str!("../../../tackle-tools/data/tool-requests-7.jsonl"), none, 0.91, 0.0),
        ("8", include_str!("../../../tackle-tools/data/tool-requests-8.jsonl"), none, 0.91, 0.0),
        ("9", include_str!("../../../tackle-tools/data/tool-requests-9.jsonl"), none, 0.9, 0.0),
        ("10", include_str!("../../../tackle-tools/data/tool-requests-10.jsonl"), none, 0.89, 0.0),
        ("11", include_str!("../../../tackle-tools/data/tool-requests-11.jsonl"), none, 0.95, 0.0),
        ("12", include_str!("../../../tackle-tools/data/tool-requests-12.jsonl"), none, 0.9, 0.0),
        ("13", include_str!("../../../tackle-tools/data/tool-requests-13.jsonl"), none, 0.9, 0.0),
        ("14", include_str!("../../../tackle-tools/data/tool-requests-14.jsonl"), none, 0.9, 0.0),
        ("15", include_str!("../../../tackle-tools/data/tool-requests-15.jsonl"), none, 0.94, 0.0),
        // Written before this round's changes, scored once after them.
        ("16", include_str!("../../../tackle-tools/data/tool-requests-16.jsonl"), all, 0.0, 0.88),
        // Written after set 16 was scored, scored once by the same ranking.
        ("17", include_str!("../../../tackle-tools/data/tool-requests-17.jsonl"), all, 0.0, 0.93),
    ] {
        let (dev, held_out, misses) = catalog::evaluate(&registry, requests, held_out_lines).await;
        // The development misses, on request (only development lines are ever listed).
        if std::env::var_os("TACKLE_SHOW_MISSES").is_some() {
            for miss in &misses {
                eprintln!("  set {set} miss: {miss}");
            }
        }
        if dev.1 > 0 {
            eprintln!(
                "tool search (words and meaning) top-5, set {set}: dev {}/{} = {:.3}",
                dev.0,
                dev.1,
                rate(dev)
            );
        }
        if std::env::var_os("TACKLE_SHOW_HELD_OUT").is_some() {
            eprintln!(
                "tool search (words and meaning) top-5, set {set}: held out {}/{} = {:.3}",
                held_out.0,
                held_out.1,
                rate(held_out)
            );
        }
        assert!(dev.1 == 0 || rate(dev) >= dev_floor, "set {set}: dev top-5 {:.3}", rate(dev));
        assert!(
            held_out.1 == 0 || rate(held_out) >= held_out_floor,
            "set {set}: held-out top-5 {:.3}",
            rate(held_out)
        );
    }
}

#[test]
fn the_router_reads_whether_an_answer_depends_on_the_date() {
    let (Some(embedder), Some(model)) = (minilm(), crate::model()) else { return };
    let model = model.clone().embedder(embedder);
    let tool = |name: &str, description: &str| {
        Arc::new(tackle_core::ToolDefinition::new(
            name,
            description,
            tackle_core::JsonSchema::new(serde_json::json!({
                "type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]
            }))
            .unwrap(),
        ))
    };
    let tools = vec![
        tool("news_search", "Search the news for what happened lately: results, prices, the weather."),
        tool("calculate", "Evaluate an arithmetic expression."),
    ];
    let settings = tackle_core::ModelSettings::default();
    let options = |request: &str| {
        let messages = vec![tackle_core::Message::user(request)];
        model.explain_route(&tackle_core::ModelRequest::new("", &messages, &tools, &settings)).unwrap()
    };
    let none =
        |options: &[tackle_local::RouteOption]| options.iter().find(|o| o.tool.is_none()).unwrap().situated;
    let timely = |options: &[tackle_local::RouteOption], name: &str| {
        options.iter().find(|o| o.tool.as_deref() == Some(name)).unwrap().timely.unwrap()
    };
    // No word of the present in either request: the head reads their meaning.
    let results = options("who won the champions league final");
    let poem = options("write a limerick about a forgetful robot");
    assert!(none(&results).unwrap() > 0.5, "{results:?}");
    assert!(none(&poem).unwrap() < 0.2, "{poem:?}");
    // A tool whose own words speak of what changes gains from it; a calculator less.
    assert!(timely(&results, "news_search") > timely(&results, "calculate"), "{results:?}");
    assert!(timely(&results, "news_search") > timely(&poem, "news_search"), "{results:?} {poem:?}");
}

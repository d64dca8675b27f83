//! Measures a second opinion for the prompt-injection guard on the units its scorer finds
//! borderline: a logistic head over all-MiniLM-L6-v2's sentence embedding of a unit and the
//! scorer's own log-odds for it, as a `tackle_guard::Classifier` would give it. Tried on
//! 2026-12-06 and not shipped (the figures are in `tackle-guard/data/README.md`).
//!
//! `cargo run --release -p tackle-local --example guard_head -- MODEL_DIR UNITS.jsonl
//! [--cache FILE] [--min-positive S] [--shifts A,B,…] [--dump-scores FILE]`, where
//! UNITS.jsonl is written by the guard's trainer (`examples/train.rs --dump-units FILE
//! --dump-sets A,B`) and MODEL_DIR holds the MiniLM files. The head learns from the part
//! `train` only (every positive unit the embedder can read scoring `S` or more, every
//! negative in the band and every twelfth other); every other part is scored with it, per
//! text: a text's score is its highest unit score, the head's where the scorer's lies in
//! the band and the embedder can read the unit, the scorer's elsewhere. `--shifts` moves
//! the head's bias (fewer false alarms for less recall); `--cache FILE` keeps the
//! embeddings between runs (`CachedEmbedder`'s file); `--dump-scores FILE` writes the head's score of every unit it is
//! asked about outside the training part.
#![allow(clippy::print_stdout, clippy::print_stderr, clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::collections::{BTreeMap, HashMap};
use std::io::{Read as _, Write as _};
use std::ops::Range;
use tackle_core::Embedder;
use tackle_local::{CachedEmbedder, MiniLm};

/// The width of the embedding.
const DIMENSIONS: usize = 384;

/// The scores the head is asked about: under the default threshold (0.5) and not so low
/// that the scorer is sure. Units the scorer marks stay marked.
const BAND: Range<f32> = 0.02..0.5;

/// Whether the embedder can read `text`: all-MiniLM-L6-v2 learnt English (its word pieces
/// cover the Latin alphabet), so a unit whose letters are mostly of other scripts (Chinese,
/// Japanese, Cyrillic) is left to the scorer.
fn readable(text: &str) -> bool {
    let (mut latin, mut letters) = (0usize, 0usize);
    for c in text.chars().filter(|c| c.is_alphabetic()) {
        letters += 1;
        latin += usize::from(c <= '\u{024f}');
    }
    letters > 0 && latin * 10 >= letters * 9
}

/// The head: a weight per dimension of the embedding, one for the scorer's log-odds and a
/// bias.
#[derive(Debug, Clone, PartialEq)]
struct Head {
    /// One per dimension.
    weights: Vec<f32>,
    /// The weight of the scorer's log-odds.
    score_weight: f32,
    /// The starting log-odds.
    bias: f32,
}

impl Head {
    /// A probability's log-odds, bounded so that 0 and 1 stay finite.
    fn log_odds(score: f32) -> f32 {
        let p = score.clamp(1e-4, 1.0 - 1e-4);
        (p / (1.0 - p)).ln()
    }

    /// The probability that a unit with this embedding and this score is an injection.
    fn probability(&self, embedding: &[f32], score: f32) -> f32 {
        let z: f32 = self.weights.iter().zip(embedding).map(|(w, x)| w * x).sum::<f32>()
            + self.score_weight * Self::log_odds(score)
            + self.bias;
        1.0 / (1.0 + (-z).exp())
    }
}

struct Row {
    part: String,
    doc: usize,
    injected: bool,
    label: bool,
    score: f32,
    text: String,
}

fn asked(row: &Row) -> bool {
    BAND.contains(&row.score) && readable(&row.text)
}

/// Negatives outside the band taken for training: every n-th distinct one.
const OUTSIDE_STRIDE: usize = 12;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (dir, units) = (args.first().expect("MODEL_DIR"), args.get(1).expect("UNITS.jsonl"));
    let cache_path = args.iter().position(|a| a == "--cache").and_then(|i| args.get(i + 1)).cloned();
    let mut text = String::new();
    std::fs::File::open(units).unwrap().read_to_string(&mut text).unwrap();
    let rows: Vec<Row> = text
        .lines()
        .map(|line| {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            Row {
                part: v["part"].as_str().unwrap().to_owned(),
                doc: usize::try_from(v["doc"].as_u64().unwrap()).unwrap(),
                injected: v["injected"].as_bool().unwrap(),
                label: v["label"].as_bool().unwrap(),
                score: v["score"].as_f64().unwrap() as f32,
                text: v["text"].as_str().unwrap().to_owned(),
            }
        })
        .collect();
    // Training examples: distinct (text, label); every positive, every negative in the band,
    // and a share of the others so that the head also knows ordinary text.
    let min_positive: f32 = args
        .iter()
        .position(|a| a == "--min-positive")
        .and_then(|i| args.get(i + 1))
        .map_or(0.0, |v| v.parse().unwrap());
    let mut examples: BTreeMap<(String, bool), f32> = BTreeMap::new();
    let mut outside = 0usize;
    for row in rows.iter().filter(|r| r.part == "train") {
        let key = (row.text.clone(), row.label);
        if examples.contains_key(&key) {
            continue;
        }
        if (row.label && readable(&row.text) && row.score >= min_positive) || asked(row) {
            examples.insert(key, row.score);
        } else {
            outside += 1;
            if outside.is_multiple_of(OUTSIDE_STRIDE) {
                examples.insert(key, row.score);
            }
        }
    }
    // What has to be embedded: the examples and every unit in the band of the other parts.
    let mut wanted: Vec<String> = examples.keys().map(|(t, _)| t.clone()).collect();
    wanted.extend(rows.iter().filter(|r| r.part != "train" && asked(r)).map(|r| r.text.clone()));
    wanted.sort_unstable();
    wanted.dedup();
    // The embedder, remembering what it embedded in `--cache FILE` (tackle-local's own cache).
    let model = MiniLm::load(std::path::Path::new(dir)).expect("MiniLM in MODEL_DIR");
    let embedder: Box<dyn Embedder> = match cache_path {
        Some(path) => Box::new(CachedEmbedder::new(model, path)),
        None => Box::new(model),
    };
    eprintln!("{} examples, {} texts to embed", examples.len(), wanted.len());
    let started = std::time::Instant::now();
    let mut cache: HashMap<&str, Vec<f32>> = HashMap::new();
    for (n, chunk) in wanted.chunks(256).enumerate() {
        let refs: Vec<&str> = chunk.iter().map(String::as_str).collect();
        cache.extend(refs.iter().copied().zip(embedder.embed(&refs).unwrap()));
        if n % 10 == 0 {
            eprintln!("  {} of {} in {:.0?}", (n + 1) * 256, wanted.len(), started.elapsed());
        }
    }
    // The head: logistic regression, classes weighed to balance, L2.
    let data: Vec<(&[f32], f32, bool)> =
        examples.iter().map(|((t, label), score)| (cache[t.as_str()].as_slice(), *score, *label)).collect();
    let head = train(&data);
    println!("{{\"examples\": {}, \"positives\": {}}}", data.len(), data.iter().filter(|d| d.2).count());
    let mut parts: Vec<&str> = rows.iter().map(|r| r.part.as_str()).collect();
    parts.sort_unstable();
    parts.dedup();
    let shifts: Vec<f32> = args
        .iter()
        .position(|a| a == "--shifts")
        .and_then(|i| args.get(i + 1))
        .map(|list| list.split(',').map(|v| v.parse().unwrap()).collect())
        .unwrap_or_else(|| vec![0.0]);
    if let Some(path) = args.iter().position(|a| a == "--dump-scores").and_then(|i| args.get(i + 1)) {
        let mut out = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
        for row in rows.iter().filter(|r| r.part != "train" && asked(r)) {
            let p = head.probability(&cache[row.text.as_str()], row.score);
            let line = serde_json::json!({"part": row.part, "doc": row.doc, "label": row.label, "score": row.score, "head": p, "text": row.text});
            writeln!(out, "{line}").unwrap();
        }
    }
    for shift in shifts {
        let shifted = Head { bias: head.bias + shift, ..head.clone() };
        println!("shift {shift}");
        for part in &parts {
            report(part, &rows, &|row| {
                if asked(row) { shifted.probability(&cache[row.text.as_str()], row.score) } else { row.score }
            });
        }
    }
}

const EPOCHS: usize = 300;
const RATE: f32 = 0.01;
const L2: f32 = 1e-4;

/// Full-batch gradient descent with Adam's steps on the balanced log-loss.
fn train(data: &[(&[f32], f32, bool)]) -> Head {
    let positives = data.iter().filter(|d| d.2).count().max(1) as f32;
    let negatives = (data.len() as f32 - positives).max(1.0);
    let (wp, wn) = (0.5 / positives, 0.5 / negatives);
    let mut head = Head { weights: vec![0.0; DIMENSIONS], score_weight: 0.0, bias: 0.0 };
    // Parameters in one vector for Adam: the dimensions, the score's weight, the bias.
    let n = DIMENSIONS + 2;
    let (mut m, mut v) = (vec![0.0f32; n], vec![0.0f32; n]);
    let (b1, b2) = (0.9f32, 0.999f32);
    for epoch in 1..=EPOCHS {
        let mut grad = vec![0.0f32; n];
        for (x, score, label) in data {
            let p = head.probability(x, *score);
            let weight = if *label { wp } else { wn };
            let error = weight * (p - f32::from(u8::from(*label)));
            for (g, v) in grad.iter_mut().zip(x.iter()) {
                *g += error * v;
            }
            grad[DIMENSIONS] += error * Head::log_odds(*score);
            grad[DIMENSIONS + 1] += error;
        }
        for (g, w) in grad.iter_mut().zip(&head.weights) {
            *g += L2 * w;
        }
        let t = i32::try_from(epoch).unwrap();
        for k in 0..n {
            m[k] = b1 * m[k] + (1.0 - b1) * grad[k];
            v[k] = b2 * v[k] + (1.0 - b2) * grad[k] * grad[k];
            let step = RATE * (m[k] / (1.0 - b1.powi(t))) / ((v[k] / (1.0 - b2.powi(t))).sqrt() + 1e-8);
            match k {
                k if k < DIMENSIONS => head.weights[k] -= step,
                k if k == DIMENSIONS => head.score_weight -= step,
                _ => head.bias -= step,
            }
        }
    }
    head
}

/// By text: recall on injected texts and false alarms on clean ones at 0.5, and recall at 2 %
/// false alarms; beside it the guard's scores alone.
fn report(part: &str, rows: &[Row], score: &dyn Fn(&Row) -> f32) {
    let mut docs: BTreeMap<usize, (bool, f32, f32)> = BTreeMap::new();
    for row in rows.iter().filter(|r| r.part == part) {
        let entry = docs.entry(row.doc).or_insert((row.injected, 0.0, 0.0));
        entry.1 = entry.1.max(row.score);
        entry.2 = entry.2.max(score(row));
    }
    let figures = |pick: &dyn Fn(&(bool, f32, f32)) -> f32| {
        let mut benign: Vec<f32> = docs.values().filter(|d| !d.0).map(pick).collect();
        let injected: Vec<f32> = docs.values().filter(|d| d.0).map(pick).collect();
        benign.sort_by(|a, b| b.total_cmp(a));
        let at_2 = benign.get(benign.len() / 50).map_or(0.0, |s| s.next_up());
        let recall = injected.iter().filter(|s| **s >= 0.5).count() as f64 / injected.len().max(1) as f64;
        let far = benign.iter().filter(|s| **s >= 0.5).count() as f64 / benign.len().max(1) as f64;
        let recall_2 = injected.iter().filter(|s| **s >= at_2).count() as f64 / injected.len().max(1) as f64;
        format!("recall {recall:.3} false alarms {far:.4} recall@2% {recall_2:.3}")
    };
    let injected = docs.values().filter(|d| d.0).count();
    println!(
        "{part} ({injected} injected, {} clean): guard {} | with head {}",
        docs.len() - injected,
        figures(&|d| d.1),
        figures(&|d| d.2)
    );
}

//! Trains a sense of time for the router: a logistic head over all-MiniLM-L6-v2's embedding
//! of a request that tells whether its answer depends on when it is asked ("who won the
//! league this year", "how much is a flight to lisbon next weekend") and so cannot come from
//! the model's own knowledge. The router reads it (`src/situated.rs`) against answering
//! without a tool and, times the same reading of a tool's own description, for that tool;
//! `--write data/situated-head.json` writes the file it reads. The figures are in
//! `data/README.md`.
//!
//! `cargo run --release -p tackle-local --example situated_head -- MODEL_DIR SITUATED_DIR
//! REQUESTS.jsonl [--cache FILE] [--write FILE]`, where MODEL_DIR holds the MiniLM files,
//! SITUATED_DIR is what `data/situated.sh` writes (SituatedQA's temporal questions, split
//! by its authors into train, dev and test; SLURP's requests by intent, devel and test;
//! RecencyQA's questions by how often their answers change, two thirds and a third) and
//! REQUESTS.jsonl is `tackle-guard`'s `data/real-requests.sh` output (Self-Instruct's tasks
//! written to an assistant — "Write a limerick about…" —, whose answers depend on no date:
//! negatives, every third held out).
//! The head learns from SituatedQA's training split, SLURP's devel split, RecencyQA's
//! training part and two thirds of the tasks; its L2 strength is chosen on SituatedQA's dev
//! split; the test splits and the held-out tasks are scored once with the chosen head.
//! `--write FILE` writes it; `--cache FILE` keeps the embeddings between runs
//! (`CachedEmbedder`'s file); `--probe SET.jsonl` prints its reading of a decision set's
//! development requests.
#![allow(clippy::print_stdout, clippy::print_stderr, clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::collections::HashMap;
use tackle_core::Embedder;
use tackle_local::{CachedEmbedder, MiniLm};

/// The width of the embedding.
const DIMENSIONS: usize = 384;

/// A labelled text.
struct Example {
    text: String,
    dependent: bool,
}

fn read_questions(path: &std::path::Path) -> Vec<Example> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            Example {
                text: v["question"].as_str().unwrap().to_owned(),
                dependent: v["dependent"].as_bool().unwrap(),
            }
        })
        .collect()
}

/// The head: one weight per dimension and a bias.
#[derive(Debug, Clone)]
struct Head {
    weights: Vec<f32>,
    bias: f32,
}

impl Head {
    fn probability(&self, x: &[f32]) -> f32 {
        let z: f32 = self.bias + self.weights.iter().zip(x).map(|(w, v)| w * v).sum::<f32>();
        1.0 / (1.0 + (-z).exp())
    }
}

const EPOCHS: usize = 400;
const RATE: f32 = 0.01;

/// Full-batch gradient descent with Adam's steps on the log-loss, classes weighed to
/// balance (so that 0.5 means as likely one as the other), L2 on the weights.
fn train(data: &[(&[f32], bool)], l2: f32) -> Head {
    let positives = data.iter().filter(|d| d.1).count().max(1) as f32;
    let negatives = (data.len() as f32 - positives).max(1.0);
    let (wp, wn) = (0.5 / positives, 0.5 / negatives);
    let mut head = Head { weights: vec![0.0; DIMENSIONS], bias: 0.0 };
    let n = DIMENSIONS + 1;
    let (mut m, mut v) = (vec![0.0f32; n], vec![0.0f32; n]);
    let (b1, b2) = (0.9f32, 0.999f32);
    for epoch in 1..=EPOCHS {
        let mut grad = vec![0.0f32; n];
        for (x, label) in data {
            let weight = if *label { wp } else { wn };
            let error = weight * (head.probability(x) - f32::from(u8::from(*label)));
            for (g, v) in grad.iter_mut().zip(x.iter()) {
                *g += error * v;
            }
            grad[DIMENSIONS] += error;
        }
        for (g, w) in grad.iter_mut().zip(&head.weights) {
            *g += l2 * w;
        }
        let t = i32::try_from(epoch).unwrap();
        for k in 0..n {
            m[k] = b1 * m[k] + (1.0 - b1) * grad[k];
            v[k] = b2 * v[k] + (1.0 - b2) * grad[k] * grad[k];
            let step = RATE * (m[k] / (1.0 - b1.powi(t))) / ((v[k] / (1.0 - b2.powi(t))).sqrt() + 1e-8);
            if k < DIMENSIONS {
                head.weights[k] -= step;
            } else {
                head.bias -= step;
            }
        }
    }
    head
}

/// Accuracy at 0.5, recall and precision of "depends", the area under the ROC curve and the
/// balanced log-loss.
fn figures(head: &Head, data: &[(&[f32], bool)]) -> serde_json::Value {
    let scored: Vec<(f32, bool)> = data.iter().map(|(x, label)| (head.probability(x), *label)).collect();
    let (mut tp, mut fp, mut tn, mut fneg) = (0usize, 0usize, 0usize, 0usize);
    for (p, label) in &scored {
        match (*p >= 0.5, *label) {
            (true, true) => tp += 1,
            (true, false) => fp += 1,
            (false, false) => tn += 1,
            (false, true) => fneg += 1,
        }
    }
    let positives: Vec<f32> = scored.iter().filter(|s| s.1).map(|s| s.0).collect();
    let negatives: Vec<f32> = scored.iter().filter(|s| !s.1).map(|s| s.0).collect();
    let mut above = 0.0f64;
    for p in &positives {
        for n in &negatives {
            above += if p > n {
                1.0
            } else if p == n {
                0.5
            } else {
                0.0
            };
        }
    }
    let auc = if positives.is_empty() || negatives.is_empty() {
        serde_json::Value::Null
    } else {
        serde_json::json!(round(above / (positives.len() * negatives.len()) as f64))
    };
    let loss = |values: &[f32], label: bool| {
        values.iter().map(|p| -f64::from(if label { *p } else { 1.0 - p }).max(1e-6).ln()).sum::<f64>()
            / values.len().max(1) as f64
    };
    let ratio = |a: usize, b: usize| {
        if b == 0 { serde_json::Value::Null } else { serde_json::json!(round(a as f64 / b as f64)) }
    };
    serde_json::json!({
        "examples": scored.len(), "dependent": positives.len(),
        "accuracy": ratio(tp + tn, scored.len()), "recall": ratio(tp, tp + fneg), "precision": ratio(tp, tp + fp),
        "false_alarms": ratio(fp, fp + tn), "auc": auc,
        "balanced_log_loss": round(0.5 * (loss(&positives, true) + loss(&negatives, false))),
    })
}

fn round(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (dir, situated, requests) = (
        args.first().expect("MODEL_DIR"),
        std::path::Path::new(args.get(1).expect("SITUATED_DIR")),
        args.get(2).expect("REQUESTS.jsonl"),
    );
    let flag = |name: &str| args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).cloned();
    let split = |name: &str| read_questions(&situated.join(format!("temp.{name}.jsonl")));
    let (train_q, dev_q, test_q) = (split("train"), split("dev"), split("test"));
    // SLURP's requests to a home assistant, by intent: its devel split to learn from, its
    // test split scored once.
    let (train_s, test_s) = (
        read_questions(&situated.join("slurp.train.jsonl")),
        read_questions(&situated.join("slurp.test.jsonl")),
    );
    // RecencyQA's questions by how often their answers change (hours to a few months: yes;
    // never or over many years: no), but those it took from SituatedQA: two thirds to learn
    // from, a third scored once.
    let (train_r, test_r) = (
        read_questions(&situated.join("recency.train.jsonl")),
        read_questions(&situated.join("recency.test.jsonl")),
    );
    // The assistant's tasks: negatives, every third held out for the test.
    let tasks: Vec<Example> = std::fs::read_to_string(requests)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            Example { text: v["text"].as_str().unwrap().to_owned(), dependent: false }
        })
        .collect();
    let (mut train_tasks, mut test_tasks) = (Vec::new(), Vec::new());
    for (i, task) in tasks.into_iter().enumerate() {
        if i % 3 == 2 { test_tasks.push(task) } else { train_tasks.push(task) }
    }
    let model = MiniLm::load(std::path::Path::new(dir)).expect("MiniLM in MODEL_DIR");
    let embedder: Box<dyn Embedder> = match flag("--cache") {
        Some(path) => Box::new(CachedEmbedder::new(model, path)),
        None => Box::new(model),
    };
    let mut wanted: Vec<&str> =
        [&train_q, &dev_q, &test_q, &train_s, &test_s, &train_r, &test_r, &train_tasks, &test_tasks]
            .iter()
            .flat_map(|set| set.iter().map(|e| e.text.as_str()))
            .collect();
    wanted.sort_unstable();
    wanted.dedup();
    let started = std::time::Instant::now();
    let mut vectors: HashMap<&str, Vec<f32>> = HashMap::new();
    // The router embeds a request as a query; MiniLM embeds queries as documents, so they
    // are embedded in batches here.
    for chunk in wanted.chunks(256) {
        vectors.extend(chunk.iter().copied().zip(embedder.embed(chunk).unwrap()));
    }
    eprintln!("{} texts embedded in {:.0?}", wanted.len(), started.elapsed());
    let data = |sets: &[&Vec<Example>]| -> Vec<(&[f32], bool)> {
        sets.iter()
            .flat_map(|set| set.iter().map(|e| (vectors[e.text.as_str()].as_slice(), e.dependent)))
            .collect()
    };
    let training = data(&[&train_q, &train_s, &train_r, &train_tasks]);
    // The L2 strength with the lowest balanced log-loss on the dev split.
    let mut best: Option<(f64, f32, Head)> = None;
    for l2 in [1e-5f32, 1e-4, 1e-3] {
        let head = train(&training, l2);
        let dev = figures(&head, &data(&[&dev_q]));
        println!("{}", serde_json::json!({"l2": l2, "train": figures(&head, &training), "dev": dev}));
        let loss = dev["balanced_log_loss"].as_f64().unwrap();
        if best.as_ref().is_none_or(|b| loss < b.0) {
            best = Some((loss, l2, head));
        }
    }
    let (_, l2, head) = best.unwrap();
    println!(
        "{}",
        serde_json::json!({"chosen_l2": l2, "test": figures(&head, &data(&[&test_q])),
                           "slurp_test": figures(&head, &data(&[&test_s])),
                           "recency_test": figures(&head, &data(&[&test_r])),
                           "held_out_tasks": figures(&head, &data(&[&test_tasks]))})
    );
    // `--probe SET.jsonl`: the head's probability for each development request of a decision
    // set (every third of each catalog and expected tool is held out, as `tackle-bench local`
    // holds it out, and not shown).
    if let Some(set) = flag("--probe") {
        let mut seen: HashMap<String, usize> = HashMap::new();
        for line in std::fs::read_to_string(set).unwrap().lines().filter(|l| !l.trim().is_empty()) {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let expected = v["tool"].as_str().unwrap_or("none");
            let catalog = v["catalog"].as_str().unwrap_or("cli");
            let kind = if v["tools"].is_array() && expected != "none" { "call" } else { expected };
            let nth = seen.entry(format!("{catalog}/{kind}")).or_default();
            *nth += 1;
            if (*nth).is_multiple_of(3) {
                continue;
            }
            let request = v["request"].as_str().unwrap();
            let p = head.probability(&embedder.embed_query(request).unwrap());
            println!("{p:.2}\t{expected}\t{request}");
        }
    }
    if let Some(path) = flag("--write") {
        let weights: Vec<f64> = head.weights.iter().map(|w| (f64::from(*w) * 1e5).round() / 1e5).collect();
        let out = serde_json::json!({
            "about": "Whether a request's answer depends on when it is asked: a logistic head over all-MiniLM-L6-v2's query embedding, trained by examples/situated_head.rs on SituatedQA's temporal questions (train split, MS MARCO's left out), SLURP's requests of eleven intents that depend on the date or place and four that do not (devel split), two thirds of RecencyQA's questions whose answers change within months, never, or only over many years (SituatedQA's left out), and two thirds of Self-Instruct's tasks.",
            "l2": format!("{l2:e}"),
            "bias": (f64::from(head.bias) * 1e5).round() / 1e5,
            "weights": weights,
        });
        std::fs::write(&path, serde_json::to_string(&out).unwrap() + "\n").unwrap();
        eprintln!("wrote {path}");
    }
}

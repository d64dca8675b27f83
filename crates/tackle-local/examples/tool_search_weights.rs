//! Learns the weights tool search orders its candidates by (`RANKING_WEIGHTS` in
//! tackle-tools' `search.rs`): for every development request of
//! `crates/tackle-tools/data/tool-requests*.jsonl`, the candidates `ToolIndex::candidates`
//! gives over the 237 MCP tools of `mcp-catalog.jsonl`, each with its features, and a
//! linear score learnt by maximising the probability (a softmax over the request's
//! candidates) of the tools that serve it.
//!
//! It reports leave-one-set-out figures first (the weights learnt without a set, scored on
//! that set's requests, top 5), then the committed ranking's on the same requests, then the
//! weights learnt on all development requests, as a line to paste into `search.rs`.
//! Held-out lines (every third line of the first two sets) and sets 16 and 17, held out, are never read.
//!
//! `cargo run --release -p tackle-local --example tool_search_weights -- [MODEL_DIR]
//! [--without FEATURE]...`, where MODEL_DIR (else `TACKLE_MODEL_DIR`) holds the MiniLM files
//! `tackle model pull` fetches; `--without` leaves a feature out (its weight stays 0), to
//! see what it adds.
#![allow(clippy::print_stdout, clippy::print_stderr, clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::sync::Arc;

use serde_json::Value;
use tackle_local::MiniLm;
use tackle_tools::{Features, RANKING_FEATURES, ToolIndex};

#[path = "../../tackle-tools/tests/catalog/mod.rs"]
mod catalog;

/// Which lines of a set (by index) are development lines.
type Development = fn(usize) -> bool;

/// The development request sets: name, text, and which lines are development lines.
const SETS: &[(&str, &str, Development)] = &[
    ("1", include_str!("../../tackle-tools/data/tool-requests.jsonl"), |i| i % 3 != 2),
    ("2", include_str!("../../tackle-tools/data/tool-requests-2.jsonl"), |i| i % 3 != 2),
    ("3", include_str!("../../tackle-tools/data/tool-requests-3.jsonl"), |_| true),
    ("4", include_str!("../../tackle-tools/data/tool-requests-4.jsonl"), |_| true),
    ("5", include_str!("../../tackle-tools/data/tool-requests-5.jsonl"), |_| true),
    ("6", include_str!("../../tackle-tools/data/tool-requests-6.jsonl"), |_| true),
    ("7", include_str!("../../tackle-tools/data/tool-requests-7.jsonl"), |_| true),
    ("8", include_str!("../../tackle-tools/data/tool-requests-8.jsonl"), |_| true),
    ("9", include_str!("../../tackle-tools/data/tool-requests-9.jsonl"), |_| true),
    ("10", include_str!("../../tackle-tools/data/tool-requests-10.jsonl"), |_| true),
    ("11", include_str!("../../tackle-tools/data/tool-requests-11.jsonl"), |_| true),
    ("12", include_str!("../../tackle-tools/data/tool-requests-12.jsonl"), |_| true),
    ("13", include_str!("../../tackle-tools/data/tool-requests-13.jsonl"), |_| true),
    ("14", include_str!("../../tackle-tools/data/tool-requests-14.jsonl"), |_| true),
    ("15", include_str!("../../tackle-tools/data/tool-requests-15.jsonl"), |_| true),
];

/// One request: its candidates' features, which of them serve it, and whether the
/// committed ranking has one of those among its first five.
struct Request {
    set: usize,
    features: Vec<Features>,
    wanted: Vec<bool>,
    committed_hit: bool,
}

fn main() {
    let mut args = std::env::args().skip(1);
    let (mut dir, mut without) = (std::env::var("TACKLE_MODEL_DIR").ok(), Vec::new());
    while let Some(arg) = args.next() {
        if arg == "--without" {
            let feature = args.next().expect("--without FEATURE");
            let at = RANKING_FEATURES.iter().position(|f| *f == feature);
            without.push(at.unwrap_or_else(|| panic!("{feature} is none of {RANKING_FEATURES:?}")));
        } else {
            dir = Some(arg);
        }
    }
    let dir = dir.expect("MODEL_DIR or TACKLE_MODEL_DIR");
    let model = MiniLm::load(std::path::Path::new(&dir)).expect("MiniLM in MODEL_DIR");
    let definitions = catalog::definitions();
    let started = std::time::Instant::now();
    let index = ToolIndex::new(definitions.iter(), Some(Arc::new(model)));
    println!("index of {} tools built in {:.2} s", definitions.len(), started.elapsed().as_secs_f64());
    let mut requests = Vec::new();
    for (set, (_, text, development)) in SETS.iter().enumerate() {
        for (_, line) in text.lines().enumerate().filter(|(i, _)| development(*i)) {
            let case: Value = serde_json::from_str(line).unwrap();
            let wanted = catalog::wanted(&case);
            let query = case["request"].as_str().unwrap();
            let mut candidates = index.candidates(query);
            for (_, features) in &mut candidates {
                for &k in &without {
                    features[k] = 0.0;
                }
            }
            let committed_hit = index.search(query, 5).iter().any(|(name, _)| wanted.contains(name));
            requests.push(Request {
                set,
                wanted: candidates.iter().map(|(name, _)| wanted.contains(name)).collect(),
                features: candidates.into_iter().map(|(_, f)| f).collect(),
                committed_hit,
            });
        }
    }
    let (mut learnt_total, mut committed_total, mut n_total) = (0, 0, 0);
    println!("set  requests  learnt without it  committed");
    for (set, (name, _, _)) in SETS.iter().enumerate() {
        let weights = learn(requests.iter().filter(|r| r.set != set));
        let held: Vec<&Request> = requests.iter().filter(|r| r.set == set).collect();
        let learnt = held.iter().filter(|r| hit(r, &weights)).count();
        let committed = held.iter().filter(|r| r.committed_hit).count();
        println!(
            "{name:>3}  {:>8}  {:>17.3}  {:>9.3}",
            held.len(),
            learnt as f64 / held.len() as f64,
            committed as f64 / held.len() as f64
        );
        (learnt_total, committed_total, n_total) =
            (learnt_total + learnt, committed_total + committed, n_total + held.len());
    }
    println!(
        "all  {n_total:>8}  {:>17.3}  {:>9.3}",
        learnt_total as f64 / n_total as f64,
        committed_total as f64 / n_total as f64
    );
    let weights = learn(requests.iter());
    let in_pool = requests.iter().filter(|r| r.wanted.contains(&true)).count();
    println!("a serving tool among the candidates: {in_pool}/{}", requests.len());
    for (feature, weight) in RANKING_FEATURES.iter().zip(weights) {
        println!("  {feature:>14}: {weight:.3}");
    }
    let line: Vec<String> = weights.iter().map(|w| format!("{w:.4}")).collect();
    println!("const RANKING_WEIGHTS: Features = [{}];", line.join(", "));
}

/// Whether one of the first five candidates by `weights` serves the request.
fn hit(request: &Request, weights: &Features) -> bool {
    let mut order: Vec<usize> = (0..request.features.len()).collect();
    order.sort_by(|&a, &b| {
        score(&request.features[b], weights).total_cmp(&score(&request.features[a], weights))
    });
    order.iter().take(5).any(|&i| request.wanted[i])
}

fn score(features: &Features, weights: &Features) -> f64 {
    features.iter().zip(weights).map(|(f, w)| f * w).sum()
}

/// Weights maximising the mean log-probability of the serving candidates (softmax over each
/// request's candidates), with a small L2 penalty, by full-batch Adam from zero.
fn learn<'a>(requests: impl Iterator<Item = &'a Request>) -> Features {
    const STEPS: usize = 3000;
    const RATE: f64 = 0.05;
    const L2: f64 = 1e-3;
    let requests: Vec<&Request> = requests.filter(|r| r.wanted.contains(&true)).collect();
    let mut weights: Features = [0.0; RANKING_FEATURES.len()];
    let (mut m, mut v) = ([0.0; RANKING_FEATURES.len()], [0.0; RANKING_FEATURES.len()]);
    for step in 1..=STEPS {
        let mut gradient = [0.0; RANKING_FEATURES.len()];
        for request in &requests {
            let scores: Vec<f64> = request.features.iter().map(|f| score(f, &weights)).collect();
            let top = scores.iter().copied().fold(f64::MIN, f64::max);
            let exp: Vec<f64> = scores.iter().map(|s| (s - top).exp()).collect();
            let all: f64 = exp.iter().sum();
            let served: f64 = exp.iter().zip(&request.wanted).filter(|(_, w)| **w).map(|(e, _)| e).sum();
            // d(-log(served/all))/dw = E_all[f] - E_served[f]
            for (k, g) in gradient.iter_mut().enumerate() {
                let (mut over_all, mut over_served) = (0.0, 0.0);
                for ((f, e), w) in request.features.iter().zip(&exp).zip(&request.wanted) {
                    over_all += f[k] * e;
                    if *w {
                        over_served += f[k] * e;
                    }
                }
                *g += over_all / all - over_served / served;
            }
        }
        for k in 0..RANKING_FEATURES.len() {
            let g = gradient[k] / requests.len() as f64 + L2 * weights[k];
            m[k] = 0.9 * m[k] + 0.1 * g;
            v[k] = 0.999 * v[k] + 0.001 * g * g;
            let (m_hat, v_hat) =
                (m[k] / (1.0 - 0.9f64.powi(step as i32)), v[k] / (1.0 - 0.999f64.powi(step as i32)));
            weights[k] -= RATE * m_hat / (v_hat.sqrt() + 1e-8);
        }
    }
    weights
}

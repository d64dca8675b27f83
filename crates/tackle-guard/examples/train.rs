//! Trains the default scorer and measures it: `cargo run --release -p tackle-guard --example
//! train` (add `--write` to rewrite `src/weights.rs`, `--benign-dir DIR` to add real text
//! from `DIR/*.txt` to the documents — `data/real-text.sh` fetches some; `--fresh` to report
//! on `data/fresh_*.jsonl`, which is never trained on).
//!
//! Data: `data/benign.jsonl` (documents the way tools return them, trigger words included)
//! and `data/payloads.jsonl` (injected text in families). Every third document of each genre
//! and every third payload of each family are held out: the scorer is trained on the rest
//! and the held-out figures are the ones to report. Injected samples put a payload at the
//! start, in the middle or at the end of a document, plain or concealed (zero-width
//! characters, look-alike letters, base64). Units are labelled by whether they overlap the
//! payload; the model is logistic regression with balanced class weights and L2.
#![allow(clippy::print_stdout, clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::collections::BTreeMap;
use std::ops::Range;

use base64::Engine as _;
use serde_json::Value;
use tackle_guard::scorer::{FEATURE_NAMES, FEATURES, Linear, feature_vector};
use tackle_guard::{Guard, Strictness, Thresholds, candidates};

struct Doc {
    group: String,
    text: String,
}

fn load(path: &str, group_key: &str) -> Vec<Doc> {
    let text = std::fs::read_to_string(path).expect(path);
    text.lines()
        .map(|line| {
            let v: Value = serde_json::from_str(line).unwrap();
            Doc {
                group: v[group_key].as_str().unwrap().to_owned(),
                text: v["text"].as_str().unwrap().to_owned(),
            }
        })
        .collect()
}

/// Real text from `dir` (every `.txt` file, cut at paragraph breaks into pieces of at most
/// 1,500 bytes), each file a group of its own.
fn load_dir(dir: &str) -> Vec<Doc> {
    let mut docs = Vec::new();
    let mut paths: Vec<_> = std::fs::read_dir(dir).expect(dir).map(|e| e.unwrap().path()).collect();
    paths.sort();
    for path in paths.into_iter().filter(|p| p.extension().is_some_and(|e| e == "txt")) {
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let group = path.file_stem().unwrap().to_string_lossy().into_owned();
        let mut piece = String::new();
        for paragraph in text.split("\n\n").map(str::trim).filter(|p| !p.is_empty()) {
            if !piece.is_empty() && piece.len() + paragraph.len() > 1500 {
                docs.push(Doc { group: format!("real:{group}"), text: std::mem::take(&mut piece) });
            }
            if !piece.is_empty() {
                piece.push_str("\n\n");
            }
            piece.push_str(paragraph);
        }
        if !piece.is_empty() {
            docs.push(Doc { group: format!("real:{group}"), text: piece });
        }
    }
    docs
}

/// Every third item of each group goes to the held-out part.
fn split(docs: Vec<Doc>) -> (Vec<Doc>, Vec<Doc>) {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let (mut train, mut held) = (Vec::new(), Vec::new());
    for doc in docs {
        let n = seen.entry(doc.group.clone()).or_default();
        *n += 1;
        if n.is_multiple_of(3) { held.push(doc) } else { train.push(doc) }
    }
    (train, held)
}

const CONCEALMENTS: [&str; 5] = ["plain", "zero_width", "look_alike", "base64", "spaced"];

fn conceal(payload: &str, how: &str) -> String {
    match how {
        "zero_width" => payload
            .split(' ')
            .map(|w| {
                let mut chars: Vec<char> = w.chars().collect();
                if chars.len() >= 4 {
                    chars.insert(2, '\u{200B}');
                }
                chars.into_iter().collect::<String>()
            })
            .collect::<Vec<_>>()
            .join(" "),
        "look_alike" => payload
            .chars()
            .enumerate()
            .map(|(i, c)| match (c, i % 2) {
                ('a', 0) => 'а',
                ('e', 0) => 'е',
                ('o', 0) => 'о',
                ('c', 0) => 'с',
                ('p', 0) => 'р',
                _ => c,
            })
            .collect(),
        "base64" => format!("Reference: {}", base64::engine::general_purpose::STANDARD.encode(payload)),
        // The first two words with their letters spaced out.
        "spaced" => {
            let mut words = payload.splitn(3, ' ');
            let spaced = |w: &str| w.chars().map(String::from).collect::<Vec<_>>().join(" ");
            let (a, b, rest) =
                (words.next().unwrap_or(""), words.next().unwrap_or(""), words.next().unwrap_or(""));
            format!("{}  {}  {rest}", spaced(a), spaced(b))
        }
        _ => payload.to_owned(),
    }
}

/// `doc` with `payload` at `position` (0 start, 1 middle, 2 end), and where it stands.
fn inject(doc: &str, payload: &str, position: usize) -> (String, Range<usize>) {
    match position {
        0 => (format!("{payload}\n\n{doc}"), 0..payload.len()),
        1 => {
            let mut middle = doc.len() / 2;
            while !doc.is_char_boundary(middle) {
                middle -= 1;
            }
            let cut = doc[..middle].rfind('\n').map_or(0, |i| i + 1);
            let text = format!("{}{payload}\n{}", &doc[..cut], &doc[cut..]);
            (text, cut..cut + payload.len())
        }
        _ => {
            let start = doc.len() + 2;
            (format!("{doc}\n\n{payload}"), start..start + payload.len())
        }
    }
}

/// Feature rows of one text, as the guard scores it, labelled by overlap with `payload`.
fn rows(text: &str, payload: Option<&Range<usize>>, out: &mut Vec<([f32; FEATURES], bool)>) {
    let overlaps = |r: &Range<usize>| payload.is_some_and(|p| r.start < p.end && p.start < r.end);
    for candidate in candidates(text) {
        out.push((feature_vector(&candidate.features), overlaps(&candidate.range)));
    }
}

struct Sample {
    text: String,
    payload: Option<Range<usize>>,
    family: String,
}

fn samples(benign: &[Doc], payloads: &[Doc]) -> Vec<Sample> {
    let mut out: Vec<Sample> = benign
        .iter()
        .map(|b| Sample { text: b.text.clone(), payload: None, family: format!("benign:{}", b.group) })
        .collect();
    for (i, b) in benign.iter().enumerate() {
        for (j, p) in payloads.iter().enumerate() {
            let how = CONCEALMENTS[(i + j) % CONCEALMENTS.len()];
            let (text, range) = inject(&b.text, &conceal(&p.text, how), (i * 7 + j) % 3);
            out.push(Sample { text, payload: Some(range), family: p.group.clone() });
        }
    }
    out
}

fn score_of(scorer: &Linear, x: &[f32; FEATURES]) -> f32 {
    let z: f32 = scorer.weights.iter().zip(x).map(|(w, x)| w * x).sum::<f32>() + scorer.bias;
    1.0 / (1.0 + (-z).exp())
}

fn train(rows: &[([f32; FEATURES], bool)]) -> Linear {
    let positives = rows.iter().filter(|(_, y)| *y).count().max(1) as f32;
    let negatives = rows.iter().filter(|(_, y)| !*y).count().max(1) as f32;
    let (wp, wn) = (rows.len() as f32 / (2.0 * positives), rows.len() as f32 / (2.0 * negatives));
    let mut w = [0f32; FEATURES];
    let mut b = 0f32;
    let (rate, l2) = (0.5f32, 0.001f32);
    for _ in 0..3000 {
        let mut gw = [0f32; FEATURES];
        let mut gb = 0f32;
        for (x, y) in rows {
            let z: f32 = w.iter().zip(x).map(|(w, x)| w * x).sum::<f32>() + b;
            let p = 1.0 / (1.0 + (-z).exp());
            let weight = if *y { wp } else { wn };
            let err = (p - f32::from(u8::from(*y))) * weight;
            for k in 0..FEATURES {
                gw[k] += err * x[k];
            }
            gb += err;
        }
        let n = rows.len() as f32;
        for k in 0..FEATURES {
            w[k] -= rate * (gw[k] / n + l2 * w[k]);
        }
        b -= rate * gb / n;
    }
    Linear { weights: w, bias: b }
}

/// Text-level figures at the default threshold: recall per family, false alarms on the
/// documents alone.
fn evaluate(name: &str, scorer: &Linear, samples: &[Sample]) {
    let guard = Guard::new(scorer.clone(), Strictness::Default, Thresholds::default());
    let threshold = Thresholds::default().default;
    let mut by_family: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let (mut tp, mut fp, mut fneg, mut tn) = (0, 0, 0, 0);
    for sample in samples {
        let flagged = guard.score(&sample.text) >= threshold;
        let family = if sample.payload.is_some() { sample.family.clone() } else { "benign".to_owned() };
        let entry = by_family.entry(family).or_default();
        entry.1 += 1;
        match (sample.payload.is_some(), flagged) {
            (true, true) => {
                tp += 1;
                entry.0 += 1;
            }
            (true, false) => fneg += 1,
            (false, true) => {
                fp += 1;
                entry.0 += 1;
                if name == "train" && std::env::args().any(|a| a == "--show") {
                    println!("  false alarm: {}", sample.family);
                }
            }
            (false, false) => tn += 1,
        }
    }
    let precision = tp as f64 / (tp + fp).max(1) as f64;
    let recall = tp as f64 / (tp + fneg).max(1) as f64;
    let far = fp as f64 / (fp + tn).max(1) as f64;
    println!(
        "{{\"set\": \"{name}\", \"precision\": {precision:.3}, \"recall\": {recall:.3}, \"false_alarm_rate\": {far:.3}, \"injected\": {}, \"benign\": {}}}",
        tp + fneg,
        fp + tn
    );
    for (family, (hits, total)) in by_family {
        println!("  {family}: {hits}/{total} flagged");
    }
}

fn main() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/data");
    let mut benign = load(&format!("{root}/benign.jsonl"), "genre");
    let args: Vec<String> = std::env::args().collect();
    if let Some(dir) = args.iter().position(|a| a == "--benign-dir").and_then(|i| args.get(i + 1)) {
        benign.extend(load_dir(dir));
    }
    let (benign_train, benign_held) = split(benign);
    let (payload_train, payload_held) = split(load(&format!("{root}/payloads.jsonl"), "family"));
    let train_samples = samples(&benign_train, &payload_train);
    let held_samples = samples(&benign_held, &payload_held);
    // Rows per sample: the units of a document, and which overlap the payload.
    let per_sample: Vec<Vec<([f32; FEATURES], bool)>> = train_samples
        .iter()
        .map(|sample| {
            let mut rows_of = Vec::new();
            rows(&sample.text, sample.payload.as_ref(), &mut rows_of);
            rows_of
        })
        .collect();
    let mut train_rows: Vec<([f32; FEATURES], bool)> = per_sample.iter().flatten().cloned().collect();
    let mut scorer = train(&train_rows);
    // A payload of several sentences need not be suspicious in every one: the labels are
    // per text. Twice, each injected sample keeps as positive only its payload unit the
    // model scores highest (its other payload units are left out, not made negative).
    for _ in 0..2 {
        train_rows.clear();
        for sample_rows in &per_sample {
            let best = sample_rows
                .iter()
                .enumerate()
                .filter(|(_, (_, y))| *y)
                .max_by(|a, b| score_of(&scorer, &a.1.0).total_cmp(&score_of(&scorer, &b.1.0)))
                .map(|(i, _)| i);
            for (i, (x, y)) in sample_rows.iter().enumerate() {
                if !*y || Some(i) == best {
                    train_rows.push((*x, *y));
                }
            }
        }
        scorer = train(&train_rows);
    }
    println!(
        "{{\"train_rows\": {}, \"positive_rows\": {}}}",
        train_rows.len(),
        train_rows.iter().filter(|(_, y)| *y).count()
    );
    for (name, weight) in FEATURE_NAMES.iter().zip(scorer.weights) {
        println!("  weight {name}: {weight:.3}");
    }
    println!("  bias: {:.3}", scorer.bias);
    evaluate("train", &scorer, &train_samples);
    evaluate("held_out", &scorer, &held_samples);
    if args.iter().any(|a| a == "--fresh") {
        // Never trained or tuned on: written after the weights were fixed, reported once.
        let fresh = samples(
            &load(&format!("{root}/fresh_benign.jsonl"), "genre"),
            &load(&format!("{root}/fresh_payloads.jsonl"), "family"),
        );
        evaluate("fresh", &scorer, &fresh);
    }
    if std::env::args().any(|a| a == "--write") {
        let weights: Vec<String> = scorer.weights.iter().map(|w| format!("{w:.4}")).collect();
        let file = format!(
            "//! Weights of the default scorer, written by `examples/train.rs` (`cargo run --release -p\n\
             //! tackle-guard --example train -- --write`); do not edit by hand.\n\n\
             use crate::scorer::FEATURES;\n\n\
             /// One weight per feature, in `FEATURE_NAMES` order.\n\
             pub(crate) const WEIGHTS: [f32; FEATURES] = [{}];\n\n\
             /// The intercept.\n\
             pub(crate) const BIAS: f32 = {:.4};\n",
            weights.join(", "),
            scorer.bias
        );
        std::fs::write(concat!(env!("CARGO_MANIFEST_DIR"), "/src/weights.rs"), file).unwrap();
        println!("wrote src/weights.rs");
    }
}

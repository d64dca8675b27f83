//! Trains the default scorer and measures it: `cargo run --release -p tackle-guard --example
//! train` (add `--write` to rewrite `src/weights.rs`, `--benign-dir DIR` to add real text
//! from `DIR/*.txt` to the documents — `data/real-text.sh` fetches some; `--fresh` to report
//! on the sets in `FRESH`, which are never trained on (the other `data/fresh*_*.jsonl`, once
//! read, are: `RETIRED`); `--committed` to report the model in
//! the crate on the held-out part and those sets without training; `--requests-file FILE`
//! and `--word-vectors FILE` for the real requests and static word vectors of
//! `data/real-requests.sh` and `data/word-vectors.sh`; `--missed-in SET` prints what a set
//! misses; `--dev-fold K` sets a third of the training part aside as a development set (its
//! figures instead of the held-out part's; `--missed-in dev` lists its misses); `--show`
//! prints the false alarms of the training part (and of the development set, with
//! `--dev-fold`), `--missed` and `--feature NAME` what the training part teaches;
//! `--dump-units FILE` writes every unit of the training part, the held-out part and the sets
//! of `--dump-sets A,B` with its label and the committed model's score, and trains nothing).
//!
//! Data: `data/benign.jsonl` (documents the way tools return them, trigger words included)
//! and `data/payloads.jsonl` (injected text in families). Every third document of each genre
//! and every third payload of each family are held out: the scorer is trained on the rest
//! and the held-out figures are the ones to report. Injected samples put a payload at the
//! start, in the middle or at the end of a document, plain or concealed (zero-width
//! characters, look-alike letters, base64). Units are labelled by whether they overlap the
//! payload; the model is gradient-boosted trees with balanced class weights beside a lexical
//! model (logistic regression over hashed word n-grams, trained also on the composed requests
//! of `data/requests_*.jsonl` and on real requests to assistants from `--requests-file`),
//! calibrated so that the default strictness marks 1.5 % of the training documents, the
//! lexical model's out-of-fold scores spending 0.75 % of it.
#![allow(clippy::print_stdout, clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::collections::BTreeMap;
use std::ops::Range;

use base64::Engine as _;
use serde_json::Value;
use tackle_guard::lexical::{BUCKETS, MIN_NGRAMS, ngrams_by_kind, unigram_bucket};
use tackle_guard::scorer::{FEATURE_NAMES, FEATURES, Node, Trees, feature_vector};
use tackle_guard::{Guard, Lexical, Scorer, Strictness, Thresholds, candidates_with};

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

/// Real text from `dir/<genre>/*.txt` (as `data/real-text.sh` lays it out), cut at paragraph
/// breaks into pieces of at most 1,500 bytes; each file is a group of its own, so a file is
/// wholly trained on or wholly held out.
fn load_dir(dir: &str) -> Vec<Doc> {
    let mut docs = Vec::new();
    let mut genres: Vec<_> = std::fs::read_dir(dir).expect(dir).map(|e| e.unwrap().path()).collect();
    genres.sort();
    for genre_dir in genres.into_iter().filter(|p| p.is_dir()) {
        let genre = genre_dir.file_name().unwrap().to_string_lossy().into_owned();
        let mut paths: Vec<_> = std::fs::read_dir(&genre_dir).unwrap().map(|e| e.unwrap().path()).collect();
        paths.sort();
        for path in paths.into_iter().filter(|p| p.extension().is_some_and(|e| e == "txt")) {
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            let group = format!("real:{genre}:{}", path.file_stem().unwrap().to_string_lossy());
            let mut piece = String::new();
            for paragraph in text.split("\n\n").map(str::trim).filter(|p| !p.is_empty()) {
                if !piece.is_empty() && piece.len() + paragraph.len() > 1500 {
                    docs.push(Doc { group: group.clone(), text: std::mem::take(&mut piece) });
                }
                if !piece.is_empty() {
                    piece.push_str("\n\n");
                }
                piece.push_str(paragraph);
            }
            if !piece.is_empty() {
                docs.push(Doc { group: group.clone(), text: piece });
            }
        }
    }
    docs
}

/// Every third item of each group goes to the held-out part; for real text (groups named
/// `real:<genre>:<file>`), every third real file in load order (genres sorted, files sorted
/// within each), whole — about a third of each genre.
fn split(docs: Vec<Doc>) -> (Vec<Doc>, Vec<Doc>) {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut files: BTreeMap<String, usize> = BTreeMap::new();
    let (mut train, mut held) = (Vec::new(), Vec::new());
    for doc in docs {
        let held_out = if doc.group.starts_with("real:") {
            let count = files.len();
            let index = *files.entry(doc.group.clone()).or_insert(count);
            index % 3 == 2
        } else {
            let n = seen.entry(doc.group.clone()).or_default();
            *n += 1;
            n.is_multiple_of(3)
        };
        if held_out { held.push(doc) } else { train.push(doc) }
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

/// Feature rows of one text, as the guard scores it (its words read by `lexical`), labelled
/// by overlap with `payload`.
///
/// A payload unit without any evidence of instructions to an AI (only context: an
/// imperative, the second person, a model named) is left out: context alone must never
/// mark text, so the trees learn it only from benign units. (Plain requests with no
/// evidence are the lexical model's to find.)
fn rows(
    text: &str,
    payload: Option<&Range<usize>>,
    lexical: &dyn Fn(&str) -> f32,
    out: &mut Vec<([f32; FEATURES], bool)>,
) {
    let overlaps = |r: &Range<usize>| payload.is_some_and(|p| r.start < p.end && p.start < r.end);
    for candidate in candidates_with(text, lexical) {
        let positive = overlaps(&candidate.range);
        if positive && !candidate.features.has_evidence() {
            continue;
        }
        out.push((feature_vector(&candidate.features), positive));
    }
}

#[derive(Clone)]
struct Sample {
    text: String,
    payload: Option<Range<usize>>,
    family: String,
    /// How an injected payload was concealed (one of [`CONCEALMENTS`]); empty for a clean
    /// document.
    how: &'static str,
    /// Which third of the data it belongs to, for the lexical model's out-of-fold scores:
    /// a payload's injections all share one fold.
    fold: usize,
}

/// The documents as they are, each its own sample.
fn clean(benign: &[Doc]) -> Vec<Sample> {
    benign
        .iter()
        .enumerate()
        .map(|(i, b)| {
            // Pieces of one real file share a fold (the lexical model must not learn a file
            // to score another piece of it); written documents take turns.
            let fold = if b.group.starts_with("real:") {
                b.group.bytes().fold(0usize, |h, c| h.wrapping_mul(31).wrapping_add(usize::from(c))) % 3
            } else {
                i % 3
            };
            Sample {
                text: b.text.clone(),
                payload: None,
                family: format!("benign:{}", b.group),
                how: "",
                fold,
            }
        })
        .collect()
}

/// Each payload put into about `per_payload` documents, spread over all of them.
fn injected(benign: &[Doc], payloads: &[Doc], per_payload: usize) -> Vec<Sample> {
    let mut out = Vec::new();
    let stride = (benign.len() / per_payload).max(1);
    for (i, b) in benign.iter().enumerate() {
        for (j, p) in payloads.iter().enumerate() {
            if (i + j * 7) % stride != 0 {
                continue;
            }
            let how = CONCEALMENTS[(i + j) % CONCEALMENTS.len()];
            let (text, range) = inject(&b.text, &conceal(&p.text, how), (i * 7 + j) % 3);
            out.push(Sample { text, payload: Some(range), family: p.group.clone(), how, fold: j % 3 });
        }
    }
    out
}

fn samples(benign: &[Doc], payloads: &[Doc]) -> Vec<Sample> {
    let mut out = clean(benign);
    out.extend(injected(benign, payloads, 48));
    out
}

/// The lexical model's examples: each unit's n-gram buckets, its label and its weight.
struct WordRows {
    buckets: Vec<Vec<u32>>,
    /// The unigram buckets among them (each word once per occurrence).
    unigrams: Vec<Vec<u32>>,
    labels: Vec<bool>,
    weights: Vec<f32>,
    folds: Vec<usize>,
}

/// The units of every sample, read once: the n-grams of each (in the order
/// [`candidates_with`] reads them), and the lexical examples — every unit of a clean
/// document (negative), every payload unit of an injected one (positive).
fn word_rows(samples: &[Sample], repeats: &[usize]) -> (Vec<Vec<Vec<u32>>>, WordRows) {
    let mut per_sample = Vec::with_capacity(samples.len());
    let mut rows = WordRows {
        buckets: Vec::new(),
        unigrams: Vec::new(),
        labels: Vec::new(),
        weights: Vec::new(),
        folds: Vec::new(),
    };
    for (sample, repeat) in samples.iter().zip(repeats) {
        let read = std::cell::RefCell::new(Vec::new());
        let words_of = std::cell::RefCell::new(Vec::new());
        let units = candidates_with(&sample.text, &|words| {
            let (mut b, mut u) = (Vec::new(), Vec::new());
            ngrams_by_kind(words, |x, unigram| {
                b.push(x as u32);
                if unigram {
                    u.push(x as u32);
                }
            });
            read.borrow_mut().push(b);
            words_of.borrow_mut().push(u);
            0.0
        });
        let (read, words_of) = (read.into_inner(), words_of.into_inner());
        for ((candidate, b), u) in units.iter().zip(&read).zip(&words_of) {
            let positive = sample
                .payload
                .as_ref()
                .is_some_and(|p| candidate.range.start < p.end && p.start < candidate.range.end);
            if sample.payload.is_some() && !positive {
                // The host document's own units are in its clean sample already.
                continue;
            }
            rows.buckets.push(b.clone());
            rows.unigrams.push(u.clone());
            rows.labels.push(positive);
            rows.weights.push(*repeat as f32);
            rows.folds.push(sample.fold);
        }
        per_sample.push(read);
    }
    // A payload unit that also stands in a benign document ("Thank you.", "It is very
    // important.") is no evidence either way: it is kept as a negative only.
    let benign: std::collections::HashSet<&Vec<u32>> =
        rows.buckets.iter().zip(&rows.labels).filter(|(_, y)| !**y).map(|(b, _)| b).collect();
    let ambiguous: Vec<bool> =
        rows.buckets.iter().zip(&rows.labels).map(|(b, y)| *y && benign.contains(b)).collect();
    let mut kept = WordRows {
        buckets: Vec::new(),
        unigrams: Vec::new(),
        labels: Vec::new(),
        weights: Vec::new(),
        folds: Vec::new(),
    };
    for (i, b) in rows.buckets.iter().enumerate() {
        if !ambiguous[i] {
            kept.buckets.push(b.clone());
            kept.unigrams.push(rows.unigrams[i].clone());
            kept.labels.push(rows.labels[i]);
            kept.weights.push(rows.weights[i]);
            kept.folds.push(rows.folds[i]);
        }
    }
    (per_sample, kept)
}

const WORD_EPOCHS: usize = 6;
const WORD_RATE: f32 = 0.5;
const WORD_L2: f32 = 1e-3;
/// Positives weigh this share of all the lexical examples' weight.
const WORD_POSITIVE_SHARE: f32 = 0.3;

/// Static word vectors (`--word-vectors`): the vector of each word by its unigram bucket.
struct Vectors {
    dim: usize,
    /// Bucket → row in `data`.
    index: std::collections::HashMap<u32, usize>,
    data: Vec<f32>,
}

impl Vectors {
    fn none() -> Self {
        Vectors { dim: 0, index: Default::default(), data: Vec::new() }
    }

    /// Lines of a word and its numbers, as `tackle-local`'s `word_vectors` example writes
    /// them; words the tokenizer reads otherwise (not lower-case ASCII letters) are skipped,
    /// and of two words in one bucket the first is kept.
    fn load(path: &str) -> Self {
        let text = std::fs::read_to_string(path).expect(path);
        let mut vectors = Vectors::none();
        for line in text.lines() {
            let mut parts = line.split(' ');
            let word = parts.next().unwrap_or_default();
            if word.is_empty() || !word.bytes().all(|b| b.is_ascii_lowercase()) {
                continue;
            }
            let numbers: Vec<f32> = parts.map(|x| x.parse().unwrap()).collect();
            if vectors.dim == 0 {
                vectors.dim = numbers.len();
            }
            assert_eq!(numbers.len(), vectors.dim, "{word}");
            let bucket = unigram_bucket(word) as u32;
            if let std::collections::hash_map::Entry::Vacant(e) = vectors.index.entry(bucket) {
                e.insert(vectors.data.len() / vectors.dim);
                vectors.data.extend(numbers);
            }
        }
        vectors
    }

    /// The sum of the vectors of `unigrams` (zero when there are none).
    fn sum(&self, unigrams: &[u32], out: &mut [f32]) {
        out.fill(0.0);
        for u in unigrams {
            if let Some(&row) = self.index.get(u) {
                for (o, x) in out.iter_mut().zip(&self.data[row * self.dim..(row + 1) * self.dim]) {
                    *o += x;
                }
            }
        }
    }
}

/// Logistic regression over the n-grams (each worth 1/√n) and, with word vectors, over the
/// sum of the unit's word vectors (worth 1/√n too), AdaGrad with L2 on the weights a step
/// touches, trained on the examples whose fold is not `skip`. The vector weights are then
/// folded into the unigram weights — each word's unigram gains its vector's product with
/// them —, which is the same model for every word with a vector: a word never seen in
/// training still weighs what its meaning does. Returns the intercept and the weights in
/// `f32`.
fn train_words(rows: &WordRows, vectors: &Vectors, skip: Option<usize>) -> (f32, Vec<f32>) {
    let keep = |i: usize| skip != Some(rows.folds[i]);
    let (mut pos, mut neg) = (0f32, 0f32);
    for i in (0..rows.labels.len()).filter(|&i| keep(i)) {
        if rows.labels[i] { pos += rows.weights[i] } else { neg += rows.weights[i] }
    }
    let total = pos + neg;
    let (wp, wn) =
        (WORD_POSITIVE_SHARE * total / pos.max(1.0), (1.0 - WORD_POSITIVE_SHARE) * total / neg.max(1.0));
    let mut w = vec![0f32; BUCKETS];
    let mut g2 = vec![1e-6f32; BUCKETS];
    let mut v = vec![0f32; vectors.dim];
    let mut v_g2 = vec![1e-6f32; vectors.dim];
    let mut dense = vec![0f32; vectors.dim];
    let (mut bias, mut bias_g2) = ((pos / neg.max(1.0)).max(1e-6).ln(), 1e-6f32);
    let mut order: Vec<usize> = (0..rows.labels.len()).filter(|&i| keep(i)).collect();
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    for _ in 0..WORD_EPOCHS {
        // Fisher–Yates with a fixed xorshift: the same model every run.
        for k in (1..order.len()).rev() {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            order.swap(k, (seed % (k as u64 + 1)) as usize);
        }
        for &i in &order {
            let b = &rows.buckets[i];
            let x = 1.0 / (b.len().max(MIN_NGRAMS) as f32).sqrt();
            vectors.sum(&rows.unigrams[i], &mut dense);
            let meaning: f32 = dense.iter().zip(&v).map(|(d, v)| d * v).sum();
            let z = bias + (b.iter().map(|&j| w[j as usize]).sum::<f32>() + meaning) * x;
            let p = 1.0 / (1.0 + (-z).exp());
            let weight = if rows.labels[i] { wp } else { wn };
            let g = weight * (p - f32::from(u8::from(rows.labels[i])));
            bias_g2 += g * g;
            bias -= WORD_RATE * g / bias_g2.sqrt();
            for &j in b {
                let j = j as usize;
                let gj = g * x + WORD_L2 * w[j];
                g2[j] += gj * gj;
                w[j] -= WORD_RATE * NGRAM_RATE_SHARE * gj / g2[j].sqrt();
            }
            for ((vk, gk2), d) in v.iter_mut().zip(&mut v_g2).zip(&dense) {
                if *d != 0.0 {
                    let gk = g * x * d + VECTOR_L2 * *vk;
                    *gk2 += gk * gk;
                    *vk -= WORD_RATE * gk / gk2.sqrt();
                }
            }
        }
    }
    for (&bucket, &row) in &vectors.index {
        let vector = &vectors.data[row * vectors.dim..(row + 1) * vectors.dim];
        w[bucket as usize] += vector.iter().zip(&v).map(|(e, v)| e * v).sum::<f32>();
    }
    (bias, w)
}

/// The n-gram weights learn at this share of [`WORD_RATE`], the word vectors' weights at the
/// whole of it: what the meaning of words can carry, shared by every word alike, is learnt
/// before single n-grams memorise single examples. (On the held-out part: recall 0.830 →
/// 0.851 at false alarms 0.020 → 0.019; without the vectors the slower n-grams alone reach
/// 0.839.)
const NGRAM_RATE_SHARE: f32 = 0.3;

/// L2 on the weights of the word vectors' dimensions.
const VECTOR_L2: f32 = 1e-3;

fn words_logit(model: &(f32, Vec<f32>), buckets: &[u32]) -> f32 {
    model.0
        + buckets.iter().map(|&j| model.1[j as usize]).sum::<f32>()
            / (buckets.len().max(MIN_NGRAMS) as f32).sqrt()
}

/// The model in the crate's form: weights as signed bytes times a scale.
fn quantize(model: &(f32, Vec<f32>)) -> Lexical {
    let top = model.1.iter().fold(0f32, |m, w| m.max(w.abs())).max(1e-6);
    let scale = top / 127.0;
    let weights = model.1.iter().map(|w| (w / scale).round().clamp(-127.0, 127.0) as i8 as u8).collect();
    Lexical::new(model.0, scale, weights).expect("a complete model")
}

fn logit_of(scorer: &Trees, x: &[f32; FEATURES]) -> f32 {
    scorer.logit(x)
}

fn score_of(scorer: &Trees, x: &[f32; FEATURES]) -> f32 {
    1.0 / (1.0 + (-logit_of(scorer, x)).exp())
}

const ROUNDS: usize = 300;
const POSITIVE_SHARE: f64 = 0.25;
/// How many times a hand-written benign document counts.
const HARD_NEGATIVE: usize = 10;
/// How many times a composed people-addressed document counts.
const COMPOSED_NEGATIVE: usize = 2;
/// How many documents each composed request is put into.
const REQUEST_HOSTS: usize = 4;
const REAL_REQUEST_HOSTS: usize = 12;
/// The share of training documents each strictness may mark.
const RELAXED_RATE: f64 = 0.005;
const DEFAULT_RATE: f64 = 0.015;
/// The part of `DEFAULT_RATE` the lexical model may spend alone.
const LEXICAL_RATE: f64 = 0.0075;
const STRICT_RATE: f64 = 0.05;
const STRICT_CEILING: f64 = 0.25;
const DEPTH: usize = 4;
const RATE: f32 = 0.1;
const LAMBDA: f64 = 1.0;
const MIN_HESSIAN: f64 = 0.02;
/// Feature values are small counts and products of counts: bins 0..=15.
const BINS: usize = 16;

fn bin(v: f32) -> usize {
    (v.max(0.0) as usize).min(BINS - 1)
}

/// Gradient boosting with the logistic loss and balanced class weights: each round fits one
/// tree of depth at most `DEPTH` to the gradients, greedily, from per-bin sums.
fn train(rows: &[([f32; FEATURES], bool)]) -> Trees {
    let positives = rows.iter().filter(|(_, y)| *y).count().max(1) as f64;
    let negatives = rows.iter().filter(|(_, y)| !*y).count().max(1) as f64;
    let n = rows.len() as f64;
    // Positives weigh a quarter of the negatives in all: the default threshold sits at a
    // low false-alarm rate, and the trees should spend their splits telling benign units
    // apart there rather than on recall the calibration gives up anyway.
    let (wp, wn) = (POSITIVE_SHARE * n / positives, n / negatives);
    let weight = |y: bool| if y { wp } else { wn };
    let base = ((positives * wp) / (negatives * wn)).ln() as f32;
    let bins: Vec<[u8; FEATURES]> = rows.iter().map(|(x, _)| x.map(|v| bin(v) as u8)).collect();
    let mut logits = vec![base; rows.len()];
    let mut trees = Vec::with_capacity(ROUNDS);
    for _ in 0..ROUNDS {
        let (mut g, mut h) = (vec![0f64; rows.len()], vec![0f64; rows.len()]);
        for (i, (_, y)) in rows.iter().enumerate() {
            let p = 1.0 / (1.0 + (-f64::from(logits[i])).exp());
            let w = weight(*y);
            g[i] = w * (p - f64::from(u8::from(*y)));
            h[i] = w * p * (1.0 - p);
        }
        let mut nodes: Vec<Node> = Vec::new();
        grow(&bins, &g, &h, (0..rows.len()).collect(), 0, &mut nodes);
        let tree = Trees::new(0.0, vec![nodes]);
        for (i, (x, _)) in rows.iter().enumerate() {
            logits[i] += tree.logit(x);
        }
        trees.extend(tree.trees().iter().cloned());
    }
    Trees::new(base, trees)
}

/// Adds the subtree for `rows` to `nodes` and returns its index.
fn grow(
    bins: &[[u8; FEATURES]],
    g: &[f64],
    h: &[f64],
    rows: Vec<usize>,
    depth: usize,
    nodes: &mut Vec<Node>,
) -> u16 {
    let (gs, hs): (f64, f64) = rows.iter().fold((0.0, 0.0), |(a, b), &i| (a + g[i], b + h[i]));
    let at = nodes.len();
    nodes.push(Node::Leaf(RATE * (-gs / (hs + LAMBDA)) as f32));
    if depth == DEPTH || rows.len() < 2 {
        return at as u16;
    }
    let mut hist = vec![[(0f64, 0f64); BINS]; FEATURES];
    for &i in &rows {
        for (f, b) in bins[i].iter().enumerate() {
            let cell = &mut hist[f][usize::from(*b)];
            cell.0 += g[i];
            cell.1 += h[i];
        }
    }
    let parent = gs * gs / (hs + LAMBDA);
    let mut best: Option<(f64, usize, usize)> = None;
    for (f, cells) in hist.iter().enumerate() {
        let (mut gl, mut hl) = (0.0, 0.0);
        for (b, cell) in cells.iter().enumerate().take(BINS - 1) {
            gl += cell.0;
            hl += cell.1;
            let (gr, hr) = (gs - gl, hs - hl);
            if hl < MIN_HESSIAN || hr < MIN_HESSIAN {
                continue;
            }
            let gain = gl * gl / (hl + LAMBDA) + gr * gr / (hr + LAMBDA) - parent;
            if gain > 1e-6 && best.is_none_or(|(g, _, _)| gain > g) {
                best = Some((gain, f, b));
            }
        }
    }
    let Some((_, feature, split)) = best else { return at as u16 };
    let (left, right): (Vec<usize>, Vec<usize>) =
        rows.into_iter().partition(|&i| usize::from(bins[i][feature]) <= split);
    let l = grow(bins, g, h, left, depth + 1, nodes);
    let r = grow(bins, g, h, right, depth + 1, nodes);
    nodes[at] = Node::Split { feature: feature as u8, threshold: split as f32 + 0.5, left: l, right: r };
    at as u16
}

/// The log-odds threshold that marks at most `rate` of the documents whose highest unit
/// scores are `sorted` (ascending). Tree scores come in steps, many documents sharing one:
/// the threshold is the lowest step that keeps within the rate, and it is placed halfway
/// down to the step below, so that no document sits on the edge.
fn cut(sorted: &[f32], rate: f64) -> f32 {
    let n = sorted.len().max(1) as f64;
    // Distinct steps, highest first (scores within 1e-4 are one step).
    let mut steps: Vec<f32> = Vec::new();
    for &z in sorted.iter().rev() {
        if steps.last().is_none_or(|last| *last - z > 1e-4) {
            steps.push(z);
        }
    }
    let marked_from = |z: f32| sorted.iter().filter(|s| **s >= z - 1e-4).count() as f64 / n;
    let mut chosen = None;
    for (i, &z) in steps.iter().enumerate() {
        if marked_from(z) > rate {
            break;
        }
        chosen = Some(i);
    }
    match chosen {
        // Even the highest step marks too many: above it.
        None => steps.first().map_or(0.0, |z| z + 1.0),
        Some(i) => {
            let below = steps.get(i + 1).copied().unwrap_or(steps[i] - 2.0);
            (steps[i] + below) / 2.0
        }
    }
}

/// Text-level figures at the default threshold: recall per family, false alarms on the
/// documents alone.
/// Test sets whose figures have been read while tuning: no longer honest, they are written
/// data like the rest and join the training part (every third of each genre and family
/// still held out).
const RETIRED: [&str; 24] = [
    "fresh", "fresh2", "fresh3", "fresh4", "fresh5", "fresh6", "fresh7", "fresh8", "fresh9", "fresh10",
    "fresh11", "fresh12", "fresh13", "fresh14", "fresh15", "fresh16", "fresh17", "fresh18", "fresh19",
    "fresh20", "fresh21", "fresh22", "fresh23", "fresh24",
];

/// Test sets written before the round that produced the committed model and never trained
/// or tuned on: the figures to trust (see data/README.md).
const FRESH: [&str; 4] = ["fresh25", "fresh26", "fresh27", "fresh28"];

fn fresh(root: &str, scorer: &Trees, lexical: &Lexical) {
    for name in FRESH {
        let set = samples(
            &load(&format!("{root}/{name}_benign.jsonl"), "genre"),
            &load(&format!("{root}/{name}_payloads.jsonl"), "family"),
        );
        evaluate(name, scorer, lexical, &set);
    }
}

fn evaluate(name: &str, scorer: &Trees, lexical: &Lexical, samples: &[Sample]) {
    let guard =
        Guard::new(scorer.clone(), Strictness::Default, Thresholds::default()).with_lexical(lexical.clone());
    let threshold = Thresholds::default().default;
    let missed_in = std::env::args().skip_while(|a| a != "--missed-in").nth(1);
    let mut by_family: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    // Injected texts caught, and all, per concealment: plain text apart from disguised.
    let mut by_concealment: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let (mut tp, mut fp, mut fneg, mut tn) = (0, 0, 0, 0);
    // Every text's score, for the recall at a fixed false-alarm rate (a comparison that the
    // calibration's steps do not move).
    let (mut injected_scores, mut benign_scores) = (Vec::new(), Vec::new());
    for sample in samples {
        let score = guard.score(&sample.text);
        if sample.payload.is_some() {
            injected_scores.push(score);
        } else {
            benign_scores.push(score);
        }
        let flagged = score >= threshold;
        let family = match (&sample.payload, sample.family.strip_prefix("benign:real:")) {
            (Some(_), _) => sample.family.clone(),
            (None, _) if sample.family == "benign:composed" => "benign composed".to_owned(),
            (None, Some(real)) => format!("benign real {}", real.split(':').next().unwrap_or_default()),
            (None, None) => "benign written".to_owned(),
        };
        let entry = by_family.entry(family).or_default();
        entry.1 += 1;
        if sample.payload.is_some() {
            let caught = by_concealment.entry(sample.how).or_default();
            caught.0 += usize::from(flagged);
            caught.1 += 1;
        }
        match (sample.payload.is_some(), flagged) {
            (true, true) => {
                tp += 1;
                entry.0 += 1;
            }
            (true, false) => {
                fneg += 1;
                if (name == "train" && std::env::args().any(|a| a == "--missed"))
                    || missed_in.as_deref() == Some(name)
                {
                    let payload = &sample.text[sample.payload.clone().unwrap_or_default()];
                    println!(
                        "  missed {}: {:?}",
                        sample.family,
                        payload.chars().take(150).collect::<String>()
                    );
                }
            }
            (false, true) => {
                fp += 1;
                entry.0 += 1;
                if (name == "train" || name == "dev") && std::env::args().any(|a| a == "--show") {
                    show(scorer, lexical, sample);
                }
            }
            (false, false) => tn += 1,
        }
    }
    benign_scores.sort_by(|a, b| b.total_cmp(a));
    // The lowest threshold that marks at most 2 % of the benign texts (ties count whole).
    let allowed = benign_scores.len() / 50;
    let at_2 = benign_scores.get(allowed).map_or(0.0, |s| s.next_up());
    let recall_at_2 =
        injected_scores.iter().filter(|s| **s >= at_2).count() as f64 / injected_scores.len().max(1) as f64;
    let precision = tp as f64 / (tp + fp).max(1) as f64;
    let recall = tp as f64 / (tp + fneg).max(1) as f64;
    let far = fp as f64 / (fp + tn).max(1) as f64;
    println!(
        "{{\"set\": \"{name}\", \"precision\": {precision:.3}, \"recall\": {recall:.3}, \"false_alarm_rate\": {far:.3}, \"recall_at_2pct\": {recall_at_2:.3}, \"injected\": {}, \"benign\": {}}}",
        tp + fneg,
        fp + tn
    );
    for (family, (hits, total)) in by_family {
        println!("  {family}: {hits}/{total} flagged");
    }
    let concealments: Vec<String> =
        by_concealment.iter().map(|(how, (hits, total))| format!("{how} {hits}/{total}")).collect();
    println!("  injected, by concealment: {}", concealments.join(", "));
}

/// Writes one JSON line per unit of each part's plain samples (disguised ones read the same
/// once normalised and decoded): the part, the sample's index in it, whether the sample is
/// injected and the unit overlaps the payload, the committed model's score and the unit as
/// the guard hands it to a classifier.
fn dump_units(path: &str, parts: &[(String, Vec<Sample>)]) {
    use std::io::Write as _;
    let (scorer, lexical) = (Trees::trained(), Lexical::trained());
    let mut out = std::io::BufWriter::new(std::fs::File::create(path).expect(path));
    for (part, set) in parts {
        for (doc, sample) in set.iter().enumerate() {
            if !sample.how.is_empty() && sample.how != "plain" {
                continue;
            }
            for c in candidates_with(&sample.text, &|words| lexical.logit(words)) {
                let positive =
                    sample.payload.as_ref().is_some_and(|p| c.range.start < p.end && p.start < c.range.end);
                let text = c
                    .decoded
                    .clone()
                    .unwrap_or_else(|| tackle_guard::normalize(&sample.text[c.range.clone()]).text);
                let line = serde_json::json!({
                    "part": part, "doc": doc, "injected": sample.payload.is_some(),
                    "label": positive, "score": scorer.score(&c.features), "text": text,
                });
                writeln!(out, "{line}").unwrap();
            }
        }
    }
}

/// The units of a false alarm that scored over the threshold (training part only).
fn show(scorer: &Trees, lexical: &Lexical, sample: &Sample) {
    for candidate in candidates_with(&sample.text, &|words| lexical.logit(words)) {
        let x = feature_vector(&candidate.features);
        let score = 1.0 / (1.0 + (-scorer.unit_logit(&candidate.features)).exp());
        if score >= Thresholds::default().default {
            let text: String = sample.text[candidate.range.clone()].chars().take(160).collect();
            let mut on: Vec<&str> =
                FEATURE_NAMES.iter().zip(x).filter(|(_, v)| *v > 0.0).map(|(n, _)| *n).collect();
            if scorer.by_wording(&candidate.features) {
                on.push("WORDING");
            }
            println!("  false alarm {} ({score:.2}) {on:?}: {text:?}", sample.family);
        }
    }
}

fn main() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/data");
    let mut benign = load(&format!("{root}/benign.jsonl"), "genre");
    let mut payloads = load(&format!("{root}/payloads.jsonl"), "family");
    // Test sets that have been looked at are training data now (see data/README.md).
    for name in RETIRED {
        benign.extend(load(&format!("{root}/{name}_benign.jsonl"), "genre"));
        payloads.extend(load(&format!("{root}/{name}_payloads.jsonl"), "family"));
    }
    let args: Vec<String> = std::env::args().collect();
    if let Some(dir) = args.iter().position(|a| a == "--benign-dir").and_then(|i| args.get(i + 1)) {
        benign.extend(load_dir(dir));
    }
    let (benign_train, benign_held) = split(benign);
    let (payload_train, payload_held) = split(payloads);
    // The composed requests and their people-addressed twins teach the lexical model only:
    // the trees and the calibration see the written payloads and the documents.
    let (composed_train, composed_held) = split(load(&format!("{root}/requests_benign.jsonl"), "genre"));
    let (request_train, request_held) = split(load(&format!("{root}/requests_payloads.jsonl"), "family"));
    // Requests real people wrote to assistants (`data/real-requests.sh`), when given: the
    // lexical model's positives besides the composed ones.
    let (real_train, real_held) = match args.iter().position(|a| a == "--requests-file") {
        Some(i) => split(load(args.get(i + 1).expect("--requests-file FILE"), "group")),
        None => (Vec::new(), Vec::new()),
    };
    let mut train_samples = samples(&benign_train, &payload_train);
    let mut word_samples = train_samples.clone();
    word_samples.extend(injected(&benign_train, &request_train, REQUEST_HOSTS));
    word_samples.extend(injected(&benign_train, &real_train, REAL_REQUEST_HOSTS));
    word_samples.extend(clean(&composed_train));
    // `--dev-fold K`: a third of the training part set aside as a development set, so that
    // what the model misses on text it has not learnt can be read without touching the
    // held-out part. The fold's payloads are unseen; the documents hosting them may be
    // learnt as clean text of another fold.
    let dev_fold: Option<usize> = args
        .iter()
        .position(|a| a == "--dev-fold")
        .map(|i| args.get(i + 1).and_then(|k| k.parse().ok()).filter(|k| *k < 3).expect("--dev-fold 0|1|2"));
    assert!(
        dev_fold.is_none() || !args.iter().any(|a| a == "--write"),
        "--dev-fold trains on two thirds of the training part: its model is not written"
    );
    let mut dev_samples = Vec::new();
    if let Some(k) = dev_fold {
        dev_samples = train_samples.iter().filter(|s| s.fold == k).cloned().collect();
        train_samples.retain(|s| s.fold != k);
        word_samples.retain(|s| s.fold != k);
    }
    let mut held_samples = samples(&benign_held, &payload_held);
    held_samples.extend(
        injected(&benign_held, &request_held, REQUEST_HOSTS)
            .into_iter()
            .map(|s| Sample { family: "composed_request".into(), ..s }),
    );
    held_samples.extend(
        injected(&benign_held, &real_held, REQUEST_HOSTS)
            .into_iter()
            .map(|s| Sample { family: "real_request".into(), ..s }),
    );
    held_samples
        .extend(clean(&composed_held).into_iter().map(|s| Sample { family: "benign:composed".into(), ..s }));
    // Hand-written benign documents are the hard negatives real text rarely holds (an
    // article quoting an attack, code with role strings): each counts `HARD_NEGATIVE` times
    // (the composed people-addressed requests, many and alike, `COMPOSED_NEGATIVE` times).
    let repeat = |s: &Sample| match (&s.payload, s.family.as_str()) {
        (Some(_), _) => 1,
        (None, "benign:requests") => COMPOSED_NEGATIVE,
        (None, family) if family.starts_with("benign:real:") => 1,
        (None, _) => HARD_NEGATIVE,
    };
    if let Some(path) = args.iter().position(|a| a == "--dump-units").and_then(|i| args.get(i + 1)) {
        // Every unit of the training part, the held-out part and the sets named by
        // `--dump-sets A,B`, with the committed model's score: what a classifier of
        // borderline units learns from and is measured on (`tackle-local`'s `guard_head`).
        let named: Vec<String> = args
            .iter()
            .position(|a| a == "--dump-sets")
            .and_then(|i| args.get(i + 1))
            .map(|list| list.split(',').map(str::to_owned).collect())
            .unwrap_or_default();
        let mut parts: Vec<(String, Vec<Sample>)> = vec![
            ("train".to_owned(), std::mem::take(&mut word_samples)),
            ("held_out".to_owned(), std::mem::take(&mut held_samples)),
        ];
        for name in named {
            let set = samples(
                &load(&format!("{root}/{name}_benign.jsonl"), "genre"),
                &load(&format!("{root}/{name}_payloads.jsonl"), "family"),
            );
            parts.push((name, set));
        }
        dump_units(path, &parts);
        return;
    }
    if args.iter().any(|a| a == "--committed") {
        // The model in the crate as it is, on the same held-out part and fresh sets.
        let (scorer, lexical) = (Trees::trained(), Lexical::trained().clone());
        evaluate("held_out", &scorer, &lexical, &held_samples);
        fresh(root, &scorer, &lexical);
        return;
    }
    let repeats: Vec<usize> = train_samples.iter().map(repeat).collect();
    // The lexical model: trained three times on two thirds to score the third, so that the
    // calibration sees its scores on text it has not learnt from; then once on all.
    let word_repeats: Vec<usize> = word_samples.iter().map(repeat).collect();
    let (words_read, word_rows) = word_rows(&word_samples, &word_repeats);
    let vectors = match args.iter().position(|a| a == "--word-vectors") {
        Some(i) => Vectors::load(args.get(i + 1).expect("--word-vectors FILE")),
        None => Vectors::none(),
    };
    let folds: Vec<(f32, Vec<f32>)> = (0..3).map(|k| train_words(&word_rows, &vectors, Some(k))).collect();
    let lexical = quantize(&train_words(&word_rows, &vectors, None));
    // Rows per sample: the units of a document, and which overlap the payload.
    let per_sample: Vec<Vec<([f32; FEATURES], bool)>> = train_samples
        .iter()
        .map(|sample| {
            let mut rows_of = Vec::new();
            rows(&sample.text, sample.payload.as_ref(), &|_| 0.0, &mut rows_of);
            rows_of
        })
        .collect();
    // Each sample's highest lexical log-odds, out of fold.
    let words_max: Vec<f32> = train_samples
        .iter()
        .zip(&words_read)
        .map(|(sample, read)| {
            read.iter().map(|b| words_logit(&folds[sample.fold], b)).fold(f32::NEG_INFINITY, f32::max)
        })
        .collect();
    let mut train_rows: Vec<([f32; FEATURES], bool)> = per_sample
        .iter()
        .zip(&repeats)
        .flat_map(|(rows, n)| std::iter::repeat_n(rows, *n).flatten().cloned())
        .collect();
    if let Some(name) = args.iter().position(|a| a == "--feature").and_then(|i| args.get(i + 1)) {
        // How often a feature is on, by label (to see what a feature teaches); `--feature
        // a+b` counts rows where both are on.
        let ks: Vec<usize> = name
            .split('+')
            .map(|n| FEATURE_NAMES.iter().position(|f| *f == n).expect("a feature name"))
            .collect();
        let on = |label: bool| {
            train_rows.iter().filter(|(x, y)| *y == label && ks.iter().all(|&k| x[k] > 0.0)).count()
        };
        println!(
            "{{\"feature\": \"{name}\", \"positive_rows\": {}, \"negative_rows\": {}}}",
            on(true),
            on(false)
        );
    }
    let mut scorer = train(&train_rows);
    // A payload of several sentences need not be suspicious in every one: the labels are
    // per text. Twice, each injected sample keeps as positive only its payload unit the
    // model scores highest (its other payload units are left out, not made negative).
    for _ in 0..2 {
        train_rows.clear();
        for (sample_rows, repeat) in per_sample.iter().zip(&repeats) {
            let best = sample_rows
                .iter()
                .enumerate()
                .filter(|(_, (_, y))| *y)
                .max_by(|a, b| score_of(&scorer, &a.1.0).total_cmp(&score_of(&scorer, &b.1.0)))
                .map(|(i, _)| i);
            for (i, (x, y)) in sample_rows.iter().enumerate() {
                if !*y || Some(i) == best {
                    train_rows.extend(std::iter::repeat_n((*x, *y), *repeat));
                }
            }
        }
        scorer = train(&train_rows);
    }
    // Calibration, on the real and hand-written documents (the composed ones are many and
    // alike, and would spend the budget on one kind of text): the words alone may mark
    // `LEXICAL_RATE` of them, the trees the rest of `DEFAULT_RATE`; the intercept and the
    // offset are moved so that the default threshold is the score 0.5. Relaxed and strict
    // mark their shares (`RELAXED_RATE`, `STRICT_RATE`) of the two together.
    let calibrated: Vec<usize> = (0..train_samples.len())
        .filter(|&i| train_samples[i].payload.is_none() && train_samples[i].family != "benign:requests")
        .collect();
    let tree_max = |scorer: &Trees, i: usize| {
        per_sample[i].iter().map(|(x, _)| logit_of(scorer, x)).fold(f32::NEG_INFINITY, f32::max)
    };
    let sorted = |mut v: Vec<f32>| {
        v.sort_by(f32::total_cmp);
        v
    };
    // The words' share is set on the composed people-addressed documents too: notices and
    // e-mails full of requests to the reader, which the real text holds few of.
    let composed_max: Vec<f32> = word_samples
        .iter()
        .zip(&words_read)
        .filter(|(s, _)| s.payload.is_none() && s.family == "benign:requests")
        .map(|(s, read)| {
            read.iter().map(|b| words_logit(&folds[s.fold], b)).fold(f32::NEG_INFINITY, f32::max)
        })
        .collect();
    let offset = cut(
        &sorted(calibrated.iter().map(|&i| words_max[i]).chain(composed_max.iter().copied()).collect()),
        LEXICAL_RATE,
    );
    let z_trees =
        cut(&sorted(calibrated.iter().map(|&i| tree_max(&scorer, i)).collect()), DEFAULT_RATE - LEXICAL_RATE);
    let scorer = Trees::new(scorer.base() - z_trees, scorer.trees().to_vec()).with_lexical_offset(offset);
    let benign_scores =
        sorted(calibrated.iter().map(|&i| tree_max(&scorer, i).max(words_max[i] - offset)).collect());
    let (z_relaxed, z_default) = (cut(&benign_scores, RELAXED_RATE), 0.0);
    // Strict marks more than the default: at its rate when a step lies there, else one step
    // further down, as long as that step marks at most `STRICT_CEILING` of the documents.
    let z_strict =
        Some(cut(&benign_scores, STRICT_RATE)).filter(|z| *z < z_default - 1e-3).unwrap_or_else(|| {
            let mut below = benign_scores.iter().rev().copied().filter(|z| *z < z_default - 1e-4);
            let Some(step) = below.next() else { return z_default };
            let marked = benign_scores.iter().filter(|z| **z >= step - 1e-4).count() as f64
                / benign_scores.len().max(1) as f64;
            if marked > STRICT_CEILING {
                return z_default;
            }
            let next = below.find(|z| *z < step - 1e-4).unwrap_or(step - 2.0);
            (step + next) / 2.0
        });
    let sigmoid = |z: f32| 1.0 / (1.0 + (-z).exp());
    let thresholds = Thresholds {
        relaxed: sigmoid(z_relaxed - z_default).max(0.5),
        default: 0.5,
        strict: sigmoid(z_strict - z_default).min(0.5),
    };
    println!("{{\"thresholds\": [{:.4}, 0.5, {:.4}]}}", thresholds.relaxed, thresholds.strict);
    println!(
        "{{\"train_rows\": {}, \"positive_rows\": {}}}",
        train_rows.len(),
        train_rows.iter().filter(|(_, y)| *y).count()
    );
    let mut used = [0usize; FEATURES];
    for node in scorer.trees().iter().flatten() {
        if let Node::Split { feature, .. } = node {
            used[usize::from(*feature)] += 1;
        }
    }
    for (name, splits) in FEATURE_NAMES.iter().zip(used) {
        println!("  splits on {name}: {splits}");
    }
    evaluate("train", &scorer, &lexical, &train_samples);
    if dev_fold.is_some() {
        evaluate("dev", &scorer, &lexical, &dev_samples);
    } else {
        evaluate("held_out", &scorer, &lexical, &held_samples);
    }
    if args.iter().any(|a| a == "--fresh") {
        fresh(root, &scorer, &lexical);
    }
    if std::env::args().any(|a| a == "--write") {
        let node = |n: &Node| match n {
            Node::Split { feature, threshold, left, right } => {
                format!(
                    "Node::Split {{ feature: {feature}, threshold: {threshold:.1}, left: {left}, right: {right} }}"
                )
            }
            Node::Leaf(v) => format!("Node::Leaf({v:.5})"),
        };
        let trees: Vec<String> = scorer
            .trees()
            .iter()
            .map(|t| {
                format!(
                    "    &[\n        {},\n    ],",
                    t.iter().map(node).collect::<Vec<_>>().join(",\n        ")
                )
            })
            .collect();
        let file = format!(
            "//! The default scorer's trees and thresholds, written by `examples/train.rs`; do not edit\n\
             //! by hand.\n\n\
             use crate::scorer::Node;\n\n\
             /// The starting log-odds.\n\
             pub(crate) const BASE: f32 = {:.5};\n\n\
             /// The trees.\n\
             pub(crate) const TREES: &[&[Node]] = &[\n{}\n];\n\n\
             /// The thresholds for relaxed, default and strict.\n\
             pub(crate) const THRESHOLDS: [f32; 3] = [{:.4}, 0.5, {:.4}];\n\n\
             /// Subtracted from the lexical model's log-odds (`lexical.bin`).\n\
             pub(crate) const LEXICAL_OFFSET: f32 = {:.5};\n",
            scorer.base(),
            trees.join("\n"),
            thresholds.relaxed,
            thresholds.strict,
            scorer.lexical_offset(),
        );
        std::fs::write(concat!(env!("CARGO_MANIFEST_DIR"), "/src/weights.rs"), file).unwrap();
        println!("wrote src/weights.rs");
        std::fs::write(concat!(env!("CARGO_MANIFEST_DIR"), "/src/lexical.bin"), lexical.to_bytes()).unwrap();
        println!("wrote src/lexical.bin");
    }
}

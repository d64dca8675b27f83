//! `tackle-bench extract --modern DIR [--part dev|held-out|test|all]` (`dev` when not
//! given): the modern-web extraction benchmark of Murrough Foley, in either of its two
//! published forms:
//!
//! - WCXB v1.0 (github.com/Murrough-Foley/web-content-extraction-benchmark, CC-BY-4.0):
//!   2,008 pages of seven types, split by its author into `dev/` (1,497) and a held-out
//!   `test/` (511), each `html/ID.html.gz` with `ground-truth/ID.json`. `--part dev` and
//!   `--part test` are its splits. Its own measure (`evaluate.py`) is word F1: the page's
//!   lower-cased `\w+` words counted as a bag against the truth's, precision, recall and F1
//!   per page, each averaged over the pages (a page whose truth is empty scores 1 when
//!   nothing is extracted, else 0); `word` in the output, comparable with the figures its
//!   README publishes for other extractors.
//! - The earlier release (also published as tiptopjaw/web-content-extraction-benchmark;
//!   Apache-2.0): about a thousand pages (`release/html/ID.html.gz`,
//!   `benchmark/ground-truth/ID.json`), pages whose truth is empty left out. Every third
//!   page with both files, in ID order, is the development part (`dev`); the other two
//!   thirds (`held-out`) are only ever scored whole.
//!
//! Both are also scored as the article-extraction benchmark they copy scores: 4-word
//! shingles of the main text as `Page::text` gives it, precision and recall per page
//! averaged, F1 from the two averages; beside it the mean of the pages' F1, the share of
//! must-have passages found and of must-not passages kept, and F1 per page type (article,
//! forum, product, ...); a page whose truth is empty (27 of WCXB's) counts 0 by shingles.
//! The truth was written by a language model and checked by people.
//! `TACKLE_SHOW=1` lists the development pages below F1 0.9 (and their passages missed and
//! kept with `TACKLE_SHOW=2`). `compare/extract_modern.py` scores trafilatura and
//! readability-lxml on the same parts.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::Path;
use std::time::Instant;

use crate::{corpus, folded, round3};

/// One page: its ID, address, type, HTML, main text and passages.
struct Page {
    id: String,
    url: url::Url,
    kind: String,
    html: String,
    truth: String,
    with: Vec<String>,
    without: Vec<String>,
}

/// What a part scores.
#[derive(Default)]
struct Totals {
    pages: usize,
    precision: f64,
    recall: f64,
    f1: f64,
    with_found: usize,
    with_total: usize,
    without_kept: usize,
    without_total: usize,
    /// Word precision, recall and F1 summed over the pages (WCXB's measure).
    words: (f64, f64, f64),
}

impl Totals {
    fn add(
        &mut self,
        (p, r, f): (f64, f64, f64),
        words: (f64, f64, f64),
        with: (usize, usize),
        without: (usize, usize),
    ) {
        self.pages += 1;
        self.words.0 += words.0;
        self.words.1 += words.1;
        self.words.2 += words.2;
        self.precision += p;
        self.recall += r;
        self.f1 += f;
        self.with_found += with.0;
        self.with_total += with.1;
        self.without_kept += without.0;
        self.without_total += without.1;
    }

    /// Mean precision and recall, F1 of the two, and the mean of the pages' F1.
    fn means(&self) -> (f64, f64, f64, f64) {
        let n = self.pages.max(1) as f64;
        let (p, r) = (self.precision / n, self.recall / n);
        let f1 = if p + r == 0.0 { 0.0 } else { 2.0 * p * r / (p + r) };
        (p, r, f1, self.f1 / n)
    }

    /// Mean word precision, recall and F1 (each averaged over the pages, as WCXB does).
    fn word_means(&self) -> serde_json::Value {
        let n = self.pages.max(1) as f64;
        serde_json::json!({
            "precision": round3(self.words.0 / n), "recall": round3(self.words.1 / n), "f1": round3(self.words.2 / n)
        })
    }
}

/// The lower-cased words of `text` as WCXB's `evaluate.py` reads them (Python's `\w+`:
/// runs of letters, digits and underscores), counted.
fn word_counts(text: &str) -> std::collections::HashMap<String, usize> {
    let mut counts = std::collections::HashMap::new();
    for word in text.split(|c: char| !(c.is_alphanumeric() || c == '_')).filter(|w| !w.is_empty()) {
        *counts.entry(word.to_lowercase()).or_insert(0) += 1;
    }
    counts
}

/// Word precision, recall and F1 of `extracted` against `truth`, as `evaluate.py` computes
/// them: a bag of words each, the overlap counted with multiplicity; an empty truth scores 1
/// when nothing was extracted and 0 otherwise.
fn word_scores(extracted: &str, truth: &str) -> (f64, f64, f64) {
    let (got, want) = (word_counts(extracted), word_counts(truth));
    let (got_total, want_total): (usize, usize) = (got.values().sum(), want.values().sum());
    if want_total == 0 {
        return if got_total == 0 { (1.0, 1.0, 1.0) } else { (0.0, 0.0, 0.0) };
    }
    if got_total == 0 {
        return (0.0, 0.0, 0.0);
    }
    let common: usize = got.iter().map(|(w, n)| (*n).min(want.get(w).copied().unwrap_or(0))).sum();
    let (p, r) = (common as f64 / got_total as f64, common as f64 / want_total as f64);
    (p, r, if p + r == 0.0 { 0.0 } else { 2.0 * p * r / (p + r) })
}

/// The pages of the benchmark under `dir` whose HTML and ground truth are both there, in ID
/// order, with whether each is in the development part: WCXB's `dev/` split, or every third
/// page of the earlier release.
fn pages(dir: &Path) -> Result<Vec<(bool, Page)>, Box<dyn std::error::Error>> {
    if dir.join("dev").join("ground-truth").is_dir() {
        let mut found = Vec::new();
        for split in ["dev", "test"] {
            let split_dir = dir.join(split);
            let read = read_pages(&split_dir.join("ground-truth"), &split_dir.join("html"), true)?;
            found.extend(read.into_iter().map(|page| (split == "dev", page)));
        }
        return Ok(found);
    }
    let read =
        read_pages(&dir.join("benchmark").join("ground-truth"), &dir.join("release").join("html"), false)?;
    Ok(read.into_iter().enumerate().map(|(i, page)| (i.is_multiple_of(3), page)).collect())
}

/// The pages with a truth in `truths` and HTML in `html`, in ID order; those whose truth is
/// empty only when `keep_empty`.
fn read_pages(truths: &Path, html: &Path, keep_empty: bool) -> Result<Vec<Page>, Box<dyn std::error::Error>> {
    let entries = std::fs::read_dir(truths).map_err(|e| format!("cannot read {}: {e}", truths.display()))?;
    let mut ids: Vec<String> = entries
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().to_str().and_then(|n| n.strip_suffix(".json")).map(str::to_owned))
        .collect();
    ids.sort();
    let mut found = Vec::new();
    for id in ids {
        let path = html.join(format!("{id}.html.gz"));
        let Ok(file) = std::fs::File::open(&path) else { continue };
        let mut bytes = Vec::new();
        flate2::read::GzDecoder::new(file)
            .read_to_end(&mut bytes)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let truth_path = truths.join(format!("{id}.json"));
        let record: serde_json::Value = std::fs::read_to_string(&truth_path)
            .map_err(|e| e.to_string())
            .and_then(|text| serde_json::from_str(&text).map_err(|e| e.to_string()))
            .map_err(|e| format!("cannot read {}: {e}", truth_path.display()))?;
        let truth = &record["ground_truth"];
        let main = truth["main_content"].as_str().unwrap_or_default();
        if main.trim().is_empty() && !keep_empty {
            continue;
        }
        let passages = |key: &str| -> Vec<String> {
            truth[key].as_array().into_iter().flatten().filter_map(|v| v.as_str()).map(folded).collect()
        };
        let url = record["url"].as_str().and_then(|u| url::Url::parse(u).ok());
        // WCXB reads a category page as a collection.
        let kind = match record["_internal"]["page_type"]["primary"].as_str().unwrap_or("unknown") {
            "category" => "collection",
            other => other,
        };
        found.push(Page {
            url: url.unwrap_or_else(|| url::Url::parse("https://bench.example/page").expect("a URL")),
            kind: kind.to_owned(),
            html: tackle_web::decode(&bytes, Some("text/html"), tackle_web::ContentKind::Html),
            truth: main.to_owned(),
            with: passages("with"),
            without: passages("without"),
            id,
        });
    }
    if found.is_empty() {
        return Err(format!("no pages under {} with HTML in {}", truths.display(), html.display()).into());
    }
    Ok(found)
}

pub(crate) fn bench(dir: &str, part: &str) -> Result<(), Box<dyn std::error::Error>> {
    let wanted = |dev: bool| match part {
        "dev" => Ok(dev),
        "held-out" | "test" => Ok(!dev),
        "all" => Ok(true),
        other => Err(format!("--part is dev, held-out (test) or all, not {other:?}")),
    };
    let show = if part == "dev" { std::env::var("TACKLE_SHOW").ok() } else { None };
    let mut chosen = Vec::new();
    for (dev, page) in pages(Path::new(dir))? {
        if wanted(dev)? {
            chosen.push(page);
        }
    }
    let bytes: usize = chosen.iter().map(|p| p.html.len()).sum();
    let started = Instant::now();
    let texts: Vec<String> = chosen
        .iter()
        .map(|p| tackle_extract::extract(&p.html, tackle_extract::ContentKind::Html, &p.url).text())
        .collect();
    let seconds = started.elapsed().as_secs_f64();
    let mut all = Totals::default();
    let mut by_kind: BTreeMap<&str, Totals> = BTreeMap::new();
    let mut weak = Vec::new();
    for (page, text) in chosen.iter().zip(&texts) {
        let scores = corpus::shingle_scores(text, &page.truth);
        let words = word_scores(text, &page.truth);
        let flat = folded(text);
        let with = (page.with.iter().filter(|w| flat.contains(w.as_str())).count(), page.with.len());
        let without = (page.without.iter().filter(|w| flat.contains(w.as_str())).count(), page.without.len());
        all.add(scores, words, with, without);
        by_kind.entry(&page.kind).or_default().add(scores, words, with, without);
        if show.is_some() && scores.2 < 0.9 {
            weak.push((scores, page, flat));
        }
    }
    let (p, r, f1, page_f1) = all.means();
    let kinds: serde_json::Map<String, serde_json::Value> = by_kind
        .iter()
        .map(|(kind, t)| {
            let (p, r, f1, _) = t.means();
            let figures = serde_json::json!({
                "pages": t.pages, "f1": round3(f1), "precision": round3(p), "recall": round3(r), "word": t.word_means()
            });
            ((*kind).to_owned(), figures)
        })
        .collect();
    let share = |a: usize, b: usize| if b == 0 { 0.0 } else { round3(a as f64 / b as f64) };
    out!(
        "{}",
        serde_json::json!({
            "framework": "tackle", "bench": "extract_modern", "part": part, "pages": all.pages,
            "precision": round3(p), "recall": round3(r), "f1": round3(f1), "page_f1": round3(page_f1),
            "word": all.word_means(),
            "with_found": share(all.with_found, all.with_total),
            "without_kept": share(all.without_kept, all.without_total),
            "by_type": kinds,
            "mb": round3(bytes as f64 / 1e6), "pages_per_s": round3(all.pages as f64 / seconds.max(1e-9)),
        })
    );
    if let Some(level) = show {
        weak.sort_by(|a, b| a.0.2.total_cmp(&b.0.2));
        for ((p, r, f), page, flat) in weak {
            eprintln!("{}\t{}\tF1 {:.3} P {:.3} R {:.3}\t{}", page.id, page.kind, f, p, r, page.url);
            if level == "2" {
                for w in page.with.iter().filter(|w| !flat.contains(w.as_str())) {
                    eprintln!("\tmissing\t{w}");
                }
                for w in page.without.iter().filter(|w| flat.contains(w.as_str())) {
                    eprintln!("\tkept\t{w}");
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::word_scores;

    fn close(got: (f64, f64, f64), want: (f64, f64, f64)) {
        let near = |a: f64, b: f64| (a - b).abs() < 1e-9;
        assert!(
            near(got.0, want.0) && near(got.1, want.1) && near(got.2, want.2),
            "{got:?} against {want:?}"
        );
    }

    #[test]
    fn word_scores_count_a_bag_of_lower_case_words_as_wcxb_does() {
        // Six words extracted, five of them the truth's (case folded; an underscore joins,
        // a hyphen splits). Every expected figure here was computed in Python the way
        // evaluate.py's `word_f1` does (`re.findall(r"\w+", text.lower())`, `Counter`s).
        close(
            word_scores("The cat, the_end. Sat-on MAT!", "the cat sat on the_end"),
            (5.0 / 6.0, 1.0, 10.0 / 11.0),
        );
        // A word said three times against once counts once.
        close(word_scores("the the the", "the cat"), (1.0 / 3.0, 0.5, 0.4));
        // An empty truth: right only when nothing was extracted.
        close(word_scores("", " \n"), (1.0, 1.0, 1.0));
        close(word_scores("menu", ""), (0.0, 0.0, 0.0));
        close(word_scores("", "a story"), (0.0, 0.0, 0.0));
        // Letters of any script are words; case is folded as Python folds it.
        close(word_scores("Über straße", "über STRASSE"), (0.5, 0.5, 0.5));
    }
}

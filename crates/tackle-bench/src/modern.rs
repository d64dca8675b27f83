//! `tackle-bench extract --modern DIR [--part dev|held-out|all]` (`dev` when not given):
//! the modern-web extraction benchmark of 2026
//! (github.com/Murrough-Foley/web-content-extraction-benchmark, also published as
//! tiptopjaw/web-content-extraction-benchmark; Apache-2.0): about a thousand
//! pages fetched in 2025–2026 (`release/html/ID.html.gz`) with their main text, title and
//! passages that must and must not be extracted (`benchmark/ground-truth/ID.json`, written
//! by a language model and checked by a person). Scored as the article-extraction benchmark
//! it copies scores: 4-word shingles of the main text as `Page::text` gives it, precision
//! and recall per page averaged, F1 from the two averages; beside it the mean of the pages'
//! F1, the share of must-have passages found and of must-not passages kept, and F1 per page
//! type (article, forum, product, ...).
//!
//! Every third page with both files, in ID order, is the development part; the other two
//! thirds are held out and only ever scored whole. `TACKLE_SHOW=1` lists the development
//! pages below F1 0.9 (and their passages missed and kept with `TACKLE_SHOW=2`).
//! `compare/extract_modern.py` scores trafilatura and readability-lxml on the same parts.

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
}

impl Totals {
    fn add(&mut self, (p, r, f): (f64, f64, f64), with: (usize, usize), without: (usize, usize)) {
        self.pages += 1;
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
}

/// The pages of the benchmark under `dir` whose HTML and ground truth are both there, in ID
/// order, with whether each is in the development part.
fn pages(dir: &Path) -> Result<Vec<(bool, Page)>, Box<dyn std::error::Error>> {
    let truths = dir.join("benchmark").join("ground-truth");
    let html = dir.join("release").join("html");
    let entries = std::fs::read_dir(&truths).map_err(|e| format!("cannot read {}: {e}", truths.display()))?;
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
        let Some(main) = truth["main_content"].as_str().filter(|t| !t.trim().is_empty()) else { continue };
        let passages = |key: &str| -> Vec<String> {
            truth[key].as_array().into_iter().flatten().filter_map(|v| v.as_str()).map(folded).collect()
        };
        let url = record["url"].as_str().and_then(|u| url::Url::parse(u).ok());
        let page = Page {
            url: url.unwrap_or_else(|| url::Url::parse("https://bench.example/page").expect("a URL")),
            kind: record["_internal"]["page_type"]["primary"].as_str().unwrap_or("unknown").to_owned(),
            html: tackle_web::decode(&bytes, Some("text/html"), tackle_web::ContentKind::Html),
            truth: main.to_owned(),
            with: passages("with"),
            without: passages("without"),
            id,
        };
        found.push((found.len().is_multiple_of(3), page));
    }
    if found.is_empty() {
        return Err(
            format!("no pages under {} (release/html and benchmark/ground-truth)", dir.display()).into()
        );
    }
    Ok(found)
}

pub(crate) fn bench(dir: &str, part: &str) -> Result<(), Box<dyn std::error::Error>> {
    let wanted = |dev: bool| match part {
        "dev" => Ok(dev),
        "held-out" => Ok(!dev),
        "all" => Ok(true),
        other => Err(format!("--part is dev, held-out or all, not {other:?}")),
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
        let flat = folded(text);
        let with = (page.with.iter().filter(|w| flat.contains(w.as_str())).count(), page.with.len());
        let without = (page.without.iter().filter(|w| flat.contains(w.as_str())).count(), page.without.len());
        all.add(scores, with, without);
        by_kind.entry(&page.kind).or_default().add(scores, with, without);
        if show.is_some() && scores.2 < 0.9 {
            weak.push((scores, page, flat));
        }
    }
    let (p, r, f1, page_f1) = all.means();
    let kinds: serde_json::Map<String, serde_json::Value> = by_kind
        .iter()
        .map(|(kind, t)| {
            let (p, r, f1, _) = t.means();
            let figures = serde_json::json!({"pages": t.pages, "f1": round3(f1), "precision": round3(p), "recall": round3(r)});
            ((*kind).to_owned(), figures)
        })
        .collect();
    let share = |a: usize, b: usize| if b == 0 { 0.0 } else { round3(a as f64 / b as f64) };
    println!(
        "{}",
        serde_json::json!({
            "framework": "tackle", "bench": "extract_modern", "part": part, "pages": all.pages,
            "precision": round3(p), "recall": round3(r), "f1": round3(f1), "page_f1": round3(page_f1),
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

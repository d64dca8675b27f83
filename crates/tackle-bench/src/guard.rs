//! `tackle-bench guard --dir DIR`: the prompt-injection filter's throughput on the `*.txt`
//! files under a directory (each file one batch, as one tool result), single-threaded,
//! median of 5 passes after 2 warm-ups, with each layer measured alone, then the whole
//! filter per subdirectory (the genres of `crates/tackle-guard/data/real-text.sh`).
//! `--layer NAME` times that layer alone (for a profiler to read), without the groups.

use std::time::Instant;

use tackle_guard::{Guard, Input, Strictness, Thresholds, Trees};

/// One layer to time, by name.
type Layer<'a> = (&'static str, Box<dyn Fn(&str) + 'a>);

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn pass(texts: &[String], f: &dyn Fn(&str)) -> f64 {
    let bytes: usize = texts.iter().map(String::len).sum();
    let start = Instant::now();
    for text in texts {
        f(text);
    }
    bytes as f64 / 1e6 / start.elapsed().as_secs_f64()
}

/// The `*.txt` files under `dir`, its subdirectories included, sorted by path.
fn text_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) -> std::io::Result<()> {
    let mut paths: Vec<_> = std::fs::read_dir(dir)?.filter_map(Result::ok).map(|e| e.path()).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            text_files(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "txt") {
            out.push(path);
        }
    }
    Ok(())
}

pub(crate) fn bench(dir: &str, only: Option<&str>) -> Result<(), Box<dyn std::error::Error>> {
    let mut paths = Vec::new();
    text_files(std::path::Path::new(dir), &mut paths)?;
    // Files straight under `dir` are one group; each subdirectory (a genre of
    // `real-text.sh`) is another, measured alone after the whole.
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for path in &paths {
        let group = path
            .parent()
            .and_then(|p| p.strip_prefix(dir).ok())
            .and_then(|p| p.components().next())
            .map_or_else(String::new, |c| c.as_os_str().to_string_lossy().into_owned());
        let text = String::from_utf8_lossy(&std::fs::read(path)?).into_owned();
        match groups.iter_mut().find(|(g, _)| *g == group) {
            Some((_, texts)) => texts.push(text),
            None => groups.push((group, vec![text])),
        }
    }
    let texts: Vec<String> = groups.iter().flat_map(|(_, t)| t.iter().cloned()).collect();
    if texts.is_empty() {
        return Err(format!("no .txt files in {dir}").into());
    }
    let guard = Guard::new(Trees::trained(), Strictness::Default, Thresholds::default());
    let lexical = tackle_guard::Lexical::trained();
    let layers: [Layer<'_>; 5] = [
        ("normalize", Box::new(|t: &str| drop(std::hint::black_box(tackle_guard::normalize(t))))),
        ("carriers", Box::new(|t: &str| drop(std::hint::black_box(tackle_guard::find_carriers(t))))),
        ("detect", Box::new(|t: &str| drop(std::hint::black_box(tackle_guard::detect(t))))),
        (
            "lexical",
            Box::new(|t: &str| {
                std::hint::black_box(lexical.logit(t));
            }),
        ),
        (
            "guard",
            Box::new(|t: &str| {
                let input = Input { source: "bench".into(), field: "content".into(), text: t.to_owned() };
                drop(std::hint::black_box(guard.check(vec![input])));
            }),
        ),
    ];
    let measure = |texts: &[String], f: &dyn Fn(&str)| {
        for _ in 0..2 {
            pass(texts, f);
        }
        median((0..5).map(|_| pass(texts, f)).collect())
    };
    let bytes: usize = texts.iter().map(String::len).sum();
    if let Some(only) = only
        && !layers.iter().any(|(name, _)| *name == only)
    {
        let names: Vec<&str> = layers.iter().map(|(name, _)| *name).collect();
        return Err(format!("no layer {only:?}; the layers are {}", names.join(", ")).into());
    }
    for (name, f) in layers.iter().filter(|(name, _)| only.is_none_or(|only| only == *name)) {
        out!(
            "{{\"bench\": \"guard\", \"layer\": \"{name}\", \"files\": {}, \"bytes\": {bytes}, \"mb_per_s\": {:.1}}}",
            texts.len(),
            measure(&texts, f.as_ref())
        );
    }
    if groups.len() > 1 && only.is_none() {
        let (_, whole) = &layers[4];
        for (group, texts) in &groups {
            let bytes: usize = texts.iter().map(String::len).sum();
            out!(
                "{{\"bench\": \"guard\", \"layer\": \"guard\", \"group\": \"{group}\", \"files\": {}, \"bytes\": {bytes}, \"mb_per_s\": {:.1}}}",
                texts.len(),
                measure(texts, whole.as_ref())
            );
        }
    }
    Ok(())
}

/// The filter's time beside extraction's, per page of `dir/*.html`: each page extracted
/// as `read_web_page` does, then its fields (content cut to the tool's default length,
/// title, description, author, site name, hidden text) checked in one batch. Medians of 5
/// passes after 2 warm-ups; the overhead is the filter's total time over extraction's, and
/// the median of the per-page ratios.
pub(crate) fn overhead(dir: &str) -> Result<(), Box<dyn std::error::Error>> {
    let mut pages = Vec::new();
    let mut paths: Vec<_> = std::fs::read_dir(dir)?.filter_map(Result::ok).map(|e| e.path()).collect();
    paths.sort();
    for path in paths.iter().filter(|p| p.extension().is_some_and(|e| e == "html")) {
        pages.push(String::from_utf8_lossy(&std::fs::read(path)?).into_owned());
    }
    if pages.is_empty() {
        return Err(format!("no .html files in {dir}").into());
    }
    let url = url::Url::parse("https://bench.example/page")?;
    let guard = Guard::new(Trees::trained(), Strictness::Default, Thresholds::default());
    let fields = |page: &tackle_extract::Page| -> Vec<Input> {
        page.untrusted_fields()
            .map(|(field, text)| Input {
                source: page.url.clone(),
                field: field.into(),
                text: text.to_owned(),
            })
            .collect()
    };
    // The content as `read_web_page` hands it to the filter: cut to its default length first
    // (a few pages run past it; the filter never sees the rest).
    let extracted: Vec<tackle_extract::Page> = pages
        .iter()
        .map(|html| {
            let mut page = tackle_extract::extract(html, tackle_extract::ContentKind::Html, &url);
            page.markdown =
                tackle_extract::truncate(&page.markdown, tackle_web::limits::READ_DEFAULT_CHARS).0;
            page
        })
        .collect();
    let mut extract_s = vec![Vec::new(); pages.len()];
    let mut guard_s = vec![Vec::new(); pages.len()];
    for pass in 0..7 {
        for (i, html) in pages.iter().enumerate() {
            let started = Instant::now();
            drop(std::hint::black_box(tackle_extract::extract(
                html,
                tackle_extract::ContentKind::Html,
                &url,
            )));
            let extract = started.elapsed().as_secs_f64();
            let batch = fields(&extracted[i]);
            let started = Instant::now();
            drop(std::hint::black_box(guard.check(batch)));
            let checked = started.elapsed().as_secs_f64();
            if pass >= 2 {
                extract_s[i].push(extract);
                guard_s[i].push(checked);
            }
        }
    }
    let extract: Vec<f64> = extract_s.into_iter().map(median).collect();
    let checked: Vec<f64> = guard_s.into_iter().map(median).collect();
    let ratios: Vec<f64> = extract.iter().zip(&checked).map(|(e, g)| g / e).collect();
    let (total_e, total_g): (f64, f64) = (extract.iter().sum(), checked.iter().sum());
    let html_bytes: usize = pages.iter().map(String::len).sum();
    let text_bytes: usize = extracted.iter().map(|p| p.markdown.len()).sum();
    let hidden_bytes: usize = extracted.iter().flat_map(|p| &p.hidden).map(|h| h.text.len()).sum();
    out!(
        "{{\"bench\": \"guard_overhead\", \"pages\": {}, \"html_mb\": {:.3}, \"extracted_mb\": {:.3}, \"hidden_mb\": {:.3}, \"extract_ms\": {:.2}, \"guard_ms\": {:.2}, \"overhead_total\": {:.4}, \"overhead_median_page\": {:.4}, \"overhead_worst_page\": {:.4}}}",
        pages.len(),
        html_bytes as f64 / 1e6,
        text_bytes as f64 / 1e6,
        hidden_bytes as f64 / 1e6,
        total_e * 1e3,
        total_g * 1e3,
        total_g / total_e,
        median(ratios.clone()),
        ratios.iter().copied().fold(0.0, f64::max),
    );
    Ok(())
}

//! `tackle-bench guard --dir DIR`: the prompt-injection filter's throughput on the `*.txt`
//! files of a directory (each file one batch, as one tool result), single-threaded, median
//! of 5 passes after 2 warm-ups, with each layer measured alone.

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

pub(crate) fn bench(dir: &str) -> Result<(), Box<dyn std::error::Error>> {
    let mut texts = Vec::new();
    let mut paths: Vec<_> = std::fs::read_dir(dir)?.filter_map(Result::ok).map(|e| e.path()).collect();
    paths.sort();
    for path in paths.iter().filter(|p| p.extension().is_some_and(|e| e == "txt")) {
        texts.push(std::fs::read_to_string(path)?);
    }
    if texts.is_empty() {
        return Err(format!("no .txt files in {dir}").into());
    }
    let guard = Guard::new(Trees::trained(), Strictness::Default, Thresholds::default());
    let layers: [Layer<'_>; 4] = [
        ("normalize", Box::new(|t: &str| drop(std::hint::black_box(tackle_guard::normalize(t))))),
        ("carriers", Box::new(|t: &str| drop(std::hint::black_box(tackle_guard::find_carriers(t))))),
        ("detect", Box::new(|t: &str| drop(std::hint::black_box(tackle_guard::detect(t))))),
        (
            "guard",
            Box::new(|t: &str| {
                let input = Input { source: "bench".into(), field: "content".into(), text: t.to_owned() };
                drop(std::hint::black_box(guard.check(vec![input])));
            }),
        ),
    ];
    let bytes: usize = texts.iter().map(String::len).sum();
    for (name, f) in &layers {
        for _ in 0..2 {
            pass(&texts, f.as_ref());
        }
        let mb_s = median((0..5).map(|_| pass(&texts, f.as_ref())).collect());
        println!(
            "{{\"bench\": \"guard\", \"layer\": \"{name}\", \"files\": {}, \"bytes\": {bytes}, \"mb_per_s\": {:.1}}}",
            texts.len(),
            mb_s
        );
    }
    Ok(())
}

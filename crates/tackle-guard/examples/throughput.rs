//! Throughput of normalisation, carrier decoding, detection and the whole guard on a text file:
//! `cargo run --release -p tackle-guard --example throughput -- FILE`.
#![allow(clippy::print_stdout, clippy::unwrap_used, missing_docs)]

/// One part to time, by name.
type Part<'a> = (&'static str, Box<dyn Fn(&str) -> usize + 'a>);

fn main() {
    let path = std::env::args().nth(1).expect("a file");
    let text = std::fs::read_to_string(&path).unwrap();
    let guard = tackle_guard::Guard::new(
        tackle_guard::Trees::trained(),
        tackle_guard::Strictness::Default,
        tackle_guard::Thresholds::default(),
    );
    let parts: [Part<'_>; 4] = [
        ("normalize", Box::new(|t: &str| tackle_guard::normalize(t).text.len())),
        ("carriers", Box::new(|t: &str| tackle_guard::find_carriers(t).len())),
        ("detect", Box::new(|t: &str| tackle_guard::detect(t).len())),
        (
            "guard",
            Box::new(|t: &str| {
                let input = tackle_guard::Input {
                    source: "file".into(),
                    field: "content".into(),
                    text: t.to_owned(),
                };
                guard.check(vec![input]).0.len()
            }),
        ),
    ];
    for (name, f) in parts {
        let start = std::time::Instant::now();
        let mut rounds = 0;
        while start.elapsed().as_secs_f64() < 1.0 {
            std::hint::black_box(f(&text));
            rounds += 1;
        }
        let mb = (text.len() * rounds) as f64 / 1e6 / start.elapsed().as_secs_f64();
        println!("{{\"part\": \"{name}\", \"mb_per_s\": {mb:.1}}}");
    }
    let start = std::time::Instant::now();
    let mut rounds = 0;
    let mut units = 0;
    while start.elapsed().as_secs_f64() < 2.0 {
        let normalized = tackle_guard::normalize(&text);
        units += tackle_guard::detect(&normalized.text).len();
        units += tackle_guard::find_carriers(&text).len();
        rounds += 1;
    }
    let secs = start.elapsed().as_secs_f64();
    let mb = (text.len() * rounds) as f64 / 1e6;
    println!(
        "{{\"bytes\": {}, \"rounds\": {rounds}, \"units\": {}, \"mb_per_s\": {:.1}}}",
        text.len(),
        units / rounds,
        mb / secs
    );
}

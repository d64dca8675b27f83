//! Writes a static vector for every whole word of all-MiniLM-L6-v2's vocabulary: the
//! sentence embedding of the word alone (as model2vec distils static embeddings from a
//! sentence model). The prompt-injection guard's trainer reads them (`--word-vectors`) so
//! that its word model can give a word it never saw in training the weight of the words it
//! means much the same as.
//!
//! `cargo run --release -p tackle-local --example word_vectors -- MODEL_DIR OUT [WORDS]`,
//! where MODEL_DIR holds the MiniLM files `tackle-local` pulls and WORDS, a file of one word
//! per line, adds words the vocabulary lacks (the model reads them in pieces). OUT is text:
//! one line per word, the word and its 384 numbers separated by spaces.
#![allow(clippy::print_stdout, clippy::print_stderr, clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::io::Write as _;

use tackle_core::Embedder as _;
use tackle_local::MiniLm;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (dir, out) = (args.first().expect("MODEL_DIR"), args.get(1).expect("OUT"));
    let model = MiniLm::load(std::path::Path::new(dir)).expect("MiniLM in MODEL_DIR");
    let tokenizer: serde_json::Value = serde_json::from_slice(
        &std::fs::read(std::path::Path::new(dir).join("all-MiniLM-L6-v2.tokenizer.json")).unwrap(),
    )
    .unwrap();
    // Whole words: no `##` continuation, letters only, two or more of them.
    let mut words: Vec<&str> = tokenizer["model"]["vocab"]
        .as_object()
        .expect("a WordPiece vocabulary")
        .keys()
        .map(String::as_str)
        .filter(|w| w.chars().count() >= 2 && w.chars().all(char::is_alphabetic))
        .collect();
    let extra = args.get(2).map(|path| std::fs::read_to_string(path).expect("WORDS")).unwrap_or_default();
    words.extend(extra.lines().map(str::trim).filter(|w| !w.is_empty()));
    words.sort_unstable();
    words.dedup();
    eprintln!("{} words", words.len());
    let mut sink = std::io::BufWriter::new(std::fs::File::create(out).unwrap());
    for (n, chunk) in words.chunks(64).enumerate() {
        let vectors = model.embed(chunk).unwrap();
        for (word, vector) in chunk.iter().zip(vectors) {
            write!(sink, "{word}").unwrap();
            for x in vector {
                write!(sink, " {x:.5}").unwrap();
            }
            writeln!(sink).unwrap();
        }
        if n % 50 == 0 {
            eprintln!("{} / {}", n * 64, words.len());
        }
    }
}

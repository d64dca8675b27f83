//! Prints the main content of a saved HTML page: `cargo run -p tackle-extract --example
//! extract_file -- PAGE.html [URL] [--text]` (Markdown by default, plain text with
//! `--text`; the URL resolves relative links, `https://example.com/` when not given).
#![allow(clippy::print_stdout, clippy::print_stderr, missing_docs)]

use tackle_extract::{ContentKind, extract};

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let text_only = args.iter().any(|a| a == "--text");
    let positional: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    let Some(path) = positional.first() else {
        eprintln!("usage: extract_file PAGE.html [URL] [--text]");
        return std::process::ExitCode::FAILURE;
    };
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) => {
            eprintln!("{path}: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    let url = positional.get(1).map_or("https://example.com/", |u| u.as_str());
    let Ok(url) = url::Url::parse(url) else {
        eprintln!("not a URL: {url}");
        return std::process::ExitCode::FAILURE;
    };
    let page = extract(&String::from_utf8_lossy(&bytes), ContentKind::Html, &url);
    let out = if text_only { page.text() } else { page.markdown };
    // A reader that stops early (`| head`) closes the pipe: that is no error, and no panic.
    use std::io::Write;
    match writeln!(std::io::stdout().lock(), "{out}") {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            eprintln!("stdout: {e}");
            std::process::ExitCode::FAILURE
        }
        _ => std::process::ExitCode::SUCCESS,
    }
}

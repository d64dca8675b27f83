//! Prints the readable content of local HTML files as Markdown with their metadata.
//!
//! ```text
//! cargo run -p tackle-web --example extract -- page.html [more.html ...]
//! ```
//!
//! With `--out-dir DIR`, writes `DIR/<stem>.md` for each input instead.

#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::io::Write as _;
use std::path::Path;

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let out_dir = args.iter().position(|a| a == "--out-dir").map(|i| {
        let dir = args.get(i + 1).cloned().unwrap_or_default();
        args.drain(i..(i + 2).min(args.len()));
        dir
    });
    if args.is_empty() {
        eprintln!("usage: extract [--out-dir DIR] FILE.html ...");
        std::process::exit(2);
    }
    let mut failed = false;
    for path in &args {
        let bytes = match std::fs::read(path) {
            Ok(bytes) => bytes,
            Err(error) => {
                eprintln!("{path}: {error}");
                failed = true;
                continue;
            }
        };
        let text = tackle_web::decode(&bytes, Some("text/html"), tackle_web::ContentKind::Html);
        let url = url::Url::from_file_path(std::fs::canonicalize(path).unwrap_or_else(|_| path.into()))
            .unwrap_or_else(|()| url::Url::parse("file:///").expect("a valid URL"));
        let page = tackle_web::extract(&text, tackle_web::ContentKind::Html, &url);
        match &out_dir {
            Some(dir) => {
                let stem = Path::new(path).file_stem().map_or("page".into(), |s| s.to_string_lossy());
                let target = Path::new(dir).join(format!("{stem}.md"));
                if let Err(error) = std::fs::write(&target, &page.markdown) {
                    eprintln!("{}: {error}", target.display());
                    failed = true;
                }
            }
            None => {
                let mut text = format!("<!-- {path}\n");
                for (name, value) in [
                    ("title", &page.title),
                    ("author", &page.author),
                    ("published", &page.published),
                    ("site", &page.site_name),
                    ("description", &page.description),
                ] {
                    if let Some(value) = value {
                        text.push_str(&format!("{name}: {value}\n"));
                    }
                }
                text.push_str(&format!("-->\n{}\n\n", page.markdown));
                // A closed pipe (`| head`) ends the output quietly.
                if std::io::stdout().lock().write_all(text.as_bytes()).is_err() {
                    return;
                }
            }
        }
    }
    if failed {
        std::process::exit(1);
    }
}

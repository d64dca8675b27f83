//! `tackle web read`: pages the user chose, read without target restriction (the user
//! typed the address), from URLs, local files or standard input.

use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use tackle_web::{ContentKind, Page, Retriever, TargetPolicy};
use url::Url;

use crate::cli::Format;
use crate::failure::Failure;

/// Reads one input into a page.
async fn read(input: &str, retriever: &Retriever) -> Result<Page, String> {
    if input.starts_with("http://") || input.starts_with("https://") {
        let retrieved =
            retriever.retrieve(input, &TargetPolicy::UserChosen).await.map_err(|e| e.to_string())?;
        return tokio::task::spawn_blocking(move || {
            tackle_web::extract(&retrieved.text, retrieved.kind, &retrieved.final_url)
        })
        .await
        .map_err(|e| format!("extraction stopped: {e}"));
    }
    let (bytes, url) = if input == "-" {
        let mut bytes = Vec::new();
        std::io::stdin().read_to_end(&mut bytes).map_err(|e| format!("cannot read standard input: {e}"))?;
        (bytes, Url::parse("file:///dev/stdin").map_err(|e| e.to_string())?)
    } else {
        let bytes = fs_err::read(input).map_err(|e| e.to_string())?;
        let absolute = std::path::absolute(input).unwrap_or_else(|_| PathBuf::from(input));
        let url = Url::from_file_path(&absolute).map_err(|()| format!("{input}: not a usable path"))?;
        (bytes, url)
    };
    let kind =
        if input.ends_with(".txt") || input.ends_with(".md") { ContentKind::Text } else { ContentKind::Html };
    tokio::task::spawn_blocking(move || {
        let text = tackle_web::decode(&bytes, None, kind);
        tackle_web::extract(&text, kind, &url)
    })
    .await
    .map_err(|e| format!("extraction stopped: {e}"))
}

/// The page as printed: Markdown with a metadata header, or plain text.
fn render(page: &Page, format: Format) -> String {
    match format {
        Format::Markdown => {
            let mut out = String::new();
            let fields = [
                ("title", &page.title),
                ("author", &page.author),
                ("published", &page.published),
                ("site", &page.site_name),
                ("description", &page.description),
            ];
            out.push_str("---\n");
            out.push_str(&format!("url: {}\n", page.url));
            for (name, value) in fields {
                if let Some(value) = value {
                    out.push_str(&format!("{name}: {}\n", value.replace('\n', " ")));
                }
            }
            out.push_str("---\n\n");
            out.push_str(&page.markdown);
            out.push('\n');
            out
        }
        Format::Text => {
            let mut text = page.text();
            text.push('\n');
            text
        }
        Format::Json => {
            let mut line = serde_json::json!({
                "url": page.url,
                "title": page.title,
                "author": page.author,
                "published": page.published,
                "site": page.site_name,
                "description": page.description,
                "markdown": page.markdown,
                "text": page.text(),
            })
            .to_string();
            line.push('\n');
            line
        }
    }
}

fn target_name(input: &str, out_dir: &Path, format: Format) -> PathBuf {
    let stem = if input == "-" {
        "stdin".to_owned()
    } else if let Ok(url) = Url::parse(input) {
        url.path_segments()
            .and_then(|mut s| s.rfind(|p| !p.is_empty()).map(str::to_owned))
            .map(|last| last.rsplit_once('.').map_or(last.clone(), |(stem, _)| stem.to_owned()))
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| url.host_str().unwrap_or("page").to_owned())
    } else {
        Path::new(input).file_stem().map_or_else(|| "page".to_owned(), |s| s.to_string_lossy().into_owned())
    };
    let extension = match format {
        Format::Markdown => "md",
        Format::Text => "txt",
        Format::Json => "json",
    };
    out_dir.join(format!("{stem}.{extension}"))
}

pub(crate) async fn read_all(
    inputs: &[String],
    format: Format,
    out_dir: Option<&Path>,
) -> Result<ExitCode, Failure> {
    if inputs.iter().filter(|i| *i == "-").count() > 1 {
        return Err(Failure::usage("standard input (`-`) can be read only once"));
    }
    if let Some(dir) = out_dir {
        fs_err::create_dir_all(dir).map_err(|e| Failure::usage(e.to_string()))?;
    }
    let retriever = Retriever::new();
    let mut failed = 0;
    for (n, input) in inputs.iter().enumerate() {
        match read(input, &retriever).await {
            Ok(page) => {
                let text = render(&page, format);
                match out_dir {
                    Some(dir) => {
                        let target = target_name(input, dir, format);
                        if let Err(error) = fs_err::write(&target, text) {
                            crate::eprint_line(&format!("error: {error}"));
                            failed += 1;
                        } else {
                            crate::eprint_line(&format!("{input} → {}", target.display()));
                        }
                    }
                    None => {
                        if n > 0 {
                            crate::print_line("");
                        }
                        crate::print_raw(&text);
                    }
                }
            }
            Err(error) => {
                crate::eprint_line(&format!("error: {input}: {error}"));
                failed += 1;
            }
        }
    }
    crate::render::flush();
    Ok(if failed == 0 { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_names_follow_the_input() {
        let dir = Path::new("/out");
        assert_eq!(target_name("pages/page.html", dir, Format::Markdown), dir.join("page.md"));
        assert_eq!(
            target_name("https://x.example/a/story.html?q=1", dir, Format::Text),
            dir.join("story.txt")
        );
        assert_eq!(target_name("https://x.example/", dir, Format::Markdown), dir.join("x.example.md"));
        assert_eq!(target_name("-", dir, Format::Markdown), dir.join("stdin.md"));
    }
}

//! Readable content: the main text of a page as Markdown, with its metadata.
//!
//! HTML goes through tackle's own extractor (`crate::html`): a fast forgiving parser,
//! boilerplate marking, readability-style scoring and a Markdown renderer; plain text is
//! kept as it is.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use url::Url;

use crate::ContentKind;

/// Stops an extraction running on another thread: once raised, the extraction gives up at
/// its next check (every 1,024 tags while parsing, and between its passes).
#[derive(Debug, Clone, Default)]
pub struct StopFlag(Arc<AtomicBool>);

impl StopFlag {
    /// A flag that is not raised.
    pub fn new() -> Self {
        Self::default()
    }

    /// Raises the flag.
    pub fn stop(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether the flag was raised.
    pub fn is_stopped(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

pub use crate::html::hidden::HiddenText;

/// A page's readable content and metadata. Every field is untrusted outside content.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct Page {
    /// The URL the content came from, after redirects.
    pub url: String,
    /// The title.
    pub title: Option<String>,
    /// The description the page gives of itself.
    pub description: Option<String>,
    /// The author.
    pub author: Option<String>,
    /// The publication date, `YYYY-MM-DD`.
    pub published: Option<String>,
    /// The site's name.
    pub site_name: Option<String>,
    /// The main content as Markdown, headed by the page's title when the content did not
    /// hold it (see [`Page::body`]).
    pub markdown: String,
    /// Whether `markdown` starts with a title heading the extractor added.
    pub headline_added: bool,
    /// Text the page carries but a reader does not see (comments, hidden elements), left
    /// out of `markdown`; never shown to a model, handed to the injection filter.
    pub hidden: Vec<HiddenText>,
}

impl Page {
    /// The main content alone as plain text, as a reader sees it: [`Page::body`] through
    /// [`to_text`].
    pub fn text(&self) -> String {
        to_text(self.body())
    }

    /// The main content alone: `markdown` without the headline heading it, whether the
    /// extractor added it or the content started with the page's own first-level heading
    /// (the headline is the page's title, as the byline is its author: metadata).
    pub fn body(&self) -> &str {
        if !self.headline_added && !self.markdown.starts_with("# ") {
            return &self.markdown;
        }
        let rest = self.markdown.split_once('\n').map_or("", |(_, rest)| rest);
        rest.trim_start_matches('\n')
    }

    /// Every text of the page a filter must see, with its field name, in a fixed order:
    /// the content, the metadata the page gives (title, description, author, site name),
    /// then each piece of hidden text (field `hidden: <how>`, never shown to a model).
    pub fn untrusted_fields(&self) -> impl Iterator<Item = (&'static str, &str)> {
        let metadata = [
            ("title", &self.title),
            ("description", &self.description),
            ("author", &self.author),
            ("site_name", &self.site_name),
        ];
        std::iter::once(("content", self.markdown.as_str()))
            .chain(metadata.into_iter().filter_map(|(field, value)| value.as_deref().map(|v| (field, v))))
            .chain(self.hidden.iter().map(|h| (h.how, h.text.as_str())))
    }
}

fn some(text: String) -> Option<String> {
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    (!text.is_empty()).then(|| text.chars().take(1000).collect())
}

/// Extracts the readable content of a document read from `url`. At most 16 MiB of HTML
/// are read.
pub fn extract(text: &str, kind: ContentKind, url: &Url) -> Page {
    extract_until(text, kind, url, &StopFlag::new()).unwrap_or_default()
}

/// [`extract`], giving up (`None`) once `stop` is raised — for extraction on a blocking
/// thread that a timeout or a cancellation must be able to end.
pub fn extract_until(text: &str, kind: ContentKind, url: &Url, stop: &StopFlag) -> Option<Page> {
    let mut page = Page { url: url.to_string(), ..Page::default() };
    if kind != ContentKind::Html {
        page.markdown = text.replace("\r\n", "\n").replace('\r', "\n").trim().to_owned();
        return Some(page);
    }
    let extracted = crate::html::extract(text, url, stop)?;
    let meta = extracted.meta;
    page.title = meta.title.and_then(some);
    page.description = meta.description.and_then(some);
    page.author = meta.author.and_then(some);
    page.published = meta.published;
    page.site_name = meta.site_name.and_then(some);
    page.markdown = tidy(&once(&extracted.markdown));
    page.headline_added = extracted.headline_added;
    page.hidden = extracted.hidden;
    Some(page)
}

/// Plain text from the extractor's Markdown, as a reader sees the page: links are their
/// text, images (which a reader sees, not reads) are left out with their alt text, and
/// heading, quote and list marks, emphasis, code fences and table rules are dropped; table
/// cells are separated by tabs.
///
/// ```
/// let md = "## Rivers\n\n- See [the guide](https://x.example/g) and **this** ![a map](https://x.example/m.png)\n\n| a | b |\n| --- | --- |\n| 1 | 2 |";
/// assert_eq!(tackle_extract::to_text(md), "Rivers\n\nSee the guide and this\n\na\tb\n1\t2");
/// ```
pub fn to_text(markdown: &str) -> String {
    let mut out = String::with_capacity(markdown.len());
    for line in markdown.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") || trimmed.starts_with("| ---") {
            continue;
        }
        let mut line = trimmed.trim_start_matches('#').trim_start();
        while let Some(rest) = line.strip_prefix("> ") {
            line = rest;
        }
        line = line.strip_prefix("- ").or_else(|| line.strip_prefix("* ")).unwrap_or(line);
        let digits = line.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 && line[digits..].starts_with(". ") {
            line = &line[digits + 2..];
        }
        // A paragraph that only looked like a block mark was escaped (`\# 1 in sales`), as
        // the renderer escapes them: nothing else loses its backslash.
        if let Some(rest) = line.strip_prefix('\\')
            && crate::html::markdown::starts_like_block_mark(rest)
        {
            line = rest;
        }
        let cells: Vec<String> = if line.starts_with('|') && line.ends_with('|') && line.len() > 1 {
            line[1..line.len() - 1].split(" | ").map(|cell| inline_text(cell.trim())).collect()
        } else {
            vec![inline_text(line)]
        };
        out.push_str(cells.join("\t").trim_end());
        out.push('\n');
    }
    // One blank line between blocks at most, none at the ends.
    let mut folded = String::with_capacity(out.len());
    let mut blank = 0;
    for line in out.lines() {
        if line.trim().is_empty() {
            blank += 1;
            continue;
        }
        if !folded.is_empty() {
            folded.push_str(if blank > 0 { "\n\n" } else { "\n" });
        }
        blank = 0;
        folded.push_str(line);
    }
    folded
}

/// One line of Markdown as text: links as their text, images left out, `**` and `` ` ``
/// dropped.
fn inline_text(line: &str) -> String {
    /// The length of `(...)` at the start of `text`, or `None`.
    fn target(text: &str) -> Option<usize> {
        text.strip_prefix('(').and_then(|rest| rest.find(')')).map(|end| end + 2)
    }
    /// The length of `![alt](src)` at the start of `text`, or `None`.
    fn image(text: &str) -> Option<usize> {
        let alt_end = text.strip_prefix("![")?.find("](")? + 2;
        Some(alt_end + 1 + target(&text[alt_end + 1..])?)
    }
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(c) = rest.chars().next() {
        // `[![alt](src)](href)`: a linked image.
        if let Some(inner) = rest.strip_prefix('[').and_then(image)
            && rest[1 + inner..].starts_with(']')
            && let Some(href) = target(&rest[2 + inner..])
        {
            rest = &rest[2 + inner + href..];
            continue;
        }
        if let Some(len) = image(rest) {
            rest = &rest[len..];
            continue;
        }
        // `[text](href)`: the text.
        if c == '['
            && let Some(close) = rest.find("](")
            && let Some(href) = target(&rest[close + 1..])
        {
            out.push_str(&rest[1..close]);
            rest = &rest[close + 1 + href..];
            continue;
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    let out = out.replace("**", "").replace('`', "");
    drop_emphasis(&out).split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `text` without the single `*` around emphasis: a mark at the start of a word opens, the
/// next one at the end of a word closes. An asterisk inside a word (`Kund*innen`) or alone
/// (`5 * 3`, a footnote's `*`) has no partner and stays.
fn drop_emphasis(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains('*') {
        return text.into();
    }
    let chars: Vec<char> = text.chars().collect();
    let mut drop = vec![false; chars.len()];
    let mut open: Option<usize> = None;
    for i in 0..chars.len() {
        if chars[i] != '*' {
            continue;
        }
        let before = i.checked_sub(1).map(|j| chars[j]);
        let after = chars.get(i + 1).copied();
        let word_before = before.is_some_and(char::is_alphanumeric);
        let word_after = after.is_some_and(char::is_alphanumeric);
        match open {
            Some(start) if before.is_some_and(|c| !c.is_whitespace()) && !word_after && start + 1 < i => {
                drop[start] = true;
                drop[i] = true;
                open = None;
            }
            None if after.is_some_and(|c| !c.is_whitespace() && c != '*') && !word_before => {
                open = Some(i);
            }
            _ => {}
        }
    }
    chars.iter().zip(drop).filter(|(_, d)| !d).map(|(c, _)| c).collect::<String>().into()
}

/// The shortest line (in bytes) that counts as a copy when the same line came before it.
const SAME_LINE: usize = 80;

/// A line said this many times in a row or more is said once.
const ECHOED: usize = 3;

/// A story is copied when the copies hold at least one part in this many of its long lines.
const COPIED_SHARE: usize = 4;

/// `markdown` with what a reader reads once said once. A page that renders its story twice
/// (for another screen size, in a print copy, in a carousel's clones): a long line is a
/// copy when it came before and its neighbour among the long lines (the one before or after
/// it) is the neighbour it had there, a different line, and the copies hold a large share of
/// the long lines. A short line said three times or more in a row (a gallery's title on
/// every slide). A paragraph repeated on its own (a refrain, a filler) stays, and lines
/// inside code fences are kept as they are.
fn once(markdown: &str) -> std::borrow::Cow<'_, str> {
    let lines: Vec<&str> = markdown.split_inclusive('\n').collect();
    let mut fenced = false;
    // By their index among all lines: the long lines outside fences, and the lines that are
    // not blank outside fences together with the fences themselves (a code block between
    // two lines means they are not in a row).
    let mut long: Vec<usize> = Vec::new();
    let mut said: Vec<usize> = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let bare = line.trim();
        if bare.starts_with("```") {
            fenced = !fenced;
            said.push(i);
        } else if !fenced && !bare.is_empty() {
            said.push(i);
            if bare.len() >= SAME_LINE {
                long.push(i);
            }
        }
    }
    let mut drop = vec![false; lines.len()];
    let text = |k: usize| lines[long[k]].trim();
    let mut first: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for k in 0..long.len() {
        let Some(&j) = first.get(text(k)) else {
            first.insert(text(k), k);
            continue;
        };
        let same_before = k > 0 && j > 0 && text(j - 1) != text(j) && text(k - 1) == text(j - 1);
        let same_after =
            k + 1 < long.len() && j + 1 < k && text(j + 1) != text(j) && text(k + 1) == text(j + 1);
        drop[long[k]] = same_before || same_after;
    }
    // Passages repeated here and there (a parameter described under two calls, a post
    // quoted in its reply) are the page's own; a copy of the page's story is a large share
    // of it.
    let copied: usize = drop.iter().zip(&lines).filter(|(d, _)| **d).map(|(_, l)| l.len()).sum();
    let all: usize = long.iter().map(|&i| lines[i].len()).sum();
    if copied * COPIED_SHARE < all {
        drop.fill(false);
    }
    // The same short line three times or more in a row (a gallery's title on every slide,
    // a label under every picture) is read once; a paragraph said again is left to the
    // rule above.
    let mut start = 0;
    while start < said.len() {
        let line = lines[said[start]].trim();
        let end = (start..said.len()).find(|&k| lines[said[k]].trim() != line).unwrap_or(said.len());
        if end - start >= ECHOED && line.len() < SAME_LINE && !line.starts_with("```") {
            for &i in &said[start + 1..end] {
                drop[i] = true;
            }
        }
        start = end;
    }
    if !drop.contains(&true) {
        return markdown.into();
    }
    lines.iter().zip(drop).filter(|(_, d)| !d).map(|(l, _)| *l).collect::<String>().into()
}

/// Trims lines and folds runs of blank lines into one.
fn tidy(markdown: &str) -> String {
    let mut out = String::with_capacity(markdown.len());
    let mut blank = 0;
    for line in markdown.lines() {
        let line = line.trim_end();
        if line.trim().is_empty() {
            blank += 1;
            continue;
        }
        if !out.is_empty() {
            out.push_str(if blank > 0 { "\n\n" } else { "\n" });
        }
        blank = 0;
        out.push_str(line);
    }
    out
}

/// Cuts `markdown` to at most `max_chars` characters at the last paragraph boundary that
/// keeps at least a third of the budget (else a line or a word keeping half, else exactly
/// at the budget), and says so with a marker. Returns the text and whether it was cut.
///
/// ```
/// let (text, cut) = tackle_extract::truncate("One.\n\nTwo is longer than one.", 12);
/// assert!(cut);
/// assert_eq!(text, "One.\n\n[… truncated: 4 of 29 characters shown]");
/// ```
pub fn truncate(markdown: &str, max_chars: usize) -> (String, bool) {
    let total = markdown.chars().count();
    if total <= max_chars {
        return (markdown.to_owned(), false);
    }
    let end = markdown.char_indices().nth(max_chars).map_or(markdown.len(), |(i, _)| i);
    let head = &markdown[..end];
    let cut = head
        .rfind("\n\n")
        .filter(|&i| i >= end / 3)
        .or_else(|| head.rfind('\n').filter(|&i| i >= end / 2))
        .or_else(|| head.rfind(' ').filter(|&i| i >= end / 2))
        .unwrap_or(end);
    let kept = head[..cut].trim_end();
    let shown = kept.chars().count();
    (format!("{kept}\n\n[… truncated: {shown} of {total} characters shown]"), true)
}

#[cfg(test)]
mod tests {
    use super::*;

    const ARTICLE: &str = r#"<!doctype html><html><head>
<title>How Rivers Shape Valleys | Earth Notes</title>
<meta name="description" content="A short guide to fluvial erosion.">
<meta name="author" content="Ada Lovelace">
<meta property="og:site_name" content="Earth Notes">
<meta property="article:published_time" content="2024-05-02T10:00:00Z">
</head><body>
<nav><ul><li><a href="/">Home</a></li><li><a href="/topics">Topics</a></li><li><a href="/about">About</a></li></ul></nav>
<div class="cookie-banner">We use cookies to improve your experience. <button>Accept all</button></div>
<main><article>
<h1>How Rivers Shape Valleys</h1>
<p>Rivers carve valleys through a slow process of erosion that can take millions of years to produce the landscapes we see today.</p>
<h2>Erosion</h2>
<p>Water carries sediment downstream, and the sediment grinds the riverbed. Over time, the channel deepens and the valley walls widen.</p>
<ul><li>Hydraulic action</li><li>Abrasion</li><li>Solution</li></ul>
<p>See the <a href="/glossary#abrasion">glossary</a> for the terms.</p>
<pre><code>depth = rate * time</code></pre>
<table><tr><th>Stage</th><th>Shape</th></tr><tr><td>Young</td><td>V-shaped</td></tr><tr><td>Mature</td><td>Wide floor</td></tr></table>
</article></main>
<aside class="related"><h3>Related articles</h3><ul><li><a href="/a">Glaciers</a></li><li><a href="/b">Deltas</a></li></ul></aside>
<div class="ad">Buy our premium maps today!</div>
<footer>© 2024 Earth Notes. All rights reserved. <a href="/privacy">Privacy</a></footer>
</body></html>"#;

    #[test]
    fn main_content_as_markdown_with_metadata() {
        let url = Url::parse("https://earth.example/rivers").unwrap();
        let page = extract(ARTICLE, ContentKind::Html, &url);
        let md = &page.markdown;
        assert!(md.contains("Rivers carve valleys"), "{md}");
        assert!(md.contains("## Erosion"), "{md}");
        assert!(md.contains("Abrasion"), "{md}");
        assert!(
            md.contains("](https://earth.example/glossary#abrasion)"),
            "links are kept and absolute: {md}"
        );
        assert!(md.contains("depth = rate * time"), "{md}");
        assert!(md.contains("V-shaped"), "{md}");
        for boilerplate in ["Accept all", "Related articles", "premium maps", "All rights reserved", "Topics"]
        {
            assert!(!md.contains(boilerplate), "{boilerplate:?} leaked into {md}");
        }
        assert_eq!(page.title.as_deref(), Some("How Rivers Shape Valleys"));
        assert_eq!(page.author.as_deref(), Some("Ada Lovelace"));
        assert_eq!(page.description.as_deref(), Some("A short guide to fluvial erosion."));
        assert_eq!(page.published.as_deref(), Some("2024-05-02"));
        assert_eq!(page.site_name.as_deref(), Some("Earth Notes"));
    }

    #[test]
    fn the_text_is_the_story_without_its_headline() {
        let story = "<p>The river rose all week, and the town moved its market to the hill above the old bridge. \
                     Nobody could remember a spring like it.</p>";
        let url = Url::parse("https://x.example/").unwrap();
        for html in [
            // The headline inside the article, and the headline the extractor adds.
            format!(
                "<html><head><title>Floods</title></head><body><article><h1>The river rises</h1>{story}</article></body></html>"
            ),
            format!(
                "<html><head><title>The river rises</title></head><body><article>{story}</article></body></html>"
            ),
        ] {
            let page = extract(&html, ContentKind::Html, &url);
            assert!(page.markdown.starts_with("# The river rises\n\n"), "{page:?}");
            assert!(page.text().starts_with("The river rose all week"), "{page:?}");
        }
        // A heading of a lower rank is part of the story.
        let html = format!("<html><body><article><h2>Day one</h2>{story}</article></body></html>");
        assert!(extract(&html, ContentKind::Html, &url).text().starts_with("Day one"));
    }

    #[test]
    fn weight_never_reaches_the_text() {
        let html = r#"<html><head><style>p{color:red}</style><script>var s = "<p>not text</p>";</script>
<script type="application/ld+json">{"@type":"Article","author":{"name":"Ada"}}</script></head>
<body><!-- hidden --><svg><text>icon</text></svg><p>Real text, long enough to be the story of this page.</p><noscript>enable js</noscript></body></html>"#;
        let url = Url::parse("https://x.example/").unwrap();
        let page = extract(html, ContentKind::Html, &url);
        assert!(page.markdown.contains("Real text"), "{page:?}");
        assert_eq!(page.author.as_deref(), Some("Ada"));
        for gone in ["color:red", "not text", "hidden", "icon", "enable js"] {
            assert!(!page.markdown.contains(gone), "{gone} in {page:?}");
        }
    }

    #[test]
    fn text_is_what_a_reader_reads() {
        assert_eq!(
            to_text(
                "# Title\n\nSee [the guide](https://x.example/g) and **this**.\n\n```rust\nlet x = 1;\n```"
            ),
            "Title\n\nSee the guide and this.\n\nlet x = 1;"
        );
        assert_eq!(to_text("A [![river](https://x.example/r.jpg)](https://x.example/big) here"), "A here");
        assert_eq!(to_text("1. first\n2. [second (b)](https://x.example/b)"), "first\nsecond (b)");
        assert_eq!(to_text("> quoted [unclosed and ![alt] text"), "quoted [unclosed and ![alt] text");
        // Emphasis marks go; asterisks that mark nothing stay.
        assert_eq!(
            to_text("In *Lob der Melancholie* (2018), *her* book"),
            "In Lob der Melancholie (2018), her book"
        );
        assert_eq!(to_text("5 * 3 = 15, footnote*"), "5 * 3 = 15, footnote*");
        assert_eq!(
            to_text("Kund*innen und Mitarbeiter*innen, *kursiv*."),
            "Kund*innen und Mitarbeiter*innen, kursiv."
        );
        assert_eq!(to_text("\\# 1 in sales\n\n\\- not a list"), "# 1 in sales\n\n- not a list");
        assert_eq!(to_text("\\1 is a backreference"), "\\1 is a backreference");
    }

    #[test]
    fn text_stays_text() {
        let url = Url::parse("https://x.example/notes.txt").unwrap();
        let page = extract("line one\r\nline two\r\n", ContentKind::Text, &url);
        assert_eq!(page.markdown, "line one\nline two");
        assert_eq!(page.title, None);
    }

    #[test]
    fn a_story_rendered_twice_is_read_once() {
        let para = |n: usize| {
            format!(
                "Paragraph {n} of the story, long enough to be a line that a page would not repeat by chance."
            )
        };
        let story: Vec<String> = (1..=4).map(para).collect();
        // The whole story twice (a layout for small screens beside one for large): one copy.
        let twice = format!("{}\n\n{}", story.join("\n\n"), story.join("\n\n"));
        assert_eq!(tidy(&once(&twice)), story.join("\n\n"));
        // A paragraph repeated on its own (a refrain), and a short line twice, stay.
        let refrain = format!("{}\n\n{}\n\n{}\n\nShare\n\nShare", para(1), para(1), para(1));
        assert_eq!(once(&refrain), refrain);
        // Two paragraphs repeated in a long page (a passage quoted again) are the page's own.
        let mut long: Vec<String> = (1..=12).map(para).collect();
        long.extend([para(3), para(4)]);
        let long = long.join("\n\n");
        assert_eq!(once(&long), long);
        // A short line three times or more in a row (a gallery's title on every slide) once.
        let gallery = "Weather threatens holiday plans\n\n".repeat(4) + "1\n\n2";
        assert_eq!(tidy(&once(&gallery)), "Weather threatens holiday plans\n\n1\n\n2");
        // Lines a code block stands between are not in a row.
        let apart = "Label\n```\nx\n```\nLabel\n```\ny\n```\nLabel";
        assert_eq!(once(apart), apart);
        // Code is never touched.
        let code = format!("```\n{}\n{}\n```\n\n```\n{}\n{}\n```", para(1), para(2), para(1), para(2));
        assert_eq!(once(&code), code);
    }

    #[test]
    fn truncation_at_paragraph_boundaries() {
        let text =
            "First paragraph is here.\n\nSecond paragraph is a little longer than the first.\n\nThird.";
        let (cut, truncated) = truncate(text, 60);
        assert!(truncated);
        assert!(
            cut.starts_with("First paragraph is here.\n\n[… truncated: 24 of 85 characters shown]"),
            "{cut}"
        );
        let (same, truncated) = truncate(text, 500);
        assert!(!truncated);
        assert_eq!(same, text);
        let (words, _) = truncate("ä ö ü ä ö ü ä ö ü", 8);
        assert!(words.starts_with("ä ö ü ä"), "{words}");
    }
}

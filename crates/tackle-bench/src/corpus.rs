//! A corpus of generated web pages with known main content, for measuring extraction.
//!
//! Six layouts that real sites use — semantic articles, div soup, news with teasers and
//! ads, documentation with code and tables, blogs with comments, short pages under heavy
//! chrome — each filled with generated prose. The main text of each page is known, so
//! precision and recall can be computed exactly.

use std::fmt::Write as _;

const WORDS: &[&str] = &[
    "river", "valley", "stone", "water", "erosion", "sediment", "channel", "delta", "flood", "plain",
    "glacier", "mountain", "forest", "canopy", "species", "habitat", "climate", "season", "harvest",
    "market", "village", "engine", "signal", "network", "protocol", "server", "client", "request", "latency",
    "memory", "thread", "compiler", "function", "variable", "pattern", "library", "history", "empire",
    "treaty", "merchant", "voyage", "harbor", "lantern", "library", "council", "measure", "balance",
    "theory", "evidence", "sample", "method", "result", "figure", "study", "growth", "energy", "carbon",
    "solar", "battery", "current", "voltage", "copper", "bridge", "tunnel", "railway", "station", "schedule",
    "journey", "traveler", "passport", "border", "customs", "recipe", "flour", "butter", "oven", "crust",
    "garden", "tomato", "pepper", "orchard", "blossom", "winter", "spring", "summer", "autumn", "morning",
    "evening", "quiet", "bright", "careful", "steady", "rapid", "gentle", "ancient", "modern", "simple",
    "complex", "narrow", "broad", "heavy", "light", "early", "late", "northern",
];

const BOILER: &[&str] = &[
    "subscribe",
    "newsletter",
    "cookies",
    "consent",
    "privacy",
    "policy",
    "terms",
    "advertise",
    "sponsored",
    "trending",
    "login",
    "register",
    "account",
    "share",
    "tweet",
    "follow",
    "contact",
    "careers",
    "sitemap",
    "copyright",
    "rights",
    "reserved",
    "popular",
    "recommended",
    "deal",
    "offer",
    "discount",
    "shop",
    "cart",
];

/// One page and its main text.
#[derive(Debug, Clone)]
pub(crate) struct Sample {
    /// The page.
    pub(crate) html: String,
    /// The text a perfect extractor returns.
    pub(crate) truth: String,
    /// The layout's name.
    pub(crate) layout: &'static str,
}

struct Gen(fastrand::Rng);

impl Gen {
    fn pick<'a>(&mut self, list: &[&'a str]) -> &'a str {
        list[self.0.usize(..list.len())]
    }

    fn sentence(&mut self, list: &[&str]) -> String {
        let n = self.0.usize(8..20);
        let mut words: Vec<String> = (0..n).map(|_| self.pick(list).to_owned()).collect();
        if let Some(first) = words.first_mut() {
            *first = first[..1].to_uppercase() + &first[1..];
        }
        format!("{}.", words.join(" "))
    }

    fn paragraph(&mut self) -> String {
        let n = self.0.usize(2..6);
        (0..n).map(|_| self.sentence(WORDS)).collect::<Vec<_>>().join(" ")
    }

    fn boiler(&mut self, words: usize) -> String {
        (0..words).map(|_| self.pick(BOILER)).collect::<Vec<_>>().join(" ")
    }

    fn links(&mut self, n: usize) -> String {
        (0..n).map(|i| format!("<li><a href=\"/p/{i}\">{}</a></li>", self.boiler(3))).collect()
    }
}

/// The main content: HTML and its text, built together.
struct Main {
    html: String,
    text: String,
}

impl Main {
    fn new() -> Self {
        Main { html: String::new(), text: String::new() }
    }

    fn add(&mut self, tag: &str, text: &str) {
        let _ = writeln!(self.html, "<{tag}>{text}</{tag}>");
        self.text.push_str(text);
        self.text.push('\n');
    }

    fn list(&mut self, items: &[String]) {
        self.html.push_str("<ul>");
        for item in items {
            let _ = write!(self.html, "<li>{item}</li>");
            self.text.push_str(item);
            self.text.push('\n');
        }
        self.html.push_str("</ul>\n");
    }

    fn raw(&mut self, html: &str, text: &str) {
        self.html.push_str(html);
        self.text.push_str(text);
        self.text.push('\n');
    }
}

fn body(g: &mut Gen, title: &str, paragraphs: usize, extras: bool) -> Main {
    let mut main = Main::new();
    main.add("h1", title);
    for i in 0..paragraphs {
        if i > 0 && i % 4 == 0 {
            let heading = g.sentence(WORDS);
            main.add("h2", heading.trim_end_matches('.'));
        }
        let p = g.paragraph();
        main.add("p", &p);
        if extras && i == 2 {
            let items: Vec<String> = (0..4).map(|_| g.sentence(WORDS)).collect();
            main.list(&items);
        }
    }
    main
}

fn head(title: &str, site: &str) -> String {
    format!(
        "<!doctype html><html><head><meta charset=\"utf-8\"><title>{title} | {site}</title>\
         <meta name=\"description\" content=\"About {title}\"><meta property=\"og:site_name\" content=\"{site}\">\
         <meta name=\"author\" content=\"A. Writer\"></head>"
    )
}

fn cookie(g: &mut Gen) -> String {
    format!(
        "<div class=\"cookie-banner\" id=\"consent\"><p>{}</p><button>Accept</button></div>",
        g.boiler(25)
    )
}

fn nav(g: &mut Gen, n: usize) -> String {
    format!("<nav class=\"menu\"><ul>{}</ul></nav>", g.links(n))
}

fn footer(g: &mut Gen) -> String {
    format!("<footer><p>{}</p><ul>{}</ul></footer>", g.boiler(20), g.links(8))
}

fn layout(g: &mut Gen, kind: usize) -> Sample {
    let title = g.sentence(WORDS).trim_end_matches('.').to_owned();
    let site = "Example News";
    match kind {
        0 => {
            let main = {
                let n = g.0.usize(6..14);
                body(g, &title, n, true)
            };
            let html = format!(
                "{}<body>{}{}<main><article>{}</article></main><aside class=\"related\"><h3>Related</h3><ul>{}</ul></aside>{}</body></html>",
                head(&title, site),
                nav(g, 8),
                cookie(g),
                main.html,
                g.links(6),
                footer(g)
            );
            Sample { html, truth: main.text, layout: "article" }
        }
        1 => {
            let main = {
                let n = g.0.usize(6..14);
                body(g, &title, n, true)
            };
            let html = format!(
                "{}<body><div id=\"wrapper\"><div class=\"header\"><div class=\"logo\">{}</div><ul class=\"nav\">{}</ul></div>\
                 <div class=\"content\"><div class=\"post-body entry-content\">{}</div></div>\
                 <div class=\"sidebar widget-area\"><div class=\"widget\"><h4>{}</h4><ul>{}</ul></div><div class=\"widget\"><p>{}</p></div></div>\
                 <div class=\"footer\">{}</div></div></body></html>",
                head(&title, site),
                g.boiler(2),
                g.links(7),
                main.html,
                g.boiler(2),
                g.links(10),
                g.boiler(30),
                g.boiler(25)
            );
            Sample { html, truth: main.text, layout: "div-soup" }
        }
        2 => {
            let mut main = {
                let n = g.0.usize(8..16);
                body(g, &title, n, false)
            };
            let teaser = format!(
                "<div class=\"ad-slot advertisement\"><p>{}</p></div><div class=\"read-more\"><h4>Read more</h4><ul>{}</ul></div>",
                g.boiler(15),
                g.links(4)
            );
            // Ads and teasers sit between paragraphs of the story.
            let cut = main.html.find("</p>").map_or(0, |i| i + 4);
            main.html.insert_str(cut, &teaser);
            let html = format!(
                "{}<body>{}<div class=\"layout\"><div class=\"story\"><article class=\"story-body\">{}</article>\
                 <div class=\"share\"><a href=\"#\">{}</a></div></div><div class=\"most-read\"><h3>Most read</h3><ol>{}</ol></div></div>{}</body></html>",
                head(&title, site),
                nav(g, 12),
                main.html,
                g.boiler(3),
                g.links(10),
                footer(g)
            );
            Sample { html, truth: main.text, layout: "news" }
        }
        3 => {
            let mut main = {
                let n = g.0.usize(5..10);
                body(g, &title, n, true)
            };
            let code = format!("let {} = {}({});", g.pick(WORDS), g.pick(WORDS), g.pick(WORDS));
            main.raw(&format!("<pre><code>{code}</code></pre>"), &code);
            let rows: Vec<(String, String)> =
                (0..3).map(|_| (g.pick(WORDS).to_owned(), g.pick(WORDS).to_owned())).collect();
            let table: String =
                rows.iter().map(|(a, b)| format!("<tr><td>{a}</td><td>{b}</td></tr>")).collect();
            let table_text: Vec<String> = rows.iter().map(|(a, b)| format!("{a} {b}")).collect();
            main.raw(
                &format!("<table><tr><th>name</th><th>value</th></tr>{table}</table>"),
                &format!("name value\n{}", table_text.join("\n")),
            );
            let p = g.paragraph();
            main.add("p", &p);
            let html = format!(
                "{}<body><header>{}</header><div class=\"docs\"><nav class=\"toc sidebar\"><ul>{}</ul></nav><main class=\"doc-content\">{}</main></div>{}</body></html>",
                head(&title, "Docs"),
                nav(g, 6),
                g.links(25),
                main.html,
                footer(g)
            );
            Sample { html, truth: main.text, layout: "docs" }
        }
        4 => {
            let main = {
                let n = g.0.usize(6..12);
                body(g, &title, n, false)
            };
            let count = g.0.usize(3..8);
            let comments: String = (0..count)
                .map(|i| format!("<div class=\"comment\" id=\"comment-{i}\"><span class=\"author\">{}</span><p>{}</p></div>", g.boiler(2), g.boiler(20)))
                .collect();
            let html = format!(
                "{}<body>{}<div class=\"post\"><article class=\"hentry\"><div class=\"entry-content\">{}</div></article>\
                 <section id=\"comments\" class=\"comments\"><h3>Comments</h3>{comments}</section></div>{}</body></html>",
                head(&title, "A Blog"),
                nav(g, 6),
                main.html,
                footer(g)
            );
            Sample { html, truth: main.text, layout: "blog-comments" }
        }
        _ => {
            let main = body(g, &title, 2, false);
            let html = format!(
                "{}<body>{}{}<div class=\"promo\"><p>{}</p></div><div class=\"content\"><article>{}</article></div>\
                 <div class=\"recommended\"><ul>{}</ul></div>{}</body></html>",
                head(&title, site),
                nav(g, 15),
                cookie(g),
                g.boiler(40),
                main.html,
                g.links(12),
                footer(g)
            );
            Sample { html, truth: main.text, layout: "short" }
        }
    }
}

/// The weight real pages carry besides their text: inline scripts (some with markup in
/// strings), styles, SVG icons, analytics, comments. JSON-LD with the article's metadata is
/// part of it, as on real pages.
fn assets(g: &mut Gen, title: &str) -> (String, String) {
    let mut css = String::from("<style>");
    for i in 0..g.0.usize(200..600) {
        let _ = write!(css, ".c{i}{{margin:0 {}px;color:#{:06x};display:flex}}", i % 17, g.0.u32(..0xffffff));
    }
    css.push_str("</style>");
    let script = |g: &mut Gen, min: usize, max: usize| {
        let mut js = String::from("<script>");
        for i in 0..g.0.usize(min..max) {
            let _ = write!(
                js,
                "function f{i}(a,b){{var s='<div class=\"w{i}\">'+a+'</div>';return s.length+b*{};}}",
                g.0.u32(..1000)
            );
        }
        js.push_str("</script>");
        js
    };
    let head_js = script(g, 300, 1500);
    let tail_js = script(g, 300, 1200);
    let svg: String = (0..g.0.usize(5..15))
        .map(|i| {
            let path: String = (0..40).map(|k| format!("L{} {} ", (i * 7 + k) % 97, (k * 13) % 89)).collect();
            format!("<svg viewBox=\"0 0 24 24\" class=\"icon\"><path d=\"M0 0 {path}Z\"/></svg>")
        })
        .collect();
    let ld = format!(
        "<script type=\"application/ld+json\">{{\"@context\":\"https://schema.org\",\"@type\":\"NewsArticle\",\"headline\":\"{title}\",\"author\":{{\"@type\":\"Person\",\"name\":\"A. Writer\"}},\"datePublished\":\"2025-03-04\"}}</script>"
    );
    let head = format!("{css}{head_js}{ld}<!-- build 1234 -->");
    let tail =
        format!("<div class=\"icons\" hidden>{svg}</div>{tail_js}<noscript><img src=\"/px.gif\"></noscript>");
    (head, tail)
}

/// `n` pages, the same for the same seed. `heavy` pages carry the scripts, styles and
/// icons that real pages do (about 100–300 KB each).
pub(crate) fn corpus(n: usize, seed: u64, heavy: bool) -> Vec<Sample> {
    let mut g = Gen(fastrand::Rng::with_seed(seed));
    (0..n)
        .map(|i| {
            let mut sample = layout(&mut g, i % 6);
            if heavy {
                let (head, tail) = assets(&mut g, "article");
                sample.html = sample.html.replacen("</head>", &format!("{head}</head>"), 1).replacen(
                    "</body>",
                    &format!("{tail}</body>"),
                    1,
                );
            }
            sample
        })
        .collect()
}

/// Lower-case word tokens.
pub(crate) fn tokens(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric()).filter(|t| !t.is_empty()).map(str::to_lowercase).collect()
}

/// Precision, recall and F1 over 4-word shingles (counted with multiplicity).
pub(crate) fn shingle_scores(extracted: &str, truth: &str) -> (f64, f64, f64) {
    use std::collections::HashMap;
    fn shingles(text: &str) -> HashMap<String, usize> {
        let tokens = tokens(text);
        let mut map = HashMap::new();
        if tokens.len() < 4 {
            if !tokens.is_empty() {
                *map.entry(tokens.join(" ")).or_default() += 1;
            }
            return map;
        }
        for window in tokens.windows(4) {
            *map.entry(window.join(" ")).or_default() += 1;
        }
        map
    }
    let got = shingles(extracted);
    let want = shingles(truth);
    let common: usize = got.iter().map(|(k, n)| (*n).min(want.get(k).copied().unwrap_or(0))).sum();
    let got_total: usize = got.values().sum();
    let want_total: usize = want.values().sum();
    let precision = if got_total == 0 { 0.0 } else { common as f64 / got_total as f64 };
    let recall = if want_total == 0 { 0.0 } else { common as f64 / want_total as f64 };
    let f1 = if precision + recall == 0.0 { 0.0 } else { 2.0 * precision * recall / (precision + recall) };
    (precision, recall, f1)
}

//! A corpus of generated web pages with known main content, for measuring extraction.
//!
//! Eight layouts that real sites use — semantic articles, div soup, news with ads and
//! inline teasers, documentation with code and tables, blogs with comments, short pages
//! under heavy chrome, old text laid out with line breaks, long reads in sections — each
//! wrapped in the chrome real pages carry: mega menus, breadcrumbs, bylines, share bars,
//! newsletter boxes, related-article cards and comments written in the same vocabulary as
//! the story (so that word statistics alone cannot tell them apart), sidebars and footers.
//! The main text of each page is known, so precision and recall can be computed exactly.

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
    "complex", "narrow", "broad", "heavy", "light", "early", "late", "northern", "the", "of", "and", "a",
    "in", "to", "with", "from", "after", "before", "under", "over", "was", "is", "were", "had",
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

    fn words(&mut self, list: &[&str], n: usize) -> String {
        (0..n).map(|_| self.pick(list)).collect::<Vec<_>>().join(" ")
    }

    fn sentence(&mut self) -> String {
        let n = self.0.usize(8..22);
        let mut text = self.words(WORDS, n);
        if let Some(first) = text.get(..1) {
            text = first.to_uppercase() + &text[1..];
        }
        text.push('.');
        text
    }

    fn title(&mut self) -> String {
        self.sentence().trim_end_matches('.').to_owned()
    }

    /// A paragraph's HTML and its text: sentences with inline links and emphasis.
    fn paragraph(&mut self) -> (String, String) {
        let n = self.0.usize(2..6);
        let (mut html, mut text) = (String::new(), String::new());
        for i in 0..n {
            let sentence = self.sentence();
            if i > 0 {
                html.push(' ');
                text.push(' ');
            }
            match self.0.u8(..6) {
                0 => {
                    // A link around a few words in the middle of the sentence.
                    let words: Vec<&str> = sentence.split(' ').collect();
                    let at = words.len() / 2;
                    let _ = write!(
                        html,
                        "{} <a href=\"/story/{}\" class=\"inline-link\">{} {}</a> {}",
                        words[..at].join(" "),
                        self.0.u32(..9999),
                        words[at],
                        words.get(at + 1).copied().unwrap_or(""),
                        words.get(at + 2..).map(|w| w.join(" ")).unwrap_or_default()
                    );
                }
                1 => {
                    let _ = write!(html, "<strong>{sentence}</strong>");
                }
                2 => {
                    let _ = write!(html, "<em>{sentence}</em>");
                }
                3 => {
                    let _ = write!(html, "<span class=\"s{}\">{sentence}</span>", self.0.u8(..9));
                }
                _ => html.push_str(&sentence),
            }
            text.push_str(&sentence);
        }
        (html, text)
    }

    fn boiler(&mut self, words: usize) -> String {
        self.words(BOILER, words)
    }

    fn links(&mut self, n: usize) -> String {
        (0..n)
            .map(|i| {
                let words = self.0.usize(1..4);
                format!(
                    "<li class=\"menu-item item-{i}\"><a href=\"/section/{i}\" data-track=\"nav-{i}\">{}</a></li>",
                    self.boiler(words)
                )
            })
            .collect()
    }

    /// Links whose text is a headline in the story's own vocabulary.
    fn headline_links(&mut self, n: usize) -> String {
        (0..n)
            .map(|i| format!("<li><a href=\"/news/{i}-{}\">{}</a></li>", self.0.u32(..99999), self.title()))
            .collect()
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

    fn push(&mut self, html: &str, text: &str) {
        self.html.push_str(html);
        self.html.push('\n');
        self.text.push_str(text);
        self.text.push('\n');
    }

    fn heading(&mut self, level: u8, text: &str) {
        self.push(&format!("<h{level}>{text}</h{level}>"), text);
    }

    fn paragraph(&mut self, g: &mut Gen) {
        let (html, text) = g.paragraph();
        self.push(&format!("<p>{html}</p>"), &text);
    }

    fn list(&mut self, g: &mut Gen, ordered: bool) {
        let tag = if ordered { "ol" } else { "ul" };
        let items: Vec<String> = (0..g.0.usize(3..7)).map(|_| g.sentence()).collect();
        let html: String = items.iter().map(|i| format!("<li>{i}</li>")).collect();
        self.push(&format!("<{tag}>{html}</{tag}>"), &items.join("\n"));
    }

    fn quote(&mut self, g: &mut Gen) {
        let s = g.sentence();
        self.push(&format!("<blockquote><p>{s}</p></blockquote>"), &s);
    }
}

/// Paragraphs with sub-headings and, with `extras`, lists and quotes between them.
fn story(g: &mut Gen, paragraphs: usize, extras: bool) -> Main {
    let mut main = Main::new();
    for i in 0..paragraphs {
        if i > 0 && i % 4 == 0 {
            let heading = g.title();
            main.heading(2, &heading);
        }
        main.paragraph(g);
        if extras && i == 2 {
            main.list(g, false);
        }
        if extras && i == 5 {
            main.quote(g);
        }
    }
    main
}

fn head(title: &str, site: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\" class=\"no-js\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{title} | {site}</title>\
         <meta name=\"description\" content=\"About {title}\"><meta property=\"og:site_name\" content=\"{site}\">\
         <meta property=\"og:title\" content=\"{title}\"><meta property=\"og:type\" content=\"article\">\
         <meta name=\"author\" content=\"A. Writer\"><link rel=\"canonical\" href=\"https://bench.example/page\">\
         <link rel=\"stylesheet\" href=\"/assets/site.css\"></head>\n"
    )
}

fn mega_menu(g: &mut Gen) -> String {
    let mut html = String::from(
        "<header class=\"site-header\" role=\"banner\"><div class=\"container\"><div class=\"row\"><div class=\"col-3\">\
         <a class=\"logo\" href=\"/\"><img src=\"/logo.svg\" alt=\"Site logo\" width=\"120\" height=\"40\"></a></div>\
         <div class=\"col-9\"><nav class=\"main-navigation\" aria-label=\"Main\"><ul class=\"menu\">",
    );
    for i in 0..g.0.usize(5..9) {
        let n = g.0.usize(6..14);
        let _ = write!(
            html,
            "<li class=\"menu-item has-children\"><a href=\"/s{i}\"><span>{}</span></a><div class=\"dropdown\"><ul class=\"sub-menu\">{}</ul></div></li>",
            g.boiler(1),
            g.links(n)
        );
    }
    let _ = writeln!(
        html,
        "</ul></nav><div class=\"header-tools\"><form class=\"search\" action=\"/search\"><input type=\"search\" name=\"q\" placeholder=\"Search\"><button>Search</button></form>\
         <a class=\"btn subscribe\" href=\"/subscribe\">{}</a></div></div></div></div></header>",
        g.boiler(2)
    );
    html
}

fn cookie(g: &mut Gen) -> String {
    format!(
        "<div class=\"cookie-banner\" id=\"consent\" role=\"dialog\"><div class=\"cookie-inner\"><p>{}</p>\
         <div class=\"buttons\"><button class=\"accept\">Accept all</button><button>Settings</button></div></div></div>\n",
        g.boiler(25)
    )
}

fn breadcrumbs(g: &mut Gen) -> String {
    format!(
        "<ol class=\"breadcrumb\" itemscope><li><a href=\"/\">Home</a></li><li><a href=\"/s\">{}</a></li><li><a href=\"/s/t\">{}</a></li></ol>\n",
        g.boiler(1),
        g.boiler(1)
    )
}

fn byline() -> String {
    "<div class=\"article-meta\"><span class=\"byline\">By <a href=\"/author/a-writer\" rel=\"author\">A. Writer</a></span> \
     <time class=\"published\" datetime=\"2025-03-04T09:00:00Z\">4 March 2025</time> <span class=\"read-time\">5 min read</span></div>\n"
        .to_owned()
}

fn share(g: &mut Gen) -> String {
    let items: String = ["facebook", "twitter", "linkedin", "email"]
        .iter()
        .map(|s| format!("<li><a class=\"share-{s}\" href=\"/share/{s}\" aria-label=\"Share on {s}\"><svg class=\"i\"></svg><span>{}</span></a></li>", g.boiler(1)))
        .collect();
    format!("<div class=\"share-tools social\"><ul>{items}</ul></div>\n")
}

fn newsletter(g: &mut Gen) -> String {
    format!(
        "<div class=\"newsletter-signup\"><h3>Get the newsletter</h3><p>{}</p><form action=\"/nl\"><input type=\"email\" name=\"e\"><button>Sign up</button></form></div>\n",
        g.boiler(14)
    )
}

fn ad(g: &mut Gen) -> String {
    format!(
        "<div class=\"ad-container ad-slot\"><span class=\"ad-label\">Advertisement</span><div id=\"div-gpt-ad-{}\" class=\"ad\"><a href=\"/ad\">{}</a></div></div>\n",
        g.0.u32(..99999),
        g.boiler(6)
    )
}

fn inline_related(g: &mut Gen) -> String {
    format!("<aside class=\"inline-related\"><h4>Related</h4><ul>{}</ul></aside>\n", g.headline_links(3))
}

/// Cards of other articles: a headline and a teaser sentence each, in the story's words.
fn cards(g: &mut Gen, heading: &str) -> String {
    let mut html =
        format!("<section class=\"related-articles\"><h2>{heading}</h2><div class=\"cards grid\">");
    for i in 0..g.0.usize(4..9) {
        let (title, teaser) = (g.title(), g.sentence());
        let _ = write!(
            html,
            "<div class=\"card\"><a href=\"/n/{i}\" class=\"card-image\"><img src=\"/img/{i}.jpg\" alt=\"\"></a>\
             <div class=\"card-body\"><h3 class=\"card-title\"><a href=\"/n/{i}\">{title}</a></h3>\
             <p class=\"card-text\">{teaser}</p><span class=\"meta\">{} min read</span></div></div>",
            g.0.u8(2..12)
        );
    }
    html.push_str("</div></section>\n");
    html
}

/// Readers' comments, written in the same vocabulary as the story.
fn comments(g: &mut Gen) -> String {
    let mut html = String::from(
        "<section id=\"comments\" class=\"comments-area\"><h2 class=\"comments-title\">Comments</h2><ol class=\"comment-list\">",
    );
    for i in 0..g.0.usize(3..9) {
        let (body, _) = g.paragraph();
        let _ = write!(
            html,
            "<li class=\"comment\" id=\"comment-{i}\"><article class=\"comment-body\"><footer class=\"comment-meta\">\
             <div class=\"comment-author vcard\"><b class=\"fn\">{}</b> says:</div><time>2 days ago</time></footer>\
             <div class=\"comment-content\"><p>{body}</p></div><div class=\"reply\"><a class=\"comment-reply-link\" href=\"#r{i}\">Reply</a></div></article></li>",
            g.boiler(2)
        );
    }
    html.push_str("</ol><div id=\"respond\"><h3>Leave a reply</h3><form><textarea name=\"c\"></textarea><button>Post comment</button></form></div></section>\n");
    html
}

fn sidebar(g: &mut Gen) -> String {
    format!(
        "<aside class=\"sidebar widget-area\" role=\"complementary\"><div class=\"widget popular\"><h3>{}</h3><ol>{}</ol></div>\
         <div class=\"widget tags\"><h3>Tags</h3><div class=\"tagcloud\">{}</div></div><div class=\"widget\"><p>{}</p></div></aside>\n",
        g.boiler(2),
        g.headline_links(8),
        (0..15)
            .map(|i| format!("<a href=\"/tag/{i}\" class=\"tag\">{}</a> ", g.pick(WORDS)))
            .collect::<String>(),
        g.boiler(20)
    )
}

fn footer(g: &mut Gen) -> String {
    let columns: String = (0..4)
        .map(|_| {
            let n = g.0.usize(5..10);
            let heading = g.boiler(1);
            format!("<div class=\"footer-col\"><h4>{heading}</h4><ul>{}</ul></div>", g.links(n))
        })
        .collect();
    format!(
        "<footer class=\"site-footer\" role=\"contentinfo\"><div class=\"container\"><div class=\"footer-columns\">{columns}</div>\
         <p class=\"copyright\">© 2025 Example Media. {}</p></div></footer>\n",
        g.boiler(12)
    )
}

fn layout(g: &mut Gen, kind: usize) -> Sample {
    let title = g.title();
    let site = "Example News";
    let (layout, html, main) = match kind {
        0 => {
            let n = g.0.usize(6..14);
            let main = story(g, n, true);
            let html = format!(
                "{}<body class=\"single\">{}{}<div class=\"page\"><main id=\"main\"><article class=\"post\">{}<header class=\"entry-header\"><h1 class=\"entry-title\">{title}</h1>{}</header>\
                 {}<div class=\"entry-content\">{}</div>{}<footer class=\"entry-footer\"><span class=\"tags\">Tags: <a href=\"/t\">{}</a></span></footer></article>{}</main>{}</div>{}</body></html>",
                head(&title, site),
                cookie(g),
                mega_menu(g),
                breadcrumbs(g),
                byline(),
                share(g),
                main.html,
                share(g),
                g.pick(WORDS),
                cards(g, "More stories"),
                sidebar(g),
                footer(g)
            );
            ("article", html, main)
        }
        1 => {
            let n = g.0.usize(6..14);
            let main = story(g, n, true);
            let html = format!(
                "{}<body><div id=\"wrapper\"><div class=\"header\"><div class=\"logo\">{}</div><ul class=\"nav\">{}</ul></div>\
                 <div class=\"container\"><div class=\"row\"><div class=\"col-md-8\"><div class=\"post-wrap\"><div class=\"post-title\"><h1>{title}</h1></div>{}\
                 <div class=\"post-body entry-content\"><div class=\"inner\">{}</div></div>{}</div></div><div class=\"col-md-4\">{}</div></div></div>\
                 <div class=\"footer\"><div class=\"links\"><ul>{}</ul></div><div>{}</div></div></div></body></html>",
                head(&title, site),
                g.boiler(2),
                g.links(9),
                byline(),
                main.html,
                newsletter(g),
                sidebar(g),
                g.links(14),
                g.boiler(25)
            );
            ("div-soup", html, main)
        }
        2 => {
            let n = g.0.usize(8..16);
            let main = story(g, n, false);
            // Ads and teasers sit between the story's paragraphs.
            let mut body = String::new();
            for (i, block) in main.html.split_inclusive("</p>\n").enumerate() {
                body.push_str(block);
                if i == 1 {
                    body.push_str(&ad(g));
                }
                if i == 3 {
                    body.push_str(&inline_related(g));
                }
                if i == 6 {
                    body.push_str(&newsletter(g));
                }
            }
            let html = format!(
                "{}<body>{}{}<div class=\"layout\"><div class=\"story\"><article class=\"story-body\"><h1 class=\"headline\">{title}</h1>{}{}</article>\
                 {}</div><div class=\"most-read\"><h3>Most read</h3><ol>{}</ol></div></div>{}{}</body></html>",
                head(&title, site),
                mega_menu(g),
                ad(g),
                byline(),
                body,
                share(g),
                g.headline_links(10),
                cards(g, "Around the site"),
                footer(g)
            );
            ("news", html, main)
        }
        3 => {
            let mut main = Main::new();
            for i in 0..g.0.usize(4..8) {
                if i > 0 {
                    let heading = g.title();
                    main.heading(2, &heading);
                }
                main.paragraph(g);
                match i % 3 {
                    0 => {
                        let lines: Vec<String> = (0..g.0.usize(2..6))
                            .map(|_| format!("let {} = {}({});", g.pick(WORDS), g.pick(WORDS), g.pick(WORDS)))
                            .collect();
                        let code = lines.join("\n");
                        main.push(&format!("<div class=\"highlight\"><pre><code class=\"language-rust\">{code}</code></pre></div>"), &code);
                    }
                    1 => {
                        let rows: Vec<(String, String)> =
                            (0..g.0.usize(2..6)).map(|_| (g.pick(WORDS).to_owned(), g.sentence())).collect();
                        let table: String = rows
                            .iter()
                            .map(|(a, b)| format!("<tr><td><code>{a}</code></td><td>{b}</td></tr>"))
                            .collect();
                        let text: Vec<String> = rows.iter().map(|(a, b)| format!("{a} {b}")).collect();
                        main.push(
                            &format!("<table class=\"params\"><thead><tr><th>Name</th><th>Description</th></tr></thead><tbody>{table}</tbody></table>"),
                            &format!("Name Description\n{}", text.join("\n")),
                        );
                    }
                    _ => {
                        let s = g.sentence();
                        main.push(&format!("<div class=\"admonition note\"><p class=\"admonition-title\">Note</p><p>{s}</p></div>"), &format!("Note\n{s}"));
                        main.list(g, true);
                    }
                }
            }
            let toc: String = (0..g.0.usize(20..50))
                .map(|i| format!("<li class=\"toctree-l1\"><a class=\"reference internal\" href=\"/docs/{i}\">{}</a></li>", g.title()))
                .collect();
            let html = format!(
                "{}<body><header class=\"docs-header\">{}</header><div class=\"docs\"><nav class=\"toc sidebar\" aria-label=\"Contents\"><ul>{toc}</ul></nav>\
                 <main class=\"doc-content\"><div class=\"section\"><h1>{title}</h1>{}</div><div class=\"prev-next\"><a href=\"/prev\">Previous</a> <a href=\"/next\">Next</a></div></main></div>{}</body></html>",
                head(&title, "Docs"),
                mega_menu(g),
                main.html,
                footer(g)
            );
            ("docs", html, main)
        }
        4 => {
            let n = g.0.usize(5..12);
            let main = story(g, n, false);
            let html = format!(
                "{}<body class=\"blog\">{}<div class=\"site-content\"><div class=\"content-area\"><article class=\"hentry\"><h1 class=\"entry-title\">{title}</h1>{}<div class=\"entry-content\">{}</div>{}</article>{}</div>{}</div>{}</body></html>",
                head(&title, "A Blog"),
                mega_menu(g),
                byline(),
                main.html,
                share(g),
                comments(g),
                sidebar(g),
                footer(g)
            );
            ("blog-comments", html, main)
        }
        5 => {
            let main = story(g, 2, false);
            let html = format!(
                "{}<body>{}{}<div class=\"promo\"><p>{}</p></div><div class=\"content\"><article><h1>{title}</h1>{}</article></div>{}{}{}</body></html>",
                head(&title, site),
                cookie(g),
                mega_menu(g),
                g.boiler(40),
                main.html,
                cards(g, "Recommended"),
                sidebar(g),
                footer(g)
            );
            ("short", html, main)
        }
        6 => {
            // Old pages: text laid out with line breaks, no paragraphs, inside layout tables.
            let mut main = Main::new();
            let mut lines = Vec::new();
            for _ in 0..g.0.usize(5..11) {
                let (_, text) = g.paragraph();
                lines.push(text);
            }
            main.html = lines.join("<br><br>\n");
            main.text = lines.join("\n");
            let html = format!(
                "{}<body bgcolor=\"#ffffff\"><table width=\"100%\"><tr><td class=\"menu\" width=\"180\" valign=\"top\">{}</td>\
                 <td valign=\"top\"><font face=\"Verdana\"><b>{title}</b></font><br><br>\n<div id=\"text\">{}</div></td></tr></table>\
                 <center><font size=\"1\">{}</font></center></body></html>",
                head(&title, "Home Page"),
                (0..g.0.usize(10..20))
                    .map(|i| format!("<a href=\"/p{i}.html\">{}</a><br>", g.boiler(2)))
                    .collect::<String>(),
                main.html,
                g.boiler(10)
            );
            ("br-text", html, main)
        }
        _ => {
            // A long read in sections, with quotes and lists.
            let mut main = Main::new();
            let mut sections = String::new();
            for _ in 0..g.0.usize(3..6) {
                let mut part = Main::new();
                let heading = g.title();
                part.heading(2, &heading);
                for i in 0..g.0.usize(2..6) {
                    part.paragraph(g);
                    if i == 1 {
                        part.quote(g);
                    }
                }
                if g.0.bool() {
                    let ordered = g.0.bool();
                    part.list(g, ordered);
                }
                let _ = write!(sections, "<section class=\"chapter\">{}</section>", part.html);
                main.text.push_str(&part.text);
            }
            main.html = sections;
            let html = format!(
                "{}<body>{}<div class=\"longform\"><div class=\"hero\"><h1>{title}</h1><p class=\"dek\">{}</p>{}</div><article class=\"longform-body\">{}</article>{}</div>{}{}</body></html>",
                head(&title, site),
                mega_menu(g),
                g.boiler(8),
                byline(),
                main.html,
                newsletter(g),
                cards(g, "Read next"),
                footer(g)
            );
            ("long-read", html, main)
        }
    };
    // The headline is part of the main content in every layout.
    Sample { html, truth: format!("{title}\n{}", main.text), layout }
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

/// The number of layouts.
pub(crate) const LAYOUTS: usize = 8;

/// `n` pages, the same for the same seed. `heavy` pages carry the scripts, styles and
/// icons that real pages do (about 100–300 KB each).
pub(crate) fn corpus(n: usize, seed: u64, heavy: bool) -> Vec<Sample> {
    let mut g = Gen(fastrand::Rng::with_seed(seed));
    (0..n)
        .map(|i| {
            let mut sample = layout(&mut g, i % LAYOUTS);
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

/// Lower-case word tokens of `text`, with Markdown syntax that is not text left out: the
/// targets of links and images (addresses), code fence lines (with their language) and
/// the numbers of ordered list items.
pub(crate) fn tokens(text: &str) -> Vec<String> {
    let mut lines = String::with_capacity(text.len());
    for line in text.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            continue;
        }
        let digits = trimmed.bytes().take_while(u8::is_ascii_digit).count();
        let line =
            if digits > 0 && trimmed[digits..].starts_with(". ") { &trimmed[digits + 2..] } else { line };
        lines.push_str(line);
        lines.push('\n');
    }
    let mut plain = String::with_capacity(text.len());
    let mut rest = lines.as_str();
    while let Some(at) = rest.find("](") {
        plain.push_str(&rest[..at]);
        rest = &rest[at + 2..];
        rest = rest.find(')').map_or("", |end| &rest[end + 1..]);
    }
    plain.push_str(rest);
    plain.split(|c: char| !c.is_alphanumeric()).filter(|t| !t.is_empty()).map(str::to_lowercase).collect()
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

//! Extraction of the main content from pages shaped like real ones.
#![allow(clippy::unwrap_used, missing_docs)]

use proptest::prelude::*;
use tackle_extract::{ContentKind, Page, extract};
use url::Url;

fn read(html: &str) -> Page {
    extract(html, ContentKind::Html, &Url::parse("https://news.example/2024/story").unwrap())
}

fn assert_kept(page: &Page, wanted: &[&str], unwanted: &[&str]) {
    for text in wanted {
        assert!(page.markdown.contains(text), "{text:?} missing from:\n{}", page.markdown);
    }
    for text in unwanted {
        assert!(!page.markdown.contains(text), "{text:?} leaked into:\n{}", page.markdown);
    }
}

const STORY: &str = "The committee met on Tuesday to discuss the new water rules, which farmers say will raise their costs, \
    and which the city says are needed after three dry summers in a row.";

#[test]
fn a_news_story_without_its_chrome() {
    let html = format!(
        r#"<html><head><title>Water rules debated – The Daily Example</title>
<meta property="og:site_name" content="The Daily Example"></head><body>
<header class="site-header"><a href="/">The Daily Example</a><ul class="menu"><li><a href="/world">World</a></li><li><a href="/sport">Sport</a></li></ul></header>
<div class="container"><div class="main-column">
<h1 class="headline">Water rules debated</h1>
<div class="byline">By <a rel="author" href="/staff/kim">Kim Lee</a> <time datetime="2024-06-11T08:00:00+02:00">11 June</time></div>
<div class="story-body">
<p>{STORY}</p>
<div class="ad-slot"><span>Advertisement</span><a href="/ad">Cheap flights to anywhere</a></div>
<p>Second paragraph. {STORY}</p>
<div class="inline-related"><h4>Read more</h4><ul><li><a href="/a">Dry summers explained</a></li><li><a href="/b">Farm costs rise</a></li></ul></div>
<p>Third paragraph. {STORY}</p>
</div>
<div class="share-bar"><a href="/s/fb">Share on Facebook</a> <a href="/s/x">Post on X</a></div>
</div>
<aside class="sidebar"><h3>Most popular</h3><ol><li><a href="/p1">A very popular story about something else entirely</a></li></ol></aside>
</div>
<footer><p>© 2024 The Daily Example. All rights reserved.</p></footer>
</body></html>"#
    );
    let page = read(&html);
    assert_kept(
        &page,
        &["# Water rules debated", "The committee met", "Second paragraph.", "Third paragraph."],
        &[
            "World",
            "Advertisement",
            "Cheap flights",
            "Dry summers explained",
            "Share on",
            "Most popular",
            "All rights",
        ],
    );
    assert_eq!(page.title.as_deref(), Some("Water rules debated"));
    assert_eq!(page.author.as_deref(), Some("Kim Lee"));
    assert_eq!(page.published.as_deref(), Some("2024-06-11"));
    assert_eq!(page.site_name.as_deref(), Some("The Daily Example"));
}

#[test]
fn a_blog_post_without_its_comments() {
    let html = format!(
        r#"<body><div id="page"><article class="post"><h1>Notes from the garden</h1><div class="entry-content">
<p>{STORY}</p><p>And more. {STORY}</p></div></article>
<div id="comments" class="comments-area"><h2>3 comments</h2><ol class="comment-list">
<li class="comment"><div class="comment-body"><p>Great post! {STORY}</p></div></li>
<li class="comment"><div class="comment-body"><p>I disagree. {STORY}</p></div></li></ol></div></div></body>"#
    );
    assert_kept(
        &read(&html),
        &["Notes from the garden", "And more."],
        &["Great post", "I disagree", "3 comments"],
    );
}

#[test]
fn a_list_of_features_is_kept_whole() {
    let features: String = ["Inspector", "Console", "Debugger", "Network"]
        .iter()
        .map(|name| {
            format!(
                "<li class=\"feature\"><h2>{name}</h2><p>Examine and change what the {name} shows you, \
                 with tools made for people who build for the web every day.</p></li>"
            )
        })
        .collect();
    let html = format!(
        "<body><nav><a href=/>Home</a></nav><main><section class=intro><h1>Welcome</h1>\
         <p>Get to know the features of the browser.</p><ul class=features>{features}</ul>\
         <div class=notice><h4>Important</h4><p>Sync your new profile to keep your bookmarks, history and passwords, \
         or create a new account.</p></div></section></main></body>"
    );
    assert_kept(
        &read(&html),
        &["## Inspector", "## Console", "## Debugger", "## Network", "Sync your new profile"],
        &["Home"],
    );
}

#[test]
fn an_old_page_laid_out_with_tables_and_line_breaks() {
    let html = format!(
        "<html><body><table><tr><td width=150><a href=/a>Links</a><br><a href=/b>Guestbook</a><br><a href=/c>Photos</a></td>\
         <td><font size=4><b>My trip</b></font><br><br>{STORY}<br><br>Later that day. {STORY}<br><br>The end. {STORY}</td></tr></table>\
         <center><font size=1>Best viewed in any browser</font></center></body></html>"
    );
    let page = read(&html);
    assert_kept(&page, &["My trip", "Later that day.", "The end."], &["Guestbook", "Best viewed"]);
    assert!(page.markdown.contains("\nLater that day."), "line breaks are kept: {}", page.markdown);
}

#[test]
fn divs_without_paragraphs_and_relative_links() {
    let html = format!(
        "<html><head><base href=\"https://cdn.example/docs/\"></head><body><div class=menu><a href=/x>X</a> <a href=/y>Y</a></div>\
         <div class=text><div>{STORY}</div><div>See <a href=\"guide.html\">the guide</a>. {STORY}</div></div></body></html>"
    );
    let page = read(&html);
    assert_kept(&page, &["[the guide](https://cdn.example/docs/guide.html)"], &["[X]"]);
}

#[test]
fn metadata_from_json_ld_alone() {
    let html = format!(
        r#"<html><head><script type="application/ld+json">[{{"@type":"BreadcrumbList"}},{{"@type":"BlogPosting",
"headline":"From JSON-LD","author":{{"@type":"Person","name":"Ada"}},"datePublished":"2023-02-01T10:00:00Z",
"publisher":{{"@type":"Organization","name":"Ada's Blog"}},"description":"What it is about."}}]</script></head>
<body><p>{STORY}</p></body></html>"#
    );
    let page = read(&html);
    assert_eq!(page.title.as_deref(), Some("From JSON-LD"));
    assert_eq!(page.author.as_deref(), Some("Ada"));
    assert_eq!(page.published.as_deref(), Some("2023-02-01"));
    assert_eq!(page.site_name.as_deref(), Some("Ada's Blog"));
    assert_eq!(page.description.as_deref(), Some("What it is about."));
    assert!(page.markdown.starts_with("# From JSON-LD\n\nThe committee met"), "{}", page.markdown);
}

#[test]
fn a_page_with_no_prose_gives_its_text() {
    let page =
        read("<html><head><title>Status</title></head><body><div>Up</div><div>42 ms</div></body></html>");
    assert_kept(&page, &["# Status", "Up", "42 ms"], &[]);
}

#[test]
fn deep_nesting_neither_overflows_nor_loses_text() {
    for tag in ["div", "b", "blockquote", "li", "span", "table"] {
        let html = format!(
            "<body>{}{STORY}{}</body>",
            format!("<{tag}>").repeat(20_000),
            format!("</{tag}>").repeat(20_000)
        );
        let page = read(&html);
        assert!(
            page.markdown.contains("The committee met"),
            "{tag}: {}",
            &page.markdown[..page.markdown.len().min(300)]
        );
    }
}

/// Pieces of markup; `broken` adds the fragments that break a tag (a lone `<`, a
/// reference cut short, any characters), after which text can legitimately be anything.
fn soup(broken: bool) -> impl Strategy<Value = String> {
    let tags = prop_oneof![
        Just("<p>".to_owned()),
        Just("</p>".to_owned()),
        Just("<div class=\"content\">".to_owned()),
        Just("<div class='comments'>".to_owned()),
        Just("</div>".to_owned()),
        Just("<a href=\"/x?a=1&amp;b\">".to_owned()),
        Just("</a>".to_owned()),
        Just("<ul><li>".to_owned()),
        Just("<table><tr><td>".to_owned()),
        Just("<pre><code class=language-rust>".to_owned()),
        Just("<br/>".to_owned()),
        Just("<img alt=\"x\" src=\"data:,\">".to_owned()),
        Just("<script>var hidden = 'SCRIPTMARK <p>';</script>".to_owned()),
        Just("<style>p { content: 'STYLEMARK' }</style>".to_owned()),
        Just("<!-- COMMENTMARK -->".to_owned()),
        Just("&eacute;".to_owned()),
        "[a-zA-Z ,.]{1,40}",
    ];
    let broken_pieces =
        prop_oneof![Just("<".to_owned()), Just("&".to_owned()), Just("&#x".to_owned()), "\\PC{0,12}"];
    let piece = if broken { prop_oneof![3 => tags, 1 => broken_pieces].boxed() } else { tags.boxed() };
    prop::collection::vec(piece, 0..60).prop_map(|pieces| pieces.concat())
}

#[test]
fn a_story_in_wrappers_built_alike_is_kept_whole() {
    // A how-to: each step in its own wrapper, a "related" box and an ad between them, one
    // step wrapped in stray spans, a donation box after the end.
    let step = |n: usize, text: &str| {
        format!(
            r#"<div class="mod step"><div class="stepContent mod"><div class="content"><h3>Step {n}</h3>
<p>{text}</p></div><figure class="thumb"><img src="/s{n}.jpg" alt=""></figure></div></div>"#
        )
    };
    let html = format!(
        r#"<html><head><title>How to Build a Terrarium</title></head><body><div class="page"><div class="article-body">
{}
<div class="RelatedContent Module"><h3>Other People Are Reading</h3><ul><li><a href="/a">Plant ideas</a></li><li><a href="/b">Succulents</a></li></ul></div>
{}
<div class="AdUnit mod"></div>
<span><span>{}</span></span>
<div class="support-pay"><strong>Any amount</strong> helps us keep this site free. Donate by bank transfer or PayPal today.</div>
</div></div><footer>© eHow</footer></body></html>"#,
        step(
            1,
            "Measure the circumference of your cloche and cut the foam about an inch smaller, then soak it until it sinks."
        ),
        step(
            2,
            "Insert your plant into the hole, pressing the foam gently around its roots so that it stands upright."
        ),
        step(
            3,
            "Using floral pins, attach enough moss around the foam to cover it, and place the cloche over it."
        ),
    );
    let page = read(&html);
    assert_kept(
        &page,
        &["Measure the circumference", "Insert your plant", "attach enough moss"],
        &["Other People Are Reading", "Any amount", "© eHow"],
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn scripts_styles_and_comments_never_become_text(html in soup(false)) {
        let page = read(&html);
        for mark in ["SCRIPTMARK", "STYLEMARK", "COMMENTMARK"] {
            prop_assert!(!page.markdown.contains(mark), "{mark} in {:?} from {html:?}", page.markdown);
        }
    }

    #[test]
    fn broken_markup_is_read_without_panics(html in soup(true)) {
        let _ = read(&html);
    }

    #[test]
    fn any_string_is_read_without_panics(text in "\\PC{0,400}") {
        let _ = read(&text);
    }
}

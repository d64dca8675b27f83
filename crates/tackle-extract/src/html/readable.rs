//! Finding the main content: what to leave out, and which part of the page is the story.
//!
//! Three steps over the tree. First, boilerplate is marked by what it is (navigation,
//! asides, dialogs, hidden elements, roles) and by what authors call it (class and id
//! words such as `comment`, `share`, `related`, `newsletter`, `sidebar`), unless marking it
//! would take away the page's heading or most of its text. Second, every block of prose
//! scores its ancestors, readability-style (length and commas, less for links), and the
//! best-scoring element wins, widened to its parent when the parent holds comparable
//! prose and joined by siblings that read like more of the same story. Third, inside the
//! winner, blocks that are mostly links or empty are left out when rendered.

use super::dom::{Document, Kind, NONE, Tag};

/// Words in class names and ids that mark boilerplate whatever else the name says.
const HARD_NEGATIVE: &[&str] = &[
    "ad",
    "ads",
    "adsbygoogle",
    "advert",
    "advertisement",
    "advertising",
    "breadcrumb",
    "breadcrumbs",
    "comment",
    "comments",
    "commentlist",
    "consent",
    "cookie",
    "cookies",
    "disqus",
    "gdpr",
    "newsletter",
    "outbrain",
    "pagination",
    "promo",
    "related",
    "respond",
    "share",
    "sharing",
    "sidebar",
    "social",
    "sponsor",
    "sponsored",
    "subscribe",
    "subscription",
    "taboola",
    "footer",
    "signup",
    "paywall",
    "recirc",
    "meta",
    "metadata",
    "byline",
    "dateline",
    "donate",
    "donation",
    "donations",
    // What accompanies a story without being it: who wrote it, what a picture shows and
    // who took it, how readers rated it, a challenge for bots, a seller's disclosure.
    "author",
    "autor",
    "auteur",
    "autore",
    "caption",
    "credit",
    "credits",
    "legend",
    "rating",
    "ratings",
    "captcha",
    "affiliate",
    // Lists of other stories: a story is never named after them.
    "popular",
    "trending",
    "recommended",
    "recommendations",
    // The same in the languages pages are most often written in.
    "werbung",
    "anzeige",
    "kommentare",
    "teilen",
    "publicite",
    "commentaires",
    "partager",
    "publicidad",
    "comentarios",
    "compartir",
    "relacionados",
    "reklama",
];

/// Words that mark boilerplate unless a content word is in the same name. Words about
/// visibility (`hidden`, `print`, `sr`) are not among them: a class that hides an element
/// is read as a whole by the hidden-text rules, and in longer names such words say how
/// something else is shown (`field--label-hidden`, `print-full`, `hidden-xs`).
const SOFT_NEGATIVE: &[&str] = &[
    "banner",
    "masthead",
    "menu",
    "meta",
    "modal",
    "nav",
    "navbar",
    "navigation",
    "overlay",
    "popup",
    "flyout",
    "skip",
    "tags",
    "tagcloud",
    "toc",
    "toolbar",
    "widget",
    "widgets",
    "teaser",
    "teasers",
    "pager",
    "login",
    "rss",
    "shoutbox",
    "skyscraper",
    "card",
    "cards",
    "topbar",
    "bottombar",
    "nocontent",
    "noprint",
    "header",
    "tools",
    "utility",
    "jump",
    "alert",
    "support",
    // A panel that slides in over the page (a menu, a cart, contact details).
    "offcanvas",
    "drawer",
];

/// Words that mark content.
const POSITIVE: &[&str] = &[
    "article",
    "body",
    "content",
    "entry",
    "hentry",
    "main",
    "page",
    "post",
    "text",
    "blog",
    "story",
    "chapter",
    "prose",
    "markdown",
    "section",
    "doc",
    "docs",
    "documentation",
    "longform",
];

/// Elements whose text flows inside a line.
pub(crate) fn is_inline(tag: Tag) -> bool {
    use Tag::*;
    matches!(
        tag,
        A | Abbr
            | B
            | Bdi
            | Br
            | Cite
            | Code
            | Del
            | Dfn
            | Em
            | Font
            | I
            | Img
            | Ins
            | Kbd
            | Label
            | Mark
            | Math
            | Output
            | Picture
            | Q
            | S
            | Samp
            | Small
            | Span
            | Strike
            | Strong
            | Sub
            | Sup
            | Time
            | Tt
            | U
            | Var
            | Wbr
    )
}

/// What is known of each node, by index.
pub(crate) struct Analysis {
    /// Left out: boilerplate, or inside boilerplate.
    pub(crate) removed: Vec<bool>,
    /// Text bytes (whitespace not counted) below the node, removed parts excluded.
    pub(crate) text_len: Vec<u32>,
    /// Of which inside links.
    pub(crate) link_len: Vec<u32>,
    /// Text bytes of the node's own lines: its text children and inline descendants.
    inline_len: Vec<u32>,
    /// Commas below the node.
    commas: Vec<u32>,
    /// Paragraph-like blocks below the node.
    paragraphs: Vec<u32>,
    /// Text bytes of the whole page, boilerplate included.
    page_text: u32,
}

impl Analysis {
    /// The share of a node's text inside links.
    pub(crate) fn link_density(&self, id: u32) -> f32 {
        let text = self.text_len[id as usize];
        if text == 0 { 0.0 } else { self.link_len[id as usize] as f32 / text as f32 }
    }
}

/// What the extraction settled on.
pub(crate) struct Selection {
    /// The nodes to render, in document order.
    pub(crate) roots: Vec<u32>,
    /// What is known of the nodes.
    pub(crate) analysis: Analysis,
}

/// How strict one attempt is.
#[derive(Clone, Copy)]
pub(crate) struct Strictness {
    /// Leave out elements by their class and id words.
    pub(crate) by_name: bool,
}

/// The length from which a paragraph counts as prose.
const PROSE_PARAGRAPH: u32 = 100;

/// The share of the page's prose an element must hold for no name to take it away.
const MOST_PROSE: f32 = 0.5;

/// The share of that prose one story inside it must hold.
const ONE_STORY: f32 = 0.8;

/// The long paragraphs' text, in bytes, of an element that is a story's body (see
/// `analyse`): a dozen paragraphs' worth of sentences, more than an author's box holds.
const STORY_PARAGRAPHS: u32 = 1500;

/// The words of a class or id: split at anything not a letter or digit, and where a lower
/// case letter or a digit meets a capital (`NewsletterModule`, `teaserRss`, `v8Modal`).
/// The hash CSS modules end a class with (`mdx-table_root__adKqa`, `layout_main__0SN51`:
/// five characters after two underscores, a capital or a digit among them) is no word.
fn words(value: &str) -> impl Iterator<Item = &str> {
    let tokens = value.split_ascii_whitespace().map(without_hash);
    tokens
        .flat_map(|token| token.split(|c: char| !c.is_ascii_alphanumeric()))
        .filter(|w| !w.is_empty())
        .flat_map(|word| {
            let bytes = word.as_bytes();
            let mut start = 0;
            let mut parts = Vec::new();
            for i in 1..bytes.len() {
                if bytes[i].is_ascii_uppercase()
                    && (bytes[i - 1].is_ascii_lowercase() || bytes[i - 1].is_ascii_digit())
                {
                    parts.push(&word[start..i]);
                    start = i;
                }
            }
            parts.push(&word[start..]);
            parts
        })
}

/// `token` without the hash CSS modules end a class with (see [`words`]).
fn without_hash(token: &str) -> &str {
    match token.rsplit_once("__") {
        Some((name, hash))
            if hash.len() == 5
                && hash.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
                && hash.bytes().any(|b| b.is_ascii_uppercase() || b.is_ascii_digit()) =>
        {
            name
        }
        _ => token,
    }
}

/// Hard negative words that also end compounds (German puts the kind of thing last:
/// `Abowerbung`, `Textanzeige`; themes write `postmetadata`).
const COMPOUND_ENDINGS: &[&str] = &["werbung", "anzeige", "anzeigen", "newsletter", "metadata"];

/// What one word of a class or id says.
#[derive(Clone, Copy, PartialEq, Eq)]
enum NameWord {
    /// Boilerplate whatever else the name says ([`HARD_NEGATIVE`], [`COMPOUND_ENDINGS`]).
    Hard,
    /// Boilerplate unless a content word is in the same name ([`SOFT_NEGATIVE`]).
    Soft,
    /// Content ([`POSITIVE`]).
    Positive,
    /// Nothing.
    Other,
}

/// For each first letter, the lengths (bit `i` for `i` bytes, 63 for longer) of the words
/// of [`HARD_NEGATIVE`], [`SOFT_NEGATIVE`] and [`POSITIVE`] that start with it: most words
/// of a page's names are in none, and are told so without a search of the lists.
static LISTED: [u64; 256] = {
    let mut table = [0u64; 256];
    let lists = [HARD_NEGATIVE, SOFT_NEGATIVE, POSITIVE];
    let mut l = 0;
    while l < lists.len() {
        let mut w = 0;
        while w < lists[l].len() {
            let bytes = lists[l][w].as_bytes();
            let len = if bytes.len() < 63 { bytes.len() } else { 63 };
            table[bytes[0] as usize] |= 1 << len;
            w += 1;
        }
        l += 1;
    }
    table
};

/// What `word` (of [`words`]) says, whatever its case.
fn name_word(word: &str) -> NameWord {
    let lower;
    let word = if word.bytes().any(|b| b.is_ascii_uppercase()) {
        lower = word.to_ascii_lowercase();
        lower.as_str()
    } else {
        word
    };
    if COMPOUND_ENDINGS.iter().any(|end| word.ends_with(end)) {
        return NameWord::Hard;
    }
    let listed =
        word.as_bytes().first().is_some_and(|&b| LISTED[usize::from(b)] & (1 << word.len().min(63)) != 0);
    if !listed {
        NameWord::Other
    } else if HARD_NEGATIVE.contains(&word) {
        NameWord::Hard
    } else if SOFT_NEGATIVE.contains(&word) {
        NameWord::Soft
    } else if POSITIVE.contains(&word) {
        NameWord::Positive
    } else {
        NameWord::Other
    }
}

/// How a class or id reads: -1 boilerplate, +1 content, 0 neither; `hard` when a hard
/// negative word is in it.
fn name_signal(doc: &Document, id: u32, targets: &LinkTargets<'_>) -> (i32, bool) {
    let (mut negative, mut hard, mut positive) = (false, false, false);
    // A place a link of the page leads to (a table of contents' `#toc_should-you-invest`)
    // is named for where it is, not for what it is: its soft words are not read. Hard ones
    // are ("Jump to comments" leads to `#comments`).
    let linked = doc.attr(id, "id").is_some_and(|value| targets.contains(value));
    // A heading's id made of its own words (`h-what-is-social-shopping`, heise's
    // `nav_nur_die_folie`) says nothing of what it is. (The heading's text is read only
    // where its id would say something.)
    let own_id = doc.attr(id, "id").filter(|value| {
        !(doc.tag(id).is_some_and(|t| t.heading_level().is_some())
            && words(value).any(|w| name_word(w) != NameWord::Other)
            && is_slug_of(value, &doc.text_content(id)))
    });
    for (value, is_id) in [(doc.attr(id, "class"), false), (own_id, true)] {
        let Some(value) = value else { continue };
        for token in value.split_ascii_whitespace() {
            // A name that lists the areas of a layout names the arrangement around the
            // story, not a part to leave out:
            // - a layout named as one (`c-layout-sidebar-left`), whatever it arranges;
            // - a grid or columns of content beside a sidebar
            //   (`foolcom-grid-toc-content-sidebar`); without the content word it is not
            //   (`related-grid` is a grid of other stories, `content-sidebar` a sidebar);
            // - a boilerplate word joined on to something else (`inline-and-sidebar-container`,
            //   `content-with-sidebar`, `has-sidebar`); one that starts with the boilerplate
            //   word is still its own (`sidebar-with-ads`, `share-and-follow`).
            let (mut token_hard, mut token_soft, mut token_positive, mut layout) =
                (false, false, false, false);
            let (mut joined, mut negative_first, mut named_layout) = (false, false, false);
            for word in words(token) {
                layout |= LAYOUT.iter().any(|l| word.eq_ignore_ascii_case(l));
                named_layout |= word.eq_ignore_ascii_case("layout");
                if JOINS.iter().any(|j| word.eq_ignore_ascii_case(j)) {
                    joined = true;
                    continue;
                }
                match name_word(word) {
                    NameWord::Hard => token_hard = true,
                    NameWord::Soft => token_soft = true,
                    NameWord::Positive => token_positive = true,
                    NameWord::Other => {}
                }
                negative_first |= !joined && (token_hard || token_soft);
            }
            let arrangement = (layout && token_positive) || named_layout || (joined && !negative_first);
            if arrangement && (token_hard || token_soft) {
                continue;
            }
            hard |= token_hard;
            negative |= token_soft && !(is_id && linked);
            positive |= token_positive;
        }
    }
    // `data-nosnippet` is how a page tells search engines what not to quote from it: its
    // author box, share and follow buttons, related stories, cookie notices. (A page may keep
    // its code out of snippets too, but a reader came for that.)
    negative |= doc.attr(id, "data-nosnippet").is_some() && !holds(doc, id, Tag::Pre);
    let signal = if hard || (negative && !positive) {
        -1
    } else if positive {
        1
    } else {
        0
    };
    (signal, hard)
}

/// Words that name the arrangement of a page's areas rather than one of them.
const LAYOUT: &[&str] = &["grid", "layout", "cols", "columns"];

/// Words that join one area of a name on to another (`inline-and-sidebar`, `has-sidebar`).
const JOINS: &[&str] = &["and", "with", "has"];

/// The ids links of a page lead to (`href="#…"`), for [`name_signal`].
pub(crate) struct LinkTargets<'a>(std::collections::HashSet<&'a str>);

impl<'a> LinkTargets<'a> {
    pub(crate) fn of(doc: &'a Document) -> Self {
        let targets = (0..doc.nodes.len() as u32)
            .filter(|&id| doc.tag(id) == Some(Tag::A))
            .filter_map(|id| doc.attr(id, "href")?.trim().strip_prefix('#'))
            .filter(|target| !target.is_empty())
            .collect();
        LinkTargets(targets)
    }

    fn contains(&self, id: &str) -> bool {
        self.0.contains(id)
    }
}

/// Whether element `id` has a `tag` element inside it.
fn holds(doc: &Document, id: u32, tag: Tag) -> bool {
    doc.children(id).any(|c| doc.tag(c).is_some_and(|t| t == tag || holds(doc, c, tag)))
}

/// Whether `value` (an id) is made of the words of `text`: half or more of its words of
/// three letters or more are words of the text.
fn is_slug_of(value: &str, text: &str) -> bool {
    let text: Vec<String> =
        text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).map(str::to_lowercase).collect();
    let words: Vec<String> = words(value).filter(|w| w.len() >= 3).map(str::to_ascii_lowercase).collect();
    let found = words.iter().filter(|w| text.contains(w)).count();
    !words.is_empty() && 2 * found >= words.len()
}

/// The name an element shares with others of its kind: the first class that carries a
/// soft boilerplate word (`listicle-card`, or `widget` of `so-panel widget
/// panel-first-child`), or where none does its id without digits (`card-1`, `card-2`);
/// empty for neither.
fn item_name(doc: &Document, id: u32) -> String {
    let soft = |class: &&str| words(class).any(|w| name_word(w) == NameWord::Soft);
    match doc.attr(id, "class").and_then(|c| c.split_ascii_whitespace().find(soft)) {
        Some(class) => format!(".{class}"),
        None => doc.attr(id, "id").unwrap_or_default().chars().filter(|c| !c.is_ascii_digit()).collect(),
    }
}

/// Whether an element is boilerplate by what it is; `text` and `page_text` are its text
/// and the page's, in bytes.
fn boilerplate_by_kind(doc: &Document, id: u32, tag: Tag, text: u32, page_text: u32) -> bool {
    use Tag::*;
    if matches!(tag, Nav | Aside | Footer | Dialog | Menu | Form | Fieldset | Label | Input | Head) {
        // A form may wrap a whole page (ASP.NET does); only small ones are boilerplate,
        // which is decided by name and density instead.
        return tag != Form;
    }
    // What a reader cannot see is not content (it goes to the injection filter instead).
    // (Unless it is the page's main part waiting for a script to fade it in.)
    if let Some(how) = super::hidden::how(doc, id) {
        return !super::hidden::fades_in(how, text as usize, page_text as usize);
    }
    if let Some(role) = doc.attr(id, "role") {
        let role = role.trim().to_ascii_lowercase();
        if matches!(
            role.as_str(),
            "navigation"
                | "menu"
                | "menubar"
                | "complementary"
                | "dialog"
                | "alertdialog"
                | "banner"
                | "contentinfo"
                | "search"
        ) {
            return true;
        }
    }
    false
}

/// Paragraph-like elements: their whole text is one block of prose.
fn is_paragraph(tag: Tag) -> bool {
    use Tag::*;
    matches!(tag, P | Pre | Td | Blockquote | Dd | Li | Figcaption)
}

fn analyse(doc: &Document, strictness: Strictness) -> Analysis {
    let targets = LinkTargets::of(doc);
    let n = doc.nodes.len();
    let mut a = Analysis {
        removed: vec![false; n],
        text_len: vec![0; n],
        link_len: vec![0; n],
        inline_len: vec![0; n],
        commas: vec![0; n],
        paragraphs: vec![0; n],
        page_text: 0,
    };
    // Raw text sizes, and where the headings are, bottom-up (children come after parents).
    let mut raw = vec![0u32; n];
    let mut has_h1 = vec![false; n];
    // Long paragraphs: `<p>`s, and on a page that writes its paragraphs as `<div>`s holding
    // no block of their own (`<div>Yes, it is. If it was easy…</div>`, as some editors
    // do), those: where such `<div>`s hold more long text than the `<p>`s do. On other pages
    // a long `<div>` of its own lines is an offer's small print or a card, not the story.
    let mut paragraph = vec![false; n];
    let mut holds_block = vec![false; n];
    let (mut p_text, mut div_text) = (0u32, 0u32);
    for id in (1..n).rev() {
        let node = &doc.nodes[id];
        match &node.kind {
            Kind::Text(_) => raw[id] = count_text(doc.text_of(id as u32)),
            Kind::Element { tag: Tag::H1, .. } => has_h1[id] = true,
            Kind::Element { tag: Tag::P, .. } if raw[id] >= PROSE_PARAGRAPH => {
                paragraph[id] = true;
                p_text += raw[id];
            }
            Kind::Element { tag: Tag::Div, .. } if raw[id] >= PROSE_PARAGRAPH && !holds_block[id] => {
                div_text += raw[id];
            }
            _ => {}
        }
        // (A block inside an inline wrapper, `<span><div>…</div></span>`, is held too.)
        if let Kind::Element { tag, .. } = node.kind
            && ((!is_inline(tag) && raw[id] > 0) || holds_block[id])
        {
            holds_block[node.parent as usize] = true;
        }
        let parent = node.parent as usize;
        raw[parent] += raw[id];
        has_h1[parent] |= has_h1[id];
    }
    let div_paragraphs = div_text > p_text && div_text >= STORY_PARAGRAPHS;
    // The page's prose, wherever it sits; and the most of it one element that calls itself
    // the story (`<article>`, `<main>`, a content name) holds.
    let mut prose = vec![0u32; n];
    let mut story = vec![0u32; n];
    for id in (1..n).rev() {
        let node = &doc.nodes[id];
        if paragraph[id]
            || (div_paragraphs
                && doc.tag(id as u32) == Some(Tag::Div)
                && raw[id] >= PROSE_PARAGRAPH
                && !holds_block[id])
        {
            prose[id] = raw[id];
        }
        if prose[id] > story[id]
            && let Kind::Element { tag, .. } = node.kind
            && (matches!(tag, Tag::Article | Tag::Main) || name_signal(doc, id as u32, &targets).0 > 0)
        {
            story[id] = prose[id];
        }
        let parent = node.parent as usize;
        prose[parent] += prose[id];
        story[parent] = story[parent].max(story[id]);
    }
    a.page_text = raw[0];
    let page_text = a.page_text.max(1);
    let page_prose = prose[0];
    // The prose the elements of each name hold across the page (see `item_name`): the
    // items of a listicle (`listicle-card`, `card-1`), or the sections of a story a page
    // builder lays out one module each (HubSpot's `widget-span`, in a row of its own per
    // section). An element inside one of the same name is counted with it.
    let mut runs: std::collections::HashMap<String, u32> = std::collections::HashMap::new();
    if page_prose > 0 {
        // One walk in document order (parents first) over the elements that hold prose
        // (their ancestors do too), with the chain of those open above the current one and
        // how many of each name it holds.
        let mut open: Vec<(u32, String)> = Vec::new();
        let mut active: std::collections::HashMap<String, u32> = std::collections::HashMap::new();
        for id in 1..n as u32 {
            if prose[id as usize] == 0 || doc.tag(id).is_none() {
                continue;
            }
            let parent = doc.node(id).parent;
            while let Some((top, _)) = open.last()
                && *top != parent
            {
                if let Some((_, key)) = open.pop()
                    && !key.is_empty()
                    && let Some(count) = active.get_mut(&key)
                {
                    *count -= 1;
                }
            }
            let key = item_name(doc, id);
            if !key.is_empty() {
                let count = active.entry(key.clone()).or_insert(0);
                if *count == 0 {
                    *runs.entry(key.clone()).or_insert(0) += prose[id as usize];
                }
                *count += 1;
            }
            open.push((id, key));
        }
    }
    // Such items and what is inside them: their parts are named after them
    // (`c-product-widget__product`), and only a hard name takes one away.
    let mut in_item = vec![false; n];
    // The prose of the nearest ancestor of `id` that calls itself the story (`<article>`,
    // `<main>`, a content name), or 0; asked only of the few elements it can keep. Those
    // hold over half the page's prose, so they stand on one chain of ancestors, and the
    // tree is at most `MAX_DEPTH` deep: the walks stay bounded whatever the page.
    let story_above = |id: u32| {
        let mut ancestor = doc.node(id).parent;
        while ancestor != Document::ROOT && ancestor != NONE {
            let calls_story = prose[ancestor as usize] > 0
                && (matches!(doc.tag(ancestor), Some(Tag::Article | Tag::Main))
                    || name_signal(doc, ancestor, &targets).0 > 0);
            if calls_story {
                return prose[ancestor as usize];
            }
            ancestor = doc.node(ancestor).parent;
        }
        0
    };
    // Boilerplate, top-down.
    for id in 1..n {
        let node = &doc.nodes[id];
        if a.removed[node.parent as usize] {
            a.removed[id] = true;
            continue;
        }
        in_item[id] = in_item[node.parent as usize];
        let Kind::Element { tag, .. } = node.kind else { continue };
        if matches!(tag, Tag::Html | Tag::Body) {
            continue;
        }
        let mut out = boilerplate_by_kind(doc, id as u32, tag, raw[id], a.page_text);
        // Words inside a sentence are read with it, whatever their element is called
        // (`<p><span class=dateline>KOBE –</span> A total of …`).
        let in_sentence =
            is_inline(tag) && doc.tag(node.parent) == Some(Tag::P) && raw[node.parent as usize] > raw[id];
        if !out && strictness.by_name && !in_sentence {
            let (signal, hard) = name_signal(doc, id as u32, &targets);
            // Never take away the page's heading or most of its text by name alone, nor most
            // of its prose: a soft name (`teaserTyp3` around a news item) never, a hard one
            // only when that prose is several stories (`cb-sidebar-right` names the layout of
            // the wrapper an `<article>` is in; `related-posts` holds several).
            // The body of an element that calls itself the story is the story too, whatever
            // its own name says (HubSpot's `hs_cos_wrapper_meta_field` inside `entry-content`).
            let holds_page = has_h1[id]
                || (raw[id] as f32) > 0.66 * page_text as f32
                || (page_prose > 0
                    && (prose[id] as f32) > MOST_PROSE * page_prose as f32
                    && (!hard
                        || (story[id] as f32) >= ONE_STORY * prose[id] as f32
                        || (prose[id] >= STORY_PARAGRAPHS && {
                            let above = story_above(id as u32);
                            above > 0 && (prose[id] as f32) >= ONE_STORY * above as f32
                        })));
            // A soft name does not take away a heading either: ids made from a heading's
            // words (`nav_nur_die_folie`) say nothing of what it is.
            out = signal < 0
                && !holds_page
                && (hard
                    || !(in_item[id]
                        || matches!(tag, Tag::Main | Tag::Article)
                        || tag.heading_level().is_some()));
            // Nor most of the prose held by elements of one name, wherever they stand: the
            // items of a listicle (`listicle-card`, `card-1`, `card-2`) or the sections of a
            // story laid out one module each are the story, one by one.
            if out && !hard && page_prose > 0 && prose[id] > 0 {
                let key = item_name(doc, id as u32);
                if !key.is_empty() {
                    let run = runs.get(&key).copied().unwrap_or(0);
                    out = (run as f32) <= MOST_PROSE * page_prose as f32;
                    in_item[id] = !out;
                }
            }
        }
        a.removed[id] = out;
    }
    // Sizes without boilerplate, bottom-up.
    for id in (1..n).rev() {
        if a.removed[id] {
            continue;
        }
        let node = &doc.nodes[id];
        let parent = node.parent as usize;
        match &node.kind {
            Kind::Text(_) => {
                let text = doc.text_of(id as u32);
                a.text_len[id] = raw[id];
                a.inline_len[id] = raw[id];
                a.commas[id] = text.bytes().filter(|&b| b == b',').count() as u32
                    + text.matches(['，', '、', '،']).count() as u32;
                if doc.tag(parent as u32) == Some(Tag::A) {
                    a.link_len[id] = raw[id];
                }
            }
            Kind::Element { tag, .. } => {
                if *tag == Tag::A {
                    a.link_len[id] = a.text_len[id];
                }
                if is_paragraph(*tag) && a.text_len[id] >= 25 {
                    a.paragraphs[id] += 1;
                }
            }
            Kind::Document => {}
        }
        let inline = match &node.kind {
            Kind::Text(_) => true,
            Kind::Element { tag, .. } => is_inline(*tag),
            Kind::Document => false,
        };
        let (text, link, commas, paragraphs, own) =
            (a.text_len[id], a.link_len[id], a.commas[id], a.paragraphs[id], a.inline_len[id]);
        a.text_len[parent] += text;
        a.link_len[parent] += link;
        a.commas[parent] += commas;
        a.paragraphs[parent] += paragraphs;
        if inline {
            a.inline_len[parent] += own;
        }
    }
    a
}

/// Text bytes that are not whitespace.
fn count_text(text: &str) -> u32 {
    text.bytes().filter(|b| !b.is_ascii_whitespace()).count() as u32
}

fn base_score(tag: Tag) -> f32 {
    use Tag::*;
    match tag {
        Div | Article | Main | Section => 5.0,
        Pre | Td | Blockquote => 3.0,
        Address | Ol | Ul | Dl | Dd | Dt | Li | Form => -3.0,
        H1 | H2 | H3 | H4 | H5 | H6 | Th => -5.0,
        _ => 0.0,
    }
}

/// The most text (bytes, whitespace not counted) a link's face holds for the blocks inside
/// it to be read as a teaser of another page rather than prose of this one.
const CARD_FACE: u32 = 1000;

/// Selects the main content of `doc`; `None` when no block of prose was found.
pub(crate) fn select(doc: &Document, strictness: Strictness) -> Option<Selection> {
    let analysis = analyse(doc, strictness);
    let targets = LinkTargets::of(doc);
    let n = doc.nodes.len();
    let mut score = vec![f32::NAN; n];
    let mut prose = vec![0u32; n];
    let mut blocks = vec![0u32; n];
    let init = |score: &mut Vec<f32>, id: u32| {
        let i = id as usize;
        if score[i].is_nan() {
            let tag = doc.tag(id).unwrap_or(Tag::Other);
            score[i] = base_score(tag) + 25.0 * name_signal(doc, id, &targets).0 as f32;
        }
    };
    // Inside a link: a card whose whole face links to another page (`<a><div><h3>…</h3>
    // <div>teaser</div></div></a>`) holds that page's teaser, however it reads. A card's
    // face is short: an `<a>` holding more (one left open in broken markup, which then
    // holds the rest of the page) says nothing of its text. (Parents come before their
    // children.)
    let mut in_link = vec![false; n];
    for id in 1..n as u32 {
        let parent = doc.node(id).parent;
        in_link[id as usize] = in_link[parent as usize]
            || (doc.tag(parent) == Some(Tag::A) && analysis.text_len[parent as usize] <= CARD_FACE);
    }
    for id in 1..n as u32 {
        let i = id as usize;
        let Some(tag) = doc.tag(id) else { continue };
        if analysis.removed[i] || is_inline(tag) || in_link[i] {
            continue;
        }
        // A paragraph-like element scores with all its text, unless it holds blocks of its
        // own (a `<p>` in a `<li>`, a page laid out in a `<td>`): then, like any other
        // block, only with its own lines, and the inner blocks score for themselves.
        let paragraph = is_paragraph(tag) && !has_block_child(doc, &analysis, id);
        let length = if paragraph { analysis.text_len[i] } else { analysis.inline_len[i] };
        if length < 25 || analysis.link_density(id) > 0.5 {
            continue;
        }
        // Prose mass: every ancestor holds this block's text.
        let mut holder = doc.node(id).parent;
        prose[i] += length;
        blocks[i] += 1;
        while holder != Document::ROOT && holder != NONE {
            prose[holder as usize] += length;
            blocks[holder as usize] += 1;
            holder = doc.node(holder).parent;
        }
        let commas = if paragraph { analysis.commas[i] } else { own_commas(doc, id) };
        let mut points = 1.0 + commas as f32 + (length as f32 / 100.0).min(3.0);
        // A list item is half a paragraph: lists of references, links and facts are full
        // of commas without being the story.
        if tag == Tag::Li {
            points *= 0.5;
        }
        // A block with its own lines that is not a paragraph tag scores itself too.
        let mut ancestor = if paragraph { doc.node(id).parent } else { id };
        for level in 0..5 {
            if ancestor == Document::ROOT || ancestor == NONE {
                break;
            }
            init(&mut score, ancestor);
            let divider = match level {
                0 => 1.0,
                1 => 2.0,
                _ => level as f32 * 3.0,
            };
            score[ancestor as usize] += points / divider;
            ancestor = doc.node(ancestor).parent;
        }
    }
    // Scale by link density and pick the best.
    let mut best: Option<(u32, f32)> = None;
    for id in 1..n as u32 {
        let s = score[id as usize];
        if s.is_nan() {
            continue;
        }
        let s = s * (1.0 - analysis.link_density(id));
        score[id as usize] = s;
        if best.is_none_or(|(_, b)| s > b) {
            best = Some((id, s));
        }
    }
    let (mut top, mut top_score) = best?;
    // Widen to the parent while it holds comparable prose: content split into sections,
    // or a story whose paragraphs sit in several wrappers.
    let mut last = top_score;
    let mut parent = doc.node(top).parent;
    while parent != Document::ROOT && parent != NONE && doc.tag(parent) != Some(Tag::Body) {
        let s = score[parent as usize];
        if s.is_nan() {
            parent = doc.node(parent).parent;
            continue;
        }
        if s < last / 3.0 {
            break;
        }
        if s > last {
            top = parent;
            top_score = s;
            break;
        }
        last = s;
        parent = doc.node(parent).parent;
    }
    // Widen to the parent while it holds substantially more prose of the same kind: long
    // blocks, few links (a list of features with a paragraph each, a story whose best
    // scoring part was a box inside it).
    loop {
        let parent = doc.node(top).parent;
        if parent == Document::ROOT || parent == NONE || doc.tag(parent) == Some(Tag::Body) {
            break;
        }
        let (p, t) = (parent as usize, top as usize);
        let extra = prose[p].saturating_sub(prose[t]);
        let extra_blocks = blocks[p].saturating_sub(blocks[t]).max(1);
        let extra_text = analysis.text_len[p].saturating_sub(analysis.text_len[t]);
        let extra_links = analysis.link_len[p].saturating_sub(analysis.link_len[t]);
        let substantial = extra as f32 >= 0.3 * prose[t] as f32 && extra / extra_blocks >= 60;
        let readable = extra_text > 0 && (extra_links as f32) < 0.33 * extra_text as f32;
        if !(substantial && readable) {
            break;
        }
        top = parent;
        if !score[p].is_nan() {
            top_score = top_score.max(score[p]);
        }
    }
    // The story may be one of several wrappers built alike (its steps, its sections, a
    // wrapper per paragraph): the nearest of the top's ancestors (up to three levels) that
    // has siblings built like it, holding prose, stands for the story, and they join it.
    let same_build = |a: u32, b: u32| {
        let class = doc.attr(a, "class").unwrap_or("");
        !class.is_empty()
            && a != b
            && doc.tag(a) == doc.tag(b)
            && doc.attr(b, "class") == Some(class)
            && !analysis.removed[b as usize]
            && prose[b as usize] >= 25
            && analysis.link_density(b) < 0.25
    };
    let mut climb = top;
    let mut built_alike = false;
    for _ in 0..=3 {
        let parent = block_parent(doc, climb);
        if parent == Document::ROOT || parent == NONE || doc.tag(parent) == Some(Tag::Body) {
            break;
        }
        if level_blocks(doc, parent, climb).into_iter().any(|sibling| same_build(climb, sibling)) {
            top = climb;
            built_alike = true;
            break;
        }
        climb = parent;
    }
    // A lone child is its parent's content (unless the story is one of its wrappers).
    loop {
        let parent = doc.node(top).parent;
        if built_alike || parent == Document::ROOT || doc.tag(parent) == Some(Tag::Body) {
            break;
        }
        let kept_children = doc
            .children(parent)
            .filter(|&c| !analysis.removed[c as usize])
            .filter(|&c| analysis.text_len[c as usize] > 0)
            .count();
        if kept_children != 1 {
            break;
        }
        top = parent;
    }
    // Join siblings that read like more of the same story.
    let parent = block_parent(doc, top);
    let threshold = (top_score * 0.2).max(10.0);
    let top_class = doc.attr(top, "class").unwrap_or("");
    let mut roots = Vec::new();
    for sibling in level_blocks(doc, parent, top) {
        if sibling == top {
            roots.push(sibling);
            continue;
        }
        let i = sibling as usize;
        if analysis.removed[i] || doc.tag(sibling).is_none() {
            continue;
        }
        let mut s = score[i];
        if !s.is_nan() && !top_class.is_empty() && doc.attr(sibling, "class") == Some(top_class) {
            s += top_score * 0.2;
        }
        let joins = if same_build(top, sibling) || (!s.is_nan() && s >= threshold) {
            true
        } else if doc.tag(sibling) == Some(Tag::P) {
            let length = analysis.text_len[i];
            let density = analysis.link_density(sibling);
            (length > 80 && density < 0.25)
                || (length > 0 && density == 0.0 && {
                    let text = doc.text_content(sibling);
                    text.ends_with('.') || text.contains(". ")
                })
        } else {
            // A wrapper of plain prose before the story: its lead, its introduction (a
            // paragraph or three; not the page's header, not a playlist of teasers).
            let text = analysis.text_len[i];
            let plain_prose = doc.tag(sibling) != Some(Tag::Header)
                && prose[i] >= PROSE_PARAGRAPH
                && prose[i] as f32 >= 0.8 * text as f32
                && analysis.link_density(sibling) < 0.1;
            // After it, a wrapper of as much plain prose: the rest of a story laid out in
            // columns or parts.
            plain_prose
                && if roots.is_empty() {
                    blocks[i] <= 3
                } else {
                    prose[i] as f32 >= 0.2 * prose[top as usize] as f32
                }
        };
        if joins {
            roots.push(sibling);
        }
    }
    // What sits between two parts of the story and reads like prose interrupts it (a
    // summary, a pull quote between sections) and belongs to it.
    if let (Some(&first), Some(&last)) = (roots.first(), roots.last()) {
        let level = level_blocks(doc, parent, top);
        if let (Some(from), Some(to)) =
            (level.iter().position(|&b| b == first), level.iter().position(|&b| b == last))
        {
            // `roots` is in the order of `level`: one pass over both.
            let mut joined = roots.iter().peekable();
            roots = level[from..=to]
                .iter()
                .copied()
                .filter(|&b| {
                    let i = b as usize;
                    joined.next_if_eq(&&b).is_some()
                        || (!analysis.removed[i]
                            && doc.tag(b).is_some()
                            && prose[i] > 0
                            && analysis.link_density(b) < 0.25)
                })
                .collect();
        }
    }
    let roots = whole_page_if_scattered(doc, &analysis, roots);
    Some(Selection { roots, analysis })
}

/// The share of the text of the page's main part (or of its body) below which a selection
/// is too little of it (see [`whole_page_if_scattered`]).
const SCATTERED_SHARE: f32 = 0.3;

/// The most of the main part's text that may be links for it to stand as the content.
const SCATTERED_LINKS: f32 = 0.3;

/// A page of many short blocks — a product's or a service's page, a landing page, a
/// forum thread — has no one block of prose that is its story, and the best-scoring
/// block is a small part of it. Where the selection holds less than [`SCATTERED_SHARE`]
/// of the text of the page's main part (`<main>` or `role=main`, else its body, without
/// boilerplate) and that part is not mostly links, the main part is the content.
fn whole_page_if_scattered(doc: &Document, analysis: &Analysis, roots: Vec<u32>) -> Vec<u32> {
    let main = (1..doc.nodes.len() as u32)
        .find(|&id| {
            doc.tag(id) == Some(Tag::Main)
                || doc.attr(id, "role").is_some_and(|r| r.trim().eq_ignore_ascii_case("main"))
        })
        .or_else(|| doc.find(Tag::Body));
    let Some(main) = main.filter(|&m| !analysis.removed[m as usize]) else { return roots };
    let inside = |mut node: u32| {
        while node != Document::ROOT && node != NONE {
            if node == main {
                return true;
            }
            node = doc.node(node).parent;
        }
        false
    };
    let chosen: u32 = roots.iter().filter(|&&r| inside(r)).map(|&r| analysis.text_len[r as usize]).sum();
    let whole = analysis.text_len[main as usize];
    if (chosen as f32) < SCATTERED_SHARE * whole as f32 && analysis.link_density(main) < SCATTERED_LINKS {
        vec![main]
    } else {
        roots
    }
}

/// The parent of `node`, above any inline wrappers (up to three) it sits in.
fn block_parent(doc: &Document, node: u32) -> u32 {
    let mut parent = doc.node(node).parent;
    for _ in 0..3 {
        match doc.tag(parent) {
            Some(tag) if is_inline(tag) && tag != Tag::A && parent != Document::ROOT => {
                parent = doc.node(parent).parent;
            }
            _ => break,
        }
    }
    parent
}

/// The children of `parent`, with an inline wrapper (a `<span>` around a block, as pages
/// write them) replaced by its children, up to three wrappers deep; `keep` is never
/// looked into.
fn level_blocks(doc: &Document, parent: u32, keep: u32) -> Vec<u32> {
    fn walk(doc: &Document, node: u32, keep: u32, depth: u32, out: &mut Vec<u32>) {
        for child in doc.children(node) {
            match doc.tag(child) {
                Some(tag) if child != keep && depth < 3 && is_inline(tag) && tag != Tag::A => {
                    walk(doc, child, keep, depth + 1, out);
                }
                _ => out.push(child),
            }
        }
    }
    let mut out = Vec::new();
    walk(doc, parent, keep, 0, &mut out);
    out
}

fn has_block_child(doc: &Document, analysis: &Analysis, id: u32) -> bool {
    doc.children(id).any(|c| {
        doc.tag(c).is_some_and(|t| !is_inline(t))
            && !analysis.removed[c as usize]
            && analysis.text_len[c as usize] >= 25
    })
}

/// Commas in the node's own lines.
fn own_commas(doc: &Document, id: u32) -> u32 {
    doc.children(id)
        .map(|c| match doc.tag(c) {
            None => doc.text_of(c).bytes().filter(|&b| b == b',').count() as u32,
            Some(tag) if is_inline(tag) => own_commas(doc, c),
            Some(_) => 0,
        })
        .sum()
}

/// Whether a block inside the selected content is left out when rendered: mostly links
/// (unless a list of them [`names_things`]), or nothing but chrome.
pub(crate) fn drop_inside(doc: &Document, analysis: &Analysis, id: u32, tag: Tag) -> bool {
    use Tag::*;
    let i = id as usize;
    if analysis.removed[i] {
        return true;
    }
    // A caption belongs to its picture, a credit to its owner: neither is the story.
    if tag == Figcaption {
        return true;
    }
    // A short paragraph that is mostly one link points elsewhere ("Read also: …") — on a
    // page of some length; a small document's pointers are part of what it says.
    if tag == P {
        let text = analysis.text_len[i];
        let page = analysis.page_text;
        return page >= 2000 && text > 0 && text < 250 && analysis.link_density(id) > 0.6;
    }
    if !matches!(
        tag,
        Div | Section | Ul | Ol | Dl | Table | Header | Footer | Figure | Span | Other | Center | Font
    ) {
        return false;
    }
    let text = analysis.text_len[i];
    let density = analysis.link_density(id);
    if text == 0 {
        // Nothing to read; images are kept when they say what they show.
        return !has_described_image(doc, id);
    }
    if matches!(tag, Span | Font) {
        return false;
    }
    if density > 0.5 {
        return !(matches!(tag, Ul | Ol) && names_things(doc, analysis, id));
    }
    let list = matches!(tag, Ul | Ol | Dl);
    !list
        && !matches!(tag, Table)
        && density > 0.25
        && analysis.paragraphs[i] == 0
        && analysis.commas[i] < 3
        && text < 200
}

/// The shortest link text, on average over a list's items, of a list whose links name
/// things in sentences (bugs fixed, works listed) rather than places to go.
const NAMING_ITEM: u32 = 40;

/// The longest label ("Read also:", "Más información:") that introduces a list of pointers.
const LABEL: usize = 40;

/// Whether a list of links inside the story names things: its items' links read as
/// titles or sentences, as long as [`NAMING_ITEM`] on average (a menu's are a word or two),
/// and no short label ending in a colon introduces it ("More information:" before other
/// stories' titles).
fn names_things(doc: &Document, analysis: &Analysis, id: u32) -> bool {
    let items = doc.children(id).filter(|&c| doc.tag(c) == Some(Tag::Li)).count() as u32;
    if items < 2 || analysis.link_len[id as usize] < NAMING_ITEM * items {
        return false;
    }
    // What comes right before the list, text or element with text.
    let mut before = None;
    for c in doc.children(doc.node(id).parent) {
        if c == id {
            break;
        }
        let said = match doc.tag(c) {
            Some(_) => analysis.text_len[c as usize] > 0,
            None => !doc.text_of(c).trim().is_empty(),
        };
        if said {
            before = Some(c);
        }
    }
    let Some(before) =
        before.filter(|&c| analysis.text_len[c as usize] as usize <= LABEL || doc.tag(c).is_none())
    else {
        return true;
    };
    let label = doc.text_content(before);
    let label = label.trim();
    !(label.ends_with(':') && label.len() <= LABEL)
}

fn has_described_image(doc: &Document, id: u32) -> bool {
    doc.children(id).any(|c| match doc.tag(c) {
        Some(Tag::Img) => doc.attr(c, "alt").is_some_and(|a| !a.trim().is_empty()),
        Some(_) => has_described_image(doc, c),
        None => false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn selected_text(html: &str) -> String {
        let doc = Document::parse(html);
        let selection = select(&doc, Strictness { by_name: true }).expect("content");
        let base = url::Url::parse("https://x.example/").unwrap();
        super::super::markdown::render(&doc, Some(&selection.analysis), &selection.roots, &base)
    }

    const PROSE: &str = "Rivers carve valleys through a slow process of erosion, and the work takes millions of years, which is why the landscapes we see today look finished.";

    #[test]
    fn a_list_of_links_that_names_things_is_part_of_the_story() {
        let item = |n: usize| {
            format!(
                "<li><a href=/bug/{n}>Bug {n} – the password manager forgets a login on a second visit</a></li>"
            )
        };
        let bugs: String = (1..=3).map(item).collect();
        let html = format!(
            "<body><article><p>{PROSE}</p><h4>Fixed this week</h4><ul>{bugs}</ul><p>{PROSE}</p>\
             <p><b>More information:</b></p><ul>{}</ul>\
             <ul><li><a href=/a>Home</a></li><li><a href=/b>News</a></li><li><a href=/c>Sport</a></li></ul>{}</article></body>",
            (4..=6).map(item).collect::<String>(),
            format!("<p>{PROSE}</p>").repeat(6)
        );
        let text = selected_text(&html);
        for kept in ["Bug 1 ", "Bug 3 "] {
            assert!(text.contains(kept), "{kept} not in {text}");
        }
        for gone in ["Bug 4 ", "Bug 6 ", "Home", "Sport"] {
            assert!(!text.contains(gone), "{gone} in {text}");
        }
    }

    #[test]
    fn captions_pointers_and_lists_of_other_stories_are_not_the_story() {
        let html = format!(
            "<body><article><p>{PROSE}</p>\
             <figure><img src=a.jpg alt=\"A valley\"><figcaption>The valley at dawn. Photo: Jane Roe</figcaption></figure>\
             <figure><img src=b.jpg alt=\"A delta\"><span class=description>Delta at noon. Credit: Agency</span></figure>\
             <figure><blockquote>A quotation kept whole.</blockquote><figcaption>Someone</figcaption></figure>\
             <p>{PROSE}</p><p><b>Read also:</b> <a href=/other>How deltas grow at the mouths of rivers</a></p>\
             <p>{PROSE} <a href=/x>A link</a> inside prose stays.</p>\
             <section class=\"c-article-most-popular\"><h2>Most popular</h2><p>{PROSE}</p></section>\
             {}</article></body>",
            format!("<p>{PROSE}</p>").repeat(20)
        );
        let text = selected_text(&html);
        assert_eq!(text.matches("Rivers carve").count(), 23, "{text}");
        assert!(text.contains("![A valley]") && text.contains("inside prose stays"), "{text}");
        assert!(text.contains("![A delta]") && text.contains("A quotation kept whole"), "{text}");
        for gone in ["The valley at dawn", "Delta at noon", "Read also", "deltas grow", "Most popular"] {
            assert!(!text.contains(gone), "{gone} in {text}");
        }
    }

    #[test]
    fn the_story_wins_over_chrome() {
        let html = format!(
            "<body><div class=nav><a href=/>Home</a> <a href=/a>About</a></div>\
             <div class=content><p>{PROSE}</p><p>{PROSE}</p><p>{PROSE}</p></div>\
             <div class=comments><p>{PROSE}</p></div><footer><p>{PROSE}</p></footer></body>"
        );
        let text = selected_text(&html);
        assert_eq!(text.matches("Rivers carve").count(), 3, "{text}");
        assert!(!text.contains("Home"), "{text}");
    }

    #[test]
    fn sections_of_one_story_are_kept_together() {
        let html = format!(
            "<body><article><section><h2>One</h2><p>{PROSE}</p><p>{PROSE}</p></section>\
             <section><h2>Two</h2><p>{PROSE}</p><p>{PROSE}</p></section></article><aside><p>{PROSE}</p></aside></body>"
        );
        let text = selected_text(&html);
        assert_eq!(text.matches("Rivers carve").count(), 4, "{text}");
        assert!(text.contains("One") && text.contains("Two"), "{text}");
    }

    #[test]
    fn teasers_on_the_faces_of_linked_cards_are_not_the_story() {
        // A short page beside a card of another story whose whole face is one link, its
        // teaser longer than the page's one paragraph (a government guide's front page, cut
        // down to what decides it).
        let html = r#"<body><main class="relative"> <div><div id="block-ennerdale-mainpagecontent"><div><div class="c-container pb-fl-xl bg-surface-primary-background text-surface-primary-foreground"><div class="c-layout-sidebar-left"><div class="c-layout-main" data-js-back-to-top-offset-el><div class="flex flex-col gap-fl-lg"><div><div class="grid grid-cols-12 lg:gap-x-fl-sm-lg"><div class="col-span-full"><div class="border border-l-4 border-surface-primary-keyline border-l-snippet-accent mb-fl-md mt-fl-md"><div class="px-fl-sm py-fl-md"><div class="c-wysiwyg"><p>Small organisations will find this guidance useful, but should refer to </p></div></div></div></div></div></div><div> <nav aria-label="Previous and next pages in this collection" class="flex items-center gap-fl-sm justify-between items-center border-y border-muted-light py-fl-sm"> <a href="/collection/small-business-guide/backing-your-data" class="ml-auto flex items-center justify-end gap-fl-xs text-right w-full max-w-1/2"> <span>Next page:<span class="font-semibold">Step 1 - Backing up your data</span></span></a></nav></div> </div></div></div> </div></div></div></div><div><div class="bg-surface-secondary-background md:px-fl-2xl group-[.pdf]:hidden"><div class="py-fl-lg c-container lg:max-w-2xl"><div><div class="js-view-dom-id-1743d59bc01cd0198346ff18c119e86340a0c47d8f2ffd0cc0c727e353dd6861"><div class="flex flex-col gap-fl-md"><div class="relative"> <a class="relative z-10 min-h-48 group flex bg-white text-surface-primary-foreground no-underline border border-surface-primary-keyline hover:no-underline hover:shadow-glow md:h-48" href="/news/black-friday-bargain-hunters-warned-of-enhanced-online-scams-after-millions-lost-last-year"><div class="w-full p-fl-sm"><div class="text-fl-sm line-clamp-2 c-wysiwyg"> Latest Cyber Aware campaign aims to help shoppers protect themselves online in the run up to the festive period.</div></div> </a></div></div></div></div></div></div></div> </main></body>"#;
        let text = selected_text(html);
        assert!(text.contains("Small organisations"), "{text}");
        assert!(!text.contains("Cyber Aware"), "{text}");
        // A link left open in broken markup holds the rest of the page: its text is the
        // page's own.
        let more = format!("<p>More: {PROSE}</p>").repeat(8);
        let broken = format!("<body><a href=/home>Home<div><p>Story: {PROSE}</p>{more}</div></body>");
        let text = selected_text(&broken);
        assert!(text.contains("Story:") && text.contains("More:"), "{text}");
    }

    #[test]
    fn a_wrapper_named_like_boilerplate_keeps_the_page() {
        let html = format!(
            "<body><div class=\"layout has-sidebar\"><h1>Title</h1><p>{PROSE}</p><p>{PROSE}</p></div></body>"
        );
        let text = selected_text(&html);
        assert_eq!(text.matches("Rivers carve").count(), 2, "{text}");
    }

    #[test]
    fn a_name_listing_a_layouts_areas_keeps_the_story() {
        // Most of the page's prose is elsewhere (a long legal notice), so only the name
        // decides: a grid of content beside a sidebar is the story's arrangement.
        let legal = format!("<div class=legal>{}</div>", format!("<p>Legal notice: {PROSE}</p>").repeat(6));
        let story = format!("<p>Story: {PROSE}</p>").repeat(3);
        for (class, kept) in [
            ("foolcom-grid-toc-content-sidebar", true),
            ("content-sidebar", false),
            ("related-grid", false),
            ("inline-and-sidebar-container", true),
            ("contentWithSidebar", true),
            ("has-sidebar", true),
            ("sidebar-with-ads", false),
            ("share-and-follow", false),
            ("c-layout-sidebar-left", true),
            ("sidebar-cols", false),
        ] {
            let html = format!(
                "<body><h1>Title</h1><div class=\"{class}\"><div class=prose>{story}</div></div>{legal}</body>"
            );
            let text = selected_text(&html);
            assert_eq!(text.contains("Story:"), kept, "{class}: {text}");
        }
    }

    #[test]
    fn a_panel_that_slides_in_is_not_the_story() {
        // An off-canvas panel or a drawer (a menu, a cart, contact details that slide in
        // over the page), wherever it sits.
        let html = format!(
            "<body><article><p>Story: {PROSE}</p><div class=offcanvas-panel><p>Our shop: opening hours, \
             delivery areas and the phone number of the store in town.</p></div><p>Story, again: {PROSE}</p>\
             <div class=\"cart-drawer\"><p>Your cart is empty, add products from the shop to see them here.</p>\
             </div></article></body>"
        );
        let text = selected_text(&html);
        assert!(text.contains("Story, again:"), "{text}");
        assert!(!text.contains("Our shop") && !text.contains("cart is empty"), "{text}");
    }

    #[test]
    fn a_place_a_link_leads_to_is_named_for_where_it_is() {
        // A table of contents leads to its sections (`toc_…`): their soft words are not read.
        let html = format!(
            "<body><div class=toc><a href=\"#toc_why\">Why</a> <a href=\"#comments\">Comments</a></div>\
             <div class=story><p>First: {PROSE}</p><div id=toc_why><h2>Why</h2><p>Second: {PROSE}</p></div>\
             <p>Third: {PROSE}</p></div><div id=comments><p>Reader: {PROSE}</p></div></body>"
        );
        let text = selected_text(&html);
        assert!(text.contains("Second:") && text.contains("Third:"), "{text}");
        // A hard word still counts where a link leads ("Jump to comments").
        assert!(!text.contains("Reader:"), "{text}");
    }

    #[test]
    fn the_body_of_a_story_keeps_a_name_a_cms_gave_it() {
        // HubSpot wraps a post's body in `hs_cos_wrapper_meta_field` inside `entry-content`;
        // a mega menu holds more of the page's text than the story.
        let item =
            "<li><a href=/a>Screening</a> Enterprise-grade screening for every stage of the lifecycle</li>";
        let html = format!(
            "<body><nav><ul>{}</ul></nav><div class=entry-content>\
             <span class=\"hs_cos_wrapper_meta_field\">{}</span></div>\
             <footer><p>Elliptic Enterprises Limited, registered in England and Wales.</p></footer></body>",
            item.repeat(40),
            format!("<p>{PROSE}</p>").repeat(14),
        );
        let text = selected_text(&html);
        assert_eq!(text.matches("Rivers carve").count(), 14, "{text}");
        // A box of the author's inside a wrapper named for content is no story's body.
        let html = format!(
            "<body><div class=content><div>{}</div><div class=about-author><p>About the author: {PROSE}</p></div></div></body>",
            "<div>A line of the story in a block of its own, as some editors write them.</div>".repeat(10),
        );
        let text = selected_text(&html);
        assert!(text.contains("A line of the story") && !text.contains("About the author"), "{text}");
    }

    #[test]
    fn a_flyout_is_no_part_of_the_story() {
        // MSN's form for reporting a comment opens as a flyout inside the story's wrapper.
        let html = format!(
            "<body><div class=story><p>{PROSE}</p><p>{PROSE}</p><div id=mod-flyout>\
             <h2>Report inappropriate content</h2><p>Help us maintain a healthy and vibrant \
             community by reporting any behaviour that violates our code of conduct.</p></div></div></body>"
        );
        let text = selected_text(&html);
        assert_eq!(text.matches("Rivers carve").count(), 2, "{text}");
        assert!(!text.contains("Report inappropriate"), "{text}");
    }

    #[test]
    fn paragraphs_written_as_divs_are_the_story() {
        // An editor that writes each paragraph as a `<div>` of its own lines, inside a
        // wrapper the CMS names `meta_field`, beside menus that hold more of the page's text.
        let item = "<li><a href=/a>Meet the team</a> Admissions advice for every grade</li>";
        let html = format!(
            "<body><div class=header><ul>{}</ul></div><div class=blog-post><div class=\"section post-body\">\
             <span class=\"hs_cos_wrapper_meta_field\">{}</span></div></div>\
             <div class=footer-columns><ul>{}</ul></div></body>",
            item.repeat(30),
            format!("<div>{PROSE}</div><div>&nbsp;</div>").repeat(13),
            item.repeat(30),
        );
        let text = selected_text(&html);
        assert_eq!(text.matches("Rivers carve").count(), 13, "{text}");
        assert!(!text.contains("Meet the team"), "{text}");
    }

    #[test]
    fn a_layout_name_does_not_take_away_the_story() {
        // The story's wrapper is named for the sidebar beside it; the heading sits outside.
        let html = format!(
            "<body><header><h1>Title</h1></header><div class=\"post-wrap cb-sidebar-right\">\
             <article><p>{PROSE}</p><p>{PROSE}</p></article></div>\
             <div class=sidebar><p>Other stories, tags and a calendar of events in the region.</p></div>{}</body>",
            "<div class=menu><a href=/a>Link</a> <a href=/b>Another link</a> <a href=/c>A third link here</a></div>".repeat(8)
        );
        let text = selected_text(&html);
        assert_eq!(text.matches("Rivers carve").count(), 2, "{text}");
        assert!(!text.contains("calendar"), "{text}");
        // Related stories with long teasers hold more prose than a story of short lines,
        // but they are several stories: their name takes them away.
        let teaser = format!("<article class=post><p>Teaser: {PROSE}</p></article>");
        let html = format!(
            "<body><div class=x>{}</div><div id=related_posts>{}</div></body>",
            "<p>A short line of the story, as people write them.</p>".repeat(10),
            teaser.repeat(4)
        );
        let text = selected_text(&html);
        assert!(text.contains("A short line") && !text.contains("Teaser"), "{text}");
    }

    #[test]
    fn a_page_of_short_blocks_is_read_whole() {
        // A landing page: a line of prose with commas, then sections of short lines; none of
        // them is the story, all of them together are.
        let sections: String = ["Messaging", "Voice", "Email", "Video"]
            .iter()
            .enumerate()
            .map(|(i, name)| {
                format!(
                    "<div class=row-{i}><div class=col><h2>{name}</h2><p>Reach customers on {name} in 180 countries.</p>\
                     <ul><li>Send in bulk</li><li>Track delivery</li><li>Reply in threads</li></ul></div></div>"
                )
            })
            .collect();
        let html = format!(
            "<body><nav><a href=/a>Products</a><a href=/b>Pricing</a></nav><main>\
             <div class=hero><div class=inner><p>Build deeper relationships, at scale, with messages people trust, open, read, and answer, \
             on every channel, in every country, for every team.</p></div></div>\
             {sections}</main><footer>© 2026 Example Inc.</footer></body>"
        );
        let text = selected_text(&html);
        for line in ["Build deeper", "## Messaging", "Reach customers on Video", "Reply in threads"] {
            assert!(text.contains(line), "{line} not in {text}");
        }
        assert!(!text.contains("Pricing") && !text.contains("2026"), "{text}");
        // A story in the same main part is still read alone: it holds most of it.
        let html = format!(
            "<body><main><article><p>{PROSE}</p><p>{PROSE}</p><p>{PROSE}</p></article>\
             <div class=more><p>Reach customers on Email in 180 countries.</p></div></main></body>"
        );
        let text = selected_text(&html);
        assert!(text.contains("Rivers carve") && !text.contains("Reach customers"), "{text}");
    }

    #[test]
    fn the_items_of_a_listicle_are_the_story() {
        // Each item is called a card and holds little of the page alone; together they hold
        // most of its prose. Their parts are named after them. A card of a teaser beside
        // them still goes.
        for item in ["class=listicle-card", "id=card-{}", "class=\"so-panel widget panel-{}\""] {
            let items: String = (1..=4)
                .map(|i| {
                    let item = item.replace("{}", &i.to_string());
                    format!(
                        "<div {item}><h2>Pick {i}</h2><div class=card__product><p>{PROSE}</p></div></div>"
                    )
                })
                .collect();
            let html = format!(
                "<body><main><div class=intro><p>Our editors tested six services over a month.</p></div>{items}\
                 <div class=promo-card><p>Teaser: read our guide to the best e-readers of the year.</p></div></main></body>"
            );
            let text = selected_text(&html);
            assert_eq!(text.matches("Rivers carve").count(), 4, "{item}: {text}");
            assert!(!text.contains("Teaser"), "{item}: {text}");
        }
    }

    #[test]
    fn the_sections_of_a_story_laid_out_one_module_each_are_the_story() {
        // A page builder puts each section of the story in a module of its own, each in a
        // row of its own (HubSpot's `widget-span` in `dnd-row`s): no two are siblings, and
        // none holds much of the page alone. A widget of the same kind in the sidebar, with
        // a name of its own, still goes.
        let sections: String = (1..=4)
            .map(|i| {
                format!(
                    "<div class=\"row-fluid-wrapper row-number-{i}\"><div class=row-fluid>\
                     <div class=\"span12 widget-span widget-type-cell\"><h2>Part {i}</h2><p>{PROSE}</p></div>\
                     </div></div>"
                )
            })
            .collect();
        let html = format!(
            "<body><main><div class=pillar-content>{sections}</div>\
             <div class=\"sidebar-widget\"><p>Subscribe to the newsletter for a weekly digest of our best guides.</p></div>\
             </main></body>"
        );
        let text = selected_text(&html);
        assert_eq!(text.matches("Rivers carve").count(), 4, "{text}");
        assert!(!text.contains("Subscribe"), "{text}");
    }

    #[test]
    fn names_are_read_word_by_word() {
        // Words joined in camel case or German compounds; an author box inside a box styled
        // as content; a credit under a picture.
        let html = format!(
            "<body><article class=post><p>{PROSE}</p><p>{PROSE}</p>\
             <div class=NewsletterModule><p>Sign up for our newsletter and get the news first.</p></div>\
             <div class=v8Modal><p>Details regarding your request, and when to call you.</p></div>\
             <div class=ndPLUS-Abowerbung><p>Lesen Sie weiter mit einem Abo, das sich lohnt.</p></div>\
             <section class=\"bmg-content-box bmg-author-box\"><p>Hello, I am the writer of this blog.</p></section>\
             <div class=post-image-credits>Photo: Jane Roe / Agency</div>\
             <p class=\"postmetadata alt\">This entry was posted on Wednesday in News.</p></article></body>"
        );
        let text = selected_text(&html);
        assert_eq!(text.matches("Rivers carve").count(), 2, "{text}");
        for gone in ["Sign up", "Details", "Abo", "writer", "Jane Roe", "This entry"] {
            assert!(!text.contains(gone), "{gone} in {text}");
        }
        // The hash CSS modules end a class with is no word (`adKqa` is no ad).
        let html = format!(
            "<body><article><p>{PROSE}</p><div class=\"mdx-table_root__adKqa wide\">\
             <table><tr><td>user</td><td>Specifies the user to use for the connection.</td></tr></table></div>\
             <p>{PROSE}</p></article></body>"
        );
        assert!(selected_text(&html).contains("Specifies the user"), "{}", selected_text(&html));
        // Nor words inside a sentence; an element that is the whole paragraph still goes.
        let html = format!(
            "<body><article><p><span class=dateline>KOBE –</span> {PROSE}</p><p><span class=byline>By Jane Roe</span></p><p>{PROSE}</p></article></body>"
        );
        let text = selected_text(&html);
        assert!(text.contains("KOBE – Rivers carve") && !text.contains("Jane Roe"), "{text}");
        // Nor a heading: heise makes ids of a heading's words.
        let html = format!(
            "<body><article><p>{PROSE}</p><h3 id=nav_the_film_stays>The film stays</h3><p>{PROSE}</p></article></body>"
        );
        assert!(selected_text(&html).contains("### The film stays"));
        // Nor a hard word, where the id is made of the heading's words; a heading named
        // so by its class still goes.
        let html = format!(
            "<body><article><p>{PROSE}</p><h2 id=h-what-is-social-shopping>What is social shopping?</h2><p>{PROSE}</p>\
             <h2 class=share-title>Spread the word</h2></article></body>"
        );
        let text = selected_text(&html);
        assert!(text.contains("## What is social shopping?") && !text.contains("Spread"), "{text}");
        // A soft name (a teaser style) never takes away most of the page's prose.
        let html = format!(
            "<body><div class=teaserTyp3><p>{PROSE}</p><p>{PROSE}</p></div><div><p>Partner links.</p></div></body>"
        );
        assert_eq!(selected_text(&html).matches("Rivers carve").count(), 2);
    }

    #[test]
    fn a_lead_before_the_story_joins_it() {
        let lead = "A short introduction of some length, which says what the story is about, where it happened and why it matters to the people who live there.";
        let story = format!("<p>{PROSE}</p>").repeat(8);
        let html = format!(
            "<body><div class=wrap><header><p>{lead} Header.</p></header><div class=leader><p>{lead}</p></div>\
             <div class=story>{story}</div></div></body>"
        );
        let text = selected_text(&html);
        assert_eq!(text.matches("A short introduction").count(), 1, "{text}");
        assert!(!text.contains("Header."), "{text}");
        // After the story, such a wrapper is not its lead.
        let html = format!(
            "<body><div class=wrap><div class=story>{story}</div><div class=x><p>{lead}</p></div></div></body>"
        );
        assert!(!selected_text(&html).contains("A short introduction"));
    }

    #[test]
    fn a_story_in_parts_keeps_what_lies_between_them() {
        // A story, a summary after it, and a second column of plain prose (sentences
        // without commas score little) after that.
        let plain = "The river ran past the mill and the church and the school and on to the sea beyond the hills in the west.";
        let html = format!(
            "<body><div class=wrap><div class=a>{}</div>\
             <div class=mid><p>In short: the valley is old and the river is young.</p></div>\
             <col-b>{}</col-b><div class=links><a href=/a>A</a> <a href=/b>B</a></div></div></body>",
            format!("<p>{PROSE}</p>").repeat(10),
            format!("<p>{plain}</p>").repeat(3)
        );
        let text = selected_text(&html);
        assert_eq!(text.matches("Rivers carve").count(), 10, "{text}");
        assert_eq!(text.matches("The river ran").count(), 3, "{text}");
        assert!(text.contains("In short") && !text.contains("[A]"), "{text}");
    }

    #[test]
    fn names_about_showing_something_else_do_not_take_the_story() {
        // Drupal hides a field's label, not the field; a layout prints in full width.
        let html = format!(
            "<body><div class=x><div class=\"field field--label-hidden row\"><p>{PROSE}</p><p>{PROSE}</p></div>\
             <div class=\"col-sm-6 print-full\"><p>{PROSE}</p></div></div></body>"
        );
        assert_eq!(selected_text(&html).matches("Rivers carve").count(), 3);
    }

    #[test]
    fn a_list_of_references_does_not_outweigh_the_story() {
        let reference =
            "<li>Smith J, Doe A, Roe B, Poe C. Rivers and valleys, a review. J Geo, 2001, 3, 45-67.</li>";
        let html = format!(
            "<body><div class=body><div class=abstract><p>{PROSE}</p><p>{PROSE}</p><p>{PROSE}</p></div>\
             <div class=refs><ul>{}</ul></div></div></body>",
            reference.repeat(12)
        );
        let text = selected_text(&html);
        assert_eq!(text.matches("Rivers carve").count(), 3, "{text}");
    }

    #[test]
    fn hidden_and_role_marked_elements_are_left_out() {
        let html = format!(
            "<body><div><p>{PROSE}</p><p style=\"display: none\">Secret {PROSE}</p><div role=navigation><p>Menu {PROSE}</p></div>\
             <p hidden>Hidden {PROSE}</p><p>{PROSE}</p></div></body>"
        );
        let text = selected_text(&html);
        assert!(!text.contains("Secret") && !text.contains("Menu") && !text.contains("Hidden"), "{text}");
    }

    #[test]
    fn what_a_page_keeps_out_of_search_snippets_is_not_the_story_but_its_code_is() {
        let html = format!(
            "<body><article><div class=header data-nosnippet><p>Jane Roe is an experienced \
             journalist who has covered rivers for ten years, and who loves maps.</p></div>\
             {}<section data-nosnippet><pre>fn erode(valley: &mut Valley) {{ valley.deepen(); }}</pre></section>\
             <div data-nosnippet><h2>Related</h2><p>{PROSE}</p></div></article></body>",
            format!("<p>{PROSE}</p>").repeat(6)
        );
        let text = selected_text(&html);
        assert!(!text.contains("Jane Roe") && !text.contains("Related"), "{text}");
        assert!(text.contains("valley.deepen()"), "{text}");
        assert_eq!(text.matches("Rivers carve").count(), 6, "{text}");
        // Nor does it take away most of the page's prose.
        let html = format!("<body><div data-nosnippet>{}</div></body>", format!("<p>{PROSE}</p>").repeat(4));
        assert_eq!(selected_text(&html).matches("Rivers carve").count(), 4);
    }
}

//! A fast, forgiving HTML parser that builds the small tree extraction needs.
//!
//! Not a conforming HTML5 parser: it reads what browsers read for the parts that matter
//! to extraction — tags and attributes in every quoting style, entities, comments,
//! raw-text elements (a `<div>` inside a script's string is not markup), the end tags
//! HTML lets authors leave out (`<p>`, `<li>`, `<td>`, ...), stray and misnested end
//! tags — and drops at parse time what never carries readable text (scripts, styles,
//! SVG, templates, frames, form controls). JSON-LD scripts are kept aside for metadata.
//!
//! Speed is the reason it exists: html5ever's tokenizer alone runs at about 80 MB/s on
//! stripped pages on our 2-core machine, which caps a whole extraction below the
//! throughput this crate is held to; this parser scans with `memchr` and builds an arena
//! of nodes without reference counting.

use std::ops::Range;

use memchr::{memchr, memmem};

/// The deepest nesting kept; deeper elements are added as children of the deepest one,
/// so that no walk over the tree can exhaust the stack.
pub(crate) const MAX_DEPTH: usize = 256;

macro_rules! tags {
    ($($variant:ident = $name:literal),* $(,)?) => {
        /// The elements extraction tells apart; every other name is `Other`.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub(crate) enum Tag { $($variant,)* Other }

        impl Tag {
            fn from_lowercase(name: &[u8]) -> Tag {
                match name { $($name => Tag::$variant,)* _ => Tag::Other }
            }
        }
    };
}

tags! {
    A = b"a", Abbr = b"abbr", Address = b"address", Area = b"area", Article = b"article",
    Aside = b"aside", Audio = b"audio", B = b"b", Base = b"base", Bdi = b"bdi", Blockquote = b"blockquote",
    Body = b"body", Br = b"br", Button = b"button", Canvas = b"canvas", Caption = b"caption",
    Center = b"center", Cite = b"cite", Code = b"code", Col = b"col", Colgroup = b"colgroup",
    Dd = b"dd", Del = b"del", Details = b"details", Dfn = b"dfn", Dialog = b"dialog", Div = b"div",
    Dl = b"dl", Dt = b"dt", Em = b"em", Embed = b"embed", Fieldset = b"fieldset",
    Figcaption = b"figcaption", Figure = b"figure", Font = b"font", Footer = b"footer", Form = b"form",
    Frame = b"frame", Frameset = b"frameset", H1 = b"h1", H2 = b"h2", H3 = b"h3", H4 = b"h4", H5 = b"h5",
    H6 = b"h6", Head = b"head", Header = b"header", Hgroup = b"hgroup", Hr = b"hr", Html = b"html",
    I = b"i", Iframe = b"iframe", Img = b"img", Input = b"input", Ins = b"ins", Kbd = b"kbd",
    Keygen = b"keygen", Label = b"label", Legend = b"legend", Li = b"li", Link = b"link",
    Listing = b"listing", Main = b"main", Map = b"map", Mark = b"mark", Math = b"math", Menu = b"menu",
    Meta = b"meta", Nav = b"nav", Noembed = b"noembed", Noframes = b"noframes", Noscript = b"noscript",
    Object = b"object", Ol = b"ol", Optgroup = b"optgroup", Option = b"option", Output = b"output",
    P = b"p", Param = b"param", Picture = b"picture", Plaintext = b"plaintext", Pre = b"pre",
    Q = b"q", S = b"s", Samp = b"samp", Script = b"script", Section = b"section", Select = b"select",
    Small = b"small", Source = b"source", Span = b"span", Strike = b"strike", Strong = b"strong",
    Style = b"style", Sub = b"sub", Summary = b"summary", Sup = b"sup", Svg = b"svg", Table = b"table",
    Tbody = b"tbody", Td = b"td", Template = b"template", Textarea = b"textarea", Tfoot = b"tfoot",
    Th = b"th", Thead = b"thead", Time = b"time", Title = b"title", Tr = b"tr", Track = b"track",
    Tt = b"tt", U = b"u", Ul = b"ul", Var = b"var", Video = b"video", Wbr = b"wbr", Xmp = b"xmp",
}

impl Tag {
    /// Elements with no content and no end tag.
    fn is_void(self) -> bool {
        use Tag::*;
        matches!(
            self,
            Area | Base
                | Br
                | Col
                | Embed
                | Hr
                | Img
                | Input
                | Keygen
                | Link
                | Meta
                | Param
                | Source
                | Track
                | Wbr
        )
    }

    /// Elements whose content is text up to their end tag, never markup.
    fn is_raw_text(self) -> bool {
        use Tag::*;
        matches!(
            self,
            Script | Style | Xmp | Iframe | Noembed | Noframes | Noscript | Textarea | Title | Plaintext
        )
    }

    /// Elements whose start closes an open `<p>`.
    fn closes_p(self) -> bool {
        use Tag::*;
        matches!(
            self,
            Address
                | Article
                | Aside
                | Blockquote
                | Center
                | Details
                | Dialog
                | Div
                | Dl
                | Fieldset
                | Figcaption
                | Figure
                | Footer
                | Form
                | H1
                | H2
                | H3
                | H4
                | H5
                | H6
                | Header
                | Hgroup
                | Hr
                | Listing
                | Main
                | Menu
                | Nav
                | Ol
                | P
                | Pre
                | Section
                | Summary
                | Table
                | Ul
                | Li
                | Dd
                | Dt
                | Plaintext
                | Xmp
        )
    }

    /// Elements an end tag of an inline element cannot close across.
    fn is_block_boundary(self) -> bool {
        use Tag::*;
        self.closes_p() || matches!(self, Td | Th | Tr | Table | Caption | Body | Html | Button | Object)
    }

    /// Headings, `h1` to `h6`.
    pub(crate) fn heading_level(self) -> Option<usize> {
        use Tag::*;
        match self {
            H1 => Some(1),
            H2 => Some(2),
            H3 => Some(3),
            H4 => Some(4),
            H5 => Some(5),
            H6 => Some(6),
            _ => None,
        }
    }

    /// HTML start tags that end SVG or MathML content (the HTML standard's list for foreign
    /// content).
    fn leaves_foreign_content(self) -> bool {
        use Tag::*;
        matches!(
            self,
            B | Blockquote
                | Body
                | Br
                | Center
                | Code
                | Dd
                | Div
                | Dl
                | Dt
                | Em
                | Embed
                | H1
                | H2
                | H3
                | H4
                | H5
                | H6
                | Head
                | Hr
                | I
                | Img
                | Li
                | Listing
                | Menu
                | Meta
                | Ol
                | P
                | Pre
                | S
                | Small
                | Span
                | Strong
                | Strike
                | Sub
                | Sup
                | Table
                | Tt
                | U
                | Ul
                | Var
        )
    }

    /// Elements dropped at parse time, with their content: they never carry readable text.
    fn is_dropped(self) -> bool {
        use Tag::*;
        matches!(
            self,
            Script
                | Style
                | Noscript
                | Template
                | Svg
                | Math
                | Canvas
                | Iframe
                | Object
                | Embed
                | Button
                | Select
                | Textarea
                | Noembed
                | Noframes
                | Frameset
                | Audio
                | Video
                | Map
        )
    }
}

/// A node of the tree: the document, an element or a run of text.
#[derive(Debug, Clone)]
pub(crate) struct Node {
    /// What the node is.
    pub(crate) kind: Kind,
    /// The parent's index (the document is its own parent).
    pub(crate) parent: u32,
    /// The first child's index, or `NONE`.
    pub(crate) first_child: u32,
    /// The last child's index, or `NONE`.
    pub(crate) last_child: u32,
    /// The next sibling's index, or `NONE`.
    pub(crate) next: u32,
}

/// No node.
pub(crate) const NONE: u32 = u32::MAX;

/// What a node is.
#[derive(Debug, Clone)]
pub(crate) enum Kind {
    /// The root.
    Document,
    /// An element, its attributes a range of [`Document::attrs`].
    Element { tag: Tag, attrs: Range<u32> },
    /// Text, a range of [`Document::text`].
    Text(Range<u32>),
}

/// One attribute: its lower-case name and its decoded value, ranges of [`Document::text`].
#[derive(Debug, Clone)]
pub(crate) struct Attr {
    name: Range<u32>,
    value: Range<u32>,
}

/// A parsed document: nodes in document order (a parent before its children), with all
/// text and attribute strings in one buffer.
#[derive(Debug, Default)]
pub(crate) struct Document {
    pub(crate) nodes: Vec<Node>,
    attrs: Vec<Attr>,
    text: String,
    /// The text of every `<script type="application/ld+json">`.
    pub(crate) json_ld: Vec<String>,
    /// The `<title>` text.
    pub(crate) title: Option<String>,
    /// The text of comments (at most `hidden::MAX_PIECES`), hidden from readers.
    pub(crate) comments: Vec<String>,
    /// Where React's streaming puts what it streamed in: (the id of the place, the id of
    /// the hidden part that goes there), read from the page's scripts ([`streamed_moves`]).
    streamed: Vec<(String, String)>,
    /// Whether the page keeps a place for a streamed part (`<template id="B:0">`).
    streamed_places: bool,
}

impl Document {
    /// The root's index.
    pub(crate) const ROOT: u32 = 0;

    /// Parses `html`; never fails.
    #[cfg(test)]
    pub(crate) fn parse(html: &str) -> Document {
        Self::parse_until(html, &crate::extract::StopFlag::new()).unwrap_or_default()
    }

    /// Parses `html`, giving up (`None`) once `stop` is raised.
    pub(crate) fn parse_until(html: &str, stop: &crate::extract::StopFlag) -> Option<Document> {
        let mut builder = Builder::new(html.len());
        tokenize(html, &mut builder, stop)?;
        // A formula left open at the end still says what it says.
        builder.end_formula();
        let mut doc = builder.doc;
        doc.place_streamed();
        Some(doc)
    }

    /// Puts each part React streamed in where the page's script puts it: a server-rendered
    /// React page (Next.js and its kin) sends what was not ready at first later, as
    /// `<div hidden id="S:1">` at the end of the body, with a script that moves it into
    /// the place left for it (`<template id="B:0">` before a fallback, or an element
    /// `id="P:1"`). A browser runs that script at once, so a reader sees the parts in
    /// place; read where they arrive, the story would be hidden text after the footer. The
    /// nodes are laid out again in their new order (the document order the rest relies on);
    /// a part whose place is not in the document stays where it is.
    fn place_streamed(&mut self) {
        // Most pages stream nothing: they are not read again.
        if self.streamed.is_empty() && !self.streamed_places {
            return;
        }
        let mut by_id: std::collections::HashMap<&str, u32> = std::collections::HashMap::new();
        for id in 0..self.nodes.len() as u32 {
            if let Some(value) = self.attr(id, "id").filter(|v| streamed_id(v)) {
                by_id.entry(value).or_insert(id);
            }
        }
        if by_id.is_empty() {
            return;
        }
        // The scripts' moves first; then, for a saved copy without its scripts, React's own
        // numbering: a part `S:x` fills the boundary `B:x` or the placeholder `P:x`.
        let mut numbered: Vec<(u32, u32, String, String)> = Vec::new();
        for (id, &at) in &by_id {
            let Some(number) = id.strip_prefix("S:") else { continue };
            for place in [format!("B:{number}"), format!("P:{number}")] {
                if let Some(&place_at) = by_id.get(place.as_str()) {
                    numbered.push((at, place_at, place, (*id).to_owned()));
                }
            }
        }
        numbered.sort_unstable();
        let mut moves = self.streamed.clone();
        moves.extend(numbered.into_iter().map(|(_, _, place, part)| (place, part)));
        // Place -> part, each part moved once, never into itself.
        let mut into: std::collections::HashMap<u32, u32> = std::collections::HashMap::new();
        let mut moved: std::collections::HashSet<u32> = std::collections::HashSet::new();
        for (place, part) in &moves {
            let (Some(&place), Some(&part)) = (by_id.get(place.as_str()), by_id.get(part.as_str())) else {
                continue;
            };
            if place != part
                && self.tag(part) == Some(Tag::Div)
                && !moved.contains(&part)
                && !into.contains_key(&place)
            {
                into.insert(place, part);
                moved.insert(part);
            }
        }
        if into.is_empty() {
            return;
        }
        let old = std::mem::take(&mut self.nodes);
        let mut nodes: Vec<Node> = Vec::with_capacity(old.len());
        nodes.push(Node { kind: Kind::Document, parent: 0, first_child: NONE, last_child: NONE, next: NONE });
        let append = |nodes: &mut Vec<Node>, kind: Kind, parent: u32| {
            let id = nodes.len() as u32;
            nodes.push(Node { kind, parent, first_child: NONE, last_child: NONE, next: NONE });
            let last = nodes[parent as usize].last_child;
            nodes[parent as usize].last_child = id;
            if last == NONE {
                nodes[parent as usize].first_child = id;
            } else {
                nodes[last as usize].next = id;
            }
            id
        };
        // (the next old node to copy, its new parent); a part's children are copied where
        // its place stood, and the part itself where it arrived is left out.
        let mut stack: Vec<(u32, u32)> = vec![(old[0].first_child, 0)];
        let mut body = NONE;
        while let Some(top) = stack.last_mut() {
            let (at, parent) = *top;
            if at == NONE {
                stack.pop();
                continue;
            }
            top.0 = old[at as usize].next;
            if moved.contains(&at) {
                continue;
            }
            if let Some(part) = into.remove(&at) {
                stack.push((old[part as usize].first_child, parent));
                continue;
            }
            let copy = append(&mut nodes, old[at as usize].kind.clone(), parent);
            if body == NONE && matches!(old[at as usize].kind, Kind::Element { tag: Tag::Body, .. }) {
                body = copy;
            }
            stack.push((old[at as usize].first_child, copy));
        }
        // Parts whose place was never reached (it stood inside what was left out) keep
        // their text, at the end of the body.
        let mut left: Vec<u32> = into.into_values().collect();
        left.sort_unstable();
        for part in left {
            let mut stack: Vec<(u32, u32)> = vec![(part, if body == NONE { 0 } else { body })];
            while let Some(top) = stack.last_mut() {
                let (at, parent) = *top;
                if at == NONE {
                    stack.pop();
                    continue;
                }
                top.0 = if at == part { NONE } else { old[at as usize].next };
                let copy = append(&mut nodes, old[at as usize].kind.clone(), parent);
                stack.push((old[at as usize].first_child, copy));
            }
        }
        self.nodes = nodes;
    }

    fn slice(&self, range: &Range<u32>) -> &str {
        &self.text[range.start as usize..range.end as usize]
    }

    pub(crate) fn node(&self, id: u32) -> &Node {
        &self.nodes[id as usize]
    }

    /// The element's tag, or `None` for text and the document.
    pub(crate) fn tag(&self, id: u32) -> Option<Tag> {
        match self.node(id).kind {
            Kind::Element { tag, .. } => Some(tag),
            _ => None,
        }
    }

    /// The text of a text node (empty for others).
    pub(crate) fn text_of(&self, id: u32) -> &str {
        match &self.node(id).kind {
            Kind::Text(range) => &self.text[range.start as usize..range.end as usize],
            _ => "",
        }
    }

    /// The value of attribute `name` (lower case) of an element.
    pub(crate) fn attr(&self, id: u32, name: &str) -> Option<&str> {
        let Kind::Element { attrs, .. } = &self.node(id).kind else { return None };
        self.attrs[attrs.start as usize..attrs.end as usize].iter().find_map(|a| {
            (&self.text[a.name.start as usize..a.name.end as usize] == name)
                .then(|| &self.text[a.value.start as usize..a.value.end as usize])
        })
    }

    /// The children of a node, in order.
    pub(crate) fn children(&self, id: u32) -> Children<'_> {
        Children { doc: self, next: self.node(id).first_child }
    }

    /// The first element with `tag`, in document order.
    pub(crate) fn find(&self, tag: Tag) -> Option<u32> {
        (0..self.nodes.len() as u32).find(|&id| self.tag(id) == Some(tag))
    }

    /// Every text below `id`, with runs of whitespace folded into one space.
    pub(crate) fn text_content(&self, id: u32) -> String {
        let mut out = String::new();
        self.collect_text(id, &mut out);
        fold_whitespace(&out)
    }

    fn collect_text(&self, id: u32, out: &mut String) {
        for child in self.children(id) {
            match &self.node(child).kind {
                Kind::Text(_) => out.push_str(self.text_of(child)),
                Kind::Element { tag, .. } => {
                    if *tag == Tag::Br {
                        out.push(' ');
                    }
                    self.collect_text(child, out);
                }
                Kind::Document => {}
            }
        }
    }
}

/// Whether `id` is one React's streaming gives a boundary (`B:0`), a placeholder (`P:1`) or
/// a part (`S:1a`): the letter, a colon and a short hexadecimal number.
fn streamed_id(id: &str) -> bool {
    let bytes = id.as_bytes();
    bytes.len() > 2
        && bytes.len() <= 10
        && matches!(bytes[0], b'B' | b'P' | b'S')
        && bytes[1] == b':'
        && bytes[2..].iter().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(b))
}

/// At most this many moves of streamed parts are read from a page's scripts.
const MAX_STREAMED: usize = 4096;

/// Reads the moves React's streaming scripts make (`$RC("B:0","S:0")` and `$RR(…)` fill a
/// boundary with a part, `$RS("S:1","P:1")` a placeholder) into `out` as (place, part).
fn streamed_moves(script: &str, out: &mut Vec<(String, String)>) {
    for (call, part_first) in [("$RC(\"", false), ("$RR(\"", false), ("$RS(\"", true)] {
        let mut rest = script;
        while let Some(at) = rest.find(call) {
            rest = &rest[at + call.len()..];
            let Some((first, after)) = rest.split_once('"') else { break };
            let Some(after) = after.strip_prefix(",\"") else { continue };
            let Some((second, _)) = after.split_once('"') else { break };
            let short = |id: &str| id.len() <= 16 && id.len() > 2;
            if out.len() >= MAX_STREAMED || !short(first) || !short(second) {
                continue;
            }
            let (place, part) = if part_first { (second, first) } else { (first, second) };
            out.push((place.to_owned(), part.to_owned()));
        }
    }
}

/// Runs of whitespace as one space, trimmed.
pub(crate) fn fold_whitespace(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for word in text.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// The children of a node.
pub(crate) struct Children<'a> {
    doc: &'a Document,
    next: u32,
}

impl Iterator for Children<'_> {
    type Item = u32;

    fn next(&mut self) -> Option<u32> {
        let id = self.next;
        if id == NONE {
            return None;
        }
        self.next = self.doc.node(id).next;
        Some(id)
    }
}

/// Builds the tree from tokens, applying the end tags HTML lets authors omit.
struct Builder {
    doc: Document,
    /// Open elements: (index, tag). The document is not on it.
    open: Vec<(u32, Tag)>,
    /// Inside a dropped element (its depth of nesting), nothing is added.
    dropped: Vec<Tag>,
    /// A MathML formula being dropped: what it says, written as text in its place.
    formula: Option<Formula>,
    head_done: bool,
}

/// What a `<math>` element holds that a reader needs: its TeX (an `x-tex` annotation, else
/// the `alttext` attribute), else its symbols in order.
#[derive(Default)]
struct Formula {
    alt: String,
    tex: String,
    /// The depth of `dropped` inside a TeX annotation.
    tex_depth: Option<usize>,
    symbols: String,
    display: bool,
}

/// The most bytes of one formula kept (of its TeX, its `alttext`, its symbols).
const MAX_FORMULA: usize = 4_000;

/// Cuts `text` to at most `max` bytes, at a character's boundary.
fn clip(text: &mut String, max: usize) {
    let mut end = text.len().min(max);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text.truncate(end);
}

/// Whether an annotation's `encoding` is TeX (`application/x-tex`, `TeX`, `LaTeX`), not
/// another that merely holds the letters (`text/html`).
fn is_tex(encoding: &str) -> bool {
    encoding
        .split(|c: char| !c.is_ascii_alphanumeric())
        .any(|w| w.eq_ignore_ascii_case("tex") || w.eq_ignore_ascii_case("latex"))
}

impl Formula {
    /// The formula as text: TeX between `$` (`$$` when displayed), else its symbols.
    fn render(self) -> String {
        let tex = if self.tex.trim().is_empty() { self.alt } else { self.tex };
        let tex = tex.trim();
        // `{\displaystyle …}` only says how to draw it.
        let tex =
            tex.strip_prefix("{\\displaystyle").and_then(|t| t.strip_suffix('}')).map_or(tex, str::trim);
        if tex.is_empty() {
            return fold_whitespace(&self.symbols);
        }
        let fence = if self.display { "$$" } else { "$" };
        format!("{fence}{}{fence}", fold_whitespace(tex))
    }
}

impl Builder {
    fn new(size: usize) -> Builder {
        let mut doc = Document {
            nodes: Vec::with_capacity(size / 40),
            attrs: Vec::with_capacity(size / 80),
            text: String::with_capacity(size / 2),
            ..Document::default()
        };
        doc.nodes.push(Node {
            kind: Kind::Document,
            parent: 0,
            first_child: NONE,
            last_child: NONE,
            next: NONE,
        });
        Builder { doc, open: Vec::with_capacity(64), dropped: Vec::new(), formula: None, head_done: false }
    }

    fn current(&self) -> u32 {
        self.open.last().map_or(Document::ROOT, |&(id, _)| id)
    }

    fn append(&mut self, kind: Kind) -> u32 {
        let parent = self.current();
        let id = self.doc.nodes.len() as u32;
        self.doc.nodes.push(Node { kind, parent, first_child: NONE, last_child: NONE, next: NONE });
        let p = &mut self.doc.nodes[parent as usize];
        let last = p.last_child;
        p.last_child = id;
        if last == NONE {
            p.first_child = id;
        } else {
            self.doc.nodes[last as usize].next = id;
        }
        id
    }

    /// Keeps a comment's text (capped), for the hidden text a page carries.
    fn comment(&mut self, raw: &str) {
        let comments = &mut self.doc.comments;
        if comments.len() >= super::hidden::MAX_PIECES || raw.trim().is_empty() {
            return;
        }
        let mut end = raw.len().min(super::hidden::MAX_PIECE);
        while !raw.is_char_boundary(end) {
            end -= 1;
        }
        comments.push(raw[..end].to_owned());
    }

    fn text(&mut self, raw: &str) {
        if raw.is_empty() {
            return;
        }
        if !self.dropped.is_empty() {
            if let Some(formula) = &mut self.formula {
                let into = if formula.tex_depth.is_some() { &mut formula.tex } else { &mut formula.symbols };
                if into.len() < MAX_FORMULA {
                    decode_entities_into(raw, into);
                    clip(into, MAX_FORMULA);
                    into.push(' ');
                }
            }
            return;
        }
        let start = self.doc.text.len() as u32;
        decode_entities_into(raw, &mut self.doc.text);
        let end = self.doc.text.len() as u32;
        // Adjacent text joins the previous text node.
        let parent = self.current();
        let last = self.doc.nodes[parent as usize].last_child;
        if last != NONE
            && let Kind::Text(range) = &mut self.doc.nodes[last as usize].kind
            && range.end == start
        {
            range.end = end;
            return;
        }
        self.append(Kind::Text(start..end));
    }

    /// Closes open elements up to and including the innermost `tag`, if it is open and no
    /// element in `stop` lies between.
    fn close(&mut self, tag: Tag, stop: impl Fn(Tag) -> bool) -> bool {
        for i in (0..self.open.len()).rev() {
            let open = self.open[i].1;
            if open == tag {
                self.open.truncate(i);
                return true;
            }
            if stop(open) {
                return false;
            }
        }
        false
    }

    /// Where the next element's attributes start; see [`Builder::start`].
    fn attrs_mark(&self) -> (usize, usize) {
        (self.doc.attrs.len(), self.doc.text.len())
    }

    /// The value of attribute `name` among those read since `mark`.
    fn attr_since(&self, mark: (usize, usize), name: &str) -> Option<&str> {
        self.doc.attrs[mark.0..]
            .iter()
            .find(|a| self.doc.slice(&a.name) == name)
            .map(|a| self.doc.slice(&a.value))
    }

    /// Writes the formula being dropped, if any, where it stood: a `math` element that
    /// holds its text and nothing else.
    fn end_formula(&mut self) {
        let Some(formula) = self.formula.take() else { return };
        let text = formula.render();
        if text.is_empty() {
            return;
        }
        let none = self.doc.attrs.len() as u32;
        let math = self.append(Kind::Element { tag: Tag::Math, attrs: none..none });
        let start = self.doc.text.len() as u32;
        self.doc.text.push_str(&text);
        let end = self.doc.text.len() as u32;
        let id = self.doc.nodes.len() as u32;
        self.doc.nodes.push(Node {
            kind: Kind::Text(start..end),
            parent: math,
            first_child: NONE,
            last_child: NONE,
            next: NONE,
        });
        let m = &mut self.doc.nodes[math as usize];
        (m.first_child, m.last_child) = (id, id);
    }

    /// Forgets attributes read since `mark` (for elements that are not kept).
    fn drop_attrs(&mut self, mark: (usize, usize)) {
        self.doc.attrs.truncate(mark.0);
        self.doc.text.truncate(mark.1);
    }

    /// Closes the innermost open element among `tags`, as [`Builder::close`] does.
    fn close_any(&mut self, tags: &[Tag], stop: impl Fn(Tag) -> bool) {
        for i in (0..self.open.len()).rev() {
            let open = self.open[i].1;
            if tags.contains(&open) {
                self.open.truncate(i);
                return;
            }
            if stop(open) {
                return;
            }
        }
    }

    /// Opens element `tag` whose attributes were read since `mark`.
    fn start(&mut self, tag: Tag, mark: (usize, usize), self_closing: bool) {
        // An HTML element that cannot be drawn inside SVG or MathML ends the drawing (as
        // browsers break out of foreign content): an icon left unclosed does not take the
        // rest of the page with it.
        if self.dropped.first().is_some_and(|t| matches!(t, Tag::Svg | Tag::Math))
            && tag.leaves_foreign_content()
        {
            self.dropped.clear();
            self.end_formula();
        }
        if !self.dropped.is_empty() {
            let tex = !self_closing && self.attr_since(mark, "encoding").is_some_and(is_tex);
            let depth = self.dropped.len() + 1;
            if let Some(formula) = &mut self.formula
                && formula.tex_depth.is_none()
                && tex
            {
                formula.tex_depth = Some(depth);
            }
            self.drop_attrs(mark);
            if !tag.is_void() && !self_closing && !tag.is_raw_text() {
                self.dropped.push(tag);
            }
            return;
        }
        use Tag::*;
        if !matches!(tag, Meta | Link | Title | Style | Script | Base | Noscript | Template | Head | Html)
            && self.open.iter().any(|&(_, t)| t == Head)
        {
            // Content closes the head its end tag was left out of.
            self.close(Head, |_| false);
            self.head_done = true;
        }
        match tag {
            Html | Body if self.open.iter().any(|&(_, t)| t == tag) => return self.drop_attrs(mark),
            Head if self.head_done || self.open.iter().any(|&(_, t)| t == Head) => {
                return self.drop_attrs(mark);
            }
            Body => {
                self.close(Head, |_| false);
                self.head_done = true;
            }
            _ => {}
        }
        if tag.closes_p() {
            self.close(P, |t| matches!(t, Button | Td | Th | Table | Caption | Html | Body));
        }
        match tag {
            Li => {
                self.close(Li, |t| matches!(t, Ul | Ol | Menu | Table | Td | Th | Body));
            }
            Dt | Dd => {
                self.close_any(&[Dt, Dd], |t| matches!(t, Dl | Table | Body));
            }
            Td | Th => {
                self.close_any(&[Td, Th], |t| matches!(t, Tr | Table));
            }
            Tr => {
                self.close(Tr, |t| t == Table);
            }
            Thead | Tbody | Tfoot => {
                self.close_any(&[Thead, Tbody, Tfoot], |t| t == Table);
            }
            Option => {
                self.close(Option, |t| matches!(t, Select | Body));
            }
            A => {
                self.close(A, Tag::is_block_boundary);
            }
            // A heading cannot hold another.
            H1 | H2 | H3 | H4 | H5 | H6
                if self.open.last().is_some_and(|&(_, t)| t.heading_level().is_some()) =>
            {
                self.open.pop();
            }
            _ => {}
        }
        if tag == Tag::Template
            && self.attr_since(mark, "id").is_some_and(|id| streamed_id(id) && !id.starts_with("S:"))
        {
            // The place React's streaming fills (`Document::place_streamed`): kept as an
            // empty element, what it holds dropped.
            let attrs = mark.0 as u32..self.doc.attrs.len() as u32;
            self.append(Kind::Element { tag, attrs });
            self.doc.streamed_places = true;
            if !self_closing {
                self.dropped.push(tag);
            }
            return;
        }
        if tag.is_dropped() {
            if tag == Tag::Math && !self_closing {
                let mut formula = Formula {
                    alt: self.attr_since(mark, "alttext").unwrap_or_default().to_owned(),
                    display: self
                        .attr_since(mark, "display")
                        .is_some_and(|d| d.eq_ignore_ascii_case("block")),
                    ..Formula::default()
                };
                clip(&mut formula.alt, MAX_FORMULA);
                self.formula = Some(formula);
            }
            self.drop_attrs(mark);
            if !tag.is_void() && !self_closing && !tag.is_raw_text() {
                self.dropped.push(tag);
            }
            return;
        }
        let attrs = mark.0 as u32..self.doc.attrs.len() as u32;
        let id = self.append(Kind::Element { tag, attrs });
        if !tag.is_void() && self.open.len() < MAX_DEPTH {
            self.open.push((id, tag));
        }
    }

    fn end(&mut self, tag: Tag) {
        if !self.dropped.is_empty() {
            // The end tag of an element open inside what is dropped closes it and whatever it
            // holds that was left open (`<select><option>A<option>B</select>`,
            // `<button><span>OK</button>`), as implied end tags do in a browser.
            if let Some(at) = self.dropped.iter().rposition(|&t| t == tag) {
                if let Some(formula) = &mut self.formula
                    && formula.tex_depth.is_some_and(|depth| depth > at)
                {
                    formula.tex_depth = None;
                }
                self.dropped.truncate(at);
                if self.dropped.is_empty() {
                    self.end_formula();
                }
                return;
            }
            // The end tag of an element open around the dropped one closes both, as it does
            // in a browser (`<div><button>OK</div>`); any other is part of what is dropped.
            let outside = self.open.iter().any(|&(_, t)| t == tag);
            if !outside {
                return;
            }
            self.dropped.clear();
            self.end_formula();
        }
        use Tag::*;
        match tag {
            Br => self.start(Br, self.attrs_mark(), false),
            Body | Html => {}
            Head => {
                self.close(Head, |_| false);
                self.head_done = true;
            }
            _ if tag.is_block_boundary()
                || matches!(tag, Li | Dd | Dt | Tbody | Thead | Tfoot | Option | Select) =>
            {
                let stop = |t: Tag| matches!(t, Table | Body | Html) && t != tag;
                self.close(tag, stop);
            }
            Other => {
                // An unknown element may hold blocks; close it only if it is the current one
                // or found before any block boundary.
                self.close(Other, Tag::is_block_boundary);
            }
            _ => {
                self.close(tag, Tag::is_block_boundary);
            }
        }
    }
}

/// Tags read between two looks at the stop flag.
const STOP_CHECK_EVERY: u32 = 1024;

/// Splits `html` into tokens and feeds them to `builder`; `None` when `stop` was raised.
fn tokenize(html: &str, builder: &mut Builder, stop: &crate::extract::StopFlag) -> Option<()> {
    let bytes = html.as_bytes();
    let mut pos = 0;
    let mut text_start = 0;
    let mut since_check = 0u32;
    let mut noscripts_read = 0u32;
    while let Some(offset) = memchr(b'<', &bytes[pos..]) {
        since_check += 1;
        if since_check == STOP_CHECK_EVERY {
            since_check = 0;
            if stop.is_stopped() {
                return None;
            }
        }
        let lt = pos + offset;
        let next = bytes.get(lt + 1).copied();
        match next {
            Some(b'!') => {
                builder.text(&html[text_start..lt]);
                pos = if bytes[lt..].starts_with(b"<!--") {
                    // A comment; `<!-->` and `<!--->` end at once.
                    let body = lt + 4;
                    if bytes.get(body) == Some(&b'>') {
                        body + 1
                    } else if bytes[body..].starts_with(b"->") {
                        body + 2
                    } else {
                        let end = memmem::find(&bytes[body..], b"-->").map_or(bytes.len(), |i| body + i);
                        builder.comment(&html[body..end]);
                        (end + 3).min(bytes.len())
                    }
                } else {
                    memchr(b'>', &bytes[lt..]).map_or(bytes.len(), |i| lt + i + 1)
                };
                text_start = pos;
            }
            Some(b'?') => {
                builder.text(&html[text_start..lt]);
                pos = memchr(b'>', &bytes[lt..]).map_or(bytes.len(), |i| lt + i + 1);
                text_start = pos;
            }
            Some(b'/') if bytes.get(lt + 2).is_some_and(u8::is_ascii_alphabetic) => {
                builder.text(&html[text_start..lt]);
                let (tag, after) = read_name(bytes, lt + 2);
                pos = memchr(b'>', &bytes[after..]).map_or(bytes.len(), |i| after + i + 1);
                text_start = pos;
                builder.end(tag);
            }
            Some(b'/') => {
                // `</>` is ignored; `</ ...>` and the like are bogus comments.
                builder.text(&html[text_start..lt]);
                pos = memchr(b'>', &bytes[lt..]).map_or(bytes.len(), |i| lt + i + 1);
                text_start = pos;
            }
            Some(c) if c.is_ascii_alphabetic() => {
                builder.text(&html[text_start..lt]);
                let (tag, after) = read_name(bytes, lt + 1);
                let mark = builder.attrs_mark();
                let (self_closing, end) = read_attributes(html, after, &mut builder.doc);
                pos = end;
                text_start = pos;
                let keep = matches!(tag, Tag::Script | Tag::Title | Tag::Xmp | Tag::Plaintext);
                let json_ld = tag == Tag::Script
                    && builder.doc.attrs[mark.0..].iter().any(|a| {
                        builder.doc.slice(&a.name) == "type"
                            && builder.doc.slice(&a.value).trim().eq_ignore_ascii_case("application/ld+json")
                    });
                if tag == Tag::Noscript
                    && !self_closing
                    && builder.dropped.is_empty()
                    && noscripts_read < MAX_NOSCRIPTS_READ
                {
                    // What a reader without scripts sees: a page that puts its story in
                    // `<noscript>` (and a copy for scripts in a template) is read from there.
                    // Short notices ("enable JavaScript") and tracking pixels stay dropped.
                    if holds_prose(&bytes[pos..]) {
                        noscripts_read += 1;
                        builder.drop_attrs(mark);
                        continue;
                    }
                }
                let raw = tag.is_raw_text() && !self_closing || tag == Tag::Plaintext;
                builder.start(tag, mark, self_closing);
                if raw {
                    let (content_end, resume) = if tag == Tag::Plaintext {
                        (bytes.len(), bytes.len())
                    } else {
                        find_end_tag(bytes, pos, tag)
                    };
                    let content = &html[pos..content_end];
                    if keep {
                        match tag {
                            Tag::Script if json_ld => builder.doc.json_ld.push(content.to_owned()),
                            Tag::Script => streamed_moves(content, &mut builder.doc.streamed),
                            Tag::Title if builder.doc.title.is_none() && builder.dropped.is_empty() => {
                                let mut title = String::new();
                                decode_entities_into(content, &mut title);
                                builder.doc.title = Some(fold_whitespace(&title));
                            }
                            Tag::Xmp | Tag::Plaintext => builder.text(content),
                            _ => {}
                        }
                    }
                    if !tag.is_dropped() {
                        builder.end(tag);
                    }
                    pos = resume;
                    text_start = pos;
                }
            }
            _ => {
                // A `<` that starts no tag is text.
                pos = lt + 1;
            }
        }
    }
    builder.text(&html[text_start..]);
    Some(())
}

/// Text outside tags, not counting white space, from which a `<noscript>` is read as markup.
const NOSCRIPT_PROSE: usize = 200;
/// How far into a `<noscript>` that text is looked for. A `<noscript>` left as raw text
/// is consumed up to its end tag, at least as far as it was looked into; one read as markup
/// is not, so at most [`MAX_NOSCRIPTS_READ`] are: the parse stays linear.
const NOSCRIPT_LOOK: usize = 16 * 1024;
/// How many `<noscript>` elements of one document are read as markup.
const MAX_NOSCRIPTS_READ: u32 = 32;

/// Whether the raw markup of a `<noscript>` (up to its end tag) holds paragraphs (`<p>`)
/// with at least a paragraph's worth of text, near its start. Markup written out as text
/// (`&lt;img …`, as pages saved from a browser hold it) is not prose.
fn holds_prose(markup: &[u8]) -> bool {
    let mut in_tag = false;
    let mut in_paragraph = false;
    let mut text = 0;
    for (i, &b) in markup.iter().enumerate().take(NOSCRIPT_LOOK) {
        let next = &markup[i + 1..];
        match b {
            b'<' if next.get(..9).is_some_and(|n| n.eq_ignore_ascii_case(b"/noscript")) => return false,
            b'<' => {
                in_tag = true;
                if next.first().is_some_and(|c| c.eq_ignore_ascii_case(&b'p'))
                    && next.get(1).is_some_and(|c| matches!(c, b'>' | b' ' | b'\t' | b'\n' | b'\r'))
                {
                    in_paragraph = true;
                }
            }
            b'>' => in_tag = false,
            b'&' if !in_tag && next.get(..3).is_some_and(|n| n.eq_ignore_ascii_case(b"lt;")) => return false,
            _ if in_tag || !in_paragraph || b.is_ascii_whitespace() => {}
            // Count characters, not bytes: continuation bytes of UTF-8 are skipped.
            _ if b & 0xC0 == 0x80 => {}
            _ => {
                text += 1;
                if text >= NOSCRIPT_PROSE {
                    return true;
                }
            }
        }
    }
    false
}

/// Reads a tag name starting at `at`; returns the tag and the index after the name.
fn read_name(bytes: &[u8], at: usize) -> (Tag, usize) {
    let mut end = at;
    while end < bytes.len() && !matches!(bytes[end], b' ' | b'\t' | b'\n' | b'\r' | b'\x0c' | b'/' | b'>') {
        end += 1;
    }
    let name = &bytes[at..end];
    let tag = if name.len() <= 10 {
        let mut lower = [0u8; 10];
        for (i, b) in name.iter().enumerate() {
            lower[i] = b.to_ascii_lowercase();
        }
        Tag::from_lowercase(&lower[..name.len()])
    } else {
        Tag::Other
    };
    (tag, end)
}

/// Attributes kept of one element; the rest are read past. This also bounds the search
/// for repeated names, which would otherwise be quadratic in a tag's attributes.
pub(crate) const MAX_ATTRIBUTES: usize = 64;

/// Reads attributes up to the end of a start tag into `doc` (names in lower case, values
/// decoded, the first of repeated names kept, at most [`MAX_ATTRIBUTES`]); returns whether
/// the tag closed itself and the index after the `>`.
fn read_attributes(html: &str, mut at: usize, doc: &mut Document) -> (bool, usize) {
    let bytes = html.as_bytes();
    let first = doc.attrs.len();
    let mut self_closing = false;
    loop {
        while at < bytes.len() && bytes[at].is_ascii_whitespace() {
            at += 1;
        }
        match bytes.get(at) {
            None => return (self_closing, bytes.len()),
            Some(b'>') => return (self_closing, at + 1),
            Some(b'/') => {
                at += 1;
                self_closing = bytes.get(at) == Some(&b'>');
                continue;
            }
            _ => {}
        }
        self_closing = false;
        let name_start = at;
        at += 1;
        while at < bytes.len()
            && !matches!(bytes[at], b' ' | b'\t' | b'\n' | b'\r' | b'\x0c' | b'/' | b'>' | b'=')
        {
            at += 1;
        }
        let n0 = doc.text.len();
        doc.text.push_str(&html[name_start..at]);
        doc.text[n0..].make_ascii_lowercase();
        let v0 = doc.text.len();
        while at < bytes.len() && bytes[at].is_ascii_whitespace() {
            at += 1;
        }
        if bytes.get(at) == Some(&b'=') {
            at += 1;
            while at < bytes.len() && bytes[at].is_ascii_whitespace() {
                at += 1;
            }
            let raw = match bytes.get(at) {
                Some(&quote @ (b'"' | b'\'')) => {
                    let start = at + 1;
                    let end = memchr(quote, &bytes[start..]).map_or(bytes.len(), |i| start + i);
                    at = (end + 1).min(bytes.len());
                    &html[start..end]
                }
                _ => {
                    let start = at;
                    while at < bytes.len()
                        && !matches!(bytes[at], b' ' | b'\t' | b'\n' | b'\r' | b'\x0c' | b'>')
                    {
                        at += 1;
                    }
                    &html[start..at]
                }
            };
            decode_entities_into(raw, &mut doc.text);
        }
        let attr = Attr { name: n0 as u32..v0 as u32, value: v0 as u32..doc.text.len() as u32 };
        let name = &doc.text[n0..v0];
        if doc.attrs.len() - first >= MAX_ATTRIBUTES
            || doc.attrs[first..].iter().any(|a| doc.slice(&a.name) == name)
        {
            doc.text.truncate(n0);
        } else {
            doc.attrs.push(attr);
        }
    }
}

/// Finds the end tag of raw-text element `tag` from `at`: returns where the content ends
/// and where parsing resumes.
fn find_end_tag(bytes: &[u8], at: usize, tag: Tag) -> (usize, usize) {
    let mut pos = at;
    while let Some(i) = memchr(b'<', &bytes[pos..]) {
        let lt = pos + i;
        if bytes.get(lt + 1) == Some(&b'/') {
            let (found, after) = read_name(bytes, lt + 2);
            if found == tag {
                let resume = memchr(b'>', &bytes[after..]).map_or(bytes.len(), |j| after + j + 1);
                return (lt, resume);
            }
        }
        pos = lt + 1;
    }
    (bytes.len(), bytes.len())
}

/// Appends `raw` to `out` with character references decoded.
pub(crate) fn decode_entities_into(raw: &str, out: &mut String) {
    let bytes = raw.as_bytes();
    let mut pos = 0;
    while let Some(i) = memchr(b'&', &bytes[pos..]) {
        let amp = pos + i;
        out.push_str(&raw[pos..amp]);
        match decode_reference(&raw[amp + 1..]) {
            Some((chars, used)) => {
                out.extend(chars.into_iter().flatten());
                pos = amp + 1 + used;
            }
            None => {
                out.push('&');
                pos = amp + 1;
            }
        }
    }
    out.push_str(&raw[pos..]);
}

/// Decodes the reference after a `&`: the characters and the bytes used.
fn decode_reference(rest: &str) -> Option<([Option<char>; 2], usize)> {
    let bytes = rest.as_bytes();
    if bytes.first() == Some(&b'#') {
        let (radix, start) = if matches!(bytes.get(1), Some(b'x' | b'X')) { (16, 2) } else { (10, 1) };
        let digits = bytes[start..]
            .iter()
            .take_while(|b| b.is_ascii_hexdigit() && (radix == 16 || b.is_ascii_digit()))
            .count();
        if digits == 0 {
            return None;
        }
        let value = u32::from_str_radix(&rest[start..start + digits], radix).unwrap_or(0xFFFD);
        let c = match value {
            0 => '\u{FFFD}',
            // Windows-1252 code points that pages send as references.
            0x80..=0x9F => windows_1252(value),
            _ => char::from_u32(value).unwrap_or('\u{FFFD}'),
        };
        let used = start + digits + usize::from(bytes.get(start + digits) == Some(&b';'));
        return Some(([Some(c), None], used));
    }
    let len = bytes.iter().take(32).take_while(|b| b.is_ascii_alphanumeric()).count();
    if len == 0 {
        return None;
    }
    // The longest name that is an entity, with its `;` when present.
    for end in (1..=len).rev() {
        let with_semicolon = bytes.get(end) == Some(&b';');
        let key = if with_semicolon { &rest[..=end] } else { &rest[..end] };
        if let Some(&(a, b)) = web_atoms::NAMED_ENTITIES.get(key) {
            let first = char::from_u32(a);
            let second = if b == 0 { None } else { char::from_u32(b) };
            return Some(([first, second], key.len()));
        }
    }
    None
}

fn windows_1252(value: u32) -> char {
    const TABLE: [u32; 32] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152,
        0x8D, 0x017D, 0x8F, 0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122,
        0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
    ];
    char::from_u32(TABLE[(value - 0x80) as usize]).unwrap_or('\u{FFFD}')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outline(doc: &Document, id: u32, out: &mut String) {
        for child in doc.children(id) {
            match &doc.node(child).kind {
                Kind::Text(_) => out.push_str(&doc.text_of(child).replace('\n', "")),
                Kind::Element { tag, .. } => {
                    let name = format!("{tag:?}").to_lowercase();
                    out.push_str(&format!("<{name}>"));
                    outline(doc, child, out);
                    out.push_str(&format!("</{name}>"));
                }
                Kind::Document => {}
            }
        }
    }

    fn tree(html: &str) -> String {
        let doc = Document::parse(html);
        let mut out = String::new();
        outline(&doc, Document::ROOT, &mut out);
        out
    }

    #[test]
    fn parts_react_streams_in_are_read_where_its_script_puts_them() {
        // Next.js: the story arrives hidden after the footer, a piece of it in a placeholder
        // of its own; the page's scripts move both into place.
        let html = "<body><main><h1>Title</h1><template id=\"B:0\"></template><p>Loading…</p></main>\
                    <footer>Footer</footer>\
                    <div hidden id=\"S:0\"><article><p>First part.</p><span id=\"P:1\"></span></article></div>\
                    <script>$RC(\"B:0\",\"S:0\")</script>\
                    <div hidden id=\"S:1\"><p>Second part.</p></div><script>$RS(\"S:1\",\"P:1\")</script>\
                    <div hidden id=\"S:2\"><p>Nowhere to go.</p></div></body>";
        let doc = Document::parse(html);
        let text = doc.text_content(Document::ROOT);
        // (React then removes the fallback; it is short, and stays.)
        assert_eq!(text, "TitleFirst part.Second part.Loading…FooterNowhere to go.");
        // The parts moved are no longer hidden; the one with no place stays hidden.
        let hidden: Vec<String> = super::super::hidden::collect(&doc).into_iter().map(|h| h.text).collect();
        assert_eq!(hidden, ["Nowhere to go."]);
        // Every node is its parent's child, in document order (a parent before its children).
        for (i, node) in doc.nodes.iter().enumerate().skip(1) {
            assert!((node.parent as usize) < i);
            assert!(doc.children(node.parent).any(|c| c as usize == i));
        }
        // A saved copy without the scripts: React's numbering says where each part goes
        // (`S:1` into the boundary `B:1`, `S:2` into the placeholder `P:2`, a template too).
        let saved = "<body><main><template id=\"B:1\"></template><p>Loading</p></main><p>Footer</p>\
                     <div hidden id=\"S:1\"><p>One.</p><template id=\"P:2\"></template></div>\
                     <div hidden id=\"S:2\"><p>Two.</p></div></body>";
        assert_eq!(Document::parse(saved).text_content(Document::ROOT), "One.Two.LoadingFooter");
        // A script naming parts that are not there, or a part for itself, moves nothing.
        let odd = "<body><p>A</p><div hidden id=\"S:0\"><p>B</p></div><p id=\"S:1\">C</p>\
                   <script>$RC(\"B:9\",\"S:0\");$RC(\"S:0\",\"S:0\");$RS(\"S:0\"</script></body>";
        assert_eq!(Document::parse(odd).text_content(Document::ROOT), "ABC");
    }

    #[test]
    fn a_formula_is_written_as_its_tex_or_its_symbols() {
        // TeX from an annotation (without `\displaystyle`), displayed or inline; else the
        // `alttext`; else the symbols in order.
        assert_eq!(
            tree(
                "<p>So <math display=block alttext=\"x\"><semantics><mi>a</mi>\
                 <annotation encoding=\"application/x-tex\">{\\displaystyle ax^{2}=0}</annotation>\
                 </semantics></math> holds.</p>"
            ),
            "<p>So <math>$$ax^{2}=0$$</math> holds.</p>"
        );
        assert_eq!(
            tree("<p>If <math alttext=\"a \\neq 0\"><mi>a</mi></math>, then</p>"),
            "<p>If <math>$a \\neq 0$</math>, then</p>"
        );
        assert_eq!(
            tree("<p>When <math><mi>a</mi><mo>&#x2260;</mo><mn>0</mn></math>, two</p>"),
            "<p>When <math>a ≠ 0</math>, two</p>"
        );
        // An annotation in another encoding is not TeX, though its name holds the letters.
        assert_eq!(
            tree("<p><math><mi>z</mi><annotation encoding=\"text/html\">zed</annotation></math></p>"),
            "<p><math>z zed</math></p>"
        );
        // A formula left open ends where HTML takes over again, or at the end of the page.
        assert_eq!(tree("<p>A <math><mi>b</mi><p>Next</p>"), "<p>A <math>b</math></p><p>Next</p>");
        assert_eq!(tree("<p>A <math><mi>c</mi>"), "<p>A <math>c</math></p>");
        // Nothing in it, nothing written.
        assert_eq!(tree("<p>A<math></math>B</p>"), "<p>AB</p>");
        // A formula is capped, its symbols and its alttext alike.
        let long = tree(&format!("<p><math><mi>{}</mi></math></p>", "é".repeat(5_000)));
        assert!(long.len() < 4_120 && long.starts_with("<p><math>é"), "{}", long.len());
        let long = tree(&format!("<p><math alttext=\"x{}\"></math></p>", "é".repeat(5_000)));
        assert!(long.len() < 4_120 && long.starts_with("<p><math>$xé"), "{}", long.len());
    }

    #[test]
    fn omitted_end_tags_are_implied() {
        assert_eq!(tree("<p>one<p>two<div>three</div>"), "<p>one</p><p>two</p><div>three</div>");
        assert_eq!(tree("<ul><li>a<li>b</ul>after"), "<ul><li>a</li><li>b</li></ul>after");
        assert_eq!(
            tree("<table><tr><td>a<td>b<tr><td>c</table>"),
            "<table><tr><td>a</td><td>b</td></tr><tr><td>c</td></tr></table>"
        );
        assert_eq!(tree("<dl><dt>t<dd>d<dt>u</dl>"), "<dl><dt>t</dt><dd>d</dd><dt>u</dt></dl>");
        assert_eq!(tree("<a href=x>one<a href=y>two</a>"), "<a>one</a><a>two</a>");
    }

    #[test]
    fn stray_and_misnested_end_tags() {
        assert_eq!(tree("<div><b>bold</div>after</b>"), "<div><b>bold</b></div>after");
        assert_eq!(tree("</span><p>x</p></div>y"), "<p>x</p>y");
        assert_eq!(tree("<div><span>a</div>b"), "<div><span>a</span></div>b");
        assert_eq!(tree("a<br/>b</br>c"), "a<br></br>b<br></br>c");
    }

    #[test]
    fn raw_text_is_not_markup() {
        let doc = Document::parse(
            "<head><title>A &amp; B</title><script>var s = '<p>no</p>';</script>\
             <script type=\"application/ld+json\">{\"a\":1}</script></head><body><p>yes</p><style>p{}</style></body>",
        );
        assert_eq!(doc.title.as_deref(), Some("A & B"));
        assert_eq!(doc.json_ld, vec!["{\"a\":1}".to_owned()]);
        let mut out = String::new();
        outline(&doc, Document::ROOT, &mut out);
        assert_eq!(out, "<head><title></title></head><body><p>yes</p></body>");
    }

    #[test]
    fn dropped_elements_take_their_content() {
        assert_eq!(tree("a<svg><g><text>icon</text></g></svg>b<button>OK</button>c"), "abc");
        assert_eq!(tree("<noscript><p>enable js</p></noscript>x<template><p>t</p></template>"), "x");
        // A story kept for readers without scripts is read as markup.
        let story = "word ".repeat(60);
        assert_eq!(tree(&format!("<noscript><p>{story}</p></noscript>x")), format!("<p>{story}</p>x"));
        // Markup written out as text, and text outside paragraphs, stay dropped.
        assert_eq!(tree(&format!("<noscript><p>&lt;img src=x&gt; {story}</p></noscript>x")), "x");
        assert_eq!(tree(&format!("<noscript><div>{story}</div></noscript>x")), "x");
        // Only so many are read as markup, so that their looks ahead stay bounded.
        let many = format!("<noscript><p>{story}</p></noscript>").repeat(40);
        assert_eq!(tree(&many).matches("<p>").count(), MAX_NOSCRIPTS_READ as usize);
        assert_eq!(tree("a<!-- <p>c</p> -->b<!--->c<![CDATA[x]]>d"), "abcd");
    }

    #[test]
    fn an_unclosed_drawing_or_control_does_not_take_the_page() {
        // An icon left open ends where HTML starts again, or where its container ends.
        assert_eq!(
            tree("<div><a><svg><use href=x /></div></div><p>story</p>"),
            "<div><a></a></div><p>story</p>"
        );
        assert_eq!(tree("<svg><g><text>icon</text></g><p>story</p>"), "<p>story</p>");
        // SVG's own elements stay inside the drawing.
        assert_eq!(tree("<svg><text>a</text><title>b</title></svg>c"), "c");
        // An end tag of an element open around a dropped one closes both.
        assert_eq!(tree("<div><button>OK</div><p>story</p>"), "<div></div><p>story</p>");
        assert_eq!(tree("<div><button><span>OK</span></button>x</div>"), "<div>x</div>");
        // An end tag closes what was left open inside the dropped element: a list of options
        // (whose end tags HTML lets authors omit), a label's span.
        assert_eq!(
            tree("<div><select><option>English<option>French</select><p>story</p></div>"),
            "<div><p>story</p></div>"
        );
        assert_eq!(
            tree("<div><div><button><span>OK</button><p>story</p></div></div>"),
            "<div><div><p>story</p></div></div>"
        );
    }

    #[test]
    fn attributes_per_element_are_bounded() {
        let mut html = String::from("<p ");
        for i in 0..50_000 {
            html.push_str(&format!("a{i}=1 "));
        }
        html.push_str("class=late>text</p><p id=x>after</p>");
        let doc = Document::parse(&html);
        let p = doc.find(Tag::P).unwrap();
        let Kind::Element { attrs, .. } = &doc.node(p).kind else { panic!() };
        assert_eq!(attrs.len(), MAX_ATTRIBUTES);
        assert_eq!(doc.attr(p, "a0"), Some("1"));
        assert_eq!(doc.attr(p, "class"), None);
        assert_eq!(doc.text_content(p), "text");
        let second = doc.children(Document::ROOT).count();
        assert!(second >= 1);
        assert!(html.len() > 400_000 && doc.text.len() < 2_000, "attributes past the cap are not kept");
    }

    #[test]
    fn a_raised_stop_flag_ends_parsing() {
        let html = "<div><p>x</p></div>".repeat(10_000);
        let stop = crate::extract::StopFlag::new();
        assert!(Document::parse_until(&html, &stop).is_some());
        stop.stop();
        assert!(Document::parse_until(&html, &stop).is_none());
        assert!(Document::parse_until("<p>short</p>", &stop).is_some(), "checked every 1024 tags");
    }

    #[test]
    fn attributes_in_every_style() {
        let doc = Document::parse("<a HREF=\"/x?a=1&amp;b=2\" class='c d' data-x=y hidden title=>t</a>");
        let a = doc.find(Tag::A).unwrap();
        assert_eq!(doc.attr(a, "href"), Some("/x?a=1&b=2"));
        assert_eq!(doc.attr(a, "class"), Some("c d"));
        assert_eq!(doc.attr(a, "data-x"), Some("y"));
        assert_eq!(doc.attr(a, "hidden"), Some(""));
        assert_eq!(doc.attr(a, "title"), Some(""));
    }

    #[test]
    fn entities() {
        let mut out = String::new();
        decode_entities_into(
            "&lt;a&gt; &amp &copy; &#169; &#xA9; &#x80; &notanentity; &; &eacute;t&eacute; &#0;",
            &mut out,
        );
        // As in browsers, a legacy name such as `&not` is read without its `;`.
        assert_eq!(out, "<a> & © © © € ¬anentity; &; été \u{FFFD}");
    }

    #[test]
    fn deep_nesting_is_capped() {
        let html = "<div>".repeat(10_000) + "deep" + &"</div>".repeat(10_000);
        let doc = Document::parse(&html);
        let mut depth = 0;
        let mut id = doc.nodes.len() as u32 - 1;
        while id != Document::ROOT {
            id = doc.node(id).parent;
            depth += 1;
        }
        assert!(depth <= MAX_DEPTH + 1, "{depth}");
    }

    #[test]
    fn truncated_input_does_not_panic() {
        for html in
            ["<", "<a", "<a href", "<a href=\"x", "<!--", "</", "</a", "&#", "&#x", "<script>x", "<p>é&"]
        {
            let _ = Document::parse(html);
        }
    }
}

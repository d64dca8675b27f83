//! The edges of the selected content: date lines, bylines and copyright lines right
//! after the headline or at the very end belong to the page's metadata, not to its story
//! (the metadata is read from the page's own tags). Only short plain paragraphs qualify,
//! at most a few at each edge, and content is never emptied.

/// How many blocks at each edge may be taken away.
const MAX_PER_EDGE: usize = 3;
/// The most words a metadata line has.
const MAX_WORDS: usize = 10;

/// Words that open a byline, in the languages pages are most often written in.
const BYLINE: &[&str] = &[
    "by",
    "von",
    "par",
    "por",
    "di",
    "door",
    "av",
    "af",
    "autor",
    "autora",
    "autorin",
    "author",
    "texto",
    "text",
    "redacción",
    "redaktion",
    "reportage",
    "от",
    "автор",
    "作者",
    "文",
];

/// The most of the content's text the part from an end-of-story heading on may hold...
const MAX_TAIL: f32 = 0.25;
/// ...and from a heading that says for certain that the story is over ([`CLOSES_STORY`]).
const MAX_TAIL_SAID: f32 = 0.5;

/// Phrases of [`END_OF_STORY`] that a story seldom uses for a part of itself: the author's
/// box, other stories, the comments. Sharing and "read more" are not among them (a share
/// bar may stand between a story and its questions and answers).
const CLOSES_STORY: &[&str] = &[
    "about the author",
    "über den autor",
    "über die autorin",
    "similar posts",
    "similar articles",
    "similar stories",
    "more stories",
    "more articles",
    "read next",
    "you may also like",
    "you might also like",
    "leave a reply",
    "leave a comment",
    "weitere artikel",
    "weitere beiträge",
    "könnte sie auch interessieren",
    "kommentar schreiben",
    "articles similaires",
    "artículos relacionados",
    "noticias relacionadas",
];
/// The most words an end-of-story heading has.
const MAX_MARKER_WORDS: usize = 8;

/// What a heading says when the story is over and the page goes on with other things:
/// other stories, sharing, comments, subscriptions, tags, the author's box — in the
/// languages pages are most often written in. Matched as whole words; a single word only as
/// the heading's first or last ("Comments (3)", "Möchten Sie den Artikel teilen?", not "The
/// comments of the minister").
const END_OF_STORY: &[&str] = &[
    "related",
    "similar posts",
    "similar articles",
    "similar stories",
    "more on this",
    "more from",
    "more stories",
    "more articles",
    "read more",
    "read next",
    "read also",
    "also read",
    "you may also like",
    "you might also like",
    "recommended",
    "share",
    "share this",
    "comments",
    "leave a reply",
    "leave a comment",
    "newsletter",
    "subscribe",
    "tags",
    "about the author",
    "ähnliche",
    "verwandte",
    "mehr zum thema",
    "weitere artikel",
    "weitere beiträge",
    "weitere themen",
    "mehr artikel",
    "lesen sie auch",
    "auch interessant",
    "könnte sie auch interessieren",
    "teilen",
    "kommentare",
    "kommentar schreiben",
    "abonnieren",
    "schlagwörter",
    "schlagworte",
    "über den autor",
    "über die autorin",
    "à lire aussi",
    "lire aussi",
    "sur le même sujet",
    "articles similaires",
    "partager",
    "commentaires",
    "lea también",
    "lea más",
    "te puede interesar",
    "artículos relacionados",
    "noticias relacionadas",
    "compartir",
    "comentarios",
    "leia também",
    "veja também",
    "compartilhe",
    "leggi anche",
    "condividi",
    "commenti",
];

/// `markdown` without the metadata lines at its edges, and without what follows a heading
/// that ends the story (when that is a small part of it).
pub(crate) fn trim(markdown: String) -> String {
    let blocks: Vec<&str> = markdown.split("\n\n").collect();
    let is_heading = |b: &str| b.starts_with('#');
    // Leading headings stay; the metadata lines under them go.
    let mut start = 0;
    while start < blocks.len() && is_heading(blocks[start]) {
        start += 1;
    }
    let mut keep = vec![true; blocks.len()];
    let mut taken = 0;
    let mut i = start;
    while i < blocks.len() && taken < MAX_PER_EDGE && is_metadata(blocks[i]) {
        keep[i] = false;
        taken += 1;
        i += 1;
    }
    // The story ends at a heading that says other things follow.
    let mut j = blocks.len();
    if let Some(end) = story_end(&blocks[i..]) {
        for k in &mut keep[i + end..] {
            *k = false;
        }
        j = i + end;
    }
    // At the end, legal lines of any length go too, and then a heading left with
    // nothing under it.
    let mut taken = 0;
    let at_end = |block: &str| {
        let text = crate::extract::to_text(block.trim_start());
        (plain(block) && metadata_text(&text)) || legal_text(&text)
    };
    while j > i && taken < MAX_PER_EDGE && at_end(blocks[j - 1]) {
        keep[j - 1] = false;
        taken += 1;
        j -= 1;
    }
    while j > i && is_heading(blocks[j - 1]) {
        keep[j - 1] = false;
        j -= 1;
    }
    if keep.iter().all(|&k| k) || !keep.iter().zip(&blocks).any(|(&k, b)| k && !is_heading(b)) {
        return markdown;
    }
    blocks.iter().zip(keep).filter(|(_, k)| *k).map(|(b, _)| *b).collect::<Vec<_>>().join("\n\n")
}

/// Where the story ends in `blocks`: the first end-of-story heading (a `#` heading, or a
/// short line of its own without a link) after which at most `MAX_TAIL` of the text
/// follows. Never the first block, nor a heading that a heading of higher rank follows:
/// that one labels a part of the story ("##### Recommended courses:" before "### Learning
/// Graphic Design"), it does not close it.
fn story_end(blocks: &[&str]) -> Option<usize> {
    let lengths: Vec<usize> =
        blocks.iter().map(|b| b.chars().filter(|c| !c.is_whitespace()).count()).collect();
    let total: usize = lengths.iter().sum();
    let mut tail = total;
    for (k, block) in blocks.iter().enumerate() {
        let most = match ends_story(block) {
            Some(true) => MAX_TAIL_SAID,
            Some(false) => MAX_TAIL,
            None => 0.0,
        };
        if k > 0 && most > 0.0 && (tail as f32) <= most * total as f32 {
            let outranked = level(block).is_some_and(|own| {
                blocks[k + 1..].iter().any(|later| level(later).is_some_and(|later| later < own))
            });
            if !outranked {
                return Some(k);
            }
        }
        tail -= lengths[k];
    }
    None
}

/// The level of a `#` heading (1 for `#`, 6 for `######`), or `None` for another block.
fn level(block: &str) -> Option<usize> {
    let block = block.trim_start();
    let hashes = block.bytes().take_while(|&b| b == b'#').count();
    (1..=6).contains(&hashes).then_some(hashes).filter(|_| block[hashes..].starts_with(' '))
}

/// Headings that end the story only where they are the whole heading: the story's sources
/// and references ("## Sources", "Article Sources:"), not a part that discusses them
/// ("## Sources of funding").
const SOURCES: &[&str] = &[
    "sources",
    "article sources",
    "sources and references",
    "references",
    "bibliography",
    "citations",
    "quellen",
    "quellenangaben",
    "einzelnachweise",
    "literatur",
    "références",
    "bibliographie",
    "fuentes",
    "referencias",
    "fontes",
    "referências",
    "fonti",
    "bronnen",
];

/// Whether a block is a heading that ends the story: `Some(true)` where a phrase of
/// [`CLOSES_STORY`] says so, `Some(false)` where another of [`END_OF_STORY`] does, `None`
/// where it is no such heading.
fn ends_story(block: &str) -> Option<bool> {
    let block = block.trim_start();
    if !(block.starts_with('#') || (plain(block) && !block.contains("]("))) {
        return None;
    }
    let text = crate::extract::to_text(block).to_lowercase();
    let words: Vec<&str> = text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).collect();
    if words.is_empty() || words.len() > MAX_MARKER_WORDS {
        return None;
    }
    if SOURCES.contains(&words.join(" ").as_str()) {
        return Some(false);
    }
    END_OF_STORY
        .iter()
        .filter_map(|phrase| {
            let phrase: Vec<&str> = phrase.split(' ').collect();
            let found = if let [word] = phrase.as_slice() {
                words.first() == Some(word) || words.last() == Some(word)
            } else {
                words.windows(phrase.len()).any(|w| w == phrase.as_slice())
            };
            found.then_some(CLOSES_STORY.contains(&phrase.join(" ").as_str()))
        })
        .max()
}

/// A short plain paragraph that is a date line, a byline or a copyright line.
fn is_metadata(block: &str) -> bool {
    plain(block) && metadata_text(&crate::extract::to_text(block.trim_start()))
}

/// Whether a block is one plain paragraph line: not a heading, list, table, quote, code or
/// image.
fn plain(block: &str) -> bool {
    let first = block.trim_start();
    !(first.is_empty()
        || first.contains('\n')
        || first.starts_with(['#', '-', '*', '|', '>', '`', '!', '+'])
        || ordered_item(first))
}

/// Whether a plain paragraph's text is a short date line, byline or copyright line.
fn metadata_text(text: &str) -> bool {
    let words: Vec<&str> = text.split_whitespace().collect();
    if words.is_empty() || words.len() > MAX_WORDS {
        return false;
    }
    let lower = text.to_lowercase();
    let opener = words[0].trim_end_matches([':', ',']).to_lowercase();
    let byline = BYLINE.contains(&opener.as_str())
        && words
            .get(1)
            .is_some_and(|w| w.chars().next().is_some_and(|c| c.is_uppercase() || !c.is_alphabetic()));
    let sentence = text.trim_end().ends_with(['.', '!', '?']);
    byline
        || text.contains('©')
        || lower.starts_with("copyright")
        || has_date(text)
        || (!sentence && has_written_date(text))
        || READING_TIME.iter().any(|said| lower.contains(said))
        || words.iter().all(|w| {
            LABEL_WORDS.contains(&w.trim_matches(|c: char| !c.is_alphabetic()).to_lowercase().as_str())
        })
}

/// How a line says how long the story takes to read ("3 min read", "Lesezeit: 4 Min.").
const READING_TIME: &[&str] = &[
    "min read",
    "min. read",
    "mins read",
    "minute read",
    "minutes read",
    "lesezeit",
    "temps de lecture",
    "minutes de lecture",
    "tiempo de lectura",
    "minutos de lectura",
    "tempo de leitura",
    "tempo di lettura",
    "leestijd",
];

/// The words of a line that only labels the metadata beside it ("Updated", "Edited by",
/// "Fact checked").
const LABEL_WORDS: &[&str] = &[
    "updated",
    "edited",
    "published",
    "posted",
    "written",
    "reviewed",
    "fact",
    "checked",
    "by",
    "on",
    "last",
    "aktualisiert",
    "veröffentlicht",
    "publié",
    "mis",
    "à",
    "jour",
    "le",
    "par",
    "publicado",
    "actualizado",
    "el",
    "por",
];

/// Month names and their short forms, in the languages pages are most often written in.
const MONTHS: &[&str] = &[
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
    "jan",
    "feb",
    "mar",
    "apr",
    "jun",
    "jul",
    "aug",
    "sep",
    "sept",
    "oct",
    "nov",
    "dec",
    "januar",
    "februar",
    "märz",
    "juni",
    "juli",
    "oktober",
    "dezember",
    "janvier",
    "février",
    "mars",
    "avril",
    "mai",
    "juin",
    "juillet",
    "août",
    "septembre",
    "octobre",
    "novembre",
    "décembre",
    "enero",
    "febrero",
    "marzo",
    "abril",
    "mayo",
    "junio",
    "julio",
    "agosto",
    "septiembre",
    "octubre",
    "noviembre",
    "diciembre",
];

/// Whether a text writes a date with the month's name: the name beside a year, or
/// capitalised beside a day (`August 29, 2023`, `20 December 2025`, `3 mars 2024`; not the
/// "march 20" of "you may march 20 miles").
fn has_written_date(text: &str) -> bool {
    let words: Vec<&str> = text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).collect();
    let number = |w: &str, range: std::ops::Range<u32>| w.parse::<u32>().is_ok_and(|n| range.contains(&n));
    let year = |w: &str| w.len() == 4 && number(w, 1900..2100);
    let day = |w: &str| w.len() <= 2 && number(w, 1..32);
    words.iter().enumerate().any(|(i, w)| {
        if !MONTHS.contains(&w.to_lowercase().as_str()) {
            return false;
        }
        let capital = w.chars().next().is_some_and(char::is_uppercase);
        let beside = [i.checked_sub(1).map(|j| words[j]), words.get(i + 1).copied()];
        beside.into_iter().flatten().any(|b| year(b) || (capital && day(b)))
    })
}

/// Whether a block's text is a copyright or rights line.
fn legal_text(text: &str) -> bool {
    let lower = text.trim_start_matches(['*', '_', ' ']).to_lowercase();
    (lower.starts_with('©') || lower.starts_with("copyright") || lower.starts_with("(c) "))
        && text.split_whitespace().count() <= 80
}

fn ordered_item(line: &str) -> bool {
    let digits = line.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0 && line[digits..].starts_with(". ")
}

/// Whether the text holds a numeric date (`21.01.2019`, `2019-01-21`, `3/9`) or a clock
/// time (`13:49`); a decimal (`2.50`) is neither.
fn has_date(text: &str) -> bool {
    let bytes = text.as_bytes();
    let run =
        |from: usize| bytes.get(from..).map_or(0, |r| r.iter().take_while(|b| b.is_ascii_digit()).count());
    let mut i = 0;
    while i < bytes.len() {
        if !bytes[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let a = run(i);
        let sep = i + a;
        let b = run(sep + 1);
        let c = run(sep + 1 + b + 1);
        let next = |at: usize, byte: u8| bytes.get(at) == Some(&byte);
        let found = match bytes.get(sep) {
            // 21.01.2019
            Some(b'.') => a <= 2 && (1..=2).contains(&b) && next(sep + 1 + b, b'.') && (2..=4).contains(&c),
            // 2019-01-21
            Some(b'-') => a == 4 && (1..=2).contains(&b),
            // 3/9, 03/09/2019
            Some(b'/') => a <= 2 && (1..=2).contains(&b),
            // 13:49
            Some(b':') => a <= 2 && b == 2,
            _ => false,
        };
        if found {
            return true;
        }
        i = sep + 1;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metadata_lines_at_the_edges_go_and_the_story_stays() {
        let page = "# Title\n\nBy [Jane Roe](https://x.example/jane)\n\nSubmitted on Mon, 2019-01-21 13:49\n\nThe story starts here, with a sentence that is long enough to be prose for sure.\n\nIt goes on, and mentions 21.01.2019 in passing, which is fine in the middle.\n\n## Comments\n\n© 2019 Example News. This article is the property of Example News; written permission must be obtained before it is reprinted anywhere.";
        assert_eq!(
            trim(page.to_owned()),
            "# Title\n\nThe story starts here, with a sentence that is long enough to be prose for sure.\n\nIt goes on, and mentions 21.01.2019 in passing, which is fine in the middle."
        );
    }

    #[test]
    fn the_story_ends_where_other_things_begin() {
        let para = "The river rose all week, and the town moved its market to the hill above the old bridge.";
        let story = format!("{para}\n\n").repeat(6);
        // What follows "Related" / "Möchten Sie den Artikel teilen?" goes.
        for end in [
            "## Related stories",
            "Möchten Sie den Artikel teilen?",
            "### Kommentare (3)",
            "## Recommended for you\n\n### [Another story](https://x.example/a)",
        ] {
            let page = format!("{story}{end}\n\nAnother story about bridges and their long history in town.");
            assert_eq!(trim(page), story.trim_end(), "{end}");
        }
        // A heading that only mentions such a word, a pointer with a link, and a marker
        // followed by most of the text, stay.
        for kept in [
            format!("{para}\n\n## A flood similar to the one in 1910\n\n{story}"),
            format!("{story}Read more: [the flood of 1910](https://x.example/1910)\n\n{para}"),
            format!("{para}\n\n## Share of the vote\n\n{story}"),
            // A marker of a lower rank than the headings after it labels a part of the story.
            format!("{story}##### Recommended courses:\n\n### Learning layout\n\n{para}"),
        ] {
            assert_eq!(trim(kept.clone()), kept);
        }
        // The author's box goes though it holds two fifths of the text; a share bar
        // followed by as much (the story's questions and answers) does not end the story.
        let short = format!("{para}\n\n").repeat(3);
        let bio = "She has written about rivers for twenty years and edits the weekly letter on water.";
        let page = format!("{short}About the Author\n\n{bio}\n\n{bio}");
        assert_eq!(trim(page), short.trim_end());
        let kept = format!("{short}Share this\n\n{para}\n\n{para}");
        assert_eq!(trim(kept.clone()), kept);
        assert!(CLOSES_STORY.iter().all(|phrase| END_OF_STORY.contains(phrase)));
        // The story's sources go; a part about sources stays.
        let sources = "- Allied Van Lines, \"Home page,\" Accessed April 14, 2025.";
        assert_eq!(trim(format!("{story}Article Sources:\n\n{sources}")), story.trim_end());
        let kept = format!("{story}## Sources of funding\n\n{para}");
        assert_eq!(trim(kept.clone()), kept);
    }

    #[test]
    fn lists_headings_and_sentences_are_not_metadata() {
        for block in [
            "1. Mix 2 eggs",
            "- 12:30 lunch",
            "## 2019-01-21",
            "By the river the town grew for two hundred years and more, slowly.",
            "Only 2.50 euros a bag.",
            // A sentence that names a date, and a month that is a word of another kind.
            "On 3 May 2021, the bridge fell.",
            "You may march 20 miles",
            "Updated prices for the spring",
        ] {
            assert!(!is_metadata(block), "{block}");
        }
        for block in [
            "Von Sina Giebel",
            "posted on April 21, 2015, at 11:29 a.m.",
            "Posted by IndustrySelect on Tuesday, August 29, 2023",
            "20 December 2025",
            "Aktualisiert am 3. März 2024",
            "3 MIN. READ",
            "Lesezeit: 4 Min.",
            "Updated",
            "Edited by",
            "最終更新:3/9(木) 18:45",
            "Copyright 2020 Foo",
        ] {
            assert!(is_metadata(block), "{block}");
        }
        // A page that is nothing but a date keeps it.
        assert_eq!(trim("21.01.2019".to_owned()), "21.01.2019");
    }
}

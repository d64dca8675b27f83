//! A page's metadata: title, description, author, publication date and site name, from
//! `<meta>` tags (Open Graph, Twitter, Dublin Core, article and citation properties),
//! JSON-LD, microdata and the page itself (`<title>`, `<h1>`, bylines, `<time>`).

use serde_json::Value;

use super::dom::{Document, Kind, Tag, fold_whitespace};

/// What a page says about itself.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct Metadata {
    pub(crate) title: Option<String>,
    pub(crate) description: Option<String>,
    pub(crate) author: Option<String>,
    pub(crate) published: Option<String>,
    pub(crate) site_name: Option<String>,
    /// The `<base href>`, when the page sets one.
    pub(crate) base: Option<String>,
}

/// `<meta>` values by lower-case name or property.
struct Metas(Vec<(String, String)>);

impl Metas {
    fn get(&self, keys: &[&str]) -> Option<String> {
        keys.iter().find_map(|key| {
            self.0.iter().find(|(k, v)| k == key && !v.trim().is_empty()).map(|(_, v)| fold_whitespace(v))
        })
    }
}

/// JSON-LD facts: the first article-like object's fields.
#[derive(Default)]
struct LinkedData {
    headline: Option<String>,
    description: Option<String>,
    authors: Vec<String>,
    published: Option<String>,
    publisher: Option<String>,
}

/// Reads the metadata of `doc`.
pub(crate) fn read(doc: &Document) -> Metadata {
    let mut metas = Vec::new();
    let mut base = None;
    let mut h1 = None;
    let mut time = None;
    let mut rel_author = None;
    let mut byline = None;
    let mut itemprop_date = None;
    for id in 0..doc.nodes.len() as u32 {
        let Kind::Element { tag, .. } = doc.node(id).kind else { continue };
        match tag {
            Tag::Meta => {
                let key = doc
                    .attr(id, "property")
                    .or_else(|| doc.attr(id, "name"))
                    .or_else(|| doc.attr(id, "itemprop"));
                if let (Some(key), Some(content)) = (key, doc.attr(id, "content")) {
                    for key in key.split_whitespace() {
                        metas.push((key.to_ascii_lowercase(), content.to_owned()));
                    }
                }
            }
            Tag::Base if base.is_none() => base = doc.attr(id, "href").map(str::to_owned),
            Tag::H1 if h1.is_none() => h1 = Some(doc.text_content(id)).filter(|t| !t.is_empty()),
            Tag::Time if time.is_none() => {
                time = doc
                    .attr(id, "datetime")
                    .and_then(parse_date)
                    .or_else(|| parse_date(&doc.text_content(id)));
            }
            Tag::A
                if rel_author.is_none()
                    && doc
                        .attr(id, "rel")
                        .is_some_and(|r| r.split_whitespace().any(|w| w.eq_ignore_ascii_case("author"))) =>
            {
                rel_author = Some(doc.text_content(id)).filter(|t| !t.is_empty() && t.len() < 100);
            }
            _ => {}
        }
        if doc.attr(id, "itemprop").is_some_and(|p| p == "datePublished") && itemprop_date.is_none() {
            itemprop_date = doc.attr(id, "datetime").or_else(|| doc.attr(id, "content")).and_then(parse_date);
        }
        if byline.is_none()
            && tag != Tag::Meta
            && doc.attr(id, "class").is_some_and(|c| {
                c.split(|ch: char| !ch.is_ascii_alphanumeric())
                    .any(|w| w.eq_ignore_ascii_case("byline") || w.eq_ignore_ascii_case("author"))
            })
        {
            let text = doc.text_content(id);
            let text = text.strip_prefix("By ").or_else(|| text.strip_prefix("by ")).unwrap_or(&text).trim();
            if !text.is_empty() && text.len() < 100 {
                byline = Some(text.to_owned());
            }
        }
    }
    let metas = Metas(metas);
    let ld = linked_data(doc);
    let site_name = metas
        .get(&["og:site_name", "application-name", "twitter:site:name"])
        .or(ld.publisher.clone())
        .map(|s| fold_whitespace(&s));
    let title = metas
        .get(&["og:title", "twitter:title", "citation_title", "dc.title"])
        .or(ld.headline.clone())
        .or_else(|| doc.title.clone())
        .map(|t| clean_title(&t, h1.as_deref(), site_name.as_deref()))
        .or(h1)
        .filter(|t| !t.is_empty());
    let description = metas
        .get(&["description", "og:description", "twitter:description", "dc.description"])
        .or(ld.description);
    let author = metas
        .get(&[
            "author",
            "article:author",
            "citation_author",
            "dc.creator",
            "parsely-author",
            "sailthru.author",
        ])
        .filter(|a| !a.starts_with("http"))
        .or_else(|| (!ld.authors.is_empty()).then(|| ld.authors.join("; ")))
        .or(rel_author)
        .or(byline);
    let published = metas
        .get(&[
            "article:published_time",
            "og:published_time",
            "datepublished",
            "date",
            "pubdate",
            "publishdate",
            "publish-date",
            "dc.date.issued",
            "dc.date",
            "dcterms.date",
            "dcterms.created",
            "citation_publication_date",
            "citation_date",
            "parsely-pub-date",
            "sailthru.date",
        ])
        .and_then(|d| parse_date(&d))
        .or_else(|| ld.published.as_deref().and_then(parse_date))
        .or(itemprop_date)
        .or(time);
    let limit = |s: Option<String>| s.map(|s| s.chars().take(1000).collect::<String>());
    Metadata {
        title: limit(title),
        description: limit(description),
        author: limit(author),
        published,
        site_name: limit(site_name),
        base,
    }
}

/// `<title>` without the site's name: "Story | Site" → "Story".
fn clean_title(title: &str, h1: Option<&str>, site: Option<&str>) -> String {
    let title = fold_whitespace(title);
    if let Some(h1) = h1
        && !h1.is_empty()
        && title.starts_with(h1)
    {
        return h1.to_owned();
    }
    for separator in [" | ", " – ", " — ", " - ", " :: ", " · ", " » "] {
        if let Some(at) = title.rfind(separator) {
            let (head, tail) = (&title[..at], &title[at + separator.len()..]);
            let tail_is_site = site.is_some_and(|s| s.eq_ignore_ascii_case(tail.trim()));
            if tail_is_site || (tail.split_whitespace().count() <= 4 && head.split_whitespace().count() >= 2)
            {
                return head.trim().to_owned();
            }
        }
    }
    title
}

fn linked_data(doc: &Document) -> LinkedData {
    let mut out = LinkedData::default();
    for text in &doc.json_ld {
        let Ok(value) = serde_json::from_str::<Value>(text.trim()) else { continue };
        let mut objects = Vec::new();
        flatten(&value, &mut objects, 0);
        for object in objects {
            let kind = object.get("@type").map(type_names).unwrap_or_default();
            let article = kind.iter().any(|k| {
                k.ends_with("Article")
                    || matches!(
                        k.as_str(),
                        "BlogPosting"
                            | "Report"
                            | "WebPage"
                            | "Recipe"
                            | "HowTo"
                            | "Review"
                            | "SocialMediaPosting"
                            | "LiveBlogPosting"
                    )
            });
            if !article {
                continue;
            }
            if out.headline.is_none() {
                out.headline = string(object.get("headline")).or_else(|| string(object.get("name")));
            }
            if out.description.is_none() {
                out.description = string(object.get("description"));
            }
            if out.authors.is_empty()
                && let Some(author) = object.get("author")
            {
                names(author, &mut out.authors);
            }
            if out.published.is_none() {
                out.published =
                    string(object.get("datePublished")).or_else(|| string(object.get("dateCreated")));
            }
            if out.publisher.is_none()
                && let Some(publisher) = object.get("publisher")
            {
                let mut found = Vec::new();
                names(publisher, &mut found);
                out.publisher = found.into_iter().next();
            }
        }
    }
    out
}

/// Every object in a JSON-LD value: top level, arrays and `@graph`.
fn flatten<'a>(value: &'a Value, out: &mut Vec<&'a serde_json::Map<String, Value>>, depth: usize) {
    if depth > 4 {
        return;
    }
    match value {
        Value::Array(items) => items.iter().for_each(|v| flatten(v, out, depth + 1)),
        Value::Object(map) => {
            out.push(map);
            if let Some(graph) = map.get("@graph") {
                flatten(graph, out, depth + 1);
            }
        }
        _ => {}
    }
}

fn type_names(value: &Value) -> Vec<String> {
    match value {
        Value::String(s) => vec![s.clone()],
        Value::Array(items) => items.iter().filter_map(|v| v.as_str().map(str::to_owned)).collect(),
        _ => Vec::new(),
    }
}

fn string(value: Option<&Value>) -> Option<String> {
    value.and_then(Value::as_str).map(fold_whitespace).filter(|s| !s.is_empty())
}

fn names(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::String(s) if !s.starts_with("http") => out.push(fold_whitespace(s)),
        Value::Object(map) => {
            if let Some(name) = string(map.get("name")) {
                out.push(name);
            }
        }
        Value::Array(items) => items.iter().take(10).for_each(|v| names(v, out)),
        _ => {}
    }
}

const MONTHS: [&str; 12] =
    ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

/// A date as `YYYY-MM-DD`, from ISO 8601 (`2024-05-02T10:00:00Z`, `2024/05/02`,
/// `20240502`) or written out (`2 May 2024`, `May 2, 2024`).
pub(crate) fn parse_date(text: &str) -> Option<String> {
    let text = text.trim();
    let valid = |y: u32, m: u32, d: u32| {
        ((1990..=2100).contains(&y) && (1..=12).contains(&m) && (1..=31).contains(&d))
            .then(|| format!("{y:04}-{m:02}-{d:02}"))
    };
    let b = text.as_bytes();
    // At most 9 digits: no number of interest is longer, and none overflows.
    let digits = |s: &[u8]| -> Option<u32> {
        (!s.is_empty() && s.len() <= 9 && s.iter().all(u8::is_ascii_digit))
            .then(|| s.iter().fold(0, |n, d| n * 10 + u32::from(d - b'0')))
    };
    if b.len() >= 10 && matches!(b[4], b'-' | b'/' | b'.') && b[7] == b[4] {
        return valid(digits(&b[..4])?, digits(&b[5..7])?, digits(&b[8..10])?);
    }
    if b.len() >= 8 && b[..8].iter().all(u8::is_ascii_digit) && b.get(8).is_none_or(|c| !c.is_ascii_digit()) {
        return valid(digits(&b[..4])?, digits(&b[4..6])?, digits(&b[6..8])?);
    }
    // Written out: a day, a month name and a year in either order.
    let words: Vec<String> = text
        .split(|c: char| c.is_whitespace() || c == ',' || c == '.')
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
        .collect();
    let month = words.iter().position(|w| w.len() >= 3 && MONTHS.iter().any(|m| w.starts_with(m)))?;
    let m = MONTHS.iter().position(|m| words[month].starts_with(m))? as u32 + 1;
    let number = |w: &String| digits(w.trim_end_matches(|c: char| c.is_ascii_alphabetic()).as_bytes());
    let year = words.iter().filter_map(number).find(|&n| n >= 1990)?;
    let day = [month.wrapping_sub(1), month + 1]
        .iter()
        .filter_map(|&i| words.get(i))
        .filter_map(number)
        .find(|&n| (1..=31).contains(&n))?;
    valid(year, m, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(parse_date("2024-05-02T10:00:00Z").as_deref(), Some("2024-05-02"));
        assert_eq!(parse_date("2024/05/02").as_deref(), Some("2024-05-02"));
        assert_eq!(parse_date("20240502").as_deref(), Some("2024-05-02"));
        assert_eq!(parse_date("2 May 2024").as_deref(), Some("2024-05-02"));
        assert_eq!(parse_date("May 2nd, 2024").as_deref(), Some("2024-05-02"));
        assert_eq!(parse_date("Published: September 14, 2023 at 9:00").as_deref(), Some("2023-09-14"));
        assert_eq!(parse_date("2024-13-02"), None);
        assert_eq!(parse_date("yesterday"), None);
        assert_eq!(parse_date("é"), None);
        // Found by fuzzing: long digit runs overflowed the number being read.
        assert_eq!(parse_date("99999999999 May 2024"), None);
        assert_eq!(parse_date("May 4294967296, 2024"), None);
    }

    #[test]
    fn titles_lose_the_site_name() {
        assert_eq!(clean_title("How Rivers Work | Earth Notes", None, None), "How Rivers Work");
        assert_eq!(
            clean_title("How Rivers Work - A Long Subtitle Here Too", None, Some("Earth")),
            "How Rivers Work - A Long Subtitle Here Too"
        );
        assert_eq!(clean_title("Rivers — Earth Notes", Some("Rivers"), None), "Rivers");
    }

    #[test]
    fn json_ld_graph_and_authors() {
        let doc = Document::parse(
            r#"<script type="application/ld+json">{"@graph":[{"@type":"WebSite","name":"Site"},
            {"@type":["NewsArticle"],"headline":"Head","author":[{"@type":"Person","name":"A"},{"name":"B"}],
            "datePublished":"2023-01-02","publisher":{"@type":"Organization","name":"Pub"}}]}</script>
            <script type="application/ld+json">{ not json</script>"#,
        );
        let meta = read(&doc);
        assert_eq!(meta.title.as_deref(), Some("Head"));
        assert_eq!(meta.author.as_deref(), Some("A; B"));
        assert_eq!(meta.published.as_deref(), Some("2023-01-02"));
        assert_eq!(meta.site_name.as_deref(), Some("Pub"));
    }
}

//! [`RelPath`]: a path as the model may give one.

use std::fmt;

use crate::EnvError;

/// A path relative to an environment's root: plain names joined by `/`, none of them `.`,
/// `..` or empty after parsing. The root itself is the empty path.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct RelPath(String);

/// The longest path accepted, in bytes.
const MAX_LEN: usize = 4096;

impl RelPath {
    /// The root.
    pub fn root() -> Self {
        RelPath(String::new())
    }

    /// Parses a path as a model or a user writes it. `.` components, a leading `./` and
    /// repeated or trailing slashes are dropped; everything that could leave the root or
    /// mean something else on another system is refused: an absolute path, a `..`
    /// component, a backslash, a drive (`C:`), a NUL or control character, a percent-encoded
    /// dot, slash or backslash, a path longer than 4,096 bytes.
    pub fn parse(text: &str) -> Result<Self, EnvError> {
        let refuse = |reason: &'static str| EnvError::Refused { path: text.to_owned(), reason };
        if text.len() > MAX_LEN {
            return Err(refuse("it is longer than 4,096 bytes"));
        }
        if text.starts_with('/') {
            return Err(refuse("it is absolute; paths are relative to the root"));
        }
        if text.contains('\\') {
            return Err(refuse("it holds a backslash; separate names with '/'"));
        }
        if text.chars().any(char::is_control) {
            return Err(refuse("it holds a control character"));
        }
        let bytes = text.as_bytes();
        if bytes.len() >= 2 && bytes[1] == b':' && bytes[0].is_ascii_alphabetic() {
            return Err(refuse("it names a drive"));
        }
        if percent_encoded_separator(text) {
            return Err(refuse("it holds a percent-encoded dot, slash or backslash"));
        }
        let mut names: Vec<&str> = Vec::new();
        for name in text.split('/') {
            match name {
                "" | "." => {}
                ".." => return Err(refuse("it climbs out with '..'")),
                // `~` is a home directory to a shell, a plain name to the file system: refused,
                // as the model surely meant the former.
                "~" => return Err(refuse("it starts from a home directory ('~')")),
                name => names.push(name),
            }
        }
        Ok(RelPath(names.join("/")))
    }

    /// The path as text (`""` for the root).
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether this is the root.
    pub fn is_root(&self) -> bool {
        self.0.is_empty()
    }

    /// Its names, in order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.0.split('/').filter(|n| !n.is_empty())
    }

    /// The path one level up (`None` for the root).
    pub fn parent(&self) -> Option<RelPath> {
        if self.is_root() {
            return None;
        }
        Some(RelPath(self.0.rsplit_once('/').map_or(String::new(), |(p, _)| p.to_owned())))
    }

    /// The last name (`None` for the root).
    pub fn file_name(&self) -> Option<&str> {
        self.names().last()
    }

    /// This path with `name` (one plain name, as [`RelPath::parse`] accepts it) appended.
    pub fn join(&self, name: &str) -> Result<RelPath, EnvError> {
        let more = RelPath::parse(name)?;
        Ok(match (self.is_root(), more.is_root()) {
            (_, true) => self.clone(),
            (true, false) => more,
            (false, false) => RelPath(format!("{}/{}", self.0, more.0)),
        })
    }

    /// Whether `self` is `other` or inside it.
    pub fn starts_with(&self, other: &RelPath) -> bool {
        other.is_root()
            || self.0 == other.0
            || (self.0.starts_with(&other.0) && self.0.as_bytes().get(other.0.len()) == Some(&b'/'))
    }
}

impl fmt::Display for RelPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_root() { f.write_str(".") } else { f.write_str(&self.0) }
    }
}

/// Whether `text` holds `%2e`, `%2f` or `%5c` (any case), or a `%25` that could decode to one.
fn percent_encoded_separator(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    ["%2e", "%2f", "%5c", "%25"].iter().any(|s| lower.contains(s))
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn plain_paths_are_kept_and_tidied() {
        let p = |t: &str| RelPath::parse(t).map(|p| p.as_str().to_owned());
        assert_eq!(p("src/main.rs").unwrap(), "src/main.rs");
        assert_eq!(p("./src//lib.rs/").unwrap(), "src/lib.rs");
        assert_eq!(p("").unwrap(), "");
        assert_eq!(p(".").unwrap(), "");
        assert_eq!(p(".agents/skills/x/SKILL.md").unwrap(), ".agents/skills/x/SKILL.md");
        assert_eq!(p("名前/ファイル.txt").unwrap(), "名前/ファイル.txt");
        assert_eq!(p("a..b/c.").unwrap(), "a..b/c.");
    }

    #[test]
    fn every_way_out_is_refused_and_named() {
        for bad in [
            "../etc/passwd",
            "a/../../b",
            "a/..",
            "/etc/passwd",
            "//server/share",
            "C:/Windows",
            "c:evil",
            "a\\..\\b",
            "..\\x",
            "%2e%2e/etc",
            "a/%2E%2E/b",
            "a%2fb",
            "a%5c..",
            "a%252e%252e",
            "a\0b",
            "a\nb",
            "~",
            "~/x",
        ] {
            let err = RelPath::parse(bad).unwrap_err();
            assert!(err.to_string().contains(&format!("{bad:?}")), "{err}");
        }
        assert!(RelPath::parse(&"a/".repeat(3000)).is_err());
    }

    #[test]
    fn parents_names_and_joins() {
        let p = RelPath::parse("a/b/c.txt").unwrap();
        assert_eq!(p.parent().unwrap().as_str(), "a/b");
        assert_eq!(p.file_name(), Some("c.txt"));
        assert_eq!(RelPath::parse("a").unwrap().parent(), Some(RelPath::root()));
        assert_eq!(RelPath::root().parent(), None);
        assert_eq!(RelPath::root().join("x/y").unwrap().as_str(), "x/y");
        assert!(RelPath::parse("a").unwrap().join("../b").is_err());
        assert!(p.starts_with(&RelPath::parse("a/b").unwrap()));
        assert!(!RelPath::parse("a/bc").unwrap().starts_with(&RelPath::parse("a/b").unwrap()));
        assert_eq!(RelPath::root().to_string(), ".");
    }

    proptest! {
        /// Whatever the text, a parsed path is a list of plain names: nothing that a file
        /// system or a shell reads as a way up or a way elsewhere.
        #[test]
        fn parsed_paths_hold_only_plain_names(text in "([a-zA-Z0-9._~%:\\\\/ -]|\\.\\.){0,40}") {
            if let Ok(path) = RelPath::parse(&text) {
                for name in path.names() {
                    prop_assert!(!name.is_empty() && name != "." && name != "..", "{text:?} -> {path:?}");
                    prop_assert!(!name.contains('\\') && !name.contains('/'));
                    prop_assert!(!name.to_ascii_lowercase().contains("%2e"));
                }
                prop_assert!(!path.as_str().starts_with('/'));
                prop_assert_eq!(RelPath::parse(path.as_str()).unwrap(), path.clone());
            }
        }
    }
}

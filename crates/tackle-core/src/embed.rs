//! [`Embedder`]: text to vectors, for ranking by meaning (tool search is the first user).

/// Turns texts into vectors whose dot product says how close their meanings are: unit
/// length, the same dimension for every text of one embedder. Implementations run a model
/// in process (tackle-local's MiniLM) or call a service; either way the call is blocking and
/// its cost grows with the texts, so callers embed what they can ahead of time.
pub trait Embedder: Send + Sync {
    /// One vector per text, in order: the documents searched (tool descriptions), which
    /// are embedded ahead of time and may be cached.
    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError>;

    /// The vector of one query, asked once: by default as a document. Models that embed
    /// queries differently (an instruction prefix) override it; caches pass it through,
    /// since queries rarely repeat.
    fn embed_query(&self, text: &str) -> Result<Vec<f32>, EmbedError> {
        let mut vectors = self.embed(&[text])?;
        match vectors.len() {
            1 => Ok(vectors.remove(0)),
            n => Err(EmbedError {
                embedder: self.name().to_owned(),
                message: format!("{n} vectors for one query"),
            }),
        }
    }

    /// A short name for logs and reports (`all-MiniLM-L6-v2`).
    fn name(&self) -> &str;
}

/// Why texts could not be embedded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("embedding with {embedder} failed: {message}")]
pub struct EmbedError {
    /// The embedder's name.
    pub embedder: String,
    /// What went wrong.
    pub message: String,
}

/// The cosine of two vectors of unit length (their dot product); 0 when the lengths differ.
pub fn similarity(a: &[f32], b: &[f32]) -> f32 {
    if a.len() != b.len() {
        return 0.0;
    }
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// What a tool says about itself, for an embedder: its name as words, the first sentence
/// of its description, its routing hint when it has one, and its parameters' names
/// (`create issue: Create a new issue in a GitHub repository. (owner, repo, title, body)`).
/// Tool search and the local model's router embed tools this way.
pub fn tool_meaning(definition: &crate::ToolDefinition) -> String {
    let name: Vec<String> = name_words(&definition.name);
    let params: Vec<String> = definition
        .parameters
        .as_map()
        .get("properties")
        .and_then(serde_json::Value::as_object)
        .map(|p| p.keys().flat_map(|k| name_words(k)).collect())
        .unwrap_or_default();
    let hint = definition.hint().map(|h| format!(" {h}")).unwrap_or_default();
    format!("{}: {}{hint} ({})", name.join(" "), definition.summary(), params.join(", "))
}

/// `github_create_issue`, `createIssue`, `API-post-page` as lower-case words (a digit
/// continues the word before it: `file2Path` is `file2`, `path`).
pub fn name_words(name: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut previous_lower = false;
    for c in name.chars() {
        if c.is_alphanumeric() {
            if c.is_uppercase() && previous_lower && !word.is_empty() {
                words.push(std::mem::take(&mut word));
            }
            previous_lower = c.is_lowercase() || c.is_ascii_digit();
            word.extend(c.to_lowercase());
        } else {
            if !word.is_empty() {
                words.push(std::mem::take(&mut word));
            }
            previous_lower = false;
        }
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}

/// Verbs of transacting that change things both as a request's first word and in a tool's
/// name, where they are seldom nouns (a `get_schedule` or `get_order` only reads, a
/// `cancel_reservation` changes).
const TRANSACTS: &[&str] = &[
    "reserve",
    "cancel",
    "buy",
    "purchase",
    "subscribe",
    "unsubscribe",
    "enable",
    "disable",
    "register",
    "submit",
    "archive",
    "mute",
];

/// Whether a tool changes something (`Some(true)`) or only reads (`Some(false)`), as the
/// verbs of its name say (`get_issue`, `kubectl_apply`); `None` when they say neither or
/// both. Tool search and the local model's router weigh it against [`asks_to_change`].
pub fn changes_things(definition: &crate::ToolDefinition) -> Option<bool> {
    const READS: &[&str] = &[
        "get", "list", "read", "search", "find", "query", "describe", "show", "view", "fetch", "retrieve",
        "explain", "diff", "log", "logs", "status", "info", "lookup", "inspect", "check", "whoami",
    ];
    const CHANGES: &[&str] = &[
        "create",
        "add",
        "update",
        "delete",
        "remove",
        "write",
        "edit",
        "move",
        "push",
        "merge",
        "post",
        "send",
        "set",
        "patch",
        "apply",
        "scale",
        "install",
        "uninstall",
        "upgrade",
        "fork",
        "commit",
        "reset",
        "checkout",
        "close",
        "reply",
        "rename",
        "append",
        "insert",
        "drop",
        "upload",
        "assign",
        "invite",
    ];
    let words = name_words(&definition.name);
    let reads = words.iter().any(|w| READS.contains(&w.as_str()));
    let changes = words.iter().any(|w| CHANGES.contains(&w.as_str()) || TRANSACTS.contains(&w.as_str()));
    match (reads, changes) {
        (true, false) => Some(false),
        (false, true) => Some(true),
        _ => None,
    }
}

/// Whether a request asks to change something (`Some(true)`) or only to be told or shown
/// (`Some(false)`), as its first word after the politeness says (a verb of change, even
/// before a question mark; "tell" with "me" or "us" after it asks) or else a question mark;
/// `None` when it does not say ("add up" asks for a sum, a sentence may start with its
/// object). English only: another language says nothing.
pub fn asks_to_change(request: &str) -> Option<bool> {
    const POLITE: &[&str] = &[
        "hey", "hi", "please", "pls", "can", "could", "would", "you", "i", "we", "need", "want", "to", "ok",
        "so", "now", "just", "quickly",
    ];
    const ASKS: &[&str] = &[
        "what", "whats", "where", "wheres", "which", "who", "whos", "how", "hows", "when", "why", "is",
        "are", "does", "do", "did", "was", "were", "has", "have", "any", "show", "list", "find", "search",
        "look", "display", "print", "tell", "count", "check", "see", "view", "read", "give", "pull",
    ];
    const CHANGES: &[&str] = &[
        "create",
        "make",
        "delete",
        "remove",
        "rename",
        "move",
        "swap",
        "replace",
        "update",
        "edit",
        "write",
        "put",
        "save",
        "set",
        "change",
        "drop",
        "post",
        "send",
        "commit",
        "push",
        "merge",
        "start",
        "close",
        "reply",
        "comment",
        "react",
        "let",
        "record",
        "note",
        "jot",
        "store",
        "remember",
        "forget",
        "erase",
        "wipe",
        "kill",
        "fix",
        "flip",
        "bump",
        "install",
        "uninstall",
        "upgrade",
        "deploy",
        "scale",
        "restart",
        "fork",
        "copy",
        "assign",
        "invite",
        "label",
        "tag",
        "mark",
        "tick",
        "link",
        "connect",
        "prepare",
        "draft",
        "file",
        "report",
        "upload",
        "publish",
        "approve",
        "land",
        "switch",
        "point",
        // Arranging and paying (and [`TRANSACTS`]): a booking, an order, a reminder, an
        // entry in a calendar; words a tool's name also uses as nouns.
        "add",
        "schedule",
        "book",
        "remind",
        "order",
        "pay",
        "transfer",
        "block",
    ];
    // Apostrophes join, as for the terms ("what's" is `whats`).
    let mut words = request
        .split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '\u{2019}'))
        .map(|w| w.chars().filter(|c| c.is_alphanumeric()).flat_map(char::to_lowercase).collect::<String>())
        .filter(|w| !w.is_empty())
        .skip_while(|w| POLITE.contains(&w.as_str()));
    let first = words.next()?;
    let second = words.next();
    // A verb with a particle may mean either ("check out" a branch, or a page).
    if ["out", "up", "off", "over"].contains(&second.as_deref().unwrap_or_default())
        && !["look", "pull", "show"].contains(&first.as_str())
    {
        return None;
    }
    // "Tell" asks to be told ("tell me", "tell us") or orders a message sent to someone
    // else ("tell the team the deploy is done").
    if first == "tell" {
        return Some(!matches!(second.as_deref(), None | Some("me" | "us")));
    }
    // A verb of change that opens the request orders the change, however it ends ("Delete
    // the items that are out of stock?"); a question mark decides only after another word.
    if CHANGES.contains(&first.as_str()) || TRANSACTS.contains(&first.as_str()) {
        Some(true)
    } else if request.trim_end().ends_with('?') || ASKS.contains(&first.as_str()) {
        Some(false)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use crate::{JsonSchema, ToolDefinition, asks_to_change, changes_things};

    #[test]
    fn a_tool_means_its_name_first_sentence_and_parameters() {
        let schema = JsonSchema::new(serde_json::json!({
            "type": "object",
            "properties": {"pullNumber": {"type": "integer"}, "repo_name": {"type": "string"}}
        }))
        .unwrap();
        let tool = ToolDefinition::new("github_getPullRequest", "Get a pull request. Needs a token.", schema);
        assert_eq!(
            super::tool_meaning(&tool),
            "github get pull request: Get a pull request. (pull, number, repo, name)"
        );
        assert_eq!(
            ToolDefinition::new("t", "x".repeat(300), JsonSchema::empty_object()).summary().chars().count(),
            201
        );
        // A routing hint says when to use the tool: it follows the first sentence.
        let mut hinted = tool.clone();
        hinted.routing_hint = Some("Use when the user names a pull request.".into());
        assert_eq!(
            super::tool_meaning(&hinted),
            "github get pull request: Get a pull request. Use when the user names a pull request. (pull, number, repo, name)"
        );
        assert_eq!(hinted.hint(), Some("Use when the user names a pull request."));
        assert_eq!(tool.hint(), None);
        hinted.routing_hint = Some("  ".into());
        assert_eq!(hinted.hint(), None);
        assert_eq!(super::name_words("file2Path"), ["file2", "path"]);
    }

    #[test]
    fn requests_and_tools_say_whether_they_change_things() {
        for query in [
            "whats in config/app.yaml",
            "is PR 140 green",
            "could you show me /etc/hosts",
            "the rollout, did it finish?",
            "tell me what changed in v2",
            "can you tell us the opening hours?",
            "tell",
        ] {
            assert_eq!(asks_to_change(query), Some(false), "{query}");
        }
        for query in [
            "hey, could you delete the branch",
            "rename old.docx",
            "jot this down",
            "please swap print for log",
            "tell the team in #ops that the deploy is done",
            "Delete clothing items that are in stock and under $50?",
            "add dentist appointment on friday at 3pm to my calendar",
            "schedule a call with Maria tomorrow at 10",
            "remind me to water the plants at 6",
            "book a table for two at Dishoom",
            "cancel my 9am meeting",
            "comment on acme/api issue 17 that the patch is in review",
            "react with :tada: to the last message in #ops",
        ] {
            assert_eq!(asks_to_change(query), Some(true), "{query}");
        }
        // Neither a question nor a verb that changes: not known ("add up" asks for a sum).
        for query in
            ["add up 12 and 30", "old_report.docx should be called report.docx", "", "check out v3.1"]
        {
            assert_eq!(asks_to_change(query), None, "{query}");
        }
        let changes = |name: &str| {
            changes_things(&ToolDefinition::new(
                name,
                "A tool.",
                JsonSchema::new(serde_json::json!({"type": "object"})).unwrap(),
            ))
        };
        assert_eq!(changes("github_get_issue"), Some(false));
        assert_eq!(changes("kubectl_apply"), Some(true));
        assert_eq!(changes("get_or_create_thing"), None);
        assert_eq!(changes("sequentialthinking"), None);
        assert_eq!(changes("cancel_reservation"), Some(true));
        assert_eq!(changes("get_order_schedule"), Some(false), "nouns a verb may also be");
    }
}

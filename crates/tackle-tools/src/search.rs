//! Tool search for large catalogs. With more tools than a prompt (or a small model) takes,
//! the model is first offered `search_tools`: its query is ranked by BM25 against every
//! tool's name, description, parameter names and tags (and, with an embedder, by meaning,
//! the best candidates of both then ordered by weights learnt over what each ranking and
//! the request's shape say), and the tools it finds are offered from the next round on (up
//! to a cap per run, the oldest found giving way), or called at once through `call_tool`,
//! which validates and gates like any call.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, OnceLock, Weak};

use serde::Deserialize;
use serde_json::Value;
use tackle_core::{Embedder, ToolDefinition, ToolError, ToolKind};

use crate::context::{CallInfo, RunContext, ToolContext};
use crate::registry::{Registered, ToolRegistry};

/// How tool search behaves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchOptions {
    /// Search takes over when the registry holds more tools than this.
    pub threshold: usize,
    /// How many found tools a run is offered at most.
    pub cap: usize,
    /// How many tools one search returns at most.
    pub per_search: usize,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions { threshold: 40, cap: 12, per_search: 5 }
    }
}

/// How many runs' found tools are remembered (the oldest run forgotten first).
const RUNS_KEPT: usize = 1024;

/// The words that say nothing about which tool is meant.
const STOP: &[&str] = &[
    "a", "an", "the", "to", "of", "for", "and", "or", "in", "on", "with", "by", "from", "is", "are", "be",
    "this", "that", "it", "as", "at", "your", "you", "i", "me", "my", "we", "our", "please", "can", "could",
    "would", "want", "need", "let", "us", "into", "some", "all", "any", "what", "which", "there", "its",
    "if", "do", "does", "using", "use", "tool", "via", "then", "so", "about", "up", "out", "get", "given",
    "one",
];

/// Common abbreviations and everyday words for what tool descriptions name otherwise.
const SAME: &[(&str, &str)] = &[
    ("pr", "pull request"),
    ("prs", "pull request"),
    ("mr", "merge request"),
    ("repo", "repository"),
    ("repos", "repository"),
    ("folder", "directory"),
    ("folders", "directory"),
    ("dir", "directory"),
    ("dirs", "directory"),
    ("k8s", "kubernetes"),
    ("kube", "kubernetes"),
    ("a11y", "accessibility"),
    ("xhr", "network request"),
    ("aria", "accessibility"),
    ("msg", "message"),
    ("picture", "image"),
    ("photo", "image"),
    ("db", "database"),
    ("ns", "namespace"),
    ("doc", "documentation"),
    ("docs", "documentation"),
];

/// Everyday words for the operations tools name with a handful of verbs (create, get,
/// list, update, delete, search, send, run, …): a query word adds the operation's words, at
/// a lower weight. The classes are of English, not of any catalog: a word is listed for
/// what it asks to be done, whichever tools a registry holds.
const ALSO: &[(&[&str], &[&str])] = &[
    // Making something new, or keeping something for later.
    (
        &[
            "make", "new", "start", "file", "register", "record", "draft", "compose", "generate", "build",
            "insert", "put",
        ],
        &["create", "add"],
    ),
    (
        &["remember", "memorize", "note", "jot", "keep", "store", "save"],
        &["create", "add", "write", "memory"],
    ),
    (&["recall", "remembered", "forgot"], &["read", "memory"]),
    (&["stored", "saved", "know", "knows"], &["memory"]),
    // Looking at something known.
    (
        &[
            "show", "see", "view", "display", "whats", "tell", "check", "inspect", "details", "detail",
            "info", "look", "give",
        ],
        &["get", "read", "show", "describe"],
    ),
    (&["all", "every", "overview", "enumerate", "which"], &["list"]),
    // Changing something.
    (
        &[
            "change", "modify", "rename", "fix", "adjust", "alter", "tweak", "replace", "correct", "amend",
            "bump", "swap", "flip",
        ],
        &["update", "edit", "set"],
    ),
    // Getting rid of something.
    (
        &[
            "remove", "erase", "forget", "drop", "wipe", "kill", "destroy", "discard", "trash", "purge",
            "clear", "rid", "scrap",
        ],
        &["delete", "remove"],
    ),
    // Finding something not known.
    (
        &["find", "look", "lookup", "locate", "seek", "hunt", "discover", "where", "mentioning", "mentions"],
        &["search", "find", "query"],
    ),
    // Telling someone.
    (
        &[
            "tell", "notify", "ping", "reply", "say", "saying", "said", "share", "announce", "dm", "talk",
            "write",
        ],
        &["send", "post", "message"],
    ),
    // Doing something.
    (
        &["launch", "invoke", "trigger", "kick", "execute", "deploy", "perform"],
        &["run", "execute", "trigger", "apply"],
    ),
    (&["go", "visit", "browse", "load"], &["navigate", "open"]),
    (&["open"], &["navigate", "open", "read"]),
    (&["add", "append", "attach", "insert"], &["create", "add", "append"]),
    (&["close", "reopen", "resolve", "resolved", "mark"], &["update", "state", "status"]),
    (&["already", "existing", "exist", "exists", "duplicate"], &["search", "find"]),
    // What something is about.
    (&["rows", "row", "table", "tables", "sql", "records", "columns", "db"], &["sql", "query", "database"]),
    (
        &[
            "codebase",
            "function",
            "functions",
            "symbol",
            "snippet",
            "implementation",
            "defined",
            "definition",
            "call",
            "calls",
        ],
        &["code"],
    ),
    (&["biggest", "largest", "smallest", "size", "sizes", "space"], &["size", "sizes"]),
    // All of something at once.
    (&["whole", "entire", "full", "unfiltered", "everything"], &["entire", "all"]),
    // Filling in a form.
    (&["registration", "signup", "complete"], &["form", "fill"]),
    (&["viewport"], &["resize", "window"]),
    (
        &[
            "draw",
            "paint",
            "sketch",
            "illustrate",
            "illustration",
            "picture",
            "render",
            "artwork",
            "logo",
            "logos",
        ],
        &["generate", "image"],
    ),
    (&["coordinates", "gps", "lat", "latitude", "longitude"], &["coordinates", "geocode"]),
    (&["academic", "scholarly", "preprint", "preprints", "study", "studies"], &["paper", "research"]),
    // Shell commands people name operations by.
    (&["mkdir"], &["create", "directory"]),
    (&["ls"], &["list", "directory"]),
    (&["rm", "rmdir"], &["delete", "remove"]),
    (&["mv"], &["move", "rename"]),
    (&["cat"], &["read", "file"]),
    (&["altitude", "height", "high", "elevation"], &["elevation"]),
    (&["hours", "phone", "rating", "ratings", "reviews", "website"], &["details", "place"]),
    // Counting.
    (&["plus", "sum", "total", "calculate", "compute", "add"], &["sum", "add", "calculate"]),
    (&["compare", "difference", "changed", "changes"], &["diff", "compare"]),
    (&["history"], &["log"]),
    (&["undo", "revert", "rollback", "unstage"], &["reset", "revert", "rollout"]),
    // Where a tool points.
    (&["point", "pointed", "pointing", "aim", "aimed"], &["context", "set"]),
    // How many copies of a service run.
    (&["replicas", "replica", "copies", "instances"], &["scale"]),
    // Who is behind something.
    (&["maintainer", "maintainers", "maintains", "author", "authors", "account", "accounts"], &["user"]),
    // What is well known among many.
    (&["stars", "starred", "popular", "libraries", "crates"], &["repository", "search"]),
    (&["clock", "oclock"], &["time", "current"]),
    // Again and again.
    (
        &["whenever", "daily", "hourly", "weekly", "nightly", "recurring", "periodically"],
        &["recurring", "schedule"],
    ),
    // Whether something answers.
    (&["health", "healthy", "alive", "responsive", "reachable"], &["ping", "alive", "responsive"]),
    // Saying yes on a page.
    (&["agree", "agreeing", "consent"], &["click"]),
    // Several at once.
    (&["together", "both", "side"], &["multiple"]),
    // How things nest.
    (&["nested", "layout", "hierarchy"], &["tree"]),
    // Thinking a problem through.
    (&["reason", "reasoning", "carefully", "think", "thinking"], &["thinking", "sequential"]),
    // What is known of a person or thing.
    (&["fact", "facts"], &["observation"]),
    // Choosing among options.
    (&["choose", "chosen", "pick", "picked"], &["select", "option"]),
    // Waiting for something.
    (&["till", "until", "pause"], &["wait"]),
    // Going somewhere.
    (
        &[
            "km",
            "miles",
            "kilometers",
            "kilometres",
            "drive",
            "driving",
            "walk",
            "foot",
            "bike",
            "cycling",
            "route",
        ],
        &["directions", "distance"],
    ),
    // What a file's metadata says.
    (
        &["permissions", "permission", "executable", "modified", "created", "creation", "metadata", "owns"],
        &["info"],
    ),
    (&["tunnel", "tunnels", "expose"], &["forward", "port"]),
    (&["unschedulable", "schedulable", "cordon", "uncordon"], &["cordon", "node"]),
    // The parts of a document.
    (
        &[
            "paragraph",
            "paragraphs",
            "heading",
            "headings",
            "bullet",
            "bullets",
            "checkbox",
            "todo",
            "callout",
            "divider",
        ],
        &["block"],
    ),
    // Getting onto another branch.
    (&["onto", "hop"], &["checkout", "switch"]),
    (&["download", "grab", "pull"], &["fetch", "download", "get"]),
    (&["capture", "snap", "snapshot"], &["screenshot"]),
    // A browser's pop-ups.
    (&["alert", "popup", "modal", "dismiss"], &["dialog"]),
    (&["hit", "tap"], &["press", "click"]),
    (&["reply", "respond", "answer", "remark", "remarks"], &["comment"]),
    // Searching the web.
    (&["google", "online", "internet"], &["web", "search"]),
    // Typing into a page.
    (&["enter", "input"], &["type", "fill"]),
    // Showing what something holds.
    (&["print", "paste", "dump", "export"], &["read", "show", "contents"]),
    (&["evict", "eviction"], &["drain"]),
    // What trackers call an issue.
    (&["ticket", "tickets", "bug", "bugs"], &["issue"]),
    // Somewhere close by.
    (&["nearby", "nearest", "closest"], &["near", "local"]),
    // A working tree's state.
    (&["dirty", "uncommitted", "untracked"], &["status", "unstaged"]),
    // Whether checks pass.
    (&["passing", "failing", "passes", "fails", "green", "ci", "checks"], &["status"]),
    // Figures over many things.
    (
        &["rate", "rates", "stats", "statistics", "count", "counts", "metrics", "trend", "trends", "volume"],
        &["count", "statistics"],
    ),
    // A tie between two things.
    (
        &[
            "link",
            "linked",
            "links",
            "tie",
            "ties",
            "relationship",
            "relationships",
            "connection",
            "connections",
        ],
        &["relation"],
    ),
    (&["unlink", "detach", "disconnect", "untie"], &["delete", "remove", "relation"]),
    // How people stand to each other.
    (
        &["manages", "manager", "managers", "colleague", "colleagues", "boss", "mentor", "spouse", "sibling"],
        &["relation"],
    ),
    // A written document, where it is not documentation.
    (&["doc", "document", "documents"], &["page"]),
    // git's index is its staging area.
    (&["index"], &["staged"]),
    // How a library is used, as its documentation shows.
    (&["examples", "official", "framework", "frameworks", "sdk"], &["documentation", "library"]),
];

/// Phrases that ask for an operation no single word of theirs does.
const PHRASES: &[(&str, &[&str])] = &[
    ("no longer", &["delete", "remove"]),
    ("get rid of", &["delete", "remove"]),
    ("look up", &["search", "find"]),
    ("check out", &["checkout"]),
    ("set up", &["create"]),
    ("sea level", &["elevation"]),
    ("walking distance", &["near", "local"]),
    ("logged in as", &["whoami", "self", "current", "user"]),
    ("who am i", &["whoami", "self", "current", "user"]),
    ("roll back", &["rollout", "undo", "revert"]),
    // A new name for something.
    ("should be called", &["rename", "move"]),
    ("be renamed", &["rename", "move"]),
    // A new place for something.
    ("belongs under", &["move", "parent"]),
    ("sit under", &["move", "parent"]),
    ("child of", &["move", "parent"]),
    // Somewhere new to keep files.
    ("place for", &["create", "directory"]),
    ("place on disk", &["create", "directory"]),
    ("take out", &["delete", "remove"]),
    // Opening an issue is filing one.
    ("open an issue", &["create", "issue"]),
    ("open a ticket", &["create", "issue"]),
    ("open a bug", &["create", "issue"]),
    ("roll it back", &["rollout", "undo", "revert"]),
    // Asking for a merge is proposing one.
    ("propose merging", &["create", "pull request"]),
    ("request merging", &["create", "pull request"]),
    ("for merging", &["create", "pull request"]),
];

/// Phrases whose words mean something else alone, read whole: what they mean instead.
const WHOLE_PHRASES: &[(&str, &[&str])] =
    &[("close to", &["near", "local"]), ("close by", &["near", "local"])];

/// A query as the search reads it: its text for words (addresses left out), the same for
/// an embedder (what an address, a path or a pair of coordinates is, said in words), and
/// the words its chunks add.
struct Chunked {
    text: String,
    meaning: String,
    extra: Vec<(String, f64)>,
    /// The kinds of value the query names ([`Kinds`]).
    kinds: Kinds,
}

/// Kinds of value a request can name and a tool's parameters can take, as bits: a file or
/// a path, a web address, a chat channel, a commit, a place's coordinates, an e-mail
/// address, an issue or pull request by number (`#57`, `acme/web#57`) or by a tracker's key
/// (`BACKEND-4F2`, `PROJ-123`; standards named the same way, `ISO-8601`, read as one too),
/// an SQL statement, a port on a host (`127.0.0.1:5433`), an arXiv paper (`2401.01234`), a
/// named image or sound in a file (`logo.png`), a pattern of file names (`*.bak`,
/// `src/**/*.rs`), code to run (`() => document.title`, `window.scrollTo(0, 0)`).
/// A tool that takes what the request names is likelier the one meant, whatever its words
/// say.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Kinds(u16);

impl Kinds {
    const FILE: u16 = 1;
    const URL: u16 = 2;
    const CHANNEL: u16 = 4;
    const COMMIT: u16 = 8;
    const PLACE: u16 = 16;
    const EMAIL: u16 = 32;
    const ISSUE: u16 = 64;
    const SQL: u16 = 128;
    const PORT: u16 = 256;
    const PAPER: u16 = 512;
    const MEDIA: u16 = 1024;
    const PATTERN: u16 = 2048;
    const CODE: u16 = 4096;

    fn add(&mut self, kind: u16) {
        self.0 |= kind;
    }

    /// The share of `self`'s kinds that `taken` holds (0 when `self` holds none).
    fn share_taken_by(self, taken: Kinds) -> f64 {
        let named = self.0.count_ones();
        if named == 0 { 0.0 } else { f64::from((self.0 & taken.0).count_ones()) / f64::from(named) }
    }

    /// The kinds a tool takes, read from its parameters' names and formats (and from its
    /// own name for files: `move_file` takes a `source` and a `destination`).
    fn taken_by(definition: &ToolDefinition) -> Kinds {
        let mut kinds = Kinds::default();
        let of_words = |words: &[String]| {
            let has = |list: &[&str]| words.iter().any(|w| list.contains(&w.as_str()));
            let mut kinds = Kinds::default();
            if has(&["path", "paths", "file", "files", "filename", "filepath", "directory", "dir", "folder"])
            {
                kinds.add(Kinds::FILE);
            }
            if has(&["url", "urls", "uri", "href", "link"]) {
                kinds.add(Kinds::URL);
            }
            if has(&["channel"]) {
                kinds.add(Kinds::CHANNEL);
            }
            if has(&["sha", "commit", "revision"]) {
                kinds.add(Kinds::COMMIT);
            }
            if has(&["latitude", "longitude", "lat", "lng", "coordinates"]) {
                kinds.add(Kinds::PLACE);
            }
            if has(&["email"]) {
                kinds.add(Kinds::EMAIL);
            }
            if has(&["issue", "pull"]) && has(&["number", "id", "iid", "url"]) {
                kinds.add(Kinds::ISSUE);
            }
            if has(&["sql"]) {
                kinds.add(Kinds::SQL);
            }
            if has(&["port", "ports"]) {
                kinds.add(Kinds::PORT);
            }
            if has(&["function", "script", "code", "expression", "javascript", "js"]) {
                kinds.add(Kinds::CODE);
            }
            // What to look for, not what to leave out (`excludePatterns`).
            if has(&["pattern", "patterns", "glob", "globs"]) && !has(&["exclude", "ignore"]) {
                kinds.add(Kinds::PATTERN);
            }
            kinds
        };
        let name_words = tackle_core::name_words(&definition.name);
        let properties = definition.parameters.as_map().get("properties").and_then(Value::as_object);
        // A paper by its identifier: a tool about papers that takes an id.
        let about_papers = name_words.iter().any(|w| w == "paper" || w == "papers");
        let takes_id = properties
            .into_iter()
            .flatten()
            .any(|(name, _)| tackle_core::name_words(name).iter().any(|w| w == "id" || w == "ids"));
        if about_papers && takes_id {
            kinds.add(Kinds::PAPER);
        }
        if properties.is_some_and(|p| !p.is_empty()) && of_words(&name_words).0 & Kinds::FILE != 0 {
            kinds.add(Kinds::FILE);
        }
        for (name, property) in properties.into_iter().flatten() {
            // A flag takes no value, whatever its name says (`focusOnUserCode`).
            if property.get("type").and_then(Value::as_str) == Some("boolean") {
                continue;
            }
            kinds.add(of_words(&tackle_core::name_words(name)).0);
            // A parameter that takes SQL says so in its description, whatever its name.
            let description = property.get("description").and_then(Value::as_str).unwrap_or_default();
            if description.split(|c: char| !c.is_ascii_alphanumeric()).any(|w| w == "SQL") {
                kinds.add(Kinds::SQL);
            }
            match property.get("format").and_then(Value::as_str) {
                Some("uri" | "url" | "iri") => kinds.add(Kinds::URL),
                Some("email") => kinds.add(Kinds::EMAIL),
                _ => {}
            }
        }
        // An image or a sound in a file: a tool named for media that takes a file.
        let about_media = name_words
            .iter()
            .any(|w| ["media", "image", "audio", "photo", "screenshot"].contains(&w.as_str()));
        if about_media && kinds.0 & Kinds::FILE != 0 {
            kinds.add(Kinds::MEDIA);
        }
        kinds
    }
}

/// Whether `definition` searches the world outside the user's own things — the web at
/// large, or places and businesses: its name, or the first sentence of its description,
/// has the word "search" and "web", "place" or "business" (`brave_web_search`; "Search the
/// web and optionally extract content"; "Search for places using Google Places API").
fn searches_the_world(definition: &ToolDefinition) -> Option<World> {
    let first = definition.description.split(". ").next().unwrap_or_default();
    let (web, places, search) = (words("web"), words("places business"), words("search"));
    [definition.name.as_str(), first].iter().find_map(|text| {
        let said = words(text);
        if !said.iter().any(|w| search.contains(w)) {
            None
        } else if said.iter().any(|w| web.contains(w)) {
            Some(World::Web)
        } else if said.iter().any(|w| places.contains(w)) {
            Some(World::Places)
        } else {
            None
        }
    })
}

/// What a tool that searches the world searches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum World {
    /// The web at large.
    Web,
    /// Places and businesses.
    Places,
}

/// Whether `lower` is an arXiv identifier (`2401.01234`, `arxiv:1706.03762v5`): the year's
/// last two digits and the month, a point, four or five digits, perhaps a version.
fn arxiv_id(lower: &str) -> bool {
    let id = lower.strip_prefix("arxiv:").unwrap_or(lower);
    let id = id.split_once('v').map_or(id, |(id, version)| {
        if !version.is_empty() && version.chars().all(|c| c.is_ascii_digit()) { id } else { "" }
    });
    let Some((month, number)) = id.split_once('.') else { return false };
    month.len() == 4
        && month.chars().all(|c| c.is_ascii_digit())
        && matches!(month[2..].parse::<u8>(), Ok(1..=12))
        && (4..=5).contains(&number.len())
        && number.chars().all(|c| c.is_ascii_digit())
}

/// Whether `lower` names a port on a host (`localhost:8080`, `127.0.0.1:5433`,
/// `db.example.com:5432`) or maps one port to another (`5433:5432`, `3000:80`): a pair of
/// numbers only when one of them is above the ports anyone writes as a time (1023).
fn host_and_port(lower: &str) -> bool {
    let Some((host, port)) = lower.rsplit_once(':') else { return false };
    let Ok(port) = port.parse::<u16>() else { return false };
    if host.is_empty() || port == 0 {
        return false;
    }
    match host.parse::<u16>() {
        Ok(other) => other.max(port) > 1023,
        Err(_) => host == "localhost" || host.parse::<std::net::Ipv4Addr>().is_ok() || host_like(host),
    }
}

/// Whether `lower` (a chunk, lower case, trimmed) reads as a host name: three or more
/// labels (`docs.stripe.com`), or two whose last is a common top-level domain.
fn host_like(lower: &str) -> bool {
    let labels: Vec<&str> = lower.split('.').collect();
    let label_ok = |l: &&str| !l.is_empty() && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
    let Some(last) = labels.last() else { return false };
    // The last label is a top-level domain: a country's two letters or a common generic one
    // (`ingress.spec.rules` and `pdb.spec.minAvailable` are fields, not hosts).
    let domain = (labels.len() >= 3 && last.len() == 2) || GENERIC_DOMAINS.contains(last);
    labels.len() >= 2
        && labels.iter().all(label_ok)
        && last.chars().all(|c| c.is_ascii_alphabetic())
        && domain
}

/// Generic top-level domains a host name in a request ends with; with two labels only these
/// (`example.com`), with three or more a country's two letters too (`bbc.co.uk`).
const GENERIC_DOMAINS: &[&str] = &[
    "com", "org", "net", "io", "edu", "gov", "mil", "int", "info", "biz", "dev", "app", "ai", "co", "me",
    "tech", "cloud", "site", "xyz", "online", "page", "blog", "news", "shop", "store", "wiki", "live", "pro",
    "tv", "sh", "gg", "ly",
];

/// What a query's chunks stand for beyond their words: an address asks for a tool that
/// takes a URL (its parts say nothing about the tool), a file name or a path for one that
/// works on files, a `#name` for a channel. An embedder reads digits and slashes poorly, so
/// its text names the kind of an address, a path and a pair of coordinates.
fn chunk_terms(query: &str) -> Chunked {
    let (mut text, mut extra) = (String::with_capacity(query.len()), Vec::new());
    let mut meaning = String::with_capacity(query.len() + 16);
    let mut kinds = Kinds::default();
    let mut previous_number = false;
    // Whether the chunk before was a number (or a sign after one).
    let mut previous_number_chunk = false;
    // The names of the sites the request's addresses are on, read as words at a lower weight.
    let mut text_host = String::new();
    // An SQL statement: two of its keywords in capitals, or a query starting with `SELECT`
    // (a single `DELETE` or `UPDATE` in capitals is as often emphasis).
    let sql_words = query
        .split_whitespace()
        .filter(|w| SQL_KEYWORDS.contains(w))
        .collect::<std::collections::HashSet<_>>();
    let first = query.split_whitespace().next().unwrap_or_default();
    if sql_words.len() >= 2 || (first == "SELECT" && query.split_whitespace().nth(1).is_some()) {
        kinds.add(Kinds::SQL);
    }
    for chunk in query.split_whitespace() {
        // Punctuation and code quotes around a value are not part of it, nor a colon or a
        // full stop after it (`TODO.md:`, `config.yaml.`).
        let bare = chunk
            .trim_matches(|c: char| matches!(c, ',' | ';' | '(' | ')' | '"' | '\'' | '`' | '?' | '!'))
            .trim_end_matches([':', '.']);
        let lower = bare.to_ascii_lowercase();
        // A host name with or without a path after it (`docs.github.com/en/rest`).
        let host = host_like(lower.split('/').next().unwrap_or_default().trim_end_matches('.'));
        if lower.starts_with("http://") || lower.starts_with("https://") || lower.starts_with("www.") || host
        {
            extra.push(("url".to_owned(), 1.0));
            kinds.add(Kinds::URL);
            meaning.push_str("a web address ");
            // The site's own name says whose address it is (`acme.sentry.io`, `github.com`),
            // at a lower weight than a word the request says: `www`, the top-level domain
            // and the path say nothing.
            let after_scheme = lower.split_once("://").map_or(lower.as_str(), |(_, rest)| rest);
            let host_name = after_scheme.split(['/', '?', '#', ':']).next().unwrap_or_default();
            let labels: Vec<&str> = host_name.split('.').collect();
            for label in labels.iter().take(labels.len().saturating_sub(1)) {
                if *label != "www" && label.chars().any(|c| c.is_ascii_alphabetic()) {
                    text_host.push_str(label);
                    text_host.push(' ');
                }
            }
            continue;
        }
        let email =
            lower.split_once('@').is_some_and(|(user, domain)| !user.is_empty() && domain.contains('.'));
        if email {
            kinds.add(Kinds::EMAIL);
        }
        // A commit: 7 to 40 hexadecimal digits, with letters and digits both.
        if (7..=40).contains(&lower.len())
            && lower.chars().all(|c| c.is_ascii_hexdigit())
            && lower.chars().any(|c| c.is_ascii_digit())
            && lower.chars().any(|c| c.is_ascii_alphabetic())
        {
            kinds.add(Kinds::COMMIT);
        }
        // A version's tag (`v1.2`, `v3.1.0`) names a revision too.
        if let Some(version) = lower.strip_prefix('v')
            && version.contains('.')
            && version.split('.').all(|part| !part.is_empty() && part.chars().all(|c| c.is_ascii_digit()))
        {
            kinds.add(Kinds::COMMIT);
        }
        // A revision in git's notation: `HEAD`, `HEAD~2`, `main^`, `v2.1.0~1`.
        if bare == "HEAD"
            || bare.rsplit_once(['~', '^']).is_some_and(|(base, back)| {
                !base.is_empty()
                    && base.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '/'))
                    && back.chars().all(|c| c.is_ascii_digit())
            })
        {
            kinds.add(Kinds::COMMIT);
        }
        // Two decimal numbers in a row (`-33.8568, 151.2153`, or without the space) are a
        // place's coordinates.
        let is_decimal =
            |t: &str| t.trim_end_matches('.').parse::<f64>().is_ok_and(f64::is_finite) && t.contains('.');
        let pair = bare.split_once(',').is_some_and(|(a, b)| is_decimal(a) && is_decimal(b));
        let decimal = is_decimal(bare) || pair;
        if (decimal && previous_number) || pair {
            meaning.push_str("(latitude and longitude coordinates) ");
            kinds.add(Kinds::PLACE);
        }
        previous_number = decimal;
        let extension = lower.rsplit_once('.');
        // Single letters between points are an abbreviation (`e.g`, `i.e`, `a.m`), not a file.
        let abbreviation = lower.split('.').all(|part| part.chars().count() <= 1);
        let file_like = !abbreviation
            && extension.is_some_and(|(name, ext)| {
                !name.is_empty()
                    && (1..=4).contains(&ext.len())
                    && ext.chars().all(|c| c.is_ascii_alphanumeric())
                    && ext.chars().any(|c| c.is_ascii_alphabetic())
            });
        let rooted = ["/", "~/", "./", "../"].iter().any(|start| lower.starts_with(start));
        // A relative path of three parts or more (`tests/fixtures/images`); `owner/repo` and
        // `feature/name` have two, and a date (`12/04/2026`) has no letter.
        let nested = lower.matches('/').count() >= 2
            && !lower.contains("//")
            && lower.split('/').filter(|part| !part.is_empty()).count() >= 3
            && lower.chars().any(char::is_alphabetic)
            && lower.chars().all(|c| c.is_alphanumeric() || matches!(c, '/' | '-' | '_' | '.'));
        // A dot file (`.env`, `.gitignore`) is a file.
        let dot_file = lower.len() > 2
            && lower.starts_with('.')
            && lower[1..].chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.')
            && lower[1..].chars().any(|c| c.is_ascii_alphabetic());
        // An issue or a pull request by number: `#57`, `acme/web#57`, GitLab's `group/app!12`.
        let issue = lower.rsplit_once(['#', '!']).is_some_and(|(before, number)| {
            !number.is_empty()
                && number.chars().all(|c| c.is_ascii_digit())
                && before.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '/' | '-' | '_' | '.'))
                && before.matches('/').count() <= 2
        });
        // An issue by its key, as trackers write it (`BACKEND-4F2`, `PROJ-123`): a project's
        // code in capitals, a hyphen, then capitals and digits with at least one digit.
        let issue = issue
            || bare.split_once('-').is_some_and(|(project, code)| {
                project.len() >= 2
                    && project.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
                    && project.starts_with(|c: char| c.is_ascii_uppercase())
                    && !code.is_empty()
                    && code.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
                    && code.chars().any(|c| c.is_ascii_digit())
            });
        let file = !decimal
            && !email
            && !issue
            && (file_like || rooted || nested || dot_file || (lower.len() > 1 && lower.ends_with('/')));
        if file {
            meaning.push_str("the file ");
        }
        if issue {
            meaning.push_str("the issue or pull request ");
            kinds.add(Kinds::ISSUE);
        }
        if arxiv_id(&lower) {
            meaning.push_str("the arXiv paper ");
            kinds.add(Kinds::PAPER);
        }
        if host_and_port(&lower) {
            kinds.add(Kinds::PORT);
        }
        // Code: an arrow function, or a call of a method by its dotted name
        // (`window.scrollTo(0,`, `document.querySelector('a')`).
        let dotted_call = bare.split_once('(').is_some_and(|(callee, _)| {
            callee.contains('.')
                && !callee.starts_with('.')
                && !callee.ends_with('.')
                && callee.split('.').all(|part| {
                    part.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_' || c == '$')
                        && part.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
                })
        });
        if chunk.contains("=>") || dotted_call {
            kinds.add(Kinds::CODE);
        }
        // A pattern of file names: a wildcard among a name's letters (`*.bak`,
        // `services/*`), not SQL's `count(*)`.
        let pattern = bare.contains('*')
            && bare.chars().any(|c| c.is_alphanumeric())
            && bare.chars().all(|c| {
                c.is_alphanumeric()
                    || matches!(c, '*' | '?' | '.' | '/' | '-' | '_' | '[' | ']' | '{' | '}' | ',')
            });
        if pattern {
            meaning.push_str("files matching ");
            kinds.add(Kinds::PATTERN | Kinds::FILE);
        }
        // A plus sign after a number asks for a sum (`1234 + 8766`).
        if bare == "+" && previous_number_chunk {
            for word in ["plus", "sum", "add"] {
                extra.push((word.to_owned(), ALSO_WEIGHT));
            }
        }
        previous_number_chunk = !bare.is_empty() && bare.chars().all(|c| c.is_ascii_digit() || c == '.')
            || (bare == "+" && previous_number_chunk);
        // A format's extension alone names the format (`export it as md`).
        if let Some((_, format)) = FORMATS.iter().find(|(short, _)| *short == lower) {
            extra.push(((*format).to_owned(), 1.0));
        }
        meaning.push_str(chunk);
        meaning.push(' ');
        if file {
            extra.push(("file".to_owned(), ALSO_WEIGHT));
            extra.push(("path".to_owned(), ALSO_WEIGHT));
            kinds.add(Kinds::FILE);
            // A named image or sound (`logo.png`; `.png` alone is a kind of file to look for).
            if extension.is_some_and(|(name, ext)| !name.is_empty() && MEDIA_EXTENSIONS.contains(&ext)) {
                kinds.add(Kinds::MEDIA);
            }
        }
        if let Some(name) = lower.strip_prefix('#')
            && name.chars().any(char::is_alphabetic)
            && name.chars().all(|c| c.is_alphanumeric() || c == '-' || c == '_')
        {
            extra.push(("channel".to_owned(), ALSO_WEIGHT));
            kinds.add(Kinds::CHANNEL);
        }
        text.push_str(chunk);
        text.push(' ');
    }
    if !text_host.is_empty() {
        extra.push((text_host, HOST_WEIGHT));
    }
    Chunked { text, meaning, extra, kinds }
}

/// Whether `request` begins by naming a part of something (`contents of /var/log`, `body and
/// labels of acme/web#15`, `sentry: error rate of project web`): "of" among its second to
/// fourth words. The ranking reads that as asking to be shown only where
/// [`tackle_core::asks_to_change`] does not say (the request starts with no verb it knows).
fn names_a_thing(request: &str) -> bool {
    request
        .split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '\u{2019}'))
        .filter(|w| !w.is_empty())
        .take(4)
        .skip(1)
        .any(|w| w.eq_ignore_ascii_case("of"))
}

/// The weight of a word of the site an address is on.
const HOST_WEIGHT: f64 = 0.5;

/// SQL's keywords, as people write them in a statement (in capitals).
const SQL_KEYWORDS: &[&str] = &[
    "SELECT", "INSERT", "UPDATE", "DELETE", "FROM", "WHERE", "JOIN", "GROUP", "ORDER", "LIMIT", "INTO",
    "VALUES", "SET",
];

/// The extensions of image, sound and video files.
const MEDIA_EXTENSIONS: &[&str] = &[
    "png", "jpg", "jpeg", "gif", "webp", "bmp", "tif", "tiff", "svg", "heic", "ico", "mp3", "wav", "ogg",
    "flac", "m4a", "aac", "opus", "mp4", "mov", "webm", "mkv", "avi",
];

/// File extensions that, standing alone, name a format.
const FORMATS: &[(&str, &str)] = &[("md", "markdown"), ("yml", "yaml")];

/// The weight of a word a query gains from [`ALSO`], and of `list` for a plural noun.
const ALSO_WEIGHT: f64 = 0.7;

/// The words of `text`: split at anything but letters and digits and at lower-to-upper
/// case changes (`createIssue` is `create issue`), lower-cased, abbreviations written out,
/// stop words dropped, and reduced to their stems (Snowball's English stemmer).
pub(crate) fn words(text: &str) -> Vec<String> {
    let stemmer = stemmer();
    let mut out = Vec::new();
    let mut word = String::new();
    let mut previous_lower = false;
    let flush = |word: &mut String, out: &mut Vec<String>| {
        if !word.is_empty() {
            let lower = word.to_lowercase();
            let expanded =
                SAME.iter().find(|(short, _)| *short == lower).map_or(lower.as_str(), |(_, long)| long);
            for part in expanded.split(' ') {
                if !STOP.contains(&part) {
                    out.push(stemmer.stem(part).into_owned());
                }
            }
            word.clear();
        }
    };
    // A camel-case word also stands whole: people write `cronjob` and `configmap` for
    // `CronJob` and `ConfigMap`.
    let (mut whole, mut parts) = (String::new(), 0);
    let end_of_whole = |whole: &mut String, parts: &mut usize, out: &mut Vec<String>| {
        if *parts > 1 {
            out.push(stemmer.stem(&whole.to_lowercase()).into_owned());
        }
        whole.clear();
        *parts = 0;
    };
    for c in text.chars() {
        if c.is_alphanumeric() {
            if c.is_uppercase() && previous_lower {
                flush(&mut word, &mut out);
                parts += 1;
            }
            previous_lower = c.is_lowercase() || c.is_ascii_digit();
            word.push(c);
            whole.push(c);
        } else {
            if !word.is_empty() {
                parts += 1;
            }
            flush(&mut word, &mut out);
            end_of_whole(&mut whole, &mut parts, &mut out);
            previous_lower = false;
        }
    }
    if !word.is_empty() {
        parts += 1;
    }
    flush(&mut word, &mut out);
    end_of_whole(&mut whole, &mut parts, &mut out);
    out
}

/// Whether `word` (lower case) is a past or a progressive form of one of `asks` ("stored",
/// "saving"): the same operation asked for. Plurals are not (`files` is no `file` a bug).
fn inflected(word: &str, asks: &[&str]) -> bool {
    if !(word.ends_with("ed") || word.ends_with("ing")) || word.len() < 5 {
        return false;
    }
    let stem = stemmer().stem(word);
    asks.iter().any(|ask| stemmer().stem(ask) == stem)
}

fn stemmer() -> &'static rust_stemmers::Stemmer {
    static STEMMER: OnceLock<rust_stemmers::Stemmer> = OnceLock::new();
    STEMMER.get_or_init(|| rust_stemmers::Stemmer::create(rust_stemmers::Algorithm::English))
}

/// Whether `word` (lower case) reads as a plural noun: it ends in `s` (not `ss`, `us`,
/// `is`), is longer than three letters and is no stop word or verb form we know.
fn is_plural(word: &str) -> bool {
    // An abbreviation with a plural (`prs`, `repos`): both forms are written out.
    let short = |w: &str| SAME.iter().any(|(s, _)| *s == w);
    if let Some(singular) = word.strip_suffix('s')
        && short(word)
        && short(singular)
    {
        return true;
    }
    word.len() > 3
        && word.ends_with('s')
        && !["ss", "us", "is", "ous"].iter().any(|end| word.ends_with(end))
        && !STOP.contains(&word)
        && !ALSO.iter().any(|(asks, _)| asks.contains(&word))
        && word.chars().all(|c| c.is_ascii_alphabetic())
}

/// One BM25 collection: documents as weighted term counts with their lengths.
#[derive(Debug, Default)]
struct Collection {
    docs: Vec<(HashMap<String, f64>, f64)>,
    df: HashMap<String, usize>,
    average: f64,
}

impl Collection {
    fn new(docs: Vec<HashMap<String, f64>>) -> Collection {
        let mut df: HashMap<String, usize> = HashMap::new();
        for tf in &docs {
            for word in tf.keys() {
                *df.entry(word.clone()).or_default() += 1;
            }
        }
        let docs: Vec<(HashMap<String, f64>, f64)> = docs
            .into_iter()
            .map(|tf| {
                let length = tf.values().sum();
                (tf, length)
            })
            .collect();
        let total: f64 = docs.iter().map(|d| d.1).sum();
        let average = if docs.is_empty() { 1.0 } else { total / docs.len() as f64 };
        Collection { docs, df, average }
    }

    /// Document `i`'s BM25 score for the weighted `terms`.
    fn score(&self, i: usize, terms: &[(String, f64)]) -> f64 {
        const K1: f64 = 1.2;
        const B: f64 = 0.75;
        let n = self.docs.len() as f64;
        let (tf, length) = &self.docs[i];
        terms
            .iter()
            .filter_map(|(t, weight)| tf.get(t).map(|f| (t, weight, f)))
            .map(|(t, weight, f)| {
                let df = self.df.get(t).copied().unwrap_or(0) as f64;
                let idf = (1.0 + (n - df + 0.5) / (df + 0.5)).ln();
                weight * idf * f * (K1 + 1.0) / (f + K1 * (1.0 - B + B * length / self.average))
            })
            .sum()
    }
}

/// A BM25 index over tool definitions, fields weighted: name ×3, tags ×2, description and
/// parameter names ×1, parameter descriptions ×½.
#[derive(Default)]
pub(crate) struct Index {
    names: Vec<String>,
    tools: Collection,
    /// The kinds of value each tool takes.
    kinds: Vec<Kinds>,
    /// Whether each tool changes something ([`tackle_core::changes_things`]).
    changes: Vec<Option<bool>>,
    /// The words of each tool's name, as BM25 reads them.
    name_terms: Vec<Vec<String>>,
    /// Each tool's tags, joined: the tools of one MCP server (or one toolset) share them.
    groups: Vec<String>,
    /// Whether each tool searches the web at large (its name or its description's first
    /// sentence says "web" and "search").
    searches_world: Vec<Option<World>>,
    /// Each tool's meaning as a vector, and the embedder that reads queries the same way.
    dense: Option<Dense>,
}

/// The embedder, and each tool's vectors in the order of the tools: of its meaning
/// ([`tackle_core::tool_meaning`]) and of its name's words.
struct Dense {
    embedder: Arc<dyn Embedder>,
    meanings: Vec<Vec<f32>>,
    names: Vec<Vec<f32>>,
    /// What people ask of a search of the web, and of a search for places
    /// ([`WEB_QUESTIONS`], [`PLACE_QUESTIONS`]).
    world: [Vec<Vec<f32>>; 2],
}

/// What people ask a search of the web for, beyond what such a tool's own text says (it
/// says how it searches, not what is found): one question of each common kind. A tool that
/// searches the web means its own text or the closest of these to the request.
const WEB_QUESTIONS: &[&str] = &[
    "who won the match last night",
    "what happened in the election",
    "latest news about the company",
    "how much does the new phone cost",
    "what are reviews saying about this laptop",
    "when does the festival start this year",
    "is the law passed yet",
];

/// The same for a search of places: what people look for somewhere.
const PLACE_QUESTIONS: &[&str] = &[
    "good restaurants near the old town",
    "a pharmacy open late around the station",
    "hotels in the city centre",
    "where can I hire a car in town",
];

impl std::fmt::Debug for Index {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Index")
            .field("tools", &self.names.len())
            .field("embedder", &self.dense.as_ref().map(|d| d.embedder.name()))
            .finish()
    }
}

impl Index {
    pub(crate) fn new<'a>(
        definitions: impl IntoIterator<Item = &'a ToolDefinition>,
        embedder: Option<Arc<dyn Embedder>>,
    ) -> Index {
        let (mut names, mut docs, mut meanings, mut kinds) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        let (mut changes, mut name_terms, mut groups) = (Vec::new(), Vec::new(), Vec::new());
        let mut searches_world = Vec::new();
        for definition in definitions {
            searches_world.push(searches_the_world(definition));
            meanings.push(tackle_core::tool_meaning(definition));
            kinds.push(Kinds::taken_by(definition));
            changes.push(tackle_core::changes_things(definition));
            name_terms.push(words(&definition.name));
            groups.push(definition.tags.join(","));
            let mut tf: HashMap<String, f64> = HashMap::new();
            let mut add = |text: &str, weight: f64| {
                for word in words(text) {
                    *tf.entry(word).or_default() += weight;
                }
            };
            add(&definition.name, 3.0);
            for tag in &definition.tags {
                add(tag, 2.0);
            }
            add(&definition.description, 1.0);
            if let Some(Value::Object(properties)) = definition.parameters.as_map().get("properties") {
                for (name, property) in properties {
                    add(name, 1.0);
                    if let Some(description) = property.get("description").and_then(Value::as_str) {
                        add(description, 0.5);
                    }
                    // The values a parameter takes name what the tool works on.
                    for value in property.get("enum").and_then(Value::as_array).into_iter().flatten() {
                        if let Some(value) = value.as_str() {
                            add(value, 0.5);
                        }
                    }
                }
            }
            names.push(definition.name.clone());
            docs.push(tf);
        }
        // Without vectors for every tool, words alone rank (an embedder that fails is
        // reported, not fatal).
        let dense = embedder.and_then(|embedder| {
            // Each tool's meaning, then its name alone as words (`github create issue`).
            let phrases: Vec<String> = names.iter().map(|n| tackle_core::name_words(n).join(" ")).collect();
            let texts: Vec<&str> = meanings
                .iter()
                .chain(&phrases)
                .map(String::as_str)
                .chain(WEB_QUESTIONS.iter().chain(PLACE_QUESTIONS).copied())
                .collect();
            match embedder.embed(&texts) {
                Ok(mut vectors) if vectors.len() == texts.len() => {
                    let places = vectors.split_off(vectors.len() - PLACE_QUESTIONS.len());
                    let web = vectors.split_off(vectors.len() - WEB_QUESTIONS.len());
                    let names = vectors.split_off(meanings.len());
                    Some(Dense { embedder, meanings: vectors, names, world: [web, places] })
                }
                Ok(vectors) => {
                    tracing::warn!(
                        embedder = embedder.name(),
                        expected = texts.len(),
                        got = vectors.len(),
                        "tool search ranks by words only: the embedder returned another number of vectors"
                    );
                    None
                }
                Err(error) => {
                    tracing::warn!(%error, "tool search ranks by words only");
                    None
                }
            }
        });
        Index {
            names,
            tools: Collection::new(docs),
            kinds,
            changes,
            name_terms,
            groups,
            searches_world,
            dense,
        }
    }

    /// The query's terms for BM25: each word at weight 1, and the words of the operations
    /// it asks for at a lower one; many of something (a plural noun) asks for a list.
    fn terms(query: &str, extra: Vec<(String, f64)>) -> Vec<(String, f64)> {
        // A phrase read whole is not read word by word ("close to" is no closing). ASCII
        // lower case keeps every byte where it was, so the places found in it are the query's.
        let mut whole = Vec::new();
        let mut read = query.to_owned();
        let lower = query.to_ascii_lowercase();
        for (phrase, means) in WHOLE_PHRASES {
            let places: Vec<usize> = lower.match_indices(phrase).map(|(at, _)| at).collect();
            for &at in &places {
                read.replace_range(at..at + phrase.len(), &" ".repeat(phrase.len()));
            }
            if !places.is_empty() {
                whole.extend(means.iter().flat_map(|m| words(m)).map(|w| (w, ALSO_WEIGHT)));
            }
        }
        let query = read.as_str();
        let mut terms: Vec<(String, f64)> = words(query).into_iter().map(|w| (w, 1.0)).collect();
        terms.extend(
            extra.into_iter().flat_map(|(w, weight)| words(&w).into_iter().map(move |w| (w, weight))),
        );
        terms.extend(whole);
        let lower = query.to_lowercase();
        for (phrase, also) in PHRASES {
            if lower.contains(phrase) {
                for target in *also {
                    terms.extend(words(target).into_iter().map(|w| (w, ALSO_WEIGHT)));
                }
            }
        }
        // Apostrophes join ("what's" is `whats`, "isn't" is `isnt`).
        for word in query.split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '\u{2019}')) {
            let lower: String =
                word.chars().filter(|c| c.is_alphanumeric()).flat_map(char::to_lowercase).collect();
            for (_, also) in
                ALSO.iter().filter(|(asks, _)| asks.contains(&lower.as_str()) || inflected(&lower, asks))
            {
                for target in *also {
                    terms.extend(words(target).into_iter().map(|w| (w, ALSO_WEIGHT)));
                }
            }
            if is_plural(&lower) {
                terms.push(("list".to_owned(), ALSO_WEIGHT));
            }
        }
        terms.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.total_cmp(&a.1)));
        terms.dedup_by(|a, b| a.0 == b.0);
        terms
    }

    /// The tools worth ranking for `query` with what the ranking reads of each
    /// ([`RANKING_FEATURES`]); when there is no meaning to read (no embedder, or it failed
    /// on this query), the BM25 scores instead.
    fn candidates(&self, query: &str) -> Result<Vec<(usize, Features)>, Vec<f64>> {
        let Chunked { text, meaning: meaning_text, extra, kinds } = chunk_terms(query);
        let terms = Index::terms(&text, extra);
        let words: Vec<f64> = (0..self.names.len()).map(|i| self.tools.score(i, &terms)).collect();
        let Some(dense) = &self.dense else { return Err(words) };
        let query_vector = match dense.embedder.embed_query(&meaning_text) {
            Ok(q) => q,
            Err(error) => {
                tracing::warn!(%error, "tool search ranks this query by words only");
                return Err(words);
            }
        };
        let cosine = |v: &Vec<f32>| f64::from(tackle_core::similarity(&query_vector, v));
        let world = dense.world.each_ref().map(|questions| questions.iter().map(cosine).fold(0.0, f64::max));
        let meaning: Vec<f64> = dense
            .meanings
            .iter()
            .zip(&self.searches_world)
            .map(|(v, searches)| match searches {
                Some(World::Web) => cosine(v).max(world[0]),
                Some(World::Places) => cosine(v).max(world[1]),
                None => cosine(v),
            })
            .collect();
        let fused = fuse(&words, &meaning);
        let mut pool = best(&fused, &self.names, POOL_FUSED);
        let mut pooled = vec![false; self.names.len()];
        for &i in &pool {
            pooled[i] = true;
        }
        // And every tool that takes a kind of value the request names, whatever its words.
        let takers = (0..self.names.len()).filter(|&i| kinds.share_taken_by(self.kinds[i]) > 0.0);
        // And the tools that search the web, the fallback when nothing else fits.
        let web = (0..self.names.len()).filter(|&i| self.searches_world[i].is_some());
        for i in best(&words, &self.names, POOL_EACH)
            .into_iter()
            .chain(best(&meaning, &self.names, POOL_EACH))
            .chain(takers)
            .chain(web)
        {
            if !std::mem::replace(&mut pooled[i], true) {
                pool.push(i);
            }
        }
        let places = |scores: &[f64]| {
            let mut place = vec![0.0; scores.len()];
            for (rank, i) in best(scores, &self.names, scores.len()).into_iter().enumerate() {
                place[i] = 1.0 / (1.0 + rank as f64);
            }
            place
        };
        let (words_place, meaning_place) = (places(&words), places(&meaning));
        let top_words = words.iter().copied().fold(0.0, f64::max);
        // How many of the ten best by the fused ranking (the pool's first places) come from
        // each tool's server.
        let leaders: Vec<usize> = pool.iter().take(10).copied().collect();
        let server_share = |i: usize| {
            let group = &self.groups[i];
            if group.is_empty() {
                return 0.0;
            }
            leaders.iter().filter(|&&j| self.groups[j] == *group).count() as f64 / 10.0
        };
        // How far the request is from every tool that does not search the web: the closer
        // the best of them, the less a web search is the tool meant.
        let unmatched = 1.0
            - (0..self.names.len())
                .filter(|&i| self.searches_world[i].is_none())
                .map(|i| meaning[i])
                .fold(0.0, f64::max);
        let asks_change =
            tackle_core::asks_to_change(&text).or_else(|| names_a_thing(&text).then_some(false));
        let weight_of: HashMap<&str, f64> = terms.iter().map(|(t, w)| (t.as_str(), *w)).collect();
        Ok(pool
            .into_iter()
            .map(|i| {
                let effect = match (asks_change, self.changes[i]) {
                    (Some(asked), Some(does)) if asked == does => 1.0,
                    (Some(_), Some(_)) => -1.0,
                    _ => 0.0,
                };
                let name = &self.name_terms[i];
                let named = name.iter().filter_map(|t| weight_of.get(t.as_str())).sum::<f64>()
                    / name.len().max(1) as f64;
                let features = [
                    if top_words > 0.0 { words[i] / top_words } else { 0.0 },
                    meaning[i],
                    cosine(&dense.names[i]),
                    words_place[i],
                    meaning_place[i],
                    kinds.share_taken_by(self.kinds[i]),
                    effect,
                    named,
                    server_share(i),
                    if self.searches_world[i].is_some() { unmatched } else { 0.0 },
                ];
                (i, features)
            })
            .collect())
    }

    /// The names of the tools that best match `query`, best first, at most `limit`: by the
    /// learnt weights over [`RANKING_FEATURES`] when the meaning is known, else by words.
    pub(crate) fn search(&self, query: &str, limit: usize) -> Vec<(String, f64)> {
        let candidates = match self.candidates(query) {
            Ok(candidates) => candidates,
            Err(words) => {
                return best(&words, &self.names, limit)
                    .into_iter()
                    .map(|i| (self.names[i].clone(), words[i]))
                    .collect();
            }
        };
        let mut scored: Vec<(usize, f64)> = candidates
            .into_iter()
            .map(|(i, features)| (i, features.iter().zip(RANKING_WEIGHTS).map(|(f, w)| f * w).sum()))
            .collect();
        scored.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| self.names[a.0].cmp(&self.names[b.0])));
        scored.truncate(limit);
        scored.into_iter().map(|(i, score)| (self.names[i].clone(), score)).collect()
    }
}

/// What the ranking reads of one tool for one query, in this order: its BM25 score over the
/// best one's; the cosine of its meaning and the query's; that cosine less the best one;
/// its place by words and by meaning (1 first, ½ second, …); the share of the values the
/// request names (a file, an address, a channel, …) that it takes; whether it changes
/// things as the request asks (1), not as it asks (−1), or either is not known (0); and
/// how much of its name the request's words (and the operations they ask for) cover; how
/// many of the ten best by the fused score share its tags; and, for a tool that searches the
/// web, how far the request is in meaning from every tool that does not (1 less the best
/// cosine; 0 for the other tools).
pub const RANKING_FEATURES: [&str; 10] = [
    "words",
    "meaning",
    "name_meaning",
    "words_place",
    "meaning_place",
    "kinds",
    "effect",
    "name",
    "server",
    "open_world",
];

/// One tool's [`RANKING_FEATURES`] for one query.
pub type Features = [f64; 10];

/// The weights of [`RANKING_FEATURES`], learnt by tackle-local's `tool_search_weights`
/// example (softmax over each request's candidates) on the development requests of
/// `data/tool-requests*.jsonl`.
#[allow(clippy::approx_constant, reason = "learnt numbers; one of them happens to begin like π")]
const RANKING_WEIGHTS: Features =
    [3.9301, 5.1989, 3.2747, 0.7328, 1.2366, 3.6985, 1.3515, 2.7978, 1.2244, -0.2126];

/// How many tools the fused ranking gives the learnt ranking to order, and how many more
/// each of words and meaning adds.
const POOL_FUSED: usize = 30;
const POOL_EACH: usize = 10;

/// A tool-search index over tool definitions, as `search_tools` ranks them: BM25 over
/// names, descriptions, parameters and tags; with an embedder, the meaning of each tool as
/// well, and a learnt ordering of the best candidates.
pub struct ToolIndex(Index);

impl std::fmt::Debug for ToolIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl ToolIndex {
    /// Indexes `definitions`; each is embedded once, here, when an `embedder` is given.
    pub fn new<'a>(
        definitions: impl IntoIterator<Item = &'a ToolDefinition>,
        embedder: Option<Arc<dyn Embedder>>,
    ) -> ToolIndex {
        ToolIndex(Index::new(definitions, embedder))
    }

    /// The names of the tools that best match `query` with their scores, best first, at
    /// most `limit`.
    pub fn search(&self, query: &str, limit: usize) -> Vec<(String, f64)> {
        self.0.search(query, limit)
    }

    /// The candidates the learnt ordering ranks for `query`, each with its
    /// [`RANKING_FEATURES`], for learning their weights; empty without an embedder.
    pub fn candidates(&self, query: &str) -> Vec<(String, Features)> {
        self.0
            .candidates(query)
            .map(|c| c.into_iter().map(|(i, f)| (self.0.names[i].clone(), f)).collect())
            .unwrap_or_default()
    }
}

/// The indices of the `limit` highest positive scores, highest first (ties by name).
fn best(scores: &[f64], names: &[String], limit: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..scores.len()).filter(|&i| scores[i] > 0.0).collect();
    order.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]).then_with(|| names[a].cmp(&names[b])));
    order.truncate(limit);
    order
}

/// How much of a tool's fused score its meaning gives (the rest its words).
const MEANING_WEIGHT: f64 = 0.7;

/// One score per tool from the words' BM25 scores and the meanings' cosines, which picks
/// most of the candidates the learnt ordering ranks: the BM25 scores scaled to the best one
/// (so that 1 is the best match by words, whatever the query's length), the cosines as they
/// are (negative ones as 0), weighed 0.7 for meaning and 0.3 for words (chosen on four
/// request sets when it was the ranking itself). Every tool keeps a positive score, so a
/// query no word of which matches still finds the tools closest in meaning.
fn fuse(words: &[f64], meaning: &[f64]) -> Vec<f64> {
    let top = words.iter().copied().fold(0.0, f64::max);
    words
        .iter()
        .zip(meaning)
        .map(|(w, m)| {
            let w = if top > 0.0 { w / top } else { 0.0 };
            (1.0 - MEANING_WEIGHT) * w + MEANING_WEIGHT * m.max(0.0) + f64::EPSILON
        })
        .collect()
}

/// The tools each run found, and the runs in the order they first searched.
#[derive(Default)]
struct Found {
    by_run: HashMap<String, VecDeque<String>>,
    runs: VecDeque<String>,
}

/// What a run found, shared by the search tools and the offer filter.
pub(crate) struct SearchState {
    options: SearchOptions,
    index: Index,
    found: Mutex<Found>,
    registry: OnceLock<WeakRegistry>,
}

impl SearchState {
    /// Whether tool `name` is offered in `run`.
    pub(crate) fn offers(&self, run: &RunContext, name: &str) -> bool {
        self.lock().by_run.get(&run.run_id).is_some_and(|f| f.iter().any(|n| n == name))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Found> {
        self.found.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn remember(&self, run: &str, names: &[String]) {
        let mut guard = self.lock();
        let found = &mut *guard;
        if !found.by_run.contains_key(run) {
            found.runs.push_back(run.to_owned());
            if found.runs.len() > RUNS_KEPT
                && let Some(old) = found.runs.pop_front()
            {
                found.by_run.remove(&old);
            }
        }
        let list = found.by_run.entry(run.to_owned()).or_default();
        for name in names {
            list.retain(|n| n != name);
            list.push_back(name.clone());
            while list.len() > self.options.cap {
                list.pop_front();
            }
        }
    }
}

/// The registry as the search tools see it, without keeping it alive (it holds them).
pub(crate) struct WeakRegistry {
    tools: Vec<Weak<Registered>>,
    index: Arc<HashMap<String, usize>>,
    option_sources: Arc<HashMap<String, Vec<String>>>,
}

impl WeakRegistry {
    fn upgrade(&self) -> Option<ToolRegistry> {
        let tools = self.tools.iter().map(Weak::upgrade).collect::<Option<Vec<_>>>()?;
        Some(ToolRegistry::from_parts(tools, Arc::clone(&self.index), Arc::clone(&self.option_sources)))
    }
}

#[derive(Deserialize, schemars::JsonSchema)]
struct SearchArgs {
    /// What the tool should do, in a few words ("create a GitHub issue", "take a screenshot").
    query: String,
}

#[derive(Deserialize, schemars::JsonSchema)]
struct CallArgs {
    /// The tool's name, as search_tools gave it.
    name: String,
    /// Its arguments, as its parameters describe them.
    #[serde(default)]
    arguments: serde_json::Map<String, Value>,
}

impl ToolRegistry {
    /// This registry with tool search: when it holds more tools than
    /// `options.threshold`, a run is offered `search_tools` and `call_tool` instead, and
    /// each tool from the round after a search found it (at most `options.cap` per run).
    /// Apply it last: the names searched are the names offered.
    pub fn with_tool_search(self, options: SearchOptions) -> Result<ToolRegistry, crate::RegistryError> {
        self.with_tool_search_by(options, None)
    }

    /// [`ToolRegistry::with_tool_search`], ranking by meaning as well as by words when an
    /// `embedder` is given: each tool's name, summary and parameters, and its name alone, are
    /// embedded once, here, and each query when it is searched; the best candidates by
    /// either are ordered by learnt weights (see [`ToolIndex`]).
    pub fn with_tool_search_by(
        self,
        options: SearchOptions,
        embedder: Option<Arc<dyn Embedder>>,
    ) -> Result<ToolRegistry, crate::RegistryError> {
        // A small catalog is offered whole, as it is.
        if self.tools.len() <= options.threshold {
            return Ok(self);
        }
        let definitions: Vec<Arc<ToolDefinition>> =
            self.tools.iter().map(|t| Arc::clone(&t.definition)).collect();
        let state = Arc::new(SearchState {
            options,
            index: Index::new(definitions.iter().map(|d| &**d), embedder),
            found: Mutex::new(Found::default()),
            registry: OnceLock::new(),
        });
        let mut tools: Vec<Arc<Registered>> = Vec::with_capacity(self.tools.len() + 2);
        for registered in &self.tools {
            let state = Arc::clone(&state);
            let filter: crate::toolset::OfferFilter =
                Arc::new(move |run: &RunContext, definition: &ToolDefinition| {
                    state.offers(run, &definition.name)
                });
            tools.push(Arc::new(
                registered.with_filter("tool search (not found by search_tools in this run)", filter),
            ));
        }
        let mut problems = Vec::new();
        for tool in [search_tool(&state), call_tool(&state)] {
            let registered = match tool {
                Ok(tool) => Registered::new(Arc::new(tool), "tool search"),
                Err(e) => Err((e.name, e.errors)),
            };
            let registered = match registered {
                Ok(registered) => registered,
                Err((name, errors)) => {
                    problems.extend(errors.into_iter().map(|error| crate::RegistryProblem::Invalid {
                        tool: name.clone(),
                        source_name: "tool search".into(),
                        error,
                    }));
                    continue;
                }
            };
            if let Some(&at) = self.index.get(&registered.definition.name) {
                problems.push(crate::RegistryProblem::Duplicate {
                    name: registered.definition.name.clone(),
                    first: self.tools[at].source.clone(),
                    second: "tool search".into(),
                });
                continue;
            }
            tools.push(Arc::new(registered));
        }
        if !problems.is_empty() {
            return Err(crate::RegistryError { problems });
        }
        let index: HashMap<String, usize> =
            tools.iter().enumerate().map(|(i, t)| (t.definition.name.clone(), i)).collect();
        let registry = ToolRegistry::from_parts(tools, Arc::new(index), Arc::clone(&self.option_sources));
        let _ = state.registry.set(WeakRegistry {
            tools: registry.tools.iter().map(Arc::downgrade).collect(),
            index: Arc::clone(&registry.index),
            option_sources: Arc::clone(&registry.option_sources),
        });
        Ok(registry)
    }
}

fn search_tool(state: &Arc<SearchState>) -> Result<crate::FunctionTool, crate::ToolBuildError> {
    let state = Arc::clone(state);
    crate::typed_tool(
        "search_tools",
        "Find tools for a task among the many available. Describe what you want to do; the tools found are offered to you from your next turn, and can be called at once with call_tool.",
        move |ctx: ToolContext, args: SearchArgs| {
            let state = Arc::clone(&state);
            async move {
                if args.query.trim().is_empty() {
                    return Err(ToolError::feedback("say in a few words what the tool should do"));
                }
                let hits = state.index.search(&args.query, state.options.per_search);
                if hits.is_empty() {
                    return Ok(format!("No tool matches {:?}; try other words.", args.query));
                }
                let names: Vec<String> = hits.iter().map(|(n, _)| n.clone()).collect();
                state.remember(ctx.run_id(), &names);
                let registry = state.registry.get().and_then(WeakRegistry::upgrade);
                let mut out = format!("Found {} tools (offered from your next turn; call_tool calls one now):\n", names.len());
                for name in &names {
                    let Some(definition) = registry.as_ref().and_then(|r| r.definition(name)) else { continue };
                    let params: Vec<&str> = definition
                        .parameters
                        .as_map()
                        .get("properties")
                        .and_then(Value::as_object)
                        .map(|p| p.keys().map(String::as_str).collect())
                        .unwrap_or_default();
                    out.push_str(&format!("- {name}({}): {}\n", params.join(", "), definition.summary()));
                }
                Ok(out)
            }
        },
    )
    .routing_hint("Use first when no offered tool fits the task: it finds tools by a few words.")
    .build()
}

fn call_tool(state: &Arc<SearchState>) -> Result<crate::FunctionTool, crate::ToolBuildError> {
    let state = Arc::clone(state);
    crate::typed_tool(
        "call_tool",
        "Call a tool that search_tools found, with its arguments.",
        move |ctx: ToolContext, args: CallArgs| {
            let state = Arc::clone(&state);
            async move {
                let Some(registry) = state.registry.get().and_then(WeakRegistry::upgrade) else {
                    return Err(ToolError::failed("the tool registry is gone"));
                };
                if args.name == "call_tool" || args.name == "search_tools" {
                    return Err(ToolError::feedback(format!("call {} directly", args.name)));
                }
                // The same gates as a direct call: the tool must be offered in this run
                // (found, and allowed by every rule), and its arguments must fit.
                let offer = registry.offer(ctx.run());
                let Some(target) = offer.get(&args.name) else {
                    return Err(ToolError::feedback(format!(
                        "{} is not available: find it with search_tools first (or it is not allowed here)",
                        args.name
                    )));
                };
                if target.definition.kind != ToolKind::Function {
                    return Err(ToolError::feedback(format!(
                        "{} must be called directly (it needs approval or runs elsewhere); it is offered to you from your next turn",
                        args.name
                    )));
                }
                if let Err(problems) = target.schema.check(&Value::Object(args.arguments.clone())) {
                    return Err(ToolError::InvalidArguments(format!("{}: {problems}", args.name)));
                }
                let arguments = args.arguments;
                let inner = ToolContext::new(
                    Arc::new(ctx.run().clone()),
                    CallInfo::for_target(&ctx, &target.registered.settings_key, Arc::clone(&target.definition)),
                );
                let result = target.registered.tool.call(inner.clone(), arguments).await;
                // Secrets the tool read are removed from what call_tool returns, too.
                ctx.absorb_secrets(&inner);
                result
            }
        },
    )
    .returns_untrusted_content()
    .routing_hint("Use to call a tool that search_tools found.")
    .build()
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use serde_json::json;
    use tackle_core::{Embedder, ToolDefinition};

    use super::{Index, Kinds, chunk_terms, inflected, is_plural, words};

    #[test]
    fn words_split_case_expand_and_stem() {
        // A camel-case word counts in parts and whole (`cronjob` finds `CronJob`).
        assert_eq!(words("createIssue for the repos"), ["creat", "issu", "createissu", "repositori"]);
        assert_eq!(words("a CronJob"), ["cron", "job", "cronjob"]);
        assert_eq!(words("list_pull_requests"), ["list", "pull", "request"]);
        assert_eq!(words("Show my PRs"), ["show", "pull", "request"]);
        assert_eq!(words("staging"), words("stage"));
    }

    #[test]
    fn inflected_verbs_ask_what_the_verb_asks_and_plurals_do_not() {
        assert!(inflected("stored", &["store"]));
        assert!(inflected("saving", &["save"]));
        assert!(!inflected("files", &["file"]));
        assert!(!inflected("store", &["store"]), "the bare form is matched as it is");
    }

    fn tool(name: &str, description: &str, parameters: serde_json::Value) -> ToolDefinition {
        ToolDefinition::new(name, description, tackle_core::JsonSchema::new(parameters).unwrap())
    }

    #[test]
    fn enum_values_and_apostrophes_count() {
        let tools = [
            tool(
                "k_delete",
                "Delete resources by type and name",
                json!({"type": "object", "properties": {"kind": {"type": "string", "enum": ["pod", "cronjob"]}}}),
            ),
            tool("m_delete", "Delete an entity from memory", json!({"type": "object", "properties": {}})),
            tool("g_show", "Show the contents of a commit", json!({"type": "object", "properties": {}})),
            tool("g_log", "The log of commits", json!({"type": "object", "properties": {}})),
        ];
        let index = Index::new(tools.iter(), None);
        assert_eq!(index.search("delete the broken cronjob", 1)[0].0, "k_delete");
        // "what's" asks to be shown something, as "whats" does.
        assert_eq!(index.search("what's in commit abc123", 1)[0].0, "g_show");
    }

    /// An embedder for the fusion test: each text's vector says which of two topics its
    /// words lean to.
    struct Topics;

    impl Embedder for Topics {
        fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, tackle_core::EmbedError> {
            Ok(texts
                .iter()
                .map(|t| {
                    let clock = ["time", "clock", "o'clock", "hour"].iter().any(|w| t.contains(w));
                    if clock { vec![1.0, 0.0] } else { vec![0.0, 1.0] }
                })
                .collect())
        }

        fn name(&self) -> &str {
            "topics"
        }
    }

    #[test]
    fn meaning_finds_what_no_word_matches_and_words_still_count() {
        let tools = [
            tool("now", "Get the current time in a timezone", json!({"type": "object", "properties": {}})),
            tool("weather", "Forecast for a city", json!({"type": "object", "properties": {}})),
            tool("news", "Headlines for a city", json!({"type": "object", "properties": {}})),
        ];
        let words_only = Index::new(tools.iter(), None);
        assert!(words_only.search("which hour is it over in Japan", 3).iter().all(|(n, _)| n != "now"));
        let both = Index::new(tools.iter(), Some(Arc::new(Topics)));
        assert_eq!(both.search("which hour is it over in Japan", 3)[0].0, "now");
        // Words decide between tools of one meaning.
        assert_eq!(both.search("headlines in Berlin", 3)[0].0, "news");
    }

    #[test]
    fn the_public_index_gives_candidates_with_their_features() {
        let tools = [
            tool("now", "Get the current time in a timezone", json!({"type": "object", "properties": {}})),
            tool(
                "read_file",
                "Read a file",
                json!({"type": "object", "properties": {"path": {"type": "string"}}}),
            ),
            tool(
                "delete_file",
                "Delete a file",
                json!({"type": "object", "properties": {"path": {"type": "string"}}}),
            ),
        ];
        assert!(super::ToolIndex::new(tools.iter(), None).candidates("what time is it").is_empty());
        let index = super::ToolIndex::new(tools.iter(), Some(Arc::new(Topics)));
        let candidates = index.candidates("what's in notes.md");
        let read = candidates.iter().find(|(name, _)| name == "read_file").map(|(_, f)| f).unwrap();
        let delete = candidates.iter().find(|(name, _)| name == "delete_file").map(|(_, f)| f).unwrap();
        let feature = |name: &str| super::RANKING_FEATURES.iter().position(|f| *f == name).unwrap();
        // Both take the file the request names; only reading is what a question asks for.
        assert_eq!((read[feature("kinds")], delete[feature("kinds")]), (1.0, 1.0));
        assert_eq!((read[feature("effect")], delete[feature("effect")]), (1.0, -1.0));
        assert_eq!(index.search("what's in notes.md", 1)[0].0, "read_file");
    }

    /// An embedder that fails: ranking falls back to words.
    struct Broken;

    impl Embedder for Broken {
        fn embed(&self, _: &[&str]) -> Result<Vec<Vec<f32>>, tackle_core::EmbedError> {
            Err(tackle_core::EmbedError { embedder: "broken".into(), message: "no model".into() })
        }

        fn name(&self) -> &str {
            "broken"
        }
    }

    #[test]
    fn a_failing_embedder_leaves_ranking_to_words() {
        let tools = [
            tool("news", "Headlines for a city", json!({"type": "object", "properties": {}})),
            tool("weather", "Forecast for a city", json!({"type": "object", "properties": {}})),
        ];
        let index = Index::new(tools.iter(), Some(Arc::new(Broken)));
        assert!(index.dense.is_none());
        assert_eq!(index.search("headlines", 2), words_ranking(&tools, "headlines"));
    }

    fn words_ranking(tools: &[ToolDefinition], query: &str) -> Vec<(String, f64)> {
        Index::new(tools.iter(), None).search(query, 2)
    }

    #[test]
    fn addresses_files_and_channels_say_what_kind_of_tool() {
        let super::Chunked { text, meaning, extra, kinds } =
            chunk_terms("grab https://example.org/a?b=c, read notes.md and post in #general");
        assert_eq!(meaning, "grab a web address read the file notes.md and post in #general ");
        assert!(!text.contains("example") && text.contains("notes.md"), "{text}");
        // The site's name is a word of its own, at a lower weight.
        assert_eq!(extra.last(), Some(&("example ".to_owned(), super::HOST_WEIGHT)));
        let extra: Vec<&str> = extra.iter().map(|(w, _)| w.as_str()).collect();
        assert_eq!(extra, ["url", "file", "path", "channel", "example "]);
        let site =
            chunk_terms("open https://www.acme.sentry.io:443/issues/55123/ and docs.github.com/en/rest");
        assert_eq!(site.extra.last().map(|(w, _)| w.as_str()), Some("acme sentry docs github "));
        assert_eq!(kinds, Kinds(Kinds::URL | Kinds::FILE | Kinds::CHANNEL));
        // A property access is not a file name; a sentence's end is not an extension; a
        // version is not a file.
        let read = chunk_terms("run document.title in the page. thanks, version 3.5");
        assert!(read.extra.is_empty() && read.kinds == Kinds::default(), "{:?}", read.extra);
        // A host name is an address, not a file; `owner/repo` is no path; `#12` is an issue,
        // no channel; a commit and an e-mail address are told apart; a colon or a full stop
        // after a file name is not part of it; an abbreviation is no file; SQL is SQL.
        for (query, kind) in [
            ("map every page on docs.stripe.com", Kinds::URL),
            ("what is github.com", Kinds::URL),
            ("what does docs.github.com/en/rest say", Kinds::URL),
            ("edit config/app.yaml", Kinds::FILE),
            ("open a PR in acme/web", 0),
            ("reply on issue #12", Kinds::ISSUE),
            ("reply on acme/web#301: shipped", Kinds::ISSUE),
            ("merge group/app!12", Kinds::ISSUE),
            ("which browsers hit BACKEND-4F2", Kinds::ISSUE),
            ("who wrote 2401.01234", Kinds::PAPER),
            ("read arxiv:1706.03762v5 for me", Kinds::PAPER),
            ("costs rose 2026.1534 percent", 0),
            ("reach the database at 127.0.0.1:5433", Kinds::PORT),
            ("forward localhost:8080", Kinds::PORT),
            ("connect to db.example.com:5432", Kinds::PORT),
            ("map 5433:5432", Kinds::PORT),
            ("the call is at 16:00", 0),
            ("let me hear recordings/intro.mp3", Kinds::FILE | Kinds::MEDIA),
            ("look at screenshots/bug.PNG", Kinds::FILE | Kinds::MEDIA),
            ("open notes/bug.txt", Kinds::FILE),
            ("I need tests/fixtures/images", Kinds::FILE),
            ("due 12/04/2026", 0),
            ("merge feature/rate-limits", 0),
            ("contents of HEAD~1", Kinds::COMMIT),
            ("what changed since HEAD", Kinds::COMMIT),
            ("explain ingress.spec.rules", 0),
            ("read bbc.co.uk/news", Kinds::URL),
            ("is PROJ-123 done", Kinds::ISSUE),
            ("the api-7d9f pod", 0),
            ("a Wi-Fi password", 0),
            ("save this as TODO.md: - fix login", Kinds::FILE),
            ("patch config/settings.py: the DEBUG line", Kinds::FILE),
            ("open notes.txt.", Kinds::FILE),
            ("fruit, e.g. apples, i.e. food", 0),
            ("SELECT the ten biggest accounts by spend", Kinds::SQL),
            ("count rows: SELECT count(*) FROM users", Kinds::SQL),
            ("DELETE the stale branch now", 0),
            ("what changed in commit a1b2c3d", Kinds::COMMIT),
            ("invite ana@example.org", Kinds::EMAIL),
            ("list ~/receipts/", Kinds::FILE),
            ("every .env file", Kinds::FILE),
            ("all .png files in assets", Kinds::FILE),
            ("check out the tag v3.1.0", Kinds::COMMIT),
            ("validators in pydantic v2", 0),
            ("any file named *.bak lying around?", Kinds::FILE | Kinds::PATTERN),
            ("which of the services/* folders have a Dockerfile", Kinds::PATTERN | Kinds::FILE),
            ("playwright: run () => document.cookie", Kinds::CODE),
            ("run window.scrollTo(0, document.body.scrollHeight) on the page", Kinds::CODE),
            ("fix(parser): handle empty input", 0),
            ("I have GPS 40.6892,-74.0445", Kinds::PLACE),
        ] {
            assert_eq!(chunk_terms(query).kinds, Kinds(kind), "{query}");
        }
        // An embedder is told what coordinates and a path are.
        let meaning = chunk_terms("which street is at -33.8568, 151.2153 and what is in /etc/hosts").meaning;
        assert_eq!(
            meaning,
            "which street is at -33.8568, (latitude and longitude coordinates) 151.2153 and what is in the file /etc/hosts "
        );
    }

    #[test]
    fn a_tool_takes_the_kinds_its_parameters_name() {
        let takes = |name: &str, properties: serde_json::Value| {
            Kinds::taken_by(&tool(name, "A tool.", json!({"type": "object", "properties": properties})))
        };
        let string = json!({"type": "string"});
        assert_eq!(takes("read_text_file", json!({"path": string})), Kinds(Kinds::FILE));
        // The tool's own name says files when its parameters do not (`source`, `destination`).
        assert_eq!(takes("move_file", json!({"source": string, "destination": string})), Kinds(Kinds::FILE));
        assert_eq!(takes("move_file", json!({})), Kinds::default());
        assert_eq!(takes("scrape", json!({"targetUrl": string})), Kinds(Kinds::URL));
        assert_eq!(takes("fetch", json!({"target": {"type": "string", "format": "uri"}})), Kinds(Kinds::URL));
        assert_eq!(takes("post_message", json!({"channel_id": string})), Kinds(Kinds::CHANNEL));
        assert_eq!(
            takes("git_show", json!({"revision": string, "repo_path": string})),
            Kinds(Kinds::COMMIT | Kinds::FILE)
        );
        assert_eq!(
            takes("reverse_geocode", json!({"latitude": string, "longitude": string})),
            Kinds(Kinds::PLACE)
        );
        assert_eq!(takes("invite", json!({"email": string})), Kinds(Kinds::EMAIL));
        // An issue or a pull request by its number, id or address; not a list of issues.
        assert_eq!(takes("add_issue_comment", json!({"issue_number": string})), Kinds(Kinds::ISSUE));
        assert_eq!(takes("merge", json!({"pull_number": string})), Kinds(Kinds::ISSUE));
        assert_eq!(takes("feedback", json!({"issues": string})), Kinds::default());
        // SQL by the parameter's name or its description.
        assert_eq!(takes("query", json!({"sql": string})), Kinds(Kinds::SQL));
        let described = json!({"statement": {"type": "string", "description": "The SQL to run"}});
        assert_eq!(takes("run", described), Kinds(Kinds::SQL));
        // A port; a paper by its id (not a search over papers); media in a file.
        assert_eq!(takes("port_forward", json!({"localPort": string})), Kinds(Kinds::PORT));
        assert_eq!(takes("inspect_paper", json!({"paperId": string})), Kinds(Kinds::PAPER));
        assert_eq!(takes("search_papers", json!({"query": string})), Kinds::default());
        assert_eq!(takes("read_media_file", json!({"path": string})), Kinds(Kinds::FILE | Kinds::MEDIA));
        assert_eq!(takes("emulate_media", json!({"media": string})), Kinds::default());
        assert_eq!(takes("browser_evaluate", json!({"function": string})), Kinds(Kinds::CODE));
        assert_eq!(takes("puppeteer_evaluate", json!({"script": string})), Kinds(Kinds::CODE));
        assert_eq!(
            takes("get_profile_details", json!({"focusOnUserCode": {"type": "boolean"}})),
            Kinds::default(),
            "a flag takes no value"
        );
        // What a tool looks for, not what it leaves out.
        assert_eq!(
            takes("search_files", json!({"path": string, "pattern": string})),
            Kinds(Kinds::FILE | Kinds::PATTERN)
        );
        assert_eq!(
            takes("directory_tree", json!({"path": string, "excludePatterns": string})),
            Kinds(Kinds::FILE)
        );
    }

    #[test]
    fn a_tool_that_searches_the_world_says_so() {
        let says = |name: &str, description: &str| {
            super::searches_the_world(&tool(name, description, json!({"type": "object", "properties": {}})))
                .is_some()
        };
        assert!(says("brave_web_search", "Performs a search using the Brave API."));
        assert!(says("firecrawl_search", "Search the web and optionally extract content. More text."));
        assert!(!says("firecrawl_search_feedback", "Send feedback on a search. It helps the web."));
        assert!(!says("search_code", "Search for code across GitHub repositories."));
        assert!(says("maps_search_places", "Search for places using Google Places API"));
        assert!(says("local_search", "Searches for local businesses and places."));
        assert!(!says("search_nodes", "Search for nodes in the knowledge graph based on a query"));
    }

    #[test]
    fn requests_that_name_a_part_of_something_ask_to_see_it() {
        assert!(super::names_a_thing("contents of /var/log"));
        assert!(super::names_a_thing("body and labels of acme/web#15"));
        assert!(super::names_a_thing("sentry: error rate of project web"));
        assert!(!super::names_a_thing("of course, delete it"), "'of' first is no part of anything");
        assert!(!super::names_a_thing("move the rest into the archive folder of 2025"));
    }

    #[test]
    fn a_plus_between_numbers_asks_for_a_sum() {
        let extra = |query: &str| chunk_terms(query).extra.into_iter().map(|(w, _)| w).collect::<Vec<_>>();
        assert!(extra("demo server, what's 1234 + 8766").contains(&"sum".to_owned()));
        assert!(!extra("C + Rust interop").contains(&"sum".to_owned()));
    }

    #[test]
    fn plural_nouns_are_told_from_other_words_ending_in_s() {
        for word in ["issues", "commits", "prs", "repos", "channels"] {
            assert!(is_plural(word), "{word}");
        }
        for word in ["status", "this", "address", "analysis", "was", "pls"] {
            assert!(!is_plural(word), "{word}");
        }
    }
}

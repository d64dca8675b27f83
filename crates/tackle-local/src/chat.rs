//! From a round to model input: the system text (instructions and the offered tools), the
//! conversation rendered with the GGUF's own chat template, and the grammars that constrain
//! what the model may write — a plain answer, or a call `{"name": …, "arguments": …}` whose
//! arguments follow that tool's JSON Schema.

use std::sync::Arc;

use serde_json::{Value, json};
use tackle_core::{AssistantPart, Message, ToolArguments, ToolDefinition, UserPart};

use crate::copy::OPENS_PHRASE;
use crate::error::LocalError;

/// The chat template, ready to render.
pub(crate) struct Template {
    env: minijinja::Environment<'static>,
}

/// ChatML, for files without a template.
const CHATML: &str = "{% for message in messages %}<|im_start|>{{ message['role'] }}\n{{ message['content'] }}<|im_end|>\n{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}";

impl Template {
    pub(crate) fn new(source: Option<&str>) -> Result<Template, LocalError> {
        let mut env = minijinja::Environment::new();
        env.add_function("raise_exception", |message: String| -> Result<String, minijinja::Error> {
            Err(minijinja::Error::new(minijinja::ErrorKind::InvalidOperation, message))
        });
        env.add_template_owned("chat", source.unwrap_or(CHATML).to_owned())
            .map_err(|e| LocalError::Tokenizer(format!("the chat template does not parse: {e}")))?;
        Ok(Template { env })
    }

    /// Renders `(role, content)` messages, with the assistant's turn opened when `open`.
    pub(crate) fn render(&self, messages: &[(&str, String)], open: bool) -> Result<String, LocalError> {
        let messages: Vec<Value> =
            messages.iter().map(|(role, content)| json!({"role": role, "content": content})).collect();
        let template = self.env.get_template("chat").map_err(|e| LocalError::Tokenizer(e.to_string()))?;
        template
            .render(minijinja::context! {
                messages => messages,
                add_generation_prompt => open,
                bos_token => "",
                eos_token => "",
            })
            .map_err(|e| LocalError::Tokenizer(format!("the chat template failed: {e}")))
    }
}

/// A one-line summary of a schema's type, for the system text.
fn type_of(schema: &Value) -> String {
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        return values.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(" | ");
    }
    if let Some(value) = schema.get("const") {
        return value.to_string();
    }
    match schema.get("type") {
        Some(Value::String(t)) if t == "array" => {
            format!("array of {}", schema.get("items").map_or_else(|| "values".to_owned(), type_of))
        }
        Some(Value::String(t)) => t.clone(),
        Some(Value::Array(types)) => types.iter().filter_map(Value::as_str).collect::<Vec<_>>().join(" | "),
        _ => "value".to_owned(),
    }
}

/// The tool's arguments as `{"city": string, "unit": "celsius" | "fahrenheit"}`.
fn arguments_summary(parameters: &Value) -> String {
    let Some(properties) = parameters.get("properties").and_then(Value::as_object) else {
        return "{}".to_owned();
    };
    let fields: Vec<String> =
        properties.iter().map(|(name, schema)| format!("\"{name}\": {}", type_of(schema))).collect();
    format!("{{{}}}", fields.join(", "))
}

/// The system text: the round's instructions, then the tools and how to call them.
pub(crate) fn system_text(instructions: &str, tools: &[Arc<ToolDefinition>]) -> String {
    let mut text = instructions.trim().to_owned();
    if tools.is_empty() {
        if text.is_empty() {
            text = "You are a helpful assistant.".to_owned();
        }
        return text;
    }
    if !text.is_empty() {
        text.push_str("\n\n");
    }
    text.push_str(
        "You can use tools. To use one, reply with only a JSON object {\"name\": tool name, \"arguments\": {...}}. \
         Otherwise answer in plain text.\nTools:",
    );
    for tool in tools {
        let description = tool.description.lines().next().unwrap_or("").trim();
        text.push_str(&format!(
            "\n- {}: {description} Arguments: {}",
            tool.name,
            arguments_summary(&tool.parameters.to_value())
        ));
    }
    text
}

/// The conversation as `(role, content)` messages, the system text first.
pub(crate) fn conversation(system: &str, messages: &[Message]) -> Vec<(&'static str, String)> {
    let mut out = vec![("system", system.to_owned())];
    for message in messages {
        match message {
            Message::System { text } => out.push(("system", text.clone())),
            Message::User { parts } => {
                let mut text = String::new();
                for part in parts {
                    if !text.is_empty() {
                        text.push('\n');
                    }
                    match part {
                        UserPart::Text(t) => text.push_str(t),
                        UserPart::ToolReturn(result) => {
                            text.push_str(&format!("Result of {}: {}", result.tool_name, result.content));
                        }
                    }
                }
                out.push(("user", text));
            }
            Message::Assistant(turn) => {
                let mut text = String::new();
                for part in &turn.parts {
                    match part {
                        AssistantPart::Text(t) => text.push_str(t),
                        AssistantPart::ToolCall(call) => {
                            let arguments = match &call.arguments {
                                ToolArguments::Json(value) => value.clone(),
                                _ => json!({}),
                            };
                            if !text.is_empty() {
                                text.push('\n');
                            }
                            text.push_str(&json!({"name": call.name, "arguments": arguments}).to_string());
                        }
                        _ => {}
                    }
                }
                out.push(("assistant", text));
            }
        }
    }
    out
}

/// The router's option for answering without a tool.
pub(crate) const NO_TOOL: &str = "none";

/// The noisy-channel router's prefixes: for each tool, then for "no tool", a description
/// after which an example request follows.
pub(crate) fn channel_prefixes(tools: &[Arc<ToolDefinition>]) -> Vec<String> {
    let mut prefixes: Vec<String> = tools
        .iter()
        .map(|tool| match tool.hint() {
            Some(hint) => format!(
                "The tool {}: {}.\nA user request this tool answers:\n",
                tool.name,
                hint.trim_end_matches('.')
            ),
            None => {
                let description = tool.description.lines().next().unwrap_or("").trim().trim_end_matches('.');
                format!("The tool {} can: {description}.\nA user request this tool answers:\n", tool.name)
            }
        })
        .collect();
    prefixes.push(
        "No tool is needed for greetings, thanks, jokes, poems, stories or small talk.\nA user message that needs no tool:\n"
            .to_owned(),
    );
    prefixes
}

/// Compact JSON: one line, `": "` and `", "` separators (a small model fills flexible
/// whitespace with newlines).
fn compact() -> Value {
    json!({"whitespace_flexible": false, "key_separator": ": ", "item_separator": ", "})
}

/// What the conversation offers to copy into a call: the addresses, file paths and terms
/// its user wrote, at most [`MAX_SPANS`] of each (a long pasted text must not turn into a
/// grammar of thousands of choices).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Spans {
    /// Web addresses, in order of appearance, each once.
    pub(crate) urls: Vec<String>,
    /// File paths (`src/main.rs`, `README.md`, `./build`, `*.py`), in order of appearance,
    /// each once.
    pub(crate) paths: Vec<String>,
    /// Text to match, written so that it must be copied as it is: quoted (`'unwrap()'`,
    /// `"deprecated"`) or shaped like code (`DATABASE_URL`, `parse_args`, `TODO`,
    /// `render()`), in order of appearance, each once.
    pub(crate) terms: Vec<String>,
    /// Whether the text writes arithmetic out (`(12.5 * 4) / 3`, `2^20`, `15% of 240`; see
    /// [`arithmetic`]).
    pub(crate) arithmetic: bool,
    /// Whether the text writes a number, in digits or as a word ("two", "dozen", "deux").
    pub(crate) numbers: bool,
    /// Whether the text writes something an identifier is copied from (see
    /// [`writes_identifier`]); the model sets it from the whole conversation, since an id
    /// is often given by an earlier tool's result (`started bg1`).
    pub(crate) identifiers: bool,
    /// Whether the text writes a web address or a host: an IP address, `localhost`, or a
    /// dotted name ending in letters (`amazon.com`; see [`writes_host`]).
    pub(crate) hosts: bool,
    /// Whether the text names a place a call may copy (see [`writes_place`]).
    pub(crate) places: bool,
}

/// The most addresses, paths or terms a conversation offers to copy, each.
const MAX_SPANS: usize = 16;

/// Formats whose value is an address: filled by copying one the user wrote.
const ADDRESS_FORMATS: &[&str] = &["uri", "url", "iri", "uri-reference", "iri-reference"];

impl Spans {
    /// What `text` offers to copy: its addresses (see [`urls_in`]), then its paths and
    /// terms (see [`paths_in`], [`terms_in`]).
    pub(crate) fn of(text: &str) -> Spans {
        let urls = urls_in(text);
        let paths = paths_in(text, &urls);
        let terms = terms_in(text, &urls, &paths);
        let arithmetic = !arithmetic(&text.chars().collect::<Vec<char>>()).is_empty();
        let mut spans = Spans::default();
        let identifiers = writes_identifier(text);
        let hosts = !urls.is_empty() || writes_host(text);
        spans.extend(Spans {
            urls,
            paths,
            terms,
            arithmetic,
            numbers: writes_number(text),
            identifiers,
            hosts,
            places: writes_place(text),
        });
        spans
    }

    /// `other`'s addresses, paths and terms after these, each once, up to [`MAX_SPANS`] of
    /// each, and whether either writes a number or arithmetic.
    pub(crate) fn extend(&mut self, other: Spans) {
        fn add(to: &mut Vec<String>, from: Vec<String>) {
            for item in from {
                if to.len() < MAX_SPANS && !to.contains(&item) {
                    to.push(item);
                }
            }
        }
        add(&mut self.urls, other.urls);
        add(&mut self.paths, other.paths);
        add(&mut self.terms, other.terms);
        self.numbers |= other.numbers;
        self.identifiers |= other.identifiers;
        self.hosts |= other.hosts;
        self.places |= other.places;
        self.arithmetic |= other.arithmetic;
    }
}

/// The quoted spans of `text` (in '…', "…", `…` or “…”, 1-80 characters, on one line) and
/// its words shaped like code: an identifier joined by underscores (`parse_args`), a call
/// (`render()`), or three or more capitals (`TODO`, `DATABASE_URL`). Web addresses and
/// paths are not terms (they have spans of their own); an apostrophe inside a word
/// (`don't`) opens no quote.
fn terms_in(text: &str, urls: &[String], paths: &[String]) -> Vec<String> {
    let mut terms: Vec<String> = Vec::new();
    let mut push = |term: &str| {
        let term = term.trim();
        if !term.is_empty()
            && term.chars().count() <= 80
            && !urls.iter().any(|u| u.as_str() == term)
            && !paths.iter().any(|p| p.as_str() == term)
            && !terms.iter().any(|t| t == term)
        {
            terms.push(term.to_owned());
        }
    };
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut i = 0;
    while i < chars.len() {
        let (start, c) = chars[i];
        let close = match c {
            '"' => Some('"'),
            '`' => Some('`'),
            '\u{201c}' => Some('\u{201d}'),
            // An apostrophe opens a quote only where a word does not go on before it.
            '\'' if i == 0 || !chars[i - 1].1.is_alphanumeric() => Some('\''),
            _ => None,
        };
        if let Some(close) = close {
            let end = chars[i + 1..]
                .iter()
                .take(81)
                .take_while(|(_, c)| *c != '\n')
                .find(|(j, c)| {
                    *c == close
                        && (close != '\''
                            || text[j + 1..].chars().next().is_none_or(|n| !n.is_alphanumeric()))
                })
                .map(|(j, _)| *j);
            if let Some(end) = end {
                push(&text[start + c.len_utf8()..end]);
                i = chars.partition_point(|(j, _)| *j <= end);
                continue;
            }
        }
        i += 1;
    }
    for word in text.split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '"' | '`')) {
        let word = word.trim_matches(|c: char| matches!(c, '\'' | '.' | ':' | '!' | '?'));
        let identifier = word.chars().all(|c| c.is_alphanumeric() || matches!(c, '_' | '(' | ')'));
        if !identifier || !word.chars().any(char::is_alphabetic) {
            continue;
        }
        let underscored = word.trim_matches('_').contains('_');
        let call = word.ends_with("()") && word.len() > 2;
        let capitals =
            word.chars().filter(|c| c.is_uppercase()).count() >= 3 && !word.chars().any(char::is_lowercase);
        if underscored || call || capitals {
            push(word);
        }
    }
    terms
}

/// Where `text` writes arithmetic out, as the places each expression starts and ends, in
/// characters: numbers (digits, with a point or comma between digits) joined by operators
/// (`+ - * / × ÷ ^`, a percent sign, a percentage's "of": `15% of 240`) and parentheses,
/// standing apart from the words around it. An expression holds two numbers or more and
/// an operator only arithmetic uses: `+ * × ÷ ^`, `% of`, or a minus or slash with a space
/// on each side. So dates and ranges (`2024-03-12`, `12/03/2024`, `10-15`) and a fraction
/// alone (`1/2 cup`) are not expressions, and a number glued to a word or a time (`v2`,
/// `5x`, `16:00`) starts or ends none.
fn arithmetic(text: &[char]) -> Vec<(usize, usize)> {
    let mut found = Vec::new();
    let mut i = 0;
    while i < text.len() {
        // A run starts at a digit or an opening parenthesis that no word or number is
        // glued to.
        let glued = i > 0
            && (text[i - 1].is_alphanumeric()
                || (matches!(text[i - 1], '.' | ',' | ':' | '/' | '-' | '_')
                    && i > 1
                    && text[i - 2].is_alphanumeric()));
        if glued || !(text[i].is_ascii_digit() || text[i] == '(') {
            i += 1;
            continue;
        }
        match arithmetic_run(text, i) {
            Some(end) => {
                found.push((i, end));
                i = end;
            }
            None => i += 1,
        }
    }
    found
}

/// The most characters of arithmetic read from one place: no one types longer, and a long
/// run of digits and signs (a table, a hash) is not read again from each of its characters.
const MAX_EXPRESSION: usize = 120;

/// Where the arithmetic that starts at `text[start]` ends (see [`arithmetic`]), or
/// `None` when what starts there is not arithmetic.
fn arithmetic_run(text: &[char], start: usize) -> Option<usize> {
    #[derive(PartialEq)]
    enum Last {
        Nothing,
        Operand,
        Operator,
    }
    let c = |k: usize| text.get(k).copied();
    let (mut numbers, mut arithmetic, mut depth) = (0usize, false, 0usize);
    let mut last = Last::Nothing;
    // Where the run could end: after an operand at depth zero (a character index).
    let mut end: Option<usize> = None;
    let mut k = start;
    while let Some(ch) = c(k).filter(|_| k - start < MAX_EXPRESSION) {
        if ch.is_ascii_digit() {
            if last == Last::Operand {
                break;
            }
            while c(k).is_some_and(|d| d.is_ascii_digit())
                || (matches!(c(k), Some('.' | ',')) && c(k + 1).is_some_and(|d| d.is_ascii_digit()))
            {
                k += 1;
            }
            numbers += 1;
            last = Last::Operand;
        } else if ch == ' ' {
            k += 1;
            continue;
        } else if ch == '(' && last != Last::Operand {
            depth += 1;
            k += 1;
            last = Last::Operator;
            continue;
        } else if ch == ')' && depth > 0 && last == Last::Operand {
            depth -= 1;
            k += 1;
        } else if ch == '%' && last == Last::Operand {
            k += 1;
            // "15% of 240": the percentage of what follows.
            let mut after = k;
            while c(after) == Some(' ') {
                after += 1;
            }
            let of = c(after).is_some_and(|o| o.eq_ignore_ascii_case(&'o'))
                && c(after + 1).is_some_and(|f| f.eq_ignore_ascii_case(&'f'))
                && c(after + 2) == Some(' ');
            if of {
                let mut number = after + 2;
                while c(number) == Some(' ') {
                    number += 1;
                }
                if c(number).is_some_and(|d| d.is_ascii_digit() || d == '(') {
                    arithmetic = true;
                    last = Last::Operator;
                    k = number;
                    continue;
                }
            }
        } else if matches!(ch, '+' | '-' | '*' | '/' | '×' | '÷' | '^') && last == Last::Operand {
            let spaced = c(k.wrapping_sub(1)) == Some(' ') && c(k + 1) == Some(' ');
            arithmetic |= matches!(ch, '+' | '*' | '×' | '÷' | '^') || spaced;
            last = Last::Operator;
            k += 1;
            continue;
        } else {
            break;
        }
        if last == Last::Operand && depth == 0 {
            end = Some(k);
        }
    }
    let end = end?;
    // What follows must not continue a word or a number (`5x`, `16:00`, `3.x`).
    let after = c(end);
    let glued = after.is_some_and(char::is_alphanumeric)
        || (matches!(after, Some(':' | '.' | ',' | '/' | '-' | '_'))
            && c(end + 1).is_some_and(char::is_alphanumeric));
    (numbers >= 2 && arithmetic && !glued).then_some(end)
}

/// The web addresses of `text`, in order of appearance, each once: `http://` or `https://`
/// up to white space or a quote, without the punctuation that ends a sentence (a closing
/// bracket stays when the address opened one).
pub(crate) fn urls_in(text: &str) -> Vec<String> {
    let mut urls: Vec<String> = Vec::new();
    let mut rest = text;
    while let Some(start) = ["https://", "http://"].iter().filter_map(|s| rest.find(s)).min() {
        let tail = &rest[start..];
        let end = tail
            .find(|c: char| c.is_whitespace() || matches!(c, '"' | '<' | '>' | '`'))
            .unwrap_or(tail.len());
        let mut url = &tail[..end];
        loop {
            let trimmed = url.trim_end_matches(['.', ',', ';', ':', '!', '?', '\'', '*']);
            let trimmed = match trimmed.strip_suffix(')') {
                Some(inner) if !inner.contains('(') => inner,
                _ => match trimmed.strip_suffix(']') {
                    Some(inner) if !inner.contains('[') => inner,
                    _ => trimmed,
                },
            };
            if trimmed.len() == url.len() {
                break;
            }
            url = trimmed;
        }
        let host = url.split_once("://").map_or("", |(_, h)| h);
        if !host.is_empty() && !host.starts_with('/') && !urls.iter().any(|u| u == url) {
            urls.push(url.to_owned());
        }
        rest = &tail[end.max(1)..];
    }
    urls
}

/// The words of `text` written the way file paths are: with a slash (`src/main.rs`,
/// `scripts/`, `~/notes`), a name and an extension (`README.md`), a leading dot
/// (`.env.example`), or a wildcard (`*.py`, `test_*.rs`), quoted or bare, without the
/// punctuation that ends a sentence. Web addresses (`urls`), e-mail addresses, numbers (`3.5`) and dotted
/// abbreviations (`e.g.`) are not paths.
fn paths_in(text: &str, urls: &[String]) -> Vec<String> {
    let mut paths: Vec<String> = Vec::new();
    for word in text.split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '(' | ')' | '<' | '>')) {
        let word = word.trim_matches(|c: char| matches!(c, '"' | '\'' | '`'));
        let word = word.trim_end_matches(['.', ':', '!', '?', '\'', '"', '`']);
        if word.is_empty()
            || word.len() > 200
            || urls.iter().any(|u| u.contains(word))
            || word.contains("://")
        {
            continue;
        }
        let allowed = word.chars().all(|c| {
            c.is_alphanumeric()
                || matches!(c, '/' | '.' | '_' | '-' | '~' | '*' | '?' | '[' | ']' | '{' | '}')
        });
        if !allowed || word.contains('@') || !word.chars().any(|c| c.is_alphanumeric() || c == '*') {
            continue;
        }
        // A slash between two plain words is as often prose (`and/or`, `yes/no`) as a
        // path: a path with one slash also starts at a root or home, ends in a slash, or
        // names a file with an extension (checked below).
        let slash = word.contains('/')
            && word.chars().any(char::is_alphabetic)
            && (word.starts_with(['/', '~', '.']) || word.ends_with('/') || word.matches('/').count() >= 2);
        // A star alone is multiplication or emphasis, not a pattern.
        let wildcard = word.contains('*') && word.chars().any(|c| c != '*');
        // A name and an extension: the extension of one to six letters or digits with at
        // least one letter, the name not all digits (`3.5`), and not letters between dots
        // alone (`e.g`, `a.m`).
        let extension = word.rsplit_once('.').is_some_and(|(name, ext)| {
            let name = name.trim_start_matches('.');
            (1..=6).contains(&ext.len())
                && ext.chars().all(|c| c.is_ascii_alphanumeric())
                && ext.chars().any(|c| c.is_ascii_alphabetic())
                && !name.is_empty()
                && !word.split('.').all(|part| part.chars().count() <= 1)
                && !name.chars().all(|c| c.is_ascii_digit() || c == '.')
        });
        // A dotfile: `.env`, `.gitignore`, `.env.example`.
        let dotfile = word.strip_prefix('.').is_some_and(|rest| {
            rest.chars().next().is_some_and(|c| c.is_ascii_alphabetic()) && rest.chars().count() > 1
        });
        if (slash || wildcard || extension || dotfile) && !paths.iter().any(|p| p == word) {
            paths.push(word.to_owned());
        }
    }
    paths
}

/// What a parameter's name says it holds when it holds a file or directory path.
const PATH_WORDS: &[&str] = &["path", "file", "filename", "filepath", "dir", "directory", "folder"];

/// Whether the string parameter `name` (schema `schema`) takes a file path: a plain
/// string (no enumeration, format or pattern of its own) whose name says path, file,
/// directory or folder.
fn is_path(name: &str, schema: &serde_json::Map<String, Value>) -> bool {
    plain_string_named(name, schema, PATH_WORDS)
}

/// Whether `schema` is a plain string ([`is_plain_string`]) and a word of its parameter's
/// `name` is one of `words`.
fn plain_string_named(name: &str, schema: &serde_json::Map<String, Value>, words: &[&str]) -> bool {
    is_plain_string(schema) && tackle_core::name_words(name).iter().any(|w| words.contains(&w.as_str()))
}

/// What a parameter's name says it holds when it holds text matched literally.
const MATCH_WORDS: &[&str] = &["pattern", "regex", "regexp", "needle"];

/// Whether the string parameter `name` takes text that is matched as written (a search
/// pattern): a plain string whose name says pattern, regex or needle. Free-text queries
/// are not: a query may say what the user meant in other words.
fn is_match_text(name: &str, schema: &serde_json::Map<String, Value>) -> bool {
    plain_string_named(name, schema, MATCH_WORDS)
}

/// What a parameter's name says it holds when it holds arithmetic to work out.
const EXPRESSION_WORDS: &[&str] = &["expression", "expr", "formula", "equation"];

/// Whether the string parameter `name` takes arithmetic: a plain string whose name says
/// expression, formula or equation.
fn is_expression(name: &str, schema: &serde_json::Map<String, Value>) -> bool {
    plain_string_named(name, schema, EXPRESSION_WORDS)
}

/// Whether `schema` admits strings (its `type` is `string` or a list holding it).
fn is_string(schema: &serde_json::Map<String, Value>) -> bool {
    is_type(schema, "string")
}

/// Whether `schema` admits values of JSON type `name`.
fn is_type(schema: &serde_json::Map<String, Value>, name: &str) -> bool {
    match schema.get("type") {
        Some(Value::String(t)) => t == name,
        Some(Value::Array(types)) => types.iter().any(|t| t == name),
        _ => false,
    }
}

/// A string schema with no enumeration, constant, format or pattern of its own.
fn is_plain_string(schema: &serde_json::Map<String, Value>) -> bool {
    is_string(schema) && !["enum", "const", "format", "pattern"].iter().any(|k| schema.contains_key(*k))
}

/// What the user wrote that parameter `name` (schema `schema`) must copy, when it is a
/// path (the paths) or text to match (the terms, then the paths); `None` for any other
/// parameter.
fn copies(name: &str, schema: &serde_json::Map<String, Value>, spans: &Spans) -> Option<Vec<String>> {
    if is_path(name, schema) {
        Some(spans.paths.clone())
    } else if is_match_text(name, schema) {
        Some(spans.terms.iter().chain(&spans.paths).cloned().collect())
    } else {
        None
    }
}

/// Whether a required argument of `tool` copies something the user wrote: an address, a
/// path, a term to match, or arithmetic to work out. (A pattern may copy a path too, but a
/// path the user wrote is no evidence that they want to search for it: files are read far
/// more often by name.)
pub(crate) fn fills_from_request(tool: &ToolDefinition, spans: &Spans) -> bool {
    required_arguments(tool).any(|(name, schema)| {
        (is_address(schema) && !spans.urls.is_empty())
            || (is_path(name, schema) && !spans.paths.is_empty())
            || (is_match_text(name, schema) && !spans.terms.is_empty())
            || (is_expression(name, schema) && spans.arithmetic)
    })
}

/// Whether a required argument of `tool` must copy a path and the user wrote none: the
/// call would have to invent it (`read_file {"path": "*"}` for "what is 17 * 23"). Text to
/// match is not counted: a pattern is often made from what the user described ("the
/// markdown files" is `*.md`).
pub(crate) fn lacks_path(tool: &ToolDefinition, spans: &Spans) -> bool {
    spans.paths.is_empty() && required_arguments(tool).any(|(name, schema)| is_path(name, schema))
}

/// The required arguments of `tool` that its schema describes, by name.
fn required_arguments(
    tool: &ToolDefinition,
) -> impl Iterator<Item = (&str, &serde_json::Map<String, Value>)> {
    let parameters = tool.parameters.as_map();
    let required =
        parameters.get("required").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    let properties = parameters.get("properties").and_then(Value::as_object);
    required
        .iter()
        .filter_map(Value::as_str)
        .filter_map(move |name| Some((name, properties?.get(name)?.as_object()?)))
}

/// Whether `schema` (a string's) asks for an address.
fn is_address(schema: &serde_json::Map<String, Value>) -> bool {
    schema.get("format").and_then(Value::as_str).is_some_and(|f| ADDRESS_FORMATS.contains(&f))
}

/// Whether every required argument of `tool` that only the conversation can fill can be:
/// an address when the user wrote one (where the schema names a string an address only by
/// its name, `url`, `endpoint`, a host will do: a call may build the address from "the IP
/// 192.120.45.67"), a count or amount (a number with no choices and no
/// default), or a list of them, when they wrote a number, an identifier when something
/// shaped like one was written ([`is_identifier`], [`writes_identifier`]), and a place
/// when one was named ([`names_place`], [`writes_place`]). A tool that needs what was never
/// written cannot be called faithfully ("I have to make a payment" gives no amount; "see
/// promotions" no region's id; "the average house price in california" no features for a
/// regression; "show me the last 5 git commits" no background command's id; "I would like
/// to rent a house" no town).
pub(crate) fn fillable(tool: &ToolDefinition, spans: &Spans) -> bool {
    required_arguments(tool).all(|(name, schema)| {
        (!spans.urls.is_empty() || !is_address(schema))
            && (spans.hosts || !names_address(name, schema))
            && (spans.numbers || !(is_free_number(schema) || is_free_numbers(schema)))
            && (spans.identifiers || !is_identifier(name, schema))
            && (spans.places || !names_place(name, schema))
    })
}

/// Words of a parameter's name that say it holds a web address (`url`, `base_uri`,
/// `endpoint`).
const ADDRESS_WORDS: &[&str] = &["url", "urls", "uri", "link", "href", "endpoint"];

/// Whether parameter `name` of schema `schema` is a string that holds an address by its name
/// ([`ADDRESS_WORDS`]) with no enumeration, constant, format, pattern or default of its own (with a
/// format, [`is_address`] decides).
fn names_address(name: &str, schema: &serde_json::Map<String, Value>) -> bool {
    plain_string_named(name, schema, ADDRESS_WORDS) && !schema.contains_key("default")
}

/// Whether `text` writes a host a web address may be built from: an IP address
/// (`192.168.1.1`, `[::1]`), `localhost`, or a dotted name whose last part is letters
/// (`amazon.com`, `api.example.com`). A number with a point (`35.68`) is none.
pub(crate) fn writes_host(text: &str) -> bool {
    text.split(|c: char| {
        c.is_whitespace() || matches!(c, ',' | ';' | '(' | ')' | '"' | '\'' | '`' | '<' | '>')
    })
    .map(|word| word.trim_end_matches(['.', '?', '!', ':']))
    .any(|word| {
        let host = word.rsplit('@').next().unwrap_or(word);
        let host = host.split(['/', '?', '#']).next().unwrap_or(host);
        let host = host.split(':').next().filter(|h| !h.is_empty()).unwrap_or(host);
        let v6 = word.starts_with('[') && word.contains(':') && word.contains(']');
        let parts: Vec<&str> = host.split('.').collect();
        let v4 = parts.len() == 4
            && parts.iter().all(|p| !p.is_empty() && p.len() <= 3 && p.chars().all(|c| c.is_ascii_digit()));
        let named = parts.len() >= 2
            && parts.iter().all(|p| !p.is_empty() && p.chars().all(|c| c.is_alphanumeric() || c == '-'))
            && parts
                .last()
                .is_some_and(|tld| tld.chars().count() >= 2 && tld.chars().all(char::is_alphabetic));
        v4 || v6 || named || host.eq_ignore_ascii_case("localhost")
    })
}

/// Words of a parameter's name that say it holds a place (`city`, `from_city`,
/// `where_to`, `pickup_location`, `destination`).
const PLACE_WORDS: &[&str] = &[
    "city",
    "town",
    "location",
    "where",
    "destination",
    "area",
    "address",
    "place",
    "region",
    "country",
    "venue",
];

/// Whether parameter `name` of schema `schema` is a string that holds a place by its name
/// ([`PLACE_WORDS`]) with no enumeration, constant, format, pattern or default of its own.
fn names_place(name: &str, schema: &serde_json::Map<String, Value>) -> bool {
    plain_string_named(name, schema, PLACE_WORDS) && !schema.contains_key("default")
}

/// Words that put a place after them in English ("in leeds", "near the station", "from
/// berlin", "the forecast for leeds"); "to" is left out, as it more often opens a verb ("I
/// would like to rent").
const PLACE_MARKS: &[&str] = &["in", "at", "near", "from", "around", "for"];

/// Whether `text` may name a place: a name in capitals that opens no sentence ("in Chiang
/// Mai", "to Kuala Lumpur", "the SF area"), a word after a mark of place that is no word
/// opening a phrase and no number ("plumbers in leeds"; not "at this time"), or any word of
/// a script without capitals, which this cannot read ("请帮我…"). "Can you help me find
/// some cool things to do?" and "I would like to rent a house." name none.
pub(crate) fn writes_place(text: &str) -> bool {
    let mut previous: Option<String> = None;
    let mut opens_sentence = true;
    let mut rest = text;
    while let Some(start) = rest.find(|c: char| c.is_alphanumeric()) {
        if rest[..start].contains(['.', '!', '?', ':', '\n']) {
            opens_sentence = true;
        }
        let length = rest[start..].find(|c: char| !c.is_alphanumeric()).unwrap_or(rest.len() - start);
        let word = &rest[start..start + length];
        rest = &rest[start + length..];
        let lower = word.to_lowercase();
        let uncased =
            word.chars().any(|c| c.is_alphabetic() && !c.is_ascii() && c.to_lowercase().eq(c.to_uppercase()));
        let capital = word.chars().next().is_some_and(char::is_uppercase) && word.chars().count() >= 2;
        let opens_phrase = OPENS_PHRASE.contains(&lower.as_str());
        let name = capital && !opens_sentence && !opens_phrase;
        // An article goes between a mark and its place ("near the station"), but "for a"
        // opens what is looked for ("look for a rental vehicle"), not a place.
        if ["the", "a", "an"].contains(&lower.as_str())
            && previous.as_deref().is_some_and(|p| PLACE_MARKS.contains(&p) && p != "for")
        {
            opens_sentence = false;
            continue;
        }
        let marked = previous.as_deref().is_some_and(|p| PLACE_MARKS.contains(&p))
            && !opens_phrase
            && !word.chars().all(char::is_numeric);
        if uncased || name || marked {
            return true;
        }
        // What follows an apostrophe goes on with the sentence ("I'd", "what's").
        opens_sentence = false;
        previous = Some(lower);
    }
    false
}

/// The last words of a parameter's name that say it holds an identifier (`channel_id`,
/// `botId`, `teamUuid`, `id`).
const IDENTIFIER_WORDS: &[&str] = &["id", "ids", "uuid", "guid", "identifier"];

/// Whether parameter `name` of schema `schema` holds an identifier the model must be given:
/// a string with no enumeration, constant, default or pattern of its own, named as an
/// identifier ([`IDENTIFIER_WORDS`] its last word) or of format `uuid`. An integer id is a
/// number ([`is_free_number`]), which may also be a code a tool's description lists.
fn is_identifier(name: &str, schema: &serde_json::Map<String, Value>) -> bool {
    let named = tackle_core::name_words(name).last().is_some_and(|w| IDENTIFIER_WORDS.contains(&w.as_str()));
    let uuid = schema.get("format").and_then(Value::as_str) == Some("uuid");
    is_type(schema, "string")
        && (named || uuid)
        && !["enum", "const", "default", "pattern"].iter().any(|k| schema.contains_key(*k))
}

/// Whether `text` writes something an identifier could be copied from: a word no
/// dictionary holds — one mixing letters and digits (`bg1`, `C024BE91L`, `v2`), a number of
/// three digits or more (`7890`), one joined inside by `-`, `_`, `.`, `:`, `/` or `@`
/// (`my-bot-id`, `EOL3030_3030`, `ops@acme.io`), one with a capital inside (`roomHeight`),
/// three capitals or more (`SUPERFANCY`), or one marked as a handle (`#general`, `@alice`) —
/// or anything in quotation marks. "The last 5 commits", "who are you?" write none.
pub(crate) fn writes_identifier(text: &str) -> bool {
    // A word first, which stops at the first one found (a tool's long result holds many);
    // then what is quoted or shaped like code.
    text.split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '(' | ')' | '[' | ']')).any(|word| {
        let handle = (word.starts_with('#') || word.starts_with('@'))
            && word.chars().nth(1).is_some_and(char::is_alphanumeric);
        let word = word.trim_matches(|c: char| !c.is_alphanumeric());
        let chars: Vec<char> = word.chars().collect();
        let letters = chars.iter().any(|c| c.is_alphabetic());
        let digits = chars.iter().filter(|c| c.is_ascii_digit()).count();
        let joined = chars.windows(3).any(|w| {
            w[0].is_alphanumeric()
                && matches!(w[1], '-' | '_' | '.' | ':' | '/' | '@')
                && w[2].is_alphanumeric()
        });
        let inner_capital = chars.windows(2).any(|w| w[0].is_lowercase() && w[1].is_uppercase());
        let capitals = chars.len() >= 3 && chars.iter().all(|c| c.is_uppercase());
        handle || (letters && digits > 0) || digits >= 3 || joined || inner_capital || capitals
    }) || !terms_in(text, &[], &[]).is_empty()
}

/// Whether `schema` asks for a list of numbers the model must be given: an array with no
/// default whose items are free numbers ([`is_free_number`]).
fn is_free_numbers(schema: &serde_json::Map<String, Value>) -> bool {
    is_type(schema, "array")
        && !schema.contains_key("default")
        && schema.get("items").and_then(Value::as_object).is_some_and(is_free_number)
}

/// Whether `schema` asks for a number the model must be given: an integer or a number with
/// no enumeration, constant or default to fall back on.
fn is_free_number(schema: &serde_json::Map<String, Value>) -> bool {
    let numeric = match schema.get("type") {
        Some(Value::String(t)) => t == "integer" || t == "number",
        Some(Value::Array(types)) => {
            !types.is_empty() && types.iter().all(|t| matches!(t.as_str(), Some("integer" | "number")))
        }
        _ => false,
    };
    numeric && !["enum", "const", "default"].iter().any(|k| schema.contains_key(*k))
}

/// Numbers written as words, in the languages requests are most often written in (an
/// article that is also "one", `un`, `ein`, `um`, is not counted).
const NUMBER_WORDS: &[&str] = &[
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
    "twenty",
    "thirty",
    "forty",
    "fifty",
    "sixty",
    "seventy",
    "eighty",
    "ninety",
    "hundred",
    "thousand",
    "million",
    "billion",
    "dozen",
    "half",
    "couple",
    "pair",
    "first",
    "second",
    "third",
    "fourth",
    "fifth",
    "zwei",
    "drei",
    "vier",
    "fünf",
    "sechs",
    "sieben",
    "acht",
    "neun",
    "zehn",
    "zwanzig",
    "hundert",
    "tausend",
    "deux",
    "trois",
    "quatre",
    "cinq",
    "sept",
    "huit",
    "neuf",
    "dix",
    "vingt",
    "cent",
    "mille",
    "uno",
    "dos",
    "tres",
    "cuatro",
    "cinco",
    "seis",
    "siete",
    "ocho",
    "nueve",
    "diez",
    "veinte",
    "cien",
    "mil",
    "dois",
    "duas",
    "três",
    "sete",
    "oito",
    "nove",
    "dez",
    "vinte",
    "cem",
];

/// Whether `text` writes a number: a digit of any script, a Chinese or Japanese numeral, or
/// a number word ([`NUMBER_WORDS`]).
fn writes_number(text: &str) -> bool {
    text.chars().any(|c| c.is_numeric() || "一二三四五六七八九十百千万两".contains(c))
        || text
            .split(|c: char| !c.is_alphanumeric())
            .any(|word| NUMBER_WORDS.contains(&word.to_lowercase().as_str()))
}

/// Words that say a request is about the present (news, prices, what is open, what
/// happened lately) or asks for a search: what a model's own knowledge cannot answer.
/// Matched as whole words or phrases, in lower case.
const CURRENT: &[&str] = &[
    // English
    "latest",
    "newest",
    "recent",
    "recently",
    "today",
    "today's",
    "tonight",
    "tomorrow",
    "yesterday",
    "now",
    "current",
    "currently",
    "this week",
    "this weekend",
    "this month",
    "this year",
    "this morning",
    "this evening",
    "this saturday",
    "this sunday",
    "next week",
    "next weekend",
    "next month",
    "last night",
    "last week",
    "these days",
    "news",
    "headlines",
    "price",
    "prices",
    "score",
    "scores",
    "forecast",
    "search",
    "look up",
    "opening hours",
    "open tomorrow",
    "near me",
    "schedule",
    "release date",
    "come out",
    "out yet",
    "reviews",
    // German, French, Spanish, Portuguese
    "heute",
    "morgen",
    "aktuell",
    "aktuelle",
    "neueste",
    "nachrichten",
    "preis",
    "suche",
    "aujourd'hui",
    "demain",
    "actualités",
    "prix",
    "dernier",
    "dernière",
    "recherche",
    "hoy",
    "mañana",
    "noticias",
    "precio",
    "último",
    "última",
    "busca",
    "buscar",
    "hoje",
    "amanhã",
    "notícias",
    "preço",
];

/// Whether `text` asks about the present or for a search (see [`CURRENT`]).
pub(crate) fn asks_for_current(text: &str) -> bool {
    let lower = text.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '’'))
        .filter(|w| !w.is_empty())
        .collect();
    CURRENT.iter().any(|entry| {
        let parts: Vec<&str> = entry.split(' ').collect();
        words.windows(parts.len()).any(|w| w == parts.as_slice())
    })
}

/// Common English words that say nothing of what a tool does; left out of
/// [`shared_words`].
const FUNCTION_WORDS: &[&str] = &[
    "about", "all", "and", "any", "are", "but", "can", "could", "for", "from", "get", "give", "has", "have",
    "how", "into", "its", "just", "need", "not", "our", "please", "pls", "should", "show", "some", "tell",
    "that", "the", "their", "them", "then", "there", "they", "this", "those", "use", "using", "want", "was",
    "what", "when", "where", "which", "who", "will", "with", "would", "you", "your",
];

/// How many letters of a word [`shared_words`] compares: a crude stem (`servers` and
/// `server`, `scheduled` and `schedule`).
pub(crate) const STEM: usize = 5;

/// The stems of the words of `text` that may say what a tool does: three letters or more,
/// not a [`FUNCTION_WORDS`] word, lower case, cut to [`STEM`] letters.
pub(crate) fn content_stems(text: &str) -> std::collections::HashSet<String> {
    tackle_core::name_words(text)
        .into_iter()
        .filter(|w| w.chars().count() >= 3 && !FUNCTION_WORDS.contains(&w.as_str()))
        .map(|w| w.chars().take(STEM).collect())
        .collect()
}

/// What `tool` says of itself in words: its name, description and routing hint, and its
/// parameters' names, descriptions and enumerated values, at any depth.
fn tool_text(tool: &ToolDefinition) -> String {
    fn walk(schema: &serde_json::Map<String, Value>, out: &mut String) {
        for (key, value) in schema {
            match (key.as_str(), value) {
                ("description" | "title", Value::String(text)) => out.push_str(text),
                ("enum", Value::Array(values)) => {
                    for value in values.iter().filter_map(Value::as_str) {
                        out.push(' ');
                        out.push_str(value);
                    }
                }
                ("properties", Value::Object(properties)) => {
                    for (name, inner) in properties {
                        out.push(' ');
                        out.push_str(name);
                        out.push(' ');
                        if let Some(inner) = inner.as_object() {
                            walk(inner, out);
                        }
                    }
                }
                ("items" | "additionalProperties", Value::Object(inner)) => walk(inner, out),
                _ => {}
            }
            out.push(' ');
        }
    }
    let mut text = format!("{} {} {} ", tool.name, tool.description, tool.hint().unwrap_or_default());
    walk(tool.parameters.as_map(), &mut text);
    text
}

/// How many of a request's words (`asked`, its [`content_stems`]) `tool` uses to say what
/// it does: evidence, beside closeness in meaning, that the request is about what the tool
/// does ("list c drive" and a tool that runs a `dir` command on a drive), read from the
/// tool's own text, so it holds for tools nobody here has seen.
pub(crate) fn shared_words(tool: &ToolDefinition, asked: &std::collections::HashSet<String>) -> usize {
    let tool = content_stems(&tool_text(tool));
    asked.iter().filter(|w| tool.contains(*w)).count()
}

/// The longest string a call may hold where its schema sets no limit (or the longest web
/// address or quotation the user wrote, where that is longer).
const MAX_STRING: u32 = 200;

/// The longest address or quotation that lengthens [`MAX_STRING`].
const MAX_ADDRESS: usize = 2048;

/// The most items a list in a call may hold where its schema sets no limit.
const MAX_ITEMS: u32 = 16;

/// Formats the grammar engine knows; others (`uint`, ...) are annotations it would refuse.
const KNOWN_FORMATS: &[&str] =
    &["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid", "uri", "unknown"];

/// Rewrites a tool's schema for embedding in the call schema: local `$ref`s point at the
/// root's `$defs` under the tool's prefix, unknown formats are dropped, and objects take no
/// properties beyond the declared ones, strings of at most `MAX_STRING` characters and lists
/// of at most `MAX_ITEMS` items (or their `minItems`). Every call the result admits is valid
/// against the original schema.
fn embed(value: &Value, prefix: &str, spans: &Spans) -> Value {
    match value {
        // An address is one the user wrote, copied exactly (a small model otherwise glues
        // the next word on, or invents one) — those the schema's own limits admit.
        Value::Object(map)
            if is_address(map) && !map.contains_key("enum") && !map.contains_key("pattern") =>
        {
            copied(map, &spans.urls, prefix, spans)
        }
        Value::Object(map) => embed_object(map, prefix, spans),
        Value::Array(items) => Value::Array(items.iter().map(|v| embed(v, prefix, spans)).collect()),
        other => other.clone(),
    }
}

fn embed_object(map: &serde_json::Map<String, Value>, prefix: &str, spans: &Spans) -> Value {
    let mut out = serde_json::Map::new();
    for (key, item) in map {
        match (key.as_str(), item) {
            ("properties", Value::Object(properties)) => {
                let properties = properties
                    .iter()
                    .map(|(name, schema)| {
                        // A path or a pattern is one the user wrote, copied exactly, when
                        // they wrote any.
                        let copy =
                            schema.as_object().and_then(|inner| Some((inner, copies(name, inner, spans)?)));
                        match copy {
                            Some((inner, spans_of)) if !spans_of.is_empty() => {
                                (name.clone(), copied(inner, &spans_of, prefix, spans))
                            }
                            _ => (name.clone(), embed(schema, prefix, spans)),
                        }
                    })
                    .collect();
                out.insert(key.clone(), Value::Object(properties));
            }
            ("$defs" | "definitions", _) => {}
            ("$ref", Value::String(target)) => {
                let name = target.strip_prefix("#/$defs/").or_else(|| target.strip_prefix("#/definitions/"));
                let target = match name {
                    Some(name) => format!("#/$defs/{prefix}__{name}"),
                    None => target.clone(),
                };
                out.insert(key.clone(), Value::String(target));
            }
            ("format", Value::String(format)) if !KNOWN_FORMATS.contains(&format.as_str()) => {}
            _ => {
                out.insert(key.clone(), embed(item, prefix, spans));
            }
        }
    }
    // Extra properties are allowed by such a schema but never needed: the model writes
    // only the declared ones (a small model otherwise invents keys without end).
    if out.contains_key("properties") && !out.contains_key("additionalProperties") {
        out.insert("additionalProperties".to_owned(), Value::Bool(false));
    }
    // Strings end: a bounded length, so that a call always completes — but long enough
    // for any address or quotation the user wrote, copied whole where the schema does not
    // say it is one (an `image_path` given a page's address of 230 characters).
    if is_string(&out)
        && !out.contains_key("maxLength")
        && !out.contains_key("enum")
        && !out.contains_key("const")
    {
        let longest = spans
            .urls
            .iter()
            .chain(&spans.terms)
            .map(|u| u.chars().count().min(MAX_ADDRESS))
            .max()
            .unwrap_or(0);
        out.insert(
            "maxLength".to_owned(),
            json!(MAX_STRING.max(u32::try_from(longest).unwrap_or(MAX_STRING))),
        );
    }
    // Lists end too (a small model may repeat an item without end).
    if is_type(&out, "array") && !out.contains_key("maxItems") {
        let least = out.get("minItems").and_then(Value::as_u64).unwrap_or(0);
        out.insert("maxItems".to_owned(), json!(least.max(u64::from(MAX_ITEMS))));
    }
    Value::Object(out)
}

/// A string schema that admits only the values the user wrote (`written`, those the
/// schema's own length limits admit), or the schema embedded as usual when none fits.
fn copied(schema: &serde_json::Map<String, Value>, written: &[String], prefix: &str, spans: &Spans) -> Value {
    let limit = |key: &str| schema.get(key).and_then(Value::as_u64).map(|n| n as usize);
    let admitted: Vec<&String> = written
        .iter()
        .filter(|s| {
            let chars = s.chars().count();
            limit("minLength").is_none_or(|min| chars >= min)
                && limit("maxLength").is_none_or(|max| chars <= max)
        })
        .collect();
    if admitted.is_empty() {
        embed_object(schema, prefix, spans)
    } else {
        json!({"type": "string", "enum": admitted})
    }
}

/// The JSON Schema of a call of `tool`, and its definitions for the root's `$defs`.
fn call_schema(tool: &ToolDefinition, spans: &Spans) -> (Value, Vec<(String, Value)>) {
    let parameters = tool.parameters.as_map();
    let mut defs = Vec::new();
    for key in ["$defs", "definitions"] {
        if let Some(Value::Object(map)) = parameters.get(key) {
            for (name, schema) in map {
                defs.push((format!("{}__{name}", tool.name), embed(schema, &tool.name, spans)));
            }
        }
    }
    let schema = json!({
        "type": "object",
        "properties": {
            "name": {"const": tool.name},
            "arguments": embed_object(parameters, &tool.name, spans),
        },
        "required": ["name", "arguments"],
        "additionalProperties": false,
    });
    (schema, defs)
}

/// The schema of a call of any of `tools`.
pub(crate) fn calls_schema(tools: &[&ToolDefinition], spans: &Spans) -> Value {
    let mut variants = Vec::new();
    let mut defs = serde_json::Map::new();
    for tool in tools {
        let (schema, tool_defs) = call_schema(tool, spans);
        variants.push(schema);
        defs.extend(tool_defs);
    }
    let mut schema = json!({"anyOf": variants, "x-guidance": compact()});
    if !defs.is_empty()
        && let Some(map) = schema.as_object_mut()
    {
        map.insert("$defs".to_owned(), Value::Object(defs));
    }
    schema
}

/// A Lark grammar: a call of one of `tools` (addresses copied from `spans`), or (with
/// `answer`) a plain answer that does not start like JSON.
pub(crate) fn grammar(tools: &[&ToolDefinition], answer: bool, spans: &Spans) -> String {
    let call = if tools.is_empty() { None } else { Some(format!("%json {}", calls_schema(tools, spans))) };
    match (call, answer) {
        (Some(call), true) => format!("start: answer | call\nanswer: /[^{{\\s][\\s\\S]*/\ncall: {call}\n"),
        (Some(call), false) => format!("start: call\ncall: {call}\n"),
        (None, _) => "start: answer\nanswer: /[^{\\s][\\s\\S]*/\n".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tool whose description does not matter to what is tested, with this schema.
    fn tool(name: &str, schema: Value) -> ToolDefinition {
        ToolDefinition::new(name, "A tool.", tackle_core::JsonSchema::new(schema).unwrap())
    }

    fn weather() -> ToolDefinition {
        ToolDefinition::new(
            "get_weather",
            "Get the weather for a city.",
            tackle_core::JsonSchema::new(json!({
                "type": "object",
                "properties": {"city": {"type": "string"}, "unit": {"enum": ["celsius", "fahrenheit"]}},
                "required": ["city"]
            }))
            .unwrap(),
        )
    }

    #[test]
    fn tools_are_described_in_one_line_each() {
        let text = system_text("Be brief.", &[Arc::new(weather())]);
        assert!(text.starts_with("Be brief.\n\nYou can use tools."), "{text}");
        assert!(
            text.ends_with("- get_weather: Get the weather for a city. Arguments: {\"city\": string, \"unit\": \"celsius\" | \"fahrenheit\"}"),
            "{text}"
        );
    }

    #[test]
    fn chatml_renders_and_the_prefix_is_stable() {
        let template = Template::new(None).unwrap();
        let system = vec![("system", "S".to_owned())];
        let prefix = template.render(&system, false).unwrap();
        let mut messages = system.clone();
        messages.push(("user", "Hi".to_owned()));
        let full = template.render(&messages, true).unwrap();
        assert_eq!(prefix, "<|im_start|>system\nS<|im_end|>\n");
        assert_eq!(
            full,
            "<|im_start|>system\nS<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n"
        );
    }

    #[test]
    fn definitions_move_to_the_root_and_unknown_formats_go() {
        let tool = ToolDefinition::new(
            "web_search",
            "Search.",
            tackle_core::JsonSchema::new(json!({
                "type": "object",
                "properties": {
                    "n": {"type": "integer", "format": "uint"},
                    "range": {"$ref": "#/$defs/Range"}
                },
                "$defs": {"Range": {"enum": ["day", "week"]}}
            }))
            .unwrap(),
        );
        let schema = calls_schema(&[&tool], &Spans::default());
        assert_eq!(schema["$defs"]["web_search__Range"], json!({"enum": ["day", "week"]}));
        let arguments = &schema["anyOf"][0]["properties"]["arguments"];
        assert_eq!(arguments["properties"]["range"]["$ref"], "#/$defs/web_search__Range");
        assert!(arguments["properties"]["n"].get("format").is_none());
        assert!(arguments.get("$defs").is_none());
    }

    #[test]
    fn addresses_are_found_whole_and_without_the_sentence_around_them() {
        let urls = |text: &str| Spans::of(text).urls;
        assert_eq!(urls("Read https://example.com/ please"), ["https://example.com/"]);
        assert_eq!(
            urls("see (https://a.example/x), then http://b.example/y?q=1."),
            ["https://a.example/x", "http://b.example/y?q=1"]
        );
        assert_eq!(
            urls("https://en.wikipedia.org/wiki/Rust_(language)!"),
            ["https://en.wikipedia.org/wiki/Rust_(language)"]
        );
        assert_eq!(
            urls("twice: https://x.example https://x.example; none: https:// or http:///"),
            ["https://x.example"]
        );
        assert!(urls("no address here, only example.com").is_empty());
    }

    #[test]
    fn the_router_reads_a_routing_hint_before_the_description() {
        let mut hinted = weather();
        hinted.routing_hint = Some("Use when the user asks about the weather somewhere.".into());
        let prefixes = channel_prefixes(&[Arc::new(weather()), Arc::new(hinted)]);
        assert_eq!(
            prefixes[0],
            "The tool get_weather can: Get the weather for a city.\nA user request this tool answers:\n"
        );
        assert_eq!(
            prefixes[1],
            "The tool get_weather: Use when the user asks about the weather somewhere.\nA user request this tool answers:\n"
        );
        assert!(prefixes[2].starts_with("No tool is needed"));
    }

    #[test]
    fn a_request_shares_the_words_a_tool_uses_for_what_it_does() {
        let weather = weather();
        // "weather" (name, description), "city" (a parameter), "fahrenheit" (an enumerated
        // value); "what", "the", "in" say nothing.
        assert_eq!(shared_words(&weather, &content_stems("what's the weather in Paris, in Fahrenheit?")), 2);
        assert_eq!(shared_words(&weather, &content_stems("which city has the best weather")), 2);
        // Stems: "cities" is not "city", but "weathers" is "weather".
        assert_eq!(shared_words(&weather, &content_stems("weathers of cities")), 1);
        assert_eq!(shared_words(&weather, &content_stems("write me a poem about the sea")), 0);
        // The routing hint and nested parameters count too; camel case splits ("set",
        // "air", "conditioner", "cool").
        let mut hinted = ToolDefinition::new(
            "setThermostat",
            "Controls a device.",
            tackle_core::JsonSchema::new(json!({
                "type": "object",
                "properties": {"body": {"type": "object", "properties": {"airConMode": {"enum": ["COOL", "HEAT"]}}}},
            }))
            .unwrap(),
        );
        hinted.routing_hint = Some("Use for the air conditioner.".into());
        assert_eq!(shared_words(&hinted, &content_stems("set the air conditioner to cool")), 4);
    }

    #[test]
    fn paths_are_the_words_written_like_paths() {
        let paths = |text: &str| Spans::of(text).paths;
        assert_eq!(paths("whats in README.md"), ["README.md"]);
        assert_eq!(paths("show me src/main.rs, then `docs/setup.md`."), ["src/main.rs", "docs/setup.md"]);
        assert_eq!(paths("whats inside scripts/ and ~/notes?"), ["scripts/", "~/notes"]);
        assert_eq!(paths("make a new file .env.example with PORT=8080"), [".env.example"]);
        assert_eq!(paths("list every test file matching test_*.rs or *.py"), ["test_*.rs", "*.py"]);
        assert_eq!(paths("open 'package.json' and \"Cargo.toml\""), ["package.json", "Cargo.toml"]);
        // Not paths: numbers, abbreviations, e-mail and web addresses, ratios, plain words.
        assert!(paths("version 3.5 is out, e.g. today at 9 a.m").is_empty());
        assert_eq!(paths("open a.txt"), ["a.txt"]);
        assert!(paths("mail me at a@b.com or read https://x.example/a.html").is_empty());
        assert!(paths("list the contents of the src directory / what is 3/4 and/or 5").is_empty());
        assert!(paths("what is 17 * 23, and ** is power").is_empty());
        assert_eq!(
            paths("cat /etc/hosts and crates/tackle-local/src"),
            ["/etc/hosts", "crates/tackle-local/src"]
        );
    }

    #[test]
    fn a_long_text_offers_a_bounded_number_of_spans() {
        let text: String = (0..1000).map(|i| format!("f{i}.txt TERM_{i} https://x.example/{i} ")).collect();
        let spans = Spans::of(&text);
        assert_eq!(
            (spans.urls.len(), spans.paths.len(), spans.terms.len()),
            (MAX_SPANS, MAX_SPANS, MAX_SPANS)
        );
        assert_eq!(spans.paths[0], "f0.txt");
    }

    #[test]
    fn terms_are_quoted_or_shaped_like_code() {
        let terms = |text: &str| Spans::of(text).terms;
        assert_eq!(terms("grep for 'unwrap()' in src"), ["unwrap()"]);
        assert_eq!(terms("search for the string \"deprecated\" across the project"), ["deprecated"]);
        assert_eq!(terms("which files mention DATABASE_URL?"), ["DATABASE_URL"]);
        assert_eq!(terms("where is parse_args defined, and render()"), ["parse_args", "render()"]);
        assert_eq!(terms("look for TODO and FIXME comments"), ["TODO", "FIXME"]);
        // Apostrophes inside words open no quote; plain words, two capitals, paths and
        // addresses are not terms (three capitals are: a marker such as TODO cannot be
        // told from an acronym).
        assert!(terms("don't search what's in the US, it's fine").is_empty());
        assert_eq!(terms("don't search what's in the USA, it's fine"), ["USA"]);
        assert!(terms("read README.md and https://x.example/a_b").is_empty());
        assert_eq!(terms("“smart quotes” and `code`"), ["smart quotes", "code"]);
        // An unclosed quote is no term, and the rest is still read.
        assert_eq!(terms("say \"hello and NOTES_V2"), ["NOTES_V2"]);
    }

    #[test]
    fn arithmetic_is_written_out_and_dates_ranges_times_and_fractions_are_not() {
        let expressions = |text: &str| -> Vec<String> {
            let chars: Vec<char> = text.chars().collect();
            arithmetic(&chars).iter().map(|&(start, end)| chars[start..end].iter().collect()).collect()
        };
        assert_eq!(expressions("calculate (12.5 * 4) / 3"), ["(12.5 * 4) / 3"]);
        assert_eq!(expressions("2^20?"), ["2^20"]);
        assert_eq!(expressions("what's 15% of 240"), ["15% of 240"]);
        assert_eq!(
            expressions("what is 1,250.5+3 and 7 × 6, then 1,250.5+3"),
            ["1,250.5+3", "7 × 6", "1,250.5+3"]
        );
        assert_eq!(expressions("is 100 - 37 more than 60"), ["100 - 37"]);
        assert_eq!(expressions("f(2+3) please"), ["2+3"]);
        // A parenthesis left open is not part of it.
        assert_eq!(expressions("(2 + 3"), ["2 + 3"]);
        for text in [
            "the meeting on 2024-03-12",
            "due 12/03/2024",
            "book 10-15 people",
            "add 1/2 cup of sugar",
            "from 16:00 to 18:00",
            "version v2+3",
            "3x + 4",
            "give me 50% off",
            "rated 3.8 or higher for 2 people",
            "C++ or 2D",
        ] {
            assert!(expressions(text).is_empty(), "{text}: {:?}", expressions(text));
            assert!(!Spans::of(text).arithmetic, "{text}");
        }
    }

    #[test]
    fn a_calculator_is_filled_by_the_arithmetic_the_user_wrote() {
        let calculate = ToolDefinition::new(
            "calculate",
            "Evaluates an arithmetic expression.",
            tackle_core::JsonSchema::new(json!({"type": "object", "properties": {
                "expression": {"type": "string"}
            }, "required": ["expression"]}))
            .unwrap(),
        );
        assert!(fills_from_request(&calculate, &Spans::of("2^20?")));
        assert!(fills_from_request(&calculate, &Spans::of("what's 15% of 240")));
        assert!(!fills_from_request(&calculate, &Spans::of("split a 187.40 bill between 6 people")));
        // Arithmetic is no evidence for a tool that takes none.
        assert!(!fills_from_request(&weather(), &Spans::of("weather in Paris, 2 + 2")));
        // The grammar leaves the expression free: the model may write it otherwise.
        let schema = calls_schema(&[&calculate], &Spans::of("2^20?"));
        assert!(
            schema["anyOf"][0]["properties"]["arguments"]["properties"]["expression"].get("enum").is_none()
        );
    }

    #[test]
    fn a_pattern_copies_a_term_or_a_path_and_a_query_stays_free() {
        let grep = ToolDefinition::new(
            "grep",
            "Search files.",
            tackle_core::JsonSchema::new(json!({"type": "object", "properties": {
                "pattern": {"type": "string"}, "path": {"type": "string"}
            }, "required": ["pattern"]}))
            .unwrap(),
        );
        let spans = Spans::of("which files in src/ mention DATABASE_URL");
        assert!(fills_from_request(&grep, &spans));
        let schema = calls_schema(&[&grep], &spans);
        let arguments = &schema["anyOf"][0]["properties"]["arguments"]["properties"];
        assert_eq!(arguments["pattern"]["enum"], json!(["DATABASE_URL", "src/"]));
        assert_eq!(arguments["path"]["enum"], json!(["src/"]));
        assert!(!fills_from_request(&grep, &Spans::of("find where we import requests")));
        // A path alone fills the pattern but is no evidence for searching.
        assert!(!fills_from_request(&grep, &Spans::of("show me src/main.rs")));
        let search = ToolDefinition::new(
            "web_search",
            "Search the web.",
            tackle_core::JsonSchema::new(
                json!({"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}),
            )
            .unwrap(),
        );
        let spans = Spans::of("news about the RUST_LOG variable");
        assert!(!fills_from_request(&search, &spans));
        assert!(
            calls_schema(&[&search], &spans)["anyOf"][0]["properties"]["arguments"]["properties"]["query"]
                .get("enum")
                .is_none()
        );
    }

    #[test]
    fn a_path_parameter_copies_a_path_the_user_wrote() {
        let read = ToolDefinition::new(
            "read_file",
            "Read a file.",
            tackle_core::JsonSchema::new(json!({"type": "object", "properties": {
                "path": {"type": "string"}, "encoding": {"type": "string"}, "filepath_style": {"enum": ["unix", "dos"]}
            }, "required": ["path"]}))
            .unwrap(),
        );
        assert!(fills_from_request(&read, &Spans::of("open a.txt")));
        assert!(!fills_from_request(&read, &Spans::of("open the main file")));
        let spans = Spans::of("show me src/main.rs please");
        let schema = calls_schema(&[&read], &spans);
        let arguments = &schema["anyOf"][0]["properties"]["arguments"]["properties"];
        assert_eq!(arguments["path"], json!({"type": "string", "enum": ["src/main.rs"]}));
        // Other strings stay free; an enumeration stays as it is.
        assert_eq!(arguments["encoding"]["type"], "string");
        assert!(arguments["encoding"].get("enum").is_none());
        assert_eq!(arguments["filepath_style"], json!({"enum": ["unix", "dos"]}));
        // Without a path written, the path is free.
        let free = calls_schema(&[&read], &Spans::of("show me the main file"));
        assert!(free["anyOf"][0]["properties"]["arguments"]["properties"]["path"].get("enum").is_none());
        // A city is not a path.
        assert!(!fills_from_request(&weather(), &Spans::of("weather in ./Paris.txt")));
    }

    #[test]
    fn an_address_is_copied_and_a_tool_that_needs_one_is_fillable_only_with_one() {
        let read = ToolDefinition::new(
            "read_page",
            "Read a page.",
            tackle_core::JsonSchema::new(json!({"type": "object", "properties": {"url": {"type": "string", "format": "uri"}, "note": {"type": "string"}}, "required": ["url"]}))
                .unwrap(),
        );
        let spans = Spans::of("Read https://example.com/ please");
        let schema = calls_schema(&[&read], &spans);
        let arguments = &schema["anyOf"][0]["properties"]["arguments"]["properties"];
        assert_eq!(arguments["url"], json!({"type": "string", "enum": ["https://example.com/"]}));
        assert_eq!(arguments["note"]["maxLength"], json!(MAX_STRING), "other strings stay free");
        assert!(fillable(&read, &spans));
        // ...but long enough for a longer address the user wrote, copied into a string the
        // schema does not call an address.
        let long = format!("https://example.com/{}.jpg", "a-b".repeat(80));
        let schema = calls_schema(&[&read], &Spans::of(&format!("describe {long} for me")));
        let arguments = &schema["anyOf"][0]["properties"]["arguments"]["properties"];
        assert_eq!(arguments["note"]["maxLength"], json!(long.len()));
        // Lists end where their schema sets no end.
        let tag = ToolDefinition::new(
            "tag",
            "Tag.",
            tackle_core::JsonSchema::new(json!({"type": "object", "properties": {
                "labels": {"type": "array", "items": {"type": "string"}},
                "many": {"type": "array", "minItems": 20},
                "few": {"type": "array", "maxItems": 2}}}))
            .unwrap(),
        );
        let schema = calls_schema(&[&tag], &spans);
        let arguments = &schema["anyOf"][0]["properties"]["arguments"]["properties"];
        assert_eq!(arguments["labels"]["maxItems"], json!(MAX_ITEMS));
        assert_eq!(arguments["many"]["maxItems"], json!(20), "never below the schema's own least");
        assert_eq!(arguments["few"]["maxItems"], json!(2));
        // An address the schema's own limits refuse is not offered.
        let short = ToolDefinition::new(
            "read_short",
            "Read a page.",
            tackle_core::JsonSchema::new(json!({"type": "object", "properties": {"url": {"type": "string", "format": "uri", "maxLength": 10}}, "required": ["url"]}))
                .unwrap(),
        );
        let schema = calls_schema(&[&short], &spans);
        assert_eq!(
            schema["anyOf"][0]["properties"]["arguments"]["properties"]["url"]["maxLength"],
            json!(10)
        );
        assert!(!fillable(&read, &Spans::default()));
        assert!(fillable(&weather(), &Spans::of("weather in Paris")), "no address needed, none missing");
        assert!(!fillable(&weather(), &Spans::default()), "but a city is");
    }

    #[test]
    fn a_tool_that_needs_a_number_is_fillable_only_where_one_is_written() {
        let pay = ToolDefinition::new(
            "make_payment",
            "Send money.",
            tackle_core::JsonSchema::new(json!({"type": "object", "properties": {
                "amount": {"type": "number"}, "receiver": {"type": "string"},
                "currency_code": {"type": "integer", "enum": [840, 978]},
                "fee": {"type": ["integer", "null"]}, "priority": {"type": "integer", "default": 1}
            }, "required": ["amount", "receiver", "currency_code", "priority"]}))
            .unwrap(),
        );
        for written in
            ["send 84 bucks to Yumi", "pay Anna twenty pounds", "zahle Anna zwei Euro", "给安娜转五十元"]
        {
            assert!(fillable(&pay, &Spans::of(written)), "{written}");
        }
        // No amount written; a choice of codes or a default is no number the user must give.
        assert!(!fillable(&pay, &Spans::of("I have to make a payment")));
        let choose = ToolDefinition::new(
            "set_level",
            "Set the level.",
            tackle_core::JsonSchema::new(json!({"type": "object", "properties": {
                "level": {"type": "integer", "enum": [1, 2, 3]}}, "required": ["level"]}))
            .unwrap(),
        );
        assert!(fillable(&choose, &Spans::of("set the level")));
        // A number in an earlier message counts, as an address there does.
        let mut spans = Spans::of("pay her");
        spans.extend(Spans::of("Anna lent me 12 euros"));
        assert!(fillable(&pay, &spans));
        // A list of numbers needs numbers as one does; a list with a default, or of
        // strings, does not.
        let predict = ToolDefinition::new(
            "regression_model_predict",
            "Predict with a regression model.",
            tackle_core::JsonSchema::new(json!({"type": "object", "properties": {
                "features": {"type": "array", "items": {"type": "number"}},
                "weights": {"type": "array", "items": {"type": "number"}, "default": []},
                "labels": {"type": "array", "items": {"type": "string"}}
            }, "required": ["features", "weights", "labels"]}))
            .unwrap(),
        );
        assert!(!fillable(&predict, &Spans::of("Retrieve the average house price in california")));
        assert!(fillable(&predict, &Spans::of("predict the price for 3 rooms and 120 square meters")));
    }

    #[test]
    fn a_tool_that_needs_an_address_by_name_is_fillable_only_with_an_address_or_a_host() {
        let get = tool(
            "requests_get",
            json!({"type": "object", "properties": {
                "url": {"type": "string", "description": "The URL to send to."},
                "base_url": {"type": "string", "default": "https://api.example.com"},
                "params": {"type": "object"}
            }, "required": ["url", "base_url"]}),
        );
        for written in [
            "get https://api.example.com/recommendations",
            "the Ethernet statistics of node 12, using the IP 192.120.45.67?",
            "the domain report of amazon.com",
            "ping localhost:8080/health",
            "query [::1]:9000",
        ] {
            assert!(fillable(&get, &Spans::of(written)), "{written}");
        }
        for written in [
            "Can you provide the address for latitude 37.4224764 and longitude -122.0842499 using the Geocoding API?",
            "get me information on the next festival in the united states",
            "Give the details of recommendations for the advisory id EOL3030_3030",
        ] {
            assert!(!fillable(&get, &Spans::of(written)), "{written}");
        }
    }

    #[test]
    fn a_tool_that_needs_a_place_is_fillable_only_where_one_is_named() {
        let rent = tool(
            "Hotels_2_SearchHouse",
            json!({"type": "object", "properties": {
                "where_to": {"type": "string"}, "rating": {"type": "number", "default": 3.0},
                "country": {"type": "string", "enum": ["US", "UK"]}, "place_id": {"type": "integer", "default": 1}
            }, "required": ["where_to", "country"]}),
        );
        for written in [
            "find me a house in Chiang Mai",
            "any houses near the station",
            "I'd like to stay in leeds for two nights",
            "I will be in the SF area soon",
            "travelling to Kuala Lumpur next week",
            "请帮我在北京找一套房子",
            "a flat for the weekend, Paris ideally",
            "what's the forecast for leeds",
        ] {
            assert!(fillable(&rent, &Spans::of(written)), "{written}");
        }
        for written in [
            "I would like to rent a house.",
            "Can you help me find some cool things to do?",
            "I'd like to look for a rental vehicle.",
            "Can you book me something for next weekend?",
            "Houses? Any with a garden.",
        ] {
            assert!(!fillable(&rent, &Spans::of(written)), "{written}");
        }
    }

    #[test]
    fn a_tool_that_needs_an_identifier_is_fillable_only_where_one_is_written() {
        let stop = tool(
            "stop_command",
            json!({"type": "object", "properties": {
                "id": {"type": "string"}, "signal": {"type": "string", "enum": ["TERM", "KILL"]}
            }, "required": ["id"]}),
        );
        for written in [
            "stop bg1",
            "react to message 1712345678.000200 in C024BE91L",
            "list the exports of 'my-bot-id'",
            "post it to #general",
            "the advisory EOL3030_3030",
            "retrieve the analysis of project SUPERFANCY",
            "what does sensorId mean",
            "user 7890",
        ] {
            assert!(fillable(&stop, &Spans::of(written)), "{written}");
        }
        for written in [
            "show me the last 5 git commits",
            "The user did not provide a query",
            "hi! who are you?",
            "is AI safe",
        ] {
            assert!(!fillable(&stop, &Spans::of(written)), "{written}");
        }
        // An identifier from anywhere in the conversation counts (the model reads tool
        // results too: `started bg1`).
        let mut spans = Spans::of("now stop it");
        spans.identifiers |= writes_identifier("started bg1 (pid 4242): npm run dev");
        assert!(fillable(&stop, &spans));
        // An identifier with a default, a pattern or choices, or a number, is not asked
        // for this way; nor is a string not named as one.
        let lenient = tool(
            "get_profile",
            json!({"type": "object", "properties": {
                "user_id": {"type": "string", "default": "me"},
                "team_id": {"type": "string", "enum": ["core", "web"]},
                "idea": {"type": "string"},
                "void": {"type": "string"}
            }, "required": ["user_id", "team_id", "idea", "void"]}),
        );
        assert!(fillable(&lenient, &Spans::of("who am I")));
        let by_format = tool(
            "get_team",
            json!({"type": "object", "properties": {
                "team": {"type": "string", "format": "uuid"}}, "required": ["team"]}),
        );
        assert!(!fillable(&by_format, &Spans::of("show my team")));
        assert!(fillable(&by_format, &Spans::of("show team 3fa85f64-5717-4562-b3fc-2c963f66afa6")));
    }

    #[test]
    fn requests_about_the_present_are_recognised_by_their_words() {
        for text in [
            "whats the latest on the starship launch",
            "any concerts in vienna this saturday?",
            "What's today's top story",
            "Wie ist das Wetter heute in Köln?",
            "look up the population of Peru",
        ] {
            assert!(asks_for_current(text), "{text}");
        }
        for text in
            ["write a poem about the sea", "nowhere to go", "explain closures", "the newsletter template"]
        {
            assert!(!asks_for_current(text), "{text}");
        }
    }

    #[test]
    fn grammars_name_every_tool() {
        let tool = weather();
        let g = grammar(&[&tool], true, &Spans::default());
        assert!(g.starts_with("start: answer | call\n"), "{g}");
        assert!(g.contains("\"const\":\"get_weather\""), "{g}");
        assert!(grammar(&[&tool], false, &Spans::default()).starts_with("start: call\n"));
    }
}

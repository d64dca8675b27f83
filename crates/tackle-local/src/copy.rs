//! Copying from what the user wrote. Asked for the `city` of "the weather in Hyderabad", a
//! small model may write `"Hfalla"`; asked for an amount of "$999", `9.99`. The grammar
//! keeps a call valid, not faithful. So while a call is written, the token that keeps the
//! value under way a copy of the user's text gets a bonus to its logit (a soft pointer): a
//! string that starts where a word of the text starts and goes on as the text does, cut
//! into tokens as the tokenizer cuts it, and closes where a word ends; a number that goes
//! on digit by digit as one of the text's numbers and ends where it ends, the numbers not
//! yet copied first and the first of them most. The model still chooses which span to
//! copy, when to stop, and to write something else where the text holds nothing to copy
//! (a date to reformat, a translation): nothing here forbids a token.
//!
//! A copy in another case earns half. An enumeration's value is copied only where the
//! text writes it whole ("comedy" for `Comedy`, not the "co" of "could") or as the stem a
//! word grows from ("comfort" of "comfortable", `fr` of "French"), in the enumeration's
//! case as well as in its own, and never its default.
//! Keys and anything after an escape are left alone, but one: a small model closes a call
//! after its first argument, so while the call leaves out a parameter the text gives a
//! value for (a value of its enumeration, a number a word beside names it by, a name in
//! capitals no value holds while a parameter of free text is still to come), what would
//! close the arguments loses ([`CopySource::leaves_out`]). The grammar writes keys in the
//! order the schema declares them, so a key that would pass over a parameter the text
//! names a value for loses as much ([`CopySource::passes_over`]).
//!
//! Which span fills which parameter is read from the words around it, the way a person
//! reads a form ([`CopySource::cue`]): a word just before it (with nothing between but
//! words that open phrases, labels in capitals, signs or nouns that make a label such as
//! "number" and "ID"), or right after it, that shares a stem with the parameter's name
//! ("project with UUID SUPERFANCY", "serial number Q3CC", "titled …", "'Plus' type") says
//! it fills that parameter — the one whose name the words hold most of ("meta title" a
//! `MetaTitle`, not a `Title`) —, one naming another parameter of the tool says it does
//! not, and a preposition marks a role that names of parameters carry
//! ("from" a `source_timezone`, `origin_airport` or `start_date`; "to" a target,
//! destination or end). A value whose words only repeat the name of a parameter (its own
//! or another's), or only open phrases ("me", "to", "for a"), fills nothing. Names in capitals ("Dominic Monaghan", "Austin, TX") are
//! copied whole: a span that begins or ends inside one is less likely, as is one that cuts a
//! word joined by a hyphen, an underscore or a point (`serde-rs`, `release-2.0`)
//! ([`CopySource::cuts_whole`]), or one that holds both parts of an owner and what it owns
//! written as one, or the other's part (`acme/api`: `acme` for an `owner`, `api` for a
//! `repo`; [`CopySource::joins_a_pair`]), or one that stops inside a phrase, before a word that
//! opens no new one ("netsh" of "the command netsh wlan disconnect";
//! [`CopySource::stops_inside`]). Once the call is written, an optional value of free text
//! that only labels another value or repeats a number the call holds as a number, or whose
//! label names another parameter the call left out, goes or moves there
//! ([`CopySource::settle`]). All of it reads only what the tool says of itself and the
//! user's text, so it holds for tools nobody here has seen.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

use crate::chat::STEM;

/// Words that open a new phrase after a value: prepositions, conjunctions, articles,
/// pronouns, auxiliaries and question words, in English and the commonest of French,
/// Spanish, Portuguese and German (see [`CopySource::stops_inside`]).
#[rustfmt::skip]
pub(crate) const OPENS_PHRASE: &[&str] = &[
    "a", "about", "after", "also", "am", "an", "and", "are", "around", "as", "at", "be", "because",
    "been", "before", "between", "both", "but", "by", "can", "could", "did", "do", "does", "during",
    "each", "either", "every", "for", "from", "had", "has", "have", "he", "her", "here", "him",
    "his", "how", "i", "if", "in", "including", "into", "is", "it", "its", "just", "me", "might",
    "more", "must", "my", "near", "next", "no", "nor", "not", "now", "of", "off", "on", "once",
    "only", "onto", "or", "our", "out", "over", "per", "please", "pls", "plz", "shall", "she",
    "should", "since", "so", "some", "than", "that", "the", "their", "them", "then", "there",
    "these", "they", "this", "those", "through", "till", "to", "today", "tomorrow", "tonight",
    "too", "under", "until", "up", "us", "using", "via", "was", "we", "were", "what", "when",
    "where", "whether", "which", "while", "who", "whose", "why", "will", "with", "within",
    "without", "would", "yesterday", "you", "your",
    // French, Spanish, Portuguese, German
    "à", "au", "aux", "avec", "dans", "de", "des", "du", "en", "et", "la", "le", "les", "ou", "par",
    "pour", "sur", "el", "con", "los", "las", "para", "por", "y", "e", "em", "com", "na",
    "auf", "aus", "bei", "das", "dem", "den", "der", "die", "für", "im", "mit", "nach",
    "oder", "und", "von", "vom", "zu", "zum", "zur",
];

/// Nouns that make a label of the word before them ("serial number Q3CC", "order ID 42",
/// "file name notes.txt"): between a value and the word that names its parameter they
/// stand as words that open phrases do (see [`CopySource::cue`]).
const LABEL_NOUNS: &[&str] = &["number", "numbers", "num", "nr", "id", "ids", "code", "name"];

/// Words of [`OPENS_PHRASE`] that are values of their own: times ("tomorrow" for a
/// `date`) and states ("on" for a `power`).
const IS_A_VALUE: &[&str] =
    &["now", "today", "tomorrow", "tonight", "yesterday", "next", "on", "off", "up", "out", "no"];

/// Words of a parameter's name that say it holds who owns something, and words of the
/// next one's that say it holds the name of what is owned: a pair people write as one, the
/// two joined by a slash (`acme/api` for an `owner` and a `repo`, as GitHub, GitLab and
/// registries of images and models name things; see [`CopySource::joins_a_pair`]).
const OWNER_WORDS: &[&str] =
    &["owner", "org", "organization", "organisation", "namespace", "workspace", "account"];
const OWNED_WORDS: &[&str] = &["repo", "repository", "project", "name", "model", "image", "package"];

/// The bonus added to the logit of a token that keeps a value a copy of the user's text.
const COPY_BONUS: f32 = 6.0;

/// The bonus of a copy in another case than the user's (an enumeration's `fahrenheit` for
/// "Fahrenheit"): half, so that `Hyderabad` goes before `HYDERABAD`.
const OTHER_CASE_BONUS: f32 = COPY_BONUS / 2.0;

/// What a token that would close a call's arguments loses while the call leaves out an
/// argument the user's text gives (see [`CopySource::leaves_out`]). The model's own wish
/// to close after two arguments was seen to outweigh 8 (the kitchen speaker of "play
/// 'Shape of You' by Ed Sheeran on the kitchen speaker" was left out), so the loss is as
/// good as a ban: a close still wins where the grammar allows nothing else, or where the
/// model finds everything else some 30 nats less likely.
pub(crate) const LEFT_OUT: f32 = 30.0;

/// The longest continuation of a copy that is looked up as one token, in characters.
const LOOKAHEAD: usize = 24;

/// The bonus of the first token of an enumeration's value that the text names (see
/// [`CopySource::continuations`]).
const NAMED_VALUE_BONUS: f32 = 10.0;

/// What the first number of the text not yet copied gets on top, where a number starts.
const ORDER_BONUS: f32 = 1.0;

/// What a number earns on top where a word beside it names the parameter being written (or
/// loses where one names another of the tool's parameters).
const CUE_BONUS: f32 = 2.0;

/// The longest piece of the text whose first token is asked for, in characters.
const SEGMENT: usize = 48;

/// The most characters of the user's text a copy is taken from (the latest message's
/// first): a long pasted text must not make every step slow.
const MAX_SOURCE: usize = 4000;

/// The most words a span copied whole holds ("the best pizza places in downtown chicago").
const SPAN_WORDS: usize = 10;

/// The most characters a span copied whole holds.
const SPAN_CHARS: usize = 80;

/// How many words before a span may name the parameter it fills ("the project with UUID
/// SUPERFANCY"), signs such as an opening quote not counted.
const CUE_BEFORE: usize = 3;

/// Roles a preposition marks in English, as a marker among a parameter's stems: the words
/// that mark it just before a value, and the words of a parameter's name that say the
/// parameter plays it (`source_timezone`, `origin_airport`, `start_date`; `target`,
/// `destination`, `end_date`, `recipient`).
const ROLES: &[(&str, &[&str], &[&str])] = &[
    (
        "<from>",
        &["from", "since"],
        &["source", "origin", "from", "start", "departure", "sender", "begin", "since"],
    ),
    (
        "<to>",
        &["to", "into", "until", "till"],
        &["target", "destination", "dest", "to", "end", "arrival", "recipient", "receiver", "until"],
    ),
];

/// Signs that lead an option, a path or a variable written after a command (`--version`,
/// `/s`, `~/src`, `./run.sh`, `%userprofile%`, `$HOME`).
const OPTION_SIGNS: &[char] = &['-', '/', '\\', '%', '~', '$', '.'];

/// The most places in the text a span copied whole may start from.
const SPAN_STARTS: usize = 400;

/// Quotation marks that open a literal in the user's text, with the mark that closes it.
const QUOTES: &[(char, char)] = &[
    ('\'', '\''),
    ('"', '"'),
    ('`', '`'),
    ('‘', '’'),
    ('“', '”'),
    ('«', '»'),
    ('„', '“'),
    ('「', '」'),
    ('『', '』'),
];

/// The model's tokens by their text in lower case (with their text as it is), for finding
/// those that go on with a copy.
pub(crate) struct TokenIndex {
    by_text: HashMap<String, Vec<(u32, Box<str>)>>,
    /// Tokens whose text starts by closing a string: `"`, `",`, `"}`.
    closing: Vec<u32>,
    /// Tokens whose text starts by ending a number: `,`, `}`, `]`.
    after_number: Vec<u32>,
    /// Tokens that open a string and go on inside it: `"c`, ` ""`.
    opening_more: Vec<u32>,
    /// Tokens whose text starts by closing a list, after any white space: `]`, ` ]}`.
    closing_list: Vec<u32>,
    /// Tokens whose text holds a closing brace (`}`, `"}`, `}}`), with their text, in order.
    braces: Vec<(u32, Box<str>)>,
}

impl TokenIndex {
    /// The index of a vocabulary given as each token's bytes (tokens that are not text,
    /// such as control tokens and pieces of a character, are left out).
    pub(crate) fn new(tokens: &[Vec<u8>]) -> TokenIndex {
        let mut index = TokenIndex {
            by_text: HashMap::new(),
            closing: Vec::new(),
            after_number: Vec::new(),
            opening_more: Vec::new(),
            closing_list: Vec::new(),
            braces: Vec::new(),
        };
        for (id, bytes) in tokens.iter().enumerate() {
            let Ok(text) = std::str::from_utf8(bytes) else { continue };
            let Some(first) = text.chars().next() else { continue };
            let id = id as u32;
            if text.contains('}') {
                index.braces.push((id, text.into()));
            }
            if first == '"' {
                index.closing.push(id);
            }
            if matches!(first, ',' | '}' | ']') {
                index.after_number.push(id);
            }
            if text.trim_start().strip_prefix('"').is_some_and(|rest| !rest.is_empty()) {
                index.opening_more.push(id);
            }
            if text.trim_start().starts_with(']') {
                index.closing_list.push(id);
            }
            if text.chars().count() <= LOOKAHEAD {
                index.by_text.entry(lower(text).into_iter().collect()).or_default().push((id, text.into()));
            }
        }
        index
    }

    /// The tokens whose text starts by closing a string, in order.
    pub(crate) fn closing(&self) -> &[u32] {
        &self.closing
    }

    /// The tokens that, where a value starts, would open a string and go on inside it, in
    /// order.
    pub(crate) fn opening_more(&self) -> &[u32] {
        &self.opening_more
    }

    /// The tokens whose text starts by closing a list, in order.
    pub(crate) fn closing_list(&self) -> &[u32] {
        &self.closing_list
    }

    /// Whether `token` ends a value (closes a string or ends a number) rather than copying
    /// text into it.
    pub(crate) fn ends_value(&self, token: u32) -> bool {
        self.closing.binary_search(&token).is_ok() || self.after_number.binary_search(&token).is_ok()
    }
}

/// `text` in lower case, character by character.
fn lower(text: &str) -> Vec<char> {
    text.chars().flat_map(char::to_lowercase).collect()
}

/// The user's text a call may copy from, in lower case, with where its words and numbers
/// start.
pub(crate) struct CopySource {
    text: Vec<char>,
    /// The text as written, character for character beside `text` (a character whose
    /// lower case is longer stands as its lower case).
    written: Vec<char>,
    /// Where a word starts: a letter or digit after anything else, or a sign after white
    /// space.
    words: Vec<usize>,
    /// Where a number starts: a digit after anything but a digit or point, or a minus
    /// before a digit.
    numbers: Vec<usize>,
    /// What the user set in quotation marks, as the places it starts and ends.
    quoted: Vec<(usize, usize)>,
    /// Each word's stem (its letters and digits in lower case, at most [`STEM`] of them),
    /// beside `words`.
    stems: Vec<String>,
    /// Where each word of a name in capitals ("New York, NY", "Dominic Monaghan") is
    /// followed by another word of it: the word starts, beside `words`.
    name_goes_on: Vec<bool>,
    /// The names in capitals of two words or more that open no sentence, as where each
    /// starts and ends (see [`CopySource::unused_name`]).
    names: Vec<(usize, usize)>,
    /// The web addresses written in the text (those [`crate::chat::urls_in`] finds), as
    /// where each starts and ends: one word each, copied whole.
    addresses: Vec<(usize, usize)>,
    /// The words that name each parameter of each offered tool, tools and parameters by
    /// their names in lower case (see [`CopySource::with_parameters`]).
    parameters: HashMap<String, Vec<(String, HashSet<String>)>>,
    /// Each offered tool's own parameters (those its call's arguments hold at the top), in
    /// the order the schema declares them, tools by their names in lower case.
    arguments: HashMap<String, Vec<Argument>>,
    /// The first token of a copy from a place (as written, or in lower case), once found.
    first: RefCell<HashMap<(usize, bool), Option<u32>>>,
}

impl CopySource {
    /// The source of copies from `text` (its first [`MAX_SOURCE`] characters).
    pub(crate) fn new(text: &str) -> CopySource {
        let urls = crate::chat::urls_in(text);
        let (text, written): (Vec<char>, Vec<char>) = text
            .chars()
            .flat_map(|c| {
                let lower: Vec<char> = c.to_lowercase().collect();
                let single = lower.len() == 1;
                lower.into_iter().map(move |l| (l, if single { c } else { l }))
            })
            .take(MAX_SOURCE)
            .unzip();
        let mut words = Vec::new();
        let mut numbers = Vec::new();
        for (i, &c) in text.iter().enumerate() {
            let before = i.checked_sub(1).map(|j| text[j]);
            let after_space = before.is_none_or(char::is_whitespace);
            if (c.is_alphanumeric() && !before.is_some_and(char::is_alphanumeric))
                || (!c.is_whitespace() && !c.is_alphanumeric() && after_space)
            {
                words.push(i);
            }
            if number_starts(&text, i) {
                numbers.push(i);
            }
        }
        let quoted = quoted(&text);
        let word_at = |at: usize| -> String {
            text[at..].iter().take_while(|c| c.is_alphanumeric()).take(STEM).collect()
        };
        let stems: Vec<String> = words.iter().map(|&at| word_at(at)).collect();
        // A word in capitals goes on as a name where the next word, also in capitals,
        // follows after one space or a comma and a space ("Dominic Monaghan", "Austin,
        // TX"); but a word all in capitals is a label or a code, not the start of a name
        // that goes on after a space ("the UUID SUPERFANCY", "the API Gateway").
        let capital = |at: usize| written.get(at).is_some_and(|c| c.is_uppercase());
        let acronym = |at: usize| {
            let word: Vec<char> = written[at..].iter().copied().take_while(|c| c.is_alphanumeric()).collect();
            word.len() >= 2 && word.iter().all(|c| !c.is_lowercase())
        };
        let name_goes_on = words
            .iter()
            .enumerate()
            .map(|(n, &at)| {
                let Some(&next) = words.get(n + 1) else { return false };
                let end = (at..text.len()).find(|&i| !text[i].is_alphanumeric()).unwrap_or(text.len());
                let between: String = text[end..next].iter().collect();
                capital(at) && capital(next) && ((between == " " && !acronym(at)) || between == ", ")
            })
            .collect::<Vec<bool>>();
        // The names of two words or more; one that opens a sentence is not read as one.
        let mut names = Vec::new();
        let mut n = 0;
        while n < words.len() {
            let (first, start) = (n, words[n]);
            while n + 1 < words.len() && name_goes_on[n] {
                n += 1;
            }
            let last = words[n];
            n += 1;
            if n - first >= 2 && !opens_sentence(&text, start) {
                names.push((
                    start,
                    (last..text.len()).find(|&i| !text[i].is_alphanumeric()).unwrap_or(text.len()),
                ));
            }
        }
        let addresses = addresses(&text, &urls);
        CopySource {
            addresses,
            text,
            written,
            words,
            numbers,
            quoted,
            stems,
            name_goes_on,
            names,
            parameters: HashMap::new(),
            arguments: HashMap::new(),
            first: RefCell::new(HashMap::new()),
        }
    }

    /// The same source, knowing the words that name each parameter of the tools offered
    /// (`(tool, JSON Schema)`): the stems of the words of each property's name, at any
    /// depth, three letters or more (`coolTargetTemperature`: `cool`, `targe`, `tempe`).
    pub(crate) fn with_parameters(mut self, tools: &[(String, serde_json::Value)]) -> CopySource {
        fn walk(schema: &serde_json::Value, out: &mut Vec<(String, HashSet<String>)>) {
            let Some(schema) = schema.as_object() else { return };
            if let Some(properties) = schema.get("properties").and_then(|p| p.as_object()) {
                for (name, inner) in properties {
                    let words = tackle_core::name_words(name);
                    let mut stems: HashSet<String> = words
                        .iter()
                        .filter(|w| w.chars().count() >= 3)
                        .map(|w| w.chars().take(STEM).collect())
                        .collect();
                    // The role a preposition marks, where the name says it plays it.
                    for (role, _, names) in ROLES {
                        if words.iter().any(|w| names.contains(&w.as_str())) {
                            stems.insert((*role).to_owned());
                        }
                    }
                    let name = name.to_lowercase();
                    if !out.iter().any(|(known, _)| *known == name) {
                        out.push((name, stems));
                    }
                    walk(inner, out);
                }
            }
            for key in ["items", "additionalProperties"] {
                if let Some(inner) = schema.get(key) {
                    walk(inner, out);
                }
            }
        }
        for (tool, schema) in tools {
            let mut names = Vec::new();
            walk(schema, &mut names);
            self.parameters.insert(tool.to_lowercase(), names);
            let properties = schema.get("properties").and_then(|p| p.as_object());
            let arguments = properties.into_iter().flatten().map(|(name, inner)| Argument::of(name, inner));
            self.arguments.insert(tool.to_lowercase(), arguments.collect());
        }
        self
    }

    /// Whether `value` (as written) has the shape of an example the schema of parameter
    /// `key` of `tool` gives ("Healdsburg, CA" for a location "such as 'Berkeley, CA'";
    /// see [`shape`]).
    pub(crate) fn fits_example(&self, tool: &str, key: &str, value: &[char]) -> bool {
        let Some(argument) = self.arguments.get(tool).and_then(|a| a.iter().find(|a| a.name == key)) else {
            return false;
        };
        !argument.shapes.is_empty() && argument.shapes.contains(&shape(value))
    }

    /// Whether `value` (in lower case) may be copied for parameter `key` of `tool`: any
    /// value may, but for an enumeration, only its values other than its default.
    pub(crate) fn admits(&self, tool: &str, key: &str, value: &[char]) -> bool {
        self.enumeration(tool, key).is_none_or(|values| values.iter().any(|v| v == value))
    }

    /// Whether `value` (in lower case) is a value of the enumeration of parameter `key` of
    /// `tool` (not its default) that the text writes whole: a copy, whatever its case.
    pub(crate) fn names_value(&self, tool: &str, key: &str, value: &[char]) -> bool {
        self.admits(tool, key, value)
            && self.enumeration(tool, key).is_some()
            && self.words.iter().any(|&at| self.stands_as_stem(at, value))
    }

    /// Whether the text writes `value` at `at` as a short code: whole, and in capitals or
    /// digits only ("3D", "UK", "EN"; not "in", "on" or a sentence's "In"), as a user
    /// writes a code on purpose.
    fn writes_code(&self, at: usize, value: &[char]) -> bool {
        self.stands_whole(at, value)
            && self.written[at..at + value.len()]
                .iter()
                .all(|c| c.is_ascii_digit() || (c.is_alphabetic() && !c.is_lowercase()))
    }

    /// Whether a value of an enumeration stands in the text at `at` as a word or as the
    /// stem a word of the text grows from: whole, or, for a value of [`STEM_LEAST`]
    /// characters or more ending in a letter, where the word goes on in letters
    /// ("complete" of "completed", "comfort" of "comfortable", `DESC` of "descending", `fr`
    /// of "French"). People write the word, schemas its stem or code. A word that opens a
    /// phrase names no value (`CO` is not "could"), and a value shorter than
    /// [`ENUM_CHARS`] grows only into a name, a word in capitals inside a sentence, as a
    /// language's or a country's code does (`fr` of "French", not of "comfortable").
    fn stands_as_stem(&self, at: usize, value: &[char]) -> bool {
        let grows = || {
            let word: String = self.text[at..].iter().take_while(|c| c.is_alphanumeric()).collect();
            let name = || {
                self.written.get(at).is_some_and(|c| c.is_uppercase())
                    && self.text[..at]
                        .iter()
                        .rev()
                        .find(|c| !c.is_whitespace())
                        .is_some_and(|c| !".!?:".contains(*c))
            };
            !OPENS_PHRASE.contains(&word.as_str()) && (value.len() >= ENUM_CHARS || name())
        };
        self.stands_whole(at, value)
            || (value.len() >= STEM_LEAST
                && value.last().is_some_and(|c| c.is_alphabetic())
                && self.stands_at(at, value)
                && self.text.get(at + value.len()).is_some_and(|c| c.is_alphabetic())
                && grows())
    }

    /// The values but the default of the enumeration of parameter `key` of `tool`, where it
    /// is one (both in lower case).
    fn enumeration(&self, tool: &str, key: &str) -> Option<&Vec<Vec<char>>> {
        let arguments = self.arguments.get(tool)?;
        arguments.iter().find(|a| a.name == key).filter(|a| a.enumerated).map(|a| &a.values)
    }

    /// Whether `value` stands in the text at `at` and ends where a word does (if it ends in
    /// a letter or digit).
    fn stands_whole(&self, at: usize, value: &[char]) -> bool {
        self.stands_at(at, value)
            && !(value.last().is_some_and(|c| c.is_alphanumeric())
                && self.text.get(at + value.len()).is_some_and(|c| c.is_alphanumeric()))
    }

    /// Whether the call written so far (`written`) leaves out a parameter of its tool that
    /// the user's text gives a value for, one the call may still write (declared after the
    /// last it wrote, as the grammar keeps the schema's order): a value of its enumeration
    /// the text writes as words of its own and the call does not hold yet ("in Fahrenheit"
    /// for a `unit` of `celsius`, `fahrenheit`; "a comedy" for a `genre`), or, for a number,
    /// a number of the text not yet copied that a word beside it names the parameter by
    /// ("a rating of 4.1"), or, for a string of free text, a name in capitals the call
    /// holds no word of and no word beside gives to another parameter ("with Arthur Lowe"
    /// for a `starring`; see [`Self::unused_name`]). A small model closes a call after its
    /// first argument; the user asked for more.
    pub(crate) fn leaves_out(&self, written: &Written) -> bool {
        let Some(arguments) = self.arguments.get(&written.tool) else { return false };
        let after = written
            .keys
            .last()
            .and_then(|last| arguments.iter().position(|a| a.name == *last))
            .map_or(0, |i| i + 1);
        let open = self.not_copied(written.numbers.clone(), &written.strings, &written.tool);
        arguments.iter().skip(after).filter(|a| !written.keys.contains(&a.name)).any(|argument| {
            self.names_a_value(argument, written)
                || (argument.free_text && self.unused_name(&written.strings, &written.tool, &argument.name))
                || (argument.number && self.names_a_number(argument, written, &open))
        })
    }

    /// Whether the text names a value of `argument`'s enumeration that the call
    /// (`written`) does not hold: written whole or as the stem a word grows from, or, for
    /// a value under [`ENUM_CHARS`] characters, as a code ("3D").
    fn names_a_value(&self, argument: &Argument, written: &Written) -> bool {
        argument.values.iter().any(|value| {
            !written.strings.contains(value)
                && self.words.iter().take(SPAN_STARTS).any(|&at| {
                    if value.len() >= ENUM_CHARS {
                        self.stands_as_stem(at, value)
                    } else {
                        self.writes_code(at, value)
                    }
                })
        })
    }

    /// Whether one of the numbers the call has not copied (`open`) has a word beside it
    /// that names `argument` ("a rating of 4.1").
    fn names_a_number(&self, argument: &Argument, written: &Written, open: &[usize]) -> bool {
        open.iter().any(|&at| {
            let end = at + number_at(&self.text, at).len();
            self.cue_at(at, end, &written.tool, &argument.name).names_it
        })
    }

    /// Whether the text gives `argument` (of free text) a value by naming it: a name in
    /// capitals, a quotation, or a word with a capital or a digit in it that no sentence
    /// opens, which the call (`written`) holds no word of and a word beside names the
    /// parameter by ("directed by Gavin Hood", "serial number Q3CC-CRT3").
    fn names_a_text(&self, argument: &Argument, written: &Written) -> bool {
        let copied = |word: &[char]| written.strings.iter().any(|s| s.windows(word.len()).any(|w| w == word));
        let marked = self.words.iter().take(SPAN_STARTS).filter_map(|&at| {
            let end =
                (at..self.text.len()).find(|&i| !self.text[i].is_alphanumeric()).unwrap_or(self.text.len());
            let marks = self.written[at..end].iter().any(|c| c.is_uppercase() || c.is_ascii_digit());
            (end > at && marks && !opens_sentence(&self.text, at)).then_some((at, end))
        });
        self.names.iter().chain(&self.quoted).copied().chain(marked).any(|(start, end)| {
            let unused = self.text[start..end]
                .split(|c| !c.is_alphanumeric())
                .filter(|word| word.len() >= 2)
                .all(|word| !copied(word));
            unused && self.cue_at(start, end, &written.tool, &argument.name).names_it
        })
    }

    /// The parameters of the call's tool declared after the last key it wrote, not written,
    /// and of those the ones whose key, written next, passes over one declared before it
    /// that the text names a value for (an enumeration's value, a number or a text a word
    /// beside names it by; see [`Self::names_a_value`], [`Self::names_a_text`]), in lower
    /// case.
    fn passing_over(&self, written: &Written) -> (Vec<&Argument>, HashSet<&str>) {
        let Some(arguments) = self.arguments.get(&written.tool) else { return Default::default() };
        let after = written
            .keys
            .last()
            .and_then(|last| arguments.iter().position(|a| a.name == *last))
            .map_or(0, |i| i + 1);
        let ahead: Vec<&Argument> =
            arguments.iter().skip(after).filter(|a| !written.keys.contains(&a.name)).collect();
        let open = self.not_copied(written.numbers.clone(), &written.strings, &written.tool);
        let first_named = ahead.iter().position(|argument| {
            self.names_a_value(argument, written)
                || (argument.number && self.names_a_number(argument, written, &open))
                || (argument.free_text && self.names_a_text(argument, written))
        });
        let passing = match first_named {
            Some(i) => ahead[i + 1..].iter().map(|a| a.name.as_str()).collect(),
            None => HashSet::new(),
        };
        (ahead, passing)
    }

    /// The tokens `allowed` after `json` (a call written so far, standing where a key of
    /// its arguments goes or inside one) that would write a key passing over a parameter
    /// the text names a value for ([`Self::passing_over`]), in order. The grammar writes
    /// a call's keys in the order the schema declares them, so a key passes over those
    /// before it for good; a small model fills a few and skips the rest ("a Mystery movie
    /// with Hattie Morahan directed by Gavin Hood" lost its director).
    /// `(at, written)` is [`slot`] of `json`, as the caller has read it.
    pub(crate) fn passes_over(
        &self,
        json: &str,
        (at, written): (&Slot, &Written),
        index: &TokenIndex,
        allowed: impl Fn(u32) -> bool,
    ) -> Vec<u32> {
        if *at != Slot::Other || written.depth != 2 || written.closed {
            return Vec::new();
        }
        let (ahead, passing) = self.passing_over(written);
        if passing.is_empty() {
            return Vec::new();
        }
        // What may come before a key's name: nothing inside it, else its quote, after a
        // comma or the opening brace where those are still to come.
        let partial = written.open_key.clone();
        let before: &[&str] = if partial.is_some() { &[""] } else { &["\"", ",\"", "{\""] };
        let done = partial.as_ref().map_or(0, Vec::len);
        let mut candidates: Vec<(u32, &str)> = Vec::new();
        for argument in &ahead {
            let name: Vec<char> = argument.name.chars().collect();
            if partial.as_ref().is_some_and(|p| !name.starts_with(p)) {
                continue;
            }
            let rest: String = name[done..].iter().collect();
            for before in before {
                let whole = format!("{before}{rest}\":");
                let mut texts: Vec<String> =
                    whole.char_indices().skip(1).map(|(i, _)| whole[..i].to_owned()).collect();
                texts.extend(["", "\"", "[", "{", "[\"", "[{"].iter().map(|value| format!("{whole}{value}")));
                for text in texts {
                    let tokens = index.by_text.get(&text).into_iter().flatten();
                    candidates.extend(tokens.filter(|(t, _)| allowed(*t)).map(|(t, text)| (*t, &**text)));
                }
            }
        }
        candidates.sort_unstable();
        candidates.dedup();
        candidates.retain(|&(_, text)| {
            let (_, then) = slot(&format!("{json}{text}"));
            if then.keys.len() > written.keys.len() {
                then.keys[written.keys.len()..].iter().any(|k| passing.contains(k.as_str()))
            } else if let Some(key) = &then.open_key {
                let fits: Vec<&&Argument> =
                    ahead.iter().filter(|a| a.name.chars().collect::<Vec<char>>().starts_with(key)).collect();
                !fits.is_empty() && fits.iter().all(|a| passing.contains(a.name.as_str()))
            } else {
                false
            }
        });
        candidates.into_iter().map(|(token, _)| token).collect()
    }

    /// Settles, once a call to `tool` (parameters `schema`) is written, where its optional
    /// arguments of free text stand: a value copied from the text whose words only name
    /// parameters or open phrases (`localeId: "ID"` of "my bot with ID 'B12345'"), or a
    /// value for a date that reads as none (`date: "Theater events"`; see
    /// [`reads_as_date`]), or a number the call already holds as a number (`city: "$250"`
    /// beside `purchase_amount: 250`; see [`Self::copied_as_number`]) goes, and one whose
    /// label names another parameter of free text that the call leaves out, and not its
    /// own, moves there (`artist: "High Expectations"` of "the album High
    /// Expectations" to `album`). A small model fills optional parameters in the order
    /// they are declared; the label is the user's word for where the value belongs.
    /// Required arguments stay. Returns the names of the arguments dropped or moved.
    pub(crate) fn settle(
        &self,
        tool: &str,
        arguments: &mut serde_json::Value,
        schema: &serde_json::Value,
    ) -> Vec<String> {
        let tool = tool.to_lowercase();
        let (Some(declared), Some(map), Some(properties)) = (
            self.arguments.get(&tool),
            arguments.as_object_mut(),
            schema.get("properties").and_then(|p| p.as_object()),
        ) else {
            return Vec::new();
        };
        let required: Vec<String> = schema
            .get("required")
            .and_then(|r| r.as_array())
            .into_iter()
            .flatten()
            .filter_map(|r| r.as_str().map(str::to_lowercase))
            .collect();
        let mut changed = Vec::new();
        let names: Vec<String> = map.keys().cloned().collect();
        for name in names {
            let key = name.to_lowercase();
            let Some(argument) = declared.iter().find(|a| a.name == key) else { continue };
            let Some(serde_json::Value::String(value)) = map.get(&name) else { continue };
            if required.contains(&key) || !argument.free_text {
                continue;
            }
            let value = lower(value.trim());
            let own = self.stands(&value, &tool, &key);
            if own.is_empty() || own.iter().any(|(cue, _)| cue.names_it) {
                continue;
            }
            let others: Vec<Vec<char>> = map
                .iter()
                .filter(|(other, _)| **other != name)
                .filter_map(|(_, v)| v.as_str().map(|v| lower(v.trim())))
                .filter(|v| !v.is_empty())
                .collect();
            if own.iter().all(|(cue, _)| cue.fills_nothing)
                || self.labels(&value, &others)
                || self.copied_as_number(&value, map)
                || (argument.dated && !reads_as_date(&value))
            {
                map.remove(&name);
                changed.push(name);
                continue;
            }
            let held = |a: &Argument| map.keys().any(|k| k.to_lowercase() == a.name);
            let homes: Vec<&Argument> = declared
                .iter()
                .filter(|a| a.free_text && a.name != key && !held(a))
                .filter(|a| self.stands(&value, &tool, &a.name).iter().any(|(cue, _)| cue.names_it))
                .collect();
            if let [home] = homes[..]
                && let Some(home) = properties.keys().find(|k| k.to_lowercase() == home.name)
                && let Some(moved) = map.remove(&name)
            {
                map.insert(home.clone(), moved);
                changed.push(name);
            }
        }
        changed
    }

    /// Whether `value` (in lower case) is a number that the call's `arguments` already
    /// hold as a number as often as the text writes it: each place of the text fills one
    /// value, so a text that repeats it (`t0: "10"` beside `perPage: 10` of "10 alerts per
    /// page") copied nothing of its own.
    fn copied_as_number(
        &self,
        value: &[char],
        arguments: &serde_json::Map<String, serde_json::Value>,
    ) -> bool {
        // A sign of money or of a share around it is no part of the number ("$250").
        let sign = |c: &char| "$€£¥%".contains(*c);
        let start = value.iter().take_while(|c| sign(c)).count();
        let end = value.len() - value[start..].iter().rev().take_while(|c| sign(c)).count();
        let value = &value[start..end];
        if value.is_empty() || value.iter().any(|c| !c.is_ascii_digit() && *c != '.') {
            return false;
        }
        let Ok(number) = value.iter().collect::<String>().parse::<f64>() else { return false };
        let held = arguments.values().filter(|v| v.as_f64() == Some(number)).count();
        let written = self.numbers.iter().filter(|&&at| number_at(&self.text, at) == value).count();
        held > 0 && held >= written
    }

    /// Whether `value` stands in the text only as the label of one of `others` (values
    /// the call holds): right before it, with nothing between but white space, quotation
    /// marks, a colon, a hash or an equals sign ("ID" of "with ID 'B12345'").
    fn labels(&self, value: &[char], others: &[Vec<char>]) -> bool {
        let places: Vec<usize> =
            self.words.iter().copied().filter(|&at| self.stands_whole(at, value)).collect();
        !places.is_empty()
            && places.iter().all(|&at| {
                let gap =
                    |c: &char| c.is_whitespace() || ":#=".contains(*c) || QUOTES.iter().any(|q| q.0 == *c);
                let next = (at + value.len()..self.text.len()).find(|&i| !gap(&self.text[i]));
                next.is_some_and(|next| {
                    next > at + value.len() && others.iter().any(|o| self.stands_at(next, o))
                })
            })
    }

    /// Whether the text gives a name in capitals of two words or more ("Alex King",
    /// "Dominic Monaghan") that none of `strings` (the values a call holds, in lower case)
    /// copies any word of, and that no word beside says is for another parameter of `tool`
    /// than `key` ("directed by Wes Anderson" is not the cast). A name that starts a
    /// sentence is not read as one: a sentence's first word is in capitals anyway ("Hello,
    /// I am…").
    fn unused_name(&self, strings: &[Vec<char>], tool: &str, key: &str) -> bool {
        self.names.iter().any(|&(start, end)| {
            let copied = |word: &[char]| strings.iter().any(|s| s.windows(word.len()).any(|w| w == word));
            let copies_a_word = self.text[start..end]
                .split(|c| !c.is_alphanumeric())
                .filter(|word| word.len() >= 2)
                .any(copied);
            !copies_a_word && !self.cue_at(start, end, tool, key).names_another
        })
    }

    /// Whether the text from `start` to `end` (in characters) begins, and whether it ends,
    /// inside a name in capitals ("Dominic Monaghan", "Austin, TX"), inside a word joined
    /// by a hyphen, an underscore or a point (`serde-rs`, `release-2.0`, `user_id`), or
    /// inside a web address (`http://example.com` of `http://example.com/a.jpg`).
    pub(crate) fn cuts_whole(&self, start: usize, end: usize) -> (bool, bool) {
        let begins = self.words.binary_search(&start).is_ok_and(|n| n > 0 && self.name_goes_on[n - 1])
            || start.checked_sub(1).is_some_and(|i| self.joins(i));
        let after = self.words.partition_point(|&at| at < end);
        let ends =
            (after > 0 && self.name_goes_on[after - 1] && self.words[after - 1] < end) || self.joins(end);
        let inside = |at: usize| self.addresses.iter().any(|&(from, to)| from < at && at < to);
        (begins || inside(start), ends || inside(end))
    }

    /// Whether the character at `i` joins two parts of one word: a hyphen, an underscore, a
    /// point or the `@` of an address, with a letter or digit on each side.
    fn joins(&self, i: usize) -> bool {
        let alphanumeric =
            |at: Option<usize>| at.and_then(|at| self.text.get(at)).is_some_and(|c| c.is_alphanumeric());
        matches!(self.text.get(i), Some('-' | '_' | '.' | '@'))
            && alphanumeric(i.checked_sub(1))
            && alphanumeric(Some(i + 1))
    }

    /// Where `value` (in lower case) stands in the text from the start of a word to the end
    /// of one, and how
    /// the words around it speak of parameter `key` of `tool` there (see [`Self::cue`]),
    /// with whether it is cut there (it begins or ends inside a name in capitals, a joined
    /// word or an address, stops inside a phrase or misplaces a pair's parts); cut at one
    /// place, it is cut at every place (see [`Self::cut_somewhere`]). At most
    /// [`SPAN_STARTS`] places.
    pub(crate) fn stands(&self, value: &[char], tool: &str, key: &str) -> Vec<Place> {
        if value.is_empty() {
            return Vec::new();
        }
        let mut places: Vec<Place> = self
            .words
            .iter()
            .take(SPAN_STARTS)
            .filter(|&&at| {
                let whole = !(value.last().is_some_and(|c| c.is_alphanumeric())
                    && self.text.get(at + value.len()).is_some_and(|c| c.is_alphanumeric()));
                whole && self.stands_at(at, value)
            })
            .map(|&at| {
                let end = at + value.len();
                let (begins, ends) = self.cuts_whole(at, end);
                let split = self.stops_inside(end, tool) || self.joins_a_pair(at, end, tool, key);
                (self.cue_at(at, end, tool, key), begins || ends || split)
            })
            .collect();
        if places.iter().any(|(_, cut)| *cut) {
            for place in &mut places {
                place.1 = true;
            }
        }
        places
    }

    /// Whether `value` (in lower case) is cut at some place where the user wrote it (see
    /// [`Self::stands`]): the head of a longer phrase there ("docker" of "using docker
    /// ps", "shutdown" of "the command shutdown /s /t 0"). A copy of it is a cut wherever
    /// it is taken from, even where it stands whole as well ("check whether docker is
    /// running"): the user wrote more of it once, and that is the value.
    pub(crate) fn cut_somewhere(&self, value: &[char], tool: &str, key: &str) -> bool {
        self.stands(value, tool, key).first().is_some_and(|(_, cut)| *cut)
    }

    /// How the words around `span` (the [`CUE_BEFORE`] words before it and the one right
    /// after the end at `end`) speak of parameter `key` of `tool` (both in lower case): whether one names it ("project
    /// SUPERFANCY", "titled Checkout fails"), and whether one names another of the tool's
    /// parameters and not this one. And whether the span's words only name parameters
    /// (`project: "project"`) or open phrases (`owner: "me"`): a value fills a slot, it
    /// does not repeat its name.
    pub(crate) fn cue(&self, span: &Span, end: usize, tool: &str, key: &str) -> Cue {
        self.cue_at(span.start, span.start + end, tool, key)
    }

    /// How `span`, copied to its end at `end`, stands: what the words around it say of
    /// parameter `key` of `tool` ([`Self::cue`]), and whether it begins or ends inside a
    /// name in capitals or a joined word ([`Self::cuts_whole`]) or stops inside a phrase
    /// ([`Self::stops_inside`]).
    pub(crate) fn place(&self, span: &Span, end: usize, tool: &str, key: &str) -> Place {
        let (begins, ends) = self.cuts_whole(span.start, span.start + end);
        let inside = self.stops_inside(span.start + end, tool)
            || self.joins_a_pair(span.start, span.start + end, tool, key);
        (self.cue(span, end, tool, key), begins || ends || inside)
    }

    /// Whether the text from `start` to `end` (in characters) misplaces the parts of an
    /// owner and what it owns written as one, joined by a slash (`acme/api`,
    /// `serde-rs/serde`), where `key` is one of a pair of `tool`'s parameters declared one
    /// after the other, an owner and the name of what it owns (`owner` and `repo`;
    /// [`OWNER_WORDS`], [`OWNED_WORDS`]): it holds both parts (each takes its own, as a
    /// joined word is not cut), or it is the part after the slash for the owner, or the part
    /// before it for what is owned. A slash between words of another parameter's value
    /// stays (`feature/login` for a branch).
    fn joins_a_pair(&self, start: usize, end: usize, tool: &str, key: &str) -> bool {
        let alphanumeric =
            |i: Option<usize>| i.and_then(|i| self.text.get(i)).is_some_and(|c| c.is_alphanumeric());
        let slash_at = |i: Option<usize>| {
            i.is_some_and(|i| {
                self.text.get(i) == Some(&'/') && alphanumeric(i.checked_sub(1)) && alphanumeric(Some(i + 1))
            })
        };
        let end = end.min(self.text.len());
        if start >= end {
            return false;
        }
        let holds_both = (start + 1..end.saturating_sub(1)).any(|i| slash_at(Some(i)));
        // Where the span is one part of such a pair, standing whole.
        let stands_alone =
            |i: Option<usize>| !alphanumeric(i) && i.and_then(|i| self.text.get(i)) != Some(&'/');
        let first_part = slash_at(Some(end)) && stands_alone(start.checked_sub(1));
        let second_part = slash_at(start.checked_sub(1)) && stands_alone(Some(end));
        if !(holds_both || first_part || second_part) {
            return false;
        }
        self.arguments.get(tool).is_some_and(|arguments| {
            arguments.windows(2).any(|pair| {
                let paired = pair[0].owner && pair[1].owned && pair[0].free_text && pair[1].free_text;
                let owner = pair[0].name == key;
                let owned = pair[1].name == key;
                paired && (holds_both && (owner || owned) || (second_part && owner) || (first_part && owned))
            })
        })
    }

    /// Whether a copy ending at `end` (in characters) stops inside a phrase: one space
    /// follows, then a word that opens no new phrase — not a word of [`OPENS_PHRASE`] (a
    /// preposition, a conjunction, an article, a pronoun, an auxiliary) and not one naming
    /// a parameter of `tool`, which starts the next slot ("acme/webshop titled…"). "netsh"
    /// of "using the command netsh wlan disconnect", "chai" of "16 ounces of chai tea as a
    /// snack". A value ends where its phrase does: before punctuation, a line break, a
    /// wider gap, the end of the text, or a word that starts another phrase ("Hyderabad in
    /// Fahrenheit").
    pub(crate) fn stops_inside(&self, end: usize, tool: &str) -> bool {
        if self.text.get(end.wrapping_sub(1)).is_none_or(|c| !c.is_alphanumeric())
            || self.text.get(end).is_none_or(|c| *c != ' ')
        {
            return false;
        }
        let Some(n) = self.words.binary_search(&(end + 1)).ok() else { return false };
        // An option, a path or a variable goes on with what came before it (`docker
        // --version`, `shutdown /s`, `cd ~/src`, `echo $HOME`): signs that lead a word of
        // letters or digits.
        let signs = self.text[end + 1..].iter().take_while(|c| OPTION_SIGNS.contains(c)).count();
        if signs > 0 {
            return self.text.get(end + 1 + signs).is_some_and(|c| c.is_alphanumeric());
        }
        let word: String = self.text[end + 1..].iter().take_while(|c| c.is_alphanumeric()).collect();
        if word.is_empty() || OPENS_PHRASE.contains(&word.as_str()) {
            return false;
        }
        let names = self.parameters.get(tool);
        !names.is_some_and(|names| names.iter().any(|(_, stems)| stems.contains(&self.stems[n])))
    }

    /// [`Self::cue`] for the text from `start` to `end` (in characters).
    fn cue_at(&self, start: usize, end: usize, tool: &str, key: &str) -> Cue {
        let Some(names) = self.parameters.get(tool) else { return Cue::default() };
        let Some((_, own)) = names.iter().find(|(name, _)| name == key) else { return Cue::default() };
        // The word it starts in, and the first word after it.
        let Some(n) = self.words.partition_point(|&at| at <= start).checked_sub(1) else {
            return Cue::default();
        };
        let after = self.words.partition_point(|&at| at < end);
        // The word after counts where only white space or a quotation mark comes between
        // ("'Plus' type"; not "133, accelerating").
        let next = self
            .words
            .get(after)
            .filter(|&&at| {
                let quote = |c: &char| QUOTES.iter().any(|&(open, close)| *c == open || *c == close);
                self.text.get(end..at).is_some_and(|gap| gap.iter().all(|c| c.is_whitespace() || quote(c)))
            })
            .map(|_| &self.stems[after]);
        // The role the word just before marks ("from America/New_York to Europe/London").
        let role = n.checked_sub(1).and_then(|before| {
            ROLES
                .iter()
                .find(|(_, marks, _)| marks.contains(&self.stems[before].as_str()))
                .map(|(role, _, _)| *role)
        });
        let role = role.map(str::to_owned);
        // A word before names the value only where nothing between the two is a word of a
        // value itself: between them stand only words that open phrases ("a rating of
        // 4.1") or labels in capitals ("the project with UUID SUPERFANCY"; not a number:
        // "issue 4521 in serde-rs" does not name `serde-rs` an issue). "The command netsh
        // wlan disconnect" names "netsh", not "wlan".
        let mut before = Vec::new();
        // Signs (an opening quote) do not count among the words before.
        let sign = |j: usize| self.text[self.words[j]..].first().is_some_and(|c| !c.is_alphanumeric());
        let mut counted = 0;
        for j in (0..n).rev() {
            if !sign(j) {
                counted += 1;
            }
            if counted > CUE_BEFORE {
                break;
            }
            before.push(&self.stems[j]);
            let at = self.words[j];
            // A sign (an opening quote) stands between as a label does; a number does not.
            let word = || self.written[at..].iter().take_while(|c| c.is_alphanumeric());
            let number = word().next().is_some() && word().all(|c| c.is_numeric());
            let label = !number && word().all(|c| !c.is_lowercase());
            let lower: String = self.text[at..].iter().take_while(|c| c.is_alphanumeric()).collect();
            if !label && !OPENS_PHRASE.contains(&lower.as_str()) && !LABEL_NOUNS.contains(&lower.as_str()) {
                // A name of two words ("meta title", "due date"): the word before a word
                // that names a parameter counts too where it names one.
                let names_one = |j: usize| names.iter().any(|(_, stems)| stems.contains(&self.stems[j]));
                if names_one(j) && j > 0 && names_one(j - 1) {
                    before.push(&self.stems[j - 1]);
                }
                break;
            }
        }
        let around: Vec<&String> = before
            .into_iter()
            .chain(next)
            .filter(|stem| stem.chars().count() >= 3)
            .chain(role.as_ref())
            .collect();
        // The words name the parameter whose name they hold most of: "meta title" names a
        // `MetaTitle`, not a `Title`; "title" names both.
        let score = |stems: &HashSet<String>| around.iter().filter(|stem| stems.contains(**stem)).count();
        let best_other = names.iter().filter(|(name, _)| name != key).map(|(_, stems)| score(stems)).max();
        let own_score = score(own);
        let names_it = own_score > 0 && best_other.is_none_or(|best| best <= own_score);
        let names_another = !names_it
            && around.iter().any(|stem| {
                names.iter().any(|(name, stems)| name != key && stems.contains(*stem) && !own.contains(*stem))
            });
        // The span's words only name parameters of the tool, its own or another's ("issue"
        // in "show me issue 4521 in serde-rs/serde" is no `owner`, it names
        // `issue_number`), or open phrases (`owner: "me"`, `city: "to"`, `county: "I"`):
        // no value of free text (an enumeration's values are its own, and times and states
        // such as "tomorrow" and "on" are values).
        let free = self.enumeration(tool, key).is_none();
        let fills_nothing = n < after
            && (n..after).all(|i| {
                let names_one = names.iter().any(|(_, stems)| stems.contains(&self.stems[i]));
                let word: String =
                    self.text[self.words[i]..].iter().take_while(|c| c.is_alphanumeric()).collect();
                names_one
                    || (free && OPENS_PHRASE.contains(&word.as_str()) && !IS_A_VALUE.contains(&word.as_str()))
            });
        // A span that is a value of another parameter's enumeration is that parameter's,
        // not a free text's ("a 'Plus' type Uber from '2150 Shattuck Ave'": `Plus` is the
        // ride's type, not its `loc`).
        let names_another = names_another
            || (!names_it
                && free
                && self.text.get(start..end).is_some_and(|span| {
                    self.arguments.get(tool).is_some_and(|arguments| {
                        arguments
                            .iter()
                            .any(|a| a.name != key && a.enumerated && a.values.iter().any(|v| v == span))
                    })
                }));
        Cue { names_it, names_another, fills_nothing }
    }

    /// What a copy from `at` writes next, at most to the end of the next word: as the user
    /// wrote it or in lower case, up to a character JSON escapes.
    fn segment(&self, at: usize, lower: bool) -> String {
        let chars = if lower { &self.text } else { &self.written };
        let mut segment = String::new();
        let mut in_word = false;
        for &c in chars[at.min(chars.len())..].iter().take(SEGMENT) {
            if c == '"' || c == '\\' || c.is_control() || (in_word && c.is_whitespace()) {
                break;
            }
            in_word |= !c.is_whitespace();
            segment.push(c);
        }
        segment
    }

    /// The token the model writes first for the copy from `at` (see [`Self::segment`]), by
    /// `first_token`, remembered.
    fn first_token(&self, at: usize, lower: bool, first_token: &dyn Fn(&str) -> Option<u32>) -> Option<u32> {
        *self.first.borrow_mut().entry((at, lower)).or_insert_with(|| {
            let segment = self.segment(at, lower);
            if segment.is_empty() { None } else { first_token(&segment) }
        })
    }

    /// The spans of the text a string value may copy whole: from each place a word starts
    /// (the first [`SPAN_STARTS`]), the text as written up to [`SPAN_WORDS`] words on, and
    /// the lengths in characters at which a word of it ends (`acme/webshop`: after `acme`
    /// and after `webshop`) or a run of signs ends other than in a sentence's punctuation
    /// (`%time%`, `camera:`); one that starts with a web address or a quotation reaches at
    /// least its end. A span stops before a character JSON escapes. A span that starts
    /// where the user opened quotation marks ends where they close, and only there
    /// (`'start camera:'` ends after the colon, `'chicken dish'` not after `chicken`).
    pub(crate) fn spans(&self) -> Vec<Span> {
        let mut spans = Vec::new();
        for (n, &start) in self.words.iter().enumerate().take(SPAN_STARTS) {
            let mut ends = Vec::new();
            let mut words = 0;
            let mut reach = start;
            // An address or a quotation the span starts with is read to its end, however
            // long: its words are not counted.
            let whole_to = self
                .addresses
                .iter()
                .chain(&self.quoted)
                .filter(|&&(from, _)| from == start)
                .map(|&(_, to)| to)
                .max()
                .unwrap_or(start);
            let most = SPAN_CHARS.max(whole_to - start);
            for (i, &c) in self.text.iter().enumerate().skip(start).take(most) {
                if c == '"' || c == '\\' || c.is_control() {
                    break;
                }
                if self.words.get(n + words) == Some(&i) {
                    words += 1;
                    if words > SPAN_WORDS && i >= whole_to {
                        break;
                    }
                }
                reach = i + 1;
                // Where a word ends, and where a run of anything but white space ends
                // other than in a sentence's punctuation (`%time%`, `camera:`).
                let next = self.text.get(i + 1);
                let word_ends = c.is_alphanumeric() && !next.is_some_and(|next| next.is_alphanumeric());
                let run_ends = !c.is_whitespace()
                    && !matches!(c, ',' | '.' | '?' | '!' | ';')
                    && next.is_none_or(|next| next.is_whitespace());
                if word_ends || run_ends {
                    ends.push(i + 1 - start);
                }
            }
            let quoted = self
                .quoted
                .iter()
                .find(|&&(from, to)| from == start && to <= reach)
                .map(|&(_, to)| to - start);
            // A quotation is copied whole or not at all.
            if let Some(end) = quoted {
                ends = vec![end];
            }
            if let Some(&last) = ends.last() {
                spans.push(Span {
                    text: self.written[start..start + last].iter().collect(),
                    start,
                    ends,
                    quoted,
                    long: whole_to - start > SPAN_CHARS
                        || self.addresses.iter().any(|&(from, _)| from == start),
                });
            }
        }
        spans
    }

    /// Whether `value` stands in the text at `at`.
    fn stands_at(&self, at: usize, value: &[char]) -> bool {
        self.text.get(at..at + value.len()).is_some_and(|s| s == value)
    }

    /// Where the numbers of the text start that the call does not hold yet: each number
    /// the call holds (`numbers`, and those inside its `strings` but the tool's name) takes
    /// away one place of the text that reads it, the first.
    fn not_copied(&self, mut numbers: Vec<Vec<char>>, strings: &[Vec<char>], tool: &str) -> Vec<usize> {
        let arguments = strings.iter().filter(|s| !s.iter().copied().eq(tool.chars()));
        numbers.extend(arguments.flat_map(|s| numbers_in(s)));
        self.numbers
            .iter()
            .copied()
            .filter(|&at| match numbers.iter().position(|n| *n == number_at(&self.text, at)) {
                Some(i) => {
                    numbers.swap_remove(i);
                    false
                }
                None => true,
            })
            .collect()
    }

    /// The tokens that keep the value being written at the end of `json` (a call written
    /// so far) a copy of the text, each once and in token order, with the bonus each earns;
    /// none where no value is being written or it has stopped being a copy.
    ///
    /// From each place a copy may go on, one token earns it: the first of the rest of the
    /// word as the tokenizer cuts it (`first_token`): the model knows a word by the tokens
    /// it is usually cut into (`Hy`+`der`+`abad`), and after a piece it would not cut
    /// (`H`) it no longer reads the word. Where the grammar does not allow that token
    /// (an enumeration in another case), the same in lower case earns less, else the
    /// longest allowed token that matches without regard to case.
    pub(crate) fn continuations(
        &self,
        json: &str,
        index: &TokenIndex,
        allowed: impl Fn(u32) -> bool,
        first_token: &dyn Fn(&str) -> Option<u32>,
    ) -> Vec<(u32, f32)> {
        let mut found: Vec<(u32, f32)> = Vec::new();
        // The allowed tokens whose text is `key` in lower case, those that read `written`
        // exactly earning more.
        let add_text = |found: &mut Vec<(u32, f32)>, key: &str, written: &str| {
            for (token, text) in index.by_text.get(key).into_iter().flatten().filter(|(t, _)| allowed(*t)) {
                let bonus = if **text == *written { COPY_BONUS } else { OTHER_CASE_BONUS };
                found.push((*token, bonus));
            }
        };
        let add = |found: &mut Vec<(u32, f32)>, tokens: &[u32]| {
            found.extend(tokens.iter().map(|&t| (t, COPY_BONUS)));
        };
        let (slot, written) = slot(json);
        // Where the call leaves out an argument the text gives, what would close its
        // arguments now loses (see [`CopySource::leaves_out`]); not where a value starts.
        let left_out = if slot == Slot::ValueStart && written.depth >= 2 {
            Vec::new()
        } else {
            self.left_out(json, index, &allowed)
        };
        // Where a key goes, one that would pass over a parameter the text gives loses as
        // much (see [`CopySource::passes_over`]).
        let passing = self.passes_over(json, (&slot, &written), index, &allowed);
        let Written { numbers: numbers_written, strings, key, tool, .. } = written;
        // An enumeration's value is copied where the text writes it whole ("comedy" for
        // `Comedy`, not the "co" of "could"), in the enumeration's case as well as in its
        // own; its default is not copied (writing it is the same as leaving it out).
        let enumeration = self.enumeration(&tool, &key);
        let other_case = if enumeration.is_some() { COPY_BONUS } else { OTHER_CASE_BONUS };
        // Where an enumeration's value starts, one the text names earns more: the grammar
        // leaves a few values, and the model's liking for the first or the default
        // (`ASC` for "in descending order") outweighed the copy's bonus.
        let starts_value = enumeration.is_some() && matches!(&slot, Slot::Text(v) if v.is_empty());
        let (same_case, other_case) =
            if starts_value { (NAMED_VALUE_BONUS, NAMED_VALUE_BONUS) } else { (COPY_BONUS, other_case) };
        let whole_value = |at: usize, value: &[char]| {
            enumeration.is_none_or(|values| {
                values.iter().any(|v| v.starts_with(value) && self.stands_as_stem(at, v))
            })
        };
        // An enumeration's value closes where it is whole, also where the text's word goes
        // on ("comfort" of "comfortable").
        let closes_value = |value: &[char]| {
            !value.is_empty() && enumeration.is_some_and(|values| values.iter().any(|v| v == value))
        };
        match slot {
            Slot::Text(value) => {
                for &at in
                    self.words.iter().filter(|&&at| self.stands_at(at, &value) && whole_value(at, &value))
                {
                    let end = at + value.len();
                    if let Some(token) = self.first_token(end, false, first_token).filter(|t| allowed(*t)) {
                        found.push((token, same_case));
                    } else if let Some(token) =
                        self.first_token(end, true, first_token).filter(|t| allowed(*t))
                    {
                        found.push((token, other_case));
                    } else {
                        // The next characters as single tokens, the longest the grammar allows.
                        let (mut key, mut written) = (String::new(), String::new());
                        let mut longest = Vec::new();
                        for (&c, &w) in self.text[end..].iter().zip(&self.written[end..]).take(LOOKAHEAD) {
                            if c == '"' || c == '\\' || c.is_control() {
                                break;
                            }
                            key.push(c);
                            written.push(w);
                            let mut these = Vec::new();
                            add_text(&mut these, &key, &written);
                            if !these.is_empty() {
                                longest = these;
                            }
                        }
                        found.extend(longest.into_iter().map(|(t, _)| (t, other_case)));
                    }
                    // A copy closes where a word ends (an empty one never does).
                    let last = end.checked_sub(1).filter(|_| !value.is_empty()).map(|i| self.text[i]);
                    let word_end = last.is_some_and(|last| {
                        self.text
                            .get(end)
                            .is_none_or(|next| !(next.is_alphanumeric() && last.is_alphanumeric()))
                    });
                    if word_end || closes_value(&value) {
                        add(&mut found, &index.closing);
                    }
                }
            }
            Slot::Number(number) => {
                // A number the call already holds is not copied again: after `20` went into
                // a velocity, the `2` of an acceleration ("accelerating at 2") goes on as
                // that 2, not as the 20 (each place of the text fills one value).
                let open = self.not_copied(numbers_written, &strings, &tool);
                for &at in open.iter().filter(|&&at| self.stands_at(at, &number)) {
                    let end = at + number.len();
                    let digit_after = self.text.get(end + 1).is_some_and(char::is_ascii_digit);
                    match self.text.get(end) {
                        Some(&c) if c.is_ascii_digit() || (c == '.' && digit_after) => {
                            let c = c.to_string();
                            add_text(&mut found, &c, &c);
                        }
                        _ => add(&mut found, &index.after_number),
                    }
                }
            }
            Slot::ValueStart => {
                // The numbers not yet copied into the call, the first of them earning more:
                // values are mostly written in the order their parameters are declared
                // ("add 133 and 34", "from 10 to 20"). A number inside a string the call
                // holds is copied too: the 2508 of "2508 University Avenue" is no count of
                // seats (the 2 of the tool's name `Homes_2_FindHomeByArea` is not).
                let mut first = true;
                for at in self.not_copied(numbers_written, &strings, &tool) {
                    let number = number_at(&self.text, at);
                    let c = self.text[at].to_string();
                    let mut these = Vec::new();
                    add_text(&mut these, &c, &c);
                    // A word beside the number that names the parameter ("rating of 4.1"),
                    // or names another ("velocity of 20" for an acceleration).
                    let cue = self.cue_at(at, at + number.len(), &tool, &key);
                    let named = if cue.names_it {
                        CUE_BONUS
                    } else if cue.names_another {
                        -CUE_BONUS
                    } else {
                        0.0
                    };
                    let extra = named + if std::mem::take(&mut first) { ORDER_BONUS } else { 0.0 };
                    found.extend(these.into_iter().map(|(t, b)| (t, b + extra)));
                }
            }
            Slot::Other => {}
        }
        // Each token once, with the best bonus it earned.
        found.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.total_cmp(&a.1)));
        found.dedup_by_key(|(token, _)| *token);
        for token in left_out.into_iter().chain(passing) {
            match found.binary_search_by_key(&token, |(t, _)| *t) {
                Ok(i) => found[i].1 -= LEFT_OUT,
                Err(i) => found.insert(i, (token, -LEFT_OUT)),
            }
        }
        found
    }

    /// The tokens `allowed` after `json` (a call written so far) that would close its
    /// arguments while it leaves out one the text gives ([`Self::leaves_out`]), in order;
    /// none where it leaves none out.
    pub(crate) fn left_out(&self, json: &str, index: &TokenIndex, allowed: impl Fn(u32) -> bool) -> Vec<u32> {
        let (at, written) = slot(json);
        // Inside the arguments, or where they start (`{}` opens and closes them at once).
        let inside = written.depth >= 2
            || (at == Slot::ValueStart && written.depth == 1 && written.key == "arguments");
        if written.closed || !inside {
            return Vec::new();
        }
        let mut call = json.to_owned();
        let mut closing = Vec::new();
        for (token, text) in index.braces.iter().filter(|(t, _)| allowed(*t)) {
            let token = *token;
            call.truncate(json.len());
            call.push_str(text);
            if slot(&call).1.closed {
                closing.push(token);
            }
        }
        // What the text gives is read only where the call could close now.
        if !closing.is_empty() && !self.leaves_out(&written) {
            closing.clear();
        }
        closing
    }
}

/// A span of the user's text a string value may copy whole (see [`CopySource::spans`]).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Span {
    /// The text as written, to its last end.
    pub(crate) text: String,
    /// Where it starts in the text, in characters.
    pub(crate) start: usize,
    /// The lengths in characters at which it may end, in order.
    pub(crate) ends: Vec<usize>,
    /// Where the user's quotation marks close, if they opened where the span starts (then
    /// its only end).
    pub(crate) quoted: Option<usize>,
    /// Whether it starts with a web address, or with a quotation longer than
    /// [`SPAN_CHARS`] (then it runs to its end, and its tokens may be many).
    pub(crate) long: bool,
}

/// How a copy stands in the text: what the words around it say of the parameter, and
/// whether it begins or ends inside a name in capitals or a joined word.
pub(crate) type Place = (Cue, bool);

/// What the words around a span say of the parameter a value is written for (see
/// [`CopySource::cue`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Cue {
    /// A word near it names the parameter.
    pub(crate) names_it: bool,
    /// A word near it names another parameter of the tool, and none names this one.
    pub(crate) names_another: bool,
    /// Its words only name parameters of the tool (the one it would fill or another), or
    /// only open phrases (`me`, `to`, `for a`): it fills no slot.
    pub(crate) fills_nothing: bool,
}

/// What the user set in quotation marks in `text`, as where each quotation starts and ends
/// (the marks left out). A mark opens after white space, punctuation or the start, before
/// something that is not white space, and closes before anything but a letter or digit,
/// after something that is not white space: an apostrophe in a word (`I'd`, `users'`)
/// opens nothing. Quotations do not nest and hold at most [`QUOTE_CHARS`] characters.
fn quoted(text: &[char]) -> Vec<(usize, usize)> {
    let mut found = Vec::new();
    let mut i = 0;
    while i < text.len() {
        let opens = QUOTES.iter().find(|(open, _)| *open == text[i]).map(|&(_, close)| close);
        let before_ok = i.checked_sub(1).is_none_or(|j| !text[j].is_alphanumeric());
        let after_ok = text.get(i + 1).is_some_and(|c| !c.is_whitespace());
        if let (Some(close), true, true) = (opens, before_ok, after_ok) {
            let end = (i + 2..text.len().min(i + 2 + QUOTE_CHARS)).find(|&j| {
                text[j] == close
                    && !text[j - 1].is_whitespace()
                    && !text.get(j + 1).is_some_and(|c| c.is_alphanumeric())
            });
            if let Some(end) = end {
                found.push((i + 1, end));
                i = end + 1;
                continue;
            }
        }
        i += 1;
    }
    found
}

/// The most characters of a quotation, copied whole ("'How does the arrangement of
/// furniture contribute to the minimalist design of the interior?'").
const QUOTE_CHARS: usize = 400;

/// Where the web addresses `urls` (as [`crate::chat::urls_in`] finds them in the text as
/// written) stand in `text` (in lower case), each place once, in order.
fn addresses(text: &[char], urls: &[String]) -> Vec<(usize, usize)> {
    let mut found: Vec<(usize, usize)> = urls
        .iter()
        .map(|url| lower(url))
        .filter(|url| !url.is_empty())
        .flat_map(|url| {
            text.windows(url.len())
                .enumerate()
                .filter(|(_, at)| *at == url.as_slice())
                .map(|(at, _)| (at, at + url.len()))
                .collect::<Vec<_>>()
        })
        .collect();
    found.sort_unstable();
    found.dedup();
    found
}

/// The numbers written in `text`, found as [`CopySource::new`] finds them.
fn numbers_in(text: &[char]) -> Vec<Vec<char>> {
    (0..text.len()).filter(|&i| number_starts(text, i)).map(|at| number_at(text, at)).collect()
}

/// Whether a number starts at `i` of `text`: a digit after anything but a digit or point,
/// or a minus before a digit and after no digit.
fn number_starts(text: &[char], i: usize) -> bool {
    let before = i.checked_sub(1).map(|j| text[j]);
    let digit_next = text.get(i + 1).is_some_and(char::is_ascii_digit);
    (text[i].is_ascii_digit() && !before.is_some_and(|b| b.is_ascii_digit() || b == '.'))
        || (text[i] == '-' && digit_next && !before.is_some_and(|b| b.is_ascii_digit()))
}

/// The number that starts at `at` of `text`: its minus, digits and points.
fn number_at(text: &[char], at: usize) -> Vec<char> {
    text[at..]
        .iter()
        .enumerate()
        .take_while(|&(i, c)| c.is_ascii_digit() || (i == 0 && *c == '-') || *c == '.')
        .map(|(_, c)| *c)
        .collect()
}

/// A parameter a call's arguments hold at the top, as [`CopySource::leaves_out`] reads it.
#[derive(Debug)]
struct Argument {
    /// Its name in lower case.
    name: String,
    /// Whether it takes only the values of an enumeration.
    enumerated: bool,
    /// The strings of its enumeration but its default (writing the default is the same as
    /// leaving it out), in lower case.
    values: Vec<Vec<char>>,
    /// Whether it takes a number.
    number: bool,
    /// Whether it takes a string of any text: no enumeration, no format, no pattern.
    free_text: bool,
    /// Whether its name says it holds who owns something ([`OWNER_WORDS`]), and whether
    /// the name of what is owned ([`OWNED_WORDS`]).
    owner: bool,
    owned: bool,
    /// Whether it takes free text and its name says it holds a date or a day
    /// ([`DATE_NAMES`]).
    dated: bool,
    /// The shapes of the examples its schema gives of a value (see [`shape`]): those its
    /// description quotes ("such as 'Berkeley, CA'") and its `examples`.
    shapes: Vec<String>,
}

/// Words of a parameter's name that say it holds a date or a day (`date`, `start_date`,
/// `show_day`; not `time`, which is as often a duration).
const DATE_NAMES: &[&str] = &["date", "day", "datetime", "when"];

/// Words that say when without a digit: months and their short forms, weekdays, and
/// words of time (English, and the commonest of Spanish, French, German and Portuguese).
#[rustfmt::skip]
const DATE_WORDS: &[&str] = &[
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    "january", "february", "march", "april", "june", "july", "august", "september", "october",
    "november", "december", "mon", "tue", "wed", "thu", "fri", "sat", "sun", "monday", "tuesday",
    "wednesday", "thursday", "friday", "saturday", "sunday", "today", "tomorrow", "tonight",
    "yesterday", "now", "weekend", "week", "month", "year", "morning", "afternoon", "evening",
    "night", "noon", "midnight", "next", "last", "this", "upcoming", "any", "anytime",
    "hoy", "mañana", "aujourd", "demain", "heute", "morgen", "hoje", "amanhã",
];

/// Whether a word at `at` of `text` opens a sentence: nothing but white space before it,
/// or an end of sentence or a colon.
fn opens_sentence(text: &[char], at: usize) -> bool {
    text[..at].iter().rev().find(|c| !c.is_whitespace()).is_none_or(|c| ".!?:".contains(*c))
}

/// The examples of a value a parameter's `schema` gives: what its description quotes
/// (as [`quoted`] reads a quotation) and the strings of its `examples`, placeholders such
/// as `YYYY-MM-DD` and `City, State` among them.
fn examples(schema: &serde_json::Value) -> Vec<Vec<char>> {
    let description: Vec<char> = schema
        .get("description")
        .and_then(|d| d.as_str())
        .unwrap_or_default()
        .chars()
        .take(MAX_SOURCE)
        .collect();
    let listed = schema.get("examples").and_then(|e| e.as_array()).into_iter().flatten();
    quoted(&description)
        .into_iter()
        .map(|(start, end)| description[start..end].to_vec())
        .chain(listed.filter_map(|e| e.as_str()).map(|e| e.chars().take(SPAN_CHARS).collect()))
        .collect()
}

/// The shape of a value as written: a run of digits stands as `9`, a word in capitals as
/// `A`, one in small letters as `a`, a name of words in capitals joined by single spaces as
/// one (`Aa`), and any other character as itself: "Healdsburg, CA" and "New York, NY" both
/// `Aa, A`, "2023-03-04" `9-9-9`.
fn shape(value: &[char]) -> String {
    let mut out = String::new();
    let mut i = 0;
    while i < value.len() {
        let c = value[i];
        if c.is_numeric() {
            while value.get(i).is_some_and(|c| c.is_numeric()) {
                i += 1;
            }
            out.push('9');
        } else if c.is_alphabetic() {
            let start = i;
            while value.get(i).is_some_and(|c| c.is_alphabetic()) {
                i += 1;
            }
            let word = &value[start..i];
            let class = if word.iter().all(|c| c.is_uppercase()) {
                "A"
            } else if word[0].is_uppercase() {
                "Aa"
            } else {
                "a"
            };
            // A word in capitals that goes on a name written before it is part of it.
            let goes_on = class == "Aa" && out.ends_with("Aa ");
            if goes_on {
                out.pop();
            } else {
                out.push_str(class);
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// Whether `value` (in lower case) reads as a date or a day: it holds a digit or a word of
/// [`DATE_WORDS`].
fn reads_as_date(value: &[char]) -> bool {
    value.iter().any(char::is_ascii_digit)
        || value
            .split(|c| !c.is_alphanumeric())
            .any(|word| DATE_WORDS.iter().any(|w| w.chars().eq(word.iter().copied())))
}

/// The fewest characters a value of an enumeration has for the text to name it (not "a",
/// "on", "in": words any request writes), unless the text writes it as a code in capitals
/// or digits ("3D"; [`CopySource::writes_code`]).
const ENUM_CHARS: usize = 3;

/// The fewest characters of an enumeration's value that a longer word of the text may grow
/// from (`fr` of "French"; see [`CopySource::stands_as_stem`]).
const STEM_LEAST: usize = 2;

impl Argument {
    fn of(name: &str, schema: &serde_json::Value) -> Argument {
        let enumeration = schema.get("enum").and_then(|e| e.as_array());
        let default = schema.get("default");
        let values = enumeration
            .into_iter()
            .flatten()
            .filter(|&v| Some(v) != default)
            .filter_map(|v| v.as_str())
            .map(lower)
            .collect();
        let number = ["number", "integer"].iter().any(|t| {
            let of = schema.get("type");
            of.and_then(|v| v.as_str()) == Some(*t)
                || of.and_then(|v| v.as_array()).is_some_and(|a| a.iter().any(|v| v.as_str() == Some(*t)))
        });
        let free_text = schema.get("type").and_then(|v| v.as_str()) == Some("string")
            && ["enum", "const", "format", "pattern"].iter().all(|k| schema.get(*k).is_none());
        let words = tackle_core::name_words(name);
        let says = |list: &[&str]| words.iter().any(|w| list.contains(&w.as_str()));
        Argument {
            name: name.to_lowercase(),
            enumerated: enumeration.is_some(),
            values,
            number,
            free_text,
            owner: says(OWNER_WORDS),
            owned: says(OWNED_WORDS),
            dated: free_text && says(DATE_NAMES),
            shapes: examples(schema).iter().map(|e| shape(e)).filter(|s| !s.is_empty()).collect(),
        }
    }
}

/// Where the end of a JSON text written so far stands.
#[derive(Debug, PartialEq)]
pub(crate) enum Slot {
    /// Inside a string that is a value (not a key), with what it holds so far in lower
    /// case (no escapes).
    Text(Vec<char>),
    /// Inside a number, with what it holds so far.
    Number(Vec<char>),
    /// Where a value starts (after a colon, an opening bracket, or a comma in an array).
    ValueStart,
    /// Anywhere else: a key, between members, after an escape.
    Other,
}

/// The values a JSON text written so far holds whole, in lower case.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct Written {
    pub(crate) numbers: Vec<Vec<char>>,
    /// Strings that are values (not keys), without escapes.
    pub(crate) strings: Vec<Vec<char>>,
    /// The key last named (whose value is under way where one is), in lower case.
    pub(crate) key: String,
    /// The top-level `name`'s value (the tool a call names), in lower case.
    pub(crate) tool: String,
    /// The keys of the call's arguments (the members of an object two deep), in the order
    /// written, in lower case.
    pub(crate) keys: Vec<String>,
    /// How many objects and lists are open at the end.
    pub(crate) depth: usize,
    /// Whether the call's arguments (the object two deep) are closed.
    pub(crate) closed: bool,
    /// The key of the call's arguments under way at the end (inside its quotes), what it
    /// holds so far in lower case.
    pub(crate) open_key: Option<Vec<char>>,
}

/// Where the end of `json` (the start of a JSON text) stands, and the values it wrote
/// before.
pub(crate) fn slot(json: &str) -> (Slot, Written) {
    let mut written = Written::default();
    let mut stack: Vec<char> = Vec::new();
    let mut value_next = false;
    // Inside a string: whether it is a value, what it holds, and whether an escape was met.
    let mut string: Option<(bool, Vec<char>, bool)> = None;
    let mut escaped = false;
    let mut number: Option<Vec<char>> = None;
    for c in json.chars() {
        if let Some((_, held, escapes)) = &mut string {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
                *escapes = true;
            } else if c == '"' {
                match string.take() {
                    Some((true, held, false)) => {
                        if stack.len() == 1 && written.key == "name" && written.tool.is_empty() {
                            written.tool = held.iter().collect();
                        }
                        written.strings.push(held);
                    }
                    Some((false, held, _)) => {
                        written.key = held.into_iter().collect();
                        if stack.len() == 2 {
                            written.keys.push(written.key.clone());
                        }
                    }
                    _ => {}
                }
            } else {
                held.extend(c.to_lowercase());
            }
            continue;
        }
        if let Some(held) = &mut number {
            if c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '+' | '-') {
                held.push(c.to_ascii_lowercase());
                continue;
            }
            written.numbers.extend(number.take());
        }
        match c {
            '{' => {
                stack.push(c);
                value_next = false;
            }
            '[' => {
                stack.push(c);
                value_next = true;
            }
            '}' | ']' => {
                let arguments = stack.len() == 2;
                if stack.pop() == Some('{') && arguments {
                    written.closed = true;
                }
                value_next = false;
            }
            ':' => value_next = true,
            ',' => value_next = stack.last() == Some(&'['),
            '"' => {
                string = Some((value_next, Vec::new(), false));
                value_next = false;
            }
            c if c.is_whitespace() => {}
            c if value_next && (c.is_ascii_digit() || c == '-') => {
                number = Some(vec![c]);
                value_next = false;
            }
            _ => value_next = false,
        }
    }
    written.depth = stack.len();
    if let Some((false, held, _)) = &string
        && stack.len() == 2
    {
        written.open_key = Some(held.clone());
    }
    let slot = match (string, number) {
        (Some((true, held, false)), _) if !escaped => Slot::Text(held),
        (Some(_), _) => Slot::Other,
        (None, Some(held)) => Slot::Number(held),
        (None, None) if value_next => Slot::ValueStart,
        (None, None) => Slot::Other,
    };
    (slot, written)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chars(text: &str) -> Vec<char> {
        text.chars().collect()
    }

    #[test]
    fn the_slot_is_a_value_string_a_number_or_where_a_value_starts() {
        assert_eq!(slot(r#"{"name":"weather","arguments":{"city":"New Y"#).0, Slot::Text(chars("new y")));
        assert_eq!(slot(r#"{"name":"weather","arguments":{"ci"#).0, Slot::Other);
        assert_eq!(slot(r#"{"a":{"n":12"#).0, Slot::Number(chars("12")));
        assert_eq!(slot(r#"{"a":{"n":12,"#).0, Slot::Other);
        assert_eq!(slot(r#"{"a":{"n":"#).0, Slot::ValueStart);
        assert_eq!(slot(r#"{"a":["x", "#).0, Slot::ValueStart);
        assert_eq!(slot(r#"{"a":["x","b"#).0, Slot::Text(chars("b")));
        assert_eq!(slot(r#"{"a":"say \"hi"#).0, Slot::Other);
        assert_eq!(slot(r#"{"a":"x"}"#).0, Slot::Other);
        assert_eq!(slot(r#"{"a":true"#).0, Slot::Other);
    }

    #[test]
    fn the_strings_a_call_holds_are_its_values_not_its_keys() {
        let (_, written) = slot(r#"{"name":"repo","arguments":{"owner":"Acme","repo":"web"#);
        assert_eq!(written.strings, [chars("repo"), chars("acme")]);
        let (_, written) = slot(r#"{"a":"say \"hi\"","b":["x","y"],"c":12}"#);
        assert_eq!(written.strings, [chars("x"), chars("y")], "a string with an escape is not a copy");
        assert_eq!(written.numbers, [chars("12")]);
    }

    #[test]
    fn spans_start_where_words_start_and_end_where_words_end() {
        let source = CopySource::new("Open issue in acme/webshop: \"Login fails\" pls");
        let spans = source.spans();
        let ends_of = |text: &str| -> Vec<String> {
            let span = spans.iter().find(|span| span.text.starts_with(text)).expect(text);
            let chars: Vec<char> = span.text.chars().collect();
            span.ends.iter().map(|&end| chars[..end].iter().collect()).collect()
        };
        assert_eq!(
            ends_of("acme"),
            ["acme", "acme/webshop", "acme/webshop:"],
            "a span stops before a quotation mark"
        );
        assert_eq!(ends_of("webshop"), ["webshop", "webshop:"]);
        assert_eq!(ends_of("Login"), ["Login fails"], "a quotation whole");
        assert_eq!(ends_of("fails"), ["fails"]);
        assert_eq!(ends_of("Open")[..3], ["Open", "Open issue", "Open issue in"]);
        let source = CopySource::new("run echo %time% now, start camera: ok?");
        let spans = source.spans();
        let span = spans.iter().find(|span| span.text.starts_with("echo")).unwrap();
        let chars: Vec<char> = span.text.chars().collect();
        let ends: Vec<String> = span.ends.iter().map(|&end| chars[..end].iter().collect()).collect();
        assert_eq!(
            ends,
            [
                "echo",
                "echo %time",
                "echo %time%",
                "echo %time% now",
                "echo %time% now, start",
                "echo %time% now, start camera",
                "echo %time% now, start camera:",
                "echo %time% now, start camera: ok"
            ],
            "where a run of signs ends too, but not in a sentence's punctuation"
        );
        // Bounded: at most SPAN_WORDS words and SPAN_CHARS characters from at most
        // SPAN_STARTS places, whatever the text.
        let long = CopySource::new(&"word ".repeat(1_000));
        let spans = long.spans();
        assert_eq!(spans.len(), SPAN_STARTS);
        assert!(
            spans.iter().all(|span| span.ends.len() <= SPAN_WORDS && span.text.chars().count() <= SPAN_CHARS)
        );
        assert!(CopySource::new("").spans().is_empty());
        assert!(CopySource::new("!?").spans().is_empty(), "no word, no span");
    }

    #[test]
    fn an_address_or_a_long_quotation_is_one_span_copied_whole() {
        let path = "wp-content/uploads/2015/01/Home-Interior-Design-Hd-Wallpaper-Hd-Background-With-Simple-Staircase.jpg";
        let url = format!("http://www.example.com/{path}");
        let question =
            "How does the arrangement of furniture contribute to the minimalist design of the interior?";
        let text = format!("Could you analyze the image at {url}, and answer '{question}'");
        let source = CopySource::new(&text);
        let spans = source.spans();
        let from = |at: &str| spans.iter().find(|s| s.start == text.find(at).unwrap_or(0)).unwrap();
        // The address runs past the limit of other spans to its end, without the comma.
        let address = from("http");
        assert!(url.len() > SPAN_CHARS && address.long);
        assert!(address.ends.contains(&url.len()), "{:?}", address.ends);
        // Cut inside, it is cut whole; whole, it is not.
        let start = text.find("http").unwrap_or(0);
        assert_eq!(source.cuts_whole(start, start + "http://www.example.com".len()), (false, true));
        assert_eq!(source.cuts_whole(start, start + url.len()), (false, false));
        let inside = text.find("wp-content").unwrap_or(0);
        assert!(source.cuts_whole(inside, start + url.len()).0, "a span that starts inside it");
        // A quotation longer than other spans is one span, to its close.
        let quoted = from("How does");
        assert!(quoted.long);
        assert_eq!(quoted.ends, vec![question.len()]);
        assert_eq!(quoted.text, question);
        // Other spans stay bounded; only addresses with a scheme are addresses.
        assert!(!from("Could").long && from("Could").text.chars().count() <= SPAN_CHARS);
        assert_eq!(
            {
                let text = "see (https://a.example/x). or www.b.example, not https://a.example/x";
                addresses(&lower(text), &crate::chat::urls_in(text))
            },
            vec![(5, 24), (49, 68)],
            "the addresses the grammar copies, at each place, without their punctuation"
        );
    }

    #[test]
    fn the_slot_knows_the_tool_and_the_key_a_value_is_for() {
        let (_, written) = slot(r#"{"name":"Get_Weather","arguments":{"unit":"c","coolTargetTemp":"#);
        assert_eq!((written.tool.as_str(), written.key.as_str()), ("get_weather", "cooltargettemp"));
        let (_, written) = slot(r#"{"name":"t","arguments":{"labels":["a", "#);
        assert_eq!(written.key, "labels", "a list's items are for its key");
        let (_, written) = slot(r#"{"name":"t","arguments":{"o":{"name":"inner","#);
        assert_eq!(written.tool, "t", "only the top level's name names the tool");
        assert_eq!(slot("").1.key, "");
    }

    #[test]
    fn the_slot_knows_the_arguments_written_and_how_deep_it_stands() {
        let (_, written) = slot(r#"{"name":"t","arguments":{"City":"Paris","o":{"inner":1},"n":2"#);
        assert_eq!(written.keys, ["city", "o", "n"], "keys of the arguments only, not of a value");
        assert_eq!(written.depth, 2);
        assert_eq!(slot(r#"{"name":"t","arguments":{"a":"x"}"#).1.depth, 1);
        assert_eq!(
            slot(r#"{"name":"t","arguments":{"a":"}"#).1.depth,
            2,
            "a brace in a string closes nothing"
        );
        assert!(!written.closed && slot(r#"{"name":"t","arguments":{"a":[1]}"#).1.closed);
        assert!(slot(r#"{"name":"t","arguments":{}"#).1.closed);
        let (_, listed) = slot(r#"{"name":"t","x":[1],"arguments":{"a":1"#);
        assert_eq!((listed.depth, listed.closed), (2, false), "a list two deep closes no arguments");
    }

    fn movies() -> CopySource {
        let schema = serde_json::json!({"type": "object", "properties": {
            "directed_by": {"type": "string"},
            "genre": {"type": "string", "enum": ["Fantasy", "Comedy", "Sci-fi", "dontcare"]},
            "rating": {"type": "number"},
            "cast": {"type": "string"}}});
        CopySource::new("find me a comedy directed by Wes Anderson, with a rating of 4.1 at least")
            .with_parameters(&[("find_movies".to_owned(), schema)])
    }

    #[test]
    fn a_call_leaves_out_what_the_text_names_for_a_parameter_still_to_come() {
        let source = movies();
        let leaves_out = |json: &str| source.leaves_out(&slot(json).1);
        let start = r#"{"name":"find_movies","arguments":{"#;
        assert!(leaves_out(&format!(r#"{start}"directed_by":"Wes Anderson""#)), "a comedy: the genre");
        assert!(
            leaves_out(&format!(r#"{start}"directed_by":"Wes Anderson","genre":"Comedy""#)),
            "a rating of 4.1: the rating"
        );
        assert!(
            !leaves_out(&format!(r#"{start}"directed_by":"Wes Anderson","genre":"Comedy","rating":4.1"#)),
            "nothing the text names is left: the cast is named by no word"
        );
        assert!(
            !leaves_out(&format!(r#"{start}"rating":4.1"#)),
            "the genre is declared before the rating: the grammar cannot write it now"
        );
        let other =
            CopySource::new("find me a sci-fi film about comedy clubs, rated 4.1").with_parameters(&[(
                "find_movies".to_owned(),
                serde_json::json!({"type": "object", "properties": {
                "genre": {"type": "string", "enum": ["Sci-fi", "Comedy"]}, "year": {"type": "integer"}}}),
            )]);
        assert!(!other.leaves_out(&slot(r#"{"name":"find_movies","arguments":{"genre":"Sci-fi""#).1));
        assert!(
            !other.leaves_out(&slot(r#"{"name":"find_movies","arguments":{"year":2"#).1),
            "a number no word beside names the year"
        );
        assert!(!CopySource::new("a comedy").leaves_out(&slot(r#"{"name":"find_movies","arguments":{"#).1));
    }

    #[test]
    fn a_call_leaves_out_a_name_the_text_gives_while_free_text_is_still_to_come() {
        let schema = serde_json::json!({"type": "object", "required": ["track"], "properties": {
            "track": {"type": "string"},
            "artist": {"type": "string", "default": "dontcare"},
            "device": {"type": "string", "enum": ["Living room", "Kitchen", "Patio"], "default": "Living room"},
            "album": {"type": "string", "default": "dontcare"}}});
        let tools = [("play".to_owned(), schema)];
        let source = |text: &str| CopySource::new(text).with_parameters(&tools);
        let leaves_out = |text: &str, json: &str| source(text).leaves_out(&slot(json).1);
        let start = r#"{"name":"play","arguments":{"#;
        let track = format!(r#"{start}"track":"Shape of You""#);
        assert!(leaves_out("play 'Shape of You' by Ed Sheeran", &track), "the artist");
        assert!(!leaves_out(
            "play 'Shape of You' by Ed Sheeran",
            &format!(r#"{track},"artist":"Ed Sheeran""#)
        ));
        assert!(
            leaves_out("play 'Shape of You' on the kitchen speaker", &track),
            "an enumeration's value, after a name"
        );
        assert!(
            !leaves_out("play 'Shape of You' by ed sheeran", &track),
            "a name in small letters is no name"
        );
        assert!(!leaves_out("play 'Shape of You' by Sheeran", &track), "one word in capitals is no name");
        assert!(
            !leaves_out("Hello, I want to hear 'Shape of You'", &track),
            "the first words of a sentence are in capitals anyway"
        );
        assert!(
            !leaves_out(
                "play the New York Philharmonic's 'Shape of You'",
                &format!(r#"{start}"track":"New York""#)
            ),
            "a word of the name is copied"
        );
        let dated = [(
            "book".to_owned(),
            serde_json::json!({"type": "object", "properties": {
                "city": {"type": "string"}, "date": {"type": "string", "format": "date"}}}),
        )];
        let booked =
            CopySource::new("a table in Palo Alto on Saturday, Jane Doe will come").with_parameters(&dated);
        assert!(
            !booked.leaves_out(&slot(r#"{"name":"book","arguments":{"city":"Palo Alto""#).1),
            "a date takes no name"
        );
    }

    #[test]
    fn what_would_close_the_arguments_loses_while_the_call_leaves_one_out() {
        let source = movies();
        let index = index();
        let bonus = |json: &str, token: &str| -> f32 {
            let found = source.continuations(json, &index, |_| true, &greedy);
            let id = TOKENS.iter().position(|t| *t == token).unwrap() as u32;
            found.iter().find(|(t, _)| *t == id).map_or(0.0, |(_, b)| *b)
        };
        let start = r#"{"name":"find_movies","arguments":{"#;
        let value = format!(r#"{start}"directed_by":"Wes Anderson"#);
        assert_eq!(bonus(&value, "\"}"), COPY_BONUS - LEFT_OUT, "the close copies, but ends the arguments");
        assert_eq!(bonus(&value, "\","), COPY_BONUS);
        assert_eq!(bonus(&format!(r#"{value}""#), "}"), -LEFT_OUT);
        let done = format!(r#"{start}"directed_by":"Wes Anderson","genre":"Comedy","rating":4.1"#);
        assert_eq!(bonus(&format!("{done}}}"), "}"), 0.0, "the call is closed: nothing is left out of it");
        assert_eq!(bonus(r#"{"name":"find_movies","arguments":"#, "}"), 0.0, "it would close nothing");
        let index = TokenIndex::new(&[b"{}".to_vec(), b"{".to_vec()]);
        let found =
            source.continuations(r#"{"name":"find_movies","arguments":"#, &index, |_| true, &|_| None);
        assert_eq!(found, [(0, -LEFT_OUT)], "`{{}}` opens the arguments and closes them at once");
        assert_eq!(bonus(&done, "}"), COPY_BONUS, "a number's end, where nothing is left out");
    }

    #[test]
    fn a_key_that_passes_over_a_parameter_the_text_names_loses() {
        let source = movies();
        let tokens = ["\"", "\"genre\":", "\"gen", "\"directed", "rat", "gen", ",\"", ",\"cast\":\"", "cast"];
        let index = TokenIndex::new(&tokens.iter().map(|t| t.as_bytes().to_vec()).collect::<Vec<_>>());
        let passing = |json: &str| -> Vec<&str> {
            let (at, written) = slot(json);
            let found = source.passes_over(json, (&at, &written), &index, |_| true);
            found.into_iter().map(|t| tokens[t as usize]).collect()
        };
        let start = r#"{"name":"find_movies","arguments":{"#;
        let first = passing(start);
        assert!(first.contains(&"\"genre\":") && first.contains(&"\"gen"), "directed by Wes Anderson: first");
        assert!(!first.contains(&"\"directed") && !first.contains(&"\""), "a quote alone commits to nothing");
        let directed = format!(r#"{start}"directed_by":"Wes Anderson""#);
        assert_eq!(passing(&directed), [",\"cast\":\""], "a comedy: the genre before the cast");
        assert_eq!(passing(&format!(r#"{directed},""#)), ["rat", "cast"], "inside a key");
        let genre = format!(r#"{directed},"genre":"Comedy""#);
        assert_eq!(passing(&genre), [",\"cast\":\""], "a rating of 4.1 before the cast");
        assert!(passing(&format!(r#"{genre},"rating":4.1,"#)).is_empty(), "nothing named is passed over");
        assert!(passing(&format!(r#"{directed},"genre":""#)).is_empty(), "a value under way");
        let unnamed =
            CopySource::new("find me a comedy with a rating of 4.1, by anyone").with_parameters(&[(
                "find_movies".to_owned(),
                serde_json::json!({"type": "object", "properties": {
                "directed_by": {"type": "string"}, "genre": {"type": "string", "enum": ["Comedy", "Drama"]},
                "cast": {"type": "string"}}}),
            )]);
        let (at, written) = slot(start);
        let found = unnamed.passes_over(start, (&at, &written), &index, |_| true);
        let found: Vec<&str> = found.into_iter().map(|t| tokens[t as usize]).collect();
        assert_eq!(
            found,
            [",\"cast\":\""],
            "no word names a director: the genre may come first, not the cast"
        );
    }

    #[test]
    fn a_noun_that_makes_a_label_stands_between_a_value_and_its_name() {
        let schema = serde_json::json!({"type": "object", "properties": {
            "perPage": {"type": "integer"}, "endingBefore": {"type": "string"},
            "sensorSerial": {"type": "string"}}});
        let source = CopySource::new("alerts for the sensor with serial number Q3CC-CRT3-SZ2G, 10 per page")
            .with_parameters(&[("alerts".to_owned(), schema.clone())]);
        let at = source.text.iter().collect::<String>().find("q3cc").unwrap();
        assert!(source.cue_at(at, at + 14, "alerts", "sensorserial").names_it);
        assert!(source.cue_at(at, at + 14, "alerts", "endingbefore").names_another);
        let mut arguments = serde_json::json!({"perPage": 10, "endingBefore": "Q3CC-CRT3-SZ2G"});
        assert_eq!(source.settle("alerts", &mut arguments, &schema), ["endingBefore"]);
        assert_eq!(arguments, serde_json::json!({"perPage": 10, "sensorSerial": "Q3CC-CRT3-SZ2G"}));
    }

    #[test]
    fn words_name_the_parameter_whose_name_they_hold_most_of() {
        let schema = serde_json::json!({"type": "object", "properties": {
            "Title": {"type": "string"}, "MetaTitle": {"type": "string"}, "UrlName": {"type": "string"}}});
        let source = CopySource::new(
            "The title should be 'Breakthrough in AI'. Set the meta title as 'AI Breakthrough Today'.",
        )
        .with_parameters(&[("item".to_owned(), schema)]);
        let text: String = source.text.iter().collect();
        let cue = |value: &str, key: &str| {
            let at = text.find(value).unwrap();
            source.cue_at(at, at + value.len(), "item", key)
        };
        assert!(cue("breakthrough in ai", "title").names_it);
        assert!(cue("breakthrough in ai", "metatitle").names_it, "\"title\" names both");
        assert!(cue("ai breakthrough today", "metatitle").names_it);
        let title = cue("ai breakthrough today", "title");
        assert!(!title.names_it && title.names_another, "\"meta title\" names the meta title only");
    }

    #[test]
    fn a_value_has_the_shape_of_the_examples_a_schema_gives() {
        let shape_of = |text: &str| shape(&chars(text));
        assert_eq!(shape_of("Healdsburg, CA"), "Aa, A");
        assert_eq!(shape_of("New York, NY"), "Aa, A", "a name of words in capitals is one");
        assert_eq!(shape_of("Raven Film Center"), "Aa");
        assert_eq!(shape_of("2023-03-04"), "9-9-9");
        assert_eq!(shape_of("the id q3cc-1"), "a a a9a-9");
        let schema = serde_json::json!({"type": "object", "properties": {
            "location": {"type": "string", "description":
                "The city, in the format of 'City, State', such as 'Berkeley, CA' or 'New York, NY'."},
            "theater_name": {"type": "string", "description": "The theatre's name."},
            "date": {"type": "string", "examples": ["2023-04-15"]}}});
        let source = CopySource::new("at the Raven Film Center in Healdsburg, CA")
            .with_parameters(&[("movies".to_owned(), schema)]);
        assert!(source.fits_example("movies", "location", &chars("Healdsburg, CA")));
        assert!(!source.fits_example("movies", "location", &chars("Raven Film Center")));
        assert!(!source.fits_example("movies", "theater_name", &chars("Raven Film Center")), "no example");
        assert!(source.fits_example("movies", "date", &chars("2024-01-02")));
    }

    #[test]
    fn a_number_the_call_holds_as_a_number_fills_no_text_as_well() {
        let schema = serde_json::json!({"type": "object", "required": ["amount"], "properties": {
            "amount": {"type": "number"}, "county": {"type": "string"}, "city": {"type": "string"}}});
        let source = CopySource::new("I made a purchase for $250 in New York. What is the tax?")
            .with_parameters(&[("tax".to_owned(), schema.clone())]);
        let mut arguments = serde_json::json!({"amount": 250, "county": "250", "city": "$250"});
        assert_eq!(source.settle("tax", &mut arguments, &schema), ["county", "city"]);
        assert_eq!(arguments, serde_json::json!({"amount": 250}));
        let twice = CopySource::new("250 items for $250 in total")
            .with_parameters(&[("tax".to_owned(), schema.clone())]);
        let mut arguments = serde_json::json!({"amount": 250, "city": "250"});
        assert!(twice.settle("tax", &mut arguments, &schema).is_empty(), "the text writes it twice");
    }

    #[test]
    fn spans_know_where_they_cut_a_joined_word() {
        let source = CopySource::new("issue 4521 in serde-rs/serde, branch release-2.0 of user_id. ok");
        let spans = source.spans();
        let cut = |text: &str, part: &str| {
            let start = spans.iter().find(|s| s.text.starts_with(text)).expect(text).start;
            source.cuts_whole(start, start + part.chars().count())
        };
        assert_eq!(cut("serde-rs", "serde"), (false, true), "a hyphen joins");
        assert_eq!(cut("serde-rs", "serde-rs"), (false, false), "a slash does not");
        assert_eq!(cut("rs/serde", "rs"), (true, false));
        assert_eq!(cut("serde,", "serde"), (false, false));
        assert_eq!(cut("2.0", "2.0"), (true, false));
        assert_eq!(cut("release", "release-2"), (false, true), "a point between digits joins");
        assert_eq!(cut("id", "id"), (true, false), "an underscore joins");
        assert_eq!(cut("user_id", "user_id"), (false, false), "a full stop before a space does not");
        let mail = CopySource::new("a payment from johndoe@example.com, at 3 @ noon");
        let spans = mail.spans();
        let start = spans.iter().find(|s| s.text.starts_with("example")).expect("example").start;
        assert_eq!(mail.cuts_whole(start, start + 11), (true, false), "an address's `@` joins");
        let start = spans.iter().find(|s| s.text.starts_with("johndoe")).expect("johndoe").start;
        assert_eq!(mail.cuts_whole(start, start + 19), (false, false));
        let start = spans.iter().find(|s| s.text.starts_with("noon")).expect("noon").start;
        assert_eq!(mail.cuts_whole(start, start + 4), (false, false), "an `@` between spaces does not");
    }

    #[test]
    fn spans_know_where_they_stop_inside_a_phrase() {
        let tools = [(
            "log".to_owned(),
            serde_json::json!({"type": "object", "properties": {
                "food_name": {"type": "string"}, "meal": {"type": "string"}, "title": {"type": "string"}}}),
        )];
        let source = CopySource::new(
            "record 16 ounces of chai tea as a snack titled Morning tea; run netsh wlan disconnect, \
             docker --version, shutdown /s, cd ~/src, echo $HOME - done",
        )
        .with_parameters(&tools);
        // The text is ASCII, so a byte offset in it is a character offset too.
        let ends_after = |part: &str| {
            let at = source.text.iter().collect::<String>().find(part).expect(part);
            source.stops_inside(at + part.len(), "log")
        };
        assert!(ends_after("chai"), "\"tea\" goes on with the phrase");
        assert!(!ends_after("chai tea"), "\"as\" opens a new one");
        assert!(!ends_after("a snack"), "a word naming a parameter opens the next slot");
        assert!(ends_after("snack titled"));
        assert!(ends_after("netsh"));
        assert!(ends_after("netsh wlan"));
        assert!(!ends_after("netsh wlan disconnect"), "a comma ends it");
        assert!(!ends_after("done"), "the end of the text");
        assert!(!ends_after("morning tea"), "punctuation ends it");
        assert!(!ends_after("nets"), "not where a word ends");
        for command in ["docker", "shutdown", "cd", "echo"] {
            assert!(ends_after(command), "an option, a path or a variable goes on after {command}");
        }
        assert!(!ends_after("$home"), "a dash between spaces is no option");
    }

    #[test]
    fn an_owner_and_what_it_owns_written_as_one_take_a_part_each() {
        let tools = [(
            "get_issue".to_owned(),
            serde_json::json!({"type": "object", "properties": {
                "owner": {"type": "string"}, "repo": {"type": "string"},
                "head": {"type": "string"}, "base": {"type": "string"}}}),
        )];
        let source = CopySource::new("merge acme/api from feature/login into main").with_parameters(&tools);
        let at = |part: &str| source.text.iter().collect::<String>().find(part).expect(part);
        let joins =
            |part: &str, key: &str| source.joins_a_pair(at(part), at(part) + part.len(), "get_issue", key);
        assert!(joins("acme/api", "owner"));
        assert!(joins("acme/api", "repo"));
        assert!(!joins("acme", "owner"));
        assert!(!joins("api", "repo"));
        // Each part belongs to its own parameter.
        assert!(joins("api", "owner"), "the part after the slash is what is owned");
        assert!(joins("acme", "repo"), "the part before it is the owner");
        let serde = CopySource::new("show me issue 4521 in serde-rs/serde").with_parameters(&tools);
        let last = serde.text.iter().collect::<String>().rfind("serde").unwrap();
        assert!(serde.joins_a_pair(last, last + 5, "get_issue", "owner"));
        assert!(!serde.joins_a_pair(last, last + 5, "get_issue", "repo"));
        let first = serde.text.iter().collect::<String>().find("serde-rs").unwrap();
        assert!(!serde.joins_a_pair(first, first + 8, "get_issue", "owner"));
        assert!(serde.joins_a_pair(first, first + 8, "get_issue", "repo"));
        // A branch is no owner and no repository: its slash stays.
        assert!(!joins("feature/login", "head"));
        // The penalty of a cut follows: the whole is placed as a cut for the pair.
        let span = Span {
            text: "acme/api".to_owned(),
            start: at("acme/api"),
            ends: vec![4, 8],
            quoted: None,
            long: false,
        };
        assert!(source.place(&span, 8, "get_issue", "owner").1);
        assert!(!source.place(&span, 4, "get_issue", "owner").1);
        // Parameters that are no such pair take the whole.
        let other = CopySource::new("merge acme/api").with_parameters(&[(
            "t".to_owned(),
            serde_json::json!({"type": "object", "properties": {"owner": {"type": "string"}, "title": {"type": "string"}}}),
        )]);
        assert!(!other.joins_a_pair(6, 14, "t", "owner"));
    }

    #[test]
    fn spans_know_where_they_cut_a_name_in_capitals() {
        let source =
            CopySource::new("forecast for Austin, TX this week with Dominic Monaghan. Paris is nice");
        let spans = source.spans();
        let span = |text: &str| spans.iter().find(|s| s.text.starts_with(text)).expect(text);
        // Whether the span from the start of `text` begins, and whether it ends after
        // `part` of it, inside a name.
        let cut = |text: &str, part: &str| {
            let start = span(text).start;
            source.cuts_whole(start, start + part.chars().count())
        };
        assert_eq!(cut("Austin", "Austin"), (false, true), "`Austin` cuts `Austin, TX`");
        assert_eq!(cut("Austin", "Austin, TX"), (false, false));
        assert!(cut("TX", "TX").0, "after a comma too");
        assert!(cut("Monaghan", "Monaghan").0);
        assert!(cut("Dominic", "Dominic").1);
        assert!(!cut("Dominic", "Dominic Monaghan").1, "a full stop ends a name");
        let paris = span("Paris");
        let chars: Vec<char> = paris.text.chars().collect();
        assert!(paris.ends.iter().all(|&end| {
            let part: String = chars[..end].iter().collect();
            cut("Paris", &part) == (false, false)
        }));
        assert_eq!(cut("forecast", "forecast"), (false, false), "lower case is no name");
        let labelled = CopySource::new("the project with UUID SUPERFANCY, in Palo Alto CA");
        let start = labelled.spans().iter().find(|s| s.text.starts_with("SUPERFANCY")).expect("a span").start;
        assert_eq!(
            labelled.cuts_whole(start, start + 10),
            (false, false),
            "a label in capitals starts no name"
        );
        let start = labelled.spans().iter().find(|s| s.text.starts_with("Palo")).expect("a span").start;
        assert!(labelled.cuts_whole(start, start + "Palo Alto".len()).1, "`CA` goes on the name");
        let austin = span("Austin");
        assert_eq!(source.place(austin, "Austin".len(), "none", "none"), (Cue::default(), true));
    }

    #[test]
    fn the_words_beside_a_span_say_which_parameter_it_fills() {
        let schema = serde_json::json!({"type": "object", "properties": {
            "project": {"type": "string"}, "component": {"type": "string"},
            "issueTitle": {"type": "string"}, "body": {"type": "object", "properties": {"note": {"type": "string"}}}}});
        let source =
            CopySource::new("For the project with UUID SUPERFANCY and component AB10, titled Login fails")
                .with_parameters(&[("Analysis".to_owned(), schema)]);
        let spans = source.spans();
        let cue = |text: &str, key: &str| {
            let span = spans.iter().find(|s| s.text.starts_with(text)).expect(text);
            let end = span.ends.iter().copied().find(|&e| span.text[..e] == *text).expect(text);
            source.cue(span, end, "analysis", key)
        };
        assert!(cue("SUPERFANCY", "project").names_it, "three words before, a label between");
        assert!(!cue("SUPERFANCY", "project").names_another);
        assert!(cue("SUPERFANCY", "component").names_another);
        assert!(cue("AB10", "component").names_it);
        assert!(cue("Login fails", "issuetitle").names_it, "`titled` names `issueTitle`");
        assert!(cue("project", "project").fills_nothing, "a value is not its parameter's name");
        assert!(cue("component", "project").fills_nothing, "nor another's");
        assert!(!cue("project with UUID", "project").fills_nothing);
        assert!(cue("AB10", "note").names_another, "parameters at any depth");
        assert_eq!(cue("AB10", "unknown"), Cue::default(), "a parameter the tool does not have");
        assert_eq!(source.cue(&spans[0], spans[0].ends[0], "other", "project"), Cue::default());

        let schema =
            serde_json::json!({"properties": {"type": {"type": "string"}, "seats": {"type": "integer"}}});
        let source = CopySource::new("a 'Plus' type ride, Comfort, seats for 4")
            .with_parameters(&[("ride".to_owned(), schema)]);
        let spans = source.spans();
        let plus = spans.iter().find(|s| s.quoted.is_some()).unwrap();
        assert!(
            source.cue(plus, plus.ends[0], "ride", "type").names_it,
            "the word right after the quotation"
        );
        assert!(source.stands(&chars("4"), "ride", "seats")[0].0.names_it);
        assert!(source.stands(&chars("ride"), "ride", "seats")[0].0.names_another, "`type` names another");
        assert_eq!(
            source.stands(&chars("comfort"), "ride", "seats")[0].0,
            Cue::default(),
            "`type` labels what follows it, not what follows that"
        );
        assert!(source.stands(&chars("type"), "ride", "type")[0].0.fills_nothing);
        assert!(source.stands(&chars("type"), "ride", "seats")[0].0.fills_nothing);
        assert!(!source.stands(&chars("comfort"), "ride", "type")[0].0.fills_nothing);
        assert!(source.stands(&chars("rid"), "ride", "type").is_empty(), "from the start of a word, whole");
        assert!(source.stands(&chars("a"), "ride", "type")[0].0.fills_nothing, "an article fills nothing");
        assert!(source.stands(&chars("seats for"), "ride", "type")[0].0.fills_nothing);
        assert!(!source.stands(&chars("ride"), "ride", "type")[0].0.fills_nothing);

        let schema = serde_json::json!({"properties": {
            "loc": {"type": "string"}, "kind": {"type": "string", "enum": ["plus", "comfort"]}}});
        let source = CopySource::new("loại 'Plus' từ '2150 Shattuck Ave'")
            .with_parameters(&[("uber".to_owned(), schema)]);
        assert!(source.stands(&chars("plus"), "uber", "loc")[0].0.names_another, "another's value");
        assert!(!source.stands(&chars("2150 shattuck ave"), "uber", "loc")[0].0.names_another);
        assert!(!source.stands(&chars("plus"), "uber", "kind")[0].0.names_another, "its own value");

        let schema = serde_json::json!({"properties": {
            "owner": {"type": "string"}, "day": {"type": "string"}, "power": {"type": "string", "enum": ["to", "fro"]}}});
        let source = CopySource::new("show me the weather for tomorrow, then to and fro")
            .with_parameters(&[("t".to_owned(), schema)]);
        let place = |value: &str, key: &str| source.stands(&chars(value), "t", key)[0].0;
        assert!(place("me", "owner").fills_nothing && place("for", "owner").fills_nothing);
        assert!(!place("tomorrow", "day").fills_nothing, "a time is a value");
        assert!(!place("to", "power").fills_nothing, "an enumeration's value is its own");

        let schema = serde_json::json!({"properties": {
            "source_timezone": {"type": "string"}, "target_timezone": {"type": "string"}, "time": {"type": "string"}}});
        let source = CopySource::new("convert 14:30 from America/New_York to Europe/London")
            .with_parameters(&[("convert_time".to_owned(), schema)]);
        let at = |text: &str, key: &str| source.stands(&chars(text), "convert_time", key)[0].0;
        assert!(at("america/new_york", "source_timezone").names_it, "`from` marks a source");
        assert!(at("america/new_york", "target_timezone").names_another);
        assert!(at("europe/london", "target_timezone").names_it, "`to` marks a target");
        assert!(at("europe/london", "source_timezone").names_another);
        assert_eq!(at("14:30", "time"), Cue::default(), "a preposition marks only the word right after it");

        let schema = serde_json::json!({"properties": {"command": {"type": "string"}}});
        let source = CopySource::new("disconnect wifi, using the command netsh wlan disconnect")
            .with_parameters(&[("run".to_owned(), schema)]);
        let at = |text: &str| source.stands(&chars(text), "run", "command")[0].0;
        assert!(at("netsh wlan disconnect").names_it);
        assert!(!at("wlan disconnect").names_it, "a word of the value stands between");
        let source = CopySource::new("check whether docker is running using docker ps").with_parameters(&[(
            "run".to_owned(),
            serde_json::json!({"properties": {"command": {"type": "string"}}}),
        )]);
        assert!(
            source.cut_somewhere(&chars("docker"), "run", "command"),
            "whole once, the head of `docker ps` once"
        );
        assert!(!source.cut_somewhere(&chars("docker ps"), "run", "command"));
        assert!(!source.cut_somewhere(&chars("running"), "run", "command"), "`using` opens a phrase");
        let schema = serde_json::json!({"properties": {"nickname": {"type": "string"}, "username": {"type": "string"}}});
        let source = CopySource::new("I'd like to nickname it 'X', and the username is 'admin'")
            .with_parameters(&[("add".to_owned(), schema)]);
        assert!(source.stands(&chars("x"), "add", "nickname")[0].0.names_it, "a quotation mark between");
        assert!(source.stands(&chars("admin"), "add", "nickname")[0].0.names_another);

        let schema = serde_json::json!({"properties": {"owner": {"type": "string"}, "issue_number": {"type": "integer"}}});
        let source = CopySource::new("show me issue 4521 in serde-rs/serde")
            .with_parameters(&[("issue".to_owned(), schema)]);
        assert!(source.stands(&chars("4521"), "issue", "owner")[0].0.names_another);
        assert_eq!(
            source.stands(&chars("serde-rs"), "issue", "owner")[0].0,
            Cue::default(),
            "a number is a value"
        );
    }

    #[test]
    fn what_the_user_quoted_is_a_span_of_its_own() {
        let quotations = |text: &str| -> Vec<String> {
            let chars: Vec<char> = text.chars().collect();
            quoted(&chars).iter().map(|&(from, to)| chars[from..to].iter().collect()).collect()
        };
        assert_eq!(
            quotations("I'd like the dish called 'chicken dish' to be 'extra spicy', please."),
            ["chicken dish", "extra spicy"],
            "an apostrophe in a word opens nothing"
        );
        assert_eq!(quotations("using the start microsoft.windows.camera: command"), Vec::<String>::new());
        assert_eq!(
            quotations("run `cargo test -p x` and \"user123\" or «Salut» and 「東京」"),
            ["cargo test -p x", "user123", "Salut", "東京"]
        );
        assert_eq!(quotations("the users' files and ' spaced ' quotes, 'never closed"), Vec::<String>::new());
        assert!(quotations("").is_empty() && quotations("'").is_empty() && quotations("''").is_empty());

        let source = CopySource::new("open camera, using 'start microsoft.windows.camera:' pls");
        let spans = source.spans();
        let span = spans.iter().find(|s| s.text.starts_with("start")).unwrap();
        let whole = "start microsoft.windows.camera:".len();
        assert_eq!(span.quoted, Some(whole), "the colon is in the quotation");
        assert_eq!(span.ends, [whole], "only whole");
        let plain = spans.iter().find(|s| s.text.starts_with("camera,")).unwrap();
        assert_eq!(plain.quoted, None);
    }

    /// A vocabulary of a few tokens, by id.
    const TOKENS: &[&str] = &[
        "\"",
        "\",",
        "\"}",
        ",",
        "}",
        "New",
        " York",
        " Y",
        "ork",
        "Hy",
        "der",
        "abad",
        "CA",
        "9",
        ".",
        "f",
        "ahrenheit",
        " in",
        "hy",
        "1",
        "3",
        "4",
        "comfort",
        "able",
        "fr",
        "French",
    ];

    fn index() -> TokenIndex {
        TokenIndex::new(&TOKENS.iter().map(|t| t.as_bytes().to_vec()).collect::<Vec<_>>())
    }

    /// The first token of `text` cut greedily, longest first (as BPE mostly does).
    fn greedy(text: &str) -> Option<u32> {
        (1..=text.len())
            .rev()
            .filter(|&n| text.is_char_boundary(n))
            .find_map(|n| TOKENS.iter().position(|t| *t == &text[..n]))
            .map(|i| i as u32)
    }

    fn texts(found: &[(u32, f32)]) -> Vec<&'static str> {
        found.iter().map(|&(id, _)| TOKENS[id as usize]).collect()
    }

    #[test]
    fn a_string_goes_on_as_the_text_does_and_closes_where_a_word_ends() {
        let source = CopySource::new("Weather in Hyderabad and New York, in Fahrenheit");
        let index = index();
        let at = |json: &str| texts(&source.continuations(json, &index, |_| true, &greedy));
        // A value starts where any word starts.
        assert!(at(r#"{"arguments":{"city":""#).contains(&"Hy"));
        assert!(at(r#"{"arguments":{"city":""#).contains(&"New"));
        assert!(!at(r#"{"arguments":{"city":""#).contains(&"der"), "not inside a word");
        assert_eq!(at(r#"{"arguments":{"city":"Hy"#), ["der"]);
        assert_eq!(at(r#"{"arguments":{"city":"Hyderabad"#), ["\"", "\",", "\"}"]);
        // One token goes on from a place: the first the tokenizer cuts (` York`, not ` Y`).
        assert_eq!(at(r#"{"arguments":{"city":"New"#), ["\"", "\",", "\"}", " York"]);
        assert_eq!(at(r#"{"arguments":{"city":"New Y"#), ["ork"]);
        assert!(!at(r#"{"arguments":{"city":""#).contains(&"hy"), "not in another case");
        // Where the grammar allows only another case (an enumeration's `fahrenheit`), that
        // case goes on, for less.
        let lower_only = |t: u32| !TOKENS[t as usize].chars().any(char::is_uppercase);
        let unit = source.continuations(r#"{"arguments":{"unit":""#, &index, lower_only, &greedy);
        let bonus = |text: &str| unit.iter().find(|(id, _)| TOKENS[*id as usize] == text).map(|(_, b)| *b);
        assert_eq!(bonus("f"), Some(OTHER_CASE_BONUS));
        assert_eq!(bonus("hy"), Some(OTHER_CASE_BONUS));
        assert_eq!(bonus("Hy"), None, "not allowed");
        assert_eq!(at(r#"{"arguments":{"unit":"f"#), ["ahrenheit"]);
        // A value that left the text gets nothing; nor does a key.
        assert!(at(r#"{"arguments":{"city":"CA"#).is_empty());
        assert!(at(r#"{"arguments":{"ci"#).is_empty());
    }

    #[test]
    fn a_number_goes_on_digit_by_digit_and_ends_where_the_texts_ends() {
        let source = CopySource::new("A laptop for $999, v2");
        let index = index();
        let at = |json: &str| texts(&source.continuations(json, &index, |_| true, &greedy));
        assert_eq!(at(r#"{"amount":"#), ["9"]);
        assert_eq!(at(r#"{"amount":9"#), ["9"]);
        assert_eq!(at(r#"{"amount":99"#), ["9"]);
        assert_eq!(at(r#"{"amount":999"#), [",", "}"]);
        assert!(at(r#"{"amount":9."#).is_empty());
        // What ends a value is told apart from what copies into it.
        let id = |text: &str| TOKENS.iter().position(|t| *t == text).unwrap() as u32;
        assert!(index.ends_value(id(",")) && index.ends_value(id("\",")) && !index.ends_value(id("9")));
        // Where a value starts, these would open a string and go on inside it.
        let quotes =
            TokenIndex::new(&["\"", " \"", " \"\"", "\"c", "\",", "c"].map(|t| t.as_bytes().to_vec()));
        assert_eq!(quotes.opening_more(), [2, 3, 4]);
    }

    #[test]
    fn numbers_are_copied_once_and_in_order() {
        let source = CopySource::new("What is the sum of 133 and 34?");
        let index = index();
        let bonuses = |json: &str| -> Vec<(&str, f32)> {
            let found = source.continuations(json, &index, |_| true, &greedy);
            found.iter().map(|&(id, bonus)| (TOKENS[id as usize], bonus)).collect()
        };
        assert_eq!(bonuses(r#"{"a":"#), [("1", COPY_BONUS + ORDER_BONUS), ("3", COPY_BONUS)]);
        assert_eq!(bonuses(r#"{"a":133,"b":"#), [("3", COPY_BONUS + ORDER_BONUS)]);
        assert_eq!(bonuses(r#"{"a":34,"b":"#), [("1", COPY_BONUS + ORDER_BONUS)]);
        // A number a string of the call holds is copied: "133 Main Street" is no count.
        assert_eq!(bonuses(r#"{"street":"133 main","b":"#), [("3", COPY_BONUS + ORDER_BONUS)]);
        assert_eq!(bonuses(r#"{"street":"main","b":"#), [("1", COPY_BONUS + ORDER_BONUS), ("3", COPY_BONUS)]);
        assert_eq!(
            bonuses(r#"{"name":"sum_133","arguments":{"b":"#),
            [("1", COPY_BONUS + ORDER_BONUS), ("3", COPY_BONUS)],
            "the tool's name is no value"
        );
        assert_eq!(
            numbers_in(&chars("on 2023-10-06, -4 at 1.5")),
            [chars("2023"), chars("10"), chars("06"), chars("-4"), chars("4"), chars("1.5")]
        );
    }

    #[test]
    fn a_number_the_call_holds_is_not_gone_on_with_again() {
        let source = CopySource::new("velocity of 13, accelerating at 1 m/s");
        let index = index();
        let at = |json: &str| texts(&source.continuations(json, &index, |_| true, &greedy));
        assert_eq!(at(r#"{"v":1"#), [",", "}", "3"], "13 or 1");
        assert_eq!(at(r#"{"v":13,"a":1"#), [",", "}"], "the 13 is in the call: only the 1 is left");
        assert_eq!(at(r#"{"v":"13 m","a":1"#), [",", "}"], "also inside a string of the call");
    }

    #[test]
    fn an_optional_value_moves_to_the_parameter_its_label_names() {
        let schema = serde_json::json!({"type": "object", "required": ["botId"], "properties": {
            "botId": {"type": "string"}, "artist": {"type": "string"}, "album": {"type": "string"},
            "localeId": {"type": "string"}, "genre": {"type": "string", "enum": ["Pop", "Rock"]}}});
        let source =
            CopySource::new("For my bot with ID 'B1', songs from the album High Expectations by Adele")
                .with_parameters(&[("Music".to_owned(), schema.clone())]);
        let mut arguments =
            serde_json::json!({"botId": "B1", "artist": "High Expectations", "localeId": "ID"});
        let changed = source.settle("Music", &mut arguments, &schema);
        assert_eq!(arguments, serde_json::json!({"botId": "B1", "album": "High Expectations"}));
        assert_eq!(changed, ["artist", "localeId"]);
        let mut kept = serde_json::json!({"botId": "ID", "artist": "Adele", "album": "High Expectations"});
        assert!(source.settle("Music", &mut kept, &schema).is_empty(), "required, unlabelled or at home");
        let events = serde_json::json!({"type": "object", "required": ["city"], "properties": {
            "city": {"type": "string"}, "date": {"type": "string"}}});
        let source = CopySource::new("Find any Theater events in Seattle, WA on Friday")
            .with_parameters(&[("events".to_owned(), events.clone())]);
        let mut dateless = serde_json::json!({"city": "Seattle, WA", "date": "Theater events"});
        assert_eq!(source.settle("events", &mut dateless, &events), ["date"]);
        let mut friday = serde_json::json!({"city": "Seattle, WA", "date": "Friday"});
        assert!(source.settle("events", &mut friday, &events).is_empty(), "a weekday is a day");
        let mut held = serde_json::json!({"artist": "High Expectations", "album": "Adele"});
        assert!(source.settle("Music", &mut held, &schema).is_empty(), "the album is held");
    }

    #[test]
    fn an_enumeration_copies_a_value_a_word_of_the_text_grows_from() {
        let schema = serde_json::json!({"type": "object", "properties": {
            "ride": {"type": "string", "enum": ["plus", "comfort", "black"]},
            "order": {"type": "string", "enum": ["ASC", "DESC", "CO"]},
            "lang": {"type": "string", "enum": ["en", "fr", "hi"]}}});
        let source =
            CopySource::new("Could I get a comfortable ride, newest first (descending), from here to French")
                .with_parameters(&[("t".to_owned(), schema)]);
        let index = index();
        // The tokens earning a bonus, where the grammar allows `allowed`.
        let bonus = |json: &str, allowed: &[&str]| {
            let all = source.continuations(json, &index, |t| allowed.contains(&TOKENS[t as usize]), &greedy);
            texts(&all.into_iter().filter(|(_, b)| *b > 0.0).collect::<Vec<_>>())
        };
        let enumerated = ["comfort", "fr", "\"", "\"}", "\","];
        assert_eq!(bonus(r#"{"name":"t","arguments":{"ride":""#, &enumerated), ["comfort"]);
        assert!(bonus(r#"{"name":"t","arguments":{"ride":"comfort"#, &enumerated).contains(&"\""), "whole");
        assert_eq!(bonus(r#"{"name":"t","arguments":{"lang":""#, &enumerated), ["fr"], "of French");
        assert!(source.names_value("t", "order", &chars("desc")));
        assert!(!source.names_value("t", "order", &chars("co")), "not of \"could\"");
        assert!(source.names_value("t", "ride", &chars("comfort")));
        assert!(!source.names_value("t", "ride", &chars("black")));
        let written = |json: &str| slot(json).1;
        let shows = serde_json::json!({"type": "object", "properties": {
            "city": {"type": "string"},
            "show": {"type": "string", "enum": ["regular", "3d", "in"]}}});
        let leaves_show = |text: &str| {
            CopySource::new(text)
                .with_parameters(&[("m".to_owned(), shows.clone())])
                .leaves_out(&written(r#"{"name":"m","arguments":{"city":"Paris""#))
        };
        assert!(leaves_show("a 3D movie in Paris"), "a code written in capitals");
        assert!(!leaves_show("In Paris, a movie"), "a word that opens a sentence is no code");
        assert!(
            source.leaves_out(&written(r#"{"name":"t","arguments":{"ride":"comfort""#)),
            "the order the text gives is still to come"
        );
    }

    #[test]
    fn an_enumeration_copies_its_values_the_text_writes_whole_in_its_own_case() {
        let schema = serde_json::json!({"type": "object", "properties": {
            "city": {"type": "string"},
            "unit": {"type": "string", "enum": ["celsius", "fahrenheit"], "default": "celsius"}}});
        let source = CopySource::new("Weather in Hyderabad and New York, in Fahrenheit")
            .with_parameters(&[("w".to_owned(), schema)]);
        let index = index();
        let found = |json: &str| source.continuations(json, &index, |_| true, &greedy);
        let unit = found(r#"{"name":"w","arguments":{"unit":""#);
        assert_eq!(texts(&unit), ["f"], "only where a value stands whole, not the `hy` of Hyderabad");
        assert_eq!(
            unit[0].1, NAMED_VALUE_BONUS,
            "as good in the enumeration's case, and more where a value starts"
        );
        assert!(
            texts(&found(r#"{"name":"w","arguments":{"city":""#)).contains(&"Hy"),
            "a free string copies any word"
        );
        assert!(source.names_value("w", "unit", &chars("fahrenheit")));
        assert!(!source.names_value("w", "city", &chars("hyderabad")), "no enumeration");
        assert!(
            source.admits("w", "unit", &chars("fahrenheit")) && source.admits("w", "city", &chars("paris"))
        );
        assert!(!source.admits("w", "unit", &chars("celsius")), "the default is the same as leaving it out");
        assert!(!source.admits("w", "unit", &chars("kelvin")));
    }

    #[test]
    fn a_number_the_words_beside_it_name_earns_more() {
        let schema = serde_json::json!({"type": "object", "properties": {
            "egoVelocity": {"type": "number"}, "egoAcceleration": {"type": "number"}}});
        let source = CopySource::new("at a velocity of 133, accelerating at 34 m/s")
            .with_parameters(&[("ttc".to_owned(), schema)]);
        let index = index();
        let bonuses = |json: &str| -> Vec<(&str, f32)> {
            let found = source.continuations(json, &index, |_| true, &greedy);
            found.iter().map(|&(id, bonus)| (TOKENS[id as usize], bonus)).collect()
        };
        assert_eq!(
            bonuses(r#"{"name":"ttc","arguments":{"egoAcceleration":"#),
            [("1", COPY_BONUS + ORDER_BONUS - CUE_BONUS), ("3", COPY_BONUS + CUE_BONUS)],
            "`accelerating` names the second, `velocity` the first for another parameter"
        );
        assert_eq!(
            bonuses(r#"{"name":"ttc","arguments":{"egoVelocity":"#),
            [("1", COPY_BONUS + ORDER_BONUS + CUE_BONUS), ("3", COPY_BONUS - CUE_BONUS)]
        );
    }

    #[test]
    fn a_long_text_is_read_only_so_far() {
        let long = "New ".repeat(10_000) + "York";
        let source = CopySource::new(&long);
        assert_eq!(source.text.len(), MAX_SOURCE);
        assert_eq!(source.words.len(), MAX_SOURCE / 4);
        let index = index();
        assert_eq!(
            texts(&source.continuations(r#"{"a":"New"#, &index, |_| true, &greedy)),
            ["\"", "\",", "\"}"],
            "York is beyond"
        );
    }

    proptest::proptest! {
        /// Any text and any call written so far: no panic, and every token found continues
        /// a value (bounded by the vocabulary).
        #[test]
        fn any_text_and_any_call_so_far_are_read_safely(text in "\\PC{0,200}", json in "[{}\\[\\]\":,0-9a-zA-Z .\\\\-]{0,80}", cut in 0usize..200) {
            let source = CopySource::new(&text);
            // A random call, and one whose value copies the start of the text.
            let copying = format!("{{\"a\":\"{}", text.chars().take(cut).collect::<String>());
            for json in [json, copying] {
                let found = source.continuations(&json, &index(), |_| true, &greedy);
                proptest::prop_assert!(found.iter().all(|(id, bonus)| (*id as usize) < TOKENS.len() && *bonus > 0.0));
            }
            // Where every span stands, at each of its ends and past the text's end.
            let tools = [("t".to_owned(), serde_json::json!({"properties": {"a": {"type": "string"}}}))];
            let source = CopySource::new(&text).with_parameters(&tools);
            for span in source.spans() {
                for &end in &span.ends {
                    let _ = source.place(&span, end, "t", "a");
                }
            }
            for end in 0..text.chars().count() + 3 {
                let _ = source.stops_inside(end, "t");
            }
        }
    }
}

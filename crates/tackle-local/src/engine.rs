//! Generation: prefill (reusing the model state of the longest cached prefix), the
//! call-or-answer decision, and decoding under a grammar mask so that every call is valid
//! JSON that follows its tool's schema.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use llguidance::api::TopLevelGrammar;
use llguidance::{Matcher, ParserFactory};
use toktrie::{InferenceCapabilities, TokEnv};

use crate::copy::{self, CopySource, Cue, Place, Slot, Span, TokenIndex};
use crate::error::LocalError;
use crate::llama::{Kv, Llama};
use crate::tokenizer::{Env, Vocabulary};

/// Prompt tokens fed to the model per forward pass.
const CHUNK: usize = 128;

/// How many warmed prefixes are kept (the most recent): enough for the system texts of a
/// catalog of eight tools, each alone, and the one without tools (`LocalModel::prefill`)...
const PREFIXES_KEPT: usize = 10;

/// ...and the bytes their keys and values may take together, the most recent always kept (a
/// 36-tool catalog's system text alone takes 43 MB; a program that offers a new list of
/// tools with each request would otherwise keep ten of them). 24 MB is about 1,090 tokens
/// of SmolLM2's keys and values (23 KB a token in half precision): two system texts of up
/// to half that are kept together; a larger one is kept alone.
const PREFIX_BYTES: usize = 24 << 20;

/// The bytes the states after the router's prompts may take: about 0.8 MB a prompt, so
/// some twenty tools' prompts (with an embedder a request weighs four tools and no tool).
const ROUTE_BYTES: usize = 16 << 20;

/// Repetition penalty for plain answers (greedy decoding of a small model loops without
/// one), over the last `REPEAT_WINDOW` tokens, as llama.cpp applies it.
const REPEAT_PENALTY: f32 = 1.3;
const CALL_REPEAT_PENALTY: f32 = 1.1;
const REPEAT_WINDOW: usize = 64;

fn penalise_repeats(logits: &mut [f32], recent: &[u32], penalty: f32) {
    let mut seen = std::collections::HashSet::new();
    for &token in recent {
        if seen.insert(token)
            && let Some(logit) = logits.get_mut(token as usize)
        {
            *logit = if *logit > 0.0 { *logit / penalty } else { *logit * penalty };
        }
    }
}

/// What a span of the user's text copied whole earns over a string the model writes freely,
/// in log-likelihood: a value the user wrote is likelier right than one they did not.
const SPAN_PRIOR: f32 = 2.0;

/// What a span earns on top of [`SPAN_PRIOR`] where it is just what the user set in
/// quotation marks (`the dish called 'chicken dish'`): a quotation is meant literally and
/// whole.
const QUOTED_PRIOR: f32 = 2.0;

/// What a span earns, up or down, where a word beside it names the parameter it would fill
/// ("the project SUPERFANCY", "titled Checkout fails") or names another parameter of the
/// tool.
const CUE_PRIOR: f32 = 2.0;

/// What a span earns where it has the shape of an example the parameter's schema gives
/// ("Healdsburg, CA" for a location "such as 'Berkeley, CA'"; see
/// [`CopySource::fits_example`]): a place written as the schema writes one.
const EXAMPLE_PRIOR: f32 = 2.0;

/// What a span loses where it begins or ends inside a name in capitals ("Dominic
/// Monaghan", "Austin, TX") or a word joined by a hyphen, an underscore or a point
/// (`serde-rs`), or stops inside a phrase ("Checkout" of "titled Checkout button does
/// nothing"): names and such words are mostly copied whole. As much as a cue and the span's
/// own prior together: at 2, "2.0" of "a branch release-2.0" and "New York" of "New York,
/// NY" still won.
const WHOLE_CUT: f32 = 4.0;

/// The prior of `span` copied to its end at `end` (in characters), placed as
/// [`CopySource::place`] says.
fn span_prior(span: &Span, end: usize, (cue, cuts_whole): Place) -> f32 {
    let quoted = if span.quoted == Some(end) { QUOTED_PRIOR } else { 0.0 };
    SPAN_PRIOR + quoted + placement(cue, cuts_whole)
}

/// What a copy earns, up or down, for where it stands: `cue`, what the words beside it say
/// of the parameter, and `cuts_whole`, whether it begins or ends inside a name in capitals
/// or a joined word.
fn placement(cue: Cue, cuts_whole: bool) -> f32 {
    let cut = if cuts_whole { -WHOLE_CUT } else { 0.0 };
    let named = if cue.names_it {
        CUE_PRIOR
    } else if cue.names_another {
        -CUE_PRIOR
    } else {
        0.0
    };
    cut + named
}

/// How many places in the user's text a whole copy is weighed from (those whose first
/// token the model finds likeliest).
const SPAN_TRIES: usize = 6;

/// The most tokens of a span weighed...
const SPAN_TOKENS: usize = 24;

/// ...and of one that starts with a web address or a long quotation, copied whole (a
/// page's address with its path and query often takes 60 to 100 tokens).
const LONG_SPAN_TOKENS: usize = 256;

/// A string value under way in a call, from its opening quote.
struct OpenValue {
    /// The model state just after the opening quote.
    state: Cached,
    /// How much of the call's text, and how many of its tokens, came before the value.
    text: usize,
    tokens: usize,
    /// The strings the call held before it, in lower case.
    used: Vec<Vec<char>>,
    /// The tool the call names and the parameter the value is for, in lower case.
    tool: String,
    key: String,
    /// The model's own log-likelihood of the value's tokens so far (before bonuses and
    /// penalties).
    likelihood: f32,
}

/// How many tokens of a cached state after `cached` serve a state after `tokens`: all of
/// them where they begin `tokens` (their logits are known), else the start the two share but
/// its last token (fed again, for the logits after it); 0 where nothing serves.
fn reusable(cached: &[u32], tokens: &[u32]) -> usize {
    let common = cached.iter().zip(tokens).take_while(|(a, b)| a == b).count();
    if common == cached.len() { common } else { common.saturating_sub(1) }
}

/// The log of the sum of the exponentials of `logits`: what turns a logit into a
/// log-probability.
fn normaliser(logits: &[f32]) -> f32 {
    log_sum_exp(logits, |_| true)
}

/// A failure of the constrained decoder.
fn generation(error: impl std::fmt::Display) -> LocalError {
    LocalError::Generation(error.to_string())
}

/// The model state after some tokens.
#[derive(Clone)]
struct Cached {
    tokens: Vec<u32>,
    /// The keys and values after `tokens`.
    kv: Kv,
    /// The logits after the last token.
    logits: Vec<f32>,
}

/// What the decoder is constrained to.
pub(crate) enum Constraint {
    /// Free text.
    None,
    /// The model chooses between a plain answer (grammar `answer`) and a call (grammar
    /// `call`), by comparing how likely it is to start each, with `bias` added for the call.
    Choose { answer: String, call: String, bias: f32 },
    /// Only this grammar.
    Only(String),
    /// The classifying router decides first (resolved to `Only` before generation).
    Route {
        request: String,
        none_bias: f32,
        tools: Vec<Arc<tackle_core::ToolDefinition>>,
        spans: crate::chat::Spans,
    },
}

/// How one generation went.
#[derive(Debug, Clone, Default)]
pub(crate) struct Generated {
    /// The text written.
    pub(crate) text: String,
    /// Whether the call branch was taken (or was the only one).
    pub(crate) call: bool,
    /// Prompt tokens, and of those the ones served from the cache.
    pub(crate) prompt_tokens: usize,
    pub(crate) cached_tokens: usize,
    /// Generated tokens.
    pub(crate) output_tokens: usize,
    /// Whether generation stopped at the token limit.
    pub(crate) truncated: bool,
    /// Time to prefill, and to generate.
    pub(crate) prefill: Duration,
    pub(crate) decode: Duration,
    /// Call score minus answer score at the first token, when the model chose.
    pub(crate) router_margin: Option<f32>,
    /// The classifying router's choice.
    pub(crate) router_choice: Option<String>,
}

/// The model, its tokenizer, and the constraint machinery.
pub(crate) struct Engine {
    model: Llama,
    pub(crate) vocabulary: Arc<Vocabulary>,
    /// The tokens by their text, for copying from the user's text into a call.
    copies: TokenIndex,
    factory: ParserFactory,
    /// The states after static prefixes (the system text and tools),
    /// the most recent first.
    prefixes: Mutex<Vec<Cached>>,
    /// The state after the most recent generation.
    last: Mutex<Option<Cached>>,
    /// The states after the router's prompts, the most recently used first, at most
    /// [`ROUTE_BYTES`] together.
    routes: Mutex<std::collections::VecDeque<Cached>>,
    context_length: usize,
}

fn log_sum_exp(logits: &[f32], allowed: impl Fn(u32) -> bool) -> f32 {
    let max = logits
        .iter()
        .enumerate()
        .filter(|(i, _)| allowed(*i as u32))
        .map(|(_, &l)| l)
        .fold(f32::NEG_INFINITY, f32::max);
    if max == f32::NEG_INFINITY {
        return max;
    }
    let sum: f32 =
        logits.iter().enumerate().filter(|(i, _)| allowed(*i as u32)).map(|(_, &l)| (l - max).exp()).sum();
    max + sum.ln()
}

/// The log-probability of `token` under `logits`.
fn log_prob(logits: &[f32], token: u32) -> f32 {
    let max = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let sum: f32 = logits.iter().map(|l| (l - max).exp()).sum();
    logits.get(token as usize).map_or(f32::NEG_INFINITY, |l| l - max - sum.ln())
}

fn argmax(logits: &[f32], allowed: impl Fn(u32) -> bool) -> Option<u32> {
    logits
        .iter()
        .enumerate()
        .filter(|(i, l)| allowed(*i as u32) && l.is_finite())
        .max_by(|a, b| a.1.total_cmp(b.1))
        .map(|(i, _)| i as u32)
}

impl Engine {
    /// The log-probability under `logits` (normalised by `norm`) that a string closes.
    fn closing(&self, logits: &[f32], norm: f32) -> f32 {
        let closing = self.copies.closing();
        log_sum_exp(logits, |t| closing.binary_search(&t).is_ok()) - norm
    }

    /// Weighs the string value just written (`free`, its tokens to and with the closing
    /// one, of log-likelihood `score` with its close) against spans of the user's text
    /// copied whole, each with [`SPAN_PRIOR`] added ([`QUOTED_PRIOR`] more for one the user
    /// quoted, [`EXAMPLE_PRIOR`] more for one shaped as an example the parameter's schema
    /// gives) and its [`placement`] (what the words beside it say of the parameter, and
    /// whether it cuts a name in capitals or a joined word); returns the tokens of the best
    /// span and its close, and the model state after them, where one wins. The matcher ends after
    /// whatever is kept. The spans tried are the quoted ones, those a word beside names the
    /// parameter, and those from the places whose first token the model finds likeliest
    /// (at most [`SPAN_TRIES`] of each); a span the call already holds as a value is not
    /// tried again (a `from` and a `to` are two places) unless a word beside it names this
    /// parameter ("ticket number: IND5463" for an identifier the same as the ticket
    /// number), nor one that fills nothing (it only repeats parameters' names or only opens
    /// phrases), nor one the grammar refuses. A `score` of minus infinity lets any such
    /// span win. A span that starts with a web address or a long quotation is weighed to
    /// its end, up to [`LONG_SPAN_TOKENS`].
    fn better_copy(
        &self,
        value: &OpenValue,
        call: &str,
        free: &[u32],
        score: f32,
        source: &CopySource,
        matcher: &mut Matcher,
    ) -> Result<Option<(Vec<u32>, Cached)>, LocalError> {
        matcher.rollback(free.len()).map_err(generation)?;
        let mask = matcher.compute_mask().map_err(generation)?;
        let logits = &value.state.logits;
        // The spans by the likelihood of their first token, each text once; what the user
        // quoted goes first, then what a word beside it says is for this parameter.
        // Each span with how it stands at each of its ends.
        let mut tries = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for span in source.spans() {
            let Ok(mut tokens) = self.vocabulary.encode(&span.text) else { continue };
            tokens.truncate(if span.long { LONG_SPAN_TOKENS } else { SPAN_TOKENS });
            let Some(&first) = tokens.first().filter(|&&t| mask.is_allowed(t)) else { continue };
            if seen.insert(span.text.clone()) {
                let likelihood = logits.get(first as usize).copied().unwrap_or(f32::NEG_INFINITY);
                let lower: Vec<char> = span.text.chars().flat_map(char::to_lowercase).collect();
                if !source.admits(&value.tool, &value.key, &lower) {
                    continue;
                }
                let places: Vec<Place> =
                    span.ends.iter().map(|&end| source.place(&span, end, &value.tool, &value.key)).collect();
                let named = places.iter().any(|(cue, _)| cue.names_it);
                let group = if span.quoted.is_some() { 2 } else { usize::from(named) };
                tries.push((group, likelihood, tokens, span, places));
            }
        }
        tries.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.total_cmp(&a.1)));
        // Where, in tokens, each word of a span ends (where the span's own cut agrees), but
        // for a value the call already holds or one that fills nothing, with the
        // prior of each end; at most SPAN_TRIES spans of each group with any end.
        let mut kept = Vec::new();
        let mut room = [0; 3];
        for (group, _, tokens, span, places) in tries {
            if room[group] == SPAN_TRIES {
                continue;
            }
            let chars: Vec<char> = span.text.chars().collect();
            let ends: Vec<(usize, f32)> = span
                .ends
                .iter()
                .zip(places)
                .filter_map(|(&end, place)| {
                    let part: String = chars[..end].iter().collect();
                    let lower = part.chars().flat_map(char::to_lowercase);
                    let used = value.used.iter().any(|u| u.iter().copied().eq(lower.clone()));
                    if (used && !place.0.names_it) || place.0.fills_nothing {
                        return None;
                    }
                    let cut = self.vocabulary.encode(&part).ok()?;
                    let fits = source.fits_example(&value.tool, &value.key, &chars[..end]);
                    let lower: Vec<char> = lower.collect();
                    let place = (place.0, place.1 || source.cut_somewhere(&lower, &value.tool, &value.key));
                    let prior = span_prior(&span, end, place) + if fits { EXAMPLE_PRIOR } else { 0.0 };
                    tokens.starts_with(&cut).then_some((cut.len(), prior))
                })
                .collect();
            if !ends.is_empty() {
                room[group] += 1;
                kept.push((tokens, ends));
            }
        }
        let mut best = score;
        let mut pick: Option<Vec<u32>> = None;
        let most = SPAN_PRIOR + QUOTED_PRIOR + CUE_PRIOR + EXAMPLE_PRIOR;
        for (tokens, ends) in &kept {
            let valid = matcher.validate_tokens(tokens).map_err(generation)?;
            let mut kv = value.state.kv.clone();
            let mut logits = value.state.logits.clone();
            let mut norm = normaliser(&logits);
            let mut total = 0.0;
            for (i, &token) in tokens.iter().enumerate().take(valid) {
                total += logits.get(token as usize).map_or(f32::NEG_INFINITY, |l| l - norm);
                if total + most <= best || i + 1 > ends.last().map_or(0, |e| e.0) {
                    break;
                }
                logits = self.forward(&mut kv, &[token])?;
                norm = normaliser(&logits);
                if let Some(&(_, prior)) = ends.iter().find(|e| e.0 == i + 1) {
                    let whole = total + self.closing(&logits, norm) + prior;
                    if whole > best {
                        best = whole;
                        pick = Some(tokens[..=i].to_vec());
                    }
                }
            }
        }
        if let Some(span) = pick
            && let Some(written) = self.rewrite(value, &span, matcher, |_| true, (call, source))?
        {
            return Ok(Some(written));
        }
        matcher.consume_tokens(free).map_err(generation)?;
        Ok(None)
    }

    /// Puts `tokens` (a value and its close) in place of what was written since `value`
    /// opened, in the tokens and the text generated.
    fn replace(&self, value: &OpenValue, tokens: &[u32], generated: &mut Vec<u32>, out: &mut Generated) {
        generated.truncate(value.tokens);
        generated.extend_from_slice(tokens);
        out.output_tokens = generated.len();
        out.text.truncate(value.text);
        let bytes: Vec<u8> = tokens.iter().flat_map(|&t| self.vocabulary.token_bytes(t).to_vec()).collect();
        out.text.push_str(&String::from_utf8_lossy(&bytes));
    }

    /// Writes `body` as the value opened at `value` (the matcher standing just after its
    /// opening quote; `call`, the call's text to and with that quote, copied from
    /// `source`), closed by the likeliest closing token the grammar and `close` allow;
    /// returns its tokens with the close and the model state after them, or leaves the
    /// matcher as it was and returns `None` where no close fits.
    fn rewrite(
        &self,
        value: &OpenValue,
        body: &[u32],
        matcher: &mut Matcher,
        close: impl Fn(&[u8]) -> bool,
        (call, source): (&str, &CopySource),
    ) -> Result<Option<(Vec<u32>, Cached)>, LocalError> {
        matcher.consume_tokens(body).map_err(generation)?;
        let mut state = value.state.clone();
        if !body.is_empty() {
            state.logits = self.forward(&mut state.kv, body)?;
            state.tokens.extend_from_slice(body);
        }
        let mask = matcher.compute_mask().map_err(generation)?;
        let closing = self.copies.closing();
        let fits = |t: u32| {
            mask.is_allowed(t) && closing.binary_search(&t).is_ok() && close(self.vocabulary.token_bytes(t))
        };
        // A close that would end the arguments loses while the call leaves one out, as it
        // does where the model writes the close itself.
        let bytes: Vec<u8> = body.iter().flat_map(|&t| self.vocabulary.token_bytes(t).to_vec()).collect();
        let written = format!("{call}{}", String::from_utf8_lossy(&bytes));
        let mut logits = std::borrow::Cow::Borrowed(&state.logits);
        for token in source.left_out(&written, &self.copies, fits) {
            if let Some(logit) = logits.to_mut().get_mut(token as usize) {
                *logit -= copy::LEFT_OUT;
            }
        }
        if let Some(end) = argmax(&logits, fits) {
            matcher.consume_token(end).map_err(generation)?;
            state.logits = self.forward(&mut state.kv, &[end])?;
            state.tokens.push(end);
            let mut tokens = body.to_vec();
            tokens.push(end);
            return Ok(Some((tokens, state)));
        }
        matcher.rollback(body.len()).map_err(generation)?;
        Ok(None)
    }

    pub(crate) fn new(
        model: Llama,
        vocabulary: Vocabulary,
        context_length: usize,
    ) -> Result<Engine, LocalError> {
        let vocabulary = Arc::new(vocabulary);
        let env: TokEnv = Arc::new(Env { vocabulary: Arc::clone(&vocabulary) });
        let factory = ParserFactory::new(
            &env,
            InferenceCapabilities::default(),
            &llguidance::earley::SlicedBiasComputer::general_slices(),
        )
        .map_err(|e| LocalError::Generation(format!("cannot set up constrained decoding: {e}")))?;
        // The file's context, as far as the model's position tables reach.
        let context_length = context_length.min(model.positions());
        Ok(Engine {
            model,
            copies: TokenIndex::new(&vocabulary.bytes),
            vocabulary,
            factory,
            prefixes: Mutex::new(Vec::new()),
            last: Mutex::new(None),
            routes: Mutex::new(Default::default()),
            context_length,
        })
    }

    /// A matcher for `grammar`.
    fn matcher(&self, grammar: &str) -> Result<Matcher, LocalError> {
        let parser = self.factory.create_parser(TopLevelGrammar::from_lark(grammar.to_owned()));
        let matcher = Matcher::new(parser);
        if let Some(error) = matcher.get_error() {
            return Err(LocalError::Generation(format!("the grammar does not compile: {error}")));
        }
        Ok(matcher)
    }

    /// Checks that `grammar` compiles.
    pub(crate) fn check_grammar(&self, grammar: &str) -> Result<(), String> {
        self.matcher(grammar).map(|_| ()).map_err(|e| e.to_string())
    }

    /// Feeds `tokens` after the state `kv`; the logits after the last of them.
    fn forward(&self, kv: &mut Kv, tokens: &[u32]) -> Result<Vec<f32>, LocalError> {
        Ok(self.model.forward(kv, tokens, false)?.last())
    }

    /// The state after `tokens`: from the cached state that shares the longest start with
    /// them (cut to that start: a conversation with the same system text and tools but
    /// another question reuses the state of the last one), feeding the rest.
    fn prefill(&self, tokens: &[u32]) -> Result<(Cached, usize), LocalError> {
        let best = {
            let prefixes = self.prefixes.lock().unwrap_or_else(|p| p.into_inner());
            let last = self.last.lock().unwrap_or_else(|p| p.into_inner());
            prefixes
                .iter()
                .chain(last.as_ref())
                .map(|c| (reusable(&c.tokens, tokens), c))
                .filter(|(keep, _)| *keep > 0)
                .max_by_key(|(keep, _)| *keep)
                .map(|(keep, c)| (keep, c.clone()))
        };
        let (mut state, reused) = match best {
            Some((keep, mut cached)) => {
                if keep < cached.tokens.len() {
                    // Only the part shared with `tokens`; the logits after it are unknown, so
                    // `keep` stops short of the end of `tokens` and what follows is fed.
                    cached.tokens.truncate(keep);
                    cached.kv.truncate(keep)?;
                    cached.logits.clear();
                }
                (cached, keep)
            }
            None => (Cached { tokens: Vec::new(), kv: Kv::default(), logits: Vec::new() }, 0),
        };
        let position = state.tokens.len();
        for chunk in tokens[position..].chunks(CHUNK) {
            state.logits = self.forward(&mut state.kv, chunk)?;
            state.tokens.extend_from_slice(chunk);
        }
        Ok((state, reused))
    }

    /// Prefills `tokens` and keeps the state, so that prompts starting with them go faster.
    pub(crate) fn warm(&self, tokens: &[u32]) -> Result<(), LocalError> {
        if tokens.is_empty() {
            return Ok(());
        }
        let (state, _) = self.prefill(tokens)?;
        let mut prefixes = self.prefixes.lock().unwrap_or_else(|p| p.into_inner());
        prefixes.retain(|c| c.tokens != state.tokens);
        prefixes.insert(0, state);
        prefixes.truncate(PREFIXES_KEPT);
        let mut total = 0;
        let kept = prefixes
            .iter()
            .take_while(|c| {
                total += c.kv.bytes();
                total <= PREFIX_BYTES
            })
            .count();
        prefixes.truncate(kept.max(1));
        Ok(())
    }

    /// The state after the router's prompt `tokens`: kept from before, or computed and kept
    /// (letting the least recently used go where they would take more than [`ROUTE_BYTES`]);
    /// with whether every state kept before is still kept.
    fn route(&self, tokens: &[u32]) -> Result<(Cached, bool), LocalError> {
        let kept = {
            let mut routes = self.routes.lock().unwrap_or_else(|p| p.into_inner());
            routes.iter().position(|c| c.tokens == tokens).and_then(|i| routes.remove(i)).inspect(|c| {
                routes.push_front(c.clone());
            })
        };
        if let Some(kept) = kept {
            return Ok((kept, true));
        }
        let (state, _) = self.prefill(tokens)?;
        let size = |c: &Cached| c.kv.bytes() + 4 * (c.logits.len() + c.tokens.len());
        let mut routes = self.routes.lock().unwrap_or_else(|p| p.into_inner());
        routes.retain(|c| c.tokens != state.tokens);
        routes.push_front(state.clone());
        let mut total: usize = routes.iter().map(size).sum();
        let mut all_kept = true;
        while total > ROUTE_BYTES && routes.len() > 1 {
            if let Some(gone) = routes.pop_back() {
                total -= size(&gone);
                all_kept = false;
            }
        }
        Ok((state, all_kept))
    }

    /// Processes the router's prompt `tokens` and keeps the state, so that weighing a request
    /// after it feeds only the request; false where that let an older prompt's state go.
    pub(crate) fn warm_route(&self, tokens: &[u32]) -> Result<bool, LocalError> {
        Ok(self.route(tokens)?.1)
    }

    /// The log-likelihood of `continuation` after `prefix`, the continuation fed in one pass
    /// (the logits after each of its tokens at once); `None` where it falls below `floor`.
    pub(crate) fn likelihood(
        &self,
        prefix: &[u32],
        continuation: &[u32],
        floor: f32,
    ) -> Result<Option<f32>, LocalError> {
        let (state, _) = self.route(prefix)?;
        let Some((&first, _)) = continuation.split_first() else { return Ok(Some(0.0)) };
        let mut total = log_prob(&state.logits, first);
        if continuation.len() > 1 && total >= floor {
            let mut kv = state.kv;
            let fed = &continuation[..continuation.len() - 1];
            let logits = self.model.forward(&mut kv, fed, true)?;
            for (row, &token) in logits.rows().zip(&continuation[1..]) {
                total += log_prob(row, token);
            }
        }
        Ok((total >= floor).then_some(total))
    }

    /// Generates after `prompt` under `constraint`, at most `max_answer` tokens for an answer
    /// and `max_call` for a call; a call's values lean towards copies of `source` (see
    /// [`crate::copy`]); `emit` receives text as it is written and returns false to stop.
    pub(crate) fn generate(
        &self,
        prompt: &[u32],
        constraint: &Constraint,
        source: &CopySource,
        (max_answer, max_call): (usize, usize),
        emit: &mut dyn FnMut(&str) -> bool,
    ) -> Result<Generated, LocalError> {
        if prompt.len() + 1 >= self.context_length {
            return Err(LocalError::Generation(format!(
                "the conversation ({} tokens) does not fit the model's context of {} tokens",
                prompt.len(),
                self.context_length
            )));
        }
        let room = self.context_length - prompt.len() - 1;
        let started = Instant::now();
        let (mut state, cached_tokens) = self.prefill(prompt)?;
        let prefill = started.elapsed();
        let mut out =
            Generated { prompt_tokens: prompt.len(), cached_tokens, prefill, ..Generated::default() };

        // The decision, and the matcher for what follows.
        let mut matcher = match constraint {
            Constraint::None => None,
            Constraint::Route { .. } => {
                return Err(LocalError::Generation("the router must decide before generation".to_owned()));
            }
            Constraint::Only(grammar) => {
                out.call = grammar.starts_with("start: call");
                Some(self.matcher(grammar)?)
            }
            Constraint::Choose { answer, call, bias } => {
                let mut answer = self.matcher(answer)?;
                let mut call = self.matcher(call)?;
                let answer_mask = answer.compute_mask().map_err(|e| LocalError::Generation(e.to_string()))?;
                let call_mask = call.compute_mask().map_err(|e| LocalError::Generation(e.to_string()))?;
                let call_score = log_sum_exp(&state.logits, |t| call_mask.is_allowed(t));
                let answer_score = log_sum_exp(&state.logits, |t| answer_mask.is_allowed(t));
                let margin = call_score + bias - answer_score;
                out.router_margin = Some(call_score - answer_score);
                out.call = margin > 0.0;
                Some(if out.call { call } else { answer })
            }
        };

        let max_tokens = if out.call { max_call } else { max_answer }.min(room);
        let decode_started = Instant::now();
        // Calls get a milder penalty: their structure repeats by nature.
        let penalty = if out.call { CALL_REPEAT_PENALTY } else { REPEAT_PENALTY };
        let mut generated_tokens: Vec<u32> = Vec::new();
        let mut pending: Vec<u8> = Vec::new();
        let stops = &self.vocabulary.stops;
        let mut open: Option<OpenValue> = None;
        let mut end_list = false;
        loop {
            if out.output_tokens >= max_tokens {
                out.truncated = true;
                break;
            }
            if matcher.as_ref().is_some_and(Matcher::is_stopped) {
                break;
            }
            let mask = match &mut matcher {
                Some(matcher) => {
                    Some(matcher.compute_mask().map_err(|e| LocalError::Generation(e.to_string()))?)
                }
                None => None,
            };
            // A call's values lean towards copies of what the user wrote; a copy repeats the
            // user's tokens by nature, so it is not penalised as a repeat (what ends a value
            // is: a call that writes one more argument than it needs is wrong).
            let copies = match &mask {
                Some(mask) if out.call && pending.is_empty() => {
                    let first = |text: &str| self.vocabulary.encode(text).ok()?.first().copied();
                    source.continuations(&out.text, &self.copies, |t| mask.is_allowed(t), &first)
                }
                _ => Vec::new(),
            };
            // The model's own view of this step, for weighing the value under way against
            // whole copies once it closes.
            let raw = open.as_ref().map(|_| state.logits.clone());
            let from = generated_tokens.len().saturating_sub(REPEAT_WINDOW);
            let recent: Vec<u32> = generated_tokens[from..]
                .iter()
                .copied()
                .filter(|&t| {
                    self.copies.ends_value(t) || copies.binary_search_by_key(&t, |(c, _)| *c).is_err()
                })
                .collect();
            penalise_repeats(&mut state.logits, &recent, penalty);
            for (token, bonus) in copies {
                if let Some(logit) = state.logits.get_mut(token as usize) {
                    *logit += bonus;
                }
            }
            // Where a value starts, its opening quote is a token of its own (the model's
            // ` ""` or `"c` would open and go on at once), so that every string value is
            // written from a state just after its quote and can be weighed once it closes.
            if out.call
                && pending.is_empty()
                && let Some(mask) = &mask
                && matches!(copy::slot(&out.text).0, Slot::ValueStart)
            {
                let mut without = state.logits.clone();
                for &token in self.copies.opening_more() {
                    if let Some(logit) = without.get_mut(token as usize) {
                        *logit = f32::NEG_INFINITY;
                    }
                }
                // Only where the grammar leaves a way to write the quote alone.
                if argmax(&without, |t| mask.is_allowed(t)).is_some() {
                    state.logits = without;
                }
            }
            // A list whose last item repeated ends here, where the grammar lets it.
            if std::mem::take(&mut end_list)
                && let Some(mask) = &mask
            {
                let ends = self.copies.closing_list();
                let mut only = state.logits.clone();
                for (token, logit) in only.iter_mut().enumerate() {
                    if ends.binary_search(&(token as u32)).is_err() {
                        *logit = f32::NEG_INFINITY;
                    }
                }
                if argmax(&only, |t| mask.is_allowed(t)).is_some() {
                    state.logits = only;
                }
            }
            let next = match (&mut matcher, &mask) {
                (Some(matcher), Some(mask)) => {
                    let accepting = matcher.is_accepting().unwrap_or(false);
                    let pick =
                        argmax(&state.logits, |t| mask.is_allowed(t) || (accepting && stops.contains(&t)));
                    match pick {
                        Some(token) => token,
                        None if accepting => break,
                        None => {
                            return Err(LocalError::Generation(
                                "the grammar allows no token here".to_owned(),
                            ));
                        }
                    }
                }
                _ => argmax(&state.logits, |_| true).unwrap_or(self.vocabulary.eos),
            };
            if stops.contains(&next) {
                break;
            }
            if let Some(matcher) = &mut matcher {
                matcher.consume_token(next).map_err(|e| LocalError::Generation(e.to_string()))?;
            }
            out.output_tokens += 1;
            generated_tokens.push(next);
            pending.extend_from_slice(self.vocabulary.token_bytes(next));
            // Emit the longest valid UTF-8 prefix; keep a split character for later.
            let valid = match std::str::from_utf8(&pending) {
                Ok(text) => text.len(),
                Err(error) => error.valid_up_to(),
            };
            if valid > 0 {
                let text = String::from_utf8_lossy(&pending[..valid]).into_owned();
                pending.drain(..valid);
                out.text.push_str(&text);
                if !emit(&text) {
                    break;
                }
            }
            state.logits = self.forward(&mut state.kv, &[next])?;
            state.tokens.push(next);
            // A string value of a call: weighed, once it closes, against the spans of the
            // user's text it could have copied whole.
            if let (Some(matcher), true) = (&mut matcher, out.call) {
                if let (Some(value), Some(raw)) = (&mut open, &raw) {
                    let norm = normaliser(raw);
                    let closes = self.copies.closing().binary_search(&next).is_ok();
                    if !closes || !pending.is_empty() {
                        value.likelihood += raw.get(next as usize).map_or(f32::NEG_INFINITY, |l| l - norm);
                    }
                    let still_open = !pending.is_empty() || matches!(copy::slot(&out.text).0, Slot::Text(_));
                    if !still_open && let Some(value) = open.take() {
                        let free = &generated_tokens[value.tokens..];
                        let property = out.text[..value.text]
                            .trim_end()
                            .strip_suffix('"')
                            .is_some_and(|before| before.trim_end().ends_with(':'));
                        // Where the close also ended the call, what was written stands,
                        // as does a value of an enumeration the user wrote whole.
                        let (_, written) = copy::slot(&out.text);
                        let named = written.strings.len() == value.used.len() + 1
                            && written
                                .strings
                                .last()
                                .is_some_and(|s| source.names_value(&value.tool, &value.key, s));
                        let better = if closes && !matcher.is_stopped() && !named {
                            // An empty value of a property, or one the call already holds
                            // (a `from` and a `to` are two places) where no word beside it
                            // names this parameter, loses to any copy the grammar admits.
                            // Not an item of a list: a repeat there says the list is done,
                            // and a fresh copy would only make it longer.
                            let (_, written) = copy::slot(&out.text);
                            let repeats = property
                                && written.strings.len() == value.used.len() + 1
                                && written
                                    .strings
                                    .last()
                                    .is_some_and(|s| s.is_empty() || value.used.contains(s));
                            // A value the model copied is placed like a span: a word beside
                            // it may name another parameter, one cut where the user wrote it
                            // is a cut (`CopySource::stands`), and one that fills nothing
                            // (`project: "project"`, `owner: "issue"`, `owner: "me"`) loses to
                            // any copy.
                            let places = match written.strings.last() {
                                Some(text) if written.strings.len() == value.used.len() + 1 => {
                                    source.stands(text, &value.tool, &value.key)
                                }
                                _ => Vec::new(),
                            };
                            let placed =
                                places
                                    .iter()
                                    .map(|&(cue, cut)| {
                                        if cue.fills_nothing {
                                            f32::NEG_INFINITY
                                        } else {
                                            placement(cue, cut)
                                        }
                                    })
                                    .reduce(f32::max)
                                    .unwrap_or(0.0);
                            // A repeat the text names for this parameter too stands ("the
                            // identifier should be the same as the ticket number").
                            let named_here = places.iter().any(|(cue, _)| cue.names_it);
                            let score = if repeats && !named_here {
                                f32::NEG_INFINITY
                            } else {
                                value.likelihood + self.closing(raw, norm) + placed
                            };
                            self.better_copy(&value, &out.text[..value.text], free, score, source, matcher)?
                        } else {
                            None
                        };
                        if let Some((tokens, copied)) = better {
                            self.replace(&value, &tokens, &mut generated_tokens, &mut out);
                            state = copied;
                        }
                        // An item of a list that repeats a string the call holds ends the
                        // list: a small model otherwise writes `"on", "on", …` until the
                        // list's limit. Where its close went on with a comma, it is closed
                        // again without one.
                        let (_, written) = copy::slot(&out.text);
                        end_list = !property
                            && written.strings.len() == value.used.len() + 1
                            && written.strings.last().is_some_and(|s| value.used.contains(s));
                        let tokens = generated_tokens[value.tokens..].to_vec();
                        if end_list
                            && let Some((&last, body)) = tokens.split_last()
                            && self.vocabulary.token_bytes(last).contains(&b',')
                            && !matcher.is_stopped()
                        {
                            matcher.rollback(tokens.len()).map_err(generation)?;
                            let no_comma = |bytes: &[u8]| !bytes.contains(&b',');
                            let call = &out.text[..value.text];
                            match self.rewrite(&value, body, matcher, no_comma, (call, source))? {
                                Some((tokens, closed)) => {
                                    self.replace(&value, &tokens, &mut generated_tokens, &mut out);
                                    state = closed;
                                }
                                None => matcher.consume_tokens(&tokens).map_err(generation)?,
                            }
                        }
                    }
                } else if pending.is_empty()
                    && let (Slot::Text(held), written) = copy::slot(&out.text)
                    && held.is_empty()
                {
                    open = Some(OpenValue {
                        state: state.clone(),
                        text: out.text.len(),
                        tokens: generated_tokens.len(),
                        used: written.strings,
                        tool: written.tool,
                        key: written.key,
                        likelihood: 0.0,
                    });
                }
            }
            if matcher.as_ref().is_some_and(Matcher::is_stopped) {
                break;
            }
        }
        if !pending.is_empty() {
            let text = String::from_utf8_lossy(&pending).into_owned();
            out.text.push_str(&text);
            emit(&text);
        }
        out.decode = decode_started.elapsed();
        // Keep the state: the next round starts with this conversation.
        *self.last.lock().unwrap_or_else(|p| p.into_inner()) = Some(state);
        Ok(out)
    }
}

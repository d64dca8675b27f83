//! [`LocalModel`]: the embedded model as a [`Model`], so the harness drives it like any
//! provider.

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::StreamExt as _;
use serde_json::Value;
use tackle_core::{
    AssistantPart, AssistantTurn, Embedder, FinishReason, JsonSchema, Message, Model, ModelError,
    ModelErrorKind, ModelEvent, ModelProfile, ModelRequest, ModelResponse, ModelStream, ToolCall, ToolChoice,
    ToolDefinition, Usage, UserPart, WarmUp,
};

use crate::chat::{self, Template};
use crate::copy::CopySource;
use crate::engine::{Constraint, Engine, Generated};
use crate::error::LocalError;
use crate::gguf;
use crate::ground::Ground;
use crate::tokenizer::Vocabulary;

/// How the model decides between a plain answer and a tool call (with `ToolChoice::Auto`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Router {
    /// Compare the likelihood of starting a call with that of starting an answer at the
    /// first token, with `call_bias` added for the call (a small model rarely starts a
    /// call on its own); the model then writes whichever call it likes.
    FirstToken {
        /// Added to the call's log-likelihood.
        call_bias: f32,
    },
    /// A noisy-channel classification: for each tool (and for "no tool"), how likely is the
    /// request as an example of what that tool is for? The request's log-likelihood after
    /// each option's static description is compared, `none_bias` added to "no tool", and
    /// the best option decides — a call is then constrained to that tool. Small models
    /// judge "which text fits this description" far better than "which label fits this text".
    Classify {
        /// Added to the calibrated score of answering without a tool.
        none_bias: f32,
    },
}

impl Default for Router {
    fn default() -> Self {
        Router::Classify { none_bias: DEFAULT_NONE_BIAS }
    }
}

/// The bias on "no tool" of the classifying router, measured best for SmolLM2-135M.
pub const DEFAULT_NONE_BIAS: f32 = 0.0;

/// The first-token router's call bias measured best for SmolLM2-135M-Instruct.
pub const DEFAULT_CALL_BIAS: f32 = 4.0;

/// What the last generation measured.
#[derive(Debug, Clone, Default, PartialEq)]
#[non_exhaustive]
pub struct Stats {
    /// Prompt tokens, and of those the ones served from the prefilled state.
    pub prompt_tokens: usize,
    /// Prompt tokens served from the prefilled state.
    pub cached_tokens: usize,
    /// Generated tokens.
    pub output_tokens: usize,
    /// Time the router took to decide (before the prompt was processed).
    pub routing: Duration,
    /// Time to process the prompt, until the first token could be chosen.
    pub prefill: Duration,
    /// Time to generate.
    pub decode: Duration,
    /// The first-token router's margin (call minus answer), when it decided.
    pub router_margin: Option<f32>,
    /// The classifying router's choice (a tool name, or `none`), when it decided.
    pub router_choice: Option<String>,
}

impl Stats {
    /// Prompt tokens processed per second (cached ones excluded).
    pub fn prompt_tokens_per_second(&self) -> f64 {
        let fresh = self.prompt_tokens - self.cached_tokens;
        if self.prefill.is_zero() { 0.0 } else { fresh as f64 / self.prefill.as_secs_f64() }
    }

    /// Time to the first token: routing, then the prompt.
    pub fn first_token(&self) -> Duration {
        self.routing + self.prefill
    }

    /// Generated tokens per second.
    pub fn output_tokens_per_second(&self) -> f64 {
        if self.decode.is_zero() { 0.0 } else { self.output_tokens as f64 / self.decode.as_secs_f64() }
    }
}

/// Reads a [`LocalModel`]'s latest [`Stats`].
#[derive(Debug, Clone)]
pub struct StatsHandle(Arc<Mutex<Stats>>);

impl StatsHandle {
    /// What the last generation measured.
    pub fn get(&self) -> Stats {
        self.0.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }
}

/// A GGUF chat model run in-process on the CPU. Tool calls are decoded under a grammar made
/// from the offered tools' schemas, so every call is valid JSON that follows its schema.
/// Clones share the loaded model and its prefilled state.
#[derive(Clone)]
pub struct LocalModel {
    name: String,
    profile: ModelProfile,
    engine: Arc<Engine>,
    template: Arc<Template>,
    router: Router,
    max_tokens: usize,
    stats: Arc<Mutex<Stats>>,
    /// Whether each call grammar compiles, by grammar.
    checked: Arc<Mutex<std::collections::HashMap<String, bool>>>,
    /// The router's sense of meaning, when there is one (see [`LocalModel::embedder`]).
    meaning: Option<Arc<Meaning>>,
}

/// An embedder and the tools it has embedded, by their [`tackle_core::tool_meaning`] text.
struct Meaning {
    embedder: Arc<dyn Embedder>,
    tools: Mutex<std::collections::HashMap<String, Vec<f32>>>,
}

/// How many tools' vectors the router remembers (the catalog of a session is far smaller;
/// beyond this they are forgotten and embedded again).
const MEANINGS_KEPT: usize = 4096;

impl std::fmt::Debug for LocalModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LocalModel")
            .field("name", &self.name)
            .field("router", &self.router)
            .finish_non_exhaustive()
    }
}

impl LocalModel {
    /// Loads a GGUF file (llama architecture, byte-level BPE tokenizer).
    ///
    /// The weight matrices are read in place from the file, which is mapped into memory and
    /// must not be rewritten while the model lives (tackle writes model files beside and
    /// renames them into place). On Linux with glibc, loading also sets malloc's mmap
    /// threshold to 32 MB for the process, as glibc's own adjustment would once a block that
    /// large had been freed, so that the few-megabyte buffers of each forward pass are reused
    /// instead of mapped and faulted in anew.
    pub fn load(path: &Path) -> Result<LocalModel, LocalError> {
        let (weights, meta) = gguf::load(path)?;
        let vocabulary = Vocabulary::from_metadata(&meta)?;
        let template = Template::new(meta.chat_template.as_deref())?;
        let engine = Engine::new(weights, vocabulary, meta.context_length)?;
        let name = path.file_stem().map_or_else(|| "local".to_owned(), |s| s.to_string_lossy().into_owned());
        Ok(LocalModel {
            name: format!("local:{name}"),
            profile: ModelProfile::default()
                .supports_tools(true)
                .supports_parallel_tool_calls(false)
                .supports_tool_choice_required(true)
                .supports_streaming(true)
                .reports_stream_usage(true),
            engine: Arc::new(engine),
            template: Arc::new(template),
            router: Router::default(),
            max_tokens: 512,
            stats: Arc::new(Mutex::new(Stats::default())),
            checked: Arc::new(Mutex::new(std::collections::HashMap::new())),
            meaning: None,
        })
    }

    /// Lets the classifying router read meaning too: `embedder` (tackle-local's MiniLM)
    /// tells how close each tool's description is to the request, which the router weighs
    /// with the rest of its evidence (see [`RouteOption`]); with more than
    /// [`ROUTER_CANDIDATES`] tools, only those with the best prior are weighed by the model,
    /// with "no tool" (fewer passes, a faster first token). Without an embedder the model
    /// weighs every tool, with the evidence weighed by hand-chosen weights.
    pub fn embedder(mut self, embedder: Arc<dyn Embedder>) -> Self {
        self.meaning = Some(Arc::new(Meaning { embedder, tools: Mutex::new(Default::default()) }));
        self
    }

    /// Uses another router.
    pub fn router(mut self, router: Router) -> Self {
        self.router = router;
        self
    }

    /// The most tokens one answer may take (default 512).
    pub fn max_tokens(mut self, max_tokens: usize) -> Self {
        self.max_tokens = max_tokens.max(1);
        self
    }

    /// The token ids of `text` (special tokens such as `<|im_end|>` recognised).
    pub fn encode(&self, text: &str) -> Result<Vec<u32>, LocalError> {
        self.engine.vocabulary.encode(text)
    }

    /// The text of token ids (special tokens left out).
    pub fn decode(&self, ids: &[u32]) -> String {
        self.engine.vocabulary.tokenizer.decode(ids, true).unwrap_or_default()
    }

    /// A handle that reads what the last generation measured, after the model has moved.
    pub fn stats_handle(&self) -> StatsHandle {
        StatsHandle(Arc::clone(&self.stats))
    }

    /// What the last generation measured.
    pub fn stats(&self) -> Stats {
        self.stats.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// Processes the static part of prompts — the system text with these tools — once, so
    /// that requests starting with it only process what follows; with an embedder, embeds
    /// the tools' meaning too (loading the embedder where it is not yet).
    pub fn prefill(&self, instructions: &str, tools: &[Arc<ToolDefinition>]) -> Result<(), LocalError> {
        let tools = self.usable_tools(tools);
        // The router's prompts (one per tool and one for no tool, a line each) of a small
        // catalog; a larger catalog's are processed the first time the router weighs them
        // (with an embedder, only the likeliest tools'), and kept, as these are.
        if !tools.is_empty() && tools.len() <= ROUTES_WARMED && matches!(self.router, Router::Classify { .. })
        {
            for prefix in chat::channel_prefixes(&tools) {
                let tokens = self.engine.vocabulary.encode(&prefix)?;
                if !self.engine.warm_route(&tokens)? {
                    break;
                }
            }
        }
        // The system texts prompts start with: with the classifying router, the one a plain
        // answer follows (no tools) and, for a small catalog, each tool's alone (a call's);
        // else the one listing every tool.
        let systems: Vec<&[Arc<ToolDefinition>]> = match self.router {
            Router::Classify { .. } if tools.len() <= ROUTES_WARMED => {
                tools.chunks(1).chain(std::iter::once(&[][..])).collect()
            }
            Router::Classify { .. } => vec![&[][..]],
            Router::FirstToken { .. } => vec![&tools[..]],
        };
        for shown in systems {
            let system = chat::system_text(instructions, shown);
            let prefix = self.template.render(&[("system", system)], false)?;
            let tokens = self.engine.vocabulary.encode(&prefix)?;
            self.engine.warm(&tokens)?;
        }
        // The meaning of the tools too, so that the first request embeds only itself (the
        // embedder is loaded here where it is not yet).
        if matches!(self.router, Router::Classify { .. }) {
            self.tool_vectors(&tools);
        }
        Ok(())
    }

    /// The classifying router's choice for `request`: a tool's index, or `None`.
    fn route(
        &self,
        tools: &[Arc<ToolDefinition>],
        request: &str,
        none_bias: f32,
        evidence: &Evidence<'_>,
    ) -> Result<Option<usize>, LocalError> {
        let options = self.weigh(tools, request, none_bias, evidence, false)?;
        // The first of the best scores (options that stopped early have none).
        let mut best: Option<(usize, f32)> = None;
        for (i, score) in options.iter().enumerate().filter_map(|(i, o)| Some((i, o.score?))) {
            if best.is_none_or(|(_, b)| score > b) {
                best = Some((i, score));
            }
        }
        Ok(best.map(|(i, _)| i).filter(|&i| i < tools.len()))
    }

    /// How the classifying router weighs each option of `request` (each tool of `tools`,
    /// then no tool). With `exhaustive`, every option is weighed to the end; otherwise, with
    /// more than [`ROUTER_CANDIDATES`] tools and an embedder, only the tools with the best
    /// prior are weighed, and an option that cannot beat the best so far stops early (its
    /// score `None`), which changes nothing about the choice.
    fn weigh(
        &self,
        tools: &[Arc<ToolDefinition>],
        request: &str,
        none_bias: f32,
        evidence: &Evidence<'_>,
        exhaustive: bool,
    ) -> Result<Vec<RouteOption>, LocalError> {
        let vocabulary = &self.engine.vocabulary;
        let meant = self.meaning_of(tools, request);
        let closeness = meant.as_ref().map(|m| m.closeness.as_slice());
        let mut options = route_options(tools, evidence, meant.as_ref());
        let weights =
            if closeness.is_some() { RouteWeights::WITH_MEANING } else { RouteWeights::WITHOUT_MEANING };
        let closest = closeness.map_or(0.0, |c| c.iter().copied().fold(f32::NEG_INFINITY, f32::max));
        // What each option's features say before the model is asked, read once.
        let priors: Vec<f32> = options
            .iter()
            .map(|o| weights.prior(o, closest) + if o.tool.is_none() { none_bias } else { 0.0 })
            .collect();
        let weighed = if exhaustive {
            (0..=tools.len()).collect()
        } else {
            candidates(closeness.is_some(), tools.len(), &priors)
        };
        let prefixes = chat::channel_prefixes(tools);
        let mut best: Option<f32> = None;
        for i in weighed {
            let prefix = &prefixes[i];
            let prefix_tokens = vocabulary.encode(prefix)?;
            let full = vocabulary.encode(&format!("{prefix}{}", request.trim()))?;
            if !full.starts_with(&prefix_tokens) {
                return Err(LocalError::Tokenizer("the router's prefix does not tokenize apart".to_owned()));
            }
            let request_tokens = &full[prefix_tokens.len()..];
            let request_tokens = &request_tokens[..request_tokens.len().min(ROUTER_TOKENS)];
            // The likelihood this option needs to beat the best so far.
            let floor = match best {
                Some(b) if !exhaustive => (b - priors[i]) / weights.likelihood,
                _ => f32::NEG_INFINITY,
            };
            let Some(likelihood) = self.engine.likelihood(&prefix_tokens, request_tokens, floor)? else {
                continue;
            };
            let score = weights.likelihood * likelihood + priors[i];
            options[i].likelihood = Some(likelihood);
            options[i].score = Some(score);
            if best.is_none_or(|b| score > b) {
                best = Some(score);
            }
        }
        Ok(options)
    }

    /// How the classifying router weighs every option of `request` (the offered tools a call
    /// can be made to, then answering without one), each to the end, with the meaning of
    /// every tool when the model has an embedder: what its choice rests on, for a user who
    /// asks why it chose as it did. The option with the highest score is the router's choice,
    /// save that with more than [`ROUTER_CANDIDATES`] tools and meaning the router asks the
    /// model only about those with the best prior (the score without the likelihood).
    pub fn explain_route(&self, request: &ModelRequest<'_>) -> Result<Vec<RouteOption>, LocalError> {
        let spans = request_spans(request, &conversation_text(request.instructions, request.messages));
        let tools: Vec<Arc<ToolDefinition>> =
            self.usable_tools(request.tools).into_iter().filter(|t| chat::fillable(t, &spans)).collect();
        let text = last_user_text(request.messages);
        let evidence = Evidence::of(&text, &spans);
        let none_bias = match self.router {
            Router::Classify { none_bias } => none_bias,
            Router::FirstToken { .. } => DEFAULT_NONE_BIAS,
        };
        self.weigh(&tools, &text, none_bias, &evidence, true)
    }

    /// What the meaning of `request` and of `tools` says (see [`Meant`]), when the model has
    /// an embedder and it works (a failure is logged, and the model weighs alone).
    fn meaning_of(&self, tools: &[Arc<ToolDefinition>], request: &str) -> Option<Meant> {
        let meaning = self.meaning.as_ref()?;
        let vectors = self.tool_vectors(tools)?;
        let query = match meaning.embedder.embed_query(request) {
            Ok(query) => query,
            Err(error) => {
                tracing::warn!(%error, "the router weighs without meaning");
                return None;
            }
        };
        let name = meaning.embedder.name();
        let situated = crate::situated::situated(name, &query);
        let timely = situated.and_then(|p| {
            vectors
                .iter()
                .map(|v| crate::situated::situated(name, v).map(|q| p * q))
                .collect::<Option<Vec<f32>>>()
        });
        Some(Meant {
            closeness: vectors.iter().map(|v| tackle_core::similarity(&query, v)).collect(),
            situated,
            timely,
        })
    }

    /// The vectors of the meaning of `tools` (`None` without an embedder or tools, or where
    /// they do not embed), embedding those not seen before.
    fn tool_vectors(&self, tools: &[Arc<ToolDefinition>]) -> Option<Vec<Vec<f32>>> {
        let meaning = self.meaning.as_ref()?;
        if tools.is_empty() {
            return None;
        }
        let texts: Vec<String> = tools.iter().map(|t| tackle_core::tool_meaning(t)).collect();
        // The tools' vectors, embedding those not seen before; the lock is not held while
        // the query is embedded.
        let vectors: Vec<Vec<f32>> = {
            let mut known = meaning.tools.lock().unwrap_or_else(|p| p.into_inner());
            let mut missing: Vec<&str> =
                texts.iter().map(String::as_str).filter(|t| !known.contains_key(*t)).collect();
            missing.sort_unstable();
            missing.dedup();
            if !missing.is_empty() {
                let embedded = meaning.embedder.embed(&missing);
                match embedded {
                    Ok(vectors) if vectors.len() == missing.len() => {
                        if known.len() + missing.len() > MEANINGS_KEPT {
                            known.clear();
                        }
                        known.extend(missing.iter().map(|t| (*t).to_owned()).zip(vectors));
                    }
                    Ok(vectors) => {
                        tracing::warn!(
                            embedder = meaning.embedder.name(),
                            expected = missing.len(),
                            got = vectors.len(),
                            "the router weighs without meaning: the embedder returned another number of vectors"
                        );
                        return None;
                    }
                    Err(error) => {
                        tracing::warn!(%error, "the router weighs without meaning: the tools did not embed");
                        return None;
                    }
                }
            }
            texts.iter().map(|t| known.get(t).cloned().unwrap_or_default()).collect()
        };
        Some(vectors)
    }

    /// The tools whose calls can be constrained (a schema the grammar engine cannot compile
    /// is left out rather than called unconstrained).
    fn usable_tools(&self, tools: &[Arc<ToolDefinition>]) -> Vec<Arc<ToolDefinition>> {
        tools
            .iter()
            .map(plain_tool)
            .filter(|tool| {
                let grammar = chat::grammar(&[tool.as_ref()], false, &chat::Spans::default());
                let mut checked = self.checked.lock().unwrap_or_else(|p| p.into_inner());
                // Each grammar is compiled once: tools repeat on every round.
                *checked.entry(grammar.clone()).or_insert_with(|| match self.engine.check_grammar(&grammar) {
                    Ok(()) => true,
                    Err(error) => {
                        tracing::warn!(tool = %tool.name, %error, "the local model cannot constrain this tool's calls; not offering it");
                        false
                    }
                })
            })
            .collect()
    }

    /// Generates the turn for `request`, sending text as it comes.
    fn run(
        &self,
        request: Plan,
        emit: &mut dyn FnMut(ModelEvent) -> bool,
    ) -> Result<(AssistantTurn, Generated, Duration), LocalError> {
        let Plan {
            instructions,
            turns,
            mut shown,
            constraint,
            max_tokens,
            call_tokens,
            tools,
            source,
            ground,
            parameters,
        } = request;
        let started = Instant::now();
        let (constraint, router_choice) = match constraint {
            Constraint::Route { request, none_bias, tools, spans } => {
                let evidence = Evidence::of(&request, &spans);
                let choice = self.route(&tools, &request, none_bias, &evidence)?;
                let name = choice.map_or(chat::NO_TOOL.to_owned(), |i| tools[i].name.clone());
                let constraint = match choice {
                    Some(i) => {
                        shown = vec![Arc::clone(&tools[i])];
                        Constraint::Only(chat::grammar(&[tools[i].as_ref()], false, &spans))
                    }
                    None => Constraint::Only(chat::grammar(&[], true, &spans)),
                };
                (constraint, Some(name))
            }
            other => (other, None),
        };
        let routing = started.elapsed();
        let prompt = self.prompt(&instructions, &shown, &turns)?;
        let tokens = self.engine.vocabulary.encode(&prompt)?;
        // Text streams as it comes; a call is sent whole once it is complete (the engine keeps
        // its text).
        let streams_text = match &constraint {
            Constraint::None => true,
            Constraint::Only(grammar) => !grammar.starts_with("start: call"),
            Constraint::Choose { .. } | Constraint::Route { .. } => true,
        };
        let mut first = true;
        let mut is_call = !streams_text;
        let mut forward = |text: &str| {
            if first {
                first = false;
                // Under `Choose`, only a call starts with `{` (answers may not).
                is_call |=
                    matches!(constraint, Constraint::Choose { .. }) && text.trim_start().starts_with('{');
            }
            is_call || emit(ModelEvent::TextDelta(text.to_owned()))
        };
        let generated =
            self.engine.generate(&tokens, &constraint, &source, (max_tokens, call_tokens), &mut forward)?;
        let mut turn = AssistantTurn { model_name: Some(self.name.clone()), ..AssistantTurn::default() };
        turn.usage = Usage::default()
            .requests(1)
            .input_tokens(generated.prompt_tokens as u64)
            .output_tokens(generated.output_tokens as u64)
            .cache_read_tokens(generated.cached_tokens as u64);
        if generated.call {
            let value: Value = serde_json::from_str(generated.text.trim()).map_err(|e| {
                LocalError::Generation(format!("the constrained call is not JSON ({e}): {}", generated.text))
            })?;
            let name = value.get("name").and_then(Value::as_str).unwrap_or_default().to_owned();
            if !tools.iter().any(|t| t == &name) {
                return Err(LocalError::Generation(format!(
                    "the model called {name:?}, which was not offered"
                )));
            }
            let mut arguments = value.get("arguments").cloned().unwrap_or(Value::Object(Default::default()));
            // Optional arguments the conversation gives no ground for are the model's
            // invention: the tool's default is the better guess.
            if let Some((_, schema)) = parameters.iter().find(|(tool, _)| *tool == name) {
                let mut dropped = ground.prune(&mut arguments, schema);
                dropped.extend(source.settle(&name, &mut arguments, schema));
                if !dropped.is_empty() {
                    tracing::debug!(tool = %name, ?dropped, "optional arguments without ground left out or moved");
                }
            }
            let id = format!("call_{}", fastrand_id());
            emit(ModelEvent::ToolCallDelta {
                index: 0,
                id: Some(id.clone()),
                name: Some(name.clone()),
                arguments: arguments.to_string(),
            });
            turn.parts.push(AssistantPart::ToolCall(ToolCall::new(id, name, arguments)));
            turn.finish_reason = Some(FinishReason::ToolCalls);
        } else {
            turn.parts.push(AssistantPart::Text(generated.text.clone()));
            turn.finish_reason =
                Some(if generated.truncated { FinishReason::Length } else { FinishReason::Stop });
        }
        let mut generated = generated;
        generated.router_choice = router_choice;
        Ok((turn, generated, routing))
    }

    /// The prompt: the system text listing `shown`, then `turns`, the assistant's turn opened.
    fn prompt(
        &self,
        instructions: &str,
        shown: &[Arc<ToolDefinition>],
        turns: &[(&'static str, String)],
    ) -> Result<String, LocalError> {
        let mut messages = vec![("system", chat::system_text(instructions, shown))];
        messages.extend(turns.iter().cloned());
        self.template.render(&messages, true)
    }

    fn plan(&self, request: &ModelRequest<'_>) -> Result<Plan, LocalError> {
        let offered = if request.settings.tool_choice == ToolChoice::None {
            Vec::new()
        } else {
            self.usable_tools(request.tools)
        };
        // The conversation after the system text, which lists only the tools the model may
        // call in this turn (see `Plan::prompt`).
        let mut turns = chat::conversation("", request.messages);
        turns.remove(0);
        let max_tokens =
            request.settings.max_output_tokens.map_or(self.max_tokens, |n| n as usize).min(self.max_tokens);
        // A call must complete to be valid: it gets at least the call budget.
        let call_tokens = max_tokens.max(CALL_BUDGET);
        let names: Vec<String> = offered.iter().map(|t| t.name.clone()).collect();
        // What the user wrote that a call may copy (the latest message's first).
        let conversation = conversation_text(request.instructions, request.messages);
        let spans = request_spans(request, &conversation);
        let refs: Vec<&ToolDefinition> = offered.iter().map(|t| t.as_ref()).collect();
        // One call per user message: once the model has a tool result to answer from, it
        // answers (a small model asked again tends to call again).
        let answered_by_tool = matches!(
            request.messages.last(),
            Some(Message::User { parts }) if parts.iter().any(|p| matches!(p, UserPart::ToolReturn(_)))
        );
        let (constraint, shown) = match &request.settings.tool_choice {
            _ if offered.is_empty() => (Constraint::None, Vec::new()),
            // An answer from the result, which may not look like a call.
            _ if answered_by_tool => (Constraint::Only(chat::grammar(&[], true, &spans)), Vec::new()),
            ToolChoice::None => (Constraint::None, Vec::new()),
            ToolChoice::Required => (Constraint::Only(chat::grammar(&refs, false, &spans)), offered.clone()),
            ToolChoice::Tool(name) => {
                let Some(tool) = offered.iter().find(|t| &t.name == name) else {
                    return Err(LocalError::Generation(format!("the forced tool {name:?} is not offered")));
                };
                // The whole catalog in view: with the forced tool alone, the development
                // part's forced calls were right less often (verbatim 0.79 -> 0.76).
                (Constraint::Only(chat::grammar(&[tool.as_ref()], false, &spans)), offered.clone())
            }
            ToolChoice::Auto => match self.router {
                Router::FirstToken { call_bias } => (
                    Constraint::Choose {
                        answer: chat::grammar(&[], true, &spans),
                        call: chat::grammar(&refs, false, &spans),
                        bias: call_bias,
                    },
                    offered.clone(),
                ),
                // Decided on the generation thread, before the first token.
                // A tool that needs what the conversation never wrote (an address, a number,
                // an identifier, a place; `chat::fillable`) is not a candidate.
                // The system text shows what the router chose (see `run`).
                Router::Classify { none_bias } => (
                    Constraint::Route {
                        request: last_user_text(request.messages),
                        none_bias,
                        tools: offered.iter().filter(|t| chat::fillable(t, &spans)).cloned().collect(),
                        spans: spans.clone(),
                    },
                    Vec::new(),
                ),
            },
        };
        let ground = Ground::new(&conversation);
        let parameters: Vec<(String, Value)> =
            offered.iter().map(|t| (t.name.clone(), t.parameters.to_value())).collect();
        let source = CopySource::new(&user_text(request.messages)).with_parameters(&parameters);
        Ok(Plan {
            instructions: request.instructions.to_owned(),
            turns,
            shown,
            constraint,
            max_tokens,
            call_tokens,
            tools: names,
            source,
            ground,
            parameters,
        })
    }
}

/// `tool` with its parameters as the local model reads them ([`crate::plain`]): what the
/// model is shown, the router's evidence, the spans a call copies and its grammar all read
/// `enum`, `type` and `format` where they stand. The call stays valid against the tool's
/// own schema.
fn plain_tool(tool: &Arc<ToolDefinition>) -> Arc<ToolDefinition> {
    let plain = crate::plain::plain(tool.parameters.as_map()).and_then(|map| JsonSchema::from_map(map).ok());
    match plain {
        Some(parameters) => {
            let mut tool = ToolDefinition::clone(tool);
            tool.parameters = parameters;
            Arc::new(tool)
        }
        None => tool.clone(),
    }
}

/// How the classifying router weighed one option of a request (see
/// [`LocalModel::explain_route`]).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct RouteOption {
    /// The tool, or `None` for answering without one.
    pub tool: Option<String>,
    /// The log-likelihood of the request's first tokens after the option's description.
    pub likelihood: Option<f32>,
    /// How close the tool's description is to the request in meaning (a cosine), with an
    /// embedder; `None` for no tool.
    pub closeness: Option<f32>,
    /// A required argument of the tool copies what the user wrote (an address, a path).
    pub fills: bool,
    /// The tool needs a path the user never wrote.
    pub lacks_path: bool,
    /// How many words of the request the tool uses to say what it does (its name,
    /// description, parameters).
    pub shared_words: usize,
    /// The tool changes things where the request asks to be shown something, or only reads
    /// where it asks for a change.
    pub wrong_effect: bool,
    /// For no tool: the request asks about the present or for a search.
    pub current: bool,
    /// For no tool, with the embedder the router learned it over: the probability that the
    /// request's answer depends on when it is asked (the model's own knowledge cannot answer
    /// it).
    pub situated: Option<f32>,
    /// For a tool, with that embedder: the probability that the request's answer depends on
    /// when it is asked, times the same reading of the tool's own description (how much it
    /// speaks of what changes: news, prices, the weather, searching).
    pub timely: Option<f32>,
    /// What the router adds up; the highest decides.
    pub score: Option<f32>,
}

/// What the request says besides its likelihoods: what the user wrote that a tool's
/// arguments copy (an address, a path, text to match), whether it asks for a change or to be
/// shown something, whether it asks about the present.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Evidence<'a> {
    request: &'a str,
    spans: &'a chat::Spans,
    current: bool,
    asks_change: Option<bool>,
}

impl<'a> Evidence<'a> {
    fn of(request: &'a str, spans: &'a chat::Spans) -> Evidence<'a> {
        Evidence {
            request,
            spans,
            current: chat::asks_for_current(request),
            asks_change: tackle_core::asks_to_change(request),
        }
    }

    /// Whether `tool` changes things where the request only asks to be shown something, or
    /// only reads where it asks for a change.
    fn wrong_effect(&self, tool: &ToolDefinition) -> bool {
        matches!((self.asks_change, tackle_core::changes_things(tool)), (Some(asked), Some(does)) if asked != does)
    }
}

/// What the router reads from the meaning of a request and of the offered tools.
#[derive(Debug, Clone)]
struct Meant {
    /// How close each tool's description is to the request (a cosine), in order.
    closeness: Vec<f32>,
    /// The probability that the request's answer depends on when it is asked
    /// (`crate::situated`; `None` for an embedder it was not learned over).
    situated: Option<f32>,
    /// Per tool, in order: that probability times the same head's reading of the tool's own
    /// description (a tool that speaks of news, prices, the weather, searching).
    timely: Option<Vec<f32>>,
}

/// The options of a request (each of `tools`, then no tool) with what the request
/// (`evidence`) and the tools' meaning say of each; likelihoods and scores are left for the model.
fn route_options(
    tools: &[Arc<ToolDefinition>],
    evidence: &Evidence<'_>,
    meant: Option<&Meant>,
) -> Vec<RouteOption> {
    let closeness = meant.map(|m| m.closeness.as_slice()).filter(|c| c.len() == tools.len());
    let timely = meant.and_then(|m| m.timely.as_deref()).filter(|t| t.len() == tools.len());
    let asked = chat::content_stems(evidence.request);
    tools
        .iter()
        .enumerate()
        .map(|(i, tool)| RouteOption {
            tool: Some(tool.name.clone()),
            likelihood: None,
            closeness: closeness.map(|c| c[i]),
            fills: chat::fills_from_request(tool, evidence.spans),
            lacks_path: chat::lacks_path(tool, evidence.spans),
            shared_words: chat::shared_words(tool, &asked),
            wrong_effect: evidence.wrong_effect(tool),
            current: false,
            situated: None,
            timely: timely.map(|t| t[i]),
            score: None,
        })
        .chain(std::iter::once(RouteOption {
            tool: None,
            likelihood: None,
            closeness: None,
            fills: false,
            lacks_path: false,
            shared_words: 0,
            wrong_effect: false,
            current: evidence.current,
            situated: meant.and_then(|m| m.situated),
            timely: None,
            score: None,
        }))
        .collect()
}

/// The most shared words ([`RouteOption::shared_words`]) that count: one. More said no
/// more on the development sets (counting up to 2 or 3 scored lower by five-fold and by
/// leave-one-catalog-out, `data/route_weights.py`): a long request repeats a tool's
/// vocabulary whether or not it wants the tool.
const SHARED_WORDS_COUNTED: usize = 1;

/// The weights of the classifying router's one decision: an option's score is the
/// request's log-likelihood after the option's description, times `likelihood`, plus what
/// the request and the tools' meaning say of it (see [`RouteOption`]), each times its
/// weight. Nothing is keyed on a tool's name, so they hold for tools nobody here has seen.
///
/// Learned as a conditional logit by `data/route_weights.py` from the development part of
/// the decision sets in `data/` (five catalogs: the CLI's web tools, the environment's
/// tools, an assistant's, 36 tools of three MCP servers, and BFCL's real requests with their
/// own catalogs), dumped by `tackle-bench local --explain`; the held-out third was not read.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct RouteWeights {
    likelihood: f32,
    /// Per unit of cosine the tool falls short of the closest tool.
    closeness_gap: f32,
    /// Per unit of cosine.
    closeness: f32,
    fills: f32,
    lacks_path: f32,
    /// Per word the request and the tool share, up to [`SHARED_WORDS_COUNTED`] (one: the
    /// tool shares a word of the request).
    shared_words: f32,
    wrong_effect: f32,
    /// Answering without a tool.
    none: f32,
    /// Answering without a tool when the request asks about the present.
    current: f32,
    /// Answering without a tool, per unit of the probability that the request's answer
    /// depends on when it is asked ([`RouteOption::situated`]).
    situated: f32,
    /// A tool, per unit of [`RouteOption::timely`].
    timely: f32,
}

impl RouteWeights {
    /// With an embedder: learned (on the development part, 320 requests since the CLI's set
    /// grew: five-fold 0.778, leave-one-catalog-out 0.716; without `situated` and `timely`,
    /// 0.778 and 0.744), save `timely`, whose learned 1.739 was
    /// raised to 3 (of 1.739, 3 and 5, the most right decisions on the development part: 254,
    /// 259 and 252 of 320; the web searches of the CLI's catalog 14, 19 and 21 of 24).
    pub(crate) const WITH_MEANING: RouteWeights = RouteWeights {
        likelihood: 0.174,
        closeness_gap: 8.186,
        closeness: 3.007,
        fills: 3.959,
        lacks_path: -1.885,
        shared_words: 1.651,
        wrong_effect: -3.893,
        none: 2.125,
        current: -1.119,
        situated: -0.453,
        timely: 3.0,
    };
    /// Without one: chosen by hand on the development parts of `data/decisions-cli.jsonl`
    /// (addresses and the present), `-env` (paths) and `-env`, `-assistant`, `-cli` (effects),
    /// and kept: the weights learned without meaning did no better on the development part
    /// (five-fold 0.676, as these) and worse on `tackle-bench local`'s 50 prompts. (With the
    /// shared words, learned ones score five-fold 0.700; not yet tried on the 50 prompts, so
    /// the shared words weigh nothing here.)
    pub(crate) const WITHOUT_MEANING: RouteWeights = RouteWeights {
        likelihood: 1.0,
        closeness_gap: 0.0,
        closeness: 0.0,
        fills: 5.0,
        lacks_path: -3.0,
        shared_words: 0.0,
        wrong_effect: -3.0,
        none: 0.0,
        current: -3.0,
        situated: 0.0,
        timely: 0.0,
    };

    /// What `option` scores before its likelihood (`closest`: the closest tool's cosine).
    fn prior(&self, option: &RouteOption, closest: f32) -> f32 {
        let flag = |on: bool, weight: f32| if on { weight } else { 0.0 };
        match option.tool {
            None => {
                self.none
                    + flag(option.current, self.current)
                    + self.situated * option.situated.unwrap_or(0.0)
            }
            Some(_) => {
                let meant =
                    option.closeness.map_or(0.0, |c| self.closeness_gap * (c - closest) + self.closeness * c);
                meant
                    + flag(option.fills, self.fills)
                    + flag(option.lacks_path, self.lacks_path)
                    + self.shared_words * option.shared_words.min(SHARED_WORDS_COUNTED) as f32
                    + flag(option.wrong_effect, self.wrong_effect)
                    + self.timely * option.timely.unwrap_or(0.0)
            }
        }
    }
}

/// What a request's user wrote that a call may copy ([`user_spans`]), and whether anything
/// in its `conversation` ([`conversation_text`]: the instructions, an earlier tool's
/// result, an earlier call) writes an identifier a call may need (`started bg1`; see
/// [`chat::writes_identifier`]).
fn request_spans(request: &ModelRequest<'_>, conversation: &str) -> chat::Spans {
    let mut spans = user_spans(request.messages);
    // The conversation holds what the user wrote too.
    spans.identifiers = chat::writes_identifier(conversation);
    spans
}

/// What the user wrote that a call may copy (addresses, paths, terms), the latest
/// message's first.
fn user_spans(messages: &[Message]) -> chat::Spans {
    let mut spans = chat::Spans::default();
    for message in messages.iter().rev() {
        if let Message::User { parts } = message {
            for text in text_parts(parts) {
                spans.extend(chat::Spans::of(text));
            }
        }
    }
    spans
}

/// The text parts of a user message (not tool results).
fn text_parts(parts: &[UserPart]) -> impl Iterator<Item = &str> {
    parts.iter().filter_map(|p| match p {
        UserPart::Text(t) => Some(t.as_str()),
        UserPart::ToolReturn(_) => None,
    })
}

/// Everything the user wrote (not tool results), the latest message first.
fn user_text(messages: &[Message]) -> String {
    let texts: Vec<&str> = messages
        .iter()
        .rev()
        .filter_map(|m| match m {
            Message::User { parts } => Some(text_parts(parts)),
            _ => None,
        })
        .flatten()
        .collect();
    texts.join("\n")
}

/// Everything the conversation says: the instructions, what the user wrote, the tools'
/// results, the model's own text and the arguments of its earlier calls (what a call's
/// arguments may be grounded in).
fn conversation_text(instructions: &str, messages: &[Message]) -> String {
    let mut text = instructions.to_owned();
    for message in messages {
        match message {
            Message::System { text: system } => text.push_str(system),
            Message::User { parts } => {
                for part in parts {
                    text.push('\n');
                    text.push_str(match part {
                        UserPart::Text(t) => t,
                        UserPart::ToolReturn(r) => &r.content,
                    });
                }
            }
            Message::Assistant(turn) => {
                text.push_str(&turn.joined_text());
                for call in turn.tool_calls() {
                    text.push('\n');
                    text.push_str(&call.arguments.raw_text());
                }
            }
        }
        text.push('\n');
    }
    text
}

/// The text of the conversation's last user message.
fn last_user_text(messages: &[Message]) -> String {
    messages
        .iter()
        .rev()
        .find_map(|m| match m {
            Message::User { parts } => Some(text_parts(parts).collect::<Vec<_>>().join("\n")),
            _ => None,
        })
        .unwrap_or_default()
}

/// The most tools whose router prompts [`LocalModel::prefill`] processes (each some 40
/// tokens, and with an embedder a request weighs only [`ROUTER_CANDIDATES`] of them, so a
/// larger catalog's are processed as they are first weighed).
const ROUTES_WARMED: usize = 8;

/// Request tokens the router reads (the start of a request carries what it is about).
const ROUTER_TOKENS: usize = 12;

/// With an embedder, how many of the closest tools the model weighs (with "no tool").
pub const ROUTER_CANDIDATES: usize = 4;

/// The options the router weighs, as indices (`n`: no tool): all of them, or with meaning
/// the [`ROUTER_CANDIDATES`] tools with the best prior (what their features say before the
/// model is asked), in catalog order, and no tool.
fn candidates(meaning: bool, n: usize, priors: &[f32]) -> Vec<usize> {
    if !meaning || n <= ROUTER_CANDIDATES || priors.len() != n + 1 {
        return (0..=n).collect();
    }
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| priors[b].total_cmp(&priors[a]).then(a.cmp(&b)));
    order.truncate(ROUTER_CANDIDATES);
    order.sort_unstable();
    order.push(n);
    order
}

/// Tokens a call may take (its strings are bounded, so it completes within this).
const CALL_BUDGET: usize = 400;

/// One request, ready to generate.
struct Plan {
    /// The round's instructions, and the conversation after the system text.
    instructions: String,
    turns: Vec<(&'static str, String)>,
    /// The tools the system text lists: every offered tool for a forced or required call
    /// and for the first-token router, none for an answer, and for the classifying router
    /// the one it chose (set once it has).
    shown: Vec<Arc<ToolDefinition>>,
    constraint: Constraint,
    max_tokens: usize,
    call_tokens: usize,
    tools: Vec<String>,
    /// What the user wrote, which a call's values lean towards copying.
    source: CopySource,
    /// What the call's optional arguments must be grounded in, and each offered tool's
    /// parameters.
    ground: Ground,
    parameters: Vec<(String, Value)>,
}

fn fastrand_id() -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(1);
    format!("{:06}", NEXT.fetch_add(1, Ordering::Relaxed))
}

fn model_error(error: LocalError) -> ModelError {
    ModelError::new(ModelErrorKind::Server, format!("the local model failed: {error}"))
}

impl Model for LocalModel {
    fn name(&self) -> &str {
        &self.name
    }

    fn profile(&self) -> &ModelProfile {
        &self.profile
    }

    fn stream<'a>(&'a self, request: ModelRequest<'a>) -> ModelStream<'a> {
        let plan = match self.plan(&request) {
            Ok(plan) => plan,
            Err(error) => return futures_util::stream::once(async move { Err(model_error(error)) }).boxed(),
        };
        let (sender, receiver) = tokio::sync::mpsc::unbounded_channel();
        let this = self.clone();
        let worker = tokio::task::spawn_blocking(move || {
            let started = Instant::now();
            let mut emit = |event: ModelEvent| sender.send(Ok(event)).is_ok();
            match this.run(plan, &mut emit) {
                Ok((turn, generated, routing)) => {
                    *this.stats.lock().unwrap_or_else(|p| p.into_inner()) = Stats {
                        router_choice: generated.router_choice.clone(),
                        prompt_tokens: generated.prompt_tokens,
                        cached_tokens: generated.cached_tokens,
                        output_tokens: generated.output_tokens,
                        routing,
                        prefill: generated.prefill,
                        decode: generated.decode,
                        router_margin: generated.router_margin,
                    };
                    tracing::debug!(elapsed = ?started.elapsed(), "local generation done");
                    let _ = sender.send(Ok(ModelEvent::Usage(turn.usage)));
                    let _ = sender.send(Ok(ModelEvent::Completed(ModelResponse { turn })));
                }
                Err(error) => {
                    let _ = sender.send(Err(model_error(error)));
                }
            }
        });
        drop(worker);
        futures_util::stream::unfold(receiver, |mut receiver| async move {
            receiver.recv().await.map(|item| (item, receiver))
        })
        .boxed()
    }

    /// [`LocalModel::prefill`] on a blocking thread.
    fn warm<'a>(&'a self, instructions: &'a str, tools: &'a [Arc<ToolDefinition>]) -> WarmUp<'a> {
        let (this, instructions, tools) = (self.clone(), instructions.to_owned(), tools.to_vec());
        Box::pin(async move {
            tokio::task::spawn_blocking(move || this.prefill(&instructions, &tools))
                .await
                .map_err(|e| {
                    ModelError::new(ModelErrorKind::Server, format!("the local model stopped: {e}"))
                })?
                .map_err(model_error)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_model_is_shown_an_enumeration_behind_a_reference() {
        // `grep`'s `output_mode` as schemars writes it: a `$ref` to a `oneOf` of constants.
        let schema = serde_json::json!({
            "type": "object",
            "properties": {
                "pattern": {"type": "string"},
                "path": {"type": ["string", "null"], "default": null},
                "output_mode": {"$ref": "#/$defs/OutputMode", "default": "content"}
            },
            "required": ["pattern"],
            "$defs": {"OutputMode": {"oneOf": [
                {"description": "Matching lines.", "type": "string", "const": "content"},
                {"description": "The files that match.", "type": "string", "const": "count"}
            ]}}
        });
        let grep = Arc::new(ToolDefinition::new("grep", "Search files.", JsonSchema::new(schema).unwrap()));
        let plain = plain_tool(&grep);
        let text = chat::system_text("Be brief.", std::slice::from_ref(&plain));
        assert!(text.contains(r#""output_mode": "content" | "count""#), "{text}");
        assert!(text.contains(r#""path": string"#), "{text}");
        // A tool already plain is the same definition.
        assert!(Arc::ptr_eq(&plain_tool(&plain), &plain));
        // The grammar names the values where the tool wrote a reference.
        let grammar = chat::grammar(&[plain.as_ref()], false, &chat::Spans::default());
        assert!(grammar.contains("count") && !grammar.contains("$ref"), "{grammar}");
    }

    #[test]
    fn arguments_may_be_grounded_in_anything_the_conversation_says() {
        use tackle_core::{ToolCall, ToolReturnPart};
        let result = ToolReturnPart {
            call_id: "c1".into(),
            tool_name: "web_search".into(),
            content: "1. https://example.org/guide (next page: cursor-7)".into(),
            status: tackle_core::ToolStatus::Ok,
            attachments: Vec::new(),
        };
        let mut turn = AssistantTurn::default();
        turn.parts.push(AssistantPart::Text("Found 12 results in Fahrenheit.".into()));
        turn.parts.push(AssistantPart::ToolCall(ToolCall::new(
            "c1",
            "web_search",
            serde_json::json!({"query": "rust guide", "region": "de-DE"}),
        )));
        let messages = vec![
            Message::user("search the guide"),
            Message::Assistant(turn),
            Message::User { parts: vec![UserPart::ToolReturn(result)] },
            Message::user("next page please"),
        ];
        let text = conversation_text("Answer in metric units.", &messages);
        for said in ["metric", "search the guide", "12 results", "de-DE", "cursor-7", "next page please"] {
            assert!(text.contains(said), "{said:?} in {text:?}");
        }
        let schema = serde_json::json!({"type": "object", "properties": {
            "cursor": {"type": "string"}, "units": {"type": "string", "enum": ["metric", "imperial"]}}});
        let mut arguments = serde_json::json!({"cursor": "cursor-7", "units": "metric"});
        assert!(Ground::new(&text).prune(&mut arguments, &schema).is_empty(), "a result's value is ground");
    }

    #[test]
    fn an_identifier_a_tool_result_gave_makes_a_call_that_needs_one_fillable() {
        let started = tackle_core::ToolReturnPart {
            call_id: "c1".into(),
            tool_name: "start_command".into(),
            content: "started bg1 (pid 4242): npm run dev".into(),
            status: tackle_core::ToolStatus::Ok,
            attachments: Vec::new(),
        };
        let settings = tackle_core::ModelSettings::default();
        let alone = vec![Message::user("now stop it")];
        let request = ModelRequest::new("", &alone, &[], &settings);
        let spans = request_spans(&request, &conversation_text(request.instructions, request.messages));
        assert!(!spans.identifiers, "nothing shaped like an id was written");
        let after = vec![
            Message::user("start the dev server"),
            Message::User { parts: vec![UserPart::ToolReturn(started)] },
            Message::user("now stop it"),
        ];
        let request = ModelRequest::new("", &after, &[], &settings);
        let spans = request_spans(&request, &conversation_text(request.instructions, request.messages));
        assert!(spans.identifiers, "the result named bg1");
        assert!(user_spans(&after).paths.is_empty(), "what the user may copy is still only what they wrote");
    }

    #[test]
    fn the_tools_with_the_best_prior_are_weighed_with_no_tool() {
        // Without meaning, or with few tools, every option.
        assert_eq!(candidates(false, 6, &[0.0; 7]), [0, 1, 2, 3, 4, 5, 6]);
        assert_eq!(candidates(true, 3, &[0.1, 0.9, 0.3, 0.0]), [0, 1, 2, 3]);
        // With more tools than candidates, the best in catalog order, then no tool.
        let priors = [0.1, 0.5, 0.2, 0.7, 0.05, 0.6, -9.0];
        assert_eq!(candidates(true, 6, &priors), [1, 2, 3, 5, 6]);
        // Priors of another length are not trusted.
        assert_eq!(candidates(true, 6, &[0.5; 4]), [0, 1, 2, 3, 4, 5, 6]);
    }

    fn tool(name: &str, parameters: serde_json::Value) -> Arc<ToolDefinition> {
        Arc::new(ToolDefinition::new(name, "A tool.", tackle_core::JsonSchema::new(parameters).unwrap()))
    }

    /// The features of each option of `request` (the last: no tool), as
    /// `(fills, lacks_path, wrong_effect, current)`.
    fn features(tools: &[Arc<ToolDefinition>], request: &str) -> Vec<(bool, bool, bool, bool)> {
        let spans = chat::Spans::of(request);
        let evidence = Evidence::of(request, &spans);
        route_options(tools, &evidence, None)
            .iter()
            .map(|o| (o.fills, o.lacks_path, o.wrong_effect, o.current))
            .collect()
    }

    #[test]
    fn the_request_says_which_tool_it_fills_and_whether_it_asks_about_the_present() {
        let tools = vec![
            tool(
                "read",
                serde_json::json!({"type": "object", "properties": {"url": {"type": "string", "format": "uri"}}, "required": ["url"]}),
            ),
            tool(
                "search",
                serde_json::json!({"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}),
            ),
        ];
        const NOTHING: (bool, bool, bool, bool) = (false, false, false, false);
        assert_eq!(
            features(&tools, "what's new on https://example.com/blog today"),
            [(true, false, false, false), NOTHING, (false, false, false, true)]
        );
        // Writing something asks for no tool that only reads.
        assert_eq!(
            features(&tools, "write a poem"),
            [(false, false, true, false), (false, false, true, false), NOTHING]
        );
        assert_eq!(features(&tools, "a poem about the sea"), [NOTHING; 3]);
        // A path the user wrote fills the tools whose required argument takes one; with no
        // path written, such a tool would invent it.
        let files = vec![
            tool(
                "read_file",
                serde_json::json!({"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}),
            ),
            tool(
                "run",
                serde_json::json!({"type": "object", "properties": {"program": {"type": "string"}}, "required": ["program"]}),
            ),
        ];
        assert_eq!(features(&files, "show me src/main.rs"), [(true, false, false, false), NOTHING, NOTHING]);
        assert_eq!(features(&files, "what is 17 * 23"), [(false, true, false, false), NOTHING, NOTHING]);
        // A tool that changes things where the request asks to be shown something, and one
        // that only reads where it asks for a change.
        let edits = vec![
            tool(
                "read_file",
                serde_json::json!({"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}),
            ),
            tool(
                "write_file",
                serde_json::json!({"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}),
            ),
        ];
        assert_eq!(
            features(&edits, "show me notes.md"),
            [(true, false, false, false), (true, false, true, false), NOTHING]
        );
        assert_eq!(
            features(&edits, "write notes.md with a shopping list"),
            [(true, false, true, false), (true, false, false, false), NOTHING]
        );
    }

    #[test]
    fn an_options_prior_adds_its_weighed_features() {
        let weights = RouteWeights {
            likelihood: 1.0,
            closeness_gap: 10.0,
            closeness: 2.0,
            fills: 5.0,
            lacks_path: -3.0,
            shared_words: 0.5,
            wrong_effect: -1.0,
            none: 0.25,
            current: -2.0,
            situated: -3.0,
            timely: 4.0,
        };
        let option = |tool: Option<&str>, closeness: Option<f32>| RouteOption {
            tool: tool.map(str::to_owned),
            likelihood: None,
            closeness,
            fills: true,
            lacks_path: false,
            shared_words: 5,
            wrong_effect: true,
            current: true,
            situated: Some(0.5),
            timely: closeness.map(|_| 0.25),
            score: None,
        };
        // 10 × (0.5 − 0.75) + 2 × 0.5 + 5 + 0.5 (five shared words, counted once) − 1 + 4 × 0.25
        assert!((weights.prior(&option(Some("t"), Some(0.5)), 0.75) - 4.0).abs() < 1e-6);
        // Without meaning, only the request's features.
        assert!((weights.prior(&option(Some("t"), None), 0.0) - 4.5).abs() < 1e-6);
        // No tool: its own weight, the present against it, and its answer depending on the
        // date: 0.25 − 2 − 3 × 0.5.
        assert!((weights.prior(&option(None, None), 0.75) + 3.25).abs() < 1e-6);
    }
}

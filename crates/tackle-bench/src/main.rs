//! Benchmarks for tackle, printed as one JSON object per line.
//!
//! `tackle-bench executor` (the default): R rounds of K calls through the registry and the
//! executor, with two tools — `add(a: int, b: int)` and `echo(text: string)` — whose
//! arguments are validated against their schemas. Call n of a run is `add(n, n+1)` when n is
//! even, else `echo` of a 200-character text. Each round does what a harness does: compute
//! the offer, parse the argument text the model sent, execute the batch, and render every
//! result as the model sees it. 3 warm-up runs, then 20 timed; medians in microseconds.
//!
//! `tackle-bench loop`: the same workload through the whole harness, with a model that
//! returns each round's K calls (as argument text it parses, like an adapter), checks that
//! the previous round's K results reached it — failing the run loudly if not — and answers
//! after R rounds. `tackle-bench loop_events` is the same with a sink that receives every
//! event (`loop` discards them, so the harness skips building per-call events).
//! `loop --spans` keeps the harness's spans in a `tracing-subscriber` registry that exports
//! nothing, `loop --otel` turns them into OpenTelemetry spans with no exporter, and
//! `loop --span-floor` times that registry alone for the spans a run makes (the floor).
//!
//! `tackle-bench extract [--write DIR]`: readable-content extraction over a generated corpus
//! of 240 pages in eight layouts with known main text, once light (text and markup only)
//! and once heavy (with the scripts, styles and icons real pages carry): 4-word shingle
//! precision, recall and F1 over the text (Markdown syntax that is not text left out),
//! pages/s and MB/s (median of 5 passes after 2 warm-ups). `--write DIR` writes the pages
//! to `DIR/light` and `DIR/heavy` with their main texts, for `compare/trafilatura_corpus.py`.
//! `tackle-bench local MODEL.gguf`: the embedded model's speed, memory and tool decisions
//! on 50 prompts (see `local.rs`).
//!
//! `tackle-bench guard --html DIR`: the filter's cost beside extraction, page by page, as
//! `read_web_page` pays it (every field the page gives the model, one batch).
//! `tackle-bench guard --dir DIR`: the prompt-injection filter's MB/s on the `*.txt` files of
//! a directory, each layer alone and the whole check (see `guard.rs`).
//!
//! `tackle-bench wire --base-url URL [--api chat|responses|anthropic|gemini|bedrock] [--stream]
//! [--workload R K]`: the `loop` workload through a real adapter, HTTP and SSE, against a
//! scripted server (`../shared/bench/wire/server` for Chat, or `tackle-bench wire-server`
//! for every API); `--first-token` times what the harness adds to the first text piece.
//! `tackle-bench cold --tackle BIN --base-url URL`: the command line from a cold process
//! (see `wire.rs`).
//!
//! `tackle-bench serve [--database URL] [--concurrency C] [--runs N] [--rounds R] [--workers W]
//! [--connections P] [--model-ms MS] [--servers K] | [--suspended N]`: `tackle-server` under
//! load on loopback (see `serve_load.rs`); `--servers 2` starts a second server process
//! (`serve-node`) on the same PostgreSQL.
//!
//! `tackle-bench suspended`: 10,000 runs suspended on an approval with a 20-message history
//! each, held in one process: memory per run, and per run in SQLite as the CLI saves them.
//!
//! `tackle-bench extract --dir DIR` measures the `*.html` files of any directory instead
//! (quality too for those with a `.txt` beside them), two thirds of them (every third page
//! is held out; `TACKLE_SHOW_HELD_OUT=1` adds its figure), scoring the main text as
//! `Page::text` gives it, and lists the weak development pages (every one with
//! `TACKLE_SHOW_ALL=1`, to compare two versions page by page); `--compare PYTHON` then runs `compare/extract_real.py` with that
//! interpreter (one with trafilatura and readability-lxml installed), on the same pages.
//! `tackle-bench extract --snippets DIR [--part dev|held-out|all]` scores trafilatura's own
//! evaluation (its repository's `tests/`: passages that must and must not be in the main
//! text of 990 pages); `dev` is every third page in URL order (`TACKLE_SHOW=1` lists its
//! misses), `held-out` the other two thirds, never looked at page by page.
//! `tackle-bench extract --modern DIR [--part dev|held-out|test|all]` scores the modern-web
//! benchmark of 2026 (its first release, about a thousand pages of many kinds with their
//! main text, or WCXB v1.0 with its own `dev` and held-out `test` splits; see `modern.rs`)
//! as the article-extraction benchmark scores, shingle precision, recall and F1, and by
//! WCXB's word F1.
#![allow(clippy::print_stdout, clippy::print_stderr)]

/// Prints one line of results to stdout, as `println!` does; a reader that stops early
/// (`| head`) ends the run quietly instead of with a panic.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if let Err(e) = writeln!(std::io::stdout().lock(), $($arg)*) {
            if e.kind() == std::io::ErrorKind::BrokenPipe {
                std::process::exit(0);
            }
            eprintln!("stdout: {e}");
            std::process::exit(1);
        }
    }};
}

mod corpus;
mod env;
mod guard;
mod local;
mod mcp;
mod modern;
mod serve_load;
mod suspend;
mod wire;
mod wire_server;

use std::sync::Arc;
use std::time::Instant;

use futures_util::stream;
use schemars::JsonSchema;
use serde::Deserialize;
use tackle_core::{
    AssistantPart, AssistantTurn, Message, Model, ModelError, ModelErrorKind, ModelEvent, ModelProfile,
    ModelRequest, ModelResponse, ModelStream, ToolCall, ToolReturnPart, ToolStatus, UserPart,
};
use tackle_harness::{Discard, Harness, Limits, RunOutcome};
use tackle_tools::{ExecutionState, Executor, RunContext, ToolContext, ToolError, ToolRegistry, typed_tool};

const WARM_UP: usize = 3;
const TIMED: usize = 20;
const SHAPES: [(usize, usize); 4] = [(10, 1), (10, 8), (100, 4), (10, 4)];

#[derive(Deserialize, JsonSchema)]
struct AddArgs {
    /// The first addend.
    a: i64,
    /// The second addend.
    b: i64,
}

#[derive(Deserialize, JsonSchema)]
struct EchoArgs {
    /// The text to send back.
    text: String,
}

fn registry() -> Result<ToolRegistry, Box<dyn std::error::Error>> {
    Ok(registry_builder()?.build()?)
}

/// `add` and `echo`, for more tools to join.
fn registry_builder() -> Result<tackle_tools::RegistryBuilder, Box<dyn std::error::Error>> {
    let add = typed_tool("add", "Add two integers.", |_ctx: ToolContext, args: AddArgs| async move {
        args.a.checked_add(args.b).ok_or_else(|| ToolError::feedback("the sum overflows"))
    })
    .build()?;
    let echo = typed_tool("echo", "Send the text back.", |_ctx: ToolContext, args: EchoArgs| async move {
        Ok::<_, ToolError>(args.text)
    })
    .build()?;
    Ok(ToolRegistry::builder().tool(add).tool(echo))
}

/// The argument text of every call of a run, as a model would send it.
fn script(rounds: usize, per_round: usize) -> Vec<Vec<(String, &'static str, String)>> {
    let text = "x".repeat(200);
    (0..rounds)
        .map(|r| {
            (0..per_round)
                .map(|k| {
                    let n = r * per_round + k;
                    if n.is_multiple_of(2) {
                        (format!("call_{n}"), "add", format!(r#"{{"a":{n},"b":{}}}"#, n + 1))
                    } else {
                        (format!("call_{n}"), "echo", format!(r#"{{"text":"{text}"}}"#))
                    }
                })
                .collect()
        })
        .collect()
}

async fn one_run(
    registry: &ToolRegistry,
    executor: &Executor,
    run: &Arc<RunContext>,
    script: &[Vec<(String, &'static str, String)>],
) -> usize {
    let mut state = ExecutionState::default();
    let mut seen = 0;
    for round in script {
        let offer = registry.offer(run);
        let calls: Vec<ToolCall> =
            round.iter().map(|(id, name, args)| ToolCall::from_raw(id, *name, args)).collect();
        let outcome = executor.execute(&offer, run, &calls, &mut state).await;
        let parts: Vec<ToolReturnPart> = outcome.returns.iter().map(|r| r.to_part()).collect();
        seen += parts.iter().filter(|p| !p.is_error()).map(|p| p.content.len().min(1)).sum::<usize>();
    }
    seen
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    let mid = values.len() / 2;
    if values.len().is_multiple_of(2) { (values[mid - 1] + values[mid]) / 2.0 } else { values[mid] }
}

fn bench_executor() -> Result<(), Box<dyn std::error::Error>> {
    let registry = registry()?;
    let executor = Executor::new();
    let run = Arc::new(RunContext::new("bench"));
    let runtime = tokio::runtime::Builder::new_current_thread().enable_time().build()?;
    for (rounds, per_round) in SHAPES {
        let script = script(rounds, per_round);
        let mut micros = Vec::with_capacity(TIMED);
        for i in 0..WARM_UP + TIMED {
            let started = Instant::now();
            let ok = runtime.block_on(one_run(&registry, &executor, &run, &script));
            let took = started.elapsed().as_secs_f64() * 1e6;
            if ok != rounds * per_round {
                return Err(format!("only {ok} of {} calls succeeded", rounds * per_round).into());
            }
            if i >= WARM_UP {
                micros.push(took);
            }
        }
        print_line("executor", rounds, per_round, median(&mut micros));
    }
    Ok(())
}

/// Plays the scripted calls, one round per request, and checks the previous round's results.
struct LoopModel {
    script: Vec<Vec<(String, &'static str, String)>>,
    expected: Vec<Vec<String>>,
    profile: ModelProfile,
}

impl LoopModel {
    fn new(script: Vec<Vec<(String, &'static str, String)>>) -> Self {
        let text = "x".repeat(200);
        let expected = script
            .iter()
            .map(|round| {
                round
                    .iter()
                    .map(|(id, name, _)| {
                        let n: u64 = id.trim_start_matches("call_").parse().unwrap_or(0);
                        if *name == "add" { (2 * n + 1).to_string() } else { text.clone() }
                    })
                    .collect()
            })
            .collect();
        LoopModel { script, expected, profile: ModelProfile::default() }
    }

    fn check_previous(&self, round: usize, messages: &[Message]) -> Result<(), String> {
        if round == 0 {
            return Ok(());
        }
        let Some(Message::User { parts }) = messages.last() else {
            return Err(format!("round {round}: the last message is not the previous round's results"));
        };
        let previous = &self.script[round - 1];
        if parts.len() != previous.len() {
            return Err(format!("round {round}: {} results for {} calls", parts.len(), previous.len()));
        }
        for ((part, (id, _, _)), expected) in parts.iter().zip(previous).zip(&self.expected[round - 1]) {
            match part {
                UserPart::ToolReturn(ToolReturnPart { call_id, status: ToolStatus::Ok, content, .. })
                    if call_id == id && content == expected => {}
                other => return Err(format!("round {round}: unexpected result {other:?} for {id}")),
            }
        }
        Ok(())
    }
}

impl Model for LoopModel {
    fn name(&self) -> &str {
        "bench:loop"
    }

    fn profile(&self) -> &ModelProfile {
        &self.profile
    }

    fn stream<'a>(&'a self, request: ModelRequest<'a>) -> ModelStream<'a> {
        let round = request.messages.len() / 2;
        let turn = match self.check_previous(round, request.messages) {
            Err(problem) => {
                return Box::pin(stream::iter([Err(ModelError::new(
                    ModelErrorKind::InvalidRequest,
                    problem,
                ))]));
            }
            Ok(()) => match self.script.get(round) {
                Some(calls) => AssistantTurn {
                    parts: calls
                        .iter()
                        .map(|(id, name, args)| AssistantPart::ToolCall(ToolCall::from_raw(id, *name, args)))
                        .collect(),
                    ..AssistantTurn::default()
                },
                None => AssistantTurn::text("done"),
            },
        };
        Box::pin(stream::iter([Ok(ModelEvent::Completed(ModelResponse { turn }))]))
    }
}

/// Counts events: a sink that listens, so the harness builds every event.
#[derive(Default)]
struct CountingSink(usize);

impl tackle_harness::EventSink for CountingSink {
    fn emit(&mut self, _event: tackle_harness::RunEvent) {
        self.0 += 1;
    }
}

/// A harness over `add` and `echo` whose limits let a run of `rounds` rounds finish.
fn loop_harness(rounds: usize) -> Result<Harness, Box<dyn std::error::Error>> {
    Ok(Harness::new(registry()?).limits(
        Limits::default()
            .max_tool_calls(u32::MAX)
            .max_result_chars(u64::MAX)
            .max_rounds(u32::try_from(rounds + 2)?)
            .max_duration(None),
    ))
}

/// That a workload run answered `done` after running all its `calls`.
fn check_run(
    outcome: RunOutcome,
    state: &tackle_harness::RunState,
    calls: usize,
) -> Result<(), Box<dyn std::error::Error>> {
    match outcome {
        RunOutcome::Answered(answer) if answer.text == "done" => {}
        other => return Err(format!("the run did not answer: {other:?}").into()),
    }
    if state.counters.tool_calls as usize != calls {
        return Err(format!("{} calls ran, {calls} expected", state.counters.tool_calls).into());
    }
    Ok(())
}

/// `loop` discards events; `loop_events` has the harness build and deliver every event.
fn bench_loop(with_events: bool) -> Result<(), Box<dyn std::error::Error>> {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_time().build()?;
    for (rounds, per_round) in SHAPES {
        let harness = loop_harness(rounds)?;
        let model = LoopModel::new(script(rounds, per_round));
        let run = Arc::new(RunContext::new("bench"));
        let mut micros = Vec::with_capacity(TIMED);
        for i in 0..WARM_UP + TIMED {
            let started = Instant::now();
            let mut state = harness.start("bench", vec![Message::user("go")]);
            let mut counting = CountingSink::default();
            let sink: &mut dyn tackle_harness::EventSink =
                if with_events { &mut counting } else { &mut Discard };
            let outcome = runtime.block_on(harness.run(&model, &run, &mut state, sink))?;
            let took = started.elapsed().as_secs_f64() * 1e6;
            check_run(outcome, &state, rounds * per_round)?;
            if i >= WARM_UP {
                micros.push(took);
            }
        }
        print_line(if with_events { "loop_events" } else { "loop" }, rounds, per_round, median(&mut micros));
    }
    Ok(())
}

/// `loop --span-floor`: what the subscriber of `loop --spans` charges for one span's life
/// (created under an entered parent, entered, exited, closed) with the fields the executor's
/// `execute_tool` span carries, and no tackle code around it; then, per loop shape, that
/// cost times the spans a run makes (one run, one per round, one per call): the least any
/// instrumentation with these spans adds under this subscriber.
fn span_floor() -> Result<(), Box<dyn std::error::Error>> {
    const SPANS: u32 = 200_000;
    let one = |name: &str, id: &str| {
        let span = tracing::info_span!(
            "execute_tool",
            "otel.name" = %format_args!("execute_tool {name}"),
            "gen_ai.operation.name" = "execute_tool",
            "gen_ai.tool.name" = name,
            "gen_ai.tool.call.id" = id,
            "gen_ai.tool.type" = "function",
            "error.type" = tracing::field::Empty,
            "otel.status_code" = tracing::field::Empty,
        );
        drop(std::hint::black_box(span.enter()));
    };
    let mut per_span = Vec::with_capacity(7);
    for _ in 0..7 {
        let parent = tracing::info_span!("invoke_agent");
        let _entered = parent.enter();
        let started = Instant::now();
        for _ in 0..SPANS {
            one(std::hint::black_box("add"), std::hint::black_box("call_1"));
        }
        per_span.push(started.elapsed().as_secs_f64() * 1e9 / f64::from(SPANS));
    }
    let ns = median(&mut per_span[2..]);
    for (rounds, per_round) in SHAPES {
        let spans = 1 + rounds + rounds * per_round;
        let line = serde_json::json!({
            "framework": "tracing-subscriber registry",
            "bench": "span_floor",
            "R": rounds,
            "K": per_round,
            "ns_span": (ns * 10.0).round() / 10.0,
            "spans_run": spans,
            "us_run": (ns * spans as f64 / 1e3 * 1000.0).round() / 1000.0,
        });
        out!("{line}");
    }
    Ok(())
}

fn print_line(bench: &str, rounds: usize, per_round: usize, us_run: f64) {
    let line = serde_json::json!({
        "framework": "tackle",
        "bench": bench,
        "R": rounds,
        "K": per_round,
        "us_run": round3(us_run),
        "us_call": round3(us_run / (rounds * per_round) as f64),
        "us_round": round3(us_run / rounds as f64),
    });
    out!("{line}");
}

/// Extraction: quality (4-word shingle precision, recall, F1 against the known main text)
/// and throughput over the generated corpus. With `--write DIR`, the pages and their main
/// texts are written there too, so that other extractors can be measured on them.
fn bench_extract(
    write_to: Option<&str>,
    dir: Option<&str>,
    compare: Option<&str>,
) -> Result<(), Box<dyn std::error::Error>> {
    if let Some(dir) = dir {
        extract_dir(dir)?;
        if let Some(python) = compare {
            compare_python(python, dir)?;
        }
        return Ok(());
    }
    for heavy in [false, true] {
        let dir = write_to.map(|d| format!("{d}/{}", if heavy { "heavy" } else { "light" }));
        extract_corpus(dir.as_deref(), heavy)?;
    }
    Ok(())
}

/// Runs the Python extractors on the same split of `dir` with `python`, their JSON lines
/// passed through.
fn compare_python(python: &str, dir: &str) -> Result<(), Box<dyn std::error::Error>> {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/compare/extract_real.py");
    let mut splits = vec![false];
    if std::env::var_os("TACKLE_SHOW_HELD_OUT").is_some() {
        splits.push(true);
    }
    let dir = std::fs::canonicalize(dir).map_err(|e| format!("{dir}: {e}"))?;
    for held_out in splits {
        let mut command = std::process::Command::new(python);
        command.arg(script).arg(&dir);
        if held_out {
            command.arg("--held-out");
        }
        let status = command
            .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/compare"))
            .status()
            .map_err(|e| format!("cannot run {python}: {e}"))?;
        if !status.success() {
            return Err(format!("{script} failed ({status})").into());
        }
    }
    Ok(())
}

/// The pages of a directory: `NAME.html`, with `NAME.txt` as the main text when present.
fn extract_dir(dir: &str) -> Result<(), Box<dyn std::error::Error>> {
    let mut samples = Vec::new();
    let entries = std::fs::read_dir(dir).map_err(|e| format!("cannot read {dir}: {e}"))?;
    let mut paths: Vec<_> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
    paths.sort();
    let mut names = Vec::new();
    for path in paths.into_iter().filter(|p| p.extension().is_some_and(|e| e == "html" || e == "htm")) {
        let bytes = std::fs::read(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let html = tackle_web::decode(&bytes, Some("text/html"), tackle_web::ContentKind::Html);
        let truth = std::fs::read_to_string(path.with_extension("txt")).ok();
        samples.push(corpus::Sample { html, truth: truth.unwrap_or_default(), layout: "dir" });
        names.push(path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default());
    }
    if samples.is_empty() {
        return Err(format!("no .html files in {dir}").into());
    }
    // Every third page (in name order) is held out: its figure is printed only with
    // TACKLE_SHOW_HELD_OUT set, and its pages are never listed.
    let (mut dev, mut held_out) = (Vec::new(), Vec::new());
    let mut dev_names = Vec::new();
    for (i, (sample, name)) in samples.into_iter().zip(names).enumerate() {
        if i % 3 == 2 {
            held_out.push(sample);
        } else {
            dev.push(sample);
            dev_names.push(name);
        }
    }
    measure(&dev, "extract_dir_dev")?;
    if std::env::var_os("TACKLE_SHOW_HELD_OUT").is_some() {
        measure(&held_out, "extract_dir_held_out")?;
    }
    // The dev pages below F1 0.9, worst first, with their precision and recall.
    let url = url::Url::parse("https://bench.example/page")?;
    // TACKLE_SHOW_ALL=1 lists every dev page, to compare two versions page by page.
    let weak_below = if std::env::var_os("TACKLE_SHOW_ALL").is_some() { f64::INFINITY } else { 0.9 };
    let mut weak: Vec<(f64, f64, f64, &str)> = dev
        .iter()
        .zip(&dev_names)
        .filter(|(s, _)| !s.truth.is_empty())
        .map(|(s, name)| {
            let page = tackle_extract::extract(&s.html, tackle_extract::ContentKind::Html, &url);
            let (p, r, f) = corpus::shingle_scores(&page.text(), &s.truth);
            (f, p, r, name.as_str())
        })
        .filter(|(f, ..)| *f < weak_below)
        .collect();
    weak.sort_by(|a, b| a.0.total_cmp(&b.0));
    for (f, p, r, name) in weak {
        out!(
            "{}",
            serde_json::json!({"bench": "extract_dir_dev_page", "page": name, "f1": round3(f), "precision": round3(p), "recall": round3(r)})
        );
    }
    Ok(())
}

fn extract_corpus(write_to: Option<&str>, heavy: bool) -> Result<(), Box<dyn std::error::Error>> {
    const PAGES: usize = 240;
    let samples = corpus::corpus(PAGES, 7, heavy);
    if let Some(dir) = write_to {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {dir}: {e}"))?;
        for (i, sample) in samples.iter().enumerate() {
            std::fs::write(format!("{dir}/{i:03}.html"), &sample.html)
                .map_err(|e| format!("cannot write to {dir}: {e}"))?;
            std::fs::write(format!("{dir}/{i:03}.txt"), &sample.truth)
                .map_err(|e| format!("cannot write to {dir}: {e}"))?;
        }
    }
    measure(&samples, if heavy { "extract_heavy" } else { "extract" })
}

fn measure(samples: &[corpus::Sample], bench: &str) -> Result<(), Box<dyn std::error::Error>> {
    let url = url::Url::parse("https://bench.example/page")?;
    let bytes: usize = samples.iter().map(|s| s.html.len()).sum();
    let run = || {
        samples
            .iter()
            .map(|s| {
                // The main content alone, as `tackle web read --format text` prints it.
                tackle_extract::extract(&s.html, tackle_extract::ContentKind::Html, &url).text()
            })
            .collect::<Vec<_>>()
    };
    for _ in 0..2 {
        run();
    }
    let mut seconds = Vec::new();
    let mut outputs = Vec::new();
    for _ in 0..5 {
        let started = Instant::now();
        outputs = run();
        seconds.push(started.elapsed().as_secs_f64());
    }
    let median_s = median(&mut seconds);
    let mut by_layout: std::collections::BTreeMap<&str, Vec<f64>> = Default::default();
    let (mut p_sum, mut r_sum, mut f_sum) = (0.0, 0.0, 0.0);
    let scored: Vec<_> = samples.iter().zip(&outputs).filter(|(s, _)| !s.truth.is_empty()).collect();
    for &(sample, output) in &scored {
        let (p, r, f) = corpus::shingle_scores(output, &sample.truth);
        p_sum += p;
        r_sum += r;
        f_sum += f;
        by_layout.entry(sample.layout).or_default().push(f);
    }
    let n = samples.len() as f64;
    let scored_n = scored.len().max(1) as f64;
    let layouts: serde_json::Map<String, serde_json::Value> = by_layout
        .into_iter()
        .map(|(k, v)| (k.to_owned(), serde_json::json!(round3(v.iter().sum::<f64>() / v.len() as f64))))
        .collect();
    let line = serde_json::json!({
        "framework": "tackle",
        "bench": bench,
        "pages": samples.len(),
        "scored": scored.len(),
        "mb": round3(bytes as f64 / 1e6),
        "pages_per_s": round3(n / median_s),
        "mb_per_s": round3(bytes as f64 / 1e6 / median_s),
        "precision": (!scored.is_empty()).then(|| round3(p_sum / scored_n)),
        "recall": (!scored.is_empty()).then(|| round3(r_sum / scored_n)),
        "f1": (!scored.is_empty()).then(|| round3(f_sum / scored_n)),
        "f1_by_layout": layouts,
    });
    out!("{line}");
    Ok(())
}

fn round3(value: f64) -> f64 {
    (value * 1000.0).round() / 1000.0
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let which = args.first().cloned().unwrap_or_else(|| "executor".into());
    let flag =
        |name: &str| args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).map(String::as_str);
    let (write_to, dir) = (flag("--write"), flag("--dir"));
    let outcome = match which.as_str() {
        "extract" => match (flag("--snippets"), flag("--modern")) {
            (Some(snippets), _) => extract_snippets(snippets, flag("--part").unwrap_or("all")),
            (None, Some(modern)) => modern::bench(modern, flag("--part").unwrap_or("dev")),
            (None, None) => bench_extract(write_to, dir, flag("--compare")),
        },
        "guard" => match (dir, flag("--html")) {
            (Some(dir), _) => guard::bench(dir, flag("--layer")),
            (None, Some(html)) => guard::overhead(html),
            (None, None) => {
                Err("usage: tackle-bench guard --dir DIR (of .txt files) [--layer NAME] | --html DIR (of .html pages)"
                    .into())
            }
        },
        "env" => match (dir, flag("--pattern")) {
            (Some(dir), Some(pattern)) => env::bench(dir, pattern),
            _ => Err("usage: tackle-bench env --dir DIR --pattern REGEX".into()),
        },
        "local" => match (args.get(1), flag("--decisions")) {
            (Some(path), Some(set)) => local::decisions(
                path,
                set,
                !args.iter().any(|a| a == "--without-meaning"),
                if args.iter().any(|a| a == "--explain") {
                    local::Mode::Explain
                } else if args.iter().any(|a| a == "--arguments") {
                    local::Mode::Arguments
                } else {
                    local::Mode::Decide
                },
                flag("--part"),
            ),
            (Some(path), None) => local::bench(path),
            (None, _) => Err(
                "usage: tackle-bench local MODEL.gguf [--decisions SET.jsonl[,SET.jsonl…] [--without-meaning] [--explain | --arguments] [--part dev|held_out]]".into()
            ),
        },
        "mcp" => mcp::bench(),
        "cold" => match (flag("--tackle"), flag("--base-url")) {
            (Some(tackle), Some(url)) => wire::cold(tackle, url),
            _ => Err("usage: tackle-bench cold --tackle PATH-OF-tackle --base-url URL (of wire-server)".into()),
        },
        "suspended" => suspend::bench(),
        "serve" | "serve-node" => {
            let number = |name: &str, default: usize| flag(name).and_then(|v| v.parse().ok()).unwrap_or(default);
            let load = serve_load::Load {
                database: flag("--database"),
                concurrency: number("--concurrency", 100),
                runs: number("--runs", 1000),
                rounds: number("--rounds", 4),
                workers: number("--workers", 32),
                connections: number("--connections", 64),
                model_ms: number("--model-ms", 0) as u64,
                servers: number("--servers", 1),
                suspended: flag("--suspended").and_then(|v| v.parse().ok()),
            };
            if which == "serve" { serve_load::bench(load) } else { serve_load::serve_node(load) }
        }
        "wire-server" => wire_server::serve(flag("--port").and_then(|p| p.parse().ok()).unwrap_or(18451)),
        "wire" => match (flag("--base-url"), wire::Api::from_name(flag("--api").unwrap_or("chat"))) {
            (Some(url), Some(api)) if args.iter().any(|a| a == "--first-token") => wire::first_token(url, api),
            (Some(url), Some(api)) => {
                let only = args.iter().position(|a| a == "--workload").and_then(|i| {
                    Some((args.get(i + 1)?.parse().ok()?, args.get(i + 2)?.parse().ok()?))
                });
                wire::bench(url, api, args.iter().any(|a| a == "--stream"), only)
            }
            _ => Err(
                "usage: tackle-bench wire --base-url URL [--stream] [--api chat|responses|anthropic|gemini|bedrock] [--workload R K] [--first-token]"
                    .into(),
            ),
        },
        "executor" => bench_executor(),
        "loop" if args.iter().any(|a| a == "--spans") => {
            // Spans on, kept by a subscriber that exports nothing: the cost of telemetry
            // short of an exporter.
            use tracing_subscriber::layer::SubscriberExt as _;
            // Installed for the process, as an application does (a scoped default would add
            // a thread-local lookup to every span operation).
            let subscriber = tracing_subscriber::registry().with(tracing_subscriber::filter::LevelFilter::INFO);
            match tracing::subscriber::set_global_default(subscriber) {
                Ok(()) => bench_loop(false),
                Err(error) => Err(error.into()),
            }
        }
        "loop" if args.iter().any(|a| a == "--otel") => {
            // Spans on and turned into OpenTelemetry spans by the layer `tackle-telemetry`
            // installs, with a tracer provider that exports nothing.
            use opentelemetry::trace::TracerProvider as _;
            use tracing_subscriber::layer::SubscriberExt as _;
            let provider = opentelemetry_sdk::trace::SdkTracerProvider::builder().build();
            let layer = tracing_opentelemetry::layer()
                .with_tracer(provider.tracer("bench"))
                .with_location(false)
                .with_threads(false)
                .with_level(false)
                .with_target(false)
                .with_tracked_inactivity(false);
            let subscriber = tracing_subscriber::registry().with(layer);
            match tracing::subscriber::set_global_default(subscriber) {
                Ok(()) => bench_loop(false),
                Err(error) => Err(error.into()),
            }
        }
        "loop" if args.iter().any(|a| a == "--span-floor") => {
            use tracing_subscriber::layer::SubscriberExt as _;
            let subscriber = tracing_subscriber::registry().with(tracing_subscriber::filter::LevelFilter::INFO);
            match tracing::subscriber::set_global_default(subscriber) {
                Ok(()) => span_floor(),
                Err(error) => Err(error.into()),
            }
        }
        "loop" => bench_loop(false),
        "loop_events" => bench_loop(true),
        "all" => bench_executor().and_then(|()| bench_loop(false)).and_then(|()| bench_loop(true)),
        other => Err(format!(
            "unknown benchmark {other:?}; available: executor, loop, loop_events, extract, guard, env, local, mcp, wire, wire-server, cold, suspended, all"
        )
        .into()),
    };
    if let Err(error) = outcome {
        eprintln!("error: {error}");
        std::process::exit(1);
    }
}

/// Whitespace folded to single spaces, trimmed (as trafilatura's evaluation compares).
fn folded(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `tackle-bench extract --snippets DIR`: trafilatura's own evaluation (`tests/` of its
/// repository: `evaldata.json` with, per page, passages that must be in the main text and
/// passages that must not, and the pages under `eval/` and `cache/`), scored as its
/// `eval_common.count_item` does on `Page::text`: a passage counts when it occurs in the
/// whitespace-folded text. Every third page (in URL order, counting the pages found) is
/// the development part; the other two thirds are held out and only ever scored whole.
fn extract_snippets(dir: &str, part: &str) -> Result<(), Box<dyn std::error::Error>> {
    let wanted = |index: usize| match part {
        "dev" => Ok(index.is_multiple_of(3)),
        "held-out" => Ok(!index.is_multiple_of(3)),
        "all" => Ok(true),
        other => Err(format!("--part is dev, held-out or all, not {other:?}")),
    };
    let show = part == "dev" && std::env::var_os("TACKLE_SHOW").is_some();
    let mut index = 0;
    let root = std::path::Path::new(dir);
    let data: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(&std::fs::read_to_string(root.join("evaldata.json"))?)?;
    let (mut tp, mut fp, mut fn_, mut tn, mut pages, mut missing) = (0, 0, 0, 0, 0, 0);
    let mut seconds = 0.0;
    let mut urls: Vec<&String> = data.keys().collect();
    urls.sort();
    for url in urls {
        let item = &data[url];
        let Some(file) = item["file"].as_str() else { continue };
        let path = ["cache", "eval"].iter().map(|sub| root.join(sub).join(file)).find(|p| p.is_file());
        let Some(path) = path else {
            missing += 1;
            continue;
        };
        index += 1;
        if !wanted(index - 1)? {
            continue;
        }
        let bytes = std::fs::read(&path)?;
        let page_url = url::Url::parse(url)
            .unwrap_or_else(|_| url::Url::parse("https://bench.example/").expect("a URL"));
        let started = Instant::now();
        let html = tackle_web::decode(&bytes, Some("text/html"), tackle_web::ContentKind::Html);
        let text =
            folded(&tackle_extract::extract(&html, tackle_extract::ContentKind::Html, &page_url).text());
        seconds += started.elapsed().as_secs_f64();
        pages += 1;
        let passages = |key: &str| -> Vec<String> {
            item[key]
                .as_array()
                .map(|a| a.iter().filter_map(|v| v.as_str()).map(folded).collect())
                .unwrap_or_default()
        };
        for with in passages("with") {
            if text.contains(&with) {
                tp += 1;
            } else {
                fn_ += 1;
                if show {
                    eprintln!("{file}\tmissing\t{with}");
                }
            }
        }
        for without in passages("without") {
            if text.contains(&without) {
                fp += 1;
                if show {
                    eprintln!("{file}\tkept\t{without}");
                }
            } else {
                tn += 1;
            }
        }
    }
    let ratio = |a: usize, b: usize| if a + b == 0 { 0.0 } else { a as f64 / (a + b) as f64 };
    let (precision, recall) = (ratio(tp, fp), ratio(tp, fn_));
    let f1 = if precision + recall == 0.0 { 0.0 } else { 2.0 * precision * recall / (precision + recall) };
    out!(
        "{}",
        serde_json::json!({
            "framework": "tackle", "bench": "extract_snippets", "part": part, "pages": pages, "missing": missing,
            "precision": round3(precision), "recall": round3(recall), "f1": round3(f1),
            "accuracy": round3(ratio(tp + tn, fp + fn_)),
            "pages_per_s": round3(pages as f64 / seconds.max(1e-9)),
        })
    );
    Ok(())
}

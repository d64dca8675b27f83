//! `tackle-bench wire`: the loop through a real adapter, HTTP and SSE, against a scripted
//! server (`../shared/bench/wire/server` for Chat Completions). The workload is the wire
//! floor's: per model name `bench-RxK`, R rounds of K calls of `add` and `echo`, then the
//! answer `done`; each run is a fresh conversation, timed whole (median of 20 after 3
//! warm-ups), with the process's CPU time beside the wall time.

use std::sync::Arc;
use std::time::Instant;

use tackle_core::{Message, Model, Secret};
use tackle_harness::{Discard, Harness, RunOutcome};
use tackle_tools::RunContext;

use crate::{TIMED as REPS, WARM_UP};

/// The workloads, in the floor's order.
const WORKLOADS: [(usize, usize); 4] = [(10, 1), (10, 8), (100, 4), (10, 4)];

/// Which adapter talks to the server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Api {
    Chat,
    Responses,
    Anthropic,
    Gemini,
    Bedrock,
}

impl Api {
    pub(crate) fn from_name(name: &str) -> Option<Api> {
        match name {
            "chat" => Some(Api::Chat),
            "responses" => Some(Api::Responses),
            "anthropic" => Some(Api::Anthropic),
            "gemini" => Some(Api::Gemini),
            "bedrock" => Some(Api::Bedrock),
            _ => None,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Api::Chat => "chat",
            Api::Responses => "responses",
            Api::Anthropic => "anthropic",
            Api::Gemini => "gemini",
            Api::Bedrock => "bedrock",
        }
    }
}

fn model(
    api: Api,
    base_url: &str,
    name: &str,
    stream: bool,
) -> Result<Box<dyn Model>, Box<dyn std::error::Error>> {
    let key = Secret::new("sk-bench");
    Ok(match api {
        Api::Chat => {
            let preset = tackle_providers::preset_named("openai").ok_or("no openai preset")?;
            Box::new(
                tackle_providers::OpenAiChat::with_key(preset, name, Some(key))?
                    .base_url(base_url)?
                    .streaming(stream),
            )
        }
        Api::Responses => {
            let preset = tackle_providers::preset_named("openai").ok_or("no openai preset")?;
            Box::new(
                tackle_providers::OpenAiResponses::with_key(preset, name, Some(key))?
                    .base_url(base_url)?
                    .streaming(stream),
            )
        }
        Api::Anthropic => {
            Box::new(tackle_providers::Anthropic::with_key(name, key)?.base_url(base_url)?.streaming(stream))
        }
        Api::Gemini => {
            Box::new(tackle_providers::Gemini::with_key(name, key)?.base_url(base_url)?.streaming(stream))
        }
        // Signed with SigV4 like a real request: the signature is part of each call's cost.
        Api::Bedrock => {
            let credentials = tackle_providers::bedrock::AwsCredentials::new(
                "AKIDBENCHEXAMPLE",
                Secret::new("bench/secret/key/EXAMPLEKEY"),
                None,
            );
            let auth = tackle_providers::bedrock::BedrockAuth::SigV4(credentials);
            Box::new(
                tackle_providers::Bedrock::with_auth(name, "us-east-1", auth)?
                    .base_url(base_url)?
                    .streaming(stream),
            )
        }
    })
}

/// Process CPU time in µs (all threads).
fn cpu_us() -> f64 {
    cpu_time::ProcessTime::try_now().map_or(0.0, |t| t.as_duration().as_secs_f64() * 1e6)
}

/// Runs the workloads (or only `only`, as `(R, K)`) and prints a JSON line for each.
pub(crate) fn bench(
    base_url: &str,
    api: Api,
    stream: bool,
    only: Option<(usize, usize)>,
) -> Result<(), Box<dyn std::error::Error>> {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let workloads = only.map_or_else(|| WORKLOADS.to_vec(), |w| vec![w]);
    for (rounds, per_round) in workloads {
        let model = model(api, base_url, &format!("bench-{rounds}x{per_round}"), stream)?;
        let harness = crate::loop_harness(rounds)?;
        let run = Arc::new(RunContext::new("bench"));
        let (mut wall, mut cpu) = (Vec::with_capacity(REPS), Vec::with_capacity(REPS));
        // More timed runs with TACKLE_BENCH_REPS (when profiling).
        let reps =
            std::env::var("TACKLE_BENCH_REPS").ok().and_then(|r| r.parse().ok()).unwrap_or(REPS).max(1);
        for i in 0..WARM_UP + reps {
            let (started, cpu_before) = (Instant::now(), cpu_us());
            let mut state = harness.start("bench", vec![Message::user("go")]);
            let outcome = runtime.block_on(harness.run(model.as_ref(), &run, &mut state, &mut Discard))?;
            let took = started.elapsed().as_secs_f64() * 1e6;
            crate::check_run(outcome, &state, rounds * per_round)?;
            if i >= WARM_UP {
                wall.push(took);
                cpu.push(cpu_us() - cpu_before);
            }
        }
        let us = crate::median(&mut wall);
        let line = serde_json::json!({
            "framework": "tackle",
            "bench": "wire",
            "api": api.name(),
            "stream": stream,
            "R": rounds,
            "K": per_round,
            "us_run": crate::round3(us),
            "cpu_us_run": crate::round3(crate::median(&mut cpu)),
            "us_call": crate::round3(us / (rounds * per_round) as f64),
            "us_round": crate::round3(us / rounds as f64),
        });
        out!("{line}");
    }
    Ok(())
}

/// `tackle-bench wire --first-token`: what the loop adds to the first token. Against a
/// streaming server answering `bench-0x0` with text at once, the time from the start to
/// the first text piece, once through the adapter alone (`Model::stream`) and once through
/// the whole harness (its sink receiving `TextDelta`), interleaved, 300 of each after a
/// warm-up; the overhead is the difference of the medians.
pub(crate) fn first_token(base_url: &str, api: Api) -> Result<(), Box<dyn std::error::Error>> {
    use futures_util::StreamExt as _;
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let model = model(api, base_url, "bench-0x0", true)?;
    let registry = crate::registry()?;
    let harness = Harness::new(registry.clone());
    let run = Arc::new(RunContext::new("bench"));
    let tools = registry.offer(&run).definitions();
    let settings = tackle_core::ModelSettings::default();
    let history = vec![Message::user("go")];
    let (mut direct, mut looped) = (Vec::new(), Vec::new());
    for i in 0..330 {
        let started = Instant::now();
        let first = runtime.block_on(async {
            let request = tackle_core::ModelRequest::new("", &history, &tools, &settings);
            let mut stream = model.stream(request);
            while let Some(event) = stream.next().await {
                if matches!(event?, tackle_core::ModelEvent::TextDelta(_)) {
                    return Ok::<_, tackle_core::ModelError>(Some(started.elapsed()));
                }
            }
            Ok(None)
        })?;
        let first = first.ok_or("the adapter streamed no text")?;
        let started = Instant::now();
        let mut seen: Option<std::time::Duration> = None;
        let mut sink = |event: tackle_harness::RunEvent| {
            if seen.is_none() && matches!(event, tackle_harness::RunEvent::TextDelta { .. }) {
                seen = Some(started.elapsed());
            }
        };
        let mut state = harness.start("bench", history.clone());
        let outcome = runtime.block_on(harness.run(model.as_ref(), &run, &mut state, &mut sink))?;
        if !matches!(outcome, RunOutcome::Answered(_)) {
            return Err(format!("the run did not answer: {outcome:?}").into());
        }
        let through_loop = seen.ok_or("the harness delivered no text")?;
        if i >= 30 {
            direct.push(first.as_secs_f64() * 1e6);
            looped.push(through_loop.as_secs_f64() * 1e6);
        }
    }
    let (direct, looped) = (crate::median(&mut direct), crate::median(&mut looped));
    let line = serde_json::json!({
        "framework": "tackle",
        "bench": "first_token",
        "api": api.name(),
        "us_adapter": crate::round3(direct),
        "us_loop": crate::round3(looped),
        "us_overhead": crate::round3(looped - direct),
    });
    out!("{line}");
    Ok(())
}

/// `tackle-bench cold --tackle BIN --base-url URL`: the command line from a cold process,
/// 30 times each (median and 90th percentile): `tackle tools list`, and `tackle run` against
/// the scripted server (`bench-0x0`, answered at once) to the first byte of the answer on
/// stdout and to its exit.
pub(crate) fn cold(tackle: &str, base_url: &str) -> Result<(), Box<dyn std::error::Error>> {
    use std::io::Read as _;
    let dir = tempfile::tempdir()?;
    let config = dir.path().join("config.toml");
    std::fs::write(
        &config,
        format!(
            "provider = \"openai\"\nmodel = \"bench-0x0\"\n\n[providers.openai]\nbase_url = \"{base_url}\"\napi_key = \"sk-bench\"\n"
        ),
    )?;
    let command = |args: &[&str]| {
        let mut command = std::process::Command::new(tackle);
        command
            .args(args)
            .env("TACKLE_CONFIG", &config)
            .env("TACKLE_DATA_DIR", dir.path().join("data"))
            .env_remove("TACKLE_LOOPBACK_ONLY")
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null());
        command
    };
    let quantiles = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        (crate::median(&mut v.clone()), v[v.len() * 9 / 10])
    };
    let (mut list, mut first, mut whole) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..30 {
        let started = Instant::now();
        let output = command(&["tools", "list"]).output()?;
        list.push(started.elapsed().as_secs_f64() * 1e3);
        if !output.status.success() {
            return Err("tackle tools list failed".into());
        }
        let started = Instant::now();
        let mut child = command(&["run", "hi"]).spawn()?;
        let mut stdout = child.stdout.take().ok_or("no stdout")?;
        let mut byte = [0u8; 1];
        stdout.read_exact(&mut byte)?;
        first.push(started.elapsed().as_secs_f64() * 1e3);
        let mut rest = Vec::new();
        stdout.read_to_end(&mut rest)?;
        let status = child.wait()?;
        whole.push(started.elapsed().as_secs_f64() * 1e3);
        if !status.success() {
            return Err("tackle run failed (is the scripted server up?)".into());
        }
    }
    for (what, times) in [("tools_list", list), ("run_first_byte", first), ("run_exit", whole)] {
        let (median, p90) = quantiles(times);
        let line = serde_json::json!({
            "framework": "tackle",
            "bench": "cold",
            "what": what,
            "ms_median": crate::round3(median),
            "ms_p90": crate::round3(p90),
        });
        out!("{line}");
    }
    Ok(())
}

//! `tackle-bench wire`: the loop through a real adapter, HTTP and SSE, against a scripted
//! server (`../shared/bench/wire/server` for Chat Completions). The workload is the wire
//! floor's: per model name `bench-RxK`, R rounds of K calls of `add` and `echo`, then the
//! answer `done`; each run is a fresh conversation, timed whole (median of 20 after 3
//! warm-ups), with the process's CPU time beside the wall time.

use std::sync::Arc;
use std::time::Instant;

use tackle_core::{Message, Model, Secret};
use tackle_harness::{Discard, Harness, Limits, RunOutcome};
use tackle_tools::RunContext;

/// The workloads, in the floor's order.
const WORKLOADS: [(usize, usize); 4] = [(10, 1), (10, 8), (100, 4), (10, 4)];
const WARM_UP: usize = 3;
/// Timed runs per workload (`TACKLE_BENCH_REPS` for more, when profiling).
const REPS: usize = 20;

/// Which adapter talks to the server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Api {
    Chat,
    Responses,
    Anthropic,
}

impl Api {
    pub(crate) fn from_name(name: &str) -> Option<Api> {
        match name {
            "chat" => Some(Api::Chat),
            "responses" => Some(Api::Responses),
            "anthropic" => Some(Api::Anthropic),
            _ => None,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Api::Chat => "chat",
            Api::Responses => "responses",
            Api::Anthropic => "anthropic",
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
        let harness = Harness::new(crate::registry()?).limits(Limits {
            max_tool_calls: u32::MAX,
            max_result_chars: u64::MAX,
            max_rounds: u32::try_from(rounds + 2)?,
            max_duration: None,
            ..Limits::default()
        });
        let run = Arc::new(RunContext::new("bench"));
        let (mut wall, mut cpu) = (Vec::with_capacity(REPS), Vec::with_capacity(REPS));
        let reps =
            std::env::var("TACKLE_BENCH_REPS").ok().and_then(|r| r.parse().ok()).unwrap_or(REPS).max(1);
        for i in 0..WARM_UP + reps {
            let (started, cpu_before) = (Instant::now(), cpu_us());
            let mut state = harness.start("bench", vec![Message::user("go")]);
            let outcome = runtime.block_on(harness.run(model.as_ref(), &run, &mut state, &mut Discard))?;
            let took = started.elapsed().as_secs_f64() * 1e6;
            match outcome {
                RunOutcome::Answered(answer) if answer.text == "done" => {}
                other => return Err(format!("the run did not answer: {other:?}").into()),
            }
            if state.counters.tool_calls as usize != rounds * per_round {
                return Err(format!(
                    "{} calls ran, {} expected",
                    state.counters.tool_calls,
                    rounds * per_round
                )
                .into());
            }
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
        println!("{line}");
    }
    Ok(())
}

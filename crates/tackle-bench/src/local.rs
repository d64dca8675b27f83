//! The embedded model: speed (prompt and generation tokens/s, time to first token with the
//! static prompt prefilled), peak memory, and the quality of its tool decisions on 50
//! prompts — the share of schema-valid calls and of right decisions (the right tool, or
//! rightly no tool).

use std::sync::Arc;
use std::time::Instant;

use futures_util::StreamExt as _;
use serde_json::{Value, json};
use tackle_core::{
    AssistantPart, JsonSchema, Message, Model, ModelEvent, ModelRequest, ModelSettings, ToolChoice,
    ToolDefinition,
};
use tackle_local::LocalModel;

fn tool(name: &str, description: &str, parameters: Value) -> Arc<ToolDefinition> {
    Arc::new(ToolDefinition::new(name, description, JsonSchema::new(parameters).expect("an object schema")))
}

fn tools() -> Vec<Arc<ToolDefinition>> {
    vec![
        tool(
            "get_weather",
            "Get the current weather for a city.",
            json!({"type": "object", "properties": {"city": {"type": "string"}, "unit": {"enum": ["celsius", "fahrenheit"]}}, "required": ["city", "unit"]}),
        ),
        tool(
            "calculate",
            "Calculate the result of an arithmetic expression.",
            json!({"type": "object", "properties": {"expression": {"type": "string"}}, "required": ["expression"]}),
        ),
        tool(
            "web_search",
            "Search the web for current information, news and facts.",
            json!({"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}),
        ),
    ]
}

/// 50 prompts and the tool each should use (`None`: answer without one).
const PROMPTS: &[(&str, Option<&str>)] = &[
    ("What's the weather in Paris right now?", Some("get_weather")),
    ("Is it raining in London today?", Some("get_weather")),
    ("How cold is it in Oslo in fahrenheit?", Some("get_weather")),
    ("Will I need an umbrella in Seattle this afternoon?", Some("get_weather")),
    ("Tell me the temperature in Tokyo in celsius.", Some("get_weather")),
    ("What is the weather like in Berlin?", Some("get_weather")),
    ("Is it sunny in Madrid at the moment?", Some("get_weather")),
    ("Current weather conditions in Sydney, please.", Some("get_weather")),
    ("How hot is it in Cairo today?", Some("get_weather")),
    ("Is it snowing in Toronto?", Some("get_weather")),
    ("Weather forecast for Rome?", Some("get_weather")),
    ("Should I wear a coat in Chicago today, given the weather?", Some("get_weather")),
    ("What is 17 plus 25?", Some("calculate")),
    ("Calculate 345 times 12.", Some("calculate")),
    ("What is 1024 divided by 16?", Some("calculate")),
    ("How much is 99 minus 47?", Some("calculate")),
    ("What's 15% of 240?", Some("calculate")),
    ("Compute 7 to the power of 5.", Some("calculate")),
    ("Add 3.5 and 4.25.", Some("calculate")),
    ("What is the square root of 729?", Some("calculate")),
    ("Multiply 123 by 456.", Some("calculate")),
    ("If I have 3 boxes of 24 apples, how many apples do I have?", Some("calculate")),
    ("What is (12 + 8) * 3?", Some("calculate")),
    ("Divide 1000 by 8.", Some("calculate")),
    ("Search the web for the latest Rust release notes.", Some("web_search")),
    ("Who won the most recent Nobel Prize in Physics?", Some("web_search")),
    ("Find news about the Mars rover.", Some("web_search")),
    ("Look up the population of Brazil.", Some("web_search")),
    ("What are today's top headlines?", Some("web_search")),
    ("Search for reviews of the new electric bikes.", Some("web_search")),
    ("Find the opening hours of the Louvre museum.", Some("web_search")),
    ("What is the current price of Bitcoin?", Some("web_search")),
    ("Look up the latest SpaceX launch.", Some("web_search")),
    ("Search online for a recipe for sourdough bread.", Some("web_search")),
    ("Find information about the 2026 World Cup schedule.", Some("web_search")),
    ("Who is the current CEO of Microsoft? Please search.", Some("web_search")),
    ("Search for the best hiking trails in Colorado.", Some("web_search")),
    ("Hello, who are you?", None),
    ("Good morning!", None),
    ("Write a haiku about the sea.", None),
    ("Tell me a joke.", None),
    ("Thank you for your help.", None),
    ("How are you today?", None),
    ("What's your name?", None),
    ("Can you write a short poem about autumn?", None),
    ("Say hello in French.", None),
    ("Give me a motivational quote.", None),
    ("Describe a cat in one sentence.", None),
    ("Nice to meet you.", None),
    ("Write a friendly greeting for a birthday card.", None),
];

struct Outcome {
    margin: f32,
    forced: Option<(String, Value)>,
}

async fn ask(
    model: &LocalModel,
    prompt: &str,
    choice: ToolChoice,
    max: u32,
) -> (String, Vec<(String, Value)>) {
    let tools = tools();
    let messages = vec![Message::user(prompt)];
    let settings = ModelSettings::default().tool_choice(choice).max_output_tokens(max);
    let request = ModelRequest::new("", &messages, &tools, &settings);
    let mut stream = model.stream(request);
    let (mut text, mut calls) = (String::new(), Vec::new());
    while let Some(event) = stream.next().await {
        match event {
            Ok(ModelEvent::TextDelta(t)) => text.push_str(&t),
            Ok(ModelEvent::Completed(response)) => {
                for part in response.turn.parts {
                    if let AssistantPart::ToolCall(call) = part
                        && let tackle_core::ToolArguments::Json(arguments) = call.arguments
                    {
                        calls.push((call.name, arguments));
                    }
                }
            }
            Ok(_) => {}
            Err(error) => {
                eprintln!("error on {prompt:?}: {error}");
                break;
            }
        }
    }
    (text, calls)
}

fn peak_rss_mb() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

fn round(value: f64) -> f64 {
    (value * 100.0).round() / 100.0
}

/// `tackle-bench local MODEL.gguf`.
pub(crate) fn bench(path: &str) -> Result<(), Box<dyn std::error::Error>> {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    runtime.block_on(async {
        let started = Instant::now();
        let model = LocalModel::load(std::path::Path::new(path))?;
        let load_s = started.elapsed().as_secs_f64();
        let started = Instant::now();
        model.prefill("", &tools())?;
        let prefill_s = started.elapsed().as_secs_f64();
        let static_tokens = model.stats().prompt_tokens;

        // Speed: a longer plain answer, three times.
        let mut runs = Vec::new();
        for _ in 0..3 {
            let (_, _) =
                ask(&model, "Tell me a story about a lighthouse keeper.", ToolChoice::None, 128).await;
            runs.push(model.stats());
        }
        let best = |f: &dyn Fn(&tackle_local::Stats) -> f64| {
            let mut v: Vec<f64> = runs.iter().map(f).collect();
            v.sort_by(f64::total_cmp);
            v[v.len() / 2]
        };
        let gen_tps = best(&|s| s.output_tokens_per_second());
        let ttft_ms = best(&|s| s.first_token().as_secs_f64() * 1000.0);
        // Prompt speed: instructions no prefilled state starts with.
        let messages =
            vec![Message::user("Tell me a story about a lighthouse keeper who finds a message in a bottle.")];
        let settings = ModelSettings::default().tool_choice(ToolChoice::None).max_output_tokens(1);
        let instructions =
            "You are a storyteller. Write vivid, short stories with a clear beginning, middle and end.";
        let request = ModelRequest::new(instructions, &messages, &[], &settings);
        let mut stream = model.stream(request);
        while stream.next().await.is_some() {}
        let prompt_tps = model.stats().prompt_tokens_per_second();
        let cold_prompt_tokens = model.stats().prompt_tokens - model.stats().cached_tokens;
        // Decisions.
        let schemas: Vec<(String, Value)> =
            tools().iter().map(|t| (t.name.clone(), t.parameters.to_value())).collect();
        let mut outcomes = Vec::new();
        let (mut calls, mut valid) = (0usize, 0usize);
        let first_token = model
            .clone()
            .router(tackle_local::Router::FirstToken { call_bias: tackle_local::DEFAULT_CALL_BIAS });
        for (prompt, _) in PROMPTS {
            let _ = ask(&first_token, prompt, ToolChoice::Auto, 1).await;
            let margin = first_token.stats().router_margin.unwrap_or(f32::NEG_INFINITY);
            let (_, forced) = ask(&model, prompt, ToolChoice::Required, 64).await;
            for (name, arguments) in &forced {
                calls += 1;
                let ok = schemas
                    .iter()
                    .find(|(n, _)| n == name)
                    .and_then(|(_, schema)| jsonschema::validator_for(schema).ok())
                    .is_some_and(|v| v.is_valid(arguments));
                valid += usize::from(ok);
            }
            outcomes.push(Outcome { margin, forced: forced.into_iter().next() });
        }
        // The classifying router (the default): its choice, decided per prompt.
        let mut classify_right = 0;
        let mut classify_valid = 0;
        let mut classify_calls = 0;
        let mut choices = Vec::new();
        let mut auto_ttft = Vec::new();
        for (prompt, expected) in PROMPTS {
            let (_, calls) = ask(&model, prompt, ToolChoice::Auto, 48).await;
            auto_ttft.push(model.stats().first_token().as_secs_f64() * 1000.0);
            let chosen = calls.first().map(|(n, _)| n.clone());
            for (name, arguments) in &calls {
                classify_calls += 1;
                let ok = schemas
                    .iter()
                    .find(|(n, _)| n == name)
                    .and_then(|(_, schema)| jsonschema::validator_for(schema).ok())
                    .is_some_and(|v| v.is_valid(arguments));
                classify_valid += usize::from(ok);
            }
            classify_right += usize::from(chosen.as_deref() == *expected);
            choices.push(chosen.unwrap_or_else(|| "-".to_owned()));
        }
        let right = |bias: f32, range: std::ops::Range<usize>| -> usize {
            range
                .filter(|&i| {
                    let (_, expected) = PROMPTS[i];
                    let o = &outcomes[i];
                    let decided =
                        if o.margin + bias > 0.0 { o.forced.as_ref().map(|(n, _)| n.as_str()) } else { None };
                    decided == expected
                })
                .count()
        };
        // The bias is chosen on the even prompts and judged on the odd ones, then on all.
        let biases: Vec<f32> = (0..=40).map(|i| i as f32 * 0.5).collect();
        let even: Vec<usize> = (0..PROMPTS.len()).step_by(2).collect();
        let score_on = |bias: f32, idx: &[usize]| idx.iter().filter(|&&i| right(bias, i..i + 1) == 1).count();
        let tuned =
            biases.iter().copied().max_by_key(|&b| (score_on(b, &even), -(b * 2.0) as i32)).unwrap_or(0.0);
        let odd: Vec<usize> = (1..PROMPTS.len()).step_by(2).collect();
        let at_default = right(tackle_local::DEFAULT_CALL_BIAS, 0..PROMPTS.len());
        let forced_right = outcomes
            .iter()
            .zip(PROMPTS)
            .filter(|(o, (_, expected))| {
                expected.is_some() && o.forced.as_ref().map(|(n, _)| n.as_str()) == *expected
            })
            .count();
        let needing = PROMPTS.iter().filter(|(_, e)| e.is_some()).count();
        let margins: Vec<f64> = outcomes.iter().map(|o| round(o.margin as f64)).collect();
        auto_ttft.sort_by(f64::total_cmp);
        let auto_median = auto_ttft[auto_ttft.len() / 2];
        let auto_max = auto_ttft.iter().copied().fold(0.0, f64::max);
        let line = json!({
            "bench": "local",
            "model": path,
            "load_s": round(load_s),
            "static_prompt_tokens": static_tokens,
            "static_prefill_s": round(prefill_s),
            "prompt_tokens_per_s": round(prompt_tps),
            "cold_prompt_tokens": cold_prompt_tokens,
            "generation_tokens_per_s": round(gen_tps),
            "ttft_prefilled_ms": round(ttft_ms),
            "peak_rss_mb": peak_rss_mb().map(round),
            "prompts": PROMPTS.len(),
            "forced_calls": calls,
            "schema_valid_calls": valid,
            "forced_right_tool_of_needing": format!("{forced_right}/{needing}"),
            "right_decisions_at_default_bias": format!("{at_default}/{}", PROMPTS.len()),
            "tuned_bias_on_even": tuned,
            "right_decisions_odd_at_tuned": format!("{}/{}", score_on(tuned, &odd), odd.len()),
            "right_decisions_all_at_tuned": format!("{}/{}", right(tuned, 0..PROMPTS.len()), PROMPTS.len()),
            "first_token_margins": margins,
            "classify_right_decisions": format!("{classify_right}/{}", PROMPTS.len()),
            "ttft_auto_routed_ms_median": round(auto_median),
            "ttft_auto_routed_ms_max": round(auto_max),
            "classify_calls": classify_calls,
            "classify_schema_valid": classify_valid,
            "classify_choices": choices,
        });
        out!("{line}");
        Ok::<(), Box<dyn std::error::Error>>(())
    })
}

/// `tackle-bench local MODEL.gguf --decisions SET.jsonl[,SET2.jsonl…]`: the model under
/// `Auto` on sets of labelled requests, one JSON object per line: `request`, `tool` (or
/// null for no tool), and either `arguments` (the values that must follow) or `accept` (per
/// argument, the values it may take, `""` meaning it may be left out). The tools offered:
/// the request's own `tools` (name, description, JSON Schema parameters) when it has them;
/// for `catalog: "env"` the environment's file, search and shell tools; a catalog of that
/// name in `catalogs.json` beside the set; else the CLI's web tools. `catalog` names the
/// catalog in the table (default `cli`).
///
/// With the embedder (all-MiniLM-L6-v2) beside the model file, the router reads meaning
/// too ([`LocalModel::embedder`]); `--without-meaning` leaves it out, to compare.
///
/// Each request's catalog has its static prompt processed before the request, as a program
/// offering those tools does once ([`LocalModel::prefill`]). Reports, per part and catalog,
/// right decisions; per part the time to the first token after that (median and slowest),
/// the slowest static prompt, and the process's peak memory so far; of the right calls with labelled
/// arguments, those whose arguments are right; and the same of the calls whose labelled
/// values all stand verbatim in the request (what a small model should copy exactly); and
/// right decisions per catalog and kind (`per_kind`: `cli/web_search`, `bfcl-none/none`).
/// Every third request of each catalog and expected tool (for requests with their own
/// catalogs: of each catalog's calls and no-calls) is held out: its figures are printed as
/// totals only (`TACKLE_SHOW=1` lists the development part's mistakes and its requests whose
/// first token took over a second, and for a held-out request so slow only where its time
/// went); `--part dev` or
/// `--part held_out` runs one part alone.
///
/// `--explain` generates nothing: it prints, per request, its part, catalog and expected
/// tool with how the router weighs every option ([`LocalModel::explain_route`]: likelihood,
/// closeness, the request's evidence, score), the input of `data/route_weights.py`.
///
/// `--arguments` judges the arguments alone: every request labelled with a call and its
/// arguments is sent with that tool forced (no routing), and the table counts those calls.
pub(crate) fn decisions(
    path: &str,
    sets: &str,
    with_meaning: bool,
    mode: Mode,
    only: Option<&str>,
) -> Result<(), Box<dyn std::error::Error>> {
    let explain = mode == Mode::Explain;
    let web = tackle_web::WebTools::new(tackle_web::Retriever::new());
    let cli_tools: Vec<Arc<ToolDefinition>> = vec![
        Arc::new(web.read_web_page()?.definition().clone()),
        Arc::new(web.web_search()?.definition().clone()),
    ];
    // The environment's tools (files, search, shell) over a scratch directory: only their
    // definitions are offered, nothing runs.
    let scratch = tempfile::tempdir()?;
    let dir = tackle_env::LocalDir::new(scratch.path())?;
    let env: Arc<dyn tackle_env::Environment> = Arc::new(dir.clone());
    let env_tools: Vec<Arc<ToolDefinition>> = tackle_env::FileTools::new(env.clone())
        .all()?
        .into_iter()
        .chain(tackle_env::SearchTools::new(env).all()?)
        .chain(tackle_env::ShellTools::new(&dir, tackle_env::ShellPolicy::default()).all()?)
        .map(|t| Arc::new(t.definition().clone()))
        .collect();
    let mut items: Vec<Value> = Vec::new();
    // Named catalogs from `catalogs.json` beside the sets: name -> tools.
    let mut named: std::collections::HashMap<String, Vec<Arc<ToolDefinition>>> = Default::default();
    for set in sets.split(',') {
        for line in std::fs::read_to_string(set)?.lines().filter(|l| !l.trim().is_empty()) {
            items.push(serde_json::from_str(line)?);
        }
        let catalogs = std::path::Path::new(set).with_file_name("catalogs.json");
        if let Ok(text) = std::fs::read_to_string(&catalogs) {
            let value: Value = serde_json::from_str(&text)?;
            for (name, tools) in value.as_object().ok_or("catalogs.json: an object of catalogs")? {
                let tools = tools.as_array().ok_or("catalogs.json: a list of tools per catalog")?;
                named.insert(name.clone(), tools.iter().map(definition).collect::<Result<_, _>>()?);
            }
        }
    }
    let show = std::env::var_os("TACKLE_SHOW").is_some();
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    runtime.block_on(async {
        let mut model = LocalModel::load(std::path::Path::new(path))?;
        let beside = std::path::Path::new(path).parent().unwrap_or(std::path::Path::new("."));
        let meaning = if with_meaning { tackle_local::MiniLm::load(beside).ok() } else { None };
        let meaning_used = meaning.is_some();
        if let Some(embedder) = meaning {
            model = model.embedder(Arc::new(embedder));
        }
        model.prefill("", &cli_tools)?;
        // (part, catalog) -> (requests, right decisions, right calls with labelled
        // arguments, of which with the right arguments, right calls whose labelled values
        // all stand in the request, of which with the right arguments)
        let mut table: std::collections::BTreeMap<(&str, String), [usize; 6]> = Default::default();
        // (part, catalog/kind) -> (requests, right decisions): what kind of decision is missed.
        let mut kinds: std::collections::BTreeMap<(&str, String), [usize; 2]> = Default::default();
        let mut seen: std::collections::HashMap<String, usize> = Default::default();
        // Per part: the time to the first token of each request (routing, then the prompt).
        let mut first_tokens: std::collections::BTreeMap<&str, Vec<f64>> = Default::default();
        // Per part: the time to process each request's static prompt (nothing when cached).
        let mut warms: std::collections::BTreeMap<&str, Vec<f64>> = Default::default();
        for item in &items {
            let request = item["request"].as_str().unwrap_or_default();
            let expected = item["tool"].as_str();
            let catalog = item["catalog"].as_str().unwrap_or("cli").to_owned();
            let own_tools = item["tools"].as_array();
            let tools: Vec<Arc<ToolDefinition>> = match (own_tools, catalog.as_str()) {
                (Some(list), _) => list.iter().map(definition).collect::<Result<_, _>>()?,
                (None, "env") => env_tools.clone(),
                (None, name) => named.get(name).cloned().unwrap_or_else(|| cli_tools.clone()),
            };
            // Every third request of each catalog and expected tool is held out.
            let kind = match (own_tools.is_some(), expected) {
                (_, None) => "none",
                (true, Some(_)) => "call",
                (false, Some(tool)) => tool,
            };
            let catalog_kind = format!("{catalog}/{kind}");
            let nth = seen.entry(catalog_kind.clone()).or_default();
            let part = if *nth % 3 == 2 { "held_out" } else { "dev" };
            *nth += 1;
            if only.is_some_and(|only| only != part) {
                continue;
            }
            let accept = accepted(item);
            let messages = vec![Message::user(request)];
            let choice = match (mode, expected) {
                (Mode::Arguments, Some(tool)) if accept.as_ref().is_some_and(|a| !a.is_empty()) => {
                    ToolChoice::Tool(tool.to_owned())
                }
                (Mode::Arguments, _) => continue,
                _ => ToolChoice::Auto,
            };
            let settings = ModelSettings::default().tool_choice(choice).max_output_tokens(40);
            if explain {
                // How the router weighs each option, one line per request, and no generation.
                let options = model.explain_route(&ModelRequest::new("", &messages, &tools, &settings))?;
                let options: Vec<Value> = options
                    .iter()
                    .map(|o| {
                        let tool = o.tool.as_deref().and_then(|name| tools.iter().find(|t| t.name == name));
                        json!({"tool": o.tool, "description": tool.map(|t| &t.description),
                               "parameters": tool.map(|t| t.parameters.to_value()), "likelihood": o.likelihood, "closeness": o.closeness,
                               "fills": o.fills, "lacks_path": o.lacks_path, "shared_words": o.shared_words, "wrong_effect": o.wrong_effect,
                               "current": o.current, "situated": o.situated, "timely": o.timely, "score": o.score})
                    })
                    .collect();
                out!(
                    "{}",
                    json!({"part": part, "catalog": catalog, "request": request, "expected": expected, "options": options})
                );
                continue;
            }
            // The static prompt of this catalog processed first, as a program that offers these
            // tools does once (`LocalModel::prefill`, `Harness::warm`); unchanged, it costs
            // nothing.
            let started = std::time::Instant::now();
            model.prefill("", &tools)?;
            warms.entry(part).or_default().push(started.elapsed().as_secs_f64() * 1000.0);
            let mut stream = model.stream(ModelRequest::new("", &messages, &tools, &settings));
            let mut calls = Vec::new();
            while let Some(event) = stream.next().await {
                match event {
                    Ok(ModelEvent::Completed(response)) => calls.extend(response.turn.tool_calls().cloned()),
                    Err(error) if show => eprintln!("{request:?}: {error}"),
                    _ => {}
                }
            }
            let stats = model.stats();
            let first_token_ms = stats.first_token().as_secs_f64() * 1000.0;
            first_tokens.entry(part).or_default().push(first_token_ms);
            // Held-out requests are not shown, only where their time went.
            if show && first_token_ms > 1000.0 {
                let request = if part == "dev" { format!("{request:?}") } else { format!("a {part} request") };
                eprintln!(
                    "{request}: first token after {first_token_ms:.0} ms ({catalog}; routing {:.0} ms, prompt {:.0} ms, {} of {} tokens cached)",
                    stats.routing.as_secs_f64() * 1000.0,
                    stats.prefill.as_secs_f64() * 1000.0,
                    stats.cached_tokens,
                    stats.prompt_tokens
                );
            }
            let chosen = calls.first().map(|c| c.name.as_str());
            let right = chosen == expected;
            let labelled = right && accept.as_ref().is_some_and(|a| !a.is_empty());
            let arguments_right = labelled
                && accept.as_ref().is_some_and(|want| {
                    calls.first().and_then(|c| c.arguments.as_object()).is_some_and(|got| arguments_match(want, got))
                });
            let verbatim = labelled && accept.as_ref().is_some_and(|want| in_request(want, request));
            let row = table.entry((part, catalog)).or_default();
            row[0] += 1;
            row[1] += usize::from(right);
            row[2] += usize::from(labelled);
            row[3] += usize::from(arguments_right);
            row[4] += usize::from(verbatim);
            row[5] += usize::from(verbatim && arguments_right);
            let kind_row = kinds.entry((part, catalog_kind)).or_default();
            kind_row[0] += 1;
            kind_row[1] += usize::from(right);
            if show && part == "dev" && (!right || (labelled && !arguments_right)) {
                let got = calls.first().map(|c| format!("{} {}", c.name, c.arguments.raw_text()));
                let mark = if verbatim { " [verbatim]" } else { "" };
                eprintln!("{request:?}: expected {expected:?}, got {got:?}{mark}");
            }
        }
        for part in ["dev", "held_out"].into_iter().filter(|p| !explain && only.is_none_or(|only| only == *p)) {
            let rows: Vec<_> = table.iter().filter(|((p, _), _)| *p == part).collect();
            let sum = |k: usize| rows.iter().map(|(_, r)| r[k]).sum::<usize>();
            let ratio = |a: usize, b: usize| if b == 0 { Value::Null } else { json!(round(a as f64 / b as f64)) };
            let per_catalog: serde_json::Map<String, Value> = rows
                .iter()
                .map(|((_, catalog), r)| {
                    (catalog.clone(), json!({"requests": r[0], "right": ratio(r[1], r[0]), "labelled_calls": r[2], "arguments_right": ratio(r[3], r[2]), "verbatim_calls": r[4], "verbatim_arguments_right": ratio(r[5], r[4])}))
                })
                .collect();
            let per_kind: serde_json::Map<String, Value> = kinds
                .iter()
                .filter(|((p, _), _)| *p == part)
                .map(|((_, kind), r)| (kind.clone(), json!(format!("{}/{}", r[1], r[0]))))
                .collect();
            let mut times = first_tokens.remove(part).unwrap_or_default();
            times.sort_by(f64::total_cmp);
            let median = times.get(times.len() / 2).copied().map(round);
            let max = times.last().copied().map(round);
            let warm_max = warms.remove(part).unwrap_or_default().into_iter().reduce(f64::max).map(round);
            out!(
                "{}",
                json!({"framework": "tackle", "bench": "local_decisions", "sets": sets, "part": part, "meaning": meaning_used,
                       "first_token_ms_median": median, "first_token_ms_max": max, "static_prompt_ms_max": warm_max,
                       "peak_rss_mb": peak_rss_mb().map(round),
                       "requests": sum(0), "right": ratio(sum(1), sum(0)),
                       "arguments_right": ratio(sum(3), sum(2)),
                       "verbatim_arguments_right": ratio(sum(5), sum(4)), "per_catalog": per_catalog,
                       "per_kind": per_kind})
            );
        }
        Ok::<_, Box<dyn std::error::Error>>(())
    })
}

/// What `decisions` measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// The whole path: the router decides, the model writes the call.
    Decide,
    /// How the router weighs each option, without generating.
    Explain,
    /// The labelled tool forced, its arguments judged.
    Arguments,
}

/// Whether every labelled argument can be copied from the request: one of its values (a
/// string, or a number as written) stands in it, ignoring case, or it may be left out.
fn in_request(want: &serde_json::Map<String, Value>, request: &str) -> bool {
    let request = request.to_lowercase();
    want.values().all(|values| {
        let values = values.as_array().cloned().unwrap_or_else(|| vec![values.clone()]);
        values.iter().any(|v| match v {
            Value::String(s) => s.is_empty() || request.contains(&s.to_lowercase()),
            Value::Number(n) => request.contains(&n.to_string()),
            _ => false,
        })
    })
}

/// A tool of a decision set's own catalog.
fn definition(tool: &Value) -> Result<Arc<ToolDefinition>, Box<dyn std::error::Error>> {
    let name = tool["name"].as_str().ok_or("a tool without a name")?;
    let parameters = JsonSchema::new(tool["parameters"].clone()).map_err(|e| format!("tool {name}: {e}"))?;
    Ok(Arc::new(ToolDefinition::new(name, tool["description"].as_str().unwrap_or_default(), parameters)))
}

/// The values each labelled argument may take: `accept` as written, or each of `arguments`
/// as its only value.
fn accepted(item: &Value) -> Option<serde_json::Map<String, Value>> {
    if let Some(accept) = item["accept"].as_object() {
        return Some(accept.clone());
    }
    item["arguments"].as_object().map(|a| a.iter().map(|(k, v)| (k.clone(), json!([v]))).collect())
}

/// Whether every labelled argument has one of its values, or is absent where `""` allows it
/// (see [`same`]).
fn arguments_match(want: &serde_json::Map<String, Value>, got: &serde_json::Map<String, Value>) -> bool {
    want.iter().all(|(name, values)| {
        let values = values.as_array().cloned().unwrap_or_else(|| vec![values.clone()]);
        match got.get(name) {
            Some(value) => values.iter().any(|v| same(v, value)),
            None => values.iter().any(|v| v.as_str() == Some("")),
        }
    })
}

/// Whether `got` is the labelled value `want`, as BFCL's checker reads one: numbers as
/// numbers (`133` is `133.0`), strings without regard to case or surrounding white space,
/// lists item by item, and an object as arguments of its own, each key with the values it
/// may take.
fn same(want: &Value, got: &Value) -> bool {
    match (want, got) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::String(x), Value::String(y)) => x.trim().eq_ignore_ascii_case(y.trim()),
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same(x, y)),
        (Value::Object(x), Value::Object(y)) => arguments_match(x, y),
        _ => want == got,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(value: Value) -> serde_json::Map<String, Value> {
        value.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn arguments_are_checked_as_bfcl_checks_them() {
        let want = map(json!({"numbers": [[133.0, 34.0]], "unit": ["", "celsius"], "city": ["Paris"]}));
        assert!(arguments_match(&want, &map(json!({"numbers": [133, 34], "city": " paris"}))));
        assert!(!arguments_match(&want, &map(json!({"numbers": [133, 34, 1], "city": "Paris"}))));
        assert!(!arguments_match(&want, &map(json!({"numbers": [133, 34]}))), "the city is labelled");
        assert!(!arguments_match(
            &want,
            &map(json!({"numbers": [133, 34], "city": "Paris", "unit": "kelvin"}))
        ));
        let nested = map(json!({"body": [{"mode": ["AIR_CLEAN"], "power": ["", false]}]}));
        assert!(arguments_match(&nested, &map(json!({"body": {"mode": "air_clean"}}))));
        assert!(arguments_match(&nested, &map(json!({"body": {"mode": "AIR_CLEAN", "power": false}}))));
        assert!(!arguments_match(&nested, &map(json!({"body": {}}))), "the mode is labelled");
        assert!(!arguments_match(&nested, &map(json!({"body": {"mode": "COOL"}}))));
    }
}

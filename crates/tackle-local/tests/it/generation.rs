//! Tokenizer, constrained calls, plain answers and a harness round trip on the real model.

use std::sync::Arc;

use futures_util::StreamExt as _;
use serde_json::{Value, json};
use tackle_core::{AssistantPart, Message, Model, ModelEvent, ModelRequest, ModelSettings, ToolChoice};

use tackle_local::LocalModel;

use super::{model, tools};

/// A tool definition from its name, description and parameter schema.
fn tool(name: &str, description: &str, parameters: Value) -> Arc<tackle_core::ToolDefinition> {
    Arc::new(tackle_core::ToolDefinition::new(
        name,
        description,
        tackle_core::JsonSchema::new(parameters).unwrap(),
    ))
}

async fn turn(model: &LocalModel, prompt: &str, choice: ToolChoice) -> (String, Vec<(String, Value)>) {
    turn_with(model, &tools(), prompt, choice).await
}

async fn turn_with(
    model: &LocalModel,
    tools: &[Arc<tackle_core::ToolDefinition>],
    prompt: &str,
    choice: ToolChoice,
) -> (String, Vec<(String, Value)>) {
    turn_with_instructions(model, "", tools, prompt, choice).await
}

async fn turn_with_instructions(
    model: &LocalModel,
    instructions: &str,
    tools: &[Arc<tackle_core::ToolDefinition>],
    prompt: &str,
    choice: ToolChoice,
) -> (String, Vec<(String, Value)>) {
    let messages = vec![Message::user(prompt)];
    let settings = ModelSettings::default().tool_choice(choice).max_output_tokens(60);
    let request = ModelRequest::new(instructions, &messages, tools, &settings);
    let mut stream = model.stream(request);
    let mut streamed = String::new();
    let mut calls = Vec::new();
    while let Some(event) = stream.next().await {
        match event.unwrap() {
            ModelEvent::TextDelta(text) => streamed.push_str(&text),
            ModelEvent::Completed(response) => {
                for part in response.turn.parts {
                    match part {
                        AssistantPart::ToolCall(call) => {
                            let tackle_core::ToolArguments::Json(arguments) = call.arguments else {
                                panic!("arguments are JSON")
                            };
                            calls.push((call.name, arguments));
                        }
                        AssistantPart::Text(text) => {
                            assert_eq!(text, streamed, "the turn holds what streamed")
                        }
                        _ => {}
                    }
                }
            }
            _ => {}
        }
    }
    (streamed, calls)
}

#[test]
fn the_tokenizer_round_trips_and_knows_the_chat_markup() {
    let Some(model) = model() else { return };
    for text in
        ["Hello world", "17 + 25 = 42", "  leading\tand\nlines", "naïve café 東京 🙂", "{\"a\": [1, 2]}"]
    {
        let ids = model.encode(text).unwrap();
        assert_eq!(model.decode(&ids), text);
    }
    assert_eq!(model.encode("<|im_start|>user\nHi<|im_end|>\n").unwrap(), [1, 4093, 198, 26843, 2, 198]);
    assert_eq!(model.encode("17").unwrap().len(), 2, "digits are split one by one");
}

#[tokio::test(flavor = "multi_thread")]
async fn forced_calls_are_valid_and_right_on_the_obvious_prompts() {
    let Some(model) = model() else { return };
    let (_, calls) = turn(model, "What is 17 plus 25?", ToolChoice::Required).await;
    assert_eq!(calls, [("add".to_owned(), json!({"a": 17, "b": 25}))]);
    let (_, calls) =
        turn(model, "What's the weather in Paris in celsius?", ToolChoice::Tool("get_weather".into())).await;
    assert_eq!(calls, [("get_weather".to_owned(), json!({"city": "Paris", "unit": "celsius"}))]);
    // Any prompt, forced: the call is valid against its tool's schema.
    let schemas: Vec<(String, Value)> =
        tools().iter().map(|t| (t.name.clone(), t.parameters.to_value())).collect();
    for prompt in
        ["Write a haiku about the sea.", "Is it cold in Oslo? Use fahrenheit.", "Please add 3.5 and 4."]
    {
        let (_, calls) = turn(model, prompt, ToolChoice::Required).await;
        assert_eq!(calls.len(), 1, "{prompt}");
        let (name, arguments) = &calls[0];
        let schema = &schemas.iter().find(|(n, _)| n == name).unwrap().1;
        let validator = jsonschema::validator_for(schema).unwrap();
        assert!(validator.is_valid(arguments), "{prompt}: {name} {arguments}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn addresses_are_copied_from_the_request_and_never_invented() {
    let Some(model) = model() else { return };
    let tools = vec![
        tool(
            "read_page",
            "Read a web page and return its main text.",
            json!({"type": "object", "properties": {"url": {"type": "string", "format": "uri"}}, "required": ["url"]}),
        ),
        tool(
            "search",
            "Search the web.",
            json!({"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}),
        ),
    ];
    // The word after the address is not glued on, and trailing punctuation stays out.
    for (prompt, url) in [
        ("Read https://example.com/ please", "https://example.com/"),
        (
            "What does https://docs.rs/tokio/latest/tokio/ say about runtimes?",
            "https://docs.rs/tokio/latest/tokio/",
        ),
        (
            "Summarise this: https://en.wikipedia.org/wiki/Rust_(programming_language).",
            "https://en.wikipedia.org/wiki/Rust_(programming_language)",
        ),
    ] {
        let (_, calls) = turn_with(model, &tools, prompt, ToolChoice::Tool("read_page".into())).await;
        assert_eq!(calls, [("read_page".to_owned(), json!({"url": url}))], "{prompt}");
    }
    // With no address written, a tool that needs one is never chosen.
    for prompt in ["Read the latest news about Rust please", "What is on the front page of the BBC today?"] {
        let (_, calls) = turn_with(model, &tools, prompt, ToolChoice::Auto).await;
        assert!(calls.iter().all(|(name, _)| name != "read_page"), "{prompt}: {calls:?}");
    }
}

/// Values the user wrote are copied, not made up: a city the model would not guess, an
/// enumeration written in another case, numbers in the order they were written. Without
/// the lean towards copies (`copy.rs`), this model wrote `{"city": "Hfalla", "unit":
/// "celsius"}` for the first.
#[tokio::test(flavor = "multi_thread")]
async fn values_are_copied_from_the_request() {
    let Some(model) = model() else { return };
    let (_, calls) =
        turn(model, "What's weather in Hyderabad in Fahrenheit", ToolChoice::Tool("get_weather".into()))
            .await;
    assert_eq!(calls, [("get_weather".to_owned(), json!({"city": "Hyderabad", "unit": "fahrenheit"}))]);
    let (_, calls) = turn(
        model,
        "I paid $999 for the laptop and 0.25 for the bag, add them",
        ToolChoice::Tool("add".into()),
    )
    .await;
    assert_eq!(calls, [("add".to_owned(), json!({"a": 999, "b": 0.25}))]);
}

/// Which span of the request goes into which value is weighed whole: each string the model
/// writes is compared, once closed, with the spans of the request it could have copied.
#[tokio::test(flavor = "multi_thread")]
async fn each_value_takes_the_span_of_the_request_it_names() {
    let Some(model) = model() else { return };
    let issues = tool(
        "list_issues",
        "List the issues of a GitHub repository.",
        json!({"type": "object", "properties": {
            "owner": {"type": "string", "description": "The account that owns the repository."},
            "repo": {"type": "string", "description": "The repository's name."}
        }, "required": ["owner", "repo"]}),
    );
    let (_, calls) = turn_with(
        model,
        std::slice::from_ref(&issues),
        "show me the open issues of acme/webshop",
        ToolChoice::Tool("list_issues".into()),
    )
    .await;
    assert_eq!(calls, [("list_issues".to_owned(), json!({"owner": "acme", "repo": "webshop"}))]);
}

/// What the user set in quotation marks is copied whole: the model alone stops after
/// `chicken`.
#[tokio::test(flavor = "multi_thread")]
async fn a_quoted_value_is_copied_whole() {
    let Some(model) = model() else { return };
    let change = tool(
        "change_food",
        "Change an item of the order.",
        json!({"type": "object", "properties": {
            "food_item": {"type": "string", "description": "The dish to change."},
            "modification_request": {"type": "string", "description": "What to change about it."}
        }, "required": ["food_item", "modification_request"]}),
    );
    let (_, calls) = turn_with(
        model,
        std::slice::from_ref(&change),
        "I'd like to modify my order by making the dish called 'chicken dish' to a new spice level 'extra spicy', please.",
        ToolChoice::Tool("change_food".into()),
    )
    .await;
    assert_eq!(
        calls,
        [(
            "change_food".to_owned(),
            json!({"food_item": "chicken dish", "modification_request": "extra spicy"})
        )]
    );
}

/// A word beside a span says which parameter it fills ("project with ID BLUEBIRD"), and a
/// value that only repeats its parameter's name (`project: "project"`) loses to any copy.
#[tokio::test(flavor = "multi_thread")]
async fn the_words_beside_a_value_say_which_parameter_it_fills() {
    let Some(model) = model() else { return };
    let analysis = tool(
        "get_analysis",
        "Retrieve the analysis trail of a vulnerability.",
        json!({"type": "object", "properties": {
            "project": {"type": "string", "description": "The project's UUID."},
            "component": {"type": "string", "description": "The component's UUID."},
            "vulnerability": {"type": "string", "description": "The vulnerability's UUID."}
        }, "required": ["project", "component", "vulnerability"]}),
    );
    let (_, calls) = turn_with(
        model,
        std::slice::from_ref(&analysis),
        "Can you pull the analysis for project with UUID BLUEBIRD, component XR2210 and vulnerability cve-77-a1?",
        ToolChoice::Tool("get_analysis".into()),
    )
    .await;
    assert_eq!(
        calls,
        [(
            "get_analysis".to_owned(),
            json!({"project": "BLUEBIRD", "component": "XR2210", "vulnerability": "cve-77-a1"})
        )]
    );
}

/// A name in capitals is copied whole ("Austin, TX"), and a list ends once an item repeats
/// a value the call holds (the model alone writes `"on", "on", …` until the call runs out of
/// tokens and is lost).
#[tokio::test(flavor = "multi_thread")]
async fn names_are_copied_whole_and_lists_end() {
    let Some(model) = model() else { return };
    let forecast = tool(
        "get_forecast",
        "The weather forecast for a place.",
        json!({"type": "object", "properties": {
            "location": {"type": "string", "description": "City and state, or city and country."}
        }, "required": ["location"]}),
    );
    let (_, calls) = turn_with(
        model,
        std::slice::from_ref(&forecast),
        "forecast for Austin, TX this week",
        ToolChoice::Tool("get_forecast".into()),
    )
    .await;
    assert_eq!(calls, [("get_forecast".to_owned(), json!({"location": "Austin, TX"}))]);

    let issue = tool(
        "create_issue",
        "Create a new issue in a GitHub repository.",
        json!({"type": "object", "properties": {
            "owner": {"type": "string", "description": "Repository owner"},
            "repo": {"type": "string", "description": "Repository name"},
            "title": {"type": "string", "description": "Issue title"},
            "body": {"type": "string", "description": "Issue body content"},
            "labels": {"type": "array", "items": {"type": "string"}, "description": "Labels to apply to this issue"}
        }, "required": ["owner", "repo", "title"]}),
    );
    let (_, calls) = turn_with(
        model,
        std::slice::from_ref(&issue),
        "open an issue in acme/webshop titled Checkout button does nothing on Safari",
        ToolChoice::Tool("create_issue".into()),
    )
    .await;
    let [(name, arguments)] = &calls[..] else { panic!("one call: {calls:?}") };
    assert_eq!(name, "create_issue");
    // Only the last item of the list may repeat a string written before it.
    let mut before: Vec<&Value> =
        ["owner", "repo", "title", "body"].iter().filter_map(|key| arguments.get(*key)).collect();
    let labels: Vec<&Value> =
        arguments.get("labels").and_then(Value::as_array).into_iter().flatten().collect();
    for (i, label) in labels.iter().enumerate() {
        assert!(
            i + 1 == labels.len() || !before.contains(label),
            "the list went on after a repeat: {arguments}"
        );
        before.push(label);
    }
}

/// An optional argument the user never gave is left to the tool's default: the model alone
/// adds `"unit": "seconds"`. (The command is the model's copy from the request: "dir
/// Desktop" with the file's weights as Q8_0, "dir" with them re-encoded as Q4_K.)
#[tokio::test(flavor = "multi_thread")]
async fn an_optional_argument_nobody_gave_is_left_out() {
    let Some(model) = model() else { return };
    let execute = tool(
        "cmd_controller_execute",
        "Executes a command on the Windows command line.",
        json!({"type": "object", "properties": {
            "command": {"type": "string", "description": "The command to run."},
            "unit": {"type": "string", "enum": ["seconds", "milliseconds"], "default": "N/A",
                     "description": "The unit in which the time the command takes is measured."}
        }, "required": ["command"]}),
    );
    let (_, calls) = turn_with(
        model,
        std::slice::from_ref(&execute),
        "list file in desktop using dir Desktop",
        ToolChoice::Tool("cmd_controller_execute".into()),
    )
    .await;
    let [(name, arguments)] = calls.as_slice() else { panic!("one call: {calls:?}") };
    assert_eq!(name, "cmd_controller_execute");
    let command = arguments["command"].as_str().expect("a command");
    assert!(command.starts_with("dir") && "using dir Desktop".contains(command), "{arguments}");
    assert_eq!(arguments.as_object().map(|o| o.len()), Some(1), "{arguments}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_plain_answer_streams_and_the_prefilled_prompt_is_reused() {
    let Some(model) = model() else { return };
    let tools = tools();
    model.prefill("Be brief and kind; answer in the language of the question.", &tools).unwrap();
    let (text, calls) = turn_with_instructions(
        model,
        "Be brief and kind; answer in the language of the question.",
        &tools,
        "Hello, who are you?",
        ToolChoice::Auto,
    )
    .await;
    assert!(calls.is_empty(), "chit-chat needs no tool");
    assert!(!text.trim().is_empty());
    // A routed answer's system text lists no tools, and it was warmed: only the question
    // (about a dozen tokens with its markers) is processed.
    let stats = model.stats();
    assert!(stats.cached_tokens > 10, "the system text came from the prefilled state: {stats:?}");
    assert!(stats.prompt_tokens - stats.cached_tokens < 20, "{stats:?}");
    assert!(stats.output_tokens > 0);
    let (text, calls) = turn(model, "Hello, who are you?", ToolChoice::None).await;
    assert!(calls.is_empty());
    assert!(!text.trim().is_empty());
}

/// Once the router has chosen, the prompt lists only the tool chosen (or none): a call or
/// an answer is as quick over forty tools as over two, and no catalog's system text is
/// held.
#[tokio::test(flavor = "multi_thread")]
async fn a_routed_prompt_does_not_grow_with_the_catalog() {
    let Some(model) = model() else { return };
    let small = tools();
    let mut large = small.clone();
    for i in 0..40 {
        large.push(tool(
            &format!("inventory_report_{i}"),
            "Summarises the stock levels, reorder points and supplier lead times of one warehouse \
             section, with the items below their reorder point listed first.",
            json!({"type": "object", "properties": {
                "section": {"type": "string", "description": "The warehouse section's code."},
                "include_suppliers": {"type": "boolean"}
            }, "required": ["section"]}),
        ));
    }
    for (prompt, called) in [("What's the weather in Lisbon?", true), ("Write a haiku about autumn.", false)]
    {
        let mut sizes = Vec::new();
        for catalog in [&small, &large] {
            let (_, calls) = turn_with(model, catalog, prompt, ToolChoice::Auto).await;
            assert_eq!(!calls.is_empty(), called, "{prompt}: {calls:?}");
            sizes.push(model.stats().prompt_tokens);
        }
        assert_eq!(sizes[0], sizes[1], "{prompt}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn the_harness_feeds_a_tool_result_back_into_a_final_answer() {
    use tackle_harness::{Harness, RunOutcome};
    use tackle_tools::{RunContext, ToolContext, ToolError, ToolRegistry, typed_tool};
    let Some(model) = model() else { return };

    #[derive(serde::Deserialize, schemars::JsonSchema)]
    struct AddArgs {
        /// The first number.
        a: f64,
        /// The second number.
        b: f64,
    }
    let add = typed_tool("add", "Add two numbers.", |_ctx: ToolContext, args: AddArgs| async move {
        Ok::<_, ToolError>(format!("{}", args.a + args.b))
    })
    .build()
    .unwrap();
    let registry = ToolRegistry::builder().tool(add).build().unwrap();
    let settings = ModelSettings::default().tool_choice(ToolChoice::Required).max_output_tokens(40);
    let harness = Harness::new(registry).model_settings(settings);
    let mut state = harness.start("local-run", vec![Message::user("What is 17 plus 25?")]);
    let ctx = Arc::new(RunContext::new("local-run"));
    let outcome = harness.run(model, &ctx, &mut state, &mut tackle_harness::Discard).await.unwrap();
    let RunOutcome::Answered(answer) = outcome else { panic!("the run answers") };
    assert!(answer.model_answered, "{answer:?}");
    assert!(!answer.text.trim().is_empty());
    assert_eq!(state.traces.len(), 1, "one call, then the answer");
    assert_eq!(state.traces[0].tool, "add");
    assert_eq!(state.traces[0].status, tackle_core::ToolStatus::Ok);
    assert_eq!(state.traces[0].arguments, json!({"a": 17, "b": 25}));
}

/// An embedder for the router tests: texts about the weather point one way, all others
/// another; or, failing, no vectors at all.
struct Topics {
    fail: bool,
}

impl tackle_core::Embedder for Topics {
    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, tackle_core::EmbedError> {
        if self.fail {
            return Err(tackle_core::EmbedError { embedder: "topics".into(), message: "no model".into() });
        }
        Ok(texts
            .iter()
            .map(|t| if t.to_lowercase().contains("forecast") { vec![1.0, 0.0] } else { vec![0.0, 1.0] })
            .collect())
    }

    fn name(&self) -> &str {
        "topics"
    }
}

#[tokio::test]
async fn the_router_reads_meaning_when_it_has_an_embedder() {
    let Some(model) = model() else { return };
    let tool = |name: &str, description: &str| {
        Arc::new(tackle_core::ToolDefinition::new(
            name,
            description,
            tackle_core::JsonSchema::new(json!({"type": "object", "properties": {"q": {"type": "string"}}}))
                .unwrap(),
        ))
    };
    let catalog = vec![
        tool("play_music", "Play a song or a playlist."),
        tool("send_email", "Send an email to someone."),
        tool("weather_report", "The forecast for a place."),
        tool("set_alarm", "Set an alarm for a time."),
        tool("order_taxi", "Order a taxi to an address."),
        tool("take_note", "Write down a note."),
    ];
    // The request says nothing the model could match; meaning points to the forecast.
    let prompt = "forecast: will I need an umbrella in Oslo tomorrow?";
    let reading = model.clone().embedder(Arc::new(Topics { fail: false }));
    let (_, calls) = turn_with(&reading, &catalog, prompt, ToolChoice::Auto).await;
    assert_eq!(calls.first().map(|c| c.0.as_str()), Some("weather_report"), "{calls:?}");
    // An embedder that fails leaves the decision to the model: it still answers or calls.
    let alone = model.clone().embedder(Arc::new(Topics { fail: true }));
    let (text, calls) = turn_with(&alone, &catalog, prompt, ToolChoice::Auto).await;
    assert!(!text.is_empty() || !calls.is_empty());
}

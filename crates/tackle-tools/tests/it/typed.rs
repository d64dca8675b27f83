use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;
use tackle_core::ToolStatus;
use tackle_tools::{Executor, Json, ToolContext, ToolError, ToolRegistry, typed_tool};

use super::{add_tool, call, run_batch};

#[derive(Deserialize, JsonSchema)]
struct SearchArgs {
    /// What to search for.
    query: String,
    /// How many results to return.
    #[serde(default = "five")]
    limit: u32,
    /// Restrict to these sites.
    #[serde(default)]
    sites: Vec<String>,
}

fn five() -> u32 {
    5
}

#[derive(Serialize, JsonSchema)]
struct Hit {
    title: String,
    rank: u32,
}

#[tokio::test]
async fn doc_comments_become_descriptions_and_defaults_are_optional() {
    let tool = typed_tool("search", "Search.", |_ctx: ToolContext, args: SearchArgs| async move {
        let hits: Vec<Hit> =
            (0..args.limit.min(2)).map(|rank| Hit { title: args.query.clone(), rank }).collect();
        Ok::<_, ToolError>(Json(json!({"hits": hits, "sites": args.sites.len()})))
    })
    .returns::<Vec<Hit>>()
    .build()
    .unwrap();
    let params = tool.definition().parameters.to_value();
    assert_eq!(params["properties"]["query"]["description"], "What to search for.");
    assert_eq!(params["properties"]["limit"]["description"], "How many results to return.");
    assert_eq!(params["required"], json!(["query"]));
    assert!(params.get("title").is_none() && params.get("$schema").is_none());
    assert!(tool.definition().return_schema.is_some());

    let registry = ToolRegistry::builder().tool(tool).build().unwrap();
    let out = run_batch(&Executor::new(), &registry, &[call("c1", "search", json!({"query": "rust"}))]).await;
    let ret = &out.returns[0];
    assert_eq!(ret.status, ToolStatus::Ok, "{ret:?}");
    assert_eq!(ret.content.json.as_ref().unwrap()["hits"][1]["rank"], 1);
    assert_eq!(
        ret.model_text(),
        r#"{"hits":[{"title":"rust","rank":0},{"title":"rust","rank":1}],"sites":0}"#
    );
}

#[tokio::test]
async fn wrong_arguments_ask_the_model_to_correct_them() {
    let registry = ToolRegistry::builder().tool(add_tool()).build().unwrap();
    let calls = [
        call("c1", "add", json!({"a": "one", "b": 2})),
        call("c2", "add", json!({"a": 1})),
        call("c3", "add", json!([1, 2])),
        tackle_core::ToolCall::from_raw("c4", "add", r#"{"a": 1, "b": "#),
    ];
    let out = run_batch(&Executor::new(), &registry, &calls).await;
    for ret in &out.returns {
        assert_eq!(ret.status, ToolStatus::InvalidArguments, "{ret:?}");
        assert!(ret.model_text().starts_with("Invalid arguments for tool `add`"), "{}", ret.model_text());
    }
    assert!(out.returns[0].model_text().contains("`/a`"));
    assert!(out.returns[1].model_text().contains("\"b\" is a required property"));
    assert!(out.returns[2].model_text().contains("must be a JSON object, not an array"));
    assert!(out.returns[3].model_text().contains("not valid JSON"));
}

#[tokio::test]
async fn a_typed_output_is_json_and_a_string_output_is_text() {
    let registry = ToolRegistry::builder().tool(add_tool()).build().unwrap();
    let out = run_batch(&Executor::new(), &registry, &[call("c1", "add", json!({"a": 2, "b": 40}))]).await;
    assert_eq!(out.returns[0].content.json, Some(json!(42)));
    assert_eq!(out.returns[0].model_text(), "42");
    assert_eq!(out.returns[0].call_id, "c1");
    assert_eq!(out.returns[0].tool_name, "add");
}

#[test]
fn argument_types_that_are_not_objects_are_refused_at_build_time() {
    let err = typed_tool("bad", "", |_ctx: ToolContext, s: String| async move { Ok::<_, ToolError>(s) })
        .build()
        .unwrap_err();
    assert!(err.to_string().contains("\"type\": \"object\""), "{err}");
}

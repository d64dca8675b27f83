use std::time::Duration;

use proptest::prelude::*;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;
use tackle_core::ToolStatus;
use tackle_tools::{
    Executor, Json, ToolContext, ToolError, ToolRegistry, ToolReturn, function_tool, typed_tool,
};

use super::{call, run_batch};

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_time().start_paused(true).build().unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Whatever order calls finish in, results come back in call order.
    #[test]
    fn returns_come_back_in_call_order(
        delays in prop::collection::vec((0usize..4, 0u64..50), 1..24),
        concurrency in 1usize..10,
    ) {
        let registry = ToolRegistry::builder()
            .tool(sleeper("s0")).tool(sleeper("s1")).tool(sleeper("s2")).tool(sleeper_builder("s3").sequential().build().unwrap())
            .build()
            .unwrap();
        let calls: Vec<_> = delays
            .iter()
            .enumerate()
            .map(|(i, (tool, ms))| call(&format!("c{i}"), &format!("s{tool}"), json!({"ms": ms})))
            .collect();
        let out = runtime().block_on(run_batch(&Executor::new().concurrency(concurrency), &registry, &calls));
        prop_assert_eq!(out.returns.len(), calls.len());
        for (ret, call) in out.returns.iter().zip(&calls) {
            prop_assert_eq!(&ret.call_id, &call.id);
            prop_assert_eq!(ret.model_text(), call.id.as_str());
        }
    }
}

fn sleeper_builder(name: &str) -> tackle_tools::ToolBuilder {
    function_tool(
        name,
        "Sleep, then answer with the call id.",
        json!({"type": "object", "properties": {"ms": {"type": "integer", "minimum": 0}}, "required": ["ms"]}),
        |ctx: ToolContext, args| async move {
            tokio::time::sleep(Duration::from_millis(args["ms"].as_u64().unwrap_or(0))).await;
            Ok::<_, ToolError>(ToolReturn::text(ctx.call_id().to_owned()))
        },
    )
}

fn sleeper(name: &str) -> tackle_tools::FunctionTool {
    sleeper_builder(name).build().unwrap()
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
enum Mode {
    Fast,
    Careful { depth: u8 },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
struct Inner {
    label: String,
    weight: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
struct Everything {
    /// A count.
    count: u32,
    delta: i64,
    flag: bool,
    name: String,
    tags: Vec<String>,
    inner: Inner,
    maybe: Option<Inner>,
    mode: Mode,
    #[serde(default)]
    extra: Vec<u16>,
}

fn arb_everything() -> impl Strategy<Value = Everything> {
    let inner = (".{0,8}", proptest::option::of(-1.0e6f64..1.0e6))
        .prop_map(|(label, weight)| Inner { label, weight });
    let mode = prop_oneof![Just(Mode::Fast), any::<u8>().prop_map(|depth| Mode::Careful { depth })];
    (
        any::<u32>(),
        any::<i64>(),
        any::<bool>(),
        ".{0,12}",
        prop::collection::vec(".{0,5}", 0..4),
        inner.clone(),
        proptest::option::of(inner),
        mode,
        prop::collection::vec(any::<u16>(), 0..4),
    )
        .prop_map(|(count, delta, flag, name, tags, inner, maybe, mode, extra)| Everything {
            count,
            delta,
            flag,
            name,
            tags,
            inner,
            maybe,
            mode,
            extra,
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// A schema derived by schemars accepts every value of the type it describes, and the
    /// typed tool receives exactly that value.
    #[test]
    fn derived_schemas_accept_the_values_they_describe(value in arb_everything()) {
        let registry = ToolRegistry::builder()
            .tool(typed_tool("mirror", "Send the arguments back.", |_ctx: ToolContext, args: Everything| async move {
                Ok::<_, ToolError>(Json(args))
            }).build().unwrap())
            .build()
            .unwrap();
        let args = serde_json::to_value(&value).unwrap();
        let out = runtime().block_on(run_batch(&Executor::new(), &registry, &[call("c1", "mirror", args)]));
        let ret = &out.returns[0];
        prop_assert_eq!(ret.status, ToolStatus::Ok, "{}", ret.model_text());
        let back: Everything = serde_json::from_value(ret.content.json.clone().unwrap()).unwrap();
        prop_assert_eq!(back, value);
    }
}

use std::sync::Arc;

use serde_json::json;
use tackle_core::{ToolKind, ToolStatus};
use tackle_tools::{
    Combined, ExecutionState, Executor, NotOffered, RunContext, StaticToolset, ToolContext, ToolError,
    ToolRegistry, Toolset, ToolsetExt, function_tool,
};

use super::{add_tool, call, echo_tool};

fn with_policy(name: &str, group: Option<&str>, text: &str) -> tackle_tools::FunctionTool {
    let builder =
        function_tool(name, "x", json!({"type": "object"}), |_ctx: ToolContext, _args| async move {
            Ok::<_, ToolError>("ok")
        });
    match group {
        Some(group) => builder.policy_in_group(group, text),
        None => builder.policy(text),
    }
    .build()
    .unwrap()
}

#[tokio::test]
async fn prefixed_toolsets_are_namespaces_that_still_run() {
    let math = StaticToolset::new("math").tool(add_tool()).prefixed("calc");
    let registry = ToolRegistry::builder().toolset(math).tool(add_tool()).build().unwrap();
    let run = Arc::new(RunContext::new("r"));
    let offer = registry.offer(&run);
    assert_eq!(offer.names().collect::<Vec<_>>(), ["calc_add", "add"]);
    let out = Executor::new()
        .execute(
            &offer,
            &run,
            &[call("c1", "calc_add", json!({"a": 2, "b": 3}))],
            &mut ExecutionState::default(),
        )
        .await;
    assert_eq!(out.returns[0].model_text(), "5");
    assert_eq!(out.returns[0].tool_name, "calc_add");
}

#[test]
fn renamed_filtered_approval_and_combined() {
    let base = || StaticToolset::new("basic").tool(add_tool()).tool(echo_tool());
    let renamed = base().renamed([("echo", "repeat")]);
    let names: Vec<_> = renamed.entries().into_iter().map(|e| e.unwrap().definition.name).collect();
    assert_eq!(names, ["add", "repeat"]);

    let filtered = base().filtered(|run, def| def.name != "echo" || run.run_id == "echo-ok");
    let registry = ToolRegistry::builder().toolset(filtered).build().unwrap();
    let report = registry.availability(&RunContext::new("r"));
    assert_eq!(
        report.not_offered().next(),
        Some(("echo", &NotOffered::FilteredOut { toolset: "basic".into() }))
    );
    assert_eq!(registry.offer(&RunContext::new("echo-ok")).len(), 2);

    let approval = base().approval_required_if(|def| def.name == "echo");
    let kinds: Vec<_> = approval.entries().into_iter().map(|e| e.unwrap().definition.kind).collect();
    assert_eq!(kinds, [ToolKind::Function, ToolKind::ApprovalRequired]);

    let combined = Combined::new(
        "all",
        vec![
            Arc::new(StaticToolset::new("a").tool(add_tool())),
            Arc::new(StaticToolset::new("b").tool(echo_tool()).approval_required()),
        ],
    );
    let registry = ToolRegistry::builder().toolset(combined).build().unwrap();
    let defs: Vec<_> = registry.definitions().map(|d| (d.name.clone(), d.kind)).collect();
    assert_eq!(
        defs,
        [("add".to_owned(), ToolKind::Function), ("echo".to_owned(), ToolKind::ApprovalRequired)]
    );
}

#[tokio::test]
async fn approval_required_tools_suspend_until_approved() {
    let registry = ToolRegistry::builder()
        .toolset(StaticToolset::new("basic").tool(echo_tool()).approval_required())
        .build()
        .unwrap();
    let run = Arc::new(RunContext::new("r"));
    let offer = registry.offer(&run);
    let calls = [call("c1", "echo", json!({"text": "hi"}))];
    let mut state = ExecutionState::default();
    let out = Executor::new().execute(&offer, &run, &calls, &mut state).await;
    assert_eq!(out.returns[0].status, ToolStatus::ApprovalRequired);
    state.approve("c1");
    let out = Executor::new().execute(&offer, &run, &calls, &mut state).await;
    assert_eq!(out.returns[0].status, ToolStatus::Ok);
    assert_eq!(out.returns[0].model_text(), "hi");
    assert!(state.approved.is_empty(), "an approval is used once");
    // Invalid arguments are reported before a human is asked.
    let bad = [call("c2", "echo", json!({"text": 5}))];
    let out = Executor::new().execute(&offer, &run, &bad, &mut state).await;
    assert_eq!(out.returns[0].status, ToolStatus::InvalidArguments);
}

#[tokio::test]
async fn deferred_tools_do_not_run_here() {
    let tool = function_tool(
        "ticket",
        "Open a ticket.",
        json!({"type": "object"}),
        |_ctx: ToolContext, _args| async move { Ok::<_, ToolError>("ran") },
    )
    .kind(ToolKind::Deferred)
    .build()
    .unwrap();
    let registry = ToolRegistry::builder().tool(tool).build().unwrap();
    let out = super::run_batch(&Executor::new(), &registry, &[call("c1", "ticket", json!({}))]).await;
    assert_eq!(out.returns[0].status, ToolStatus::Deferred);
    assert!(!out.returns[0].status.rule().reaches_model);
}

#[test]
fn policy_instructions_one_per_group_deduplicated_in_order() {
    let registry = ToolRegistry::builder()
        .tool(with_policy("read_file", Some("files"), "Read before you edit."))
        .tool(with_policy("search", None, "Cite your sources."))
        .tool(with_policy("edit_file", Some("files"), "Something else for the same group."))
        .tool(with_policy("fetch", None, "Cite your sources."))
        .tool(with_policy("clock", None, "Times are UTC."))
        .build()
        .unwrap();
    let offer = registry.offer(&RunContext::new("r"));
    assert_eq!(
        offer.policy_instructions(),
        [("files", "Read before you edit."), ("search", "Cite your sources."), ("clock", "Times are UTC.")]
    );
}

#[tokio::test]
async fn a_waiver_lets_named_tools_run_without_approval() {
    let needs = StaticToolset::new("basic").tool(echo_tool()).tool(add_tool()).approval_required();
    let registry =
        ToolRegistry::builder().toolset(needs.approval_waived_if(|d| d.name == "echo")).build().unwrap();
    assert_eq!(registry.definition("echo").unwrap().kind, ToolKind::Function);
    assert_eq!(registry.definition("add").unwrap().kind, ToolKind::ApprovalRequired);
    let run = Arc::new(RunContext::new("r"));
    let offer = registry.offer(&run);
    let out = Executor::new()
        .execute(&offer, &run, &[call("c1", "echo", json!({"text": "hi"}))], &mut ExecutionState::default())
        .await;
    assert_eq!(out.returns[0].status, ToolStatus::Ok);
}

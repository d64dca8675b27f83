use std::sync::Arc;

use serde_json::json;
use tackle_core::{Confidence, SettingField, ToolStatus};
use tackle_tools::{
    ExecutionState, Executor, MemorySecretStore, NotOffered, Plan, RegistryProblem, RunContext, Settings,
    StaticToolset, ToolContext, ToolError, ToolRegistry, ToolReturn, function_tool, typed_tool,
};

use super::{AddArgs, add_tool, call};

fn plain(name: &str) -> tackle_tools::ToolBuilder {
    function_tool(
        name,
        "A tool.",
        json!({"type": "object", "properties": {}}),
        |_ctx: ToolContext, _args| async move { Ok::<_, ToolError>("ok") },
    )
}

#[test]
fn every_definition_is_validated_and_every_problem_reported() {
    let bad_schema = function_tool(
        "bad_schema",
        "",
        json!({"type": "object", "properties": {"x": {"type": "strng"}}}),
        |_ctx: ToolContext, _args| async move { Ok::<_, ToolError>("x") },
    );
    // The builder refuses it on its own...
    assert!(bad_schema.build().is_err());
    // ...and so does the registry for tools that skip the builder.
    struct Raw;
    impl tackle_tools::DynTool for Raw {
        fn definition(&self) -> Result<tackle_core::ToolDefinition, tackle_core::DefinitionError> {
            let schema =
                tackle_core::JsonSchema::new(json!({"type": "object", "properties": {"x": {"type": 5}}}))
                    .unwrap();
            let mut def = tackle_core::ToolDefinition::new("raw tool", "", schema);
            def.visibility.allowed.push("writer".into());
            def.settings.fields.push(SettingField::new("lang").option_source("languages"));
            Ok(def)
        }
        fn call<'a>(
            &'a self,
            _ctx: ToolContext,
            _args: serde_json::Map<String, serde_json::Value>,
        ) -> std::pin::Pin<Box<dyn std::future::Future<Output = Result<ToolReturn, ToolError>> + Send + 'a>>
        {
            Box::pin(async { Ok(ToolReturn::text("")) })
        }
    }
    let err = ToolRegistry::builder()
        .components(["chat"])
        .tool(Raw)
        .tool(add_tool())
        .toolset(StaticToolset::new("math").tool(add_tool()))
        .build()
        .unwrap_err();
    let text = err.to_string();
    for expected in [
        "invalid name \"raw tool\"",
        "parameters are not a valid JSON Schema",
        "component \"writer\" is not a known component",
        "unknown option source \"languages\"",
        "tool name \"add\" is used twice: by toolset \"code\" and by toolset \"math\"",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in:\n{text}");
    }
    assert!(err.problems.iter().any(|p| matches!(p, RegistryProblem::Duplicate { .. })));
}

#[test]
fn offers_keep_registration_order() {
    let registry = ToolRegistry::builder()
        .tool(plain("zeta").build().unwrap())
        .tool(plain("alpha").build().unwrap())
        .tool(plain("mid").build().unwrap())
        .build()
        .unwrap();
    let run = RunContext::new("r");
    let names: Vec<_> = registry.offer(&run).names().map(str::to_owned).collect();
    assert_eq!(names, ["zeta", "alpha", "mid"]);
    let again: Vec<_> = registry.offer(&run).definitions().iter().map(|d| d.name.clone()).collect();
    assert_eq!(names, again);
}

fn reason(registry: &ToolRegistry, run: &RunContext, name: &str) -> Option<NotOffered> {
    registry.availability(run).tools.into_iter().find(|t| t.name == name).unwrap().status.err()
}

#[test]
fn every_gate_has_its_reason() {
    let store = Arc::new(MemorySecretStore::new());
    let registry = ToolRegistry::builder()
        .option_source("units", ["c", "f"])
        .tool(plain("free").build().unwrap())
        .tool(plain("legal_only").allow_in("legal").build().unwrap())
        .tool(plain("no_legal").deny_in("legal").build().unwrap())
        .tool(plain("needs_key").setting(SettingField::new("api_key").required().secret()).build().unwrap())
        .tool(plain("unit").setting(SettingField::new("unit").option_source("units")).build().unwrap())
        .tool(plain("trusted").min_confidence(Confidence::High).build().unwrap())
        .tool(plain("premium").capability("web_search").build().unwrap())
        .tool(plain("memory").keeps_conversation_state().build().unwrap())
        .tool(plain("grep").hidden_by_tag("remote-search").build().unwrap())
        .tool(plain("gated").available_when(|run| run.run_id == "special").build().unwrap())
        .tool(plain("hidden").prepare(|_, _| None).build().unwrap())
        .build()
        .unwrap();

    let mut run = RunContext::new("r")
        .confidence(Confidence::Medium)
        .plan(Plan::new("free", ["memory"]))
        .settings(Settings::new().user("unit.unit", "k").secrets(store.clone()))
        .temporary(true);
    run.active_tags.insert("remote-search".into());
    let report = registry.availability(&run);
    assert_eq!(report.offered().collect::<Vec<_>>(), ["free", "no_legal"]);
    assert_eq!(
        reason(&registry, &run, "legal_only"),
        Some(NotOffered::NotVisibleHere { component: "chat".into() })
    );
    assert_eq!(
        reason(&registry, &run, "needs_key"),
        Some(NotOffered::NotConfigured { missing: vec!["api_key".into()] })
    );
    assert_eq!(reason(&registry, &run, "unit"), Some(NotOffered::InvalidSetting { field: "unit".into() }));
    assert_eq!(
        reason(&registry, &run, "trusted"),
        Some(NotOffered::ConfidenceTooLow { required: Confidence::High, provider: Confidence::Medium })
    );
    assert_eq!(
        reason(&registry, &run, "premium"),
        Some(NotOffered::NotInPlan { capability: "web_search".into() })
    );
    assert_eq!(reason(&registry, &run, "memory"), Some(NotOffered::TemporaryConversation));
    assert_eq!(
        reason(&registry, &run, "grep"),
        Some(NotOffered::HiddenByTag { tag: "remote-search".into() })
    );
    assert_eq!(reason(&registry, &run, "gated"), Some(NotOffered::Unavailable));
    assert_eq!(reason(&registry, &run, "hidden"), Some(NotOffered::HiddenForThisRun));
    assert!(reason(&registry, &run, "needs_key").unwrap().to_string().contains("missing api_key"));

    // Fix each gate and the tool comes back.
    store.set("needs_key", "api_key", "k-1");
    run.settings = run.settings.clone().user("unit.unit", "f");
    run.provider_confidence = Confidence::High;
    run.plan = Some(Plan::new("pro", ["web_search", "memory"]));
    run.temporary = false;
    run.active_tags.clear();
    run.run_id = "special".into();
    let offered: Vec<_> = registry.availability(&run).offered().map(str::to_owned).collect();
    assert_eq!(
        offered,
        ["free", "no_legal", "needs_key", "unit", "trusted", "premium", "memory", "grep", "gated"]
    );

    // The user's own switches, the host's kill list and the global switch.
    run.preferences.disabled_capabilities.insert("web_search".into());
    run.preferences.disabled_tools.insert("memory".into());
    run.disabled_tools.insert("free".into());
    assert_eq!(reason(&registry, &run, "premium"), Some(NotOffered::TurnedOffByUser));
    assert_eq!(reason(&registry, &run, "memory"), Some(NotOffered::TurnedOffByUser));
    assert_eq!(reason(&registry, &run, "free"), Some(NotOffered::Disabled));
    run.model_supports_tools = false;
    assert_eq!(reason(&registry, &run, "grep"), Some(NotOffered::ModelCannotUseTools));
    run.tools_enabled = false;
    assert!(registry.offer(&run).is_empty());

    // Deny wins in the denied component.
    let legal = RunContext::new("r").component("legal");
    assert!(registry.offer(&legal).get("legal_only").is_some());
    assert_eq!(
        reason(&registry, &legal, "no_legal"),
        Some(NotOffered::NotVisibleHere { component: "legal".into() })
    );
}

#[test]
fn locked_settings_beat_the_user() {
    let registry = ToolRegistry::builder()
        .tool(
            plain("unit").setting(SettingField::new("unit").choices(["c", "f"]).required()).build().unwrap(),
        )
        .build()
        .unwrap();
    let run = RunContext::new("r").settings(Settings::new().user("unit.unit", "k").lock("unit.unit", "c"));
    assert!(registry.offer(&run).get("unit").is_some());
    let run = RunContext::new("r").settings(Settings::new().default_value("unit.unit", "f"));
    assert!(registry.offer(&run).get("unit").is_some());
}

#[tokio::test]
async fn only_offered_tools_run() {
    let registry = ToolRegistry::builder().tool(add_tool()).tool(hidden_echo()).build().unwrap();
    let run = Arc::new(RunContext::new("r"));
    let offer = registry.offer(&run);
    let calls = [
        call("c1", "echo", json!({"text": "hi"})),
        call("c2", "delete_everything", json!({})),
        call("c3", "add", json!({"a": 1, "b": 1})),
    ];
    let out = Executor::new().execute(&offer, &run, &calls, &mut ExecutionState::default()).await;
    assert_eq!(out.returns[0].status, ToolStatus::NotAvailable);
    assert_eq!(
        out.returns[0].model_text(),
        "Tool `echo` is not available. Use only the tools you were given."
    );
    assert_eq!(out.returns[1].status, ToolStatus::NotAvailable);
    assert_eq!(out.returns[2].status, ToolStatus::Ok);
}

fn hidden_echo() -> tackle_tools::FunctionTool {
    function_tool(
        "echo",
        "Send the text back.",
        json!({"type": "object", "properties": {"text": {"type": "string"}}}),
        |_ctx: ToolContext, _args| async move { Ok::<_, ToolError>("never") },
    )
    .prepare(|_, _| None)
    .build()
    .unwrap()
}

#[tokio::test]
async fn prepare_can_rewrite_the_definition_per_run() {
    let tool =
        typed_tool(
            "add",
            "Add.",
            |_ctx: ToolContext, a: AddArgs| async move { Ok::<_, ToolError>(a.a + a.b) },
        )
        .prepare(|run, def| {
            let mut def = def.clone();
            def.description = format!("Add, for run {}.", run.run_id);
            def.name = "renamed_by_mistake".into();
            Some(def)
        })
        .build()
        .unwrap();
    let registry = ToolRegistry::builder().tool(tool).build().unwrap();
    let offer = registry.offer(&RunContext::new("r7"));
    let def = offer.get("add").unwrap().definition();
    assert_eq!(def.description, "Add, for run r7.");
    assert_eq!(def.name, "add", "a prepare step cannot rename a tool");
}

//! Tool search over 237 real MCP tool definitions, by words alone: requests written the way
//! people ask, each answered by `search_tools` through a registry, the right tool among the
//! five found. The held-out parts (every third request of the first two sets, and sets 3
//! to 6 whole) are the figures reported. Sets 3 to 5 were scored by words alone before
//! their misses under the fused ranking were read (to choose its weight and its places);
//! set 6 never was.
#![allow(clippy::unwrap_used, clippy::print_stderr, missing_docs)]

use std::sync::Arc;

use serde_json::{Value, json};
use tackle_tools::{ExecutionState, Executor, RunContext, SearchOptions};

mod catalog;

use catalog::{catalog, evaluate, search};

#[tokio::test]
async fn the_right_tool_is_among_the_first_five() {
    let registry = catalog().with_tool_search(SearchOptions::default()).unwrap();
    assert_eq!(registry.len(), 239, "237 tools and the two search tools");
    let rate = |(hits, n): (usize, usize)| hits as f64 / n as f64;
    // Every third request of the first two sets is held out; the later sets wholly.
    let every_third: fn(usize) -> bool = |i| i % 3 == 2;
    let all: fn(usize) -> bool = |_| true;
    for (set, requests, held_out_lines, dev_floor, held_out_floor) in [
        // Floors against regressions, below what was measured when the ranking was fixed.
        // Sets 3 to 15 are scored whole here, but their misses were read while the words
        // were chosen; only sets 16 and 17 (and the held-out thirds of 1 and 2) never were
        // (scored whole: set 1 0.918, set 2 0.854, set 3 0.835, set 4 0.851, set 5 0.875, set 6
        // 0.798, set 7 0.813, set 8 0.823, set 9 0.862, set 10 0.874, set 11 0.881, set 12
        // 0.841, set 13 0.810, set 14 0.798, set 15 0.831, set 16 0.801, set 17 0.861). Words alone; with an
        // embedder (tackle-local's tests) the figures are higher.
        ("1", include_str!("../data/tool-requests.jsonl"), every_third, 0.95, 0.85),
        ("2", include_str!("../data/tool-requests-2.jsonl"), every_third, 0.9, 0.82),
        ("3", include_str!("../data/tool-requests-3.jsonl"), all, 0.0, 0.8),
        ("4", include_str!("../data/tool-requests-4.jsonl"), all, 0.0, 0.82),
        ("5", include_str!("../data/tool-requests-5.jsonl"), all, 0.0, 0.84),
        ("6", include_str!("../data/tool-requests-6.jsonl"), all, 0.0, 0.77),
        ("7", include_str!("../data/tool-requests-7.jsonl"), all, 0.0, 0.78),
        ("8", include_str!("../data/tool-requests-8.jsonl"), all, 0.0, 0.79),
        ("9", include_str!("../data/tool-requests-9.jsonl"), all, 0.0, 0.83),
        ("10", include_str!("../data/tool-requests-10.jsonl"), all, 0.0, 0.84),
        ("11", include_str!("../data/tool-requests-11.jsonl"), all, 0.0, 0.85),
        ("12", include_str!("../data/tool-requests-12.jsonl"), all, 0.0, 0.81),
        ("13", include_str!("../data/tool-requests-13.jsonl"), all, 0.0, 0.78),
        ("14", include_str!("../data/tool-requests-14.jsonl"), all, 0.0, 0.77),
        ("15", include_str!("../data/tool-requests-15.jsonl"), all, 0.0, 0.8),
        ("16", include_str!("../data/tool-requests-16.jsonl"), all, 0.0, 0.77),
        ("17", include_str!("../data/tool-requests-17.jsonl"), all, 0.0, 0.84),
    ] {
        let (dev, held_out, misses) = evaluate(&registry, requests, held_out_lines).await;
        if dev.1 > 0 {
            eprintln!("tool search top-5, set {set}: dev {}/{} = {:.3}", dev.0, dev.1, rate(dev));
        }
        // The held-out figure is printed on request only, so that tuning does not watch it.
        if std::env::var_os("TACKLE_SHOW_HELD_OUT").is_some() {
            eprintln!(
                "tool search top-5, set {set}: held out {}/{} = {:.3}",
                held_out.0,
                held_out.1,
                rate(held_out)
            );
        }
        for miss in &misses {
            eprintln!("  dev miss: {miss}");
        }
        assert!(dev.1 == 0 || rate(dev) >= dev_floor, "set {set}: dev top-5 {:.3}", rate(dev));
        assert!(rate(held_out) >= held_out_floor, "set {set}: held-out top-5 {:.3}", rate(held_out));
    }
}

#[tokio::test]
async fn found_tools_are_offered_next_and_call_tool_gates_and_validates() {
    let registry = catalog().with_tool_search(SearchOptions::default()).unwrap();
    let run = Arc::new(RunContext::new("r1"));
    // Before a search: the two search tools only.
    let names: Vec<String> = registry.offer(&run).names().map(String::from).collect();
    assert_eq!(names, ["search_tools", "call_tool"]);
    let found = search(&registry, &run, "take a screenshot of the page").await;
    assert!(found.len() <= 5 && !found.is_empty());
    let offered: Vec<String> = registry.offer(&run).names().map(String::from).collect();
    for name in &found {
        assert!(offered.contains(name), "{name} offered after the search");
    }
    // Another run found nothing.
    let other = Arc::new(RunContext::new("r2"));
    assert_eq!(registry.offer(&other).len(), 2);

    let call = |name: &str, args: Value| tackle_core::ToolCall {
        id: "c".into(),
        name: "call_tool".into(),
        arguments: tackle_core::ToolArguments::Json(json!({"name": name, "arguments": args})),
        provider_data: None,
    };
    let found = search(&registry, &run, "close the browser").await;
    assert!(found.contains(&"playwright_browser_close".to_owned()), "{found:?}");
    let offer = registry.offer(&run);
    let outcome = Executor::new()
        .execute(&offer, &run, &[call("playwright_browser_close", json!({}))], &mut ExecutionState::default())
        .await;
    assert_eq!(outcome.returns[0].content.model_text(), "done", "{:?}", outcome.returns[0]);
    // A tool not found in this run is not callable through the proxy.
    let outcome = Executor::new()
        .execute(&offer, &run, &[call("github_create_issue", json!({}))], &mut ExecutionState::default())
        .await;
    assert!(
        outcome.returns[0].content.model_text().contains("search_tools first"),
        "{:?}",
        outcome.returns[0]
    );
    // Arguments are validated against the target's schema.
    let found = search(&registry, &run, "github create issue").await;
    assert!(found.contains(&"github_create_issue".to_owned()), "{found:?}");
    let offer = registry.offer(&run);
    let outcome = Executor::new()
        .execute(
            &offer,
            &run,
            &[call("github_create_issue", json!({"owner": 5}))],
            &mut ExecutionState::default(),
        )
        .await;
    assert_eq!(
        outcome.returns[0].status,
        tackle_core::ToolStatus::InvalidArguments,
        "{:?}",
        outcome.returns[0]
    );
}

#[tokio::test]
async fn a_small_catalog_is_offered_whole() {
    let registry =
        catalog().with_tool_search(SearchOptions { threshold: 1000, ..SearchOptions::default() }).unwrap();
    let run = RunContext::new("r");
    assert_eq!(registry.offer(&run).len(), 237, "no search tools, every tool");
}

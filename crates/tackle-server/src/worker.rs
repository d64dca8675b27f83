//! Workers: each claims a runnable run from the store under a lease, keeps the lease alive
//! while the run goes, writes its events in order as they come, and settles it.

use std::sync::Arc;
use std::time::Duration;

use tackle_core::Message;
use tackle_harness::{RunEvent, RunOutcome};
use tokio::sync::mpsc;

use crate::store::{RunRecord, RunStatus, Settlement, Store, StoreError};
use crate::{Engine, Shared};

/// The most events written in one transaction.
const BATCH: usize = 256;

/// Runs a blocking store call off the async threads.
pub(crate) async fn blocking<S: Store, T: Send + 'static>(
    store: &Arc<S>,
    f: impl FnOnce(&S) -> Result<T, StoreError> + Send + 'static,
) -> Result<T, StoreError> {
    let store = Arc::clone(store);
    tokio::task::spawn_blocking(move || f(&store))
        .await
        .map_err(|e| StoreError::Database(format!("a store task failed: {e}")))?
}

/// One worker's loop, until shutdown.
pub(crate) async fn work<S: Store>(shared: Arc<Shared<S>>, engine: Arc<Engine>, worker: String) {
    let lease = shared.config.lease;
    let mut work = shared.work_added.subscribe();
    loop {
        if shared.shutdown.is_cancelled() {
            return;
        }
        work.borrow_and_update();
        // Wait for work only when there is none (checked first: a notification may be missed).
        let id = worker.clone();
        let claimed = blocking(&shared.store, move |s| s.claim(&id, lease)).await;
        let run = match claimed {
            Ok(Some(run)) => run,
            Ok(None) => {
                tokio::select! {
                    _ = work.changed() => {}
                    () = tokio::time::sleep(shared.config.poll) => {}
                    () = shared.shutdown.cancelled() => return,
                }
                continue;
            }
            Err(error) => {
                tracing::warn!(%error, "claiming a run failed");
                tokio::time::sleep(shared.config.poll).await;
                continue;
            }
        };
        if let Err(error) = run_one(&shared, &engine, &worker, run).await {
            tracing::warn!(%error, "a run could not be recorded");
        }
    }
}

/// Runs one claimed run to the end.
async fn run_one<S: Store>(
    shared: &Arc<Shared<S>>,
    engine: &Engine,
    worker: &str,
    run: RunRecord,
) -> Result<(), StoreError> {
    let lease = shared.config.lease;
    let settle = |settlement: Settlement| {
        let (id, worker) = (run.id.clone(), worker.to_owned());
        blocking(&shared.store, move |s| s.settle(&id, &worker, &settlement))
    };
    // A run another worker started and lost: whatever its calls did cannot be known here,
    // so it is not started again from the top (that could repeat a call).
    let (id, who) = (run.id.clone(), run.owner.clone());
    let seen = blocking(&shared.store, move |s| s.events_after(&who, &id, 0, 1)).await?;
    if !seen.is_empty() {
        let error =
            "interrupted: the worker running this run stopped; its tool calls may have run".to_owned();
        settle(Settlement { status: RunStatus::Failed, state: None, answer: None, error: Some(error) })
            .await?;
        shared.events_added.send_modify(|n| *n += 1);
        return Ok(());
    }
    let Some(prompt) = run.request.get("prompt").and_then(|p| p.as_str()).map(str::to_owned) else {
        let error = Some("the run has no prompt".to_owned());
        settle(Settlement { status: RunStatus::Failed, state: None, answer: None, error }).await?;
        return Ok(());
    };

    // Events go to a writer that appends them in order, many per transaction.
    let (sender, mut receiver) = mpsc::unbounded_channel::<String>();
    let writer = {
        let (shared, id, worker) = (Arc::clone(shared), run.id.clone(), worker.to_owned());
        tokio::spawn(async move {
            let mut lost = false;
            while let Some(first) = receiver.recv().await {
                let mut batch = vec![first];
                while batch.len() < BATCH {
                    match receiver.try_recv() {
                        Ok(event) => batch.push(event),
                        Err(_) => break,
                    }
                }
                let (id, worker) = (id.clone(), worker.clone());
                match blocking(&shared.store, move |s| s.append_events(&id, &worker, &batch)).await {
                    Ok(Some(_)) => shared.events_added.send_modify(|n| *n += 1),
                    Ok(None) => lost = true,
                    Err(error) => {
                        tracing::warn!(%error, "events could not be written");
                        lost = true;
                    }
                }
            }
            lost
        })
    };
    let ctx = match (engine.context)(&run.id) {
        Ok(ctx) => Arc::new(ctx),
        Err(error) => {
            drop(sender);
            let _ = writer.await;
            let error = Some(format!("the run could not be set up: {error}"));
            settle(Settlement { status: RunStatus::Failed, state: None, answer: None, error }).await?;
            shared.events_added.send_modify(|n| *n += 1);
            return Ok(());
        }
    };
    // The lease is kept alive while the run goes; losing it cancels the run.
    let heartbeat = {
        let (shared, id, worker, ctx) =
            (Arc::clone(shared), run.id.clone(), worker.to_owned(), Arc::clone(&ctx));
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(lease / 3).await;
                let (id, worker) = (id.clone(), worker.clone());
                match blocking(&shared.store, move |s| s.heartbeat(&id, &worker, lease)).await {
                    Ok(true) => {}
                    Ok(false) | Err(_) => {
                        ctx.cancel.cancel();
                        return;
                    }
                }
            }
        })
    };
    let mut state = engine.harness.start(run.id.clone(), vec![Message::user(prompt)]);
    let mut sink = |event: RunEvent| {
        if let Ok(text) = serde_json::to_string(&event) {
            let _ = sender.send(text);
        }
    };
    let outcome = tokio::select! {
        outcome = engine.harness.run(engine.model.as_ref(), &ctx, &mut state, &mut sink) => Some(outcome),
        () = shared.shutdown.cancelled() => None,
    };
    heartbeat.abort();
    drop(sender);
    let lost = writer.await.unwrap_or(true);
    let Some(outcome) = outcome else {
        // Shut down mid-run: the lease runs out and the run is reported interrupted.
        return Ok(());
    };
    if lost {
        return Ok(());
    }
    let checkpoint = serde_json::to_string(&state).ok();
    let settlement = match outcome {
        Ok(RunOutcome::Answered(answer)) => Settlement {
            status: RunStatus::Answered,
            state: checkpoint,
            answer: Some(answer.text),
            error: None,
        },
        Ok(RunOutcome::Suspended(_)) => {
            Settlement { status: RunStatus::Suspended, state: checkpoint, answer: None, error: None }
        }
        Err(error) => Settlement {
            status: RunStatus::Failed,
            state: checkpoint,
            answer: None,
            error: Some(error.to_string()),
        },
    };
    settle(settlement).await?;
    shared.events_added.send_modify(|n| *n += 1);
    Ok(())
}

/// How long a worker may go silent before its runs are taken over.
pub(crate) const DEFAULT_LEASE: Duration = Duration::from_secs(30);

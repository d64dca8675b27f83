//! Workers: each claims a runnable run from the store under a lease, keeps the lease alive
//! while the run goes, writes its events in order as they come, and settles it.

use std::sync::Arc;
use std::time::Duration;

use tackle_core::{Cost, Message};
use tackle_harness::{Decision, EventSink, RunEvent, RunOutcome, RunState, Step};
use tokio::sync::{mpsc, oneshot};

use crate::policy::{Asked, Price};
use crate::store::{
    Charge, Charged, EventCharge, Principal, RunRecord, RunStatus, Settlement, Store, StoreError,
};
use crate::{Engine, Shared};

/// The most events written in one transaction.
const BATCH: usize = 256;

/// How long events wait for what follows them before they are written alone.
const COALESCE: Duration = Duration::from_millis(2);

/// Runs a blocking store call off the async threads.
pub(crate) async fn blocking<T: Send + 'static>(
    store: &Arc<dyn Store>,
    f: impl FnOnce(&dyn Store) -> Result<T, StoreError> + Send + 'static,
) -> Result<T, StoreError> {
    let store = Arc::clone(store);
    tokio::task::spawn_blocking(move || f(store.as_ref()))
        .await
        .map_err(|e| StoreError::Database(format!("a store task failed: {e}")))?
}

/// One worker's loop, until shutdown. An idle worker waits to be woken for a run queued
/// here; one of them at a time (the scout) also looks at the store every poll interval, for
/// runs queued by other processes, taken over, or missed.
pub(crate) async fn work(shared: Arc<Shared>, worker: String) {
    let engine = Arc::clone(&shared.engine);
    let lease = shared.config.lease;
    loop {
        if shared.draining.is_cancelled() {
            return;
        }
        let id = worker.clone();
        let claimed = blocking(&shared.store, move |s| s.claim(&id, lease)).await;
        let run = match claimed {
            Ok(Some(run)) => {
                shared.metrics.runs_claimed.inc();
                run
            }
            Ok(None) => {
                let scout = shared.scout.try_lock();
                // Other idle workers look now and then too, in case a wake-up was lost.
                let poll = if scout.is_ok() { shared.config.poll } else { shared.config.poll * 20 };
                tokio::select! {
                    () = shared.work_added.notified() => {}
                    () = tokio::time::sleep(poll) => {}
                    () = shared.draining.cancelled() => return,
                }
                continue;
            }
            Err(error) => {
                tracing::warn!(%error, "claiming a run failed");
                tokio::time::sleep(shared.config.poll).await;
                continue;
            }
        };
        // There may be more: another idle worker looks (and becomes the scout if none).
        shared.work_added.notify_one();
        if let Err(error) = run_one(&shared, &engine, &worker, run).await {
            tracing::warn!(%error, "a run could not be recorded");
        }
    }
}

/// What the run's sink hands the writer.
enum Write {
    /// An event, in order, and what it charges.
    Event(String, Option<Charging>),
    /// The run's state, written with the events before it; acknowledged once stored.
    Checkpoint(String, oneshot::Sender<bool>),
}

/// A charge that goes with an event.
struct Charging {
    kind: &'static str,
    detail: String,
    amount_micros: i64,
}

/// What a run is charged against: its owner's balance, when metered, and its model's
/// price.
struct Meter {
    store: Arc<dyn Store>,
    owner: Principal,
    run: String,
    model: String,
    price: Option<Price>,
    metered: bool,
    /// What each admitted call was charged up front, until its result says what it cost.
    declared: std::collections::HashMap<String, i64>,
}

/// Runs a blocking store call from the harness's task (a multi-threaded runtime lets this
/// thread block while the others go on).
fn block_here<T>(f: impl FnOnce() -> T) -> T {
    match tokio::runtime::Handle::try_current() {
        Ok(handle) if handle.runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread => {
            tokio::task::block_in_place(f)
        }
        _ => f(),
    }
}

/// An amount of credits as a signed number of millionths.
fn micros(cost: Cost) -> i64 {
    i64::try_from(cost.micros()).unwrap_or(i64::MAX)
}

/// A balance for messages.
fn credits(micros: i64) -> String {
    if micros < 0 {
        format!("-{}", Cost::from_micros(micros.unsigned_abs()))
    } else {
        Cost::from_micros(micros as u64).to_string()
    }
}

impl Meter {
    /// What an event charges: a model round its usage at the model's price; a finished
    /// call what it cost beyond (or short of) what was charged when it was admitted.
    fn charging(&mut self, event: &RunEvent) -> Option<Charging> {
        match event {
            RunEvent::Usage { usage } => {
                let amount = micros(self.price?.of(usage));
                (amount != 0).then(|| Charging {
                    kind: "model",
                    detail: self.model.clone(),
                    amount_micros: amount,
                })
            }
            RunEvent::ToolCallFinished { call_id, name, cost, .. } => {
                let declared = self.declared.remove(call_id).unwrap_or(0);
                let amount = cost.map_or(0, micros).saturating_sub(declared);
                (amount != 0).then(|| Charging { kind: "tool", detail: name.clone(), amount_micros: amount })
            }
            _ => None,
        }
    }

    fn admit(&mut self, step: Step<'_>) -> Result<(), String> {
        match step {
            // A model without a price costs nothing a round, and needs nothing to start one.
            Step::Round { .. } if self.metered && self.price.is_some() => {
                let balance = block_here(|| self.store.balance(&self.owner))
                    .map_err(|e| format!("the balance could not be read: {e}"))?
                    .unwrap_or(0);
                let minimum = self.price.map_or(0, |p| micros(p.round_minimum)).max(1);
                if balance < minimum {
                    return Err(format!(
                        "out of credits: the balance is {}, and a round of {} needs {}",
                        credits(balance),
                        self.model,
                        credits(minimum)
                    ));
                }
                Ok(())
            }
            Step::Call { call_id, tool, cost } => {
                let amount = cost.map_or(0, micros);
                if amount == 0 {
                    return Ok(());
                }
                let key = format!("call:{call_id}");
                let charge = Charge { key: &key, kind: "tool", detail: tool, amount_micros: amount };
                let charged = block_here(|| self.store.charge(&self.owner, &self.run, &charge, true))
                    .map_err(|e| format!("not run: the charge could not be taken: {e}"))?;
                match charged {
                    Charged::Taken(_) | Charged::Already => {
                        self.declared.insert(call_id.to_owned(), amount);
                        Ok(())
                    }
                    Charged::Refused(balance) => Err(format!(
                        "not run: out of credits (this call costs {}; the balance is {})",
                        credits(amount),
                        credits(balance)
                    )),
                }
            }
            _ => Ok(()),
        }
    }
}

/// The sink of a run on a worker: events to the writer, checkpoints written (with every
/// event before them) before the harness goes on, steps admitted against the balance.
struct Sink {
    writes: mpsc::UnboundedSender<Write>,
    meter: Meter,
    /// Where tokens and tool calls are counted, with the model's provider and name.
    shared: Arc<Shared>,
    provider: String,
    model: String,
    /// The tools the registry knows (others are counted as `unknown`).
    registry: Arc<tackle_tools::ToolRegistry>,
    /// When the round under way was admitted.
    round_started: Option<std::time::Instant>,
}

impl EventSink for Sink {
    fn emit(&mut self, event: RunEvent) {
        match &event {
            RunEvent::Usage { usage } => {
                let took = self.round_started.take().map(|started| started.elapsed());
                self.shared.metrics.round(&self.provider, &self.model, usage, took);
            }
            RunEvent::ToolCallFinished { name, status, duration, .. } => {
                let known = if self.registry.definition(name).is_some() { name.as_str() } else { "unknown" };
                self.shared.metrics.tool(known, status.label(), *duration);
            }
            _ => {}
        }
        let charging = self.meter.charging(&event);
        if let Ok(text) = serde_json::to_string(&event) {
            let _ = self.writes.send(Write::Event(text, charging));
        }
    }

    fn checkpoint(&mut self, state: &RunState) {
        let Ok(text) = serde_json::to_string(state) else { return };
        let (ack, stored) = oneshot::channel();
        if self.writes.send(Write::Checkpoint(text, ack)).is_err() {
            return;
        }
        // Calls start once this returns: wait for the write (a multi-threaded runtime lets
        // this thread block while the others go on).
        if tokio::runtime::Handle::current().runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread {
            let _ = tokio::task::block_in_place(|| stored.blocking_recv());
        } else {
            tracing::warn!("checkpoints are not waited for on a single-threaded runtime");
        }
    }

    fn admit(&mut self, step: Step<'_>) -> Result<(), String> {
        let round = matches!(step, Step::Round { .. });
        self.meter.admit(step)?;
        if round {
            self.round_started = Some(std::time::Instant::now());
        }
        Ok(())
    }
}

/// Writes a run's events and checkpoints in order, many per transaction; returns whether
/// a write was refused or failed (the lease was lost), and the last event number given.
async fn write_all(
    shared: Arc<Shared>,
    id: String,
    worker: String,
    mut writes: mpsc::UnboundedReceiver<Write>,
) -> (bool, Option<i64>) {
    let mut lost = false;
    let mut last_written = None;
    while let Some(first) = writes.recv().await {
        let mut events = Vec::new();
        let mut charges = Vec::new();
        let mut checkpoint = None;
        let mut next = Some(first);
        while let Some(write) = next.take() {
            match write {
                Write::Event(event, charging) => {
                    if let Some(c) = charging {
                        charges.push(EventCharge {
                            event: events.len(),
                            kind: c.kind,
                            detail: c.detail,
                            amount_micros: c.amount_micros,
                        });
                    }
                    events.push(event);
                }
                Write::Checkpoint(state, ack) => {
                    checkpoint = Some((state, ack));
                    break;
                }
            }
            if events.len() < BATCH {
                next = match writes.try_recv() {
                    Ok(write) => Some(write),
                    // Events with nothing behind them wait a moment for company (the
                    // checkpoint or events that follow): one transaction instead of two.
                    Err(mpsc::error::TryRecvError::Empty) => {
                        tokio::time::timeout(COALESCE, writes.recv()).await.ok().flatten()
                    }
                    Err(mpsc::error::TryRecvError::Disconnected) => None,
                };
            }
        }
        let (state, ack) = match checkpoint {
            Some((state, ack)) => (Some(state), Some(ack)),
            None => (None, None),
        };
        let (run, holder) = (id.clone(), worker.clone());
        let events = Arc::new(events);
        let written = {
            let events = Arc::clone(&events);
            blocking(&shared.store, move |s| {
                s.append_events(&run, &holder, &events, &charges, state.as_deref())
            })
            .await
        };
        let ok = match written {
            Ok(Some(last)) => {
                last_written = Some(last);
                shared.metrics.events_written.inc_by(events.len() as u64);
                // The streams here get the events as written, numbered; none reads them back.
                let first = last - events.len() as i64 + 1;
                let numbered: Vec<(i64, String)> =
                    events.iter().enumerate().map(|(i, e)| (first + i as i64, e.clone())).collect();
                if !numbered.is_empty() {
                    shared.publish(&id, crate::Note::Events(Arc::new(numbered)));
                }
                true
            }
            Ok(None) => false,
            Err(error) => {
                tracing::warn!(%error, "events could not be written");
                false
            }
        };
        lost |= !ok;
        if let Some(ack) = ack {
            let _ = ack.send(ok);
        }
    }
    (lost, last_written)
}

/// The runs this process is running.
fn running(
    shared: &Shared,
) -> std::sync::MutexGuard<'_, std::collections::HashMap<String, tokio_util::sync::CancellationToken>> {
    shared.running.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Whether the owner of `run` asked for it to stop (read from the store).
async fn owner_cancelled(shared: &Arc<Shared>, run: &str) -> bool {
    let id = run.to_owned();
    blocking(&shared.store, move |s| s.cancel_requested(&id)).await.unwrap_or(false)
}

/// Decisions as stored (a map from call id to decision), in a stable order.
pub(crate) fn decision_list(map: std::collections::BTreeMap<String, Decision>) -> Vec<(String, Decision)> {
    map.into_iter().collect()
}

/// Whether a checkpoint was taken inside a resume: decided calls may have started.
fn resume_under_way(state: &RunState) -> bool {
    state.pending.as_ref().is_some_and(|batch| {
        batch.waiting().any(|(_, call, _)| {
            state.execution.approved.contains(&call.id) || state.execution.inputs.contains_key(&call.id)
        })
    })
}

/// The state a run starts from: its prompt after the conversation of the run it
/// continues, with what that conversation requires of the provider.
async fn continued(
    shared: &Arc<Shared>,
    engine: &Engine,
    run: &RunRecord,
    prompt: &str,
) -> Result<RunState, String> {
    let mut state = engine.harness.start(run.id.clone(), Vec::new());
    if let Some(previous) = run.previous.clone() {
        let text = blocking(&shared.store, move |s| s.state_of(&previous))
            .await
            .map_err(|e| format!("the conversation could not be read: {e}"))?;
        if let Some(text) = text {
            let before: RunState = serde_json::from_str(&text)
                .map_err(|e| format!("the conversation's last checkpoint cannot be read: {e}"))?;
            state.system = before.system;
            state.messages = before.messages;
            state.required_confidence = before.required_confidence;
            // A run cancelled while it waited for decisions: its calls get results, so
            // that the history stays whole.
            if let Some(batch) = before.pending {
                let waiting: std::collections::BTreeSet<usize> = batch.waiting().map(|(i, ..)| i).collect();
                let parts = batch.calls.iter().zip(&batch.returns).enumerate().map(|(i, (call, ret))| {
                    if waiting.contains(&i) {
                        tackle_core::ToolReturn::with_status(tackle_core::ToolStatus::Feedback, NOT_DECIDED)
                            .for_call(call)
                            .to_part()
                    } else {
                        ret.to_part()
                    }
                });
                state.messages.push(Message::tool_returns(parts));
            }
        }
    }
    state.push_user(prompt);
    Ok(state)
}

/// The result of a call whose run was cancelled while it waited for a decision.
const NOT_DECIDED: &str = "not run: the conversation was cancelled before this call was decided";

/// The message a call gets when the worker running it stopped before its result was kept.
pub(crate) const INTERRUPTED: &str = "interrupted: the server running this call stopped before its result was recorded; its outcome is unknown";

/// Runs one claimed run to the end: from its checkpoint when another worker had started it.
async fn run_one(
    shared: &Arc<Shared>,
    engine: &Engine,
    worker: &str,
    run: RunRecord,
) -> Result<(), StoreError> {
    let lease = shared.config.lease;
    let settle = |settlement: Settlement| {
        let (id, worker) = (run.id.clone(), worker.to_owned());
        blocking(&shared.store, move |s| s.settle(&id, &worker, &settlement))
    };
    let failed = |error: String| Settlement {
        status: RunStatus::Failed,
        state: None,
        answer: None,
        error: Some(error),
    };
    let checkpoint: Option<RunState> = match run.state.as_deref().map(serde_json::from_str) {
        None => None,
        Some(Ok(state)) => Some(state),
        Some(Err(error)) => {
            settle(failed(format!("the run's checkpoint cannot be read: {error}"))).await?;
            shared.changed(&run.id);
            return Ok(());
        }
    };
    let asked: Asked = match serde_json::from_value(run.request.clone()) {
        Ok(asked) => asked,
        Err(error) => {
            settle(failed(format!("the run's request cannot be read: {error}"))).await?;
            shared.changed(&run.id);
            return Ok(());
        }
    };
    let decisions: Option<Vec<(String, Decision)>> = match run.decisions.as_deref().map(serde_json::from_str)
    {
        None => None,
        Some(Ok(map)) => Some(decision_list(map)),
        Some(Err(error)) => {
            settle(failed(format!("the run's decisions cannot be read: {error}"))).await?;
            shared.changed(&run.id);
            return Ok(());
        }
    };
    // Taken over from another worker (or decided while a resume was under way): go on from
    // the checkpoint.
    // Decisions go to a resume only while the checkpoint still waits for them: a resume
    // under way, or done (the run went on and its worker stopped later), is recovered.
    let resume_with = match (&checkpoint, decisions) {
        (Some(state), Some(decisions)) if state.pending.is_some() && !resume_under_way(state) => {
            Some(decisions)
        }
        _ => None,
    };
    let recovering = checkpoint.is_some() && resume_with.is_none();
    let owner = run.owner.clone();
    let tenant = blocking(&shared.store, move |s| s.tenant(&owner)).await?;
    let setup = match crate::policy::setup(engine, &run.owner, &tenant, &run.id, &asked) {
        Ok(setup) => setup,
        Err(error) => {
            settle(failed(format!("the run could not be set up: {error}"))).await?;
            shared.changed(&run.id);
            return Ok(());
        }
    };
    let mut state = match checkpoint {
        Some(state) => state,
        // Not checkpointed yet: no call can have started, so the run starts from the top
        // (of its own turn, after the conversation it continues).
        None => match continued(shared, engine, &run, &asked.prompt).await {
            Ok(state) => state,
            Err(error) => {
                settle(failed(error)).await?;
                shared.changed(&run.id);
                return Ok(());
            }
        },
    };

    let (writes, receiver) = mpsc::unbounded_channel::<Write>();
    let writer = tokio::spawn(write_all(Arc::clone(shared), run.id.clone(), worker.to_owned(), receiver));
    let ctx = Arc::new(setup.ctx);
    let meter = Meter {
        store: Arc::clone(&shared.store),
        owner: run.owner.clone(),
        run: run.id.clone(),
        model: setup.model.name.clone(),
        price: setup.model.price,
        metered: setup.metered,
        declared: std::collections::HashMap::new(),
    };
    // Cancelled from this process at once, from another at the next heartbeat.
    running(shared).insert(run.id.clone(), ctx.cancel.clone());
    shared.metrics.runs_running.inc();
    if recovering {
        shared.metrics.runs_recovered.inc();
    }
    let by_owner = Arc::new(std::sync::atomic::AtomicBool::new(run.cancel_requested));
    if run.cancel_requested {
        ctx.cancel.cancel();
    }
    // The lease is kept alive while the run goes; losing it cancels the run.
    let heartbeat = {
        let (shared, id, worker, ctx) =
            (Arc::clone(shared), run.id.clone(), worker.to_owned(), Arc::clone(&ctx));
        let by_owner = Arc::clone(&by_owner);
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(lease / 3).await;
                let (id, worker) = (id.clone(), worker.clone());
                let beat = blocking(&shared.store, move |s| {
                    Ok((s.heartbeat(&id, &worker, lease)?, s.cancel_requested(&id)?))
                })
                .await;
                match beat {
                    Ok((true, false)) => {}
                    Ok((true, true)) => {
                        by_owner.store(true, std::sync::atomic::Ordering::SeqCst);
                        ctx.cancel.cancel();
                    }
                    Ok((false, _)) | Err(_) => {
                        ctx.cancel.cancel();
                        return;
                    }
                }
            }
        })
    };
    let (provider, model_id) = {
        let name = setup.model.model.name();
        let (provider, model_id) = name.split_once(':').unwrap_or(("unknown", name));
        (provider.to_owned(), model_id.to_owned())
    };
    let mut sink = Sink {
        writes,
        meter,
        shared: Arc::clone(shared),
        provider,
        model: model_id,
        registry: engine.harness.registry(),
        round_started: None,
    };
    let model = setup.model.model.as_ref();
    let going = async {
        match resume_with {
            Some(decisions) => engine.harness.resume(model, &ctx, &mut state, decisions, &mut sink).await,
            None if recovering => {
                engine.harness.recover(model, &ctx, &mut state, INTERRUPTED, &mut sink).await
            }
            None => engine.harness.run(model, &ctx, &mut state, &mut sink).await,
        }
    };
    let outcome = tokio::select! {
        outcome = going => Some(outcome),
        () = shared.aborting.cancelled() => None,
    };
    heartbeat.abort();
    running(shared).remove(&run.id);
    shared.metrics.runs_running.dec();
    drop(sink);
    let (lost, last_event) = writer.await.unwrap_or((true, None));
    let Some(outcome) = outcome else {
        // Stopped mid-run: the lease is released and another server goes on from the
        // checkpoint at once.
        let (id, holder) = (run.id.clone(), worker.to_owned());
        blocking(&shared.store, move |s| s.release(&id, &holder)).await?;
        shared.work_added.notify_one();
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
        Err(tackle_harness::RunError::Cancelled)
            if by_owner.load(std::sync::atomic::Ordering::SeqCst)
                || owner_cancelled(shared, &run.id).await =>
        {
            Settlement {
                status: RunStatus::Cancelled,
                state: checkpoint,
                answer: None,
                error: Some("cancelled".into()),
            }
        }
        Err(error) => Settlement {
            status: RunStatus::Failed,
            state: checkpoint,
            answer: None,
            error: Some(error.to_string()),
        },
    };
    let status = settlement.status;
    if settle(settlement).await? {
        shared.metrics.settled(status.as_str());
        // The streams here that have every event up to the last one end without reading.
        shared.publish(&run.id, crate::Note::Settled(last_event));
    } else {
        shared.changed(&run.id);
    }
    Ok(())
}

/// How long a worker may go silent before its runs are taken over.
pub(crate) const DEFAULT_LEASE: Duration = Duration::from_secs(30);

//! The shared driver of every adapter: send the request, decode the body (SSE or whole),
//! hand each event to the adapter's accumulator, and yield model events.

use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use bytes::Bytes;
use futures_util::stream::BoxStream;
use futures_util::{StreamExt, stream};
use tackle_core::{ModelError, ModelErrorKind, ModelEvent, ModelResponse, ModelStream};
use tackle_http::{HttpError, HttpErrorKind, Sent, SseDecoder, SseEvent};

/// Whether an accumulator has seen the end of the response.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Flow {
    Continue,
    Done,
}

/// What an adapter does with the response.
pub(crate) trait Accumulate: Send {
    /// One SSE event of a streamed response.
    fn event(&mut self, event: &SseEvent, out: &mut VecDeque<ModelEvent>) -> Result<Flow, ModelError>;

    /// The whole body of a non-streamed response.
    fn whole(&mut self, body: &[u8], out: &mut VecDeque<ModelEvent>) -> Result<(), ModelError>;

    /// The body ended; `ended_cleanly` tells whether the terminal marker was seen. Returns
    /// the complete response, or an error when the response is incomplete.
    fn finish(&mut self, ended_cleanly: bool) -> Result<ModelResponse, ModelError>;

    /// Turns an HTTP failure into a model error, reading the provider's error body.
    fn http_error(&self, error: HttpError) -> ModelError;

    /// How a streamed body is framed.
    fn framing(&self) -> Framing {
        Framing::Sse
    }
}

/// How a streamed body is cut into events.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Framing {
    /// Server-sent events.
    Sse,
    /// AWS event-stream messages (`application/vnd.amazon.eventstream`), each handed on
    /// as an event named by its type.
    #[cfg(feature = "bedrock")]
    EventStream,
}

/// Why a round could not be sent.
#[derive(Debug)]
pub(crate) enum Failed {
    /// The HTTP exchange failed; the accumulator reads the provider's error body.
    Http(HttpError),
    /// Something before the exchange failed (credentials, signing).
    Model(ModelError),
}

impl From<HttpError> for Failed {
    fn from(error: HttpError) -> Self {
        Failed::Http(error)
    }
}

/// The decoder of a streamed body.
#[derive(Debug)]
pub(crate) enum Decoder {
    Sse(SseDecoder),
    #[cfg(feature = "bedrock")]
    Events(crate::eventstream::Decoder),
}

impl Decoder {
    pub(crate) fn new(framing: Framing) -> Self {
        match framing {
            Framing::Sse => Decoder::Sse(SseDecoder::new()),
            #[cfg(feature = "bedrock")]
            Framing::EventStream => Decoder::Events(crate::eventstream::Decoder::default()),
        }
    }

    fn feed_each<B>(
        &mut self,
        chunk: &[u8],
        each: impl FnMut(&SseEvent) -> std::ops::ControlFlow<B>,
    ) -> Result<std::ops::ControlFlow<B>, ModelError> {
        match self {
            Decoder::Sse(sse) => sse.feed_each(chunk, each).map_err(|e| failure(&e)),
            #[cfg(feature = "bedrock")]
            Decoder::Events(events) => events.feed_each(chunk, each),
        }
    }

    /// The last event of a body that ended without its terminator, if one is held; an
    /// error when the body ended inside a binary message.
    fn finish(&mut self) -> Result<Option<SseEvent>, ModelError> {
        match self {
            Decoder::Sse(sse) => Ok(sse.finish()),
            // A binary message is whole or not at all.
            #[cfg(feature = "bedrock")]
            Decoder::Events(events) if events.has_partial() => Err(incomplete()),
            #[cfg(feature = "bedrock")]
            Decoder::Events(_) => Ok(None),
        }
    }
}

type SendFuture<'a> = Pin<Box<dyn Future<Output = Result<Sent, Failed>> + Send + 'a>>;

enum Phase<'a> {
    Sending(SendFuture<'a>),
    Reading { body: BoxStream<'static, Result<Bytes, HttpError>>, decoder: Decoder },
    Finished,
}

struct State<'a, A> {
    phase: Phase<'a>,
    acc: A,
    queue: VecDeque<ModelEvent>,
    error: Option<ModelError>,
    streaming: bool,
    idle_timeout: Duration,
}

/// The longest a non-streamed body may be.
const MAX_BODY: usize = 32 * 1024 * 1024;

/// The most bytes one streamed response may bring. A streamed round repeats its content
/// (deltas, then each finished item, then the whole response), so this is twice the
/// whole-body cap.
const MAX_STREAMED: u64 = 64 * 1024 * 1024;

fn cut(message: impl Into<String>) -> ModelError {
    ModelError::new(ModelErrorKind::Transport, message)
}

/// What an HTTP status means for a model request, when the provider's body says nothing
/// more precise.
pub(crate) fn kind_for_status(status: u16) -> ModelErrorKind {
    match status {
        401 | 403 => ModelErrorKind::Authentication,
        408 | 429 => ModelErrorKind::RateLimited,
        413 => ModelErrorKind::ContextTooLong,
        503 | 529 => ModelErrorKind::Overloaded,
        500..=599 => ModelErrorKind::Server,
        _ => ModelErrorKind::InvalidRequest,
    }
}

/// The model-error kind of an HTTP failure other than an error status.
fn kind_for_failure(error: &HttpError) -> ModelErrorKind {
    match error.kind() {
        HttpErrorKind::Status => match error {
            HttpError::Status { status, .. } => kind_for_status(*status),
            _ => ModelErrorKind::Server,
        },
        HttpErrorKind::Timeout | HttpErrorKind::Transport(_) => ModelErrorKind::Transport,
        HttpErrorKind::TooLarge | HttpErrorKind::Unacceptable => ModelErrorKind::InvalidResponse,
        // A redirect, a refused host or a bad URL is a setup mistake, not a passing failure.
        _ => ModelErrorKind::InvalidRequest,
    }
}

/// A model error for an HTTP failure that is not an error status.
fn failure(error: &HttpError) -> ModelError {
    ModelError::new(kind_for_failure(error), error.to_string())
}

/// Turns an HTTP failure into a model error: `read_body` reads the provider's error body
/// for a status error (its message is prefixed with the status); other failures keep
/// their own wording.
pub(crate) fn http_model_error(
    error: HttpError,
    read_body: impl Fn(u16, &str) -> Option<ModelError>,
) -> ModelError {
    match &error {
        HttpError::Status { status, body, retry_after } => {
            let status = *status;
            let mut model_error = read_body(status, body).unwrap_or_else(|| {
                ModelError::new(kind_for_status(status), format!("the provider answered HTTP {status}"))
            });
            model_error.message = format!("HTTP {status}: {}", model_error.message);
            model_error.retry_after = *retry_after;
            model_error
        }
        other => failure(other),
    }
}

/// A round that failed before anything was sent.
pub(crate) fn failed<'a>(error: ModelError) -> ModelStream<'a> {
    Box::pin(stream::iter([Err(error)]))
}

/// Runs one round: `send` delivers the response, `acc` turns it into events.
pub(crate) fn drive<'a, A: Accumulate + 'a>(
    send: impl Future<Output = Result<Sent, Failed>> + Send + 'a,
    acc: A,
    streaming: bool,
    idle_timeout: Duration,
) -> ModelStream<'a> {
    let state = State {
        phase: Phase::Sending(Box::pin(send)),
        acc,
        queue: VecDeque::new(),
        error: None,
        streaming,
        idle_timeout,
    };
    Box::pin(stream::unfold(state, |mut st| async move {
        loop {
            // Events decoded before a failure are delivered before it.
            if let Some(event) = st.queue.pop_front() {
                return Some((Ok(event), st));
            }
            if let Some(error) = st.error.take() {
                return Some((Err(error), st));
            }
            // Each step ends in: more to read, the complete response, or a failure.
            let step: Result<Option<ModelResponse>, ModelError> =
                match std::mem::replace(&mut st.phase, Phase::Finished) {
                    Phase::Finished => return None,
                    Phase::Sending(send) => match send.await {
                        Err(Failed::Http(error)) => Err(st.acc.http_error(error)),
                        Err(Failed::Model(error)) => Err(error),
                        Ok(sent) if st.streaming => {
                            st.phase = Phase::Reading {
                                body: sent.into_byte_stream(MAX_STREAMED),
                                decoder: Decoder::new(st.acc.framing()),
                            };
                            Ok(None)
                        }
                        Ok(sent) => match sent.read_all(MAX_BODY).await {
                            Ok(body) => whole_body(&mut st.acc, &body, &mut st.queue).map(Some),
                            Err(error) => Err(failure(&error)),
                        },
                    },
                    Phase::Reading { mut body, mut decoder } => {
                        match tokio::time::timeout(st.idle_timeout, body.next()).await {
                            Err(_) => Err(cut(format!("the response stalled for {:?}", st.idle_timeout))),
                            Ok(None) => end_of_body(&mut st.acc, &mut decoder, &mut st.queue).map(Some),
                            Ok(Some(Err(error))) => Err(failure(&error)),
                            Ok(Some(Ok(chunk))) => {
                                match feed_chunk(&mut st.acc, &mut decoder, &chunk, &mut st.queue) {
                                    Err(error) => Err(error),
                                    Ok(Flow::Done) => st.acc.finish(true).map(Some),
                                    Ok(Flow::Continue) => {
                                        st.phase = Phase::Reading { body, decoder };
                                        Ok(None)
                                    }
                                }
                            }
                        }
                    }
                };
            match step {
                Ok(Some(response)) => st.queue.push_back(ModelEvent::Completed(response)),
                Ok(None) => {}
                Err(error) => st.error = Some(error),
            }
        }
    }))
}

/// Feeds one chunk of a streamed body to the accumulator.
fn feed_chunk<A: Accumulate>(
    acc: &mut A,
    decoder: &mut Decoder,
    chunk: &[u8],
    queue: &mut VecDeque<ModelEvent>,
) -> Result<Flow, ModelError> {
    // Events are read where the decoder holds them, not copied out.
    let flow = decoder.feed_each(chunk, |event| match acc.event(event, queue) {
        Ok(Flow::Continue) => std::ops::ControlFlow::Continue(()),
        Ok(Flow::Done) => std::ops::ControlFlow::Break(Ok(Flow::Done)),
        Err(error) => std::ops::ControlFlow::Break(Err(error)),
    })?;
    match flow {
        std::ops::ControlFlow::Continue(()) => Ok(Flow::Continue),
        std::ops::ControlFlow::Break(done) => done,
    }
}

/// The streamed body ended without the terminal marker having been handled: a last event
/// without its blank line still counts, one that does not parse means the body was cut.
fn end_of_body<A: Accumulate>(
    acc: &mut A,
    decoder: &mut Decoder,
    queue: &mut VecDeque<ModelEvent>,
) -> Result<ModelResponse, ModelError> {
    let mut ended = false;
    if let Some(event) = decoder.finish()? {
        ended = acc.event(&event, queue).map_err(|_| incomplete())? == Flow::Done;
    }
    acc.finish(ended)
}

/// Decodes a recorded streamed body, split into chunks anywhere, exactly as a live
/// response is decoded. Returns the events and the complete response.
pub(crate) fn decode_recorded<'c, A: Accumulate>(
    mut acc: A,
    chunks: impl IntoIterator<Item = &'c [u8]>,
) -> Result<(Vec<ModelEvent>, ModelResponse), ModelError> {
    let mut decoder = Decoder::new(acc.framing());
    let mut queue = VecDeque::new();
    for chunk in chunks {
        if feed_chunk(&mut acc, &mut decoder, chunk, &mut queue)? == Flow::Done {
            let response = acc.finish(true)?;
            return Ok((queue.into(), response));
        }
    }
    let response = end_of_body(&mut acc, &mut decoder, &mut queue)?;
    Ok((queue.into(), response))
}

/// Reads a whole (non-streamed) body.
fn whole_body<A: Accumulate>(
    acc: &mut A,
    body: &[u8],
    queue: &mut VecDeque<ModelEvent>,
) -> Result<ModelResponse, ModelError> {
    acc.whole(body, queue)?;
    acc.finish(true)
}

/// Decodes a recorded whole (non-streamed) body, exactly as a live one is decoded.
pub(crate) fn decode_whole<A: Accumulate>(
    mut acc: A,
    body: &[u8],
) -> Result<(Vec<ModelEvent>, ModelResponse), ModelError> {
    let mut queue = VecDeque::new();
    let response = whole_body(&mut acc, body, &mut queue)?;
    Ok((queue.into(), response))
}

fn incomplete() -> ModelError {
    cut("the response ended in the middle of an event")
}

//! AWS event-stream framing (`application/vnd.amazon.eventstream`), the body of Bedrock's
//! `ConverseStream`: binary messages, each a prelude (total length, headers length, CRC),
//! headers, a payload and a CRC of the whole message.
//!
//! The messages are read by `aws-smithy-eventstream`, which checks both checksums. This
//! decoder only cuts the body into messages as the bytes arrive, refuses a length that no
//! message may have before waiting for it, and hands each message on as an [`SseEvent`]:
//!
//! - an event (`:message-type` `event`) is named by its `:event-type`, its payload is the data;
//! - an exception is named `exception:<:exception-type>`, its payload is the data;
//! - an error is named `error:<:error-code>`, its `:error-message` is the data.
//!
//! With the `test-util` feature the module is public for its encoders, which scripted
//! servers use to speak the format in tests.

use std::ops::ControlFlow;

use aws_smithy_eventstream::frame::read_message_from;
use aws_smithy_types::event_stream::Message;
use tackle_core::{ModelError, ModelErrorKind};
use tackle_http::SseEvent;

/// The longest message the service sends (16 MiB, its documented limit).
pub(crate) const MAX_MESSAGE: usize = 16 * 1024 * 1024;

/// The prelude: total length, headers length, and their CRC.
const PRELUDE: usize = 12;
/// The prelude and the message CRC: the shortest message there is.
const SHORTEST: usize = PRELUDE + 4;

/// Cuts a byte stream into event-stream messages.
#[derive(Debug, Default)]
pub(crate) struct Decoder {
    buffer: Vec<u8>,
    /// Where the first message not yet handed on starts.
    start: usize,
}

fn malformed(message: impl std::fmt::Display) -> ModelError {
    ModelError::new(
        ModelErrorKind::InvalidResponse,
        format!("the provider's event stream is malformed: {message}"),
    )
}

impl Decoder {
    /// Feeds one chunk; `each` gets every message completed by it, in order, until it
    /// breaks.
    pub(crate) fn feed_each<B>(
        &mut self,
        chunk: &[u8],
        mut each: impl FnMut(&SseEvent) -> ControlFlow<B>,
    ) -> Result<ControlFlow<B>, ModelError> {
        self.buffer.extend_from_slice(chunk);
        let flow = loop {
            let pending = &self.buffer[self.start..];
            if pending.len() < PRELUDE {
                break ControlFlow::Continue(());
            }
            let total = u32::from_be_bytes([pending[0], pending[1], pending[2], pending[3]]) as usize;
            let crc = u32::from_be_bytes([pending[8], pending[9], pending[10], pending[11]]);
            // Checked before waiting for `total` bytes: a corrupt length is not waited for.
            if crc32fast::hash(&pending[..8]) != crc {
                return Err(malformed("a message prelude fails its checksum"));
            }
            if !(SHORTEST..=MAX_MESSAGE).contains(&total) {
                return Err(malformed(format!("a message claims {total} bytes")));
            }
            if pending.len() < total {
                break ControlFlow::Continue(());
            }
            let message = read_message_from(&pending[..total]).map_err(malformed)?;
            self.start += total;
            let event = event_of(&message)?;
            if let ControlFlow::Break(value) = each(&event) {
                break ControlFlow::Break(value);
            }
        };
        // Keep only what is not handed on yet.
        if self.start > 0 && (self.start == self.buffer.len() || self.start >= 64 * 1024) {
            self.buffer.drain(..self.start);
            self.start = 0;
        }
        Ok(flow)
    }

    /// Whether part of a message is held.
    pub(crate) fn has_partial(&self) -> bool {
        self.start < self.buffer.len()
    }
}

fn header<'m>(message: &'m Message, name: &str) -> Option<&'m str> {
    message
        .headers()
        .iter()
        .find(|h| h.name().as_str() == name)
        .and_then(|h| h.value().as_string().ok())
        .map(|v| v.as_str())
}

fn event_of(message: &Message) -> Result<SseEvent, ModelError> {
    let payload = || {
        std::str::from_utf8(message.payload())
            .map(str::to_owned)
            .map_err(|_| malformed("a payload is not UTF-8"))
    };
    match header(message, ":message-type").unwrap_or("event") {
        "event" => Ok(SseEvent {
            event: header(message, ":event-type").unwrap_or_default().to_owned(),
            data: payload()?,
        }),
        "exception" => Ok(SseEvent {
            event: format!("exception:{}", header(message, ":exception-type").unwrap_or("unknown")),
            data: payload()?,
        }),
        "error" => Ok(SseEvent {
            event: format!("error:{}", header(message, ":error-code").unwrap_or("unknown")),
            data: header(message, ":error-message").unwrap_or_default().to_owned(),
        }),
        other => Err(malformed(format!("unknown message type {other:?}"))),
    }
}

#[cfg(any(test, feature = "test-util"))]
/// Encodes one message, for scripted servers and tests: `headers` as string headers.
pub fn encode(headers: &[(&str, &str)], payload: &[u8]) -> Vec<u8> {
    use aws_smithy_types::event_stream::{Header, HeaderValue};
    let mut message = Message::new(bytes::Bytes::copy_from_slice(payload));
    for (name, value) in headers {
        message =
            message.add_header(Header::new(name.to_string(), HeaderValue::String(value.to_string().into())));
    }
    let mut out = Vec::new();
    // Writing to a Vec only fails for headers longer than the format allows.
    if aws_smithy_eventstream::frame::write_message_to(&message, &mut out).is_err() {
        out.clear();
    }
    out
}

#[cfg(any(test, feature = "test-util"))]
/// One event of a stream, encoded (`:message-type` `event`, JSON payload).
pub fn encode_event(event_type: &str, payload: &serde_json::Value) -> Vec<u8> {
    encode(
        &[(":event-type", event_type), (":content-type", "application/json"), (":message-type", "event")],
        payload.to_string().as_bytes(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn collect(decoder: &mut Decoder, chunk: &[u8]) -> Result<Vec<SseEvent>, ModelError> {
        let mut events = Vec::new();
        let _ = decoder.feed_each(chunk, |e| {
            events.push(e.clone());
            ControlFlow::<()>::Continue(())
        })?;
        Ok(events)
    }

    #[test]
    fn messages_come_out_whole_however_the_bytes_arrive() {
        let mut body = encode_event("messageStart", &json!({"role": "assistant"}));
        body.extend(encode_event(
            "contentBlockDelta",
            &json!({"delta": {"text": "héllo"}, "contentBlockIndex": 0}),
        ));
        body.extend(encode(
            &[(":exception-type", "throttlingException"), (":message-type", "exception")],
            br#"{"message":"slow down"}"#,
        ));
        for step in [1, 3, 7, 13, body.len()] {
            let mut decoder = Decoder::default();
            let mut events = Vec::new();
            for chunk in body.chunks(step) {
                events.extend(collect(&mut decoder, chunk).unwrap());
            }
            assert!(!decoder.has_partial());
            assert_eq!(events.len(), 3, "step {step}");
            assert_eq!(events[0].event, "messageStart");
            assert_eq!(events[1].data, r#"{"delta":{"text":"héllo"},"contentBlockIndex":0}"#);
            assert_eq!(events[2].event, "exception:throttlingException");
        }
    }

    #[test]
    fn corruption_is_refused_not_waited_for() {
        let body = encode_event("messageStop", &json!({"stopReason": "end_turn"}));
        // A flipped payload byte fails the message checksum.
        let mut flipped = body.clone();
        let at = flipped.len() - 6;
        flipped[at] ^= 1;
        assert!(collect(&mut Decoder::default(), &flipped).unwrap_err().message.contains("malformed"));
        // A length that does not match the prelude checksum is refused at once.
        let mut long = body.clone();
        long[0] = 0x7f;
        assert!(collect(&mut Decoder::default(), &long[..12]).is_err());
        // A consistent prelude that claims more than any message may hold, too.
        let mut huge = Vec::new();
        huge.extend(((MAX_MESSAGE + 1) as u32).to_be_bytes());
        huge.extend(0u32.to_be_bytes());
        huge.extend(crc32fast::hash(&huge[..8]).to_be_bytes());
        assert!(collect(&mut Decoder::default(), &huge).unwrap_err().message.contains("claims"));
    }
}

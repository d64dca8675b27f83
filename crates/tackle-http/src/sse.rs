//! Server-sent events, decoded incrementally from byte chunks split anywhere.

use std::ops::ControlFlow;

use crate::error::HttpError;

/// One event: its `event:` name (empty when none was sent) and its `data:` lines joined
/// with `\n`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SseEvent {
    /// The event name.
    pub event: String,
    /// The data.
    pub data: String,
}

/// Decodes an SSE byte stream. Feed chunks as they arrive; complete events come out.
/// Lines may end in `\n`, `\r\n` or `\r`; comment lines (`:`) and unknown fields are
/// ignored; a UTF-8 sequence split across chunks is kept whole. A line, and the data of one
/// event, may be at most [`SseDecoder::max_line`] bytes: past that the decoder fails with
/// [`HttpError::LineTooLong`] instead of buffering without end.
#[derive(Debug)]
pub struct SseDecoder {
    buffer: Vec<u8>,
    /// The event being read; its buffers are reused from one event to the next.
    current: SseEvent,
    has_data: bool,
    skip_lf: bool,
    max_line: usize,
}

impl Default for SseDecoder {
    fn default() -> Self {
        SseDecoder {
            buffer: Vec::new(),
            current: SseEvent::default(),
            has_data: false,
            skip_lf: false,
            max_line: Self::DEFAULT_MAX_LINE,
        }
    }
}

impl SseDecoder {
    /// The default longest line (and event data): 16 MiB.
    pub const DEFAULT_MAX_LINE: usize = 16 * 1024 * 1024;

    /// A decoder at the start of a stream.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the longest line (and event data) accepted, in bytes.
    pub fn max_line(mut self, max: usize) -> Self {
        self.max_line = max;
        self
    }

    /// Feeds bytes; returns the events they complete.
    pub fn feed(&mut self, chunk: &[u8]) -> Result<Vec<SseEvent>, HttpError> {
        let mut events = Vec::new();
        // The reader never stops early.
        let _: ControlFlow<()> = self.feed_each(chunk, |event| {
            events.push(event.clone());
            ControlFlow::Continue(())
        })?;
        Ok(events)
    }

    /// Feeds bytes and hands each event they complete to `on_event` as it completes,
    /// without copying it out (the decoder reuses its buffers). When `on_event` breaks,
    /// the rest of `chunk` is not read and the break comes back.
    pub fn feed_each<B>(
        &mut self,
        mut chunk: &[u8],
        mut on_event: impl FnMut(&SseEvent) -> ControlFlow<B>,
    ) -> Result<ControlFlow<B>, HttpError> {
        while !chunk.is_empty() {
            if self.skip_lf {
                self.skip_lf = false;
                if chunk[0] == b'\n' {
                    chunk = &chunk[1..];
                    continue;
                }
            }
            let Some(end) = memchr::memchr2(b'\n', b'\r', chunk) else {
                self.push_partial(chunk)?;
                break;
            };
            self.skip_lf = chunk[end] == b'\r';
            let complete = if self.buffer.is_empty() {
                self.check_len(end)?;
                self.line(&chunk[..end])?
            } else {
                self.push_partial(&chunk[..end])?;
                let line = std::mem::take(&mut self.buffer);
                let complete = self.line(&line);
                // The buffer keeps its allocation for the next split line.
                self.buffer = line;
                self.buffer.clear();
                complete?
            };
            chunk = &chunk[end + 1..];
            if complete {
                let flow = on_event(&self.current);
                self.current.event.clear();
                self.current.data.clear();
                if flow.is_break() {
                    return Ok(flow);
                }
            }
        }
        Ok(ControlFlow::Continue(()))
    }

    fn check_len(&self, len: usize) -> Result<(), HttpError> {
        if len > self.max_line {
            return Err(HttpError::LineTooLong { limit: self.max_line });
        }
        Ok(())
    }

    fn push_partial(&mut self, bytes: &[u8]) -> Result<(), HttpError> {
        self.check_len(self.buffer.len() + bytes.len())?;
        self.buffer.extend_from_slice(bytes);
        Ok(())
    }

    /// Whether bytes of an unfinished event are pending.
    pub fn has_partial(&self) -> bool {
        !self.buffer.is_empty() || self.has_data
    }

    /// The stream ended: dispatches what is pending (a last line without its line end, an
    /// event without its blank line) as a final event. Whether that event is complete is
    /// for the reader to judge.
    pub fn finish(&mut self) -> Option<SseEvent> {
        let line = std::mem::take(&mut self.buffer);
        // Its length was checked as it was buffered.
        let complete =
            (!line.is_empty() && self.line(&line).unwrap_or(false)) || self.line(b"").unwrap_or(false);
        complete.then(|| std::mem::take(&mut self.current))
    }

    /// Reads one line; true when it completes an event (which is then in `current`).
    fn line(&mut self, line: &[u8]) -> Result<bool, HttpError> {
        if line.is_empty() {
            if !self.has_data {
                self.current.event.clear();
                return Ok(false);
            }
            self.has_data = false;
            return Ok(true);
        }
        if line[0] == b':' {
            return Ok(false);
        }
        // Valid UTF-8 (the normal case) is checked on the fast path and borrowed.
        let text = match std::str::from_utf8(line) {
            Ok(text) => std::borrow::Cow::Borrowed(text),
            Err(_) => String::from_utf8_lossy(line),
        };
        let (field, value) = match text.find(':') {
            Some(i) => (&text[..i], text[i + 1..].strip_prefix(' ').unwrap_or(&text[i + 1..])),
            None => (&*text, ""),
        };
        match field {
            "data" => {
                let data = &mut self.current.data;
                if data.len() + value.len() + 1 > self.max_line {
                    return Err(HttpError::LineTooLong { limit: self.max_line });
                }
                if self.has_data {
                    data.push('\n');
                }
                data.push_str(value);
                self.has_data = true;
            }
            "event" => value.clone_into(&mut self.current.event),
            _ => {}
        }
        Ok(false)
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    const STREAM: &str = ": keep-alive\r\nevent: message_start\r\ndata: {\"a\":1}\r\n\r\ndata: first\ndata: second\n\ndata:no-space\r\r\nid: 7\nretry: 10\ndata: [DONE]\n\n";

    fn expected() -> Vec<SseEvent> {
        vec![
            SseEvent { event: "message_start".into(), data: "{\"a\":1}".into() },
            SseEvent { event: String::new(), data: "first\nsecond".into() },
            SseEvent { event: String::new(), data: "no-space".into() },
            SseEvent { event: String::new(), data: "[DONE]".into() },
        ]
    }

    #[test]
    fn decodes_every_line_ending_and_ignores_comments() {
        let mut decoder = SseDecoder::new();
        assert_eq!(decoder.feed(STREAM.as_bytes()).unwrap(), expected());
        assert!(!decoder.has_partial());
    }

    #[test]
    fn events_are_handed_over_in_place_until_the_reader_stops() {
        let mut decoder = SseDecoder::new();
        let mut seen = Vec::new();
        let flow = decoder
            .feed_each(STREAM.as_bytes(), |event| {
                seen.push(event.clone());
                if seen.len() == 2 { ControlFlow::Break("enough") } else { ControlFlow::Continue(()) }
            })
            .unwrap();
        assert_eq!(flow, ControlFlow::Break("enough"));
        assert_eq!(seen, expected()[..2]);
        // A reused event never carries a field of the one before it.
        let mut decoder = SseDecoder::new();
        let events = decoder.feed(b"event: a\ndata: 1\n\ndata: 2\n\n").unwrap();
        assert_eq!(events[1], SseEvent { event: String::new(), data: "2".into() });
    }

    #[test]
    fn an_unfinished_event_is_reported() {
        let mut decoder = SseDecoder::new();
        assert!(decoder.feed(b"data: {\"half\":").unwrap().is_empty());
        assert!(decoder.has_partial());
        let mut decoder = SseDecoder::new();
        assert!(decoder.feed(b"data: x\n").unwrap().is_empty());
        assert!(decoder.has_partial(), "data without the blank line is not complete");
        assert_eq!(decoder.finish(), Some(SseEvent { event: String::new(), data: "x".into() }));
        let mut decoder = SseDecoder::new();
        decoder.feed(b"data: [DO").unwrap();
        assert_eq!(decoder.finish().map(|e| e.data), Some("[DO".into()));
        assert_eq!(decoder.finish(), None);
    }

    #[test]
    fn long_lines_fail_instead_of_growing() {
        let mut decoder = SseDecoder::new().max_line(16);
        assert_eq!(decoder.feed(b"data: 0123456789\n\n").unwrap().len(), 1);
        let mut decoder = SseDecoder::new().max_line(16);
        decoder.feed(b"data: 01234567").unwrap();
        let err = decoder.feed(b"89abcdef").unwrap_err();
        assert!(matches!(err, HttpError::LineTooLong { limit: 16 }), "{err}");
        // Many short data lines add up to one event's data, which is bounded too.
        let mut decoder = SseDecoder::new().max_line(16);
        let err = decoder.feed(b"data: 0123\ndata: 4567\ndata: 89ab\ndata: cdef\n").unwrap_err();
        assert!(matches!(err, HttpError::LineTooLong { .. }));
        // Without any line end, a stream cannot make the decoder grow past the limit.
        let mut decoder = SseDecoder::new().max_line(1024);
        let mut failed = false;
        for _ in 0..100 {
            if decoder.feed(&[b'x'; 100]).is_err() {
                failed = true;
                break;
            }
        }
        assert!(failed);
        assert!(decoder.buffer.capacity() <= 2048);
    }

    proptest! {
        /// Any split of the bytes gives the same events, UTF-8 included.
        #[test]
        fn any_split_gives_the_same_events(cuts in prop::collection::vec(0usize..200, 0..12)) {
            let text = format!("{STREAM}data: äöü €\n\n");
            let bytes = text.as_bytes();
            let mut points: Vec<usize> = cuts.into_iter().map(|c| c % (bytes.len() + 1)).collect();
            points.sort_unstable();
            let mut decoder = SseDecoder::new();
            let mut events = Vec::new();
            let mut start = 0;
            for point in points.into_iter().chain([bytes.len()]) {
                events.extend(decoder.feed(&bytes[start..point]).unwrap());
                start = point;
            }
            let mut want = expected();
            want.push(SseEvent { event: String::new(), data: "äöü €".into() });
            prop_assert_eq!(events, want);
        }
    }
}

#[cfg(test)]
mod arbitrary_bytes {
    use proptest::prelude::*;

    use super::*;

    proptest! {
        /// Any bytes, fed in any split, decode without panicking, never buffer past the
        /// limit, and give the same events as one whole feed.
        #[test]
        fn any_bytes_any_split(bytes in prop::collection::vec(any::<u8>(), 0..600), cut in 0usize..600) {
            let cut = cut.min(bytes.len());
            let mut whole = SseDecoder::new().max_line(64);
            let all = whole.feed(&bytes);
            let mut split = SseDecoder::new().max_line(64);
            let first = split.feed(&bytes[..cut]);
            let parts = first.and_then(|mut events| {
                events.extend(split.feed(&bytes[cut..])?);
                Ok(events)
            });
            prop_assert!(split.buffer.len() <= 64);
            match (all, parts) {
                (Ok(a), Ok(b)) => prop_assert_eq!(a, b),
                (Err(_), Err(_)) => {}
                (a, b) => prop_assert!(false, "whole {:?} vs split {:?}", a.is_ok(), b.is_ok()),
            }
        }
    }
}

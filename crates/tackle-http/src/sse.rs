//! Server-sent events, decoded incrementally from byte chunks split anywhere.

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
/// ignored; a UTF-8 sequence split across chunks is kept whole.
#[derive(Debug, Default)]
pub struct SseDecoder {
    buffer: Vec<u8>,
    event: String,
    data: String,
    has_data: bool,
    skip_lf: bool,
}

impl SseDecoder {
    /// A decoder at the start of a stream.
    pub fn new() -> Self {
        Self::default()
    }

    /// Feeds bytes; returns the events they complete.
    pub fn feed(&mut self, chunk: &[u8]) -> Vec<SseEvent> {
        let mut events = Vec::new();
        for &byte in chunk {
            if self.skip_lf {
                self.skip_lf = false;
                if byte == b'\n' {
                    continue;
                }
            }
            match byte {
                b'\n' | b'\r' => {
                    self.skip_lf = byte == b'\r';
                    let line = std::mem::take(&mut self.buffer);
                    if let Some(event) = self.line(&line) {
                        events.push(event);
                    }
                }
                _ => self.buffer.push(byte),
            }
        }
        events
    }

    /// Whether bytes of an unfinished event are pending.
    pub fn has_partial(&self) -> bool {
        !self.buffer.is_empty() || self.has_data
    }

    /// The stream ended: dispatches what is pending (a last line without its line end, an
    /// event without its blank line) as a final event. Whether that event is complete is
    /// for the reader to judge.
    pub fn finish(&mut self) -> Option<SseEvent> {
        if !self.buffer.is_empty() {
            let line = std::mem::take(&mut self.buffer);
            if let Some(event) = self.line(&line) {
                return Some(event);
            }
        }
        self.line(b"")
    }

    fn line(&mut self, line: &[u8]) -> Option<SseEvent> {
        if line.is_empty() {
            if !self.has_data {
                self.event.clear();
                return None;
            }
            self.has_data = false;
            let event =
                SseEvent { event: std::mem::take(&mut self.event), data: std::mem::take(&mut self.data) };
            return Some(event);
        }
        if line[0] == b':' {
            return None;
        }
        let text = String::from_utf8_lossy(line);
        let (field, value) = match text.find(':') {
            Some(i) => (&text[..i], text[i + 1..].strip_prefix(' ').unwrap_or(&text[i + 1..])),
            None => (&*text, ""),
        };
        match field {
            "data" => {
                if self.has_data {
                    self.data.push('\n');
                }
                self.data.push_str(value);
                self.has_data = true;
            }
            "event" => value.clone_into(&mut self.event),
            _ => {}
        }
        None
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
        assert_eq!(decoder.feed(STREAM.as_bytes()), expected());
        assert!(!decoder.has_partial());
    }

    #[test]
    fn an_unfinished_event_is_reported() {
        let mut decoder = SseDecoder::new();
        assert!(decoder.feed(b"data: {\"half\":").is_empty());
        assert!(decoder.has_partial());
        let mut decoder = SseDecoder::new();
        assert!(decoder.feed(b"data: x\n").is_empty());
        assert!(decoder.has_partial(), "data without the blank line is not complete");
        assert_eq!(decoder.finish(), Some(SseEvent { event: String::new(), data: "x".into() }));
        let mut decoder = SseDecoder::new();
        decoder.feed(b"data: [DO");
        assert_eq!(decoder.finish().map(|e| e.data), Some("[DO".into()));
        assert_eq!(decoder.finish(), None);
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
                events.extend(decoder.feed(&bytes[start..point]));
                start = point;
            }
            let mut want = expected();
            want.push(SseEvent { event: String::new(), data: "äöü €".into() });
            prop_assert_eq!(events, want);
        }
    }
}

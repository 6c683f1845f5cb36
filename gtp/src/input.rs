//! The input side of a running session: a reader thread turns raw lines into events on
//! a channel, and shared flags let a search in progress see that input arrived.
//!
//! Flags are raised *after* the event is queued and re-armed by the session before a
//! search starts (cleared, then raised again if matching events are already queued),
//! so no line is missed and no stale line stops the wrong search.

use std::io::{self, BufRead};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::SeqCst};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::Instant;

use crate::protocol::{clean_line, is_interrupt, leading_id};

/// Longest line read as a command (bytes); a longer one is answered `syntax error`.
pub const MAX_LINE: usize = 4 << 20;

/// What the reader saw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Event {
    /// A cleaned, non-empty command line.
    Line(String),
    /// GoGui's `# interrupt` comment.
    Interrupt,
    /// A line that is empty after cleanup (a comment or blank line): no answer, but it
    /// does stop an analysis stream, as in Leela Zero and KataGo.
    Blank,
    /// A line over [`MAX_LINE`] bytes, with its id if it started with one.
    TooLong(Option<String>),
    /// End of input (or a read error).
    Eof,
}

/// Flags shared between the reader and the searching session.
#[derive(Debug, Default)]
pub(crate) struct Signals {
    /// Events queued and not yet taken.
    queued: AtomicUsize,
    /// `# interrupt` events queued and not yet taken.
    queued_interrupts: AtomicUsize,
    /// Raised by every line: stops analysis streams.
    input: AtomicBool,
    /// Raised by `# interrupt` (and by a move's time watchdog): stops a genmove.
    interrupt: AtomicBool,
}

impl Signals {
    /// Signals for running commands one at a time without a reader: input always
    /// counts as pending, so an analysis stream stops after its first check.
    pub(crate) fn detached() -> Signals {
        let s = Signals::default();
        s.queued.store(1, SeqCst);
        s
    }

    /// Counts an event before it is queued (so the count never goes below zero).
    fn announce(&self, event: &Event) {
        self.queued.fetch_add(1, SeqCst);
        if *event == Event::Interrupt {
            self.queued_interrupts.fetch_add(1, SeqCst);
        }
    }

    /// Raises the flags for an event about to be queued.
    fn raise(&self, event: &Event) {
        if *event == Event::Interrupt {
            self.interrupt.store(true, SeqCst);
        }
        self.input.store(true, SeqCst);
    }

    #[cfg(test)]
    fn arrived(&self, event: &Event) {
        self.announce(event);
        self.raise(event);
    }

    pub(crate) fn taken(&self, event: &Event) {
        self.queued.fetch_sub(1, SeqCst);
        if *event == Event::Interrupt {
            self.queued_interrupts.fetch_sub(1, SeqCst);
        }
    }

    /// The stop flag of an analysis stream: raised by any input after now (or already
    /// queued).
    pub(crate) fn arm_input(&self) -> &AtomicBool {
        self.input.store(false, SeqCst);
        if self.queued.load(SeqCst) > 0 {
            self.input.store(true, SeqCst);
        }
        &self.input
    }

    /// The stop flag of a move search: raised by `# interrupt` after now (or already
    /// queued) and by [`Signals::interrupt`].
    pub(crate) fn arm_interrupt(&self) -> &AtomicBool {
        self.interrupt.store(false, SeqCst);
        if self.queued_interrupts.load(SeqCst) > 0 {
            self.interrupt.store(true, SeqCst);
        }
        &self.interrupt
    }

    /// Raises the analysis stop flag as input would (the time watchdog of a search
    /// that input cancels uses it); [`Signals::input_pending`] still tells real input.
    pub(crate) fn raise_input(&self) {
        self.input.store(true, SeqCst);
    }

    /// Raises the move-search stop flag (the time watchdog uses it).
    pub(crate) fn interrupt(&self) {
        self.interrupt.store(true, SeqCst);
    }

    /// Whether any input is waiting.
    pub(crate) fn input_pending(&self) -> bool {
        self.queued.load(SeqCst) > 0
    }
}

/// Starts the reader thread; it ends at end of input or when the receiver is dropped.
/// Each event comes with the moment its line was read: a move's time runs from there,
/// as the controller's clock does, however long the line waited in the queue.
pub(crate) fn spawn_reader<R: BufRead + Send + 'static>(
    mut input: R,
    signals: Arc<Signals>,
) -> Receiver<(Event, Instant)> {
    let (tx, rx) = channel();
    std::thread::Builder::new()
        .name("gtp-input".into())
        .spawn(move || read_loop(&mut input, &tx, &signals))
        .expect("spawning the GTP input thread");
    rx
}

fn read_loop(input: &mut dyn BufRead, tx: &Sender<(Event, Instant)>, signals: &Signals) {
    let mut buf = Vec::new();
    loop {
        let event = match read_line_capped(input, &mut buf, MAX_LINE) {
            Ok(Line::Eof) | Err(_) => Event::Eof,
            Ok(Line::TooLong) => Event::TooLong(leading_id(&buf)),
            Ok(Line::Complete) => classify(&buf),
        };
        let read_at = Instant::now();
        let eof = event == Event::Eof;
        // Count and raise before sending: raised after, a slow reader could set the
        // flag once the session had already taken this very line and armed the flag
        // for the command it carries, stopping that command's analysis at once.
        signals.announce(&event);
        signals.raise(&event);
        if tx.send((event, read_at)).is_err() {
            return;
        }
        if eof {
            return;
        }
    }
}

/// Turns one raw line into its event.
pub(crate) fn classify(raw: &[u8]) -> Event {
    if is_interrupt(raw) {
        return Event::Interrupt;
    }
    let clean = clean_line(raw);
    if clean.is_empty() {
        Event::Blank
    } else {
        Event::Line(clean)
    }
}

/// How a capped read ended.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Line {
    /// A line (its newline removed) is in the buffer; the last line may lack one.
    Complete,
    /// The line passed the cap: the buffer holds its start, the rest was skipped.
    TooLong,
    /// Nothing left.
    Eof,
}

/// Reads one line into `buf` (cleared first), keeping at most `max` bytes and skipping
/// the rest of a longer line, so no input can make memory grow without bound.
pub(crate) fn read_line_capped(
    input: &mut dyn BufRead,
    buf: &mut Vec<u8>,
    max: usize,
) -> io::Result<Line> {
    buf.clear();
    let mut read_any = false;
    let mut too_long = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok(match (read_any, too_long) {
                (false, _) => Line::Eof,
                (true, true) => Line::TooLong,
                (true, false) => Line::Complete,
            });
        }
        read_any = true;
        let (part, used, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], i + 1, true),
            None => (chunk, chunk.len(), false),
        };
        let room = max.saturating_sub(buf.len());
        if part.len() > room {
            too_long = true;
        }
        buf.extend_from_slice(&part[..part.len().min(room)]);
        input.consume(used);
        if done {
            return Ok(if too_long {
                Line::TooLong
            } else {
                Line::Complete
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_are_cut_and_skipped() {
        let mut data = vec![b'x'; 100];
        data.extend_from_slice(b"\nname\nlast");
        let mut r = io::BufReader::with_capacity(7, &data[..]);
        let mut buf = Vec::new();
        assert_eq!(
            read_line_capped(&mut r, &mut buf, 10).unwrap(),
            Line::TooLong
        );
        assert_eq!(buf.len(), 10);
        assert_eq!(
            read_line_capped(&mut r, &mut buf, 10).unwrap(),
            Line::Complete
        );
        assert_eq!(buf, b"name");
        assert_eq!(
            read_line_capped(&mut r, &mut buf, 10).unwrap(),
            Line::Complete
        );
        assert_eq!(buf, b"last");
        assert_eq!(read_line_capped(&mut r, &mut buf, 10).unwrap(), Line::Eof);
    }

    #[test]
    fn flags_see_queued_and_later_input() {
        let s = Signals::default();
        assert!(!s.arm_input().load(SeqCst));
        s.arrived(&Event::Line("name".into()));
        assert!(s.arm_input().load(SeqCst));
        assert!(!s.arm_interrupt().load(SeqCst));
        s.arrived(&Event::Interrupt);
        assert!(s.arm_interrupt().load(SeqCst));
        s.taken(&Event::Line("name".into()));
        s.taken(&Event::Interrupt);
        assert!(!s.arm_input().load(SeqCst));
        assert!(!s.arm_interrupt().load(SeqCst));
    }
}

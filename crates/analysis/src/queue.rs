//! The turns waiting for a search, highest priority first (ties in the order they came),
//! and every turn still open, so that `terminate` finds it queued or running. The queue
//! is bounded: past [`MAX_OPEN_TURNS`] turns or [`MAX_OPEN_BYTES`] bytes of queries a
//! new query is refused, so memory stays bounded however many queries arrive.

use std::cmp::Ordering as CmpOrdering;
use std::collections::{BinaryHeap, HashMap};
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

use crate::lock::{lock, wait};
use crate::options::SearchOptions;
use crate::position::Position;

/// The most turns open (queued or being searched) at once.
pub const MAX_OPEN_TURNS: usize = 200_000;

/// The most bytes of query lines open at once.
pub const MAX_OPEN_BYTES: usize = 512 << 20;

const QUEUED: u8 = 0;
const RUNNING: u8 = 1;
const TERMINATED: u8 = 2;
/// Being searched when the loop failed: answered with an error, not by its searcher.
const ABANDONED: u8 = 3;
/// Searched, and its searcher answers it.
const ANSWERED: u8 = 4;

/// A query accepted for analysis, shared by its turns.
#[derive(Debug)]
pub struct Job {
    /// The query's id.
    pub id: String,
    /// The game.
    pub position: Position,
    /// Its settings.
    pub options: SearchOptions,
    /// The length of its line, charged while any of its turns is open.
    bytes: usize,
    /// Its turns still open.
    open: AtomicUsize,
}

impl Job {
    /// A job for a query whose line had `bytes` bytes.
    pub fn new(id: String, position: Position, options: SearchOptions, bytes: usize) -> Job {
        Job {
            id,
            position,
            options,
            bytes,
            open: AtomicUsize::new(0),
        }
    }
}

/// One turn of a query.
#[derive(Debug)]
pub struct Turn {
    /// The query.
    pub job: Arc<Job>,
    /// The turn number.
    pub number: usize,
    /// Raised to end the turn's search (terminate, `maxTime`, or shutting down).
    pub stop: Arc<AtomicBool>,
    status: AtomicU8,
}

impl Turn {
    /// Claims a searched turn's answer for its searcher: false when the turn was
    /// abandoned (the loop failed and answered it with an error already), or was
    /// claimed before.
    pub fn claim_answer(&self) -> bool {
        self.status
            .compare_exchange(RUNNING, ANSWERED, Ordering::AcqRel, Ordering::Acquire)
            .is_ok()
    }

    /// Whether the turn was abandoned while being searched (see
    /// [`Queue::abandon_running`]): its searcher sends nothing more.
    pub fn abandoned(&self) -> bool {
        self.status.load(Ordering::Acquire) == ABANDONED
    }
}

/// A turn in the heap: higher priority first, then earlier.
struct Entry {
    priority: i64,
    seq: u64,
    turn: Arc<Turn>,
}

impl PartialEq for Entry {
    fn eq(&self, other: &Entry) -> bool {
        self.cmp(other) == CmpOrdering::Equal
    }
}

impl Eq for Entry {}

impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Entry) -> Option<CmpOrdering> {
        Some(self.cmp(other))
    }
}

impl Ord for Entry {
    fn cmp(&self, other: &Entry) -> CmpOrdering {
        self.priority
            .cmp(&other.priority)
            .then(other.seq.cmp(&self.seq))
    }
}

#[derive(Default)]
struct Inner {
    heap: BinaryHeap<Entry>,
    open: HashMap<String, Vec<Arc<Turn>>>,
    seq: u64,
    open_turns: usize,
    open_bytes: usize,
    closed: bool,
}

/// The queue is full: the query is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Full {
    /// Turns open when it was refused.
    pub turns: usize,
    /// Bytes of queries open when it was refused.
    pub bytes: usize,
}

impl std::fmt::Display for Full {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Too many queries in flight ({} turns, {} bytes of queries open; at most {} turns \
             and {} bytes): send it again once some are answered",
            self.turns, self.bytes, MAX_OPEN_TURNS, MAX_OPEN_BYTES
        )
    }
}

impl std::error::Error for Full {}

/// The turns to search and the open ones, shared by the reader and the searchers.
#[derive(Default)]
pub struct Queue {
    inner: Mutex<Inner>,
    ready: Condvar,
}

impl std::fmt::Debug for Queue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let inner = self.lock();
        f.debug_struct("Queue")
            .field("queued", &inner.heap.len())
            .field("open_turns", &inner.open_turns)
            .field("closed", &inner.closed)
            .finish()
    }
}

impl Queue {
    /// An empty queue.
    pub fn new() -> Queue {
        Queue::default()
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        lock(&self.inner)
    }

    /// Queues `turns` (turn number, priority) of `job`, or refuses them all when the
    /// queue is full.
    pub fn push(&self, job: Job, turns: &[(usize, i64)]) -> Result<(), Full> {
        let mut inner = self.lock();
        if inner.open_turns + turns.len() > MAX_OPEN_TURNS
            || inner.open_bytes + job.bytes > MAX_OPEN_BYTES
        {
            return Err(Full {
                turns: inner.open_turns,
                bytes: inner.open_bytes,
            });
        }
        job.open.store(turns.len(), Ordering::Relaxed);
        inner.open_turns += turns.len();
        inner.open_bytes += job.bytes;
        let job = Arc::new(job);
        for &(number, priority) in turns {
            let turn = Arc::new(Turn {
                job: Arc::clone(&job),
                number,
                stop: Arc::new(AtomicBool::new(false)),
                status: AtomicU8::new(QUEUED),
            });
            inner
                .open
                .entry(job.id.clone())
                .or_default()
                .push(Arc::clone(&turn));
            let seq = inner.seq;
            inner.seq += 1;
            inner.heap.push(Entry {
                priority,
                seq,
                turn,
            });
        }
        drop(inner);
        self.ready.notify_all();
        Ok(())
    }

    /// The next turn to search, waiting for one; `None` once the queue is closed and
    /// empty.
    pub fn pop(&self) -> Option<Arc<Turn>> {
        let mut inner = self.lock();
        loop {
            while let Some(entry) = inner.heap.pop() {
                let claimed = entry
                    .turn
                    .status
                    .compare_exchange(QUEUED, RUNNING, Ordering::AcqRel, Ordering::Acquire)
                    .is_ok();
                if claimed {
                    return Some(entry.turn);
                }
            }
            if inner.closed {
                return None;
            }
            inner = wait(&self.ready, inner);
        }
    }

    /// A searched turn is done: it is no longer open.
    pub fn finish(&self, turn: &Arc<Turn>) {
        let mut inner = self.lock();
        Self::close_turn(&mut inner, turn);
    }

    fn close_turn(inner: &mut Inner, turn: &Arc<Turn>) {
        let id = &turn.job.id;
        if let Some(list) = inner.open.get_mut(id) {
            let before = list.len();
            list.retain(|t| !Arc::ptr_eq(t, turn));
            if list.len() == before {
                return;
            }
            if list.is_empty() {
                inner.open.remove(id);
            }
            inner.open_turns -= 1;
            if turn.job.open.fetch_sub(1, Ordering::AcqRel) == 1 {
                inner.open_bytes -= turn.job.bytes;
            }
        }
    }

    /// Terminates the open turns of `target` (every query's with `None`), only those
    /// numbered in `turns` when given: a running search is told to stop (it answers
    /// what it found), and the queued turns are returned, closed, to be answered with
    /// no results.
    pub fn terminate(&self, target: Option<&str>, turns: Option<&[i64]>) -> Vec<Arc<Turn>> {
        let mut inner = self.lock();
        let wanted = |t: &Turn| turns.is_none_or(|list| list.contains(&(t.number as i64)));
        let mut matched: Vec<Arc<Turn>> = Vec::new();
        for (id, list) in &inner.open {
            if target.is_none_or(|want| want == id) {
                matched.extend(list.iter().filter(|t| wanted(t)).cloned());
            }
        }
        let mut stopped_in_queue = Vec::new();
        for turn in matched {
            turn.stop.store(true, Ordering::Release);
            let was_queued = turn
                .status
                .compare_exchange(QUEUED, TERMINATED, Ordering::AcqRel, Ordering::Acquire)
                .is_ok();
            if was_queued {
                Self::close_turn(&mut inner, &turn);
                stopped_in_queue.push(turn);
            }
        }
        stopped_in_queue.sort_by_key(|t| (t.number, Arc::as_ptr(t) as usize));
        stopped_in_queue
    }

    /// Abandons the turns being searched (the loop failed): each is told to stop and
    /// returned, to be answered with an error; its searcher then sends nothing more
    /// for it ([`Turn::claim_answer`] is false). A turn whose answer its searcher has
    /// claimed already is left to it.
    pub fn abandon_running(&self) -> Vec<Arc<Turn>> {
        let inner = self.lock();
        let mut abandoned: Vec<Arc<Turn>> = Vec::new();
        for turn in inner.open.values().flatten() {
            let was_running = turn
                .status
                .compare_exchange(RUNNING, ABANDONED, Ordering::AcqRel, Ordering::Acquire)
                .is_ok();
            if was_running {
                turn.stop.store(true, Ordering::Release);
                abandoned.push(Arc::clone(turn));
            }
        }
        abandoned.sort_by_key(|t| (t.number, Arc::as_ptr(t) as usize));
        abandoned
    }

    /// No more turns will come: the searchers end once the queue is empty.
    pub fn close(&self) {
        self.lock().closed = true;
        self.ready.notify_all();
    }

    /// Turns open now (queued or being searched).
    pub fn open_turns(&self) -> usize {
        self.lock().open_turns
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::options::Perspective;
    use tengen_board::{BoardSize, Rules};

    /// A job of an empty 9×9 game whose line had `bytes` bytes.
    pub(crate) fn job(id: &str, bytes: usize) -> Job {
        let position = Position::new(
            BoardSize::new(9).unwrap(),
            Rules::chinese(),
            Vec::new(),
            None,
            Vec::new(),
        )
        .unwrap();
        Job::new(
            id.to_string(),
            position,
            SearchOptions::new(1, Perspective::Black),
            bytes,
        )
    }

    #[test]
    fn higher_priorities_first_then_arrival() {
        let q = Queue::new();
        q.push(job("a", 10), &[(0, 0)]).unwrap();
        q.push(job("b", 10), &[(0, 5), (1, 0)]).unwrap();
        q.push(job("c", 10), &[(0, 5)]).unwrap();
        q.close();
        let order: Vec<(String, usize)> = std::iter::from_fn(|| q.pop())
            .map(|t| {
                q.finish(&t);
                (t.job.id.clone(), t.number)
            })
            .collect();
        let want = [("b", 0), ("c", 0), ("a", 0), ("b", 1)];
        let want: Vec<(String, usize)> = want.iter().map(|&(i, n)| (i.to_string(), n)).collect();
        assert_eq!(order, want);
        assert_eq!(q.open_turns(), 0);
    }

    #[test]
    fn a_failure_abandons_the_running_turns_its_searchers_have_not_answered() {
        let q = Queue::new();
        q.push(job("a", 10), &[(0, 0), (1, 0), (2, 0)]).unwrap();
        let (first, second) = (q.pop().unwrap(), q.pop().unwrap());
        assert!(second.claim_answer(), "its searcher answers it");
        let abandoned = q.abandon_running();
        assert_eq!(abandoned.len(), 1);
        assert!(Arc::ptr_eq(&abandoned[0], &first) && first.abandoned());
        assert!(first.stop.load(Ordering::Acquire) && !first.claim_answer());
        assert!(
            !second.abandoned() && !second.claim_answer(),
            "claimed once"
        );
        assert!(
            q.abandon_running().is_empty(),
            "the queued turn is not running"
        );
        assert_eq!(q.terminate(None, None).len(), 1);
    }

    #[test]
    fn terminate_closes_queued_turns_and_stops_running_ones() {
        let q = Queue::new();
        q.push(job("a", 10), &[(0, 0), (1, 0), (2, 0)]).unwrap();
        q.push(job("b", 10), &[(0, 0)]).unwrap();
        let running = q.pop().unwrap();
        assert_eq!((running.job.id.as_str(), running.number), ("a", 0));
        let queued = q.terminate(Some("a"), Some(&[0, 2]));
        assert_eq!(queued.iter().map(|t| t.number).collect::<Vec<_>>(), vec![2]);
        assert!(running.stop.load(Ordering::Acquire));
        assert_eq!(q.open_turns(), 3);
        q.finish(&running);
        let next = q.pop().unwrap();
        assert_eq!((next.job.id.as_str(), next.number), ("a", 1));
        assert_eq!(q.terminate(None, None).len(), 1, "b's turn");
        q.finish(&next);
        q.close();
        assert!(q.pop().is_none());
        assert_eq!(q.open_turns(), 0);
    }

    #[test]
    fn a_full_queue_refuses_and_frees_its_bytes_as_turns_finish() {
        let q = Queue::new();
        q.push(job("big", MAX_OPEN_BYTES - 5), &[(0, 0), (1, 0)])
            .unwrap();
        let err = q.push(job("more", 10), &[(0, 0)]).unwrap_err();
        assert!(
            err.to_string().starts_with("Too many queries in flight"),
            "{err}"
        );
        let t = q.pop().unwrap();
        q.finish(&t);
        assert!(
            q.push(job("more", 10), &[(0, 0)]).is_err(),
            "one turn of big still open"
        );
        let t = q.pop().unwrap();
        q.finish(&t);
        q.push(job("more", 10), &[(0, 0)]).unwrap();
    }
}

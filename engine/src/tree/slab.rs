//! Chunked storage under a byte budget.
//!
//! A [`Slab`] keeps its elements in fixed-size chunks, each allocated the first time
//! an index in it is handed out, so memory grows with the tree and no element ever
//! moves while threads read it by index. A block of elements (a node's edges) never
//! straddles two chunks, so it is one slice. Every chunk is charged to the tree's
//! [`Budget`] before it exists, and so is the table of chunks; an allocation the
//! budget cannot pay for fails and allocates nothing.
//!
//! The chunk size is chosen when the slab is made (a power of two), so that a small
//! budget still holds many chunks and a large one does not need a large table.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering::Relaxed};

use crate::padded::Padded;

/// The bytes a tree may take, and what it has taken (a count of charged chunks).
#[derive(Debug)]
pub(crate) struct Budget {
    limit: usize,
    used: Padded<AtomicUsize>,
}

impl Budget {
    /// A budget of `limit` bytes, nothing charged.
    pub(crate) fn new(limit: usize) -> Budget {
        Budget {
            limit,
            used: Padded(AtomicUsize::new(0)),
        }
    }

    /// The limit in bytes.
    pub(crate) fn limit(&self) -> usize {
        self.limit
    }

    /// Bytes charged now.
    pub(crate) fn used(&self) -> usize {
        self.used.load(Relaxed)
    }

    /// Charges `bytes` if they fit under the limit.
    fn try_charge(&self, bytes: usize) -> bool {
        self.used
            .fetch_update(Relaxed, Relaxed, |u| {
                (u + bytes <= self.limit).then_some(u + bytes)
            })
            .is_ok()
    }

    /// Charges `bytes` whatever the limit (what a tree needs to exist: its chunk
    /// tables and its root's chunk, which its smallest budget always holds).
    pub(crate) fn force_charge(&self, bytes: usize) {
        self.used.fetch_add(bytes, Relaxed);
    }

    /// Gives `bytes` back.
    fn refund(&self, bytes: usize) {
        self.used.fetch_sub(bytes, Relaxed);
    }
}

/// The chunk size, as a power of two, for a slab of elements charged `charge`
/// bytes each under a budget of `budget` bytes: the largest in `lo..=hi` of which the
/// budget holds at least 16 chunks (`lo` when it holds fewer).
pub(crate) fn chunk_bits(budget: usize, charge: usize, lo: u32, hi: u32) -> u32 {
    (lo..=hi)
        .rev()
        .find(|&b| (charge << b).saturating_mul(16) <= budget)
        .unwrap_or(lo)
}

/// What every allocation writes: kept on cache lines of their own, away from the
/// chunk table that every read of the tree goes through.
#[derive(Debug, Default)]
struct Cursor {
    /// Elements handed out (blocks skip the tail of a chunk they would not fit in).
    len: AtomicU32,
    /// Chunks charged to the budget (always at least the chunks allocated).
    paid: AtomicU32,
}

/// Elements in chunks of `1 << bits`, handed out by a bump index.
#[derive(Debug)]
pub(crate) struct Slab<T> {
    chunks: Box<[OnceLock<Box<[T]>>]>,
    /// log2 of the elements in a chunk.
    bits: u32,
    /// Bytes one chunk is charged: its elements and what compaction needs per element.
    chunk_charge: usize,
    cursor: Padded<Cursor>,
}

impl<T: Default> Slab<T> {
    /// An empty slab of at most `max_chunks` chunks of `1 << bits` elements, each
    /// charged `1 << bits` × `charge_per_element` bytes.
    pub(crate) fn new(bits: u32, max_chunks: usize, charge_per_element: usize) -> Self {
        debug_assert!((1..32).contains(&bits));
        let max_chunks = max_chunks.clamp(1, (u32::MAX >> bits) as usize);
        Slab {
            chunks: (0..max_chunks).map(|_| OnceLock::new()).collect(),
            bits,
            chunk_charge: (1usize << bits) * charge_per_element,
            cursor: Padded::default(),
        }
    }

    /// Bytes of the chunk table (charged by the tree when it is made).
    pub(crate) fn table_bytes(&self) -> usize {
        std::mem::size_of_val(&*self.chunks)
    }

    /// Elements in one chunk.
    #[inline]
    pub(crate) fn chunk_len(&self) -> u32 {
        1 << self.bits
    }

    #[inline]
    fn mask(&self) -> u32 {
        self.chunk_len() - 1
    }

    /// Bytes one chunk is charged.
    pub(crate) fn chunk_charge(&self) -> usize {
        self.chunk_charge
    }

    /// The elements handed out so far (an upper bound of every index in use).
    #[inline]
    pub(crate) fn len(&self) -> u32 {
        self.cursor.len.load(Relaxed)
    }

    /// The element at `i`, which was handed out.
    #[inline]
    pub(crate) fn get(&self, i: u32) -> &T {
        &self.chunk(i >> self.bits)[(i & self.mask()) as usize]
    }

    /// The `n` elements from `start`, a block handed out by [`Slab::alloc`].
    #[inline]
    pub(crate) fn block(&self, start: u32, n: u32) -> &[T] {
        let off = (start & self.mask()) as usize;
        &self.chunk(start >> self.bits)[off..off + n as usize]
    }

    #[inline]
    fn chunk(&self, c: u32) -> &[T] {
        self.chunks[c as usize]
            .get()
            .expect("an index handed out lies in an allocated chunk")
    }

    /// Hands out `n` (1..=chunk length) contiguous elements within one chunk, their
    /// chunk allocated; `None` when the budget or the slab's size cannot take them
    /// (then nothing changes). With `force` the first chunk is charged whatever the
    /// budget.
    pub(crate) fn alloc(&self, n: u32, budget: &Budget, force: bool) -> Option<u32> {
        let (chunk, mask) = (self.chunk_len(), self.mask());
        debug_assert!((1..=chunk).contains(&n));
        let mut cur = self.cursor.len.load(Relaxed);
        let start = loop {
            let start = if (cur & mask) + n > chunk {
                (cur | mask).checked_add(1)?
            } else {
                cur
            };
            let end = start.checked_add(n)?;
            let chunks_needed = (end - 1) / chunk + 1;
            if !self.pay_for(chunks_needed, budget, force) {
                return None;
            }
            match self
                .cursor
                .len
                .compare_exchange_weak(cur, end, Relaxed, Relaxed)
            {
                Ok(_) => break start,
                Err(now) => cur = now,
            }
        };
        self.chunks[(start >> self.bits) as usize]
            .get_or_init(|| (0..chunk).map(|_| T::default()).collect());
        Some(start)
    }

    /// Makes sure the first `chunks` chunks are charged to the budget.
    fn pay_for(&self, chunks: u32, budget: &Budget, force: bool) -> bool {
        loop {
            let paid = self.cursor.paid.load(Relaxed);
            if paid >= chunks {
                return true;
            }
            if paid as usize >= self.chunks.len() {
                return false;
            }
            if force && paid == 0 {
                budget.force_charge(self.chunk_charge);
            } else if !budget.try_charge(self.chunk_charge) {
                return false;
            }
            if self
                .cursor
                .paid
                .compare_exchange(paid, paid + 1, Relaxed, Relaxed)
                .is_err()
            {
                budget.refund(self.chunk_charge);
            }
        }
    }

    /// Keeps the first `len` elements, frees the chunks past them and refunds their
    /// charge (compaction; no thread reads the slab meanwhile).
    pub(crate) fn truncate(&mut self, len: u32, budget: &Budget) {
        let keep = len.div_ceil(self.chunk_len()).max(1);
        let paid = *self.cursor.paid.get_mut();
        for c in keep as usize..self.chunks.len() {
            self.chunks[c].take();
        }
        if paid > keep {
            budget.refund((paid - keep) as usize * self.chunk_charge);
            *self.cursor.paid.get_mut() = keep;
        }
        *self.cursor.len.get_mut() = len;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_stay_in_one_chunk_and_the_budget_holds() {
        // Chunks of 8 elements, 8 bytes charged per element: 64 bytes a chunk.
        let budget = Budget::new(3 * 64);
        let mut a: Slab<AtomicU32> = Slab::new(3, 10, 8);
        assert_eq!(a.alloc(5, &budget, false), Some(0));
        // 5 + 5 > 8: the second block starts the next chunk.
        assert_eq!(a.alloc(5, &budget, false), Some(8));
        assert_eq!(a.alloc(3, &budget, false), Some(13));
        assert_eq!(budget.used(), 128);
        a.get(14).store(7, Relaxed);
        assert_eq!(a.block(13, 3)[1].load(Relaxed), 7);
        assert_eq!(a.alloc(8, &budget, false), Some(16));
        // A fourth chunk is over budget: refused, nothing changes.
        assert_eq!(a.alloc(1, &budget, false), None);
        assert_eq!(a.len(), 24);
        assert_eq!(budget.used(), 3 * 64);
        a.truncate(9, &budget);
        assert_eq!(budget.used(), 128);
        assert_eq!(a.alloc(8, &budget, false), Some(16));
        assert_eq!(
            a.table_bytes(),
            10 * std::mem::size_of::<OnceLock<Box<[AtomicU32]>>>()
        );
    }

    #[test]
    fn chunks_are_as_large_as_sixteen_fit() {
        // 16 chunks of 2^b elements of 12 bytes in 1 MiB: 2^b <= 5 461, so b = 12.
        assert_eq!(chunk_bits(1 << 20, 12, 10, 13), 12);
        assert_eq!(chunk_bits(1 << 30, 12, 10, 13), 13);
        // A budget too small for 16 of the smallest still gets the smallest.
        assert_eq!(chunk_bits(1 << 10, 12, 10, 13), 10);
    }
}

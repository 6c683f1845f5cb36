//! A count table of fixed size for the patterns the learner sees: memory is set when
//! it is made and never grows with the records.
//!
//! The table holds up to `capacity` keys (open addressing, at most 3/4 full). Until
//! it fills, every count is exact. When a new key finds it full, every count is
//! lowered by one and the keys left at zero are dropped, as often as it takes to
//! bring it to half full (Misra and Gries' frequent-items summary): [`floor`] says
//! how many times counts were lowered, so a key's true count lies between its
//! count and its count plus the floor, and a key counted more than `floor + n - 1`
//! times still has a count of at least `n`.
//!
//! [`floor`]: BoundedCounts::floor

/// One slot: a key, its size class and its count (0: empty).
#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    key: u64,
    class: u8,
    count: u32,
}

/// Counts of `u64` keys (each with a small class) in a table of fixed size.
#[derive(Debug)]
pub struct BoundedCounts {
    slots: Vec<Slot>,
    len: usize,
    floor: u32,
}

/// The slot a key starts looking at: its bits mixed (the keys are hashes, but their
/// low bits may not be evenly spread), then reduced to the table.
fn home(key: u64, slots: usize) -> usize {
    let mixed = key.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    ((u128::from(mixed) * slots as u128) >> 64) as usize
}

impl BoundedCounts {
    /// An empty table for up to `capacity` keys (at least 16), which takes
    /// `capacity × 4/3 × 16` bytes.
    pub fn new(capacity: usize) -> BoundedCounts {
        let capacity = capacity.max(16);
        BoundedCounts {
            slots: vec![Slot::default(); capacity + capacity / 3],
            len: 0,
            floor: 0,
        }
    }

    /// The most keys it holds.
    pub fn capacity(&self) -> usize {
        self.slots.len() * 3 / 4
    }

    /// Keys held.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether nothing was counted (or everything was dropped).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// How many times every count was lowered by one to make room.
    pub fn floor(&self) -> u32 {
        self.floor
    }

    /// Counts `key` once more (its class is the one it was first counted with).
    pub fn add(&mut self, key: u64, class: u8) {
        let n = self.slots.len();
        let mut i = home(key, n);
        loop {
            let slot = &mut self.slots[i];
            if slot.count == 0 {
                break;
            }
            if slot.key == key {
                slot.count = slot.count.saturating_add(1);
                return;
            }
            i = (i + 1) % n;
        }
        if self.len >= self.capacity() {
            self.make_room();
            // Counted now, it is new again.
            self.add(key, class);
            return;
        }
        self.slots[i] = Slot {
            key,
            class,
            count: 1,
        };
        self.len += 1;
    }

    /// Lowers every count by one until at most half the capacity is held, then
    /// places what is left again.
    fn make_room(&mut self) {
        let mut kept: Vec<Slot> = self.slots.iter().copied().filter(|s| s.count > 0).collect();
        while kept.len() > self.capacity() / 2 {
            self.floor += 1;
            kept.retain_mut(|s| {
                s.count -= 1;
                s.count > 0
            });
        }
        self.slots.iter_mut().for_each(|s| *s = Slot::default());
        let n = self.slots.len();
        // Placed in key order, so the layout depends on nothing but the keys.
        kept.sort_unstable_by_key(|s| s.key);
        for s in &kept {
            let mut i = home(s.key, n);
            while self.slots[i].count != 0 {
                i = (i + 1) % n;
            }
            self.slots[i] = *s;
        }
        self.len = kept.len();
    }

    /// The keys with a count of at least `min`, by key: (key, class, count).
    pub fn at_least(&self, min: u32) -> Vec<(u64, u8, u32)> {
        let mut v: Vec<(u64, u8, u32)> = self
            .slots
            .iter()
            .filter(|s| s.count > 0 && s.count >= min)
            .map(|s| (s.key, s.class, s.count))
            .collect();
        v.sort_unstable();
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_exact_until_the_table_fills() {
        let mut c = BoundedCounts::new(100);
        for k in 0..50u64 {
            for _ in 0..=k % 5 {
                c.add(k * 7919, (k % 3) as u8);
            }
        }
        assert_eq!((c.len(), c.floor()), (50, 0));
        let three = c.at_least(3);
        assert_eq!(three.len(), 30);
        assert!(three.iter().all(|&(k, class, n)| {
            let k = k / 7919;
            n as u64 == k % 5 + 1 && class as u64 == k % 3
        }));
    }

    #[test]
    fn a_full_table_keeps_the_frequent_keys_within_its_floor() {
        let mut c = BoundedCounts::new(64);
        let cap = c.capacity();
        // Ten keys played often, among a stream of keys played once.
        for i in 0..5000u64 {
            c.add(i % 10, 1);
            c.add(1_000_000 + i, 2);
            assert!(c.len() <= cap);
        }
        assert!(c.floor() > 0);
        let kept = c.at_least(1);
        assert!(kept.len() <= cap);
        for k in 0..10u64 {
            let &(_, class, n) = kept.iter().find(|e| e.0 == k).expect("a frequent key");
            assert_eq!(class, 1);
            // True count 500: the count is below it by at most the floor.
            assert!(n <= 500 && n + c.floor() >= 500, "{n} {}", c.floor());
        }
        // The same stream gives the same table.
        let mut again = BoundedCounts::new(64);
        for i in 0..5000u64 {
            again.add(i % 10, 1);
            again.add(1_000_000 + i, 2);
        }
        assert_eq!((again.at_least(1), again.floor()), (kept, c.floor()));
    }
}

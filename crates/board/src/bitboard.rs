//! A fixed-size set of padded-array slots, one bit a slot.

use crate::point::{MAX_SLOTS, Point};

/// Words in a [`Bitboard`]: enough bits for every slot of the largest board.
pub const WORDS: usize = MAX_SLOTS.div_ceil(64);

/// A set of points as bits over the padded array, in fixed words (no heap, `Copy`).
///
/// Shifting by `1` or by the stride moves a set to its neighbours; masking with the
/// board's on-board set keeps the result on the board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard([u64; WORDS]);

impl std::fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set()
            .entries(self.iter().map(Point::index))
            .finish()
    }
}

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard([0; WORDS]);

    /// Whether the set has no point.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// Adds a point.
    #[inline]
    pub fn insert(&mut self, p: Point) {
        self.0[p.index() >> 6] |= 1 << (p.index() & 63);
    }

    /// Removes a point.
    #[inline]
    pub fn remove(&mut self, p: Point) {
        self.0[p.index() >> 6] &= !(1 << (p.index() & 63));
    }

    /// Whether the point is in the set.
    #[inline]
    pub fn contains(&self, p: Point) -> bool {
        self.0[p.index() >> 6] >> (p.index() & 63) & 1 != 0
    }

    /// Number of points in the set.
    #[inline]
    pub fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// The lowest point in the set.
    #[inline]
    pub fn first(&self) -> Option<Point> {
        self.0
            .iter()
            .enumerate()
            .find(|(_, w)| **w != 0)
            .map(|(i, w)| Point::from_index(i * 64 + w.trailing_zeros() as usize))
    }

    /// Points in both sets.
    #[inline]
    #[must_use]
    pub fn and(&self, other: &Bitboard) -> Bitboard {
        Bitboard(std::array::from_fn(|i| self.0[i] & other.0[i]))
    }

    /// Points in either set.
    #[inline]
    #[must_use]
    pub fn or(&self, other: &Bitboard) -> Bitboard {
        Bitboard(std::array::from_fn(|i| self.0[i] | other.0[i]))
    }

    /// Points in `self` but not in `other`.
    #[inline]
    #[must_use]
    pub fn and_not(&self, other: &Bitboard) -> Bitboard {
        Bitboard(std::array::from_fn(|i| self.0[i] & !other.0[i]))
    }

    /// Every slot moved up by `n` bits (towards higher indices).
    #[inline]
    #[must_use]
    pub fn shift_up(&self, n: usize) -> Bitboard {
        if (1..64).contains(&n) {
            // The usual case (by 1 or by a stride): one pass with a fixed carry shift.
            let w = &self.0;
            let mut out = [0; WORDS];
            out[0] = w[0] << n;
            for i in 1..WORDS {
                out[i] = w[i] << n | w[i - 1] >> (64 - n);
            }
            return Bitboard(out);
        }
        let (words, bits) = (n / 64, n % 64);
        Bitboard(std::array::from_fn(|i| {
            if i < words {
                return 0;
            }
            let lo = self.0[i - words] << bits;
            let carry = if bits > 0 && i > words {
                self.0[i - words - 1] >> (64 - bits)
            } else {
                0
            };
            lo | carry
        }))
    }

    /// Every slot moved down by `n` bits (towards lower indices).
    #[inline]
    #[must_use]
    pub fn shift_down(&self, n: usize) -> Bitboard {
        if (1..64).contains(&n) {
            let w = &self.0;
            let mut out = [0; WORDS];
            for i in 0..WORDS - 1 {
                out[i] = w[i] >> n | w[i + 1] << (64 - n);
            }
            out[WORDS - 1] = w[WORDS - 1] >> n;
            return Bitboard(out);
        }
        let (words, bits) = (n / 64, n % 64);
        Bitboard(std::array::from_fn(|i| {
            if i + words >= WORDS {
                return 0;
            }
            let hi = self.0[i + words] >> bits;
            let carry = if bits > 0 && i + words + 1 < WORDS {
                self.0[i + words + 1] << (64 - bits)
            } else {
                0
            };
            hi | carry
        }))
    }

    /// The set plus its orthogonal neighbours within `mask` (one step of a flood fill).
    #[inline]
    #[must_use]
    pub fn dilate(&self, stride: usize, mask: &Bitboard) -> Bitboard {
        self.or(&self.shift_up(1))
            .or(&self.shift_down(1))
            .or(&self.shift_up(stride))
            .or(&self.shift_down(stride))
            .and(mask)
    }

    /// The points of the set, lowest first.
    pub fn iter(&self) -> impl Iterator<Item = Point> + '_ {
        self.0.iter().enumerate().flat_map(|(i, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                (w != 0).then(|| {
                    let bit = w.trailing_zeros() as usize;
                    w &= w - 1;
                    Point::from_index(i * 64 + bit)
                })
            })
        })
    }
}

impl FromIterator<Point> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Point>>(iter: I) -> Self {
        let mut b = Bitboard::EMPTY;
        for p in iter {
            b.insert(p);
        }
        b
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(ix: &[usize]) -> Bitboard {
        ix.iter().map(|&i| Point::from_index(i)).collect()
    }

    #[test]
    fn set_operations() {
        let a = set(&[0, 63, 64, 200, 701]);
        assert_eq!(a.count(), 5);
        assert!(a.contains(Point::from_index(64)));
        assert!(!a.contains(Point::from_index(65)));
        assert_eq!(a.first(), Some(Point::from_index(0)));
        let b = set(&[63, 65]);
        assert_eq!(a.and(&b), set(&[63]));
        assert_eq!(a.or(&b).count(), 6);
        assert_eq!(a.and_not(&b), set(&[0, 64, 200, 701]));
        let order: Vec<usize> = a.iter().map(Point::index).collect();
        assert_eq!(order, vec![0, 63, 64, 200, 701]);
        assert!(Bitboard::EMPTY.is_empty() && Bitboard::EMPTY.first().is_none());
    }

    #[test]
    fn shifts_cross_word_boundaries() {
        let a = set(&[0, 63, 127, 640]);
        assert_eq!(a.shift_up(1), set(&[1, 64, 128, 641]));
        assert_eq!(a.shift_up(26), set(&[26, 89, 153, 666]));
        assert_eq!(a.shift_down(1), set(&[62, 126, 639]));
        assert_eq!(a.shift_down(64), set(&[63, 576]));
        assert_eq!(set(&[700]).shift_up(10), Bitboard::EMPTY);
        assert_eq!(a.shift_up(0), a);
        assert_eq!(a.shift_down(0), a);
        assert_eq!(a.shift_up(65), set(&[65, 128, 192]));
        assert_eq!(a.shift_down(63), set(&[0, 64, 577]));
    }
}

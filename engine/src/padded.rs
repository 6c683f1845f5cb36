//! A value on cache lines of its own.
//!
//! Two threads that write different values on one cache line slow each other as if
//! they shared the value (false sharing): each write takes the line from the other
//! core. A counter every search thread writes, or one thread's state written at every
//! step, is kept apart from everything else with [`Padded`].

/// `T` aligned (and so sized) to 128 bytes: two 64-byte lines, since the adjacent-line
/// prefetcher of current x86 cores moves lines in pairs.
#[derive(Debug, Default)]
#[repr(align(128))]
pub(crate) struct Padded<T>(pub(crate) T);

impl<T> std::ops::Deref for Padded<T> {
    type Target = T;
    #[inline]
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T> std::ops::DerefMut for Padded<T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut T {
        &mut self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_padded_value_fills_its_lines() {
        assert_eq!(std::mem::align_of::<Padded<u8>>(), 128);
        assert_eq!(std::mem::size_of::<[Padded<u64>; 2]>(), 256);
    }
}

//! The `tengen` binary.
fn main() {}

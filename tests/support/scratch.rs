//! Scratch directories for tests: shared by the root integration tests and the `gtp`
//! crate's (through `#[path]`).

/// A fresh directory under the system's temporary one, named after the test's `topic`
/// and `name`, removed when dropped (a failing test included).
pub fn fresh_dir(topic: &str, name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("tengen-{topic}-{name}-"))
        .tempdir()
        .unwrap()
}

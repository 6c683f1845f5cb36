//! Go Text Protocol for Tengen.
pub mod client;

//! Go Text Protocol for Tengen.

//! Tengen player (filled in by the engine work).

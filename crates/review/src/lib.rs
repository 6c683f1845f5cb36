//! Game review: every position of a record analysed by the engine, the record annotated for GUIs, and a win-rate graph.

//! Layer 4, rendering: outcome reports as text, JSON and SVG (`show.rs`, the SASS and cost
//! tables of `ptx-sync show`, belongs here too).

pub mod report;

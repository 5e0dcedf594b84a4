//! Layer 4, rendering: outcome reports as text, JSON and SVG, and `show` (the catalog's PTX,
//! SASS and cost tables of `ptx-sync show`).

pub mod report;
pub mod show;

//! Layer 4, rendering: outcome reports as text, JSON and SVG, and `show` (the catalog's PTX,
//! SASS and cost tables of `ptx-sync show`). The library's part of the layer lives in this folder too, declared in
//! `lib.rs` (`ptx_sync_host::render`): `show_sass.rs` (the cost table's text, `show`'s SASS
//! column).

pub mod report;
pub mod show;

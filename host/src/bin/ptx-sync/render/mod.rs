//! Layer 4, rendering: outcome reports as text, JSON and SVG, and `show` (the catalog's PTX,
//! SASS and cost tables of `ptx-sync show`). The library's rendering (`ptx_sync_host::render`:
//! `show_sass`, the cost table's text and `show`'s SASS column) is its own folder,
//! `host/src/render`.

pub mod litmus_report;
pub mod report;
pub mod show;

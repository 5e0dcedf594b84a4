//! ptx-sync-host: the host side of ptx-sync (the `ptx-sync` binary's library part).
//!
//! The library has the binary's layers (see `bin/ptx-sync/main.rs`; the binary's own modules are
//! folders of `bin/ptx-sync/`), one folder each, for what users call:
//!
//! * [`exec`] — running: [`litmus_ptx`] (a PTX kernel from a litmus file, `ptx-sync litmus
//!   FILE.litmus`) and [`fencebench`] (the GPU fence-cost benchmark driver, `ptx-sync bench`,
//!   behind a small launcher trait so that it needs no GPU crate itself); [`cuda`] loads and
//!   launches your own kernels (PTX or cubin): typed, checked parameters, cluster dims, dynamic
//!   shared memory, programmatic dependent launch, tensor maps, device-side timeouts; every
//!   failure (no driver, no device, old driver) an error value.
//! * [`analysis`] — classification and SASS reading: [`sass`] (ptxas/cuobjdump runner and SASS
//!   parsing by function), [`ptx_cfg`] (the control-flow graph of PTX functions; `.aligned`
//!   barriers reached from two paths), [`inspect`] (`ptx-sync show --ptx FILE`: the sync
//!   instructions of any PTX or cubin, with their SASS, cost rows and lints), and the cost
//!   table of every fence and ordered atomic ([`analysis::costs`]).
//! * [`render`] — text: the cost table as Markdown and `ptx-sync show`'s SASS column of every
//!   catalog row ([`render::show_sass`]).
//! * [`costs`] — both halves of `ptx-sync show --costs` / `show` under one path (re-exports).

#![warn(missing_docs)]

pub mod cuda;

/// Layer 3, execution: the litmus-file PTX generator and the fence benchmark driver.
pub mod exec {
    pub mod fencebench;
    pub mod litmus_ptx;
}

/// Layer 2, analysis: SASS reading, the PTX control-flow graph, `show --ptx`'s classification
/// and lints, and the SASS cost table.
pub mod analysis {
    pub mod container;
    pub mod costs;
    pub mod inspect;
    pub mod ptx_cfg;
    pub mod sass;
}

/// Layer 4, rendering: the cost table's text and `ptx-sync show`'s SASS column.
pub mod render {
    pub mod show_sass;
}

/// The SASS cost table ([`analysis::costs`]) and its rendering and `ptx-sync show`'s use of the
/// same wiring ([`render::show_sass`]), under the one path callers use
/// (`ptx_sync_host::costs::cost_table`, `costs::show_sass`).
pub mod costs {
    pub use crate::analysis::costs::*;
    pub use crate::render::show_sass::*;
}

pub use analysis::{inspect, ptx_cfg, sass};
pub use exec::{fencebench, litmus_ptx};

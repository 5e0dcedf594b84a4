//! ptx-sync-host: the host side of ptx-sync (the `ptx-sync` binary's library part).
//!
//! * [`cuda`] — load and launch your own kernels (PTX or cubin): typed, checked parameters,
//!   cluster dims, dynamic shared memory, programmatic dependent launch, tensor maps, device-side
//!   timeouts; every failure (no driver, no device, old driver) an error value.
//! * [`sass`] — ptxas/cuobjdump runner and SASS parsing by function.
//! * [`costs`] — the SASS cost table of every fence and ordered atomic (`ptx-sync show --costs`).
//! * [`litmus_ptx`] — a PTX kernel from a litmus file (`ptx-sync litmus FILE.litmus`).
//! * [`ptx_cfg`] — the control-flow graph of PTX functions; `.aligned` barriers reached from two
//!   paths.
//! * [`inspect`] — `ptx-sync show --ptx FILE`: the sync instructions of any PTX or cubin, with
//!   their SASS, cost rows and lints.
//! * [`fencebench`] — the GPU fence-cost benchmark driver (`ptx-sync bench`), behind a small
//!   launcher trait so that it needs no GPU crate itself.

#![warn(missing_docs)]

pub mod costs;
pub mod cuda;
#[path = "exec/fencebench.rs"]
pub mod fencebench;
pub mod inspect;
pub mod litmus_ptx;
pub mod ptx_cfg;
pub mod sass;

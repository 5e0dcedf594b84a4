//! The last-block-done reduction (CUDA's `threadFenceReduction`), as a user of `ptx-sync` writes
//! it: one source for the GPU kernel and for CPU threads (the host backend).
//!
//! ```text
//! every thread:      red.relaxed.cta.add acc, (its grid-stride share); barrier.sync 0
//! thread 0 of CTA b: partials[b] = acc; t = atom.acq_rel.gpu.add ticket, 1
//!                    if t == gridDim - 1: out = Σ partials; st.relaxed.gpu ticket = 0
//! ```
//!
//! The ticket's `acq_rel` replaces `__threadfence()` + `atomicInc`: its release half publishes
//! the CTA's partial, and the last CTA's acquire half (through the release sequence of the
//! ticket's RMWs, PTX ISA §8.8) makes every partial visible (seed §4.2: `atom` at `.gpu` scope).
#![cfg_attr(target_arch = "nvptx64", no_std)]
#![cfg_attr(target_arch = "nvptx64", feature(abi_ptx, asm_experimental_arch))] // asm: dynamic_smem!

use ptx_sync::prelude::*;
use ptx_sync::{atomic::{op::Add, AtomInstr}, sem::RmwSem};

/// The grid-wide state: one partial per CTA and the ticket counter (0 between launches).
pub struct Tickets<'a> {
    /// `partials[b]`: CTA `b`'s sum.
    pub partials: &'a [Data<u32>],
    /// How many CTAs have published their partial.
    pub ticket: &'a Strong<u32>,
}

impl Tickets<'_> {
    /// Thread 0 of CTA `cta`: publishes `sum`, takes a ticket (`atom.S.gpu.add`, `S` = [`AcqRel`];
    /// weaker is a data race on the partials, `tests/loom.rs`); the CTA that takes the last one
    /// sums the partials, re-arms the ticket and returns the total.
    pub fn finish<S: RmwSem>(&self, cta: u32, sum: u32) -> Option<u32> where u32: AtomInstr<Add, S, Gpu, Generic> {
        unsafe { self.partials[cta as usize].write(sum) }; // SAFETY: CTA `cta` alone writes it
        if self.ticket.at::<Gpu>().fetch_add::<S>(1) != self.partials.len() as u32 - 1 {
            return None;
        }
        // SAFETY: every partial was written before its CTA's ticket, which this one acquires.
        let total = self.partials.iter().fold(0u32, |s, p| s.wrapping_add(unsafe { p.read() }));
        self.ticket.at::<Gpu>().store::<Relaxed>(0);
        Some(total)
    }
}

/// The kernel body: `out` = the wrapping sum of `input`; `acc` is this CTA's shared accumulator.
///
/// # Safety
/// `acc` is this CTA's own; `out` is written by the last CTA only.
pub unsafe fn reduce(input: &[u32], acc: &Strong<u32>, t: &Tickets, out: &Data<u32>) {
    if thread_idx().x == 0 {
        acc.at::<Cta>().store::<Relaxed>(0);
    }
    sync_threads();
    let mut v = 0u32;
    let mut i = global_thread_x() as usize;
    while i < input.len() {
        v = v.wrapping_add(input[i]);
        i += grid_threads_x() as usize;
    }
    acc.at::<Cta>().red_add::<Relaxed>(v);
    sync_threads();
    if thread_idx().x == 0 {
        if let Some(total) = t.finish::<AcqRel>(block_idx().x, acc.at::<Cta>().load::<Relaxed>()) {
            out.write(total);
        }
    }
}

/// The kernel: `partials` has a word per CTA, `ticket` is 0; 4 bytes of dynamic shared memory.
#[cfg(target_arch = "nvptx64")]
#[no_mangle]
pub unsafe extern "ptx-kernel" fn reduce_kernel(input: *const u32, partials: *mut u32, ticket: *mut u32, out: *mut u32, n: u32) {
    let t = Tickets { partials: core::slice::from_raw_parts(partials.cast(), grid_dim().x as usize), ticket: Strong::from_ptr(ticket) };
    let acc = Strong::from_ptr(dynamic_smem!().to_generic());
    reduce(core::slice::from_raw_parts(input, n as usize), acc, &t, Data::from_ptr(out))
}

//! The access instructions: the traits [`LdInstr`], [`StInstr`], [`AtomInstr`], [`CasInstr`],
//! [`RedInstr`] — implemented only for the legal (type, semantic, scope, space) combinations:
//! the rows of `device/isa/{ld,st,atom,red}.rows` (PTX ISA §9.7.9.8, §9.7.9.10, §9.7.13.5,
//! §9.7.13.6), whose generated impls give each row its `PTX` constant here; the same rows give
//! the `asm!` leaves (`backend/nvptx/access.rs`) and the catalog rows.

use super::op;
#[allow(unused_imports)]
use super::vector::{
    V2Bf16, V2Bf16x2, V2F16x2, V4Bf16, V4Bf16x2, V4F16x2, V8Bf16, Vector, VectorElem, V2F16, V2F32,
    V2F64, V2U32, V2U64, V4F16, V4F32, V4U32, V8F16,
};
#[allow(unused_imports)]
use super::vector::{V2I16, V2I32, V2I64, V2U16, V4I16, V4I32, V4U16};
#[allow(unused_imports)]
use super::{Bf16, Bf16x2, F16x2, Scalar, F16};
use crate::backend::{AtomLeaf, CasLeaf, LdLeaf, RedLeaf, StLeaf};
#[allow(unused_imports)]
use crate::sem::{
    AcqRel, Acquire, Cluster, Cta, Generic, Global, Gpu, LoadSem, RedSem, Relaxed, Release, RmwSem,
    Scope, Shared, SharedCluster, Space, StoreSem, Sys, Volatile, Weak,
};

/// Declares one instruction trait of the access family: its docs and attributes, its marker
/// parameters, its leaf supertrait (`backend::LdLeaf`…) and the example of its `PTX` constant.
macro_rules! instr_trait {
    ($(#[$m:meta])* $name:ident<$($p:ident: $b:path),*>: $leaf:ident, $eg:literal) => {
        $(#[$m])*
        ///
        /// # Safety
        /// Implemented only by this crate's table.
        pub unsafe trait $name<$($p: $b),*>: Scalar + $leaf<$($p),*> {
            #[doc = concat!("The exact mnemonic emitted, e.g. `\"", $eg, "\"`.")]
            const PTX: &'static str;
        }
    };
}

instr_trait! {
    /// `ld{.sem}{.scope}{.space}.type d, [a];` for one (type, sem, scope, space).
    LdInstr<S: LoadSem, Sco: Scope, Sp: Space>: LdLeaf, "ld.acquire.gpu.global.u32"
}

instr_trait! {
    /// `st{.sem}{.scope}{.space}.type [a], b;`
    StInstr<S: StoreSem, Sco: Scope, Sp: Space>: StLeaf, "st.release.gpu.u32"
}

instr_trait! {
    /// `atom{.sem}{.scope}{.space}.op.type d, [a], b;`
    #[diagnostic::on_unimplemented(
        message = "PTX has no `atom.{O}` on `{Self}`",
        label = "no such atom",
        note = "PTX ISA §9.7.13.5: u16/i16 only cas.b16 (no 16-bit add/exch/min/max/bitwise atom); and/or/xor on .b32/.b64 only, min/max on integers only, inc/dec on .u32 only, no .add.s64 (i64 adds as .u64); F16/Bf16 only add.noftz and cas.b16, F16x2/Bf16x2 add.noftz, exch.b32, cas.b32; u128 only exch.b128, cas.b128; vectors only add on V2F32/V4F32 and add/min/max.noftz on the half vectors (.v2/.v4/.v8 of F16/Bf16, .v2/.v4 of F16x2/Bf16x2), in Global or Generic (sm_90)"
    )]
    AtomInstr<O: op::Op, S: RmwSem, Sco: Scope, Sp: Space>: AtomLeaf, "atom.acq_rel.gpu.add.u32"
}

instr_trait! {
    /// `atom{.sem}{.scope}{.space}.cas.bN d, [a], b, c;`
    CasInstr<S: RmwSem, Sco: Scope, Sp: Space>: CasLeaf, "atom.relaxed.gpu.cas.b32"
}

instr_trait! {
    /// `red{.sem}{.scope}{.space}.op.type [a], b;` (no result; `.sem` is `.relaxed` or `.release`).
    #[diagnostic::on_unimplemented(
        message = "PTX has no `red.{O}` on `{Self}`",
        label = "no such red",
        note = "PTX ISA §9.7.13.6: the atom ops without exch/cas, with the same type restrictions (no 16-bit integer red; the half types: add.noftz only; no 128-bit red; vectors: add on V2F32/V4F32, add/min/max.noftz on the half vectors, in Global or Generic)"
    )]
    RedInstr<O: op::Op, S: RedSem, Sco: Scope, Sp: Space>: RedLeaf, "red.release.gpu.add.u32"
}

// The rows: `device/isa/{ld,st,atom,red}.rows` (`access` tables), expanded by the generator into
// each row's instruction trait impl with its `PTX` constant (`OUT_DIR/isa/access_atomic.rs`),
// its leaf (`access_leaves.rs`), its catalog row (`access_catalog.rs`) and the row list
// `access_rows!` of the catalog kernels (`access.rs`, included by `lib.rs`).
include!(concat!(env!("OUT_DIR"), "/isa/access_atomic.rs"));

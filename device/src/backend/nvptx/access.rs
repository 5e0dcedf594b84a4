//! The access family's `asm!` leaves (nvptx64): for every row of the access tables
//! (`device/isa/{ld,st,atom,red}.rows`, the `leaf` of each table), the generated impl of its leaf
//! trait ([`LdLeaf`], [`StLeaf`], [`AtomLeaf`], [`CasLeaf`], [`RedLeaf`]) with the row's inline
//! PTX — its mnemonic (the same text as the row's generated `PTX` constant) and operands, the
//! address converted with `cvta.to.<space>` where the row names a space. The instruction
//! traits (`LdInstr`, …) have these as supertraits, so [`Nvptx`](super::Nvptx) can call the leaf
//! of any row it is given; off nvptx64 they are empty (`backend/host/leaf.rs`).

#![allow(clippy::missing_safety_doc)]

#[allow(unused_imports)]
use crate::atomic::vector::{
    V2Bf16, V2Bf16x2, V2F16x2, V4Bf16, V4Bf16x2, V4F16x2, V8Bf16, Vector, VectorElem, V2F16, V2F32,
    V2F64, V2I16, V2I32, V2I64, V2U16, V2U32, V2U64, V4F16, V4F32, V4I16, V4I32, V4U16, V4U32,
    V8F16,
};
use crate::atomic::{op, Scalar};
#[allow(unused_imports)]
use crate::atomic::{Bf16, Bf16x2, F16x2, F16};
#[allow(unused_imports)]
use crate::sem::{
    AcqRel, Acquire, Cluster, Cta, Generic, Global, Gpu, LoadSem, RedSem, Relaxed, Release, RmwSem,
    Scope, Shared, SharedCluster, Space, StoreSem, Sys, Volatile, Weak,
};
use core::arch::asm;

/// The leaf of `ld{.sem}{.scope}{.space}.type` (the row's [`LdInstr`](crate::atomic::LdInstr)).
pub unsafe trait LdLeaf<S: LoadSem, Sco: Scope, Sp: Space>: Sized {
    /// The row's `ld` of a valid `Self` at `p`.
    unsafe fn ld(p: *const Self) -> Self;
}
/// The leaf of `st{.sem}{.scope}{.space}.type`.
pub unsafe trait StLeaf<S: StoreSem, Sco: Scope, Sp: Space>: Sized {
    /// The row's `st` of `v` at `p`.
    unsafe fn st(p: *mut Self, v: Self);
}
/// The leaf of `atom{.sem}{.scope}{.space}.op.type`.
pub unsafe trait AtomLeaf<O: op::Op, S: RmwSem, Sco: Scope, Sp: Space>: Sized {
    /// The row's `atom` at `p` with operand `b`; the old value.
    unsafe fn atom(p: *mut Self, b: Self) -> Self;
}
/// The leaf of `atom{.sem}{.scope}{.space}.cas.bN`.
pub unsafe trait CasLeaf<S: RmwSem, Sco: Scope, Sp: Space>: Sized {
    /// The row's `atom.cas` at `p`; the old value.
    unsafe fn cas(p: *mut Self, cmp: Self, new: Self) -> Self;
}
/// The leaf of `red{.sem}{.scope}{.space}.op.type`.
pub unsafe trait RedLeaf<O: op::Op, S: RedSem, Sco: Scope, Sp: Space>: Sized {
    /// The row's `red` at `p` with operand `b`.
    unsafe fn red(p: *mut Self, b: Self);
}

/// The `asm!` operand type of a vector's element.
type VRaw<V> = <<V as VectorElem>::E as Scalar>::Raw;

// Every row's leaf: `device/isa/{ld,st,atom,red}.rows` (`leaf` of each `access` table), expanded
// by the generator — the row's template (address conversion, block, mnemonic, operands) and the
// registers of its shape.
include!(concat!(env!("OUT_DIR"), "/isa/access_leaves.rs"));

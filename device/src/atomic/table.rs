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

// The traits (`trait` items) and rows (`access` tables) of `device/isa/{ld,st,atom,red}.rows`,
// expanded by the generator into the traits, each row's instruction trait impl with its `PTX` constant (`OUT_DIR/isa/access_atomic.rs`),
// its leaf (`access_leaves.rs`), its catalog row (`access_catalog.rs`) and the row list
// `access_rows!` of the catalog kernels (`access.rs`, included by `lib.rs`).
include!(concat!(env!("OUT_DIR"), "/isa/access_atomic.rs"));

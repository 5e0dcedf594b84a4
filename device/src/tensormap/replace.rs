//! `tensormap.replace` (PTX ISA §9.7.9.28, PTX 8.3, **sm_90a** and sm_100a; `.swizzle_atomicity`
//! PTX 8.6, sm_100a only): rewrite one field of a 128-byte tensor map in place, in global or
//! shared memory, before [`tensormap_cp_fenceproxy`](super::tensormap_cp_fenceproxy) publishes
//! it to the tensormap proxy (seed §5.2–§5.3: a map changed on the device must be fenced before
//! TMA reads it).
//!
//! ```text
//! tensormap.replace.mode.field1{.ss}.b1024.type  [addr], new_val;
//! tensormap.replace.mode.field2{.ss}.b1024.type  [addr], ord, new_val;
//! tensormap.replace.mode.field3{.ss}.b1024.type  [addr], new_val;
//! .mode   = { .tile }
//! .field1 = { .global_address, .rank }
//! .field2 = { .box_dim, .global_dim, .global_stride, .element_stride }
//! .field3 = { .elemtype, .interleave_layout, .swizzle_mode, .swizzle_atomicity, .fill_mode }
//! .ss     = { .global, .shared::cta }
//! .type   = { .b32, .b64 }
//! ```
//!
//! The type is the field's: `.b64` for `.global_address` and `.global_stride`, `.b32` otherwise.
//! `ord` (the dimension, 0–4) and a `field3` value are immediates (const generics here); the
//! other values are registers. This crate emits the `.global` and `.shared::cta` forms (the
//! address operand is in that space: `cvta.to.global` of the pointer, or its `.shared` window
//! offset) and the generic one (no `.ss`: `Sp` = [`Generic`], the pointer as it is).
//!
//! <!-- generated from device/isa/tensormap_replace.rows by device/isa/gen: do not edit (cargo xtask isa) -->
//! | call | PTX | PTX ISA / SM |
//! |---|---|---|
//! | [`tensormap::replace::tensormap_replace::<GlobalAddress, Global>`](crate::tensormap::replace::tensormap_replace) | `tensormap.replace.tile.global_address.global.b1024.b64 [g], …;` | 8.3 / sm_90 (**sm_90a**) |
//! | [`tensormap::replace::tensormap_replace::<Rank, Global>`](crate::tensormap::replace::tensormap_replace) | `tensormap.replace.tile.rank.global.b1024.b32 [g], …;` | 8.3 / sm_90 (**sm_90a**) |
//! | [`tensormap::replace::tensormap_replace_ord::<BoxDim, Global, 0>`](crate::tensormap::replace::tensormap_replace_ord) | `tensormap.replace.tile.box_dim.global.b1024.b32 [g], …;` | 8.3 / sm_90 (**sm_90a**) |
//! | [`tensormap::replace::tensormap_replace_ord::<GlobalDim, Global, 0>`](crate::tensormap::replace::tensormap_replace_ord) | `tensormap.replace.tile.global_dim.global.b1024.b32 [g], …;` | 8.3 / sm_90 (**sm_90a**) |
//! | [`tensormap::replace::tensormap_replace_ord::<GlobalStride, Global, 0>`](crate::tensormap::replace::tensormap_replace_ord) | `tensormap.replace.tile.global_stride.global.b1024.b64 [g], …;` | 8.3 / sm_90 (**sm_90a**) |
//! | [`tensormap::replace::tensormap_replace_ord::<ElementStride, Global, 0>`](crate::tensormap::replace::tensormap_replace_ord) | `tensormap.replace.tile.element_stride.global.b1024.b32 [g], …;` | 8.3 / sm_90 (**sm_90a**) |
//! | [`tensormap::replace::tensormap_replace_imm`](crate::tensormap::replace::tensormap_replace_imm) | `tensormap.replace.tile.{elemtype,interleave_layout,swizzle_mode,fill_mode}.global.b1024.b32 [g], …;` | 8.3 / sm_90 (**sm_90a**) |
//! | [`tensormap::replace::tensormap_replace::<GlobalAddress, Shared>`](crate::tensormap::replace::tensormap_replace) | `tensormap.replace.tile.global_address.shared::cta.b1024.b64 [ss], …;` | 8.3 / sm_90 (**sm_90a**) |
//! | [`tensormap::replace::tensormap_replace::<Rank, Shared>`](crate::tensormap::replace::tensormap_replace) | `tensormap.replace.tile.rank.shared::cta.b1024.b32 [ss], …;` | 8.3 / sm_90 (**sm_90a**) |
//! | [`tensormap::replace::tensormap_replace_ord::<BoxDim, Shared, 0>`](crate::tensormap::replace::tensormap_replace_ord) | `tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [ss], …;` | 8.3 / sm_90 (**sm_90a**) |
//! | [`tensormap::replace::tensormap_replace_ord::<GlobalDim, Shared, 0>`](crate::tensormap::replace::tensormap_replace_ord) | `tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [ss], …;` | 8.3 / sm_90 (**sm_90a**) |
//! | [`tensormap::replace::tensormap_replace_ord::<GlobalStride, Shared, 0>`](crate::tensormap::replace::tensormap_replace_ord) | `tensormap.replace.tile.global_stride.shared::cta.b1024.b64 [ss], …;` | 8.3 / sm_90 (**sm_90a**) |
//! | [`tensormap::replace::tensormap_replace_ord::<ElementStride, Shared, 0>`](crate::tensormap::replace::tensormap_replace_ord) | `tensormap.replace.tile.element_stride.shared::cta.b1024.b32 [ss], …;` | 8.3 / sm_90 (**sm_90a**) |
//! | [`tensormap::replace::tensormap_replace_imm`](crate::tensormap::replace::tensormap_replace_imm) | `tensormap.replace.tile.{elemtype,interleave_layout,swizzle_mode,fill_mode}.shared::cta.b1024.b32 [ss], …;` | 8.3 / sm_90 (**sm_90a**) |
//! | [`tensormap::replace::tensormap_replace::<GlobalAddress, Generic>`](crate::tensormap::replace::tensormap_replace) | `tensormap.replace.tile.global_address.b1024.b64 [a64], …;` | 8.3 / sm_90 (**sm_90a**) |
//! | [`tensormap::replace::tensormap_replace::<Rank, Generic>`](crate::tensormap::replace::tensormap_replace) | `tensormap.replace.tile.rank.b1024.b32 [a64], …;` | 8.3 / sm_90 (**sm_90a**) |
//! | [`tensormap::replace::tensormap_replace_ord::<BoxDim, Generic, 0>`](crate::tensormap::replace::tensormap_replace_ord) | `tensormap.replace.tile.box_dim.b1024.b32 [a64], …;` | 8.3 / sm_90 (**sm_90a**) |
//! | [`tensormap::replace::tensormap_replace_ord::<GlobalDim, Generic, 0>`](crate::tensormap::replace::tensormap_replace_ord) | `tensormap.replace.tile.global_dim.b1024.b32 [a64], …;` | 8.3 / sm_90 (**sm_90a**) |
//! | [`tensormap::replace::tensormap_replace_ord::<GlobalStride, Generic, 0>`](crate::tensormap::replace::tensormap_replace_ord) | `tensormap.replace.tile.global_stride.b1024.b64 [a64], …;` | 8.3 / sm_90 (**sm_90a**) |
//! | [`tensormap::replace::tensormap_replace_ord::<ElementStride, Generic, 0>`](crate::tensormap::replace::tensormap_replace_ord) | `tensormap.replace.tile.element_stride.b1024.b32 [a64], …;` | 8.3 / sm_90 (**sm_90a**) |
//! | [`tensormap::replace::tensormap_replace_imm`](crate::tensormap::replace::tensormap_replace_imm) | `tensormap.replace.tile.{elemtype,interleave_layout,swizzle_mode,fill_mode}.b1024.b32 [a64], …;` | 8.3 / sm_90 (**sm_90a**) |
//! | [`tensormap::replace::tensormap_replace_imm::<SwizzleAtomicity, Global, 0>`](crate::tensormap::replace::tensormap_replace_imm) | `tensormap.replace.tile.swizzle_atomicity.global.b1024.b32 [g], …;` | 8.6 / sm_100 (**sm_100a**) |
//! | [`tensormap::replace::tensormap_replace_imm::<SwizzleAtomicity, Shared, 0>`](crate::tensormap::replace::tensormap_replace_imm) | `tensormap.replace.tile.swizzle_atomicity.shared::cta.b1024.b32 [ss], …;` | 8.6 / sm_100 (**sm_100a**) |
//! | [`tensormap::replace::tensormap_replace_imm::<SwizzleAtomicity, Generic, 0>`](crate::tensormap::replace::tensormap_replace_imm) | `tensormap.replace.tile.swizzle_atomicity.b1024.b32 [a64], …;` | 8.6 / sm_100 (**sm_100a**) |
//!
//! The three functions are `unsafe`: [`tensormap_replace`] takes a `field1` ([`GlobalAddress`],
//! [`Rank`]) and its register value, [`tensormap_replace_ord`] a `field2` ([`BoxDim`],
//! [`GlobalDim`], [`GlobalStride`], [`ElementStride`]) with the dimension `ORD` (an immediate,
//! 0–4), [`tensormap_replace_imm`] a `field3` ([`Elemtype`], [`InterleaveLayout`],
//! [`SwizzleMode`], [`SwizzleAtomicity`], [`FillMode`]) with its immediate value `V`.
//!
//! On `nvptx64` these exist only in a build for `sm_90a` or `sm_100a` (`-C target-cpu=sm_90a`;
//! `SwizzleAtomicity` only for `sm_100a`): ptxas 13.0 rejects `tensormap.replace` on `sm_90` and
//! `sm_100`.
//!
//! Cost (`ptx-sync show tensormap.replace`, ptxas 13.0, sm_90a): each replace is an ordinary
//! read-modify-write of the word holding the field (`LDG`/`LDS`/`LD`, shift and `LOP3`, then
//! the store; `.global_address` in global memory is one `STG.E.64`) — not atomic, so two
//! threads replacing fields of one map concurrently race (the `# Safety` sections require that
//! nothing else accesses the map).
//!
//! Host backend (`backend/host/tensormap.rs`, the rows' host arms): the call rewrites the field in the host map (`TensorMap::host_tiled*` /
//! `host_im2col`, this crate's own layout), with the values the instruction takes (PTX ISA
//! §9.7.9.27; the CUDA programming guide's example encodes a map this way):
//! [`GlobalAddress`] the base address; [`Rank`] the rank **minus one** (zero-based, 0–4);
//! [`BoxDim`] the box side of dimension `ORD` (1–256); [`GlobalDim`] the size of dimension
//! `ORD`; [`GlobalStride`] the byte stride of dimension `ORD + 1` (a multiple of 16);
//! [`Elemtype`] the element type (`V` = the host `copy::TensorElem` code
//! 0–12; the element size follows). The host map models no element strides (1), interleave
//! (none), swizzle (none), swizzle atomicity or fill mode (zero): replacing
//! [`ElementStride`], [`InterleaveLayout`], [`SwizzleMode`], [`SwizzleAtomicity`] or
//! [`FillMode`] is a **no-op** there (the host copies keep the defaults the driver's
//! `cuTensorMapEncodeTiled` would be given for a plain map). The state space `Sp` is the
//! pointer's (one address space on the host). Preconditions the host checks with a panic naming
//! the instruction: `map` must be a host map (a driver-encoded `CUtensorMap` has no host
//! meaning), and a value outside the ranges above (undefined on the device).
//!
//! ```
//! use ptx_sync::tensormap::replace::*;
//! use ptx_sync::{copy::TensorMap, Global, Shared};
//! assert_eq!(<BoxDim as ReplaceInstr<Shared>>::PTX, "tensormap.replace.tile.box_dim.shared::cta.b1024.b32");
//! assert_eq!(<GlobalAddress as ReplaceInstr<Global>>::PTX, "tensormap.replace.tile.global_address.global.b1024.b64");
//! // tensormap.replace.tile.box_dim.global.b1024.b32 [a], 1, v; on a host map
//! let data = [0u32; 64];
//! let mut map = TensorMap::host_tiled(data.as_ptr().cast(), 4, &[8, 8], &[32], &[4, 4]).unwrap();
//! let mut same = map;
//! unsafe { tensormap_replace_ord::<BoxDim, Global, 1>(&mut map, 2) };
//! assert_ne!(map, same);
//! unsafe { tensormap_replace_ord::<BoxDim, Global, 1>(&mut same, 2) };
//! assert_eq!(map, same);
//! // a driver-encoded map has no host meaning: a panic
//! let r = std::panic::catch_unwind(|| {
//!     let mut drv = TensorMap { opaque: [0; 16] };
//!     unsafe { tensormap_replace_ord::<BoxDim, Global, 1>(&mut drv, 64) }
//! });
//! assert!(r.is_err());
//! ```

use crate::copy::TensorMap;
#[allow(unused_imports)]
use crate::sem::{Generic, Global, Shared};

/// A field of a tensor map that `tensormap.replace` writes (a marker type).
pub trait Field: Copy + Default + 'static {
    /// The field token (`".box_dim"`).
    const PTX: &'static str;
    /// The type of the new value: `u32` (`.b32`) or `u64` (`.b64`).
    type Value: Copy + Into<u64>;
}
/// A `field1`: written with a register value and no ordinal.
pub trait Field1: Field {}
/// A `field2`: written per dimension, `ord` 0–4, with a register value.
pub trait Field2: Field {}
/// A `field3`: written with an immediate value.
pub trait Field3: Field {}

/// The ordinal `N` of a `field2` row as a type: [`Ordinal`] only for the dimensions 0–4 (a
/// tensor has rank 1–5; ptxas 13.0 rejects `ord` 5: "expected to be in range [0..4]").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Dim<const N: u32>;
/// A legal `ord` operand of `tensormap.replace` ([`Dim<0>`] … [`Dim<4>`]).
#[diagnostic::on_unimplemented(
    message = "`tensormap.replace` has no dimension `ord` = {Self}: use 0..=4",
    note = "PTX ISA `tensormap.replace`: `ord` names a dimension of a rank-1..5 tensor"
)]
pub trait Ordinal {}
impl Ordinal for Dim<0> {}
impl Ordinal for Dim<1> {}
impl Ordinal for Dim<2> {}
impl Ordinal for Dim<3> {}
impl Ordinal for Dim<4> {}

macro_rules! fields {
    ($($(#[$m:meta])* $F:ident $tok:literal $V:ty : $Kind:ident;)*) => {$(
        $(#[$m])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $F;
        impl Field for $F {
            const PTX: &'static str = $tok;
            type Value = $V;
        }
        impl $Kind for $F {}
    )*};
}
fields! {
    /// `.global_address` (`.b64`): the tensor's base address in global memory.
    GlobalAddress ".global_address" u64: Field1;
    /// `.rank` (`.b32`).
    Rank ".rank" u32: Field1;
    /// `.box_dim` (`.b32`, per dimension).
    BoxDim ".box_dim" u32: Field2;
    /// `.global_dim` (`.b32`, per dimension).
    GlobalDim ".global_dim" u32: Field2;
    /// `.global_stride` (`.b64`, per dimension).
    GlobalStride ".global_stride" u64: Field2;
    /// `.element_stride` (`.b32`, per dimension).
    ElementStride ".element_stride" u32: Field2;
    /// `.elemtype` (immediate; the ISA's element-type table).
    Elemtype ".elemtype" u32: Field3;
    /// `.interleave_layout` (immediate).
    InterleaveLayout ".interleave_layout" u32: Field3;
    /// `.swizzle_mode` (immediate).
    SwizzleMode ".swizzle_mode" u32: Field3;
    /// `.swizzle_atomicity` (immediate; PTX 8.6, sm_100a only).
    SwizzleAtomicity ".swizzle_atomicity" u32: Field3;
    /// `.fill_mode` (immediate).
    FillMode ".fill_mode" u32: Field3;
}

// `ReplaceInstr` and its impls (one per field and state space), with the `asm!` leaves (on
// nvptx64 only in a build for sm_90a / sm_100a; `.swizzle_atomicity` sm_100a) and host arms, and
// the catalog rows: generated from device/isa/tensormap_replace.rows.
include!(concat!(env!("OUT_DIR"), "/isa/tensormap_replace.rs"));

/// `tensormap.replace.tile.<field1>.<ss>.b1024.<type> [a], v;` — writes `v` into field `F`
/// ([`GlobalAddress`] `u64`, [`Rank`] `u32`) of the tensor map at `map`, in state space `Sp`
/// ([`Global`], [`Shared`] or [`Generic`]). PTX 8.3, sm_90a / sm_100a; PTX ISA §9.7.9.28, seed §5.2.
///
/// # Safety
/// `map` is the generic address of a 128-byte tensor map **in the state space `Sp`** (global
/// memory for [`Global`], this CTA's shared memory for [`Shared`], either for [`Generic`]),
/// 128-byte aligned, that
/// nothing else accesses concurrently; `v` is a value the ISA allows for the field (the
/// driver's encoding: `cuTensorMapEncodeTiled`'s limits). The map must be published with
/// [`tensormap_cp_fenceproxy`](super::tensormap_cp_fenceproxy) (from shared memory) or a
/// `fence.proxy.tensormap::generic` release before TMA uses it. Host: writes the host map's
/// field (`Rank`: `v` = rank − 1), see the [module](self).
///
/// ```
/// use ptx_sync::tensormap::replace::*;
/// use ptx_sync::Global;
/// assert_eq!(<Rank as ReplaceInstr<Global>>::PTX, "tensormap.replace.tile.rank.global.b1024.b32");
/// // device: unsafe { tensormap_replace::<GlobalAddress, Global>(map, new_base) };
/// ```
#[inline(always)]
pub unsafe fn tensormap_replace<F: Field1 + ReplaceInstr<Sp>, Sp>(
    map: *mut TensorMap,
    v: F::Value,
) {
    // SAFETY: the caller keeps this function's contract (its `# Safety`).
    unsafe { F::exec::<0, 0>(map, v.into()) }
}

/// `tensormap.replace.tile.<field2>.<ss>.b1024.<type> [a], ORD, v;` — writes `v` into field
/// `F` ([`BoxDim`], [`GlobalDim`], [`ElementStride`] `u32`; [`GlobalStride`] `u64`) of
/// dimension `ORD` (an immediate, 0–4: a larger `ORD` does not compile) of the tensor map at
/// `map` in space `Sp`. PTX 8.3, sm_90a / sm_100a; PTX ISA §9.7.9.28, seed §5.2.
///
/// # Safety
/// As [`tensormap_replace`]: `map` in space `Sp`, 128-byte aligned, not accessed concurrently;
/// `v` a legal value of the field for dimension `ORD`. Host: writes the host map's field
/// (`ElementStride`: a no-op), see the [module](self).
///
/// ```
/// use ptx_sync::tensormap::replace::*;
/// use ptx_sync::Shared;
/// assert_eq!(<GlobalStride as ReplaceInstr<Shared>>::PTX,
///            "tensormap.replace.tile.global_stride.shared::cta.b1024.b64");
/// // device: unsafe { tensormap_replace_ord::<GlobalDim, Shared, 0>(staged, rows) };
/// ```
#[inline(always)]
pub unsafe fn tensormap_replace_ord<F: Field2 + ReplaceInstr<Sp>, Sp, const ORD: u32>(
    map: *mut TensorMap,
    v: F::Value,
) where
    Dim<ORD>: Ordinal,
{
    // SAFETY: the caller keeps this function's contract (its `# Safety`).
    unsafe { F::exec::<ORD, 0>(map, v.into()) }
}

/// `tensormap.replace.tile.<field3>.<ss>.b1024.b32 [a], V;` — writes the immediate `V` into
/// field `F` ([`Elemtype`], [`InterleaveLayout`], [`SwizzleMode`], [`FillMode`]: PTX 8.3,
/// sm_90a / sm_100a; [`SwizzleAtomicity`]: PTX 8.6, sm_100a) of the tensor map at `map` in
/// space `Sp`. PTX ISA §9.7.9.28, seed §5.2.
///
/// # Safety
/// As [`tensormap_replace`]; `V` is one of the values the ISA's table lists for the field
/// (ptxas 13.0 rejects an `.elemtype` of 13 or more at PTX 8.6). Host: `Elemtype` sets the
/// host map's element type; the other fields are a no-op, see the [module](self).
///
/// ```
/// use ptx_sync::tensormap::replace::*;
/// use ptx_sync::Global;
/// assert_eq!(<SwizzleMode as ReplaceInstr<Global>>::PTX,
///            "tensormap.replace.tile.swizzle_mode.global.b1024.b32");
/// // device: unsafe { tensormap_replace_imm::<SwizzleMode, Global, 3>(map) };
/// ```
#[inline(always)]
pub unsafe fn tensormap_replace_imm<F: Field3 + ReplaceInstr<Sp>, Sp, const V: u32>(
    map: *mut TensorMap,
) {
    // SAFETY: the caller keeps this function's contract (its `# Safety`).
    unsafe { F::exec::<0, V>(map, 0) }
}

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
//! | call | PTX | PTX / SM |
//! |---|---|---|
//! | [`tensormap_replace::<F, Sp>(map, v)`](tensormap_replace) (`unsafe`), `F` = [`GlobalAddress`], [`Rank`] | `tensormap.replace.tile.<f>.<ss>.b1024.<type> [a], v;` | 8.3 / sm_90a, sm_100a |
//! | [`tensormap_replace_ord::<F, Sp, ORD>(map, v)`](tensormap_replace_ord) (`unsafe`), `F` = [`BoxDim`], [`GlobalDim`], [`GlobalStride`], [`ElementStride`] | `tensormap.replace.tile.<f>.<ss>.b1024.<type> [a], ORD, v;` | 8.3 / sm_90a, sm_100a |
//! | [`tensormap_replace_imm::<F, Sp, V>(map)`](tensormap_replace_imm) (`unsafe`), `F` = [`Elemtype`], [`InterleaveLayout`], [`SwizzleMode`], [`FillMode`] | `tensormap.replace.tile.<f>.<ss>.b1024.b32 [a], V;` | 8.3 / sm_90a, sm_100a |
//! | the same with `F` = [`SwizzleAtomicity`] | `tensormap.replace.tile.swizzle_atomicity.<ss>.b1024.b32 [a], V;` | 8.6 / sm_100a |
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
//! Host backend: the call rewrites the field in the host map (`TensorMap::host_tiled*` /
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

// A portable nvptx64 build (no `a` target) has the types and none of the rows.
#![cfg_attr(
    all(
        target_arch = "nvptx64",
        not(any(target_feature = "sm_90a", target_feature = "sm_100a"))
    ),
    allow(unused_macros, unused_imports)
)]

use crate::copy::TensorMap;
#[allow(unused_imports)]
use crate::sem::{tok, Generic, Global, Shared};
#[cfg(target_arch = "nvptx64")]
use core::arch::asm;

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

/// One legal `tensormap.replace.tile.<field>{.<space>}.b1024.<type>` row: the field `Self` in
/// the state space `Sp` ([`Global`], [`Shared`] = `.shared::cta`, or [`Generic`]: no `.ss`, a
/// generic address).
///
/// # Safety
/// Implemented only by this crate's table.
#[diagnostic::on_unimplemented(
    message = "PTX has no `tensormap.replace` of field `{Self}` in state space `{Sp}`",
    note = "PTX ISA `tensormap.replace`: `.ss = {{.global, .shared::cta}}` or none (generic); `.swizzle_atomicity` needs sm_100a"
)]
pub unsafe trait ReplaceInstr<Sp>: Field {
    /// The mnemonic (`"tensormap.replace.tile.rank.global.b1024.b32"`).
    const PTX: &'static str;
    #[doc(hidden)]
    #[cfg(target_arch = "nvptx64")]
    unsafe fn exec<const ORD: u32, const IMM: u32>(map: *mut TensorMap, v: u64);
}

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

/// The table of the sm_90a/sm_100a rows: `leaf!(Field Space kind)` per row, kind `v` (a
/// register value), `ord` (an ordinal and a register value), `imm` (an immediate value).
/// Exported as `ptx_sync::tensormap_replace_rows!(leaf)`, which the arch catalog kernels
/// instantiate.
#[doc(hidden)]
#[macro_export]
macro_rules! tensormap_replace_rows {
    ($leaf:ident) => {
        $leaf!(GlobalAddress Global v);
        $leaf!(GlobalAddress Shared v);
        $leaf!(GlobalAddress Generic v);
        $leaf!(Rank Global v);
        $leaf!(Rank Shared v);
        $leaf!(Rank Generic v);
        $leaf!(BoxDim Global ord);
        $leaf!(BoxDim Shared ord);
        $leaf!(BoxDim Generic ord);
        $leaf!(GlobalDim Global ord);
        $leaf!(GlobalDim Shared ord);
        $leaf!(GlobalDim Generic ord);
        $leaf!(GlobalStride Global ord);
        $leaf!(GlobalStride Shared ord);
        $leaf!(GlobalStride Generic ord);
        $leaf!(ElementStride Global ord);
        $leaf!(ElementStride Shared ord);
        $leaf!(ElementStride Generic ord);
        $leaf!(Elemtype Global imm);
        $leaf!(Elemtype Shared imm);
        $leaf!(Elemtype Generic imm);
        $leaf!(InterleaveLayout Global imm);
        $leaf!(InterleaveLayout Shared imm);
        $leaf!(InterleaveLayout Generic imm);
        $leaf!(SwizzleMode Global imm);
        $leaf!(SwizzleMode Shared imm);
        $leaf!(SwizzleMode Generic imm);
        $leaf!(FillMode Global imm);
        $leaf!(FillMode Shared imm);
        $leaf!(FillMode Generic imm);
    };
}

/// The sm_100a-only rows (`.swizzle_atomicity`, PTX 8.6):
/// `ptx_sync::tensormap_replace_sm100a_rows!(leaf)`.
#[doc(hidden)]
#[macro_export]
macro_rules! tensormap_replace_sm100a_rows {
    ($leaf:ident) => {
        $leaf!(SwizzleAtomicity Global imm);
        $leaf!(SwizzleAtomicity Shared imm);
        $leaf!(SwizzleAtomicity Generic imm);
    };
}

// The type token of a field's value.
macro_rules! ty {
    (GlobalAddress) => {
        ".b64"
    };
    (GlobalStride) => {
        ".b64"
    };
    ($F:ident) => {
        ".b32"
    };
}
// The field token (spelled once: the `Field::PTX` constants are these).
macro_rules! ftok {
    (GlobalAddress) => {
        ".global_address"
    };
    (Rank) => {
        ".rank"
    };
    (BoxDim) => {
        ".box_dim"
    };
    (GlobalDim) => {
        ".global_dim"
    };
    (GlobalStride) => {
        ".global_stride"
    };
    (ElementStride) => {
        ".element_stride"
    };
    (Elemtype) => {
        ".elemtype"
    };
    (InterleaveLayout) => {
        ".interleave_layout"
    };
    (SwizzleMode) => {
        ".swizzle_mode"
    };
    (SwizzleAtomicity) => {
        ".swizzle_atomicity"
    };
    (FillMode) => {
        ".fill_mode"
    };
}
/// `$m!(block; (operands key))` of a row (space, field, kind).
macro_rules! tmr_ops {
    (Global GlobalAddress v $m:ident) => { $m!(cvta; (tmr_g_v64)) };
    (Global GlobalStride ord $m:ident) => { $m!(cvta; (tmr_g_ord_v64)) };
    (Global $F:ident v $m:ident) => { $m!(cvta; (tmr_g_v)) };
    (Global $F:ident ord $m:ident) => { $m!(cvta; (tmr_g_ord_v)) };
    (Global $F:ident imm $m:ident) => { $m!(cvta; (tmr_g_imm)) };
    (Shared GlobalAddress v $m:ident) => { $m!(none; (tmr_s_v64)) };
    (Shared GlobalStride ord $m:ident) => { $m!(none; (tmr_s_ord_v64)) };
    (Shared $F:ident v $m:ident) => { $m!(none; (tmr_s_v)) };
    (Shared $F:ident ord $m:ident) => { $m!(none; (tmr_s_ord_v)) };
    (Shared $F:ident imm $m:ident) => { $m!(none; (tmr_s_imm)) };
    (Generic GlobalAddress v $m:ident) => { $m!(none; (tmr_a_v64)) };
    (Generic GlobalStride ord $m:ident) => { $m!(none; (tmr_a_ord_v64)) };
    (Generic $F:ident v $m:ident) => { $m!(none; (tmr_a_v)) };
    (Generic $F:ident ord $m:ident) => { $m!(none; (tmr_a_ord_v)) };
    (Generic $F:ident imm $m:ident) => { $m!(none; (tmr_a_imm)) };
}

macro_rules! mn {
    ($F:ident $Sp:ident) => {
        concat!(
            "tensormap.replace.tile",
            ftok!($F),
            tok!($Sp),
            ".b1024",
            ty!($F)
        )
    };
}

#[allow(unused_macros)]
macro_rules! replace_leaf {
    ($F:ident $Sp:ident $kind:ident) => {
        unsafe impl ReplaceInstr<$Sp> for $F {
            const PTX: &'static str = mn!($F $Sp);
            #[cfg(target_arch = "nvptx64")]
            #[inline(always)]
            unsafe fn exec<const ORD: u32, const IMM: u32>(map: *mut TensorMap, v: u64) {
                macro_rules! go {
                    ($b:ident; ($o:ident)) => {
                        replace_leaf!(@asm $b; $o; $F $Sp; map, v, ORD, IMM)
                    };
                }
                tmr_ops!($Sp $F $kind go);
            }
        }
    };
    (@asm $b:ident; $o:ident; $F:ident $Sp:ident; $map:ident, $v:ident, $ORD:ident, $IMM:ident) => {
        replace_leaf!(@args $o; $b; $F $Sp; $map; $v; $ORD; $IMM)
    };
    (@args tmr_g_v; $b:ident; $F:ident $Sp:ident; $map:ident; $v:ident; $ORD:ident; $IMM:ident) => {
        asm!(crate::instr::asm_text!($b; (tmr_g_v); mn!($F $Sp)), gp = in(reg64) $map as u64,
             v = in(reg32) $v as u32, options(nostack, preserves_flags))
    };
    (@args tmr_g_v64; $b:ident; $F:ident $Sp:ident; $map:ident; $v:ident; $ORD:ident; $IMM:ident) => {
        asm!(crate::instr::asm_text!($b; (tmr_g_v64); mn!($F $Sp)), gp = in(reg64) $map as u64,
             v64 = in(reg64) $v, options(nostack, preserves_flags))
    };
    (@args tmr_g_ord_v; $b:ident; $F:ident $Sp:ident; $map:ident; $v:ident; $ORD:ident; $IMM:ident) => {
        asm!(crate::instr::asm_text!($b; (tmr_g_ord_v); mn!($F $Sp)), gp = in(reg64) $map as u64,
             imm = const $ORD, v = in(reg32) $v as u32, options(nostack, preserves_flags))
    };
    (@args tmr_g_ord_v64; $b:ident; $F:ident $Sp:ident; $map:ident; $v:ident; $ORD:ident; $IMM:ident) => {
        asm!(crate::instr::asm_text!($b; (tmr_g_ord_v64); mn!($F $Sp)), gp = in(reg64) $map as u64,
             imm = const $ORD, v64 = in(reg64) $v, options(nostack, preserves_flags))
    };
    (@args tmr_g_imm; $b:ident; $F:ident $Sp:ident; $map:ident; $v:ident; $ORD:ident; $IMM:ident) => {{
        let _ = $v;
        asm!(crate::instr::asm_text!($b; (tmr_g_imm); mn!($F $Sp)), gp = in(reg64) $map as u64,
             imm = const $IMM, options(nostack, preserves_flags))
    }};
    (@args tmr_s_v; $b:ident; $F:ident $Sp:ident; $map:ident; $v:ident; $ORD:ident; $IMM:ident) => {
        asm!(crate::instr::asm_text!($b; (tmr_s_v); mn!($F $Sp)), ss = in(reg32) replace_leaf!(@s $map),
             v = in(reg32) $v as u32, options(nostack, preserves_flags))
    };
    (@args tmr_s_v64; $b:ident; $F:ident $Sp:ident; $map:ident; $v:ident; $ORD:ident; $IMM:ident) => {
        asm!(crate::instr::asm_text!($b; (tmr_s_v64); mn!($F $Sp)), ss = in(reg32) replace_leaf!(@s $map),
             v64 = in(reg64) $v, options(nostack, preserves_flags))
    };
    (@args tmr_s_ord_v; $b:ident; $F:ident $Sp:ident; $map:ident; $v:ident; $ORD:ident; $IMM:ident) => {
        asm!(crate::instr::asm_text!($b; (tmr_s_ord_v); mn!($F $Sp)), ss = in(reg32) replace_leaf!(@s $map),
             imm = const $ORD, v = in(reg32) $v as u32, options(nostack, preserves_flags))
    };
    (@args tmr_s_ord_v64; $b:ident; $F:ident $Sp:ident; $map:ident; $v:ident; $ORD:ident; $IMM:ident) => {
        asm!(crate::instr::asm_text!($b; (tmr_s_ord_v64); mn!($F $Sp)), ss = in(reg32) replace_leaf!(@s $map),
             imm = const $ORD, v64 = in(reg64) $v, options(nostack, preserves_flags))
    };
    (@args tmr_s_imm; $b:ident; $F:ident $Sp:ident; $map:ident; $v:ident; $ORD:ident; $IMM:ident) => {{
        let _ = $v;
        asm!(crate::instr::asm_text!($b; (tmr_s_imm); mn!($F $Sp)), ss = in(reg32) replace_leaf!(@s $map),
             imm = const $IMM, options(nostack, preserves_flags))
    }};
    (@args tmr_a_v; $b:ident; $F:ident $Sp:ident; $map:ident; $v:ident; $ORD:ident; $IMM:ident) => {
        asm!(crate::instr::asm_text!($b; (tmr_a_v); mn!($F $Sp)), a64 = in(reg64) $map as u64,
             v = in(reg32) $v as u32, options(nostack, preserves_flags))
    };
    (@args tmr_a_v64; $b:ident; $F:ident $Sp:ident; $map:ident; $v:ident; $ORD:ident; $IMM:ident) => {
        asm!(crate::instr::asm_text!($b; (tmr_a_v64); mn!($F $Sp)), a64 = in(reg64) $map as u64,
             v64 = in(reg64) $v, options(nostack, preserves_flags))
    };
    (@args tmr_a_ord_v; $b:ident; $F:ident $Sp:ident; $map:ident; $v:ident; $ORD:ident; $IMM:ident) => {
        asm!(crate::instr::asm_text!($b; (tmr_a_ord_v); mn!($F $Sp)), a64 = in(reg64) $map as u64,
             imm = const $ORD, v = in(reg32) $v as u32, options(nostack, preserves_flags))
    };
    (@args tmr_a_ord_v64; $b:ident; $F:ident $Sp:ident; $map:ident; $v:ident; $ORD:ident; $IMM:ident) => {
        asm!(crate::instr::asm_text!($b; (tmr_a_ord_v64); mn!($F $Sp)), a64 = in(reg64) $map as u64,
             imm = const $ORD, v64 = in(reg64) $v, options(nostack, preserves_flags))
    };
    (@args tmr_a_imm; $b:ident; $F:ident $Sp:ident; $map:ident; $v:ident; $ORD:ident; $IMM:ident) => {{
        let _ = $v;
        asm!(crate::instr::asm_text!($b; (tmr_a_imm); mn!($F $Sp)), a64 = in(reg64) $map as u64,
             imm = const $IMM, options(nostack, preserves_flags))
    }};
    (@s $map:ident) => {
        crate::shared::to_shared($map.cast_const()).raw()
    };
}

#[cfg(any(
    doc,
    not(target_arch = "nvptx64"),
    target_feature = "sm_90a",
    target_feature = "sm_100a"
))]
crate::tensormap_replace_rows! { replace_leaf }
#[cfg(any(doc, not(target_arch = "nvptx64"), target_feature = "sm_100a"))]
crate::tensormap_replace_sm100a_rows! { replace_leaf }

/// Host: writes field `F` (dimension `ord`) of the host map at `map` (see the [module](self)).
#[cfg(not(target_arch = "nvptx64"))]
unsafe fn host_replace<F: Field>(ptx: &str, map: *mut TensorMap, ord: u32, v: u64) {
    let m = &mut *map;
    assert!(
        m.is_host_map(),
        "`{ptx}` on the host backend needs a map made by TensorMap::host_tiled / host_tiled_of / \
         host_im2col (a driver-encoded CUtensorMap has no host meaning)"
    );
    let bad = || -> ! { panic!("`{ptx}`: {v} is not a value of the field (PTX ISA §9.7.9.27)") };
    let (w, d) = (&mut m.opaque, ord as usize);
    match F::PTX {
        ".global_address" => w[1] = v,
        ".rank" => {
            if v > 4 {
                bad()
            }
            w[2] = (w[2] & !(0xff << 32)) | (v + 1) << 32;
        }
        ".box_dim" => {
            if !(1..=256).contains(&v) {
                bad()
            }
            let sh = 16 * (d % 4);
            w[12 + d / 4] = (w[12 + d / 4] & !(0xffff << sh)) | v << sh;
        }
        ".global_dim" => w[3 + d] = v,
        ".global_stride" => {
            if d > 3 || !v.is_multiple_of(16) {
                bad()
            }
            w[8 + d] = v;
        }
        ".elemtype" => match crate::copy::TensorElem::from_code(v as u32) {
            Some(e) => m.set_host_elem_type(e),
            None => bad(),
        },
        // Not modelled by the host map: a no-op (see the module docs).
        _ => {}
    }
}

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
    #[cfg(target_arch = "nvptx64")]
    {
        F::exec::<0, 0>(map, v.into())
    }
    #[cfg(not(target_arch = "nvptx64"))]
    host_replace::<F>(<F as ReplaceInstr<Sp>>::PTX, map, 0, v.into());
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
    #[cfg(target_arch = "nvptx64")]
    {
        F::exec::<ORD, 0>(map, v.into())
    }
    #[cfg(not(target_arch = "nvptx64"))]
    host_replace::<F>(<F as ReplaceInstr<Sp>>::PTX, map, ORD, v.into());
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
    #[cfg(target_arch = "nvptx64")]
    {
        F::exec::<0, V>(map, 0)
    }
    #[cfg(not(target_arch = "nvptx64"))]
    host_replace::<F>(<F as ReplaceInstr<Sp>>::PTX, map, 0, V as u64);
}

/// Catalog rows of `tensormap.replace` (`ptx-sync show`).
#[cfg(not(target_arch = "nvptx64"))]
pub(crate) fn catalog_rows(f: &mut dyn FnMut(crate::catalog::Variant)) {
    use crate::catalog::{Arch, Family, Marker as M, Variant};
    macro_rules! fun {
        (v) => {
            "tensormap_replace"
        };
        (ord) => {
            "tensormap_replace_ord"
        };
        (imm) => {
            "tensormap_replace_imm"
        };
    }
    macro_rules! generics {
        (v) => {
            ""
        };
        (ord) => {
            ", 0"
        };
        (imm) => {
            ", 0"
        };
    }
    macro_rules! row {
        ($F:ident $Sp:ident $kind:ident; $arch:ident $sm:literal $ptx:literal) => {{
            macro_rules! at {
                ($b:ident; ($o:ident)) => {
                    f(crate::instr::with_ops!($b; ($o); Variant {
                        op: ftok!($F),
                        ty: ty!($F),
                        space: M::$Sp,
                        ptx: <$F as ReplaceInstr<$Sp>>::PTX,
                        rust: concat!("tensormap::replace::", fun!($kind), "::<", stringify!($F), ", ",
                                      stringify!($Sp), generics!($kind), ">"),
                        sm: $sm,
                        ptx_isa: $ptx,
                        arch: Arch::$arch,
                        isa: "9.7.9.28",
                        seed: "5.2",
                        ..Variant::of(Family::TensormapReplace)
                    }))
                };
            }
            tmr_ops!($Sp $F $kind at);
        }};
    }
    macro_rules! base {
        ($F:ident $Sp:ident $kind:ident) => {
            row!($F $Sp $kind; Sm90a 90 83)
        };
    }
    macro_rules! bw {
        ($F:ident $Sp:ident $kind:ident) => {
            row!($F $Sp $kind; Sm100a 100 86)
        };
    }
    crate::tensormap_replace_rows! { base }
    crate::tensormap_replace_sm100a_rows! { bw }
}

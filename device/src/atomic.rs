//! Typed strong accesses: `ld`, `st`, `atom`, `red` — [`AtomicRef`].
//!
//! PTX ISA §9.7.9.8 (`ld`), §9.7.9.10 (`st`), §9.7.13.5 (`atom`), §9.7.13.6 (`red`), and the
//! memory model of chapter 8 (§8.4 strong operations, §8.8 release/acquire patterns). Seed §3.5
//! (flags must be strong), §4.1–4.5 (atomicity, scope of atomicity, `.sem` on atom, barrier, `red`).
//!
//! Every instruction this module can emit is one row of a macro table: the row's mnemonic text
//! (for example `atom.acq_rel.gpu.add.u32`) is built once and pasted both into the `asm!`
//! template and into the associated constant `PTX` of the instruction trait
//! ([`LdInstr`], [`StInstr`], [`AtomInstr`], [`CasInstr`], [`RedInstr`]), which tests and
//! `ptx-sync show` read. `catalog::for_each_variant` (host) lists every row.
//!
//! # Types and the PTX type token
//!
//! | Rust | `ld`/`st` | `add` | `min`/`max` | `and`/`or`/`xor`, `exch`, `cas` | `inc`/`dec` |
//! |---|---|---|---|---|---|
//! | `u16` | `.u16` | – | – | `cas` only: `.b16` (PTX 6.3, sm_70) | – |
//! | `i16` | `.s16` | – | – | `cas` only: `.b16` (PTX 6.3, sm_70) | – |
//! | `u32` | `.u32` | `.u32` | `.u32` | `.b32` | `.u32` |
//! | `i32` | `.s32` | `.s32` | `.s32` | `.b32` | – |
//! | `u64` | `.u64` | `.u64` | `.u64` | `.b64` | – |
//! | `i64` | `.s64` | `.u64` (PTX has no `add.s64`; two's complement is the same) | `.s64` | `.b64` | – |
//! | `f32` | `.f32` | `.f32` | – | `exch`/`cas` only: `.b32` | – |
//! | `f64` | `.f64` | `.f64` | – | `exch`/`cas` only: `.b64` | – |
//! | [`F16`], [`Bf16`] | `.b16` | `.add.noftz.f16` / `.bf16` | – | `cas` only: `.b16` | – |
//! | [`F16x2`], [`Bf16x2`] | `.b32` | `.add.noftz.f16x2` / `.bf16x2` | – | `exch`/`cas` only: `.b32` | – |
//! | `u128` ([`b128`]) | `.b128` | – | – | `exch`/`cas` only: `.b128` (sm_90) | – |
//! | [`vector::V2U32`] … [`vector::V4I16`] | `.v2`/`.v4` `.u32`/`.s32`/`.f32`/`.u16`/`.s16`, `.v2` `.u64`/`.s64`/`.f64` | `V2F32`/`V4F32`: `.add.v2.f32`/`.v4.f32`, `Global`/`Generic` only (sm_90, PTX 8.1) | – | – | – |
//! | [`vector::V2F16`] … [`vector::V4Bf16x2`] (`.v2/.v4/.v8` of `F16`/`Bf16`, `.v2/.v4` of `F16x2`/`Bf16x2`) | `.v2`/`.v4`: `.b16`/`.b32` (no `.v8`) | `.add.noftz.v8.f16` …, `Global`/`Generic` only (sm_90, PTX 8.1) | `.min.noftz`/`.max.noftz` likewise | – | – |
//!
//! A vector ([`vector`]) is loaded or stored by one instruction but is one memory operation per
//! element (PTX ISA §8): it is not an atomic 64- or 128-bit access.
//!
//! The half types ([`half`]) are bit wrappers (Rust has no stable `f16`): `add.noftz` keeps
//! subnormals (the ISA requires `.noftz` on them), a packed pair is atomic per element, and the
//! host adds in `f32` with one rounding to the half (the device's result). Floors:
//! `add.noftz.f16x2` PTX 6.2 / sm_60, `add.noftz.f16` and `cas.b16` 6.3 / sm_70,
//! `add.noftz.bf16{,x2}` 7.8 / sm_90 (§9.7.13.5/6 version notes; with a `.sem`: sm_70 / 6.0).
//!
//! A "–" does not compile. `fetch_sub` is `atom.add` of the negation (PTX has no `atom.sub`).
//!
//! # Example
//!
//! ```
//! use ptx_sync::{AtomicRef, Strong, Gpu, Acquire, Release, Relaxed, AcqRel};
//!
//! let flag = Strong::new(0u32);
//! let full: AtomicRef<u32, Gpu> = AtomicRef::new(&flag);
//! full.store::<Release>(1);                 // st.release.gpu.u32
//! assert_eq!(full.load::<Acquire>(), 1);    // ld.acquire.gpu.u32
//! assert_eq!(full.fetch_add::<AcqRel>(2), 1); // atom.acq_rel.gpu.add.u32
//! full.red_add::<Relaxed>(1);               // red.relaxed.gpu.add.u32
//! assert_eq!(full.load::<Relaxed>(), 4);
//! assert_eq!(<u32 as ptx_sync::atomic::LdInstr<Acquire, Gpu, ptx_sync::Generic>>::PTX,
//!            "ld.acquire.gpu.u32");
//! ```
//!
//! Sequentially consistent accesses are [`AtomicRef::load_sc`], [`store_sc`](AtomicRef::store_sc),
//! the `fetch_*_sc`, [`swap_sc`](AtomicRef::swap_sc) and
//! [`compare_exchange_sc`](AtomicRef::compare_exchange_sc): `fence.sc.scope` then the
//! `ld.acquire` / `st.relaxed` / `atom.acquire` — libcu++'s `memory_order_seq_cst` (PTX has no
//! `.sc` access).
//!
//! `load::<Release>()` does not compile — PTX has no `ld.release`:
//!
//! ```compile_fail
//! use ptx_sync::{AtomicRef, Strong, Gpu, Release};
//! let flag = Strong::new(0u32);
//! let full: AtomicRef<u32, Gpu> = AtomicRef::new(&flag);
//! let _ = full.load::<Release>();
//! ```

use core::marker::PhantomData;

use crate::sem::tok;
use crate::sem::{
    AcqRel, Acquire, Cluster, Cta, Generic, Global, Gpu, LoadSem, RedSem, Relaxed, Release, RmwSem,
    Scope, Sealed, Shared, SharedCluster, Space, StoreSem, Sys, Volatile, Weak,
};
#[cfg(target_arch = "nvptx64")]
use core::arch::asm;

/// A scalar that PTX can load, store and update atomically: `u16`, `i16` (`ld`/`st` and
/// `atom.cas.b16` only), `u32`, `i32`, `u64`, `i64`, `f32`,
/// `f64`, the half types [`F16`], [`Bf16`], [`F16x2`], [`Bf16x2`], `u128` ([`b128`]), and the
/// `ld`/`st`-only vectors of [`vector`].
pub trait Scalar: Sealed + Copy + PartialEq + Default + 'static + ScalarHost {
    /// The Rust name (`"u32"`).
    const NAME: &'static str;
    /// Bitwise equality (what `atom.cas` compares).
    fn bits_eq(self, other: Self) -> bool;
    /// A zero-sized array of this gives [`Strong<Self>`](Strong) the alignment of the PTX
    /// access, `size_of::<Self>()` (8 for the 64-bit types even where the host aligns `u64` to 4,
    /// as 32-bit x86 does: an `atom`/`ld` of 8 bytes needs an 8-aligned address).
    #[doc(hidden)]
    type Align: Copy + Default + 'static;
    /// The primitive an `asm!` operand holds (`Self` for the primitives, the bits for the half
    /// types of [`half`]).
    #[doc(hidden)]
    type Raw: Copy;
    #[doc(hidden)]
    fn to_raw(self) -> Self::Raw;
    #[doc(hidden)]
    fn from_raw(r: Self::Raw) -> Self;
}

/// An 8-aligned zero-sized marker (the [`Scalar::Align`] of the 64-bit types).
#[doc(hidden)]
#[repr(align(8))]
#[derive(Clone, Copy, Debug, Default)]
pub struct Align8;
/// A 4-aligned zero-sized marker (the [`Scalar::Align`] of the 32-bit types).
#[doc(hidden)]
#[repr(align(4))]
#[derive(Clone, Copy, Debug, Default)]
pub struct Align4;

#[cfg(not(target_arch = "nvptx64"))]
#[doc(hidden)]
pub use crate::backend::host::HostScalar as ScalarHost;
#[cfg(target_arch = "nvptx64")]
#[doc(hidden)]
pub trait ScalarHost {}
#[cfg(target_arch = "nvptx64")]
impl<T> ScalarHost for T {}

/// A scalar with `atom.add`, so that `fetch_sub(v)` can be `fetch_add(-v)`.
pub trait Negate: Scalar {
    /// Two's-complement (integers) or IEEE (floats) negation.
    fn negate(self) -> Self;
}

macro_rules! scalars {
    ($($t:ty, $al:ty, $neg:expr);*) => {$(
        impl Sealed for $t {}
        impl Scalar for $t {
            const NAME: &'static str = stringify!($t);
            type Align = $al;
            type Raw = $t;
            #[inline(always)]
            fn to_raw(self) -> $t { self }
            #[inline(always)]
            fn from_raw(r: $t) -> Self { r }
            #[allow(clippy::float_cmp)]
            fn bits_eq(self, other: Self) -> bool { self.to_ne_bytes() == other.to_ne_bytes() }
        }
        impl Negate for $t {
            fn negate(self) -> Self { let f: fn($t) -> $t = $neg; f(self) }
        }
    )*};
}
scalars!(u16, half::Align2, |x| x.wrapping_neg(); i16, half::Align2, |x| x.wrapping_neg();
         u32, Align4, |x| x.wrapping_neg(); i32, Align4, |x| x.wrapping_neg();
         u64, Align8, |x| x.wrapping_neg(); i64, Align8, |x| x.wrapping_neg();
         f32, Align4, |x| -x; f64, Align8, |x| -x);

pub mod b128;
pub mod half;
mod seq_cst;
pub mod vector;
pub use half::{Bf16, Bf16x2, F16x2, F16};
#[allow(unused_imports)]
use vector::{
    V2Bf16, V2Bf16x2, V2F16x2, V4Bf16, V4Bf16x2, V4F16x2, V8Bf16, Vector, VectorElem, V2F16, V2F32,
    V2F64, V2U32, V2U64, V4F16, V4F32, V4U32, V8F16,
};
#[allow(unused_imports)]
use vector::{V2I16, V2I32, V2I64, V2U16, V4I16, V4I32, V4U16};

/// Read-modify-write operations, as marker types (the `.op` of `atom`/`red`).
pub mod op {
    use crate::sem::Sealed;
    /// An `.op` of `atom` or `red` (PTX ISA §9.7.13.5).
    pub trait Op: Sealed + 'static {
        /// The PTX token (`"add"`).
        const PTX: &'static str;
        #[doc(hidden)]
        #[cfg(not(target_arch = "nvptx64"))]
        const KIND: crate::backend::host::RmwKind;
    }
    macro_rules! ops {
        ($($(#[$m:meta])* $n:ident $tok:literal),*) => {$(
            $(#[$m])*
            #[derive(Clone, Copy, Debug, Default)]
            pub struct $n;
            impl Sealed for $n {}
            impl Op for $n {
                const PTX: &'static str = $tok;
                #[cfg(not(target_arch = "nvptx64"))]
                const KIND: crate::backend::host::RmwKind = crate::backend::host::RmwKind::$n;
            }
        )*};
    }
    ops! {
        /// `.add`
        Add "add",
        /// `.min`
        Min "min",
        /// `.max`
        Max "max",
        /// `.and`
        And "and",
        /// `.or`
        Or "or",
        /// `.xor`
        Xor "xor",
        /// `.exch` (swap)
        Exch "exch",
        /// `.inc`: `old >= b ? 0 : old + 1`
        Inc "inc",
        /// `.dec`: `(old == 0 || old > b) ? b : old - 1`
        Dec "dec"
    }
}

/// `ld{.sem}{.scope}{.space}.type d, [a];` for one (type, sem, scope, space).
///
/// # Safety
/// Implemented only by this crate's table; `ld` must read a valid `Self` at `p`.
pub unsafe trait LdInstr<S: LoadSem, Sco: Scope, Sp: Space>: Scalar {
    /// The exact mnemonic emitted, e.g. `"ld.acquire.gpu.global.u32"`.
    const PTX: &'static str;
    #[doc(hidden)]
    #[cfg(target_arch = "nvptx64")]
    unsafe fn ld(p: *const Self) -> Self;
}

/// `st{.sem}{.scope}{.space}.type [a], b;`
///
/// # Safety
/// Implemented only by this crate's table.
pub unsafe trait StInstr<S: StoreSem, Sco: Scope, Sp: Space>: Scalar {
    /// The exact mnemonic emitted, e.g. `"st.release.gpu.u32"`.
    const PTX: &'static str;
    #[doc(hidden)]
    #[cfg(target_arch = "nvptx64")]
    unsafe fn st(p: *mut Self, v: Self);
}

/// `atom{.sem}{.scope}{.space}.op.type d, [a], b;`
///
/// # Safety
/// Implemented only by this crate's table.
#[diagnostic::on_unimplemented(
    message = "PTX has no `atom.{O}` on `{Self}`",
    label = "no such atom",
    note = "PTX ISA §9.7.13.5: u16/i16 only cas.b16 (no 16-bit add/exch/min/max/bitwise atom); and/or/xor on .b32/.b64 only, min/max on integers only, inc/dec on .u32 only, no .add.s64 (i64 adds as .u64); F16/Bf16 only add.noftz and cas.b16, F16x2/Bf16x2 add.noftz, exch.b32, cas.b32; u128 only exch.b128, cas.b128; vectors only add on V2F32/V4F32 and add/min/max.noftz on the half vectors (.v2/.v4/.v8 of F16/Bf16, .v2/.v4 of F16x2/Bf16x2), in Global or Generic (sm_90)"
)]
pub unsafe trait AtomInstr<O: op::Op, S: RmwSem, Sco: Scope, Sp: Space>: Scalar {
    /// The exact mnemonic emitted, e.g. `"atom.acq_rel.gpu.add.u32"`.
    const PTX: &'static str;
    #[doc(hidden)]
    #[cfg(target_arch = "nvptx64")]
    unsafe fn atom(p: *mut Self, b: Self) -> Self;
}

/// `atom{.sem}{.scope}{.space}.cas.bN d, [a], b, c;`
///
/// # Safety
/// Implemented only by this crate's table.
pub unsafe trait CasInstr<S: RmwSem, Sco: Scope, Sp: Space>: Scalar {
    /// The exact mnemonic emitted, e.g. `"atom.relaxed.gpu.cas.b32"`.
    const PTX: &'static str;
    #[doc(hidden)]
    #[cfg(target_arch = "nvptx64")]
    unsafe fn cas(p: *mut Self, cmp: Self, new: Self) -> Self;
}

/// `red{.sem}{.scope}{.space}.op.type [a], b;` (no result; `.sem` is `.relaxed` or `.release`).
///
/// # Safety
/// Implemented only by this crate's table.
#[diagnostic::on_unimplemented(
    message = "PTX has no `red.{O}` on `{Self}`",
    label = "no such red",
    note = "PTX ISA §9.7.13.6: the atom ops without exch/cas, with the same type restrictions (no 16-bit integer red; the half types: add.noftz only; no 128-bit red; vectors: add on V2F32/V4F32, add/min/max.noftz on the half vectors, in Global or Generic)"
)]
pub unsafe trait RedInstr<O: op::Op, S: RedSem, Sco: Scope, Sp: Space>: Scalar {
    /// The exact mnemonic emitted, e.g. `"red.release.gpu.add.u32"`.
    const PTX: &'static str;
    #[doc(hidden)]
    #[cfg(target_arch = "nvptx64")]
    unsafe fn red(p: *mut Self, b: Self);
}

// ---------------------------------------------------------------------------------------------
// The table. Each `for_*` macro adds one dimension and passes the accumulated row on; the leaf
// macros build the mnemonic once (`$mn`) and use it for both `PTX` and `asm!`.
// ---------------------------------------------------------------------------------------------

/// Spaces: name, and how the asm reaches the address `{p}`: a prefix and the direction of the
/// `p` operand. Generic pointers are used as they are (`in`); the others convert in place with
/// `cvta.to.<space>.u64 {p}, {p}` (`inout … => _`), so every operand template names the address
/// `{p}` whatever the space.
#[doc(hidden)]
#[macro_export]
macro_rules! for_spaces {
    ($leaf:ident [$($a:tt)*]) => {
        $leaf! { $($a)* Generic ([""] (in)) }
        $leaf! { $($a)* Global (["cvta.to", $crate::sem::tok!(Global), ".u64 {p}, {p};\n\t"] (inout => _)) }
        $leaf! { $($a)* Shared (["cvta.to", $crate::sem::tok!(Shared), ".u64 {p}, {p};\n\t"] (inout => _)) }
        $leaf! { $($a)* SharedCluster (["cvta.to", $crate::sem::tok!(SharedCluster), ".u64 {p}, {p};\n\t"] (inout => _)) }
    };
}

/// The row list of one access family, for code outside the tables (the catalog walk, the
/// catalog kernels of `host/kernels`): `ptx_sync::access_rows!(ld leaf)` calls `leaf!` once per
/// row with the row's tokens — `ld`/`st`: `T "ty" reg; Sem; [generic params] Scope; Space (asm)`
/// (`[Sco: Scope] Sco` for the scope-less Weak/Volatile rows); `atom`/`red`:
/// `T reg Op "op" "ty"; Sem; [] Scope; Space (asm)`; `cas`: `T reg "ty"; Sem; [] Scope; Space
/// (asm)`; `fence`: `Sem, Scope`. The `(asm)` group is the table's own and may be ignored.
#[doc(hidden)]
#[macro_export]
macro_rules! access_rows {
    (ld $leaf:ident) => {
        $crate::for_ldst_types! { $leaf for_ldst_sems_ld }
    };
    (st $leaf:ident) => {
        $crate::for_ldst_types! { $leaf for_ldst_sems_st }
    };
    (atom $leaf:ident) => {
        $crate::for_atom_rows! { $leaf for_rmw_sems }
        $crate::for_atom_vec_rows! { $leaf for_rmw_sems }
    };
    (atom_scalar $leaf:ident) => {
        $crate::for_atom_rows! { $leaf for_rmw_sems }
    };
    (atom_vec $leaf:ident) => {
        $crate::for_atom_vec_rows! { $leaf for_rmw_sems }
    };
    (cas $leaf:ident) => {
        $crate::for_cas_rows! { $leaf for_rmw_sems }
    };
    (red $leaf:ident) => {
        $crate::for_red_rows! { $leaf for_red_sems }
        $crate::for_red_vec_rows! { $leaf for_red_sems }
    };
    (red_scalar $leaf:ident) => {
        $crate::for_red_rows! { $leaf for_red_sems }
    };
    (red_vec $leaf:ident) => {
        $crate::for_red_vec_rows! { $leaf for_red_sems }
    };
    (fence $leaf:ident) => {
        $crate::for_fences! { $leaf }
    };
}

/// The operand templates of the families, after the mnemonic: the text the `asm!` pastes and the
/// catalog row carries (`Variant::operands`), so that `ptx-sync show` assembles the operands the
/// code users call has. `{p}` the address, `{v}` a loaded/stored value, `{d}` an atom's old
/// value, `{b}`/`{c}` its operands.
macro_rules! ops {
    (ld) => {
        " {v}, [{p}]"
    };
    (st) => {
        " [{p}], {v}"
    };
    (atom) => {
        " {d}, [{p}], {b}"
    };
    (cas) => {
        " {d}, [{p}], {b}, {c}"
    };
    (red) => {
        " [{p}], {b}"
    };
}
#[allow(unused_imports)]
pub(crate) use ops;

/// The `.b128` rows' templates ([`b128`]): `(pre F)` before the mnemonic, `(F)` the operands,
/// `(post F)` after the `;`. The value crosses the `asm!` as two 64-bit halves `{lo}`/`{hi}`
/// (`{blo}`/`{bhi}`, `{clo}`/`{chi}` for the operands of `atom`) packed into `.b128` registers
/// `q` (the value or `b`), `qc` (`c`) and `qd` (`d`) with `mov.b128`.
macro_rules! ops128 {
    (pre ld) => {
        "{{\n\t.reg .b128 q;\n\t"
    };
    (ld) => {
        " q, [{p}]"
    };
    (post ld) => {
        "\n\tmov.b128 {{{lo}, {hi}}}, q;\n\t}}"
    };
    (pre st) => {
        "{{\n\t.reg .b128 q;\n\tmov.b128 q, {{{lo}, {hi}}};\n\t"
    };
    (st) => {
        " [{p}], q"
    };
    (post st) => {
        "\n\t}}"
    };
    (pre atom) => {
        "{{\n\t.reg .b128 q, qd;\n\tmov.b128 q, {{{blo}, {bhi}}};\n\t"
    };
    (atom) => {
        " qd, [{p}], q"
    };
    (post atom) => {
        "\n\tmov.b128 {{{lo}, {hi}}}, qd;\n\t}}"
    };
    (pre cas) => {
        "{{\n\t.reg .b128 q, qc, qd;\n\tmov.b128 q, {{{blo}, {bhi}}};\n\tmov.b128 qc, {{{clo}, {chi}}};\n\t"
    };
    (cas) => {
        " qd, [{p}], q, qc"
    };
    (post cas) => {
        "\n\tmov.b128 {{{lo}, {hi}}}, qd;\n\t}}"
    };
}
#[allow(unused_imports)]
pub(crate) use ops128;

/// The operands of the vector rows ([`vector`]): a brace-enclosed register list `{v0, …}`.
macro_rules! opsv {
    (ld 2) => {
        " {{{v0}, {v1}}}, [{p}]"
    };
    (ld 4) => {
        " {{{v0}, {v1}, {v2}, {v3}}}, [{p}]"
    };
    (st 2) => {
        " [{p}], {{{v0}, {v1}}}"
    };
    (st 4) => {
        " [{p}], {{{v0}, {v1}, {v2}, {v3}}}"
    };
    (atom 2) => {
        " {{{d0}, {d1}}}, [{p}], {{{b0}, {b1}}}"
    };
    (atom 4) => {
        " {{{d0}, {d1}, {d2}, {d3}}}, [{p}], {{{b0}, {b1}, {b2}, {b3}}}"
    };
    (red 2) => {
        " [{p}], {{{b0}, {b1}}}"
    };
    (red 4) => {
        " [{p}], {{{b0}, {b1}, {b2}, {b3}}}"
    };
    (atom 8) => {
        " {{{d0}, {d1}, {d2}, {d3}, {d4}, {d5}, {d6}, {d7}}}, [{p}], {{{b0}, {b1}, {b2}, {b3}, {b4}, {b5}, {b6}, {b7}}}"
    };
    (red 8) => {
        " [{p}], {{{b0}, {b1}, {b2}, {b3}, {b4}, {b5}, {b6}, {b7}}}"
    };
}
#[allow(unused_imports)]
pub(crate) use opsv;

/// Scopes: `[generic params] type token`.
#[doc(hidden)]
#[macro_export]
macro_rules! for_scopes {
    ($leaf:ident [$($a:tt)*]) => {
        $crate::for_spaces! { $leaf [$($a)* [] Cta;] }
        $crate::for_spaces! { $leaf [$($a)* [] Cluster;] }
        $crate::for_spaces! { $leaf [$($a)* [] Gpu;] }
        $crate::for_spaces! { $leaf [$($a)* [] Sys;] }
    };
}

/// `ld`/`st` semantics. Weak and Volatile carry no scope token: their impl is generic in `Sco`.
#[doc(hidden)]
#[macro_export]
macro_rules! for_ldst_sems {
    ($leaf:ident [$($a:tt)*] $S3:ident, $S4:ident) => {
        $crate::for_spaces! { $leaf [$($a)* Weak; [Sco: Scope] Sco;] }
        $crate::for_spaces! { $leaf [$($a)* Volatile; [Sco: Scope] Sco;] }
        $crate::for_scopes! { $leaf [$($a)* $S3;] }
        $crate::for_scopes! { $leaf [$($a)* $S4;] }
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! for_rmw_sems {
    ($leaf:ident [$($a:tt)*]) => {
        $crate::for_scopes! { $leaf [$($a)* Relaxed;] }
        $crate::for_scopes! { $leaf [$($a)* Acquire;] }
        $crate::for_scopes! { $leaf [$($a)* Release;] }
        $crate::for_scopes! { $leaf [$($a)* AcqRel;] }
    };
}

/// The vector atoms' walk (PTX ISA §9.7.13.5/6: `atom/red{.sem}{.scope}{.global}` with a vector
/// type): the semantics of `$sems` (`for_rmw_sems` or `for_red_sems`), every scope, and only the
/// `Generic` and `Global` spaces.
#[doc(hidden)]
#[macro_export]
macro_rules! global_only {
    (for_rmw_sems $leaf:ident [$($a:tt)*]) => {
        $crate::global_only! { @sem $leaf [$($a)*] Relaxed }
        $crate::global_only! { @sem $leaf [$($a)*] Acquire }
        $crate::global_only! { @sem $leaf [$($a)*] Release }
        $crate::global_only! { @sem $leaf [$($a)*] AcqRel }
    };
    (for_red_sems $leaf:ident [$($a:tt)*]) => {
        $crate::global_only! { @sem $leaf [$($a)*] Relaxed }
        $crate::global_only! { @sem $leaf [$($a)*] Release }
    };
    (@sem $leaf:ident [$($a:tt)*] $S:ident) => {
        $crate::global_only! { @scope $leaf [$($a)* $S;] Cta }
        $crate::global_only! { @scope $leaf [$($a)* $S;] Cluster }
        $crate::global_only! { @scope $leaf [$($a)* $S;] Gpu }
        $crate::global_only! { @scope $leaf [$($a)* $S;] Sys }
    };
    (@scope $leaf:ident [$($a:tt)*] $Sco:ident) => {
        $leaf! { $($a)* [] $Sco; Generic ([""] (in)) }
        $leaf! { $($a)* [] $Sco; Global (["cvta.to", $crate::sem::tok!(Global), ".u64 {p}, {p};\n\t"] (inout => _)) }
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! for_red_sems {
    ($leaf:ident [$($a:tt)*]) => {
        $crate::for_scopes! { $leaf [$($a)* Relaxed;] }
        $crate::for_scopes! { $leaf [$($a)* Release;] }
    };
}

/// Types for `ld`/`st`: Rust type, PTX type token, register class.
#[doc(hidden)]
#[macro_export]
macro_rules! for_ldst_types {
    ($leaf:ident $sems:ident) => {
        $crate::$sems! { $leaf [u16 "u16" reg16;] Acquire, Release }
        $crate::$sems! { $leaf [i16 "s16" reg16;] Acquire, Release }
        $crate::$sems! { $leaf [u32 "u32" reg32;] Acquire, Release }
        $crate::$sems! { $leaf [i32 "s32" reg32;] Acquire, Release }
        $crate::$sems! { $leaf [u64 "u64" reg64;] Acquire, Release }
        $crate::$sems! { $leaf [i64 "s64" reg64;] Acquire, Release }
        $crate::$sems! { $leaf [f32 "f32" reg32;] Acquire, Release }
        $crate::$sems! { $leaf [f64 "f64" reg64;] Acquire, Release }
        $crate::$sems! { $leaf [F16 "b16" reg16;] Acquire, Release }
        $crate::$sems! { $leaf [Bf16 "b16" reg16;] Acquire, Release }
        $crate::$sems! { $leaf [F16x2 "b32" reg32;] Acquire, Release }
        $crate::$sems! { $leaf [Bf16x2 "b32" reg32;] Acquire, Release }
        $crate::$sems! { $leaf [u128 "b128" reg128;] Acquire, Release }
        $crate::$sems! { $leaf [V2U32 "v2.u32" v2reg32;] Acquire, Release }
        $crate::$sems! { $leaf [V4U32 "v4.u32" v4reg32;] Acquire, Release }
        $crate::$sems! { $leaf [V2U64 "v2.u64" v2reg64;] Acquire, Release }
        $crate::$sems! { $leaf [V2F32 "v2.f32" v2reg32;] Acquire, Release }
        $crate::$sems! { $leaf [V4F32 "v4.f32" v4reg32;] Acquire, Release }
        $crate::$sems! { $leaf [V2F64 "v2.f64" v2reg64;] Acquire, Release }
        $crate::$sems! { $leaf [V2I32 "v2.s32" v2reg32;] Acquire, Release }
        $crate::$sems! { $leaf [V4I32 "v4.s32" v4reg32;] Acquire, Release }
        $crate::$sems! { $leaf [V2I64 "v2.s64" v2reg64;] Acquire, Release }
        $crate::$sems! { $leaf [V2U16 "v2.u16" v2reg16;] Acquire, Release }
        $crate::$sems! { $leaf [V4U16 "v4.u16" v4reg16;] Acquire, Release }
        $crate::$sems! { $leaf [V2I16 "v2.s16" v2reg16;] Acquire, Release }
        $crate::$sems! { $leaf [V4I16 "v4.s16" v4reg16;] Acquire, Release }
        $crate::$sems! { $leaf [V2F16 "v2.b16" v2reg16;] Acquire, Release }
        $crate::$sems! { $leaf [V4F16 "v4.b16" v4reg16;] Acquire, Release }
        $crate::$sems! { $leaf [V2Bf16 "v2.b16" v2reg16;] Acquire, Release }
        $crate::$sems! { $leaf [V4Bf16 "v4.b16" v4reg16;] Acquire, Release }
        $crate::$sems! { $leaf [V2F16x2 "v2.b32" v2reg32;] Acquire, Release }
        $crate::$sems! { $leaf [V4F16x2 "v4.b32" v4reg32;] Acquire, Release }
        $crate::$sems! { $leaf [V2Bf16x2 "v2.b32" v2reg32;] Acquire, Release }
        $crate::$sems! { $leaf [V4Bf16x2 "v4.b32" v4reg32;] Acquire, Release }
    };
}

/// `(type, op)` rows of `atom` (PTX ISA §9.7.13.5 type restrictions, checked by ptxas).
#[doc(hidden)]
#[macro_export]
macro_rules! for_atom_rows {
    ($leaf:ident $sems:ident) => {
        $crate::$sems! { $leaf [u32 reg32 Add "add" "u32";] }
        $crate::$sems! { $leaf [u32 reg32 Min "min" "u32";] }
        $crate::$sems! { $leaf [u32 reg32 Max "max" "u32";] }
        $crate::$sems! { $leaf [u32 reg32 And "and" "b32";] }
        $crate::$sems! { $leaf [u32 reg32 Or "or" "b32";] }
        $crate::$sems! { $leaf [u32 reg32 Xor "xor" "b32";] }
        $crate::$sems! { $leaf [u32 reg32 Exch "exch" "b32";] }
        $crate::$sems! { $leaf [u32 reg32 Inc "inc" "u32";] }
        $crate::$sems! { $leaf [u32 reg32 Dec "dec" "u32";] }
        $crate::$sems! { $leaf [i32 reg32 Add "add" "s32";] }
        $crate::$sems! { $leaf [i32 reg32 Min "min" "s32";] }
        $crate::$sems! { $leaf [i32 reg32 Max "max" "s32";] }
        $crate::$sems! { $leaf [i32 reg32 And "and" "b32";] }
        $crate::$sems! { $leaf [i32 reg32 Or "or" "b32";] }
        $crate::$sems! { $leaf [i32 reg32 Xor "xor" "b32";] }
        $crate::$sems! { $leaf [i32 reg32 Exch "exch" "b32";] }
        $crate::$sems! { $leaf [u64 reg64 Add "add" "u64";] }
        $crate::$sems! { $leaf [u64 reg64 Min "min" "u64";] }
        $crate::$sems! { $leaf [u64 reg64 Max "max" "u64";] }
        $crate::$sems! { $leaf [u64 reg64 And "and" "b64";] }
        $crate::$sems! { $leaf [u64 reg64 Or "or" "b64";] }
        $crate::$sems! { $leaf [u64 reg64 Xor "xor" "b64";] }
        $crate::$sems! { $leaf [u64 reg64 Exch "exch" "b64";] }
        $crate::$sems! { $leaf [i64 reg64 Add "add" "u64";] }
        $crate::$sems! { $leaf [i64 reg64 Min "min" "s64";] }
        $crate::$sems! { $leaf [i64 reg64 Max "max" "s64";] }
        $crate::$sems! { $leaf [i64 reg64 And "and" "b64";] }
        $crate::$sems! { $leaf [i64 reg64 Or "or" "b64";] }
        $crate::$sems! { $leaf [i64 reg64 Xor "xor" "b64";] }
        $crate::$sems! { $leaf [i64 reg64 Exch "exch" "b64";] }
        $crate::$sems! { $leaf [f32 reg32 Add "add" "f32";] }
        $crate::$sems! { $leaf [f32 reg32 Exch "exch" "b32";] }
        $crate::$sems! { $leaf [f64 reg64 Add "add" "f64";] }
        $crate::$sems! { $leaf [f64 reg64 Exch "exch" "b64";] }
        $crate::$sems! { $leaf [F16 reg16 Add "add.noftz" "f16";] }
        $crate::$sems! { $leaf [Bf16 reg16 Add "add.noftz" "bf16";] }
        $crate::$sems! { $leaf [F16x2 reg32 Add "add.noftz" "f16x2";] }
        $crate::$sems! { $leaf [F16x2 reg32 Exch "exch" "b32";] }
        $crate::$sems! { $leaf [Bf16x2 reg32 Add "add.noftz" "bf16x2";] }
        $crate::$sems! { $leaf [Bf16x2 reg32 Exch "exch" "b32";] }
        $crate::$sems! { $leaf [u128 reg128 Exch "exch" "b128";] }
    };
}

/// The vector rows of `atom` (PTX ISA §9.7.13.5/6 "with vector type", sm_90): `.add.v2/.v4.f32`,
/// and `.{add,min,max}.noftz` of `.v2/.v4/.v8` `.f16`/`.bf16` and `.v2/.v4` `.f16x2`/`.bf16x2`;
/// `.global` or generic only. A list of its own so that the catalog walk can take it in a
/// function of its own (`access_rows!(atom_vec …)`); `access_rows!(atom …)` walks both.
#[doc(hidden)]
#[macro_export]
macro_rules! for_atom_vec_rows {
    ($leaf:ident $sems:ident) => {
        $crate::global_only! { $sems $leaf [V2F32 v2reg32 Add "add" "v2.f32";] }
        $crate::global_only! { $sems $leaf [V4F32 v4reg32 Add "add" "v4.f32";] }
        $crate::global_only! { $sems $leaf [V2F16 v2reg16 Add "add.noftz" "v2.f16";] }
        $crate::global_only! { $sems $leaf [V4F16 v4reg16 Add "add.noftz" "v4.f16";] }
        $crate::global_only! { $sems $leaf [V8F16 v8reg16 Add "add.noftz" "v8.f16";] }
        $crate::global_only! { $sems $leaf [V2Bf16 v2reg16 Add "add.noftz" "v2.bf16";] }
        $crate::global_only! { $sems $leaf [V4Bf16 v4reg16 Add "add.noftz" "v4.bf16";] }
        $crate::global_only! { $sems $leaf [V8Bf16 v8reg16 Add "add.noftz" "v8.bf16";] }
        $crate::global_only! { $sems $leaf [V2F16x2 v2reg32 Add "add.noftz" "v2.f16x2";] }
        $crate::global_only! { $sems $leaf [V4F16x2 v4reg32 Add "add.noftz" "v4.f16x2";] }
        $crate::global_only! { $sems $leaf [V2Bf16x2 v2reg32 Add "add.noftz" "v2.bf16x2";] }
        $crate::global_only! { $sems $leaf [V4Bf16x2 v4reg32 Add "add.noftz" "v4.bf16x2";] }
        $crate::global_only! { $sems $leaf [V2F16 v2reg16 Min "min.noftz" "v2.f16";] }
        $crate::global_only! { $sems $leaf [V4F16 v4reg16 Min "min.noftz" "v4.f16";] }
        $crate::global_only! { $sems $leaf [V8F16 v8reg16 Min "min.noftz" "v8.f16";] }
        $crate::global_only! { $sems $leaf [V2Bf16 v2reg16 Min "min.noftz" "v2.bf16";] }
        $crate::global_only! { $sems $leaf [V4Bf16 v4reg16 Min "min.noftz" "v4.bf16";] }
        $crate::global_only! { $sems $leaf [V8Bf16 v8reg16 Min "min.noftz" "v8.bf16";] }
        $crate::global_only! { $sems $leaf [V2F16x2 v2reg32 Min "min.noftz" "v2.f16x2";] }
        $crate::global_only! { $sems $leaf [V4F16x2 v4reg32 Min "min.noftz" "v4.f16x2";] }
        $crate::global_only! { $sems $leaf [V2Bf16x2 v2reg32 Min "min.noftz" "v2.bf16x2";] }
        $crate::global_only! { $sems $leaf [V4Bf16x2 v4reg32 Min "min.noftz" "v4.bf16x2";] }
        $crate::global_only! { $sems $leaf [V2F16 v2reg16 Max "max.noftz" "v2.f16";] }
        $crate::global_only! { $sems $leaf [V4F16 v4reg16 Max "max.noftz" "v4.f16";] }
        $crate::global_only! { $sems $leaf [V8F16 v8reg16 Max "max.noftz" "v8.f16";] }
        $crate::global_only! { $sems $leaf [V2Bf16 v2reg16 Max "max.noftz" "v2.bf16";] }
        $crate::global_only! { $sems $leaf [V4Bf16 v4reg16 Max "max.noftz" "v4.bf16";] }
        $crate::global_only! { $sems $leaf [V8Bf16 v8reg16 Max "max.noftz" "v8.bf16";] }
        $crate::global_only! { $sems $leaf [V2F16x2 v2reg32 Max "max.noftz" "v2.f16x2";] }
        $crate::global_only! { $sems $leaf [V4F16x2 v4reg32 Max "max.noftz" "v4.f16x2";] }
        $crate::global_only! { $sems $leaf [V2Bf16x2 v2reg32 Max "max.noftz" "v2.bf16x2";] }
        $crate::global_only! { $sems $leaf [V4Bf16x2 v4reg32 Max "max.noftz" "v4.bf16x2";] }
    };
}

/// `(type, op)` rows of `red`: the `atom` rows without `exch` (PTX ISA §9.7.13.6).
#[doc(hidden)]
#[macro_export]
macro_rules! for_red_rows {
    ($leaf:ident $sems:ident) => {
        $crate::$sems! { $leaf [u32 reg32 Add "add" "u32";] }
        $crate::$sems! { $leaf [u32 reg32 Min "min" "u32";] }
        $crate::$sems! { $leaf [u32 reg32 Max "max" "u32";] }
        $crate::$sems! { $leaf [u32 reg32 And "and" "b32";] }
        $crate::$sems! { $leaf [u32 reg32 Or "or" "b32";] }
        $crate::$sems! { $leaf [u32 reg32 Xor "xor" "b32";] }
        $crate::$sems! { $leaf [u32 reg32 Inc "inc" "u32";] }
        $crate::$sems! { $leaf [u32 reg32 Dec "dec" "u32";] }
        $crate::$sems! { $leaf [i32 reg32 Add "add" "s32";] }
        $crate::$sems! { $leaf [i32 reg32 Min "min" "s32";] }
        $crate::$sems! { $leaf [i32 reg32 Max "max" "s32";] }
        $crate::$sems! { $leaf [i32 reg32 And "and" "b32";] }
        $crate::$sems! { $leaf [i32 reg32 Or "or" "b32";] }
        $crate::$sems! { $leaf [i32 reg32 Xor "xor" "b32";] }
        $crate::$sems! { $leaf [u64 reg64 Add "add" "u64";] }
        $crate::$sems! { $leaf [u64 reg64 Min "min" "u64";] }
        $crate::$sems! { $leaf [u64 reg64 Max "max" "u64";] }
        $crate::$sems! { $leaf [u64 reg64 And "and" "b64";] }
        $crate::$sems! { $leaf [u64 reg64 Or "or" "b64";] }
        $crate::$sems! { $leaf [u64 reg64 Xor "xor" "b64";] }
        $crate::$sems! { $leaf [i64 reg64 Add "add" "u64";] }
        $crate::$sems! { $leaf [i64 reg64 Min "min" "s64";] }
        $crate::$sems! { $leaf [i64 reg64 Max "max" "s64";] }
        $crate::$sems! { $leaf [i64 reg64 And "and" "b64";] }
        $crate::$sems! { $leaf [i64 reg64 Or "or" "b64";] }
        $crate::$sems! { $leaf [i64 reg64 Xor "xor" "b64";] }
        $crate::$sems! { $leaf [f32 reg32 Add "add" "f32";] }
        $crate::$sems! { $leaf [f64 reg64 Add "add" "f64";] }
        $crate::$sems! { $leaf [F16 reg16 Add "add.noftz" "f16";] }
        $crate::$sems! { $leaf [Bf16 reg16 Add "add.noftz" "bf16";] }
        $crate::$sems! { $leaf [F16x2 reg32 Add "add.noftz" "f16x2";] }
        $crate::$sems! { $leaf [Bf16x2 reg32 Add "add.noftz" "bf16x2";] }
    };
}

/// The vector rows of `red` (PTX ISA §9.7.13.5/6 "with vector type", sm_90): `.add.v2/.v4.f32`,
/// and `.{add,min,max}.noftz` of `.v2/.v4/.v8` `.f16`/`.bf16` and `.v2/.v4` `.f16x2`/`.bf16x2`;
/// `.global` or generic only. A list of its own so that the catalog walk can take it in a
/// function of its own (`access_rows!(red_vec …)`); `access_rows!(red …)` walks both.
#[doc(hidden)]
#[macro_export]
macro_rules! for_red_vec_rows {
    // The ISA's vector (type, op) set is the same for `red` as for `atom` (§9.7.13.5/6 "with
    // vector type"); only the semantics differ, and `$sems` carries those.
    ($leaf:ident $sems:ident) => {
        $crate::for_atom_vec_rows! { $leaf $sems }
    };
}

/// `cas` rows: every scalar, compared bitwise (`u16`/`i16`: `cas.b16`, their only `atom`).
#[doc(hidden)]
#[macro_export]
macro_rules! for_cas_rows {
    ($leaf:ident $sems:ident) => {
        $crate::$sems! { $leaf [u16 reg16 "b16";] }
        $crate::$sems! { $leaf [i16 reg16 "b16";] }
        $crate::$sems! { $leaf [u32 reg32 "b32";] }
        $crate::$sems! { $leaf [i32 reg32 "b32";] }
        $crate::$sems! { $leaf [u64 reg64 "b64";] }
        $crate::$sems! { $leaf [i64 reg64 "b64";] }
        $crate::$sems! { $leaf [f32 reg32 "b32";] }
        $crate::$sems! { $leaf [f64 reg64 "b64";] }
        $crate::$sems! { $leaf [F16 reg16 "b16";] }
        $crate::$sems! { $leaf [Bf16 reg16 "b16";] }
        $crate::$sems! { $leaf [F16x2 reg32 "b32";] }
        $crate::$sems! { $leaf [Bf16x2 reg32 "b32";] }
        $crate::$sems! { $leaf [u128 reg128 "b128";] }
    };
}

/// `st` takes Release where `ld` takes Acquire: same walk, other strong semantic.
#[doc(hidden)]
#[macro_export]
macro_rules! for_ldst_sems_st {
    ($leaf:ident [$($a:tt)*] $S3:ident, $S4:ident) => {
        $crate::for_ldst_sems! { $leaf [$($a)*] Relaxed, $S4 }
    };
}

/// `ld` walks Relaxed and Acquire.
#[doc(hidden)]
#[macro_export]
macro_rules! for_ldst_sems_ld {
    ($leaf:ident [$($a:tt)*] $S3:ident, $S4:ident) => {
        $crate::for_ldst_sems! { $leaf [$($a)*] Relaxed, $S3 }
    };
}

// ----- leaves that implement the instruction traits -----

/// The scope token of a row: none where the row is generic in the scope (`Weak`, `Volatile`).
macro_rules! sco_tok {
    ([] $Sco:ident) => {
        tok!($Sco)
    };
    ([$($g:tt)+] $Sco:ident) => {
        ""
    };
}

macro_rules! ld_leaf {
    (u128 $tt:literal reg128; $S:ident; [$($g:tt)*] $Sco:ident;
     $Sp:ident ([$($pre:tt)*] ($dir:tt $($tail:tt)*))) => {
        unsafe impl<$($g)*> LdInstr<$S, $Sco, $Sp> for u128 {
            const PTX: &'static str = concat!("ld", tok!($S), sco_tok!([$($g)*] $Sco), tok!($Sp), ".", $tt);
            #[cfg(target_arch = "nvptx64")]
            #[inline(always)]
            unsafe fn ld(p: *const Self) -> Self {
                let (lo, hi): (u64, u64);
                asm!(concat!($($pre)*, ops128!(pre ld), "ld", tok!($S), sco_tok!([$($g)*] $Sco), tok!($Sp), ".", $tt,
                             ops128!(ld), ";", ops128!(post ld)),
                     lo = out(reg64) lo, hi = out(reg64) hi, p = $dir(reg64) p $($tail)*,
                     options(nostack, preserves_flags));
                (lo as u128) | ((hi as u128) << 64)
            }
        }
    };
    ($t:ident $tt:literal v2reg32; $($rest:tt)*) => { ld_leaf! { @vec2 reg32 $t $tt; $($rest)* } };
    ($t:ident $tt:literal v4reg32; $($rest:tt)*) => { ld_leaf! { @vec4 reg32 $t $tt; $($rest)* } };
    ($t:ident $tt:literal v2reg64; $($rest:tt)*) => { ld_leaf! { @vec2 reg64 $t $tt; $($rest)* } };
    ($t:ident $tt:literal v2reg16; $($rest:tt)*) => { ld_leaf! { @vec2 reg16 $t $tt; $($rest)* } };
    ($t:ident $tt:literal v4reg16; $($rest:tt)*) => { ld_leaf! { @vec4 reg16 $t $tt; $($rest)* } };
    (@vec2 $reg:ident $t:ident $tt:literal; $S:ident; [$($g:tt)*] $Sco:ident;
     $Sp:ident ([$($pre:tt)*] ($dir:tt $($tail:tt)*))) => {
        unsafe impl<$($g)*> LdInstr<$S, $Sco, $Sp> for $t {
            const PTX: &'static str = concat!("ld", tok!($S), sco_tok!([$($g)*] $Sco), tok!($Sp), ".", $tt);
            #[cfg(target_arch = "nvptx64")]
            #[inline(always)]
            unsafe fn ld(p: *const Self) -> Self {
                let (a, b): (VRaw<$t>, VRaw<$t>);
                asm!(concat!($($pre)*, "ld", tok!($S), sco_tok!([$($g)*] $Sco), tok!($Sp), ".", $tt, opsv!(ld 2), ";"),
                     v0 = out($reg) a, v1 = out($reg) b, p = $dir(reg64) p $($tail)*,
                     options(nostack, preserves_flags));
                Vector([a, b].map(Scalar::from_raw))
            }
        }
    };
    (@vec4 $reg:ident $t:ident $tt:literal; $S:ident; [$($g:tt)*] $Sco:ident;
     $Sp:ident ([$($pre:tt)*] ($dir:tt $($tail:tt)*))) => {
        unsafe impl<$($g)*> LdInstr<$S, $Sco, $Sp> for $t {
            const PTX: &'static str = concat!("ld", tok!($S), sco_tok!([$($g)*] $Sco), tok!($Sp), ".", $tt);
            #[cfg(target_arch = "nvptx64")]
            #[inline(always)]
            unsafe fn ld(p: *const Self) -> Self {
                let (a, b, c, d): (VRaw<$t>, VRaw<$t>, VRaw<$t>, VRaw<$t>);
                asm!(concat!($($pre)*, "ld", tok!($S), sco_tok!([$($g)*] $Sco), tok!($Sp), ".", $tt, opsv!(ld 4), ";"),
                     v0 = out($reg) a, v1 = out($reg) b, v2 = out($reg) c, v3 = out($reg) d,
                     p = $dir(reg64) p $($tail)*, options(nostack, preserves_flags));
                Vector([a, b, c, d].map(Scalar::from_raw))
            }
        }
    };
    ($t:ident $tt:literal $reg:ident; $S:ident; [$($g:tt)*] $Sco:ident;
     $Sp:ident ([$($pre:tt)*] ($dir:tt $($tail:tt)*))) => {
        ld_leaf! { @ (concat!("ld", tok!($S), sco_tok!([$($g)*] $Sco), tok!($Sp), ".", $tt)) $t $reg $S [$($g)*] $Sco $Sp
                   ([$($pre)*] ($dir $($tail)*)) }
    };
    (@ ($($mn:tt)*) $t:ident $reg:ident Weak [$($g:tt)*] $Sco:ident $Sp:ident
     ([$($pre:tt)*] ($dir:tt $($tail:tt)*))) => {
        unsafe impl<$($g)*> LdInstr<Weak, $Sco, $Sp> for $t {
            const PTX: &'static str = $($mn)*;
            #[cfg(target_arch = "nvptx64")]
            #[inline(always)]
            unsafe fn ld(p: *const Self) -> Self {
                let v: <$t as Scalar>::Raw;
                // A weak load is `pure`: the compiler may merge or hoist it, as the PTX memory
                // model allows for weak reads (seed §3.5).
                asm!(concat!($($pre)*, $($mn)*, ops!(ld), ";"), v = out($reg) v,
                     p = $dir(reg64) p $($tail)*, options(pure, readonly, nostack, preserves_flags));
                <$t as Scalar>::from_raw(v)
            }
        }
    };
    (@ ($($mn:tt)*) $t:ident $reg:ident $S:ident [$($g:tt)*] $Sco:ident $Sp:ident
     ([$($pre:tt)*] ($dir:tt $($tail:tt)*))) => {
        unsafe impl<$($g)*> LdInstr<$S, $Sco, $Sp> for $t {
            const PTX: &'static str = $($mn)*;
            #[cfg(target_arch = "nvptx64")]
            #[inline(always)]
            unsafe fn ld(p: *const Self) -> Self {
                let v: <$t as Scalar>::Raw;
                asm!(concat!($($pre)*, $($mn)*, ops!(ld), ";"), v = out($reg) v,
                     p = $dir(reg64) p $($tail)*, options(nostack, preserves_flags));
                <$t as Scalar>::from_raw(v)
            }
        }
    };
}

macro_rules! st_leaf {
    (u128 $tt:literal reg128; $S:ident; [$($g:tt)*] $Sco:ident;
     $Sp:ident ([$($pre:tt)*] ($dir:tt $($tail:tt)*))) => {
        unsafe impl<$($g)*> StInstr<$S, $Sco, $Sp> for u128 {
            const PTX: &'static str = concat!("st", tok!($S), sco_tok!([$($g)*] $Sco), tok!($Sp), ".", $tt);
            #[cfg(target_arch = "nvptx64")]
            #[inline(always)]
            unsafe fn st(p: *mut Self, v: Self) {
                asm!(concat!($($pre)*, ops128!(pre st), "st", tok!($S), sco_tok!([$($g)*] $Sco), tok!($Sp), ".", $tt,
                             ops128!(st), ";", ops128!(post st)),
                     lo = in(reg64) v as u64, hi = in(reg64) (v >> 64) as u64, p = $dir(reg64) p $($tail)*,
                     options(nostack, preserves_flags));
            }
        }
    };
    ($t:ident $tt:literal v2reg32; $($rest:tt)*) => { st_leaf! { @vec2 reg32 $t $tt; $($rest)* } };
    ($t:ident $tt:literal v4reg32; $($rest:tt)*) => { st_leaf! { @vec4 reg32 $t $tt; $($rest)* } };
    ($t:ident $tt:literal v2reg64; $($rest:tt)*) => { st_leaf! { @vec2 reg64 $t $tt; $($rest)* } };
    ($t:ident $tt:literal v2reg16; $($rest:tt)*) => { st_leaf! { @vec2 reg16 $t $tt; $($rest)* } };
    ($t:ident $tt:literal v4reg16; $($rest:tt)*) => { st_leaf! { @vec4 reg16 $t $tt; $($rest)* } };
    (@vec2 $reg:ident $t:ident $tt:literal; $S:ident; [$($g:tt)*] $Sco:ident;
     $Sp:ident ([$($pre:tt)*] ($dir:tt $($tail:tt)*))) => {
        unsafe impl<$($g)*> StInstr<$S, $Sco, $Sp> for $t {
            const PTX: &'static str = concat!("st", tok!($S), sco_tok!([$($g)*] $Sco), tok!($Sp), ".", $tt);
            #[cfg(target_arch = "nvptx64")]
            #[inline(always)]
            unsafe fn st(p: *mut Self, v: Self) {
                asm!(concat!($($pre)*, "st", tok!($S), sco_tok!([$($g)*] $Sco), tok!($Sp), ".", $tt, opsv!(st 2), ";"),
                     v0 = in($reg) v.0[0].to_raw(), v1 = in($reg) v.0[1].to_raw(), p = $dir(reg64) p $($tail)*,
                     options(nostack, preserves_flags));
            }
        }
    };
    (@vec4 $reg:ident $t:ident $tt:literal; $S:ident; [$($g:tt)*] $Sco:ident;
     $Sp:ident ([$($pre:tt)*] ($dir:tt $($tail:tt)*))) => {
        unsafe impl<$($g)*> StInstr<$S, $Sco, $Sp> for $t {
            const PTX: &'static str = concat!("st", tok!($S), sco_tok!([$($g)*] $Sco), tok!($Sp), ".", $tt);
            #[cfg(target_arch = "nvptx64")]
            #[inline(always)]
            unsafe fn st(p: *mut Self, v: Self) {
                asm!(concat!($($pre)*, "st", tok!($S), sco_tok!([$($g)*] $Sco), tok!($Sp), ".", $tt, opsv!(st 4), ";"),
                     v0 = in($reg) v.0[0].to_raw(), v1 = in($reg) v.0[1].to_raw(), v2 = in($reg) v.0[2].to_raw(),
                     v3 = in($reg) v.0[3].to_raw(),
                     p = $dir(reg64) p $($tail)*, options(nostack, preserves_flags));
            }
        }
    };
    ($t:ident $tt:literal $reg:ident; $S:ident; [$($g:tt)*] $Sco:ident;
     $Sp:ident ([$($pre:tt)*] ($dir:tt $($tail:tt)*))) => {
        st_leaf! { @ (concat!("st", tok!($S), sco_tok!([$($g)*] $Sco), tok!($Sp), ".", $tt)) $t $reg $S [$($g)*] $Sco $Sp
                   ([$($pre)*] ($dir $($tail)*)) }
    };
    (@ ($($mn:tt)*) $t:ident $reg:ident $S:ident [$($g:tt)*] $Sco:ident $Sp:ident
     ([$($pre:tt)*] ($dir:tt $($tail:tt)*))) => {
        unsafe impl<$($g)*> StInstr<$S, $Sco, $Sp> for $t {
            const PTX: &'static str = $($mn)*;
            #[cfg(target_arch = "nvptx64")]
            #[inline(always)]
            unsafe fn st(p: *mut Self, v: Self) {
                asm!(concat!($($pre)*, $($mn)*, ops!(st), ";"), v = in($reg) v.to_raw(),
                     p = $dir(reg64) p $($tail)*, options(nostack, preserves_flags));
            }
        }
    };
}

/// The `asm!` of a vector `atom` (`out`: returns the old vector) or `red` (`none`) of `$t`'s
/// elements in `$reg` registers (`f32`: `reg32`; the halves: their bits, `reg16`/`reg32`):
/// `{d0}`… the old values, `{b0}`… the operand's elements.
#[cfg(target_arch = "nvptx64")]
macro_rules! vec_asm {
    (2 out $reg:ident $t:ident; $tmpl:expr, $b:ident, $($p:tt)*) => {{
        let (d0, d1): (VRaw<$t>, VRaw<$t>);
        asm!($tmpl, d0 = out($reg) d0, d1 = out($reg) d1, b0 = in($reg) $b.0[0].to_raw(),
             b1 = in($reg) $b.0[1].to_raw(), $($p)*, options(nostack, preserves_flags));
        Vector([d0, d1].map(Scalar::from_raw))
    }};
    (4 out $reg:ident $t:ident; $tmpl:expr, $b:ident, $($p:tt)*) => {{
        let (d0, d1, d2, d3): (VRaw<$t>, VRaw<$t>, VRaw<$t>, VRaw<$t>);
        asm!($tmpl, d0 = out($reg) d0, d1 = out($reg) d1, d2 = out($reg) d2, d3 = out($reg) d3,
             b0 = in($reg) $b.0[0].to_raw(), b1 = in($reg) $b.0[1].to_raw(), b2 = in($reg) $b.0[2].to_raw(),
             b3 = in($reg) $b.0[3].to_raw(), $($p)*, options(nostack, preserves_flags));
        Vector([d0, d1, d2, d3].map(Scalar::from_raw))
    }};
    (8 out $reg:ident $t:ident; $tmpl:expr, $b:ident, $($p:tt)*) => {{
        let (d0, d1, d2, d3, d4, d5, d6, d7): (VRaw<$t>, VRaw<$t>, VRaw<$t>, VRaw<$t>,
                                               VRaw<$t>, VRaw<$t>, VRaw<$t>, VRaw<$t>);
        asm!($tmpl, d0 = out($reg) d0, d1 = out($reg) d1, d2 = out($reg) d2, d3 = out($reg) d3,
             d4 = out($reg) d4, d5 = out($reg) d5, d6 = out($reg) d6, d7 = out($reg) d7,
             b0 = in($reg) $b.0[0].to_raw(), b1 = in($reg) $b.0[1].to_raw(), b2 = in($reg) $b.0[2].to_raw(),
             b3 = in($reg) $b.0[3].to_raw(), b4 = in($reg) $b.0[4].to_raw(), b5 = in($reg) $b.0[5].to_raw(),
             b6 = in($reg) $b.0[6].to_raw(), b7 = in($reg) $b.0[7].to_raw(), $($p)*,
             options(nostack, preserves_flags));
        Vector([d0, d1, d2, d3, d4, d5, d6, d7].map(Scalar::from_raw))
    }};
    (2 none $reg:ident $t:ident; $tmpl:expr, $b:ident, $($p:tt)*) => {
        asm!($tmpl, b0 = in($reg) $b.0[0].to_raw(), b1 = in($reg) $b.0[1].to_raw(), $($p)*,
             options(nostack, preserves_flags))
    };
    (4 none $reg:ident $t:ident; $tmpl:expr, $b:ident, $($p:tt)*) => {
        asm!($tmpl, b0 = in($reg) $b.0[0].to_raw(), b1 = in($reg) $b.0[1].to_raw(), b2 = in($reg) $b.0[2].to_raw(),
             b3 = in($reg) $b.0[3].to_raw(), $($p)*, options(nostack, preserves_flags))
    };
    (8 none $reg:ident $t:ident; $tmpl:expr, $b:ident, $($p:tt)*) => {
        asm!($tmpl, b0 = in($reg) $b.0[0].to_raw(), b1 = in($reg) $b.0[1].to_raw(), b2 = in($reg) $b.0[2].to_raw(),
             b3 = in($reg) $b.0[3].to_raw(), b4 = in($reg) $b.0[4].to_raw(), b5 = in($reg) $b.0[5].to_raw(),
             b6 = in($reg) $b.0[6].to_raw(), b7 = in($reg) $b.0[7].to_raw(), $($p)*,
             options(nostack, preserves_flags))
    };
}
/// The `asm!` operand type of a vector's element.
#[cfg(target_arch = "nvptx64")]
type VRaw<V> = <<V as VectorElem>::E as Scalar>::Raw;

macro_rules! atom_leaf {
    ($t:ident v2reg32 $($rest:tt)*) => { atom_leaf! { @vec 2 reg32 $t $($rest)* } };
    ($t:ident v4reg32 $($rest:tt)*) => { atom_leaf! { @vec 4 reg32 $t $($rest)* } };
    ($t:ident v2reg16 $($rest:tt)*) => { atom_leaf! { @vec 2 reg16 $t $($rest)* } };
    ($t:ident v4reg16 $($rest:tt)*) => { atom_leaf! { @vec 4 reg16 $t $($rest)* } };
    ($t:ident v8reg16 $($rest:tt)*) => { atom_leaf! { @vec 8 reg16 $t $($rest)* } };
    (@vec $n:tt $vr:ident $t:ident $O:ident $ot:literal $tt:literal; $S:ident;
     [] $Sco:ident; $Sp:ident ([$($pre:tt)*] ($dir:tt $($tail:tt)*))) => {
        unsafe impl AtomInstr<op::$O, $S, $Sco, $Sp> for $t {
            const PTX: &'static str = concat!("atom", tok!($S), tok!($Sco), tok!($Sp), ".", $ot, ".", $tt);
            #[cfg(target_arch = "nvptx64")]
            #[inline(always)]
            unsafe fn atom(p: *mut Self, b: Self) -> Self {
                vec_asm!($n out $vr $t; concat!($($pre)*, "atom", tok!($S), tok!($Sco), tok!($Sp), ".", $ot, ".", $tt,
                                      opsv!(atom $n), ";"), b, p = $dir(reg64) p $($tail)*)
            }
        }
    };
    (u128 reg128 $O:ident $ot:literal $tt:literal; $S:ident;
     [] $Sco:ident; $Sp:ident ([$($pre:tt)*] ($dir:tt $($tail:tt)*))) => {
        unsafe impl AtomInstr<op::$O, $S, $Sco, $Sp> for u128 {
            const PTX: &'static str = concat!("atom", tok!($S), tok!($Sco), tok!($Sp), ".", $ot, ".", $tt);
            #[cfg(target_arch = "nvptx64")]
            #[inline(always)]
            unsafe fn atom(p: *mut Self, b: Self) -> Self {
                let (lo, hi): (u64, u64);
                asm!(concat!($($pre)*, ops128!(pre atom), "atom", tok!($S), tok!($Sco), tok!($Sp), ".", $ot, ".", $tt,
                             ops128!(atom), ";", ops128!(post atom)),
                     lo = out(reg64) lo, hi = out(reg64) hi, p = $dir(reg64) p $($tail)*,
                     blo = in(reg64) b as u64, bhi = in(reg64) (b >> 64) as u64,
                     options(nostack, preserves_flags));
                (lo as u128) | ((hi as u128) << 64)
            }
        }
    };
    ($t:ident $reg:ident $O:ident $ot:literal $tt:literal; $S:ident;
     [] $Sco:ident; $Sp:ident ([$($pre:tt)*] ($dir:tt $($tail:tt)*))) => {
        atom_leaf! { @ (concat!("atom", tok!($S), tok!($Sco), tok!($Sp), ".", $ot, ".", $tt)) $t $reg $O $S $Sco $Sp
                     ([$($pre)*] ($dir $($tail)*)) }
    };
    (@ ($($mn:tt)*) $t:ident $reg:ident $O:ident $S:ident $Sco:ident $Sp:ident
     ([$($pre:tt)*] ($dir:tt $($tail:tt)*))) => {
        unsafe impl AtomInstr<op::$O, $S, $Sco, $Sp> for $t {
            const PTX: &'static str = $($mn)*;
            #[cfg(target_arch = "nvptx64")]
            #[inline(always)]
            unsafe fn atom(p: *mut Self, b: Self) -> Self {
                let d: <$t as Scalar>::Raw;
                asm!(concat!($($pre)*, $($mn)*, ops!(atom), ";"), d = out($reg) d,
                     p = $dir(reg64) p $($tail)*, b = in($reg) b.to_raw(), options(nostack, preserves_flags));
                <$t as Scalar>::from_raw(d)
            }
        }
    };
}

macro_rules! cas_leaf {
    (u128 reg128 $tt:literal; $S:ident;
     [] $Sco:ident; $Sp:ident ([$($pre:tt)*] ($dir:tt $($tail:tt)*))) => {
        unsafe impl CasInstr<$S, $Sco, $Sp> for u128 {
            const PTX: &'static str = concat!("atom", tok!($S), tok!($Sco), tok!($Sp), ".cas.", $tt);
            #[cfg(target_arch = "nvptx64")]
            #[inline(always)]
            unsafe fn cas(p: *mut Self, cmp: Self, new: Self) -> Self {
                let (lo, hi): (u64, u64);
                asm!(concat!($($pre)*, ops128!(pre cas), "atom", tok!($S), tok!($Sco), tok!($Sp), ".cas.", $tt,
                             ops128!(cas), ";", ops128!(post cas)),
                     lo = out(reg64) lo, hi = out(reg64) hi, p = $dir(reg64) p $($tail)*,
                     blo = in(reg64) cmp as u64, bhi = in(reg64) (cmp >> 64) as u64,
                     clo = in(reg64) new as u64, chi = in(reg64) (new >> 64) as u64,
                     options(nostack, preserves_flags));
                (lo as u128) | ((hi as u128) << 64)
            }
        }
    };
    ($t:ident $reg:ident $tt:literal; $S:ident;
     [] $Sco:ident; $Sp:ident ([$($pre:tt)*] ($dir:tt $($tail:tt)*))) => {
        cas_leaf! { @ (concat!("atom", tok!($S), tok!($Sco), tok!($Sp), ".cas.", $tt)) $t $reg $S $Sco $Sp
                    ([$($pre)*] ($dir $($tail)*)) }
    };
    (@ ($($mn:tt)*) $t:ident $reg:ident $S:ident $Sco:ident $Sp:ident
     ([$($pre:tt)*] ($dir:tt $($tail:tt)*))) => {
        unsafe impl CasInstr<$S, $Sco, $Sp> for $t {
            const PTX: &'static str = $($mn)*;
            #[cfg(target_arch = "nvptx64")]
            #[inline(always)]
            unsafe fn cas(p: *mut Self, cmp: Self, new: Self) -> Self {
                let d: <$t as Scalar>::Raw;
                asm!(concat!($($pre)*, $($mn)*, ops!(cas), ";"), d = out($reg) d,
                     p = $dir(reg64) p $($tail)*, b = in($reg) cmp.to_raw(), c = in($reg) new.to_raw(),
                     options(nostack, preserves_flags));
                <$t as Scalar>::from_raw(d)
            }
        }
    };
}

macro_rules! red_leaf {
    ($t:ident v2reg32 $($rest:tt)*) => { red_leaf! { @vec 2 reg32 $t $($rest)* } };
    ($t:ident v4reg32 $($rest:tt)*) => { red_leaf! { @vec 4 reg32 $t $($rest)* } };
    ($t:ident v2reg16 $($rest:tt)*) => { red_leaf! { @vec 2 reg16 $t $($rest)* } };
    ($t:ident v4reg16 $($rest:tt)*) => { red_leaf! { @vec 4 reg16 $t $($rest)* } };
    ($t:ident v8reg16 $($rest:tt)*) => { red_leaf! { @vec 8 reg16 $t $($rest)* } };
    (@vec $n:tt $vr:ident $t:ident $O:ident $ot:literal $tt:literal; $S:ident;
     [] $Sco:ident; $Sp:ident ([$($pre:tt)*] ($dir:tt $($tail:tt)*))) => {
        unsafe impl RedInstr<op::$O, $S, $Sco, $Sp> for $t {
            const PTX: &'static str = concat!("red", tok!($S), tok!($Sco), tok!($Sp), ".", $ot, ".", $tt);
            #[cfg(target_arch = "nvptx64")]
            #[inline(always)]
            unsafe fn red(p: *mut Self, b: Self) {
                vec_asm!($n none $vr $t; concat!($($pre)*, "red", tok!($S), tok!($Sco), tok!($Sp), ".", $ot, ".", $tt,
                                       opsv!(red $n), ";"), b, p = $dir(reg64) p $($tail)*)
            }
        }
    };
    ($t:ident $reg:ident $O:ident $ot:literal $tt:literal; $S:ident;
     [] $Sco:ident; $Sp:ident ([$($pre:tt)*] ($dir:tt $($tail:tt)*))) => {
        red_leaf! { @ (concat!("red", tok!($S), tok!($Sco), tok!($Sp), ".", $ot, ".", $tt)) $t $reg $O $S $Sco $Sp
                    ([$($pre)*] ($dir $($tail)*)) }
    };
    (@ ($($mn:tt)*) $t:ident $reg:ident $O:ident $S:ident $Sco:ident $Sp:ident
     ([$($pre:tt)*] ($dir:tt $($tail:tt)*))) => {
        unsafe impl RedInstr<op::$O, $S, $Sco, $Sp> for $t {
            const PTX: &'static str = $($mn)*;
            #[cfg(target_arch = "nvptx64")]
            #[inline(always)]
            unsafe fn red(p: *mut Self, b: Self) {
                asm!(concat!($($pre)*, $($mn)*, ops!(red), ";"), p = $dir(reg64) p $($tail)*,
                     b = in($reg) b.to_raw(), options(nostack, preserves_flags));
            }
        }
    };
}

access_rows! { ld ld_leaf }
access_rows! { st st_leaf }
access_rows! { atom atom_leaf }
access_rows! { cas cas_leaf }
access_rows! { red red_leaf }

// ---------------------------------------------------------------------------------------------
// Cells: how memory is declared.
// ---------------------------------------------------------------------------------------------

/// A strong location: a flag, counter or any word that threads access concurrently (seed §3.1
/// "special" operations). Access it through an [`AtomicRef`] with a scope.
///
/// `#[repr(C)]`, exactly the size of `T` and aligned to it (`align(8)` for the 64-bit types
/// even on a 32-bit host, whose `u64` is 4-aligned: an 8-byte `ld`/`atom` needs 8) on the device
/// and on the host (so a kernel may view global memory as `Strong<T>` with
/// [`Strong::from_ptr`]); under `--cfg loom` it is a loom atomic so that
/// loom explores its interleavings (not the layout of `T` there: it also carries the access
/// history of the scope check, `ptx_sync::model`).
#[cfg_attr(not(loom), repr(C))]
pub struct Strong<T: Scalar> {
    /// Aligns the location to `size_of::<T>()` (an 8-byte PTX access needs 8-alignment, also
    /// where the host aligns `u64` to 4).
    #[cfg(not(loom))]
    _align: [T::Align; 0],
    #[cfg(not(loom))]
    v: core::cell::UnsafeCell<T>,
    /// Under loom: the store log and the scope check's history (see [`crate::model`]).
    #[cfg(loom)]
    pub(crate) m: crate::model::Location<T>,
}

// Every 8-byte location is 8-aligned and as large as its value, on every target.
#[cfg(not(loom))]
const _: () = {
    use core::mem::{align_of, size_of};
    assert!(align_of::<Strong<u64>>() == 8 && size_of::<Strong<u64>>() == 8);
    assert!(align_of::<Strong<i64>>() == 8 && align_of::<Strong<f64>>() == 8);
    assert!(align_of::<Strong<u32>>() == 4 && size_of::<Strong<u32>>() == 4);
};

// SAFETY: every access goes through strong (atomic) instructions.
unsafe impl<T: Scalar> Sync for Strong<T> {}
unsafe impl<T: Scalar> Send for Strong<T> {}

impl<T: Scalar> Strong<T> {
    /// A new strong location holding `v`.
    ///
    /// No instruction: the value is the location's initial contents (a `const fn`, so a `static` can
    /// hold one; a kernel views global memory with [`Strong::from_ptr`] instead). Seed §3 (special
    /// accesses).
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Strong, Gpu, Relaxed};
    /// static HITS: Strong<u32> = Strong::new(0);
    /// HITS.at::<Gpu>().red_add::<Relaxed>(2); // red.relaxed.gpu.add.u32
    /// assert_eq!(HITS.at::<Gpu>().load::<Relaxed>(), 2);
    /// ```
    #[cfg(not(loom))]
    pub const fn new(v: T) -> Self {
        Strong {
            _align: [],
            v: core::cell::UnsafeCell::new(v),
        }
    }
    /// A new strong location holding `v` (a loom atomic under `--cfg loom`).
    ///
    /// No instruction. Under `--cfg loom` this is the constructor (not `const`: a loom atomic is
    /// registered with the running model).
    ///
    /// # Examples
    ///
    /// ```
    /// let s = ptx_sync::Strong::new(5u64);
    /// assert_eq!(s.at::<ptx_sync::Gpu>().load::<ptx_sync::Relaxed>(), 5);
    /// ```
    #[cfg(loom)]
    pub fn new(v: T) -> Self {
        Strong {
            m: crate::model::Location::new(v),
        }
    }
    /// Views memory at `p` as a strong location (a kernel parameter pointing into global memory).
    ///
    /// # Safety
    /// `p` must be valid for `'a`, aligned to `size_of::<T>()` (8 for the 64-bit types, which
    /// a 32-bit host's `u64` alignment does not give), and accessed only through strong
    /// operations while shared.
    ///
    /// No instruction (a cast). The usual way into global memory: a kernel's `*mut u32` parameter.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Strong, Gpu, AcqRel, Relaxed};
    /// let mut words = [0u64; 2]; // stands for a kernel parameter pointing into global memory
    /// let w: &Strong<u64> = unsafe { Strong::from_ptr(words.as_mut_ptr()) };
    /// assert_eq!(w.at::<Gpu>().fetch_add::<AcqRel>(7), 0); // atom.acq_rel.gpu.add.u64
    /// assert_eq!(w.at::<Gpu>().load::<Relaxed>(), 7);
    /// ```
    #[cfg(not(loom))]
    pub unsafe fn from_ptr<'a>(p: *mut T) -> &'a Self {
        &*(p as *const Self)
    }
    /// The generic address of the location.
    ///
    /// No instruction.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{AtomicRef, Strong, Gpu, Relaxed};
    /// let s = Strong::new(3u32);
    /// let r = unsafe { AtomicRef::<u32, Gpu>::from_ptr(s.as_ptr()) };
    /// assert_eq!((r.load::<Relaxed>(), r.as_ptr()), (3, s.as_ptr()));
    /// ```
    #[cfg(not(loom))]
    pub const fn as_ptr(&self) -> *mut T {
        self.v.get()
    }
    /// An [`AtomicRef`] with scope `Sco` and generic addressing.
    ///
    /// No instruction: the scope is a type, and each access through the view spells it
    /// (`.cta`, `.cluster` (PTX 7.8, sm_90), `.gpu`, `.sys`; seed §4.2: atomicity and ordering
    /// hold only among threads inside the scope). A non-[`Scope`] type does not compile.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Strong, Cta, Sys, Release, Generic, atomic::StInstr};
    /// let flag = Strong::new(0u32);
    /// flag.at::<Cta>().store::<Release>(1); // st.release.cta.u32 (SASS MEMBAR.ALL.CTA ST.E.STRONG.SM)
    /// flag.at::<Sys>().store::<Release>(2); // st.release.sys.u32
    /// assert_eq!(<u32 as StInstr<Release, Cta, Generic>>::PTX, "st.release.cta.u32");
    /// assert_eq!(<u32 as StInstr<Release, Sys, Generic>>::PTX, "st.release.sys.u32");
    /// ```
    ///
    /// ```compile_fail
    /// let flag = ptx_sync::Strong::new(0u32);
    /// let _ = flag.at::<ptx_sync::Release>(); // a semantic is not a scope
    /// ```
    pub fn at<Sco: Scope>(&self) -> AtomicRef<'_, T, Sco, Generic> {
        AtomicRef::new(self)
    }
}

/// Ordinary (weak) data: the payload a flag protects (seed §3.1 "ordinary" operations, the
/// `data` of the hand-off). Reads and writes are plain `ld`/`st`.
///
/// Under `--cfg loom` it is a `loom::cell::UnsafeCell`, so an access not ordered by
/// synchronization is reported as a data race — the PTX ISA's data race among weak accesses
/// (§8.7.1).
#[repr(transparent)]
pub struct Data<T> {
    #[cfg(not(loom))]
    v: core::cell::UnsafeCell<T>,
    #[cfg(loom)]
    v: loom::cell::UnsafeCell<T>,
}

unsafe impl<T: Send> Sync for Data<T> {}
unsafe impl<T: Send> Send for Data<T> {}

impl<T: Copy> Data<T> {
    /// New ordinary data.
    ///
    /// No instruction. `Data` is what a flag protects: only weak `ld`/`st` touch it, so every
    /// access must be ordered by a synchronizing pair (seed §3).
    ///
    /// # Examples
    ///
    /// ```
    /// static PAYLOAD: ptx_sync::Data<[u32; 4]> = ptx_sync::Data::new([0; 4]);
    /// unsafe { PAYLOAD.write([1, 2, 3, 4]) };
    /// assert_eq!(unsafe { PAYLOAD.read() }[3], 4);
    /// ```
    #[cfg(not(loom))]
    pub const fn new(v: T) -> Self {
        Data {
            v: core::cell::UnsafeCell::new(v),
        }
    }
    /// New ordinary data (loom-tracked under `--cfg loom`).
    ///
    /// No instruction; under `--cfg loom` a tracked cell, so an unordered access is reported as a
    /// data race (PTX ISA §8.7.1).
    ///
    /// # Examples
    ///
    /// ```
    /// let d = ptx_sync::Data::new(1u8);
    /// assert_eq!(unsafe { d.read() }, 1);
    /// ```
    #[cfg(loom)]
    pub fn new(v: T) -> Self {
        crate::model::touch();
        Data {
            v: loom::cell::UnsafeCell::new(v),
        }
    }
    /// Views memory at `p` as ordinary data.
    ///
    /// # Safety
    /// `p` must be valid and aligned for `T` for `'a`.
    ///
    /// No instruction (a cast).
    ///
    /// # Examples
    ///
    /// ```
    /// let mut buf = [0u32; 8]; // a kernel's output buffer
    /// let d: &ptx_sync::Data<[u32; 8]> = unsafe { ptx_sync::Data::from_ptr(&mut buf) };
    /// unsafe { d.write([7; 8]) };
    /// assert_eq!(unsafe { d.read() }, [7; 8]);
    /// ```
    #[cfg(not(loom))]
    pub unsafe fn from_ptr<'a>(p: *mut T) -> &'a Self {
        &*(p as *const Self)
    }
    /// The generic address of the data.
    ///
    /// No instruction.
    ///
    /// # Examples
    ///
    /// ```
    /// let d = ptx_sync::Data::new(9u16);
    /// assert_eq!(unsafe { *d.as_ptr() }, 9);
    /// ```
    #[cfg(not(loom))]
    pub const fn as_ptr(&self) -> *mut T {
        self.v.get()
    }
    /// A weak read (`ld`): the value, if the protocol ordered this read after the write it must
    /// see.
    ///
    /// # Safety
    /// No conflicting write may be unordered with this read (that would be a data race, PTX ISA
    /// §8.7.1; loom reports it).
    ///
    /// PTX: a weak `ld.type` (no `.sem`, no `.scope`: PTX ISA §9.7.9.8, sm_20); it can be
    /// reordered, merged or hoisted by ptxas, so it never serves as a flag (seed §3.5). Seed §3
    /// (the data of the hand-off, ordered by an acquire).
    ///
    /// # Examples
    ///
    /// The consumer's side of the hand-off (seed §3), with std threads on the host:
    ///
    /// ```
    /// use ptx_sync::{Data, Strong, Gpu, Acquire, Release, wait::{spin_until, Budget}};
    /// let (data, flag) = (Data::new(0u64), Strong::new(0u32));
    /// std::thread::scope(|s| {
    ///     s.spawn(|| {
    ///         unsafe { data.write(42) };            // st.u64 (weak)
    ///         flag.at::<Gpu>().store::<Release>(1); // st.release.gpu.u32
    ///     });
    ///     s.spawn(|| {
    ///         let ok = spin_until(Budget::iterations(1 << 30), || flag.at::<Gpu>().load::<Acquire>() == 1);
    ///         assert!(ok.is_ok());                  // ld.acquire.gpu.u32 saw the release
    ///         assert_eq!(unsafe { data.read() }, 42); // ordered after the write: no race
    ///     });
    /// });
    /// ```
    #[inline(always)]
    pub unsafe fn read(&self) -> T {
        #[cfg(not(loom))]
        {
            core::ptr::read(self.v.get())
        }
        #[cfg(loom)]
        {
            crate::model::weak_access("ld", || self.v.with(|p| *p))
        }
    }
    /// A weak write (`st`).
    ///
    /// # Safety
    /// No conflicting access may be unordered with this write.
    ///
    /// PTX: a weak `st.type` (PTX ISA §9.7.9.10, sm_20). Publish it with a release store or a
    /// release fence before the flag (seed §3).
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Data, Strong, Gpu, Acquire, Release};
    /// let (data, flag) = (Data::new([0u8; 16]), Strong::new(0u32));
    /// std::thread::scope(|s| {
    ///     s.spawn(|| {
    ///         unsafe { data.write([5; 16]) };       // weak st
    ///         flag.at::<Gpu>().store::<Release>(1); // st.release.gpu.u32 publishes it
    ///     });
    /// });
    /// // The scope joined the thread (a synchronization); an acquire load would be needed otherwise.
    /// assert_eq!(flag.at::<Gpu>().load::<Acquire>(), 1);
    /// assert_eq!(unsafe { data.read() }, [5; 16]);
    /// ```
    #[inline(always)]
    pub unsafe fn write(&self, v: T) {
        #[cfg(not(loom))]
        {
            core::ptr::write(self.v.get(), v)
        }
        #[cfg(loom)]
        {
            crate::model::weak_access("st", || self.v.with_mut(|p| *p = v))
        }
    }
}

// ---------------------------------------------------------------------------------------------
// AtomicRef: every method is one call of the build's backend (`crate::backend`).
// ---------------------------------------------------------------------------------------------

use crate::backend::{AccessBackend, Active, Loc};

/// A strong location seen at scope `Sco` through state space `Sp` — the PTX analogue of
/// `cuda::atomic_ref<T, Scope>`. The semantic is a type parameter of each call
/// (`load::<Acquire>()`), checked at compile time against what PTX allows.
///
/// On `nvptx64` each method is one inline PTX instruction (plus a `cvta.to.<space>` for a
/// non-generic space); elsewhere it is the `core::sync::atomic` operation with the same ordering.
pub struct AtomicRef<'a, T: Scalar, Sco: Scope, Sp: Space = Generic> {
    loc: Loc<'a, T>,
    _m: PhantomData<(Sco, Sp)>,
}

impl<T: Scalar, Sco: Scope, Sp: Space> Clone for AtomicRef<'_, T, Sco, Sp> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T: Scalar, Sco: Scope, Sp: Space> Copy for AtomicRef<'_, T, Sco, Sp> {}
unsafe impl<T: Scalar, Sco: Scope, Sp: Space> Send for AtomicRef<'_, T, Sco, Sp> {}
unsafe impl<T: Scalar, Sco: Scope, Sp: Space> Sync for AtomicRef<'_, T, Sco, Sp> {}

impl<'a, T: Scalar, Sco: Scope> AtomicRef<'a, T, Sco, Generic> {
    /// A generic-addressed reference to `cell` at scope `Sco`.
    ///
    /// No instruction. Generic addressing: the access instructions carry no state-space token
    /// (`ld.acquire.gpu.u32`); use [`new_in`](Self::new_in) for `.global`/`.shared::cta`. Same as
    /// [`Strong::at`].
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{AtomicRef, Strong, Cluster, Relaxed};
    /// let s = Strong::new(1i64);
    /// let r: AtomicRef<i64, Cluster> = AtomicRef::new(&s);
    /// assert_eq!(r.load::<Relaxed>(), 1); // ld.relaxed.cluster.s64 (PTX 7.8, sm_90)
    /// ```
    pub fn new(cell: &'a Strong<T>) -> Self {
        #[cfg(not(loom))]
        {
            AtomicRef {
                loc: (cell.as_ptr(), PhantomData),
                _m: PhantomData,
            }
        }
        #[cfg(loom)]
        {
            AtomicRef {
                loc: cell,
                _m: PhantomData,
            }
        }
    }
}

impl<'a, T: Scalar, Sco: Scope, Sp: Space> AtomicRef<'a, T, Sco, Sp> {
    /// A reference to `cell` addressed through state space `Sp`.
    ///
    /// # Safety
    /// `cell` must lie in `Sp` (e.g. in the CTA's shared memory for [`Shared`]); a generic
    /// pointer outside that window makes the space-qualified instruction access the wrong memory.
    ///
    /// No instruction; each access then spells `Sp` (`.global`, `.shared::cta`,
    /// `.shared::cluster`: PTX ISA §9.7.9.8) and, on the device, is preceded by
    /// `cvta.to.<space>`. Host: the space is erased.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{AtomicRef, Strong, Gpu, Global, Relaxed, atomic::LdInstr};
    /// let s = Strong::new(4u32);
    /// let g = unsafe { AtomicRef::<u32, Gpu, Global>::new_in(&s) }; // s is in global memory on the device
    /// assert_eq!(g.load::<Relaxed>(), 4);
    /// assert_eq!(<u32 as LdInstr<Relaxed, Gpu, Global>>::PTX, "ld.relaxed.gpu.global.u32");
    /// ```
    pub unsafe fn new_in(cell: &'a Strong<T>) -> Self {
        #[cfg(not(loom))]
        {
            AtomicRef {
                loc: (cell.as_ptr(), PhantomData),
                _m: PhantomData,
            }
        }
        #[cfg(loom)]
        {
            AtomicRef {
                loc: cell,
                _m: PhantomData,
            }
        }
    }

    /// A reference to the location at the generic address `p`.
    ///
    /// # Safety
    /// `p` must be valid and aligned for `T` for `'a`, lie in `Sp`, and be accessed only by
    /// strong operations while shared.
    ///
    /// No instruction (a cast).
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{AtomicRef, Gpu, AcqRel, Relaxed};
    /// let mut counter = 0u32; // a kernel parameter pointing into global memory
    /// let r = unsafe { AtomicRef::<u32, Gpu>::from_ptr(&mut counter) };
    /// assert_eq!(r.fetch_add::<AcqRel>(1), 0);
    /// assert_eq!(r.load::<Relaxed>(), 1);
    /// ```
    #[cfg(not(loom))]
    pub unsafe fn from_ptr(p: *mut T) -> Self {
        AtomicRef {
            loc: (p, PhantomData),
            _m: PhantomData,
        }
    }

    /// The generic address.
    ///
    /// No instruction.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{AtomicRef, Strong, Gpu};
    /// let s = Strong::new(0u32);
    /// assert_eq!(AtomicRef::<u32, Gpu>::new(&s).as_ptr(), s.as_ptr());
    /// ```
    #[cfg(not(loom))]
    pub fn as_ptr(&self) -> *mut T {
        self.loc.0
    }

    /// `ld{.sem}{.scope}{.space}.type` — a load with semantic `S` ∈ {`Weak`, `Volatile`,
    /// `Relaxed`, `Acquire`}. A spin on a flag must use a strong semantic (seed §3.5: a `Weak`
    /// spin loop is deleted). `load::<Release>()`, `load::<AcqRel>()` and `load::<Sco>()` do not
    /// compile (PTX has no `ld.release`, `ld.sc`).
    ///
    /// PTX (`Generic` space, `u32`): `ld.u32` (`Weak`), `ld.volatile.u32`, `ld.relaxed.gpu.u32`,
    /// `ld.acquire.gpu.u32`. SASS (ptxas 13.0.88, sm_90, `docs/fence-costs.md`): `ld.relaxed.cta` →
    /// `LD.E.STRONG.SM`; `ld.relaxed.gpu` → `LD.E.STRONG.GPU`; `ld.acquire.gpu` →
    /// `LD.E.STRONG.GPU CCTL.IVALL` (the acquire is the L1 invalidate); `ld.acquire.cta` →
    /// `LD.E.STRONG.SM` only. Floor: PTX 6.0 / sm_70 (`.cluster`: 7.8 / sm_90). PTX ISA §9.7.9.8,
    /// §8.8; seed §3 (acquire), §3.5 (strong flag loads).
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Strong, Gpu, Acquire, Relaxed, Weak, Generic, atomic::LdInstr};
    /// let flag = Strong::new(1u32);
    /// let r = flag.at::<Gpu>();
    /// assert_eq!(r.load::<Acquire>(), 1);
    /// assert_eq!(r.load::<Relaxed>() + r.load::<Weak>(), 2);
    /// assert_eq!(<u32 as LdInstr<Acquire, Gpu, Generic>>::PTX, "ld.acquire.gpu.u32");
    /// assert_eq!(<u32 as LdInstr<Weak, Gpu, Generic>>::PTX, "ld.u32");
    /// assert_eq!(<u32 as LdInstr<ptx_sync::Volatile, Gpu, Generic>>::PTX, "ld.volatile.u32");
    /// ```
    ///
    /// ```compile_fail
    /// let flag = ptx_sync::Strong::new(1u32);
    /// let _ = flag.at::<ptx_sync::Gpu>().load::<ptx_sync::Release>(); // PTX has no ld.release
    /// ```
    #[inline(always)]
    pub fn load<S: LoadSem>(&self) -> T
    where
        T: LdInstr<S, Sco, Sp>,
    {
        Active::load::<T, S, Sco, Sp>(self.loc)
    }

    /// `st{.sem}{.scope}{.space}.type` — a store with `S` ∈ {`Weak`, `Volatile`, `Relaxed`,
    /// `Release`}. `store::<Acquire>()` does not compile (PTX has no `st.acquire`).
    ///
    /// PTX (`Generic`, `u32`): `st.u32`, `st.volatile.u32`, `st.relaxed.gpu.u32`,
    /// `st.release.gpu.u32`. SASS (ptxas 13.0.88, sm_90, `docs/fence-costs.md`):
    /// `st.relaxed.gpu` → `ST.E.STRONG.GPU`; `st.release.cta` → `MEMBAR.ALL.CTA ST.E.STRONG.SM`;
    /// `st.release.gpu` → `MEMBAR.ALL.GPU ERRBAR CGAERRBAR ST.E.STRONG.GPU`. Floor: PTX 6.0 /
    /// sm_70 (`.cluster`: 7.8 / sm_90). PTX ISA §9.7.9.10, §8.8; seed §3 (the producer's release).
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Strong, Gpu, Acquire, Release, wait::{spin_until, Budget}};
    /// let flag = Strong::new(0u32);
    /// std::thread::scope(|s| {
    ///     s.spawn(|| flag.at::<Gpu>().store::<Release>(1)); // st.release.gpu.u32
    ///     let r = spin_until(Budget::iterations(1 << 30), || flag.at::<Gpu>().load::<Acquire>() == 1);
    ///     assert!(r.is_ok());
    /// });
    /// ```
    ///
    /// ```compile_fail
    /// let flag = ptx_sync::Strong::new(0u32);
    /// flag.at::<ptx_sync::Gpu>().store::<ptx_sync::Acquire>(1); // PTX has no st.acquire
    /// ```
    #[inline(always)]
    pub fn store<S: StoreSem>(&self, v: T)
    where
        T: StInstr<S, Sco, Sp>,
    {
        Active::store::<T, S, Sco, Sp>(self.loc, v)
    }

    #[inline(always)]
    fn atom<O: op::Op, S: RmwSem>(&self, b: T) -> T
    where
        T: AtomInstr<O, S, Sco, Sp>,
    {
        Active::atom::<T, O, S, Sco, Sp>(self.loc, b)
    }

    #[inline(always)]
    fn red<O: op::Op, S: RedSem>(&self, b: T)
    where
        T: RedInstr<O, S, Sco, Sp>,
    {
        Active::red::<T, O, S, Sco, Sp>(self.loc, b)
    }

    /// `atom{.sem}{.scope}{.space}.add.type` — returns the old value. Atomicity holds only
    /// against accesses whose scope includes this thread (seed §4.2).
    ///
    /// `S` ∈ {`Relaxed`, `Acquire`, `Release`, `AcqRel`}; types: all six scalars (`i64` adds as
    /// `.u64`). `Weak`/`Volatile` do not compile (an `atom` is always strong). SASS (ptxas 13.0.88,
    /// sm_90, `docs/fence-costs.md`, `u32`): `atom.relaxed.gpu.add` → `ATOM.E.ADD.STRONG.GPU`;
    /// `atom.acq_rel.gpu.add` → `MEMBAR.ALL.GPU ERRBAR CGAERRBAR ATOM.E.ADD.STRONG.GPU CCTL.IVALL`.
    /// Floor: PTX 6.0 / sm_70 (`.cluster`: 7.8 / sm_90). PTX ISA §9.7.13.5; seed §4.1–4.3.
    ///
    /// # Examples
    ///
    /// A last-block-done counter: every block adds one, the block that sees `n - 1` is last.
    ///
    /// ```
    /// use ptx_sync::{Strong, Gpu, AcqRel, Generic, atomic::{op, AtomInstr}};
    /// let done = Strong::new(0u32);
    /// let last = std::thread::scope(|s| {
    ///     let h: Vec<_> = (0..4).map(|_| s.spawn(|| done.at::<Gpu>().fetch_add::<AcqRel>(1) == 3)).collect();
    ///     h.into_iter().map(|h| h.join().unwrap()).filter(|&l| l).count()
    /// });
    /// assert_eq!(last, 1);
    /// assert_eq!(<u32 as AtomInstr<op::Add, AcqRel, Gpu, Generic>>::PTX, "atom.acq_rel.gpu.add.u32");
    /// ```
    ///
    /// ```compile_fail
    /// let c = ptx_sync::Strong::new(0u32);
    /// let _ = c.at::<ptx_sync::Gpu>().fetch_add::<ptx_sync::Weak>(1); // atom has no weak form
    /// ```
    #[must_use = "an atom returns the old value: use the red_* form (`red`) when it is not needed (seed §4.5)"]
    #[inline(always)]
    pub fn fetch_add<S: RmwSem>(&self, v: T) -> T
    where
        T: AtomInstr<op::Add, S, Sco, Sp>,
    {
        self.atom::<op::Add, S>(v)
    }

    /// `atom{.sem}{.scope}{.space}.add.type` of `-v` (PTX has no `atom.sub`).
    ///
    /// Semantics, scopes, SASS and floor as [`fetch_add`](Self::fetch_add) (it is that
    /// instruction). PTX ISA §9.7.13.5; seed §4.1.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Strong, Gpu, Relaxed};
    /// let c = Strong::new(10i32);
    /// assert_eq!(c.at::<Gpu>().fetch_sub::<Relaxed>(3), 10); // atom.relaxed.gpu.add.s32 of -3
    /// assert_eq!(c.at::<Gpu>().load::<Relaxed>(), 7);
    /// ```
    #[must_use = "an atom returns the old value: use the red_* form (`red`) when it is not needed (seed §4.5)"]
    #[inline(always)]
    pub fn fetch_sub<S: RmwSem>(&self, v: T) -> T
    where
        T: AtomInstr<op::Add, S, Sco, Sp> + Negate,
    {
        self.atom::<op::Add, S>(v.negate())
    }

    /// `atom{.sem}{.scope}{.space}.min.type` (integers only).
    ///
    /// `S` ∈ {`Relaxed`, `Acquire`, `Release`, `AcqRel`}; `u32`/`i32`/`u64`/`i64` (`.u32`, `.s32`,
    /// `.u64`, `.s64`). `f32`/`f64` do not compile (PTX has no `atom.min.f32` in this table).
    /// SASS: not recorded in the repo (the costs snapshot measures `.add`). Floor: PTX 6.0 /
    /// sm_70 (`.cluster`: 7.8 / sm_90). PTX ISA §9.7.13.5; seed §4.1.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Strong, Gpu, Relaxed, Generic, atomic::{op, AtomInstr}};
    /// let m = Strong::new(5i32);
    /// assert_eq!(m.at::<Gpu>().fetch_min::<Relaxed>(-2), 5);
    /// assert_eq!(m.at::<Gpu>().load::<Relaxed>(), -2);
    /// assert_eq!(<i32 as AtomInstr<op::Min, Relaxed, Gpu, Generic>>::PTX, "atom.relaxed.gpu.min.s32");
    /// ```
    ///
    /// ```compile_fail
    /// let m = ptx_sync::Strong::new(1.0f32);
    /// let _ = m.at::<ptx_sync::Gpu>().fetch_min::<ptx_sync::Relaxed>(0.5);
    /// ```
    #[must_use = "an atom returns the old value: use the red_* form (`red`) when it is not needed (seed §4.5)"]
    #[inline(always)]
    pub fn fetch_min<S: RmwSem>(&self, v: T) -> T
    where
        T: AtomInstr<op::Min, S, Sco, Sp>,
    {
        self.atom::<op::Min, S>(v)
    }

    /// `atom{.sem}{.scope}{.space}.max.type` (integers only).
    ///
    /// As [`fetch_min`](Self::fetch_min) (`.max`): integers only, the same semantics and floor;
    /// SASS not recorded in the repo. PTX ISA §9.7.13.5; seed §4.1.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Strong, Gpu, Release, Relaxed};
    /// let m = Strong::new(5u64);
    /// assert_eq!(m.at::<Gpu>().fetch_max::<Release>(9), 5); // atom.release.gpu.max.u64
    /// assert_eq!(m.at::<Gpu>().load::<Relaxed>(), 9);
    /// ```
    #[must_use = "an atom returns the old value: use the red_* form (`red`) when it is not needed (seed §4.5)"]
    #[inline(always)]
    pub fn fetch_max<S: RmwSem>(&self, v: T) -> T
    where
        T: AtomInstr<op::Max, S, Sco, Sp>,
    {
        self.atom::<op::Max, S>(v)
    }

    /// `atom{.sem}{.scope}{.space}.and.bN` (integers only).
    ///
    /// `S` ∈ {`Relaxed`, `Acquire`, `Release`, `AcqRel`}; `.b32` for `u32`/`i32`, `.b64` for
    /// `u64`/`i64`; floats do not compile. SASS not recorded in the repo. Floor: PTX 6.0 / sm_70
    /// (`.cluster`: 7.8 / sm_90). PTX ISA §9.7.13.5; seed §4.1.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Strong, Cta, Relaxed, Generic, atomic::{op, AtomInstr}};
    /// let bits = Strong::new(0b1110u32);
    /// assert_eq!(bits.at::<Cta>().fetch_and::<Relaxed>(0b0111), 0b1110);
    /// assert_eq!(bits.at::<Cta>().load::<Relaxed>(), 0b0110);
    /// assert_eq!(<u32 as AtomInstr<op::And, Relaxed, Cta, Generic>>::PTX, "atom.relaxed.cta.and.b32");
    /// ```
    ///
    /// ```compile_fail
    /// let f = ptx_sync::Strong::new(1.0f64);
    /// let _ = f.at::<ptx_sync::Gpu>().fetch_and::<ptx_sync::Relaxed>(2.0);
    /// ```
    #[must_use = "an atom returns the old value: use the red_* form (`red`) when it is not needed (seed §4.5)"]
    #[inline(always)]
    pub fn fetch_and<S: RmwSem>(&self, v: T) -> T
    where
        T: AtomInstr<op::And, S, Sco, Sp>,
    {
        self.atom::<op::And, S>(v)
    }

    /// `atom{.sem}{.scope}{.space}.or.bN` (integers only).
    ///
    /// As [`fetch_and`](Self::fetch_and) (`.or`). PTX ISA §9.7.13.5; seed §4.1.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Strong, Gpu, AcqRel, Relaxed};
    /// let bits = Strong::new(0b0001u64);
    /// assert_eq!(bits.at::<Gpu>().fetch_or::<AcqRel>(0b1000), 0b0001); // atom.acq_rel.gpu.or.b64
    /// assert_eq!(bits.at::<Gpu>().load::<Relaxed>(), 0b1001);
    /// ```
    #[must_use = "an atom returns the old value: use the red_* form (`red`) when it is not needed (seed §4.5)"]
    #[inline(always)]
    pub fn fetch_or<S: RmwSem>(&self, v: T) -> T
    where
        T: AtomInstr<op::Or, S, Sco, Sp>,
    {
        self.atom::<op::Or, S>(v)
    }

    /// `atom{.sem}{.scope}{.space}.xor.bN` (integers only).
    ///
    /// As [`fetch_and`](Self::fetch_and) (`.xor`). PTX ISA §9.7.13.5; seed §4.1.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Strong, Gpu, Relaxed};
    /// let b = Strong::new(-1i32);
    /// assert_eq!(b.at::<Gpu>().fetch_xor::<Relaxed>(-1), -1); // atom.relaxed.gpu.xor.b32
    /// assert_eq!(b.at::<Gpu>().load::<Relaxed>(), 0);
    /// ```
    #[must_use = "an atom returns the old value: use the red_* form (`red`) when it is not needed (seed §4.5)"]
    #[inline(always)]
    pub fn fetch_xor<S: RmwSem>(&self, v: T) -> T
    where
        T: AtomInstr<op::Xor, S, Sco, Sp>,
    {
        self.atom::<op::Xor, S>(v)
    }

    /// `atom{.sem}{.scope}{.space}.exch.bN` — stores `v`, returns the old value.
    ///
    /// `S` ∈ {`Relaxed`, `Acquire`, `Release`, `AcqRel`}; all six scalars (`.b32`/`.b64`, floats
    /// by their bits). SASS not recorded in the repo. Floor: PTX 6.0 / sm_70 (`.cluster`: 7.8 /
    /// sm_90). PTX ISA §9.7.13.5; seed §4.1.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Strong, Gpu, AcqRel, Relaxed, Generic, atomic::{op, AtomInstr}};
    /// let slot = Strong::new(1.5f32);
    /// assert_eq!(slot.at::<Gpu>().swap::<AcqRel>(2.5), 1.5);
    /// assert_eq!(slot.at::<Gpu>().load::<Relaxed>(), 2.5);
    /// assert_eq!(<f32 as AtomInstr<op::Exch, AcqRel, Gpu, Generic>>::PTX, "atom.acq_rel.gpu.exch.b32");
    /// ```
    #[must_use = "an atom returns the old value: use the red_* form (`red`) when it is not needed (seed §4.5)"]
    #[inline(always)]
    pub fn swap<S: RmwSem>(&self, v: T) -> T
    where
        T: AtomInstr<op::Exch, S, Sco, Sp>,
    {
        self.atom::<op::Exch, S>(v)
    }

    /// `atom{.sem}{.scope}{.space}.inc.u32` — `old >= bound ? 0 : old + 1`, returns `old`.
    ///
    /// `S` ∈ {`Relaxed`, `Acquire`, `Release`, `AcqRel`}; `u32` only (other types do not compile:
    /// PTX has only `atom.inc.u32`). A ring index in one instruction. SASS not recorded in the
    /// repo. Floor: PTX 6.0 / sm_70 (`.cluster`: 7.8 / sm_90). PTX ISA §9.7.13.5; seed §4.1.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Strong, Gpu, Relaxed, Generic, atomic::{op, AtomInstr}};
    /// let i = Strong::new(2u32);
    /// assert_eq!(i.at::<Gpu>().fetch_inc::<Relaxed>(2), 2); // 2 >= 2: wraps to 0
    /// assert_eq!(i.at::<Gpu>().fetch_inc::<Relaxed>(2), 0);
    /// assert_eq!(i.at::<Gpu>().load::<Relaxed>(), 1);
    /// assert_eq!(<u32 as AtomInstr<op::Inc, Relaxed, Gpu, Generic>>::PTX, "atom.relaxed.gpu.inc.u32");
    /// ```
    ///
    /// ```compile_fail
    /// let i = ptx_sync::Strong::new(0u64);
    /// let _ = i.at::<ptx_sync::Gpu>().fetch_inc::<ptx_sync::Relaxed>(3); // no atom.inc.u64
    /// ```
    #[must_use = "an atom returns the old value: use the red_* form (`red`) when it is not needed (seed §4.5)"]
    #[inline(always)]
    pub fn fetch_inc<S: RmwSem>(&self, bound: T) -> T
    where
        T: AtomInstr<op::Inc, S, Sco, Sp>,
    {
        self.atom::<op::Inc, S>(bound)
    }

    /// `atom{.sem}{.scope}{.space}.dec.u32` — `(old == 0 || old > bound) ? bound : old - 1`.
    ///
    /// As [`fetch_inc`](Self::fetch_inc) (`.dec`, `u32` only), returns `old`. PTX ISA §9.7.13.5;
    /// seed §4.1.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Strong, Gpu, Relaxed};
    /// let i = Strong::new(0u32);
    /// assert_eq!(i.at::<Gpu>().fetch_dec::<Relaxed>(3), 0); // 0: wraps to the bound
    /// assert_eq!(i.at::<Gpu>().load::<Relaxed>(), 3);
    /// ```
    #[must_use = "an atom returns the old value: use the red_* form (`red`) when it is not needed (seed §4.5)"]
    #[inline(always)]
    pub fn fetch_dec<S: RmwSem>(&self, bound: T) -> T
    where
        T: AtomInstr<op::Dec, S, Sco, Sp>,
    {
        self.atom::<op::Dec, S>(bound)
    }

    /// `atom{.sem}{.scope}{.space}.cas.bN` — if the value is bitwise `current`, writes `new`.
    /// `Ok(old)` on success, `Err(old)` otherwise. One semantic for both outcomes, as in PTX.
    ///
    /// `S` ∈ {`Relaxed`, `Acquire`, `Release`, `AcqRel`}; all six scalars (`.b32`/`.b64`, floats
    /// compared by bits). There is no separate failure ordering (PTX has one `.sem`). SASS not
    /// recorded in the repo. Floor: PTX 6.0 / sm_70 (`.cluster`: 7.8 / sm_90). PTX ISA §9.7.13.5;
    /// seed §4.1–4.3.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Strong, Gpu, AcqRel, Generic, atomic::CasInstr};
    /// let lock = Strong::new(0u32);
    /// assert_eq!(lock.at::<Gpu>().compare_exchange::<AcqRel>(0, 1), Ok(0)); // taken
    /// assert_eq!(lock.at::<Gpu>().compare_exchange::<AcqRel>(0, 1), Err(1)); // already held
    /// assert_eq!(<u32 as CasInstr<AcqRel, Gpu, Generic>>::PTX, "atom.acq_rel.gpu.cas.b32");
    /// ```
    #[must_use = "a cas returns whether it wrote and the old value"]
    #[inline(always)]
    pub fn compare_exchange<S: RmwSem>(&self, current: T, new: T) -> Result<T, T>
    where
        T: CasInstr<S, Sco, Sp>,
    {
        Active::cas::<T, S, Sco, Sp>(self.loc, current, new)
    }

    /// `red{.sem}{.scope}{.space}.add.type` — no result, `S` ∈ {`Relaxed`, `Release`}. SASS
    /// `REDG` on `.global`; on a generic address ptxas 13.0 emits an `ATOM` whose result is
    /// dropped. `red_add::<Acquire>()` does not compile: red cannot acquire (seed §4.5).
    ///
    /// Types: all six scalars (as `fetch_add`). `Weak`, `Acquire` and `AcqRel` do not compile.
    /// SASS (ptxas 13.0.88, sm_90, `docs/fence-costs.md`, `u32`, generic address):
    /// `red.relaxed.gpu.add` → `ATOM.E.ADD.STRONG.GPU`; `red.release.gpu.add` →
    /// `MEMBAR.ALL.GPU ERRBAR CGAERRBAR ATOM.E.ADD.STRONG.GPU`. Floor: PTX 6.0 / sm_70
    /// (`.cluster`: 7.8 / sm_90). PTX ISA §9.7.13.6; seed §4.5.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Strong, Gpu, Relaxed, Generic, atomic::{op, RedInstr}};
    /// let hist = Strong::new(0u64);
    /// std::thread::scope(|s| for _ in 0..4 { s.spawn(|| hist.at::<Gpu>().red_add::<Relaxed>(5)); });
    /// assert_eq!(hist.at::<Gpu>().load::<Relaxed>(), 20);
    /// assert_eq!(<u64 as RedInstr<op::Add, Relaxed, Gpu, Generic>>::PTX, "red.relaxed.gpu.add.u64");
    /// ```
    ///
    /// ```compile_fail
    /// let c = ptx_sync::Strong::new(0u32);
    /// c.at::<ptx_sync::Gpu>().red_add::<ptx_sync::Acquire>(1); // red cannot acquire
    /// ```
    #[inline(always)]
    pub fn red_add<S: RedSem>(&self, v: T)
    where
        T: RedInstr<op::Add, S, Sco, Sp>,
    {
        self.red::<op::Add, S>(v)
    }
    /// `red{.sem}{.scope}{.space}.add.type` of `-v`.
    ///
    /// `S` ∈ {`Relaxed`, `Release`}; SASS and floor as [`red_add`](Self::red_add) (it is that
    /// instruction). PTX ISA §9.7.13.6; seed §4.5.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Strong, Gpu, Release, Relaxed};
    /// let c = Strong::new(8i64);
    /// c.at::<Gpu>().red_sub::<Release>(3); // red.release.gpu.add.u64 of -3
    /// assert_eq!(c.at::<Gpu>().load::<Relaxed>(), 5);
    /// ```
    #[inline(always)]
    pub fn red_sub<S: RedSem>(&self, v: T)
    where
        T: RedInstr<op::Add, S, Sco, Sp> + Negate,
    {
        self.red::<op::Add, S>(v.negate())
    }
    /// `red{.sem}{.scope}{.space}.min.type`.
    ///
    /// `S` ∈ {`Relaxed`, `Release`}; integers only (floats do not compile). SASS not recorded in
    /// the repo. Floor: PTX 6.0 / sm_70 (`.cluster`: 7.8 / sm_90). PTX ISA §9.7.13.6; seed §4.5.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Strong, Gpu, Relaxed, Generic, atomic::{op, RedInstr}};
    /// let lo = Strong::new(100u32);
    /// lo.at::<Gpu>().red_min::<Relaxed>(7);
    /// assert_eq!(lo.at::<Gpu>().load::<Relaxed>(), 7);
    /// assert_eq!(<u32 as RedInstr<op::Min, Relaxed, Gpu, Generic>>::PTX, "red.relaxed.gpu.min.u32");
    /// ```
    #[inline(always)]
    pub fn red_min<S: RedSem>(&self, v: T)
    where
        T: RedInstr<op::Min, S, Sco, Sp>,
    {
        self.red::<op::Min, S>(v)
    }
    /// `red{.sem}{.scope}{.space}.max.type`.
    ///
    /// As [`red_min`](Self::red_min) (`.max`). PTX ISA §9.7.13.6; seed §4.5.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Strong, Gpu, Relaxed};
    /// let hi = Strong::new(-5i32);
    /// hi.at::<Gpu>().red_max::<Relaxed>(3); // red.relaxed.gpu.max.s32
    /// assert_eq!(hi.at::<Gpu>().load::<Relaxed>(), 3);
    /// ```
    #[inline(always)]
    pub fn red_max<S: RedSem>(&self, v: T)
    where
        T: RedInstr<op::Max, S, Sco, Sp>,
    {
        self.red::<op::Max, S>(v)
    }
    /// `red{.sem}{.scope}{.space}.and.bN`.
    ///
    /// `S` ∈ {`Relaxed`, `Release`}; `.b32`/`.b64` integers only. SASS not recorded in the repo.
    /// Floor: PTX 6.0 / sm_70 (`.cluster`: 7.8 / sm_90). PTX ISA §9.7.13.6; seed §4.5.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Strong, Cta, Relaxed};
    /// let m = Strong::new(0xffu32);
    /// m.at::<Cta>().red_and::<Relaxed>(0x0f); // red.relaxed.cta.and.b32
    /// assert_eq!(m.at::<Cta>().load::<Relaxed>(), 0x0f);
    /// ```
    #[inline(always)]
    pub fn red_and<S: RedSem>(&self, v: T)
    where
        T: RedInstr<op::And, S, Sco, Sp>,
    {
        self.red::<op::And, S>(v)
    }
    /// `red{.sem}{.scope}{.space}.or.bN`.
    ///
    /// As [`red_and`](Self::red_and) (`.or`). PTX ISA §9.7.13.6; seed §4.5.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Strong, Gpu, Release, Relaxed};
    /// let m = Strong::new(0u64);
    /// m.at::<Gpu>().red_or::<Release>(1 << 40); // red.release.gpu.or.b64
    /// assert_eq!(m.at::<Gpu>().load::<Relaxed>(), 1 << 40);
    /// ```
    #[inline(always)]
    pub fn red_or<S: RedSem>(&self, v: T)
    where
        T: RedInstr<op::Or, S, Sco, Sp>,
    {
        self.red::<op::Or, S>(v)
    }
    /// `red{.sem}{.scope}{.space}.xor.bN`.
    ///
    /// As [`red_and`](Self::red_and) (`.xor`). PTX ISA §9.7.13.6; seed §4.5.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Strong, Gpu, Relaxed};
    /// let m = Strong::new(0b1010u32);
    /// m.at::<Gpu>().red_xor::<Relaxed>(0b1111); // red.relaxed.gpu.xor.b32
    /// assert_eq!(m.at::<Gpu>().load::<Relaxed>(), 0b0101);
    /// ```
    #[inline(always)]
    pub fn red_xor<S: RedSem>(&self, v: T)
    where
        T: RedInstr<op::Xor, S, Sco, Sp>,
    {
        self.red::<op::Xor, S>(v)
    }
    /// `red{.sem}{.scope}{.space}.inc.u32`.
    ///
    /// `S` ∈ {`Relaxed`, `Release`}; `u32` only. SASS not recorded in the repo. Floor: PTX 6.0 /
    /// sm_70 (`.cluster`: 7.8 / sm_90). PTX ISA §9.7.13.6; seed §4.5.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Strong, Gpu, Relaxed};
    /// let i = Strong::new(3u32);
    /// i.at::<Gpu>().red_inc::<Relaxed>(3); // 3 >= 3: wraps to 0
    /// assert_eq!(i.at::<Gpu>().load::<Relaxed>(), 0);
    /// ```
    ///
    /// ```compile_fail
    /// let i = ptx_sync::Strong::new(3i32);
    /// i.at::<ptx_sync::Gpu>().red_inc::<ptx_sync::Relaxed>(3); // red.inc is .u32 only
    /// ```
    #[inline(always)]
    pub fn red_inc<S: RedSem>(&self, bound: T)
    where
        T: RedInstr<op::Inc, S, Sco, Sp>,
    {
        self.red::<op::Inc, S>(bound)
    }
    /// `red{.sem}{.scope}{.space}.dec.u32`.
    ///
    /// As [`red_inc`](Self::red_inc) (`.dec`, `u32` only). PTX ISA §9.7.13.6; seed §4.5.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Strong, Gpu, Relaxed};
    /// let i = Strong::new(2u32);
    /// i.at::<Gpu>().red_dec::<Relaxed>(5);
    /// assert_eq!(i.at::<Gpu>().load::<Relaxed>(), 1);
    /// ```
    #[inline(always)]
    pub fn red_dec<S: RedSem>(&self, bound: T)
    where
        T: RedInstr<op::Dec, S, Sco, Sp>,
    {
        self.red::<op::Dec, S>(bound)
    }
}

// Silence "unused import" for markers only named inside macro expansions on some cfgs.
#[allow(unused, clippy::type_complexity)]
fn _markers(
    _: (
        Cta,
        Cluster,
        Gpu,
        Sys,
        Global,
        Shared,
        SharedCluster,
        Relaxed,
        Acquire,
        Release,
        AcqRel,
        Volatile,
        Weak,
    ),
) {
}

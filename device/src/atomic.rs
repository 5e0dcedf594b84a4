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
//! | `u32` | `.u32` | `.u32` | `.u32` | `.b32` | `.u32` |
//! | `i32` | `.s32` | `.s32` | `.s32` | `.b32` | – |
//! | `u64` | `.u64` | `.u64` | `.u64` | `.b64` | – |
//! | `i64` | `.s64` | `.u64` (PTX has no `add.s64`; two's complement is the same) | `.s64` | `.b64` | – |
//! | `f32` | `.f32` | `.f32` | – | `exch`/`cas` only: `.b32` | – |
//! | `f64` | `.f64` | `.f64` | – | `exch`/`cas` only: `.b64` | – |
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

/// A scalar that PTX can load, store and update atomically: `u32`, `i32`, `u64`, `i64`, `f32`,
/// `f64`.
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
pub use crate::backend::HostScalar as ScalarHost;
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
            #[allow(clippy::float_cmp)]
            fn bits_eq(self, other: Self) -> bool { self.to_ne_bytes() == other.to_ne_bytes() }
        }
        impl Negate for $t {
            fn negate(self) -> Self { let f: fn($t) -> $t = $neg; f(self) }
        }
    )*};
}
scalars!(u32, Align4, |x| x.wrapping_neg(); i32, Align4, |x| x.wrapping_neg();
         u64, Align8, |x| x.wrapping_neg(); i64, Align8, |x| x.wrapping_neg();
         f32, Align4, |x| -x; f64, Align8, |x| -x);

mod seq_cst;

/// Read-modify-write operations, as marker types (the `.op` of `atom`/`red`).
pub mod op {
    use crate::sem::Sealed;
    /// An `.op` of `atom` or `red` (PTX ISA §9.7.13.5).
    pub trait Op: Sealed + 'static {
        /// The PTX token (`"add"`).
        const PTX: &'static str;
        #[doc(hidden)]
        #[cfg(not(target_arch = "nvptx64"))]
        const KIND: crate::backend::RmwKind;
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
                const KIND: crate::backend::RmwKind = crate::backend::RmwKind::$n;
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
    note = "PTX ISA §9.7.13.5: and/or/xor on .b32/.b64 only, min/max on integers only, inc/dec on .u32 only, no .add.s64 (i64 adds as .u64)"
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
    note = "PTX ISA §9.7.13.6: the atom ops without exch/cas, with the same type restrictions"
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
    };
    (cas $leaf:ident) => {
        $crate::for_cas_rows! { $leaf for_rmw_sems }
    };
    (red $leaf:ident) => {
        $crate::for_red_rows! { $leaf for_red_sems }
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
        $crate::$sems! { $leaf [u32 "u32" reg32;] Acquire, Release }
        $crate::$sems! { $leaf [i32 "s32" reg32;] Acquire, Release }
        $crate::$sems! { $leaf [u64 "u64" reg64;] Acquire, Release }
        $crate::$sems! { $leaf [i64 "s64" reg64;] Acquire, Release }
        $crate::$sems! { $leaf [f32 "f32" reg32;] Acquire, Release }
        $crate::$sems! { $leaf [f64 "f64" reg64;] Acquire, Release }
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
    };
}

/// `cas` rows: every scalar, compared bitwise.
#[doc(hidden)]
#[macro_export]
macro_rules! for_cas_rows {
    ($leaf:ident $sems:ident) => {
        $crate::$sems! { $leaf [u32 reg32 "b32";] }
        $crate::$sems! { $leaf [i32 reg32 "b32";] }
        $crate::$sems! { $leaf [u64 reg64 "b64";] }
        $crate::$sems! { $leaf [i64 reg64 "b64";] }
        $crate::$sems! { $leaf [f32 reg32 "b32";] }
        $crate::$sems! { $leaf [f64 reg64 "b64";] }
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
                let v: $t;
                // A weak load is `pure`: the compiler may merge or hoist it, as the PTX memory
                // model allows for weak reads (seed §3.5).
                asm!(concat!($($pre)*, $($mn)*, ops!(ld), ";"), v = out($reg) v,
                     p = $dir(reg64) p $($tail)*, options(pure, readonly, nostack, preserves_flags));
                v
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
                let v: $t;
                asm!(concat!($($pre)*, $($mn)*, ops!(ld), ";"), v = out($reg) v,
                     p = $dir(reg64) p $($tail)*, options(nostack, preserves_flags));
                v
            }
        }
    };
}

macro_rules! st_leaf {
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
                asm!(concat!($($pre)*, $($mn)*, ops!(st), ";"), v = in($reg) v,
                     p = $dir(reg64) p $($tail)*, options(nostack, preserves_flags));
            }
        }
    };
}

macro_rules! atom_leaf {
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
                let d: $t;
                asm!(concat!($($pre)*, $($mn)*, ops!(atom), ";"), d = out($reg) d,
                     p = $dir(reg64) p $($tail)*, b = in($reg) b, options(nostack, preserves_flags));
                d
            }
        }
    };
}

macro_rules! cas_leaf {
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
                let d: $t;
                asm!(concat!($($pre)*, $($mn)*, ops!(cas), ";"), d = out($reg) d,
                     p = $dir(reg64) p $($tail)*, b = in($reg) cmp, c = in($reg) new,
                     options(nostack, preserves_flags));
                d
            }
        }
    };
}

macro_rules! red_leaf {
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
                     b = in($reg) b, options(nostack, preserves_flags));
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
    m: crate::model::Location<T>,
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
    #[cfg(not(loom))]
    pub const fn new(v: T) -> Self {
        Strong {
            _align: [],
            v: core::cell::UnsafeCell::new(v),
        }
    }
    /// A new strong location holding `v` (a loom atomic under `--cfg loom`).
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
    #[cfg(not(loom))]
    pub unsafe fn from_ptr<'a>(p: *mut T) -> &'a Self {
        &*(p as *const Self)
    }
    /// The generic address of the location.
    #[cfg(not(loom))]
    pub const fn as_ptr(&self) -> *mut T {
        self.v.get()
    }
    /// An [`AtomicRef`] with scope `Sco` and generic addressing.
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
    #[cfg(not(loom))]
    pub const fn new(v: T) -> Self {
        Data {
            v: core::cell::UnsafeCell::new(v),
        }
    }
    /// New ordinary data (loom-tracked under `--cfg loom`).
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
    #[cfg(not(loom))]
    pub unsafe fn from_ptr<'a>(p: *mut T) -> &'a Self {
        &*(p as *const Self)
    }
    /// The generic address of the data.
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
// AtomicRef
// ---------------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------------
// The backend seam: what an access does on each target. [`AtomicRef`]'s methods carry no `#[cfg]`;
// they call `Active`, the one backend chosen below (nvptx64: inline PTX from the table; host:
// `core::sync::atomic`; `--cfg loom`: loom atomics through the scope model `crate::model`).
// ---------------------------------------------------------------------------------------------

/// How an [`AtomicRef`] holds its location: a generic pointer (device and host), or the
/// [`Strong`] itself under loom (whose history the scope model keeps).
#[cfg(not(loom))]
type Loc<'a, T> = (*mut T, PhantomData<&'a T>);
#[cfg(loom)]
type Loc<'a, T> = &'a Strong<T>;

/// The operations of the access family and of `fence`, one implementation per backend.
pub(crate) trait Backend {
    fn fence<S: crate::fence::FenceInstr<Sco>, Sco: Scope>();
    fn load<T: LdInstr<S, Sco, Sp>, S: LoadSem, Sco: Scope, Sp: Space>(l: Loc<'_, T>) -> T;
    fn store<T: StInstr<S, Sco, Sp>, S: StoreSem, Sco: Scope, Sp: Space>(l: Loc<'_, T>, v: T);
    fn atom<T: AtomInstr<O, S, Sco, Sp>, O: op::Op, S: RmwSem, Sco: Scope, Sp: Space>(
        l: Loc<'_, T>,
        b: T,
    ) -> T;
    fn red<T: RedInstr<O, S, Sco, Sp>, O: op::Op, S: RedSem, Sco: Scope, Sp: Space>(
        l: Loc<'_, T>,
        b: T,
    );
    fn cas<T: CasInstr<S, Sco, Sp>, S: RmwSem, Sco: Scope, Sp: Space>(
        l: Loc<'_, T>,
        current: T,
        new: T,
    ) -> Result<T, T>;
}

/// The backend of this build — the one place the target is chosen.
#[cfg(target_arch = "nvptx64")]
pub(crate) type Active = Nvptx;
#[cfg(all(not(target_arch = "nvptx64"), not(loom)))]
pub(crate) type Active = Host;
#[cfg(loom)]
pub(crate) type Active = Loom;

/// nvptx64: the table's inline PTX.
#[cfg(target_arch = "nvptx64")]
pub(crate) struct Nvptx;
#[cfg(target_arch = "nvptx64")]
impl Backend for Nvptx {
    #[inline(always)]
    fn fence<S: crate::fence::FenceInstr<Sco>, Sco: Scope>() {
        S::exec()
    }
    #[inline(always)]
    fn load<T: LdInstr<S, Sco, Sp>, S: LoadSem, Sco: Scope, Sp: Space>(l: Loc<'_, T>) -> T {
        // SAFETY: the constructor's contract (valid, aligned, in `Sp`).
        unsafe { T::ld(l.0) }
    }
    #[inline(always)]
    fn store<T: StInstr<S, Sco, Sp>, S: StoreSem, Sco: Scope, Sp: Space>(l: Loc<'_, T>, v: T) {
        unsafe { T::st(l.0, v) }
    }
    #[inline(always)]
    fn atom<T: AtomInstr<O, S, Sco, Sp>, O: op::Op, S: RmwSem, Sco: Scope, Sp: Space>(
        l: Loc<'_, T>,
        b: T,
    ) -> T {
        unsafe { T::atom(l.0, b) }
    }
    #[inline(always)]
    fn red<T: RedInstr<O, S, Sco, Sp>, O: op::Op, S: RedSem, Sco: Scope, Sp: Space>(
        l: Loc<'_, T>,
        b: T,
    ) {
        unsafe { T::red(l.0, b) }
    }
    #[inline(always)]
    fn cas<T: CasInstr<S, Sco, Sp>, S: RmwSem, Sco: Scope, Sp: Space>(
        l: Loc<'_, T>,
        current: T,
        new: T,
    ) -> Result<T, T> {
        let old = unsafe { T::cas(l.0, current, new) };
        if old.bits_eq(current) {
            Ok(old)
        } else {
            Err(old)
        }
    }
}

/// Host: `core::sync::atomic` with the semantic's ordering (scope and space erased).
#[cfg(all(not(target_arch = "nvptx64"), not(loom)))]
pub(crate) struct Host;
#[cfg(all(not(target_arch = "nvptx64"), not(loom)))]
impl Host {
    #[inline(always)]
    fn at<T: Scalar>(l: Loc<'_, T>) -> &'_ <T as ScalarHost>::Atomic {
        // SAFETY: the constructor's contract.
        unsafe { T::atomic_from_ptr(l.0) }
    }
}
#[cfg(all(not(target_arch = "nvptx64"), not(loom)))]
impl Backend for Host {
    #[inline(always)]
    fn fence<S: crate::fence::FenceInstr<Sco>, Sco: Scope>() {
        crate::backend::host_fence(<S as crate::sem::FenceSem>::HOST)
    }
    #[inline(always)]
    fn load<T: LdInstr<S, Sco, Sp>, S: LoadSem, Sco: Scope, Sp: Space>(l: Loc<'_, T>) -> T {
        T::h_load(Host::at(l), S::HOST)
    }
    #[inline(always)]
    fn store<T: StInstr<S, Sco, Sp>, S: StoreSem, Sco: Scope, Sp: Space>(l: Loc<'_, T>, v: T) {
        T::h_store(Host::at(l), v, S::HOST)
    }
    #[inline(always)]
    fn atom<T: AtomInstr<O, S, Sco, Sp>, O: op::Op, S: RmwSem, Sco: Scope, Sp: Space>(
        l: Loc<'_, T>,
        b: T,
    ) -> T {
        T::h_rmw(Host::at(l), O::KIND, b, S::HOST)
    }
    #[inline(always)]
    fn red<T: RedInstr<O, S, Sco, Sp>, O: op::Op, S: RedSem, Sco: Scope, Sp: Space>(
        l: Loc<'_, T>,
        b: T,
    ) {
        let _ = T::h_rmw(Host::at(l), O::KIND, b, S::HOST);
    }
    #[inline(always)]
    fn cas<T: CasInstr<S, Sco, Sp>, S: RmwSem, Sco: Scope, Sp: Space>(
        l: Loc<'_, T>,
        current: T,
        new: T,
    ) -> Result<T, T> {
        T::h_cas(Host::at(l), current, new, S::HOST)
    }
}

/// `--cfg loom`: the scope model; every access reports its effective scope and its PTX.
#[cfg(loom)]
pub(crate) struct Loom;
#[cfg(loom)]
impl Backend for Loom {
    fn fence<S: crate::fence::FenceInstr<Sco>, Sco: Scope>() {
        use crate::model::FenceKind as K;
        use core::sync::atomic::Ordering as O;
        let kind = match <S as crate::sem::FenceSem>::HOST {
            O::SeqCst => K::Sc,
            O::AcqRel => K::AcqRel,
            O::Acquire => K::Acquire,
            _ => K::Release,
        };
        crate::model::fence(kind, Sco::LEVEL, <S as crate::fence::FenceInstr<Sco>>::PTX)
    }
    fn load<T: LdInstr<S, Sco, Sp>, S: LoadSem, Sco: Scope, Sp: Space>(l: Loc<'_, T>) -> T {
        let lvl = crate::model::effective_level(S::FIXED_LEVEL, Sco::LEVEL);
        l.m.load(lvl, S::HOST, <T as LdInstr<S, Sco, Sp>>::PTX)
    }
    fn store<T: StInstr<S, Sco, Sp>, S: StoreSem, Sco: Scope, Sp: Space>(l: Loc<'_, T>, v: T) {
        let lvl = crate::model::effective_level(S::FIXED_LEVEL, Sco::LEVEL);
        l.m.store(v, lvl, S::HOST, <T as StInstr<S, Sco, Sp>>::PTX)
    }
    fn atom<T: AtomInstr<O, S, Sco, Sp>, O: op::Op, S: RmwSem, Sco: Scope, Sp: Space>(
        l: Loc<'_, T>,
        b: T,
    ) -> T {
        let lvl = crate::model::effective_level(S::FIXED_LEVEL, Sco::LEVEL);
        let ptx = <T as AtomInstr<O, S, Sco, Sp>>::PTX;
        l.m.rmw(lvl, S::HOST, ptx, |old| T::h_apply(O::KIND, old, b))
    }
    fn red<T: RedInstr<O, S, Sco, Sp>, O: op::Op, S: RedSem, Sco: Scope, Sp: Space>(
        l: Loc<'_, T>,
        b: T,
    ) {
        let lvl = crate::model::effective_level(S::FIXED_LEVEL, Sco::LEVEL);
        let ptx = <T as RedInstr<O, S, Sco, Sp>>::PTX;
        let _ =
            l.m.rmw(lvl, S::HOST, ptx, |old| T::h_apply(O::KIND, old, b));
    }
    fn cas<T: CasInstr<S, Sco, Sp>, S: RmwSem, Sco: Scope, Sp: Space>(
        l: Loc<'_, T>,
        current: T,
        new: T,
    ) -> Result<T, T> {
        let lvl = crate::model::effective_level(S::FIXED_LEVEL, Sco::LEVEL);
        l.m.cas(
            lvl,
            S::HOST,
            crate::backend::cas_failure(S::HOST),
            <T as CasInstr<S, Sco, Sp>>::PTX,
            current,
            new,
            |a, b| a.bits_eq(b),
        )
    }
}

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
    #[cfg(not(loom))]
    pub unsafe fn from_ptr(p: *mut T) -> Self {
        AtomicRef {
            loc: (p, PhantomData),
            _m: PhantomData,
        }
    }

    /// The generic address.
    #[cfg(not(loom))]
    pub fn as_ptr(&self) -> *mut T {
        self.loc.0
    }

    /// `ld{.sem}{.scope}{.space}.type` — a load with semantic `S` ∈ {`Weak`, `Volatile`,
    /// `Relaxed`, `Acquire`}. A spin on a flag must use a strong semantic (seed §3.5: a `Weak`
    /// spin loop is deleted). `load::<Release>()`, `load::<AcqRel>()` and `load::<Sco>()` do not
    /// compile (PTX has no `ld.release`, `ld.sc`).
    #[inline(always)]
    pub fn load<S: LoadSem>(&self) -> T
    where
        T: LdInstr<S, Sco, Sp>,
    {
        Active::load::<T, S, Sco, Sp>(self.loc)
    }

    /// `st{.sem}{.scope}{.space}.type` — a store with `S` ∈ {`Weak`, `Volatile`, `Relaxed`,
    /// `Release`}. `store::<Acquire>()` does not compile (PTX has no `st.acquire`).
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
    #[must_use = "an atom returns the old value: use the red_* form (`red`) when it is not needed (seed §4.5)"]
    #[inline(always)]
    pub fn fetch_add<S: RmwSem>(&self, v: T) -> T
    where
        T: AtomInstr<op::Add, S, Sco, Sp>,
    {
        self.atom::<op::Add, S>(v)
    }

    /// `atom{.sem}{.scope}{.space}.add.type` of `-v` (PTX has no `atom.sub`).
    #[must_use = "an atom returns the old value: use the red_* form (`red`) when it is not needed (seed §4.5)"]
    #[inline(always)]
    pub fn fetch_sub<S: RmwSem>(&self, v: T) -> T
    where
        T: AtomInstr<op::Add, S, Sco, Sp> + Negate,
    {
        self.atom::<op::Add, S>(v.negate())
    }

    /// `atom{.sem}{.scope}{.space}.min.type` (integers only).
    #[must_use = "an atom returns the old value: use the red_* form (`red`) when it is not needed (seed §4.5)"]
    #[inline(always)]
    pub fn fetch_min<S: RmwSem>(&self, v: T) -> T
    where
        T: AtomInstr<op::Min, S, Sco, Sp>,
    {
        self.atom::<op::Min, S>(v)
    }

    /// `atom{.sem}{.scope}{.space}.max.type` (integers only).
    #[must_use = "an atom returns the old value: use the red_* form (`red`) when it is not needed (seed §4.5)"]
    #[inline(always)]
    pub fn fetch_max<S: RmwSem>(&self, v: T) -> T
    where
        T: AtomInstr<op::Max, S, Sco, Sp>,
    {
        self.atom::<op::Max, S>(v)
    }

    /// `atom{.sem}{.scope}{.space}.and.bN` (integers only).
    #[must_use = "an atom returns the old value: use the red_* form (`red`) when it is not needed (seed §4.5)"]
    #[inline(always)]
    pub fn fetch_and<S: RmwSem>(&self, v: T) -> T
    where
        T: AtomInstr<op::And, S, Sco, Sp>,
    {
        self.atom::<op::And, S>(v)
    }

    /// `atom{.sem}{.scope}{.space}.or.bN` (integers only).
    #[must_use = "an atom returns the old value: use the red_* form (`red`) when it is not needed (seed §4.5)"]
    #[inline(always)]
    pub fn fetch_or<S: RmwSem>(&self, v: T) -> T
    where
        T: AtomInstr<op::Or, S, Sco, Sp>,
    {
        self.atom::<op::Or, S>(v)
    }

    /// `atom{.sem}{.scope}{.space}.xor.bN` (integers only).
    #[must_use = "an atom returns the old value: use the red_* form (`red`) when it is not needed (seed §4.5)"]
    #[inline(always)]
    pub fn fetch_xor<S: RmwSem>(&self, v: T) -> T
    where
        T: AtomInstr<op::Xor, S, Sco, Sp>,
    {
        self.atom::<op::Xor, S>(v)
    }

    /// `atom{.sem}{.scope}{.space}.exch.bN` — stores `v`, returns the old value.
    #[must_use = "an atom returns the old value: use the red_* form (`red`) when it is not needed (seed §4.5)"]
    #[inline(always)]
    pub fn swap<S: RmwSem>(&self, v: T) -> T
    where
        T: AtomInstr<op::Exch, S, Sco, Sp>,
    {
        self.atom::<op::Exch, S>(v)
    }

    /// `atom{.sem}{.scope}{.space}.inc.u32` — `old >= bound ? 0 : old + 1`, returns `old`.
    #[must_use = "an atom returns the old value: use the red_* form (`red`) when it is not needed (seed §4.5)"]
    #[inline(always)]
    pub fn fetch_inc<S: RmwSem>(&self, bound: T) -> T
    where
        T: AtomInstr<op::Inc, S, Sco, Sp>,
    {
        self.atom::<op::Inc, S>(bound)
    }

    /// `atom{.sem}{.scope}{.space}.dec.u32` — `(old == 0 || old > bound) ? bound : old - 1`.
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
    #[inline(always)]
    pub fn red_add<S: RedSem>(&self, v: T)
    where
        T: RedInstr<op::Add, S, Sco, Sp>,
    {
        self.red::<op::Add, S>(v)
    }
    /// `red{.sem}{.scope}{.space}.add.type` of `-v`.
    #[inline(always)]
    pub fn red_sub<S: RedSem>(&self, v: T)
    where
        T: RedInstr<op::Add, S, Sco, Sp> + Negate,
    {
        self.red::<op::Add, S>(v.negate())
    }
    /// `red{.sem}{.scope}{.space}.min.type`.
    #[inline(always)]
    pub fn red_min<S: RedSem>(&self, v: T)
    where
        T: RedInstr<op::Min, S, Sco, Sp>,
    {
        self.red::<op::Min, S>(v)
    }
    /// `red{.sem}{.scope}{.space}.max.type`.
    #[inline(always)]
    pub fn red_max<S: RedSem>(&self, v: T)
    where
        T: RedInstr<op::Max, S, Sco, Sp>,
    {
        self.red::<op::Max, S>(v)
    }
    /// `red{.sem}{.scope}{.space}.and.bN`.
    #[inline(always)]
    pub fn red_and<S: RedSem>(&self, v: T)
    where
        T: RedInstr<op::And, S, Sco, Sp>,
    {
        self.red::<op::And, S>(v)
    }
    /// `red{.sem}{.scope}{.space}.or.bN`.
    #[inline(always)]
    pub fn red_or<S: RedSem>(&self, v: T)
    where
        T: RedInstr<op::Or, S, Sco, Sp>,
    {
        self.red::<op::Or, S>(v)
    }
    /// `red{.sem}{.scope}{.space}.xor.bN`.
    #[inline(always)]
    pub fn red_xor<S: RedSem>(&self, v: T)
    where
        T: RedInstr<op::Xor, S, Sco, Sp>,
    {
        self.red::<op::Xor, S>(v)
    }
    /// `red{.sem}{.scope}{.space}.inc.u32`.
    #[inline(always)]
    pub fn red_inc<S: RedSem>(&self, bound: T)
    where
        T: RedInstr<op::Inc, S, Sco, Sp>,
    {
        self.red::<op::Inc, S>(bound)
    }
    /// `red{.sem}{.scope}{.space}.dec.u32`.
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

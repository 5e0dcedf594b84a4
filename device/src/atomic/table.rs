//! The access instructions: the traits [`LdInstr`], [`StInstr`], [`AtomInstr`], [`CasInstr`],
//! [`RedInstr`] — implemented only for the legal (type, semantic, scope, space) combinations —
//! and the `macro_rules!` table of their rows (PTX ISA §9.7.9.8, §9.7.9.10, §9.7.13.5,
//! §9.7.13.6), which gives each row its `PTX` constant here and its `asm!` leaf on the device
//! (`backend/nvptx/access.rs`). The catalog walks the same rows (`access_rows!`).

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
use crate::sem::tok;
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

// ---------------------------------------------------------------------------------------------
// The table. Each `for_*` macro adds one dimension and passes the accumulated row on; a row's
// mnemonic is built once (`ldst_mn!`/`rmw_mn!`) for its `PTX` constant here and its `asm!` leaf
// (`backend/nvptx/access.rs`).
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
        $crate::access_rows! { atom_scalar $leaf }
        $crate::access_rows! { atom_vec $leaf }
    };
    (red $leaf:ident) => {
        $crate::access_rows! { red_scalar $leaf }
        $crate::access_rows! { red_vec $leaf }
    };
    (atom_scalar $leaf:ident) => {
        $crate::for_atom_rows! { $leaf for_rmw_sems }
    };
    (atom_vec $leaf:ident) => {
        $crate::for_atom_vec_rows! { $leaf for_rmw_sems }
    };
    (red_scalar $leaf:ident) => {
        $crate::for_red_rows! { $leaf for_red_sems }
    };
    (red_vec $leaf:ident) => {
        $crate::for_red_vec_rows! { $leaf for_red_sems }
    };
    (cas $leaf:ident) => {
        $crate::for_cas_rows! { $leaf for_rmw_sems }
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

/// `(type, op)` rows of `red`: the `atom` rows without `exch` (PTX ISA §9.7.13.6) — the `atom`
/// list, walked through [`for_red_sems_but_exch!`](crate::for_red_sems_but_exch).
#[doc(hidden)]
#[macro_export]
macro_rules! for_red_rows {
    ($leaf:ident for_red_sems) => {
        $crate::for_atom_rows! { $leaf for_red_sems_but_exch }
    };
}

/// An `atom` row's `red` walk: none for `exch` (PTX has no `red.exch`), `for_red_sems` else.
#[doc(hidden)]
#[macro_export]
macro_rules! for_red_sems_but_exch {
    ($leaf:ident [$t:ident $reg:ident Exch $($rest:tt)*]) => {};
    ($leaf:ident [$($row:tt)*]) => {
        $crate::for_red_sems! { $leaf [$($row)*] }
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

/// A row's mnemonic, built once: its `PTX` constant here and its `asm!` leaf
/// (`backend/nvptx/access.rs`) both paste it. `ldst_mn!("ld" S [generic params] Sco Sp "ty")`
/// (no scope token where the row is generic in the scope); `rmw_mn!("atom" S Sco Sp "op" "ty")`
/// (`cas`: the op `"cas"`).
macro_rules! ldst_mn {
    ($op:literal $S:ident [$($g:tt)*] $Sco:ident $Sp:ident $tt:literal) => {
        concat!($op, tok!($S), sco_tok!([$($g)*] $Sco), tok!($Sp), ".", $tt)
    };
}
#[allow(unused_imports)]
pub(crate) use {ldst_mn, sco_tok};

/// See [`ldst_mn!`].
macro_rules! rmw_mn {
    ($op:literal $S:ident $Sco:ident $Sp:ident $ot:literal $tt:literal) => {
        concat!($op, tok!($S), tok!($Sco), tok!($Sp), ".", $ot, ".", $tt)
    };
}
#[allow(unused_imports)]
pub(crate) use rmw_mn;

// ----- the rows' `PTX` constants (their `asm!` leaves: `backend/nvptx/access.rs`) -----

macro_rules! ld_ptx {
    ($t:ident $tt:literal $reg:ident; $S:ident; [$($g:tt)*] $Sco:ident; $Sp:ident $asm:tt) => {
        unsafe impl<$($g)*> LdInstr<$S, $Sco, $Sp> for $t {
            const PTX: &'static str = ldst_mn!("ld" $S [$($g)*] $Sco $Sp $tt);
        }
    };
}

macro_rules! st_ptx {
    ($t:ident $tt:literal $reg:ident; $S:ident; [$($g:tt)*] $Sco:ident; $Sp:ident $asm:tt) => {
        unsafe impl<$($g)*> StInstr<$S, $Sco, $Sp> for $t {
            const PTX: &'static str = ldst_mn!("st" $S [$($g)*] $Sco $Sp $tt);
        }
    };
}

macro_rules! atom_ptx {
    ($t:ident $reg:ident $O:ident $ot:literal $tt:literal; $S:ident; [] $Sco:ident; $Sp:ident $asm:tt) => {
        unsafe impl AtomInstr<op::$O, $S, $Sco, $Sp> for $t {
            const PTX: &'static str = rmw_mn!("atom" $S $Sco $Sp $ot $tt);
        }
    };
}

macro_rules! cas_ptx {
    ($t:ident $reg:ident $tt:literal; $S:ident; [] $Sco:ident; $Sp:ident $asm:tt) => {
        unsafe impl CasInstr<$S, $Sco, $Sp> for $t {
            const PTX: &'static str = rmw_mn!("atom" $S $Sco $Sp "cas" $tt);
        }
    };
}

macro_rules! red_ptx {
    ($t:ident $reg:ident $O:ident $ot:literal $tt:literal; $S:ident; [] $Sco:ident; $Sp:ident $asm:tt) => {
        unsafe impl RedInstr<op::$O, $S, $Sco, $Sp> for $t {
            const PTX: &'static str = rmw_mn!("red" $S $Sco $Sp $ot $tt);
        }
    };
}

access_rows! { ld ld_ptx }
access_rows! { st st_ptx }
access_rows! { atom atom_ptx }
access_rows! { cas cas_ptx }
access_rows! { red red_ptx }

//! The catalog: every instruction variant this crate can emit, as data.
//!
//! `ptx-sync show` prints it with the SASS of each row; the tests compare each row's `ptx` with a
//! string composed independently from the PTX ISA grammar, and check that a Rust-built kernel
//! instantiating every row contains each `ptx` text and assembles with ptxas.

/// One instruction variant. Fields hold the *Rust* names of the type parameters (`"Acquire"`,
/// `"Gpu"`, `"Global"`), so that a consumer can rebuild the PTX from its own token table; `""`
/// where a dimension does not apply (e.g. the scope of a weak load).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Variant {
    /// Instruction family: `"ld"`, `"st"`, `"atom"`, `"red"`, `"fence"`, ...
    pub family: &'static str,
    /// The operation within the family (`"add"`, `"cas"`; `""` for ld/st/fence).
    pub op: &'static str,
    /// The Rust scalar type (`"u32"`), or `""`.
    pub ty: &'static str,
    /// The semantic marker (`"Acquire"`), or `""`.
    pub sem: &'static str,
    /// The scope marker (`"Gpu"`), or `""`.
    pub scope: &'static str,
    /// The state-space marker (`"Generic"`), or `""`.
    pub space: &'static str,
    /// Further modifiers in Rust terms, for families beyond ld/st/atom/red/fence (`""` here).
    pub extra: &'static str,
    /// The exact PTX mnemonic (what the `asm!` emits, without operands).
    pub ptx: &'static str,
}

impl Variant {
    /// Every field empty: the base a catalog section fills with `Variant { ptx, ..Variant::EMPTY }`.
    pub const EMPTY: Variant = Variant {
        family: "",
        op: "",
        ty: "",
        sem: "",
        scope: "",
        space: "",
        extra: "",
        ptx: "",
    };
}

#[cfg(not(target_arch = "nvptx64"))]
mod walk {
    use super::Variant;
    #[allow(unused_imports)]
    use crate::atomic::{
        for_atom_rows, for_cas_rows, for_ldst_sems, for_ldst_sems_ld, for_ldst_sems_st,
        for_ldst_types, for_red_rows, for_red_sems, for_rmw_sems, for_scopes, for_spaces, op,
        AtomInstr, CasInstr, LdInstr, RedInstr, StInstr,
    };
    use crate::fence::{for_fences, FenceInstr};
    use crate::sem::*;

    macro_rules! scope_of {
        ([] $Sco:ident) => {
            $Sco
        };
        ([$($g:tt)+] $Sco:ident) => {
            Gpu
        };
    }
    macro_rules! scope_name {
        ([] $Sco:ident) => {
            stringify!($Sco)
        };
        ([$($g:tt)+] $Sco:ident) => {
            ""
        };
    }
    macro_rules! v {
        ($fam:literal, $op:expr, $ty:ident, $S:ident, [$($g:tt)*] $Sco:ident, $Sp:ident, $ptx:expr) => {
            Variant {
                family: $fam, op: $op, ty: stringify!($ty), sem: stringify!($S),
                scope: scope_name!([$($g)*] $Sco), space: stringify!($Sp), extra: "", ptx: $ptx,
            }
        };
    }

    pub fn all(f: &mut dyn FnMut(Variant)) {
        macro_rules! ld_v {
            ($t:ident $tt:literal $reg:ident; $S:ident; [$($g:tt)*] $Sco:ident;
             $Sp:ident $rest:tt) => {
                f(v!("ld", "", $t, $S, [$($g)*] $Sco, $Sp,
                     <$t as LdInstr<$S, scope_of!([$($g)*] $Sco), $Sp>>::PTX));
            };
        }
        macro_rules! st_v {
            ($t:ident $tt:literal $reg:ident; $S:ident; [$($g:tt)*] $Sco:ident;
             $Sp:ident $rest:tt) => {
                f(v!("st", "", $t, $S, [$($g)*] $Sco, $Sp,
                     <$t as StInstr<$S, scope_of!([$($g)*] $Sco), $Sp>>::PTX));
            };
        }
        macro_rules! atom_v {
            ($t:ident $reg:ident $O:ident $ot:literal $tt:literal; $S:ident;
             [] $Sco:ident; $Sp:ident $rest:tt) => {
                f(v!("atom", $ot, $t, $S, [] $Sco, $Sp, <$t as AtomInstr<op::$O, $S, $Sco, $Sp>>::PTX));
            };
        }
        macro_rules! cas_v {
            ($t:ident $reg:ident $tt:literal; $S:ident;
             [] $Sco:ident; $Sp:ident $rest:tt) => {
                f(v!("atom", "cas", $t, $S, [] $Sco, $Sp, <$t as CasInstr<$S, $Sco, $Sp>>::PTX));
            };
        }
        macro_rules! red_v {
            ($t:ident $reg:ident $O:ident $ot:literal $tt:literal; $S:ident;
             [] $Sco:ident; $Sp:ident $rest:tt) => {
                f(v!("red", $ot, $t, $S, [] $Sco, $Sp, <$t as RedInstr<op::$O, $S, $Sco, $Sp>>::PTX));
            };
        }
        macro_rules! fence_v {
            ($S:ident, $Sco:ident) => {
                f(Variant {
                    family: "fence",
                    op: "",
                    ty: "",
                    sem: stringify!($S),
                    scope: stringify!($Sco),
                    space: "",
                    extra: "",
                    ptx: <$S as FenceInstr<$Sco>>::PTX,
                });
            };
        }
        for_ldst_types! { ld_v for_ldst_sems_ld }
        for_ldst_types! { st_v for_ldst_sems_st }
        for_atom_rows! { atom_v for_rmw_sems }
        for_cas_rows! { cas_v for_rmw_sems }
        for_red_rows! { red_v for_red_sems }
        for_fences! { fence_v }
        for ext in crate::catalog::EXTENSIONS {
            ext(f);
        }
    }
}

/// Calls `f` once for every instruction variant of the crate, in the seed's order
/// (ld, st, atom, red, fence, then barriers, mbarrier, async copies).
#[cfg(not(target_arch = "nvptx64"))]
pub fn for_each_variant(mut f: impl FnMut(Variant)) {
    walk::all(&mut f)
}

/// Catalog sections contributed by the other modules (barrier, mbarrier, copy, ...): each
/// function calls `f` for its rows.
#[cfg(not(target_arch = "nvptx64"))]
pub(crate) const EXTENSIONS: &[fn(&mut dyn FnMut(Variant))] = &[
    crate::barrier::catalog_rows,
    crate::cluster::catalog_rows,
    crate::mbarrier::catalog_rows,
    crate::proxy::catalog_rows,
    crate::copy::catalog_rows,
];

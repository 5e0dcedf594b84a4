//! The access family's `asm!` leaves (nvptx64): for every row of the access tables
//! (`device/isa/{ld,st,atom,red}.rows`, walked with the generated `access_rows!`), the impl of
//! its leaf trait ([`LdLeaf`], [`StLeaf`], [`AtomLeaf`], [`CasLeaf`], [`RedLeaf`]) with the
//! row's inline PTX — the mnemonic the generator spelled, the last token of the row (the same
//! text as the row's generated `PTX` constant),
//! the address converted with `cvta.to.<space>` where the row names a space. The instruction
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

macro_rules! ld_leaf {
    (u128 $tt:literal reg128; $S:ident; [$($g:tt)*] $Sco:ident;
     $Sp:ident ([$($cv:tt)*] ($dir:tt $($tail:tt)*) $mn:literal $pre:literal $ops:literal $post:literal)) => {
        unsafe impl<$($g)*> LdLeaf<$S, $Sco, $Sp> for u128 {
            #[inline(always)]
            unsafe fn ld(p: *const Self) -> Self { unsafe {
                let (lo, hi): (u64, u64);
                asm!(concat!($($cv)*, $pre, $mn, $ops, ";", $post),
                     lo = out(reg64) lo, hi = out(reg64) hi, p = $dir(reg64) p $($tail)*,
                     options(nostack, preserves_flags));
                (lo as u128) | ((hi as u128) << 64)
            }}
        }
    };
    ($t:ident $tt:literal v2reg32; $($rest:tt)*) => { ld_leaf! { @vec2 reg32 $t $tt; $($rest)* } };
    ($t:ident $tt:literal v4reg32; $($rest:tt)*) => { ld_leaf! { @vec4 reg32 $t $tt; $($rest)* } };
    ($t:ident $tt:literal v2reg64; $($rest:tt)*) => { ld_leaf! { @vec2 reg64 $t $tt; $($rest)* } };
    ($t:ident $tt:literal v2reg16; $($rest:tt)*) => { ld_leaf! { @vec2 reg16 $t $tt; $($rest)* } };
    ($t:ident $tt:literal v4reg16; $($rest:tt)*) => { ld_leaf! { @vec4 reg16 $t $tt; $($rest)* } };
    (@vec2 $reg:ident $t:ident $tt:literal; $S:ident; [$($g:tt)*] $Sco:ident;
     $Sp:ident ([$($cv:tt)*] ($dir:tt $($tail:tt)*) $mn:literal $pre:literal $ops:literal $post:literal)) => {
        unsafe impl<$($g)*> LdLeaf<$S, $Sco, $Sp> for $t {
            #[inline(always)]
            unsafe fn ld(p: *const Self) -> Self { unsafe {
                let (a, b): (VRaw<$t>, VRaw<$t>);
                asm!(concat!($($cv)*, $pre, $mn, $ops, ";", $post),
                     v0 = out($reg) a, v1 = out($reg) b, p = $dir(reg64) p $($tail)*,
                     options(nostack, preserves_flags));
                Vector([a, b].map(Scalar::from_raw))
            }}
        }
    };
    (@vec4 $reg:ident $t:ident $tt:literal; $S:ident; [$($g:tt)*] $Sco:ident;
     $Sp:ident ([$($cv:tt)*] ($dir:tt $($tail:tt)*) $mn:literal $pre:literal $ops:literal $post:literal)) => {
        unsafe impl<$($g)*> LdLeaf<$S, $Sco, $Sp> for $t {
            #[inline(always)]
            unsafe fn ld(p: *const Self) -> Self { unsafe {
                let (a, b, c, d): (VRaw<$t>, VRaw<$t>, VRaw<$t>, VRaw<$t>);
                asm!(concat!($($cv)*, $pre, $mn, $ops, ";", $post),
                     v0 = out($reg) a, v1 = out($reg) b, v2 = out($reg) c, v3 = out($reg) d,
                     p = $dir(reg64) p $($tail)*, options(nostack, preserves_flags));
                Vector([a, b, c, d].map(Scalar::from_raw))
            }}
        }
    };
    ($t:ident $tt:literal $reg:ident; $S:ident; [$($g:tt)*] $Sco:ident;
     $Sp:ident ([$($cv:tt)*] ($dir:tt $($tail:tt)*) $mn:literal $pre:literal $ops:literal $post:literal)) => {
        ld_leaf! { @ $t $reg $S [$($g)*] $Sco $Sp
                   ([$($cv)*] ($dir $($tail)*) $mn $pre $ops $post) }
    };
    (@ $t:ident $reg:ident Weak [$($g:tt)*] $Sco:ident $Sp:ident
     ([$($cv:tt)*] ($dir:tt $($tail:tt)*) $mn:literal $pre:literal $ops:literal $post:literal)) => {
        unsafe impl<$($g)*> LdLeaf<Weak, $Sco, $Sp> for $t {
            #[inline(always)]
            unsafe fn ld(p: *const Self) -> Self { unsafe {
                let v: <$t as Scalar>::Raw;
                // A weak load is `pure`: the compiler may merge or hoist it, as the PTX memory
                // model allows for weak reads (seed §3.5).
                asm!(concat!($($cv)*, $pre, $mn, $ops, ";", $post), v = out($reg) v,
                     p = $dir(reg64) p $($tail)*, options(pure, readonly, nostack, preserves_flags));
                <$t as Scalar>::from_raw(v)
            }}
        }
    };
    (@ $t:ident $reg:ident $S:ident [$($g:tt)*] $Sco:ident $Sp:ident
     ([$($cv:tt)*] ($dir:tt $($tail:tt)*) $mn:literal $pre:literal $ops:literal $post:literal)) => {
        unsafe impl<$($g)*> LdLeaf<$S, $Sco, $Sp> for $t {
            #[inline(always)]
            unsafe fn ld(p: *const Self) -> Self { unsafe {
                let v: <$t as Scalar>::Raw;
                asm!(concat!($($cv)*, $pre, $mn, $ops, ";", $post), v = out($reg) v,
                     p = $dir(reg64) p $($tail)*, options(nostack, preserves_flags));
                <$t as Scalar>::from_raw(v)
            }}
        }
    };
}

macro_rules! st_leaf {
    (u128 $tt:literal reg128; $S:ident; [$($g:tt)*] $Sco:ident;
     $Sp:ident ([$($cv:tt)*] ($dir:tt $($tail:tt)*) $mn:literal $pre:literal $ops:literal $post:literal)) => {
        unsafe impl<$($g)*> StLeaf<$S, $Sco, $Sp> for u128 {
            #[inline(always)]
            unsafe fn st(p: *mut Self, v: Self) { unsafe {
                asm!(concat!($($cv)*, $pre, $mn, $ops, ";", $post),
                     lo = in(reg64) v as u64, hi = in(reg64) (v >> 64) as u64, p = $dir(reg64) p $($tail)*,
                     options(nostack, preserves_flags));
            }}
        }
    };
    ($t:ident $tt:literal v2reg32; $($rest:tt)*) => { st_leaf! { @vec2 reg32 $t $tt; $($rest)* } };
    ($t:ident $tt:literal v4reg32; $($rest:tt)*) => { st_leaf! { @vec4 reg32 $t $tt; $($rest)* } };
    ($t:ident $tt:literal v2reg64; $($rest:tt)*) => { st_leaf! { @vec2 reg64 $t $tt; $($rest)* } };
    ($t:ident $tt:literal v2reg16; $($rest:tt)*) => { st_leaf! { @vec2 reg16 $t $tt; $($rest)* } };
    ($t:ident $tt:literal v4reg16; $($rest:tt)*) => { st_leaf! { @vec4 reg16 $t $tt; $($rest)* } };
    (@vec2 $reg:ident $t:ident $tt:literal; $S:ident; [$($g:tt)*] $Sco:ident;
     $Sp:ident ([$($cv:tt)*] ($dir:tt $($tail:tt)*) $mn:literal $pre:literal $ops:literal $post:literal)) => {
        unsafe impl<$($g)*> StLeaf<$S, $Sco, $Sp> for $t {
            #[inline(always)]
            unsafe fn st(p: *mut Self, v: Self) { unsafe {
                asm!(concat!($($cv)*, $pre, $mn, $ops, ";", $post),
                     v0 = in($reg) v.0[0].to_raw(), v1 = in($reg) v.0[1].to_raw(), p = $dir(reg64) p $($tail)*,
                     options(nostack, preserves_flags));
            }}
        }
    };
    (@vec4 $reg:ident $t:ident $tt:literal; $S:ident; [$($g:tt)*] $Sco:ident;
     $Sp:ident ([$($cv:tt)*] ($dir:tt $($tail:tt)*) $mn:literal $pre:literal $ops:literal $post:literal)) => {
        unsafe impl<$($g)*> StLeaf<$S, $Sco, $Sp> for $t {
            #[inline(always)]
            unsafe fn st(p: *mut Self, v: Self) { unsafe {
                asm!(concat!($($cv)*, $pre, $mn, $ops, ";", $post),
                     v0 = in($reg) v.0[0].to_raw(), v1 = in($reg) v.0[1].to_raw(), v2 = in($reg) v.0[2].to_raw(),
                     v3 = in($reg) v.0[3].to_raw(),
                     p = $dir(reg64) p $($tail)*, options(nostack, preserves_flags));
            }}
        }
    };
    ($t:ident $tt:literal $reg:ident; $S:ident; [$($g:tt)*] $Sco:ident;
     $Sp:ident ([$($cv:tt)*] ($dir:tt $($tail:tt)*) $mn:literal $pre:literal $ops:literal $post:literal)) => {
        st_leaf! { @ $t $reg $S [$($g)*] $Sco $Sp
                   ([$($cv)*] ($dir $($tail)*) $mn $pre $ops $post) }
    };
    (@ $t:ident $reg:ident $S:ident [$($g:tt)*] $Sco:ident $Sp:ident
     ([$($cv:tt)*] ($dir:tt $($tail:tt)*) $mn:literal $pre:literal $ops:literal $post:literal)) => {
        unsafe impl<$($g)*> StLeaf<$S, $Sco, $Sp> for $t {
            #[inline(always)]
            unsafe fn st(p: *mut Self, v: Self) { unsafe {
                asm!(concat!($($cv)*, $pre, $mn, $ops, ";", $post), v = in($reg) v.to_raw(),
                     p = $dir(reg64) p $($tail)*, options(nostack, preserves_flags));
            }}
        }
    };
}

/// The `asm!` of a vector `atom` (`out`: returns the old vector) or `red` (`none`) of `$t`'s
/// elements in `$reg` registers (`f32`: `reg32`; the halves: their bits, `reg16`/`reg32`):
/// `{d0}`… the old values, `{b0}`… the operand's elements.
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
type VRaw<V> = <<V as VectorElem>::E as Scalar>::Raw;

macro_rules! atom_leaf {
    ($t:ident v2reg32 $($rest:tt)*) => { atom_leaf! { @vec 2 reg32 $t $($rest)* } };
    ($t:ident v4reg32 $($rest:tt)*) => { atom_leaf! { @vec 4 reg32 $t $($rest)* } };
    ($t:ident v2reg16 $($rest:tt)*) => { atom_leaf! { @vec 2 reg16 $t $($rest)* } };
    ($t:ident v4reg16 $($rest:tt)*) => { atom_leaf! { @vec 4 reg16 $t $($rest)* } };
    ($t:ident v8reg16 $($rest:tt)*) => { atom_leaf! { @vec 8 reg16 $t $($rest)* } };
    (@vec $n:tt $vr:ident $t:ident $O:ident $ot:literal $tt:literal; $S:ident;
     [] $Sco:ident; $Sp:ident ([$($cv:tt)*] ($dir:tt $($tail:tt)*) $mn:literal $pre:literal $ops:literal $post:literal)) => {
        unsafe impl AtomLeaf<op::$O, $S, $Sco, $Sp> for $t {
            #[inline(always)]
            unsafe fn atom(p: *mut Self, b: Self) -> Self { unsafe {
                vec_asm!($n out $vr $t; concat!($($cv)*, $pre, $mn, $ops, ";", $post), b, p = $dir(reg64) p $($tail)*)
            }}
        }
    };
    (u128 reg128 $O:ident $ot:literal $tt:literal; $S:ident;
     [] $Sco:ident; $Sp:ident ([$($cv:tt)*] ($dir:tt $($tail:tt)*) $mn:literal $pre:literal $ops:literal $post:literal)) => {
        unsafe impl AtomLeaf<op::$O, $S, $Sco, $Sp> for u128 {
            #[inline(always)]
            unsafe fn atom(p: *mut Self, b: Self) -> Self { unsafe {
                let (lo, hi): (u64, u64);
                asm!(concat!($($cv)*, $pre, $mn, $ops, ";", $post),
                     lo = out(reg64) lo, hi = out(reg64) hi, p = $dir(reg64) p $($tail)*,
                     blo = in(reg64) b as u64, bhi = in(reg64) (b >> 64) as u64,
                     options(nostack, preserves_flags));
                (lo as u128) | ((hi as u128) << 64)
            }}
        }
    };
    ($t:ident $reg:ident $O:ident $ot:literal $tt:literal; $S:ident;
     [] $Sco:ident; $Sp:ident ([$($cv:tt)*] ($dir:tt $($tail:tt)*) $mn:literal $pre:literal $ops:literal $post:literal)) => {
        atom_leaf! { @ $t $reg $O $S $Sco $Sp
                     ([$($cv)*] ($dir $($tail)*) $mn $pre $ops $post) }
    };
    (@ $t:ident $reg:ident $O:ident $S:ident $Sco:ident $Sp:ident
     ([$($cv:tt)*] ($dir:tt $($tail:tt)*) $mn:literal $pre:literal $ops:literal $post:literal)) => {
        unsafe impl AtomLeaf<op::$O, $S, $Sco, $Sp> for $t {
            #[inline(always)]
            unsafe fn atom(p: *mut Self, b: Self) -> Self { unsafe {
                let d: <$t as Scalar>::Raw;
                asm!(concat!($($cv)*, $pre, $mn, $ops, ";", $post), d = out($reg) d,
                     p = $dir(reg64) p $($tail)*, b = in($reg) b.to_raw(), options(nostack, preserves_flags));
                <$t as Scalar>::from_raw(d)
            }}
        }
    };
}

macro_rules! cas_leaf {
    (u128 reg128 $tt:literal; $S:ident;
     [] $Sco:ident; $Sp:ident ([$($cv:tt)*] ($dir:tt $($tail:tt)*) $mn:literal $pre:literal $ops:literal $post:literal)) => {
        unsafe impl CasLeaf<$S, $Sco, $Sp> for u128 {
            #[inline(always)]
            unsafe fn cas(p: *mut Self, cmp: Self, new: Self) -> Self { unsafe {
                let (lo, hi): (u64, u64);
                asm!(concat!($($cv)*, $pre, $mn, $ops, ";", $post),
                     lo = out(reg64) lo, hi = out(reg64) hi, p = $dir(reg64) p $($tail)*,
                     blo = in(reg64) cmp as u64, bhi = in(reg64) (cmp >> 64) as u64,
                     clo = in(reg64) new as u64, chi = in(reg64) (new >> 64) as u64,
                     options(nostack, preserves_flags));
                (lo as u128) | ((hi as u128) << 64)
            }}
        }
    };
    ($t:ident $reg:ident $tt:literal; $S:ident;
     [] $Sco:ident; $Sp:ident ([$($cv:tt)*] ($dir:tt $($tail:tt)*) $mn:literal $pre:literal $ops:literal $post:literal)) => {
        cas_leaf! { @ $t $reg $S $Sco $Sp
                    ([$($cv)*] ($dir $($tail)*) $mn $pre $ops $post) }
    };
    (@ $t:ident $reg:ident $S:ident $Sco:ident $Sp:ident
     ([$($cv:tt)*] ($dir:tt $($tail:tt)*) $mn:literal $pre:literal $ops:literal $post:literal)) => {
        unsafe impl CasLeaf<$S, $Sco, $Sp> for $t {
            #[inline(always)]
            unsafe fn cas(p: *mut Self, cmp: Self, new: Self) -> Self { unsafe {
                let d: <$t as Scalar>::Raw;
                asm!(concat!($($cv)*, $pre, $mn, $ops, ";", $post), d = out($reg) d,
                     p = $dir(reg64) p $($tail)*, b = in($reg) cmp.to_raw(), c = in($reg) new.to_raw(),
                     options(nostack, preserves_flags));
                <$t as Scalar>::from_raw(d)
            }}
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
     [] $Sco:ident; $Sp:ident ([$($cv:tt)*] ($dir:tt $($tail:tt)*) $mn:literal $pre:literal $ops:literal $post:literal)) => {
        unsafe impl RedLeaf<op::$O, $S, $Sco, $Sp> for $t {
            #[inline(always)]
            unsafe fn red(p: *mut Self, b: Self) { unsafe {
                vec_asm!($n none $vr $t; concat!($($cv)*, $pre, $mn, $ops, ";", $post), b, p = $dir(reg64) p $($tail)*)
            }}
        }
    };
    ($t:ident $reg:ident $O:ident $ot:literal $tt:literal; $S:ident;
     [] $Sco:ident; $Sp:ident ([$($cv:tt)*] ($dir:tt $($tail:tt)*) $mn:literal $pre:literal $ops:literal $post:literal)) => {
        red_leaf! { @ $t $reg $O $S $Sco $Sp
                    ([$($cv)*] ($dir $($tail)*) $mn $pre $ops $post) }
    };
    (@ $t:ident $reg:ident $O:ident $S:ident $Sco:ident $Sp:ident
     ([$($cv:tt)*] ($dir:tt $($tail:tt)*) $mn:literal $pre:literal $ops:literal $post:literal)) => {
        unsafe impl RedLeaf<op::$O, $S, $Sco, $Sp> for $t {
            #[inline(always)]
            unsafe fn red(p: *mut Self, b: Self) { unsafe {
                asm!(concat!($($cv)*, $pre, $mn, $ops, ";", $post), p = $dir(reg64) p $($tail)*,
                     b = in($reg) b.to_raw(), options(nostack, preserves_flags));
            }}
        }
    };
}

access_rows! { ld ld_leaf }
access_rows! { st st_leaf }
access_rows! { atom atom_leaf }
access_rows! { cas cas_leaf }
access_rows! { red red_leaf }

//! The catalog kernels: one call of every instruction variant of `ptx-sync`, so that the test
//! suite can check that each variant's `PTX` text appears in the Rust-built PTX and that ptxas
//! accepts all of them. The lists below are written here, by hand, independently of the device
//! crate's macro tables: a variant the tables have and this file lacks fails the test.
//! The kernels are assembled, never launched (the Shared/SharedCluster rows get a global pointer).

use ptx_sync::atomic::{op, AtomInstr, CasInstr, LdInstr, RedInstr, StInstr};
use ptx_sync::fence::FenceInstr;
use ptx_sync::sem::*;
use ptx_sync::*;

/// Cartesian product of bracketed lists; calls `$f!(a b c ...)` once per combination.
macro_rules! cart {
    ($f:ident $done:tt []) => { cart!(@call $f $done); };
    ($f:ident $done:tt [[$($x:tt)*] $($more:tt)*]) => { cart!(@each $f $done [$($more)*] $($x)*); };
    (@each $f:ident $done:tt $rest:tt $($x:tt)*) => { $( cart!(@push $f $done $x $rest); )* };
    (@push $f:ident [$($d:tt)*] $x:tt $rest:tt) => { cart!($f [$($d)* $x] $rest); };
    (@call $f:ident [$($d:tt)*]) => { $f!($($d)*); };
}

#[inline(always)]
fn r<'a, T: Scalar, Scp: Scope, Sp: Space>(p: *mut u64) -> AtomicRef<'a, T, Scp, Sp> {
    unsafe { AtomicRef::from_ptr(p as *mut T) }
}

#[inline(always)]
fn keep<T: Copy>(out: *mut u64, v: T) {
    unsafe { core::ptr::write_volatile(out as *mut T, v) }
}

#[inline(always)]
fn ld<T: Scalar + LdInstr<S, Scp, Sp>, S: LoadSem, Scp: Scope, Sp: Space>(p: *mut u64, out: *mut u64) {
    keep(out, r::<T, Scp, Sp>(p).load::<S>());
}
#[inline(always)]
fn st<T: Scalar + StInstr<S, Scp, Sp>, S: StoreSem, Scp: Scope, Sp: Space>(p: *mut u64) {
    r::<T, Scp, Sp>(p).store::<S>(T::default());
}
#[inline(always)]
fn cas<T: Scalar + CasInstr<S, Scp, Sp>, S: RmwSem, Scp: Scope, Sp: Space>(p: *mut u64, out: *mut u64) {
    let v = match r::<T, Scp, Sp>(p).compare_exchange::<S>(T::default(), T::default()) { Ok(v) | Err(v) => v };
    keep(out, v);
}

/// `ld` rows: every type × {Weak, Volatile, Relaxed, Acquire} × scope × space.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn catalog_ld(p: *mut u64, out: *mut u64) {
    macro_rules! one { ($t:ident $s:ident $c:ident $sp:ident) => { ld::<$t, $s, $c, $sp>(p, out); }; }
    cart!(one [] [[u32 i32 u64 i64 f32 f64] [Weak Volatile Relaxed Acquire] [Cta Cluster Gpu Sys] [Generic Global Shared SharedCluster]]);
}

/// `st` rows: every type × {Weak, Volatile, Relaxed, Release} × scope × space.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn catalog_st(p: *mut u64) {
    macro_rules! one { ($t:ident $s:ident $c:ident $sp:ident) => { st::<$t, $s, $c, $sp>(p); }; }
    cart!(one [] [[u32 i32 u64 i64 f32 f64] [Weak Volatile Relaxed Release] [Cta Cluster Gpu Sys] [Generic Global Shared SharedCluster]]);
}

/// The public method of each `atom`/`red` op.
macro_rules! call {
    (atom Add $a:ident $s:ident) => { $a.fetch_add::<$s>(Default::default()) };
    (atom Min $a:ident $s:ident) => { $a.fetch_min::<$s>(Default::default()) };
    (atom Max $a:ident $s:ident) => { $a.fetch_max::<$s>(Default::default()) };
    (atom And $a:ident $s:ident) => { $a.fetch_and::<$s>(Default::default()) };
    (atom Or $a:ident $s:ident) => { $a.fetch_or::<$s>(Default::default()) };
    (atom Xor $a:ident $s:ident) => { $a.fetch_xor::<$s>(Default::default()) };
    (atom Exch $a:ident $s:ident) => { $a.swap::<$s>(Default::default()) };
    (atom Inc $a:ident $s:ident) => { $a.fetch_inc::<$s>(Default::default()) };
    (atom Dec $a:ident $s:ident) => { $a.fetch_dec::<$s>(Default::default()) };
    (red Add $a:ident $s:ident) => { $a.red_add::<$s>(Default::default()) };
    (red Min $a:ident $s:ident) => { $a.red_min::<$s>(Default::default()) };
    (red Max $a:ident $s:ident) => { $a.red_max::<$s>(Default::default()) };
    (red And $a:ident $s:ident) => { $a.red_and::<$s>(Default::default()) };
    (red Or $a:ident $s:ident) => { $a.red_or::<$s>(Default::default()) };
    (red Xor $a:ident $s:ident) => { $a.red_xor::<$s>(Default::default()) };
    (red Inc $a:ident $s:ident) => { $a.red_inc::<$s>(Default::default()) };
    (red Dec $a:ident $s:ident) => { $a.red_dec::<$s>(Default::default()) };
}

/// `atom` rows (PTX ISA §9.7.13.5): u32 has every op; i32/u64/i64 all but inc/dec; floats add
/// and exch; each × {Relaxed, Acquire, Release, AcqRel} × scope × space; plus `cas` on every type.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn catalog_atom(p: *mut u64, out: *mut u64) {
    macro_rules! one {
        ($t:ident $o:ident $s:ident $c:ident $sp:ident) => {{
            let a = r::<$t, $c, $sp>(p);
            keep(out, call!(atom $o a $s));
        }};
    }
    macro_rules! one_cas { ($t:ident $s:ident $c:ident $sp:ident) => { cas::<$t, $s, $c, $sp>(p, out); }; }
    const _: () = ();
    cart!(one [] [[u32] [Add Min Max And Or Xor Exch Inc Dec] [Relaxed Acquire Release AcqRel] [Cta Cluster Gpu Sys] [Generic Global Shared SharedCluster]]);
    cart!(one [] [[i32 u64 i64] [Add Min Max And Or Xor Exch] [Relaxed Acquire Release AcqRel] [Cta Cluster Gpu Sys] [Generic Global Shared SharedCluster]]);
    cart!(one [] [[f32 f64] [Add Exch] [Relaxed Acquire Release AcqRel] [Cta Cluster Gpu Sys] [Generic Global Shared SharedCluster]]);
    cart!(one_cas [] [[u32 i32 u64 i64 f32 f64] [Relaxed Acquire Release AcqRel] [Cta Cluster Gpu Sys] [Generic Global Shared SharedCluster]]);
}

/// `red` rows (PTX ISA §9.7.13.6): the atom ops without exch, × {Relaxed, Release}.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn catalog_red(p: *mut u64) {
    macro_rules! one {
        ($t:ident $o:ident $s:ident $c:ident $sp:ident) => {{
            let a = r::<$t, $c, $sp>(p);
            call!(red $o a $s);
        }};
    }
    cart!(one [] [[u32] [Add Min Max And Or Xor Inc Dec] [Relaxed Release] [Cta Cluster Gpu Sys] [Generic Global Shared SharedCluster]]);
    cart!(one [] [[i32 u64 i64] [Add Min Max And Or Xor] [Relaxed Release] [Cta Cluster Gpu Sys] [Generic Global Shared SharedCluster]]);
    cart!(one [] [[f32 f64] [Add] [Relaxed Release] [Cta Cluster Gpu Sys] [Generic Global Shared SharedCluster]]);
}

/// `fence` rows: {Sc, AcqRel, Acquire, Release} × scope.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn catalog_fence() {
    macro_rules! one { ($s:ident $c:ident) => { fence::<$s, $c>(); }; }
    cart!(one [] [[Sc AcqRel Acquire Release] [Cta Cluster Gpu Sys]]);
}

#[allow(unused)]
fn _uses() -> (&'static str, &'static str, &'static str) {
    (<u32 as RedInstr<op::Add, Relaxed, Gpu, Generic>>::PTX, <Sc as FenceInstr<Gpu>>::PTX,
     <u32 as AtomInstr<op::Add, Relaxed, Gpu, Generic>>::PTX)
}

//! The catalog kernels: one call of every instruction variant of `ptx-sync`, so that the test
//! suite can check that each variant's `PTX` text appears in the Rust-built PTX and that ptxas
//! accepts all of them. The rows come from the device crate's own tables
//! (`ptx_sync::access_rows!`), so a new row is instantiated here without an edit; each row is
//! called through its public method (`load`, `fetch_add`, …), so the test checks the text the
//! code users call emits. That the tables hold exactly the legal set is checked independently
//! against the PTX ISA grammar by `device/tests/strings.rs`.
//! The kernels are assembled, never launched (the Shared/SharedCluster rows get a global pointer).

use ptx_sync::atomic::vector::{
    V2Bf16, V2Bf16x2, V2F16x2, V4Bf16, V4Bf16x2, V4F16x2, V8Bf16, V2F16, V4F16, V8F16,
};
use ptx_sync::atomic::vector::{V2F32, V2F64, V2U32, V2U64, V4F32, V4U32};
use ptx_sync::atomic::vector::{V2I16, V2I32, V2I64, V2U16, V4I16, V4I32, V4U16};
use ptx_sync::atomic::{op, AtomInstr, CasInstr, LdInstr, RedInstr, StInstr};
use ptx_sync::fence::FenceInstr;
use ptx_sync::sem::*;
use ptx_sync::*;

#[inline(always)]
fn r<'a, T: Scalar, Scp: Scope, Sp: Space>(p: *mut u64) -> AtomicRef<'a, T, Scp, Sp> {
    unsafe { AtomicRef::from_ptr(p as *mut T) }
}

#[inline(always)]
fn keep<T: Copy>(out: *mut u64, v: T) {
    unsafe { core::ptr::write_volatile(out as *mut T, v) }
}

#[inline(always)]
fn ld<T: Scalar + LdInstr<S, Scp, Sp>, S: LoadSem, Scp: Scope, Sp: Space>(
    p: *mut u64,
    out: *mut u64,
) {
    keep(out, r::<T, Scp, Sp>(p).load::<S>());
}
#[inline(always)]
fn st<T: Scalar + StInstr<S, Scp, Sp>, S: StoreSem, Scp: Scope, Sp: Space>(p: *mut u64) {
    r::<T, Scp, Sp>(p).store::<S>(T::default());
}
#[inline(always)]
fn cas<T: Scalar + CasInstr<S, Scp, Sp>, S: RmwSem, Scp: Scope, Sp: Space>(
    p: *mut u64,
    out: *mut u64,
) {
    let v = match r::<T, Scp, Sp>(p).compare_exchange::<S>(T::default(), T::default()) {
        Ok(v) | Err(v) => v,
    };
    keep(out, v);
}

/// The scope a row is instantiated at: its own, or `Gpu` for the scope-less Weak/Volatile rows.
macro_rules! scope_of {
    ([] $Sco:ident) => {
        $Sco
    };
    ([$($g:tt)+] $Sco:ident) => {
        Gpu
    };
}

/// `ld` rows: every row of the device table (`ptx_sync::access_rows!(ld …)`).
#[no_mangle]
pub unsafe extern "ptx-kernel" fn catalog_ld(p: *mut u64, out: *mut u64) {
    macro_rules! one {
        ($t:ident $tt:literal $reg:ident; $S:ident; [$($g:tt)*] $Sco:ident; $Sp:ident) => {
            ld::<$t, $S, scope_of!([$($g)*] $Sco), $Sp>(p, out);
        };
    }
    ptx_sync::access_rows! { ld one }
}

/// `st` rows: every row of the device table.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn catalog_st(p: *mut u64) {
    macro_rules! one {
        ($t:ident $tt:literal $reg:ident; $S:ident; [$($g:tt)*] $Sco:ident; $Sp:ident) => {
            st::<$t, $S, scope_of!([$($g)*] $Sco), $Sp>(p);
        };
    }
    ptx_sync::access_rows! { st one }
}

/// The public method of each `atom`/`red` op.
macro_rules! call {
    (atom Add $a:ident $s:ident) => {
        $a.fetch_add::<$s>(Default::default())
    };
    (atom Min $a:ident $s:ident) => {
        $a.fetch_min::<$s>(Default::default())
    };
    (atom Max $a:ident $s:ident) => {
        $a.fetch_max::<$s>(Default::default())
    };
    (atom And $a:ident $s:ident) => {
        $a.fetch_and::<$s>(Default::default())
    };
    (atom Or $a:ident $s:ident) => {
        $a.fetch_or::<$s>(Default::default())
    };
    (atom Xor $a:ident $s:ident) => {
        $a.fetch_xor::<$s>(Default::default())
    };
    (atom Exch $a:ident $s:ident) => {
        $a.swap::<$s>(Default::default())
    };
    (atom Inc $a:ident $s:ident) => {
        $a.fetch_inc::<$s>(Default::default())
    };
    (atom Dec $a:ident $s:ident) => {
        $a.fetch_dec::<$s>(Default::default())
    };
    (red Add $a:ident $s:ident) => {
        $a.red_add::<$s>(Default::default())
    };
    (red Min $a:ident $s:ident) => {
        $a.red_min::<$s>(Default::default())
    };
    (red Max $a:ident $s:ident) => {
        $a.red_max::<$s>(Default::default())
    };
    (red And $a:ident $s:ident) => {
        $a.red_and::<$s>(Default::default())
    };
    (red Or $a:ident $s:ident) => {
        $a.red_or::<$s>(Default::default())
    };
    (red Xor $a:ident $s:ident) => {
        $a.red_xor::<$s>(Default::default())
    };
    (red Inc $a:ident $s:ident) => {
        $a.red_inc::<$s>(Default::default())
    };
    (red Dec $a:ident $s:ident) => {
        $a.red_dec::<$s>(Default::default())
    };
}

/// `atom` rows and `cas` rows: every row of the device table, each through its public method.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn catalog_atom(p: *mut u64, out: *mut u64) {
    macro_rules! one {
        ($t:ident $reg:ident $o:ident $ot:literal $tt:literal; $s:ident; [] $c:ident; $sp:ident) => {{
            let a = r::<$t, $c, $sp>(p);
            keep(out, call!(atom $o a $s));
        }};
    }
    macro_rules! one_cas {
        ($t:ident $reg:ident $tt:literal; $s:ident; [] $c:ident; $sp:ident) => {
            cas::<$t, $s, $c, $sp>(p, out);
        };
    }
    ptx_sync::access_rows! { atom one }
    ptx_sync::access_rows! { cas one_cas }
}

/// `red` rows: every row of the device table.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn catalog_red(p: *mut u64) {
    macro_rules! one {
        ($t:ident $reg:ident $o:ident $ot:literal $tt:literal; $s:ident; [] $c:ident; $sp:ident) => {{
            let a = r::<$t, $c, $sp>(p);
            call!(red $o a $s);
        }};
    }
    ptx_sync::access_rows! { red one }
}

/// `fence` rows: every row of the device table.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn catalog_fence() {
    macro_rules! one {
        ($s:ident, $c:ident) => {
            fence::<$s, $c>();
        };
    }
    ptx_sync::access_rows! { fence one }
}

#[allow(unused)]
fn _uses() -> (&'static str, &'static str, &'static str) {
    (
        <u32 as RedInstr<op::Add, Relaxed, Gpu, Generic>>::PTX,
        <Sc as FenceInstr<Gpu>>::PTX,
        <u32 as AtomInstr<op::Add, Relaxed, Gpu, Generic>>::PTX,
    )
}

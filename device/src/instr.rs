//! The one-text rule for the async modules ([`barrier`](crate::barrier) … [`pipeline`](crate::pipeline)).
//!
//! # How the instruction tables are built (issue #9)
//!
//! The tables are `macro_rules!` tables, no build script and no proc macro (nothing to install,
//! nothing generated on disk that could drift). Two layers:
//!
//! * **Tokens once.** Every modifier token (`.acquire`, `.gpu`, `.shared::cta`, `.aligned`, …)
//!   is spelled in exactly one place, the `tok!` table of [`sem`](crate::sem). The marker types'
//!   `PTX` constants are `tok!(Name)`, and each family composes its mnemonic with
//!   `concat!("ld", tok!($S), tok!($Sco), tok!($Sp), ".", type)`. `asm!` needs a literal template
//!   and `concat!` cannot read a `const`, so the token table is a macro that both the constants
//!   and the templates expand.
//! * **One row per instruction.** Each family's rows (`for_atom_rows!`, `for_fences!`,
//!   `instr!`, …) pass their markers to a leaf macro that writes the trait impl and its `asm!`
//!   from the same concatenation; the catalog ([`crate::catalog`]) walks the same rows.
//!
//! Every instruction that has no type parameters is a unit struct implementing [`Instr`]; its
//! mnemonic is built once by the private `instr!` macro and pasted both into [`Instr::PTX`] and
//! into the `asm!` template of the struct's hidden `exec` functions. Instructions with type
//! parameters (semantic, scope, space) follow `atomic.rs`: a per-family trait with associated
//! `PTX` constants, implemented only for the legal combinations.

/// An instruction without type parameters: its exact PTX mnemonic (no operands, no `;`).
pub trait Instr {
    /// The exact mnemonic emitted, e.g. `"mbarrier.init.shared::cta.b64"`.
    const PTX: &'static str;
    /// The Rust name of the marker (`"MbarrierInit"`).
    const NAME: &'static str;
}

/// `instr! { #[doc] Name = (concat!(...)); fn exec(a: u32) => m { asm!(concat!(m!(), " ..."), ...) } }`
/// defines `Name: Instr` and the device functions; `m!()` expands to the one mnemonic text.
macro_rules! instr {
    ($(#[$m:meta])* $Name:ident = ($($mn:tt)*); $($rest:tt)*) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct $Name;
        impl $crate::instr::Instr for $Name {
            const PTX: &'static str = concat!($($mn)*);
            const NAME: &'static str = stringify!($Name);
        }
        #[cfg(target_arch = "nvptx64")]
        impl $Name {
            $crate::instr::instr!(@fns ($($mn)*) $($rest)*);
        }
    };
    (@fns ($($mn:tt)*)) => {};
    (@fns ($($mn:tt)*) fn $f:ident $(<const $g:ident : $gt:ty>)? ($($arg:ident : $t:ty),*) $(-> $ret:ty)? => $mm:ident $body:block $($rest:tt)*) => {
        #[doc(hidden)]
        #[inline(always)]
        #[allow(unused_unsafe, clippy::missing_safety_doc)]
        pub unsafe fn $f$(<const $g: $gt>)?($($arg: $t),*) $(-> $ret)? {
            macro_rules! $mm { () => { concat!($($mn)*) } }
            $body
        }
        $crate::instr::instr!(@fns ($($mn)*) $($rest)*);
    };
}
pub(crate) use instr;

/// Host spin step: a CPU hint, or `loom::thread::yield_now()` under `--cfg loom` (loom requires
/// spin loops to yield).
#[cfg(all(not(target_arch = "nvptx64"), not(loom)))]
#[inline]
pub(crate) fn host_spin() {
    core::hint::spin_loop();
}

//! Read-modify-write operations, as marker types (the `.op` of `atom`/`red`).

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

//! Off nvptx64 the access instructions have no `asm!` leaf: the leaf traits that
//! `LdInstr`…`RedInstr` require (`backend/nvptx/access.rs` on the device) are empty here, and
//! every type has them.

/// No leaf: `ld`.
pub trait LdLeaf<S, Sco, Sp> {}
impl<T, S, Sco, Sp> LdLeaf<S, Sco, Sp> for T {}
/// No leaf: `st`.
pub trait StLeaf<S, Sco, Sp> {}
impl<T, S, Sco, Sp> StLeaf<S, Sco, Sp> for T {}
/// No leaf: `atom`.
pub trait AtomLeaf<O, S, Sco, Sp> {}
impl<T, O, S, Sco, Sp> AtomLeaf<O, S, Sco, Sp> for T {}
/// No leaf: `atom.cas`.
pub trait CasLeaf<S, Sco, Sp> {}
impl<T, S, Sco, Sp> CasLeaf<S, Sco, Sp> for T {}
/// No leaf: `red`.
pub trait RedLeaf<O, S, Sco, Sp> {}
impl<T, O, S, Sco, Sp> RedLeaf<O, S, Sco, Sp> for T {}

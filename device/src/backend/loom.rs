//! The `--cfg loom` access backend: every `ld`/`st`/`atom`/`red`/`fence` is an access of a
//! [`model::Location`](super::model::Location) or a fence of the scope model, reported with its
//! effective scope and its PTX.

use super::{AccessBackend, Loc};
use crate::atomic::{op, AtomInstr, CasInstr, LdInstr, RedInstr, StInstr};
use crate::sem::{LoadSem, RedSem, RmwSem, Scope, Space, StoreSem};

/// `--cfg loom`: the scope model; every access reports its effective scope and its PTX.
pub(crate) struct Loom;

impl AccessBackend for Loom {
    fn fence<S: crate::fence::FenceInstr<Sco>, Sco: Scope>() {
        super::host::fence_at(
            <S as crate::sem::FenceSem>::HOST,
            Sco::LEVEL,
            <S as crate::fence::FenceInstr<Sco>>::PTX,
        )
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
            crate::backend::host::cas_failure(S::HOST),
            <T as CasInstr<S, Sco, Sp>>::PTX,
            current,
            new,
            |a, b| a.bits_eq(b),
        )
    }
}

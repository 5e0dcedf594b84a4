//! The mbarrier instructions (PTX ISA §9.7.13.15), from `device/isa/mbarrier.rows`: the markers
//! of the fixed forms (`init`, `inval`, the `.noComplete` arrives, `pending_count`) and the
//! traits [`ArriveInstr`], [`RemoteArriveInstr`], [`ArriveDropInstr`], [`WaitInstr`],
//! [`TxInstr`] implemented for the legal (semantic, scope) rows, with their `asm!` leaves (the
//! nvptx64 arms of `backend.rs`), and the catalog rows.

include!(concat!(env!("OUT_DIR"), "/isa/mbarrier.rs"));

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
//! * **One row per instruction.** The rows of `device/isa/*.rows` are expanded by one
//!   generator into each form's marker or trait impl, its `asm!` and its catalog row; the
//!   access families' `access` tables (`ld.rows`, …, `fence.rows`) into each row's trait impl
//!   with its `PTX`, its `asm!` leaf and its catalog row ([`crate::catalog`]), and the row list
//!   `access_rows!` of the catalog kernels.
//! * **Operands once.** The access families' operand templates are the `ops` of their `access`
//!   tables (`device/isa/ld.rows`, …; `.b128` blocks in `blocks.rows`); the
//!   async families' are the `aops!` table of this module, with the `{{ .reg … }}` blocks some
//!   instructions need in `ablk!`. Each async `asm!` is `asm!(asm_text!(BLOCK; (KEY);
//!   mnemonic), …)` and its catalog row `with_ops!(BLOCK; (KEY); Variant { … })`, so the row's
//!   `operands`/`asm_pre`/`asm_post` are the text the `asm!` pastes, and `ptx-sync show`
//!   assembles exactly that (each placeholder is one operand kind, bound to a register by name).
//!
//! # Architecture-specific instructions
//!
//! A row that needs an `a` target (`sm_90a`, `sm_100a`: the ISA's "requires `sm_90a`") or an SM
//! above the crate's sm_90 floor records it in its catalog row
//! ([`Variant::arch`](crate::catalog::Variant::arch), [`Arch`](crate::catalog::Arch), and
//! [`Variant::sm`](crate::catalog::Variant::sm)), and its item is gated on nvptx64 by the
//! build's target CPU: `#[cfg(any(doc, not(target_arch = "nvptx64"), target_feature =
//! "sm_90a", target_feature = "sm_100a"))]` (host and loom always have it; `doc` so that the
//! documentation of a portable nvptx64 build lists it). `-C target-cpu=sm_100a` sets
//! `target_feature = "sm_100a"`, `"sm_100"`, `"sm_90"` — not `"sm_90a"`, so a row on both lists
//! both. `cargo xtask ptx` builds the catalog kernels once more for each `a` target
//! (`catalog_sm90a.ptx`, `catalog_sm100a.ptx`, from `host/kernels/src/catalog_arch.rs`) and
//! assembles each for its target; the tests check each such row there, and that ptxas rejects
//! it on the base targets below it.
//!
//! Every instruction that has no type parameters is a unit struct implementing [`Instr`]; its
//! mnemonic is written once, in its row (`device/isa/*.rows`), and generated both into
//! [`Instr::PTX`] and into the `asm!` template of the struct's hidden `exec` functions. Instructions with type
//! parameters (semantic, scope, space) follow `atomic.rs`: a per-family trait with associated
//! `PTX` constants, implemented only for the legal combinations.

/// An instruction without type parameters: its exact PTX mnemonic (no operands, no `;`).
pub trait Instr {
    /// The exact mnemonic emitted, e.g. `"mbarrier.init.shared::cta.b64"`.
    const PTX: &'static str;
    /// The Rust name of the marker (`"MbarrierInit"`).
    const NAME: &'static str;
}

/// The operand templates of the async families (`barrier`, `cluster`, `mbarrier`, `proxy`,
/// `copy`): the text each `asm!` pastes after the mnemonic (without the `;`), and the one the
/// catalog row carries ([`Variant::operands`](crate::catalog::Variant::operands)), so that
/// `ptx-sync show` assembles the operands of the code users call. Each placeholder names one
/// operand kind, the same in every row (`ptx-sync-host`'s `costs` binds them by name):
///
/// | placeholder | `asm!` operand |
/// |---|---|
/// | `{a}`, `{b}` | `in(reg32)`: an mbarrier's (or any) `.shared` address |
/// | `{sd}`, `{ss}` | `in(reg32)`: a `.shared` copy destination / source |
/// | `{n}` `{id}` `{c}` `{r}` `{tx}` `{ns}` `{ph}` `{mask}` `{z}` `{t}` `{f}` `{c0}`…`{c4}` | `in(reg32)`: counts, ids, predicates, ranks, tx-bytes, hints, parities, masks, sizes, sleep times, fractions, coordinates |
/// | `{v}` | `in(reg32)`: a 32-bit field value (`tensormap.replace`) |
/// | `{a64}`, `{gp}`, `{m}` | `in(reg64)`: a generic address, a generic pointer to global memory, a tensor map |
/// | `{x}`, `{pol}`, `{v64}` | `in(reg64)`: an mbarrier state, a cache policy, a 64-bit field value |
/// | `{lo}`, `{hi}` | `in(reg64)`: the halves of a `.b128` value (`clusterlaunchcontrol` response) |
/// | `{v}`, `{v0}`…`{v3}` / `{w}`, `{w0}`, `{w1}` | `in(reg32)` / `in(reg64)`: also the value (or vector elements) of `st.async` / `red.async` |
/// | `{k}`, `{h}` | `in(reg16)`: a CTA mask, a 16-bit `st.async.release` value |
/// | `{o0}`…`{o2}` | `in(reg16)`: the 16-bit im2col offsets |
/// | `{d}`, `{l}`, `{e}` | `out(reg32)` |
/// | `{s}`, `{d64}` | `out(reg64)`: a state, a 64-bit result |
/// | `{imm}` | `const`: an immediate |
///
/// Bare names (`p`, `q`, `g`, `_`) are registers the block around the instruction declares
/// (`ablk!`) or the sink.
macro_rules! aops {
    (none) => {
        ""
    };
    // barrier.rs
    (bar_id_n) => {
        " {id}, {n}"
    };
    (bar_id) => {
        " {id}"
    };
    (bar_popc) => {
        " {d}, {id}, {n}, p"
    };
    (bar_pred) => {
        " q, {id}, {n}, p"
    };
    // cluster.rs
    (mapa32) => {
        " {d}, {a}, {r}"
    };
    (mapa64) => {
        " {d64}, {a64}, {r}"
    };
    (rank32) => {
        " {d}, {a}"
    };
    (rank64) => {
        " {d}, {a64}"
    };
    (elect) => {
        " {l}|p, {mask}"
    };
    // mbarrier.rs
    (mbar_a_n) => {
        " [{a}], {n}"
    };
    (mbar_a) => {
        " [{a}]"
    };
    (mbar_pending) => {
        " {d}, {x}"
    };
    (mbar_state) => {
        " {s}, [{a}]"
    };
    (mbar_state_n) => {
        " {s}, [{a}], {n}"
    };
    (mbar_state_tx) => {
        " {s}, [{a}], {tx}"
    };
    (mbar_sink) => {
        " _, [{a}]"
    };
    (mbar_sink_n) => {
        " _, [{a}], {n}"
    };
    (mbar_sink_tx) => {
        " _, [{a}], {tx}"
    };
    (mbar_wait) => {
        " p, [{a}], {x}"
    };
    (mbar_wait_hint) => {
        " p, [{a}], {x}, {ns}"
    };
    (mbar_wait_parity) => {
        " p, [{a}], {ph}"
    };
    (mbar_wait_parity_hint) => {
        " p, [{a}], {ph}, {ns}"
    };
    (mbar_a_tx) => {
        " [{a}], {tx}"
    };
    // proxy.rs
    (addr128) => {
        " [{a64}], 128"
    };
    // copy.rs
    (cp_async $n:literal $($h:ident)?) => {
        concat!(" [{sd}], [g], ", stringify!($n), $crate::instr::aops!(@pol $($h)?))
    };
    (cp_async_zfill $n:literal $($h:ident)?) => {
        concat!(" [{sd}], [g], ", stringify!($n), ", {z}", $crate::instr::aops!(@pol $($h)?))
    };
    (imm) => {
        " {imm}"
    };
    (cp_mbar) => {
        " [{b}]"
    };
    // The bulk and tensor copies; a trailing `hint` is the `.L2::cache_hint` twin (the 64-bit
    // cache policy `{pol}` last, PTX ISA §9.7.9.25.4/5).
    (bulk_g2s $($h:ident)?) => {
        concat!(" [{sd}], [g], {n}, [{b}]", $crate::instr::aops!(@pol $($h)?))
    };
    (bulk_g2s_mc $($h:ident)?) => {
        concat!(" [{sd}], [g], {n}, [{b}], {k}", $crate::instr::aops!(@pol $($h)?))
    };
    (bulk_s2g $($h:ident)?) => {
        concat!(" [g], [{ss}], {n}", $crate::instr::aops!(@pol $($h)?))
    };
    (bulk_s2c) => {
        " [{sd}], [{ss}], {n}, [{b}]"
    };
    (bulk_prefetch $($h:ident)?) => {
        concat!(" [g], {n}", $crate::instr::aops!(@pol $($h)?))
    };
    (tensor_load $cs:literal $($h:ident)?) => {
        concat!(" [{sd}], [{m}, {{", $cs, "}}], [{b}]", $crate::instr::aops!(@pol $($h)?))
    };
    (tensor_load_mc $cs:literal $($h:ident)?) => {
        concat!(" [{sd}], [{m}, {{", $cs, "}}], [{b}], {k}", $crate::instr::aops!(@pol $($h)?))
    };
    (tensor_store $cs:literal $($h:ident)?) => {
        concat!(" [{m}, {{", $cs, "}}], [{ss}]", $crate::instr::aops!(@pol $($h)?))
    };
    (tensor_prefetch $cs:literal $($h:ident)?) => {
        concat!(" [{m}, {{", $cs, "}}]", $crate::instr::aops!(@pol $($h)?))
    };
    // The `.im2col` tensor forms: the `D − 2` 16-bit offsets `{{o…}}` after the barrier (load)
    // or the coordinates (prefetch), before `{, ctaMask}` and `{, cache-policy}` (§9.7.9.25.5).
    (im2col_load $cs:literal $os:literal $($h:ident)?) => {
        concat!(" [{sd}], [{m}, {{", $cs, "}}], [{b}], {{", $os, "}}", $crate::instr::aops!(@pol $($h)?))
    };
    (im2col_load_mc $cs:literal $os:literal $($h:ident)?) => {
        concat!(" [{sd}], [{m}, {{", $cs, "}}], [{b}], {{", $os, "}}, {k}", $crate::instr::aops!(@pol $($h)?))
    };
    (im2col_prefetch $cs:literal $os:literal $($h:ident)?) => {
        concat!(" [{m}, {{", $cs, "}}], {{", $os, "}}", $crate::instr::aops!(@pol $($h)?))
    };
    (@pol) => {
        ""
    };
    (@pol hint) => {
        ", {pol}"
    };
    // `tensormap.*`, `nanosleep`, `createpolicy`.
    (tensormap_cp) => {
        " [{a64}], [{ss}], 128"
    };
    (addr64) => {
        " [{a64}]"
    };
    (nanosleep) => {
        " {t}"
    };
    (createpolicy) => {
        " {d64}, {f}"
    };
    // st_async.rs: `st.async` / `red.async` — `[a], b, [mbar]`, the value a 32-bit (`{v}`,
    // `{v0}`…`{v3}`) or 64-bit (`{w}`, `{w0}`, `{w1}`) register or a `{…}` vector of them.
    (st_async) => {
        " [{sd}], {v}, [{b}]"
    };
    (st_async64) => {
        " [{sd}], {w}, [{b}]"
    };
    (st_async_v2) => {
        " [{sd}], {{{v0}, {v1}}}, [{b}]"
    };
    (st_async_v4) => {
        " [{sd}], {{{v0}, {v1}, {v2}, {v3}}}, [{b}]"
    };
    (st_async64_v2) => {
        " [{sd}], {{{w0}, {w1}}}, [{b}]"
    };
    // st_async/release.rs: the sm_100 `.release` forms to `.global` (`g`, block `cvta`); the
    // value a 16-bit (`{h}`), 32-bit (`{v}`) or 64-bit (`{w}`) register.
    (st_global16) => {
        " [g], {h}"
    };
    (st_global) => {
        " [g], {v}"
    };
    (st_global64) => {
        " [g], {w}"
    };
    // tensormap/replace.rs: the map in `.global` (`g`, block `cvta`), `.shared::cta` (`{ss}`)
    // or generic (`{a64}`); the ordinal or field3 value `{imm}`; the new value `{v}` / `{v64}`.
    (tmr_g_v) => {
        " [g], {v}"
    };
    (tmr_g_v64) => {
        " [g], {v64}"
    };
    (tmr_g_ord_v) => {
        " [g], {imm}, {v}"
    };
    (tmr_g_ord_v64) => {
        " [g], {imm}, {v64}"
    };
    (tmr_g_imm) => {
        " [g], {imm}"
    };
    (tmr_s_v) => {
        " [{ss}], {v}"
    };
    (tmr_s_v64) => {
        " [{ss}], {v64}"
    };
    (tmr_s_ord_v) => {
        " [{ss}], {imm}, {v}"
    };
    (tmr_s_ord_v64) => {
        " [{ss}], {imm}, {v64}"
    };
    (tmr_s_imm) => {
        " [{ss}], {imm}"
    };
    (tmr_a_v) => {
        " [{a64}], {v}"
    };
    (tmr_a_v64) => {
        " [{a64}], {v64}"
    };
    (tmr_a_ord_v) => {
        " [{a64}], {imm}, {v}"
    };
    (tmr_a_ord_v64) => {
        " [{a64}], {imm}, {v64}"
    };
    (tmr_a_imm) => {
        " [{a64}], {imm}"
    };
    // clc.rs: the response buffer `{sd}` and the mbarrier `{b}`; the `.b128` response `q`
    // (block `clc_q`/`clc_q_pred`, from `{lo}`/`{hi}`).
    // copy/blackwell.rs: the byte-masked store (`{k}` the 16-bit byte mask).
    (bulk_s2g_mask) => {
        " [g], [{ss}], {n}, {k}"
    };
    (clc_try) => {
        " [{sd}], [{b}]"
    };
    (clc_pred) => {
        " p, q"
    };
    (clc_ctaid) => {
        " {d}, q"
    };
    // `get_first_ctaid.v4`: `{x, y, z, _}` (the 4th element unspecified: the sink).
    (clc_ctaid_v4) => {
        " {{{d}, {l}, {e}, _}}, q"
    };
}
pub(crate) use aops;

/// The block an async `asm!` wraps its instruction in: `(pre KEY)` the text before the
/// mnemonic, `(post KEY)` the text after the instruction's `;` (both `""` for `none`). The
/// catalog row carries them ([`Variant::asm_pre`](crate::catalog::Variant::asm_pre),
/// [`asm_post`](crate::catalog::Variant::asm_post)).
macro_rules! ablk {
    (pre none) => {
        ""
    };
    (post none) => {
        ""
    };
    // `bar.red.popc`: the predicate operand from `{c}`.
    (pre pred_in) => {
        "{{\n\t.reg .pred p;\n\tsetp.ne.u32 p, {c}, 0;\n\t"
    };
    (post pred_in) => {
        "\n\t}}"
    };
    // `bar.red.{and,or}`: predicate in from `{c}`, out as `{d}`.
    (pre pred_in_out) => {
        "{{\n\t.reg .pred p, q;\n\tsetp.ne.u32 p, {c}, 0;\n\t"
    };
    (post pred_in_out) => {
        "\n\tselp.u32 {d}, 1, 0, q;\n\t}}"
    };
    // `mbarrier.{try,test}_wait`: the predicate out as `{d}`.
    (pre pred_out) => {
        "{{\n\t.reg .pred p;\n\t"
    };
    (post pred_out) => {
        "\n\tselp.u32 {d}, 1, 0, p;\n\t}}"
    };
    // `elect.sync`: the predicate out as `{e}`.
    (pre pred_e) => {
        "{{\n\t.reg .pred p;\n\t"
    };
    (post pred_e) => {
        "\n\tselp.u32 {e}, 1, 0, p;\n\t}}"
    };
    // Copies from/to global memory: the generic pointer `{gp}` converted to `g`.
    (pre cvta) => {
        concat!(
            "{{\n\t.reg .b64 g;\n\tcvta.to",
            $crate::sem::tok!(Global),
            ".u64 g, {gp};\n\t"
        )
    };
    (post cvta) => {
        "\n\t}}"
    };
    // `clusterlaunchcontrol.query_cancel`: the `.b128` response `q` from `{lo}`, `{hi}`.
    (pre clc_q) => {
        "{{\n\t.reg .b128 q;\n\tmov.b128 q, {{{lo}, {hi}}};\n\t"
    };
    (post clc_q) => {
        "\n\t}}"
    };
    // … and the predicate out as `{d}`.
    (pre clc_q_pred) => {
        "{{\n\t.reg .pred p;\n\t.reg .b128 q;\n\tmov.b128 q, {{{lo}, {hi}}};\n\t"
    };
    (post clc_q_pred) => {
        "\n\tselp.u32 {d}, 1, 0, p;\n\t}}"
    };
}
pub(crate) use ablk;

/// The `asm!` template of an async row: `ablk!(pre B)`, the mnemonic, `aops!(O)`, `;`,
/// `ablk!(post B)` — `asm_text!(B; (O); mnemonic tokens)`.
#[allow(unused_macros)]
macro_rules! asm_text {
    ($b:ident; ($($o:tt)*); $($mn:tt)*) => {
        concat!($crate::instr::ablk!(pre $b), $($mn)*, $crate::instr::aops!($($o)*), ";", $crate::instr::ablk!(post $b))
    };
}
pub(crate) use asm_text;

/// A catalog row with the operands and block of `asm_text!(B; (O); …)`:
/// `with_ops!(B; (O); Variant { .. })`.
#[allow(unused_macros)]
macro_rules! with_ops {
    ($b:ident; ($($o:tt)*); $v:expr) => {
        $crate::catalog::Variant {
            operands: Some($crate::instr::aops!($($o)*)),
            asm_pre: $crate::instr::ablk!(pre $b),
            asm_post: $crate::instr::ablk!(post $b),
            ..$v
        }
    };
}
#[allow(unused_imports)]
pub(crate) use with_ops;

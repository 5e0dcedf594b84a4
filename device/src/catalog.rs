//! The catalog: every instruction variant this crate can emit, as data.
//!
//! `ptx-sync show` prints it with the SASS of each row; the tests compare each row's `ptx` with a
//! string composed independently from the PTX ISA grammar, and check that a Rust-built kernel
//! instantiating every row contains each `ptx` text and assembles with ptxas.

/// A marker type, named in a catalog row: a semantic, scope, state space or modifier marker of
/// [`crate::sem`] (and `.aligned`, `.ca`/`.cg`), or [`Marker::None`] where the dimension does
/// not apply (the scope of a weak load). Compares equal to its Rust name (`Marker::Acquire ==
/// "Acquire"`, `Marker::None == ""`) and displays as it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
#[allow(missing_docs)]
pub enum Marker {
    /// The dimension does not apply to the row.
    #[default]
    None,
    Weak,
    Volatile,
    Relaxed,
    Acquire,
    Release,
    AcqRel,
    Sc,
    Cta,
    Cluster,
    Gpu,
    Sys,
    Generic,
    Global,
    Shared,
    SharedCluster,
    Aligned,
    Unaligned,
    Ca,
    Cg,
    Prefetch64B,
    Prefetch128B,
    Prefetch256B,
}

macro_rules! marker_table {
    ($($m:ident)*) => {
        impl Marker {
            /// The Rust name of the marker (`"Acquire"`; `""` for [`Marker::None`]).
            ///
            /// # Examples
            ///
            /// ```
            /// use ptx_sync::catalog::Marker;
            /// assert_eq!((Marker::Acquire.name(), Marker::SharedCluster.name(), Marker::None.name()),
            ///            ("Acquire", "SharedCluster", ""));
            /// ```
            pub const fn name(self) -> &'static str {
                match self { Marker::None => "", $(Marker::$m => stringify!($m),)* }
            }
            /// The marker's PTX token, from the one token table (`".acquire"`; `""` for
            /// [`Marker::None`] and the token-less markers).
            ///
            /// # Examples
            ///
            /// ```
            /// use ptx_sync::catalog::Marker;
            /// assert_eq!((Marker::AcqRel.ptx(), Marker::Cluster.ptx(), Marker::None.ptx()), (".acq_rel", ".cluster", ""));
            /// ```
            pub const fn ptx(self) -> &'static str {
                match self { Marker::None => "", $(Marker::$m => crate::sem::tok!($m),)* }
            }
        }
    };
}
marker_table! { Weak Volatile Relaxed Acquire Release AcqRel Sc Cta Cluster Gpu Sys Generic Global
Shared SharedCluster Aligned Unaligned Ca Cg Prefetch64B Prefetch128B Prefetch256B }

impl Marker {
    /// `true` for [`Marker::None`].
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::catalog::Marker;
    /// assert!(Marker::None.is_empty() && !Marker::Gpu.is_empty());
    /// ```
    pub const fn is_empty(self) -> bool {
        matches!(self, Marker::None)
    }
}

impl core::fmt::Display for Marker {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

impl PartialEq<&str> for Marker {
    fn eq(&self, o: &&str) -> bool {
        self.name() == *o
    }
}

/// How an async copy signals completion (`cp.async.bulk*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Completion {
    /// Not a bulk copy.
    #[default]
    None,
    /// `.mbarrier::complete_tx::bytes`: on an mbarrier's tx-count.
    Mbarrier,
    /// `.bulk_group`: waited for with `cp.async.bulk.wait_group`.
    BulkGroup,
}

/// The modifiers and operand forms of a row beyond sem/scope/space — typed (no string schema).
/// [`Form::NONE`] for most rows; `Display` writes the short form `ptx-sync show` prints (`count`,
/// `Ca:16:zfill`, `src=Global completion=Mbarrier multicast`, `dim=3`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Form {
    /// An explicit thread-count operand (`bar.sync id, n`, `mbarrier.init`, `arrive` with a count).
    pub count: bool,
    /// A tx-count operand (`mbarrier.arrive.expect_tx`).
    pub tx: bool,
    /// A suspend-time hint operand (`mbarrier.try_wait … , hint`).
    pub hint: bool,
    /// `barrier.cluster`: [`Marker::Aligned`] or [`Marker::Unaligned`].
    pub align: Marker,
    /// `cp.async`: [`Marker::Ca`] or [`Marker::Cg`], with the copy size in bytes.
    pub cache: Marker,
    /// `cp.async`: the copy size in bytes (4, 8, 16).
    pub bytes: u8,
    /// `cp.async`: the `src-size` operand (zero fill).
    pub zfill: bool,
    /// Bulk copies: the source state space.
    pub src: Marker,
    /// Bulk copies: how completion is signalled.
    pub completion: Completion,
    /// `.multicast::cluster` (with a CTA-mask operand).
    pub multicast: bool,
    /// Tensor copies: the rank (1–5).
    pub dim: u8,
    /// `fence.proxy.tensormap::generic.acquire`: the `[addr], 128` operands.
    pub addr128: bool,
    /// `.L2::cache_hint` with a cache-policy operand (bulk copies).
    pub cache_hint: bool,
    /// `cp.async`'s `.level::prefetch_size`: [`Marker::Prefetch64B`], [`Marker::Prefetch128B`],
    /// [`Marker::Prefetch256B`] (`.L2::64B`/`128B`/`256B`), or [`Marker::None`].
    pub prefetch: Marker,
}

impl Form {
    /// No modifier.
    pub const NONE: Form = Form {
        count: false,
        tx: false,
        hint: false,
        align: Marker::None,
        cache: Marker::None,
        bytes: 0,
        zfill: false,
        src: Marker::None,
        completion: Completion::None,
        multicast: false,
        dim: 0,
        addr128: false,
        cache_hint: false,
        prefetch: Marker::None,
    };
    /// With a count operand.
    pub const COUNT: Form = Form {
        count: true,
        ..Form::NONE
    };
    /// With a tx-count operand.
    pub const TX: Form = Form {
        tx: true,
        ..Form::NONE
    };
    /// With a hint operand.
    pub const HINT: Form = Form {
        hint: true,
        ..Form::NONE
    };
    /// `true` when no modifier is set.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::catalog::Form;
    /// assert!(Form::NONE.is_empty() && !Form::HINT.is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        *self == Form::NONE
    }
}

impl core::fmt::Display for Form {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let mut sep = "";
        let mut w = |f: &mut core::fmt::Formatter<'_>, a: core::fmt::Arguments<'_>| {
            let r = write!(f, "{sep}{a}");
            sep = " ";
            r
        };
        if self.count {
            w(f, format_args!("count"))?;
        }
        if self.tx {
            w(f, format_args!("tx"))?;
        }
        if self.hint {
            w(f, format_args!("hint"))?;
        }
        if !self.align.is_empty() {
            w(f, format_args!("{}", self.align))?;
        }
        if !self.cache.is_empty() {
            let z = if self.zfill { ":zfill" } else { "" };
            w(f, format_args!("{}:{}{z}", self.cache, self.bytes))?;
        }
        if !self.src.is_empty() {
            w(f, format_args!("src={}", self.src))?;
        }
        match self.completion {
            Completion::None => {}
            Completion::Mbarrier => w(f, format_args!("completion=Mbarrier"))?,
            Completion::BulkGroup => w(f, format_args!("completion=BulkGroup"))?,
        }
        if self.multicast {
            w(f, format_args!("multicast"))?;
        }
        if self.dim != 0 {
            w(f, format_args!("dim={}", self.dim))?;
        }
        if self.addr128 {
            w(f, format_args!("addr 128"))?;
        }
        if self.cache_hint {
            w(f, format_args!("cache_hint"))?;
        }
        if !self.prefetch.is_empty() {
            w(f, format_args!("{}", self.prefetch))?;
        }
        Ok(())
    }
}

/// The target a row needs beyond its SM floor ([`Variant::sm`]): portable, or one of PTX's
/// architecture-specific targets (the `a` suffix: the instruction exists on that SM only, and a
/// module that uses it is built with `-C target-cpu=sm_90a` / `sm_100a` and assembled with
/// `ptxas -arch=sm_90a` / `sm_100a`). Typed, not a string: the catalog kernels, the ptxas tests
/// and `ptx-sync show` pick each row's build from it ([`Variant::target`]).
///
/// On `nvptx64` the device crate defines an arch-specific item only when the build's target CPU
/// has it (`#[cfg(any(not(target_arch = "nvptx64"), target_feature = "sm_90a"))]`); on the host
/// and under loom every item exists. The nightly's `-Ctarget-cpu=sm_100a` sets
/// `target_feature = "sm_100a"`, `"sm_100"` and `"sm_90"` (not `"sm_90a"`: the `a` features are not
/// inherited).
///
/// # Examples
///
/// ```
/// use ptx_sync::catalog::Arch;
/// assert_eq!((Arch::Base.suffix(), Arch::Sm90a.suffix(), Arch::Sm100a.suffix()), ("", "sm_90a", "sm_100a"));
/// assert_eq!(Arch::default(), Arch::Base);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum Arch {
    /// Portable: every SM at or above the row's floor.
    #[default]
    Base,
    /// Arch-specific `sm_90a` (the ISA's "requires `sm_90a`"; some such instructions are listed
    /// for `sm_100a` too, which the row's docs say).
    Sm90a,
    /// Arch-specific `sm_100a` (Blackwell; the ISA's "requires `sm_100a`" — from PTX 8.8 also
    /// the `sm_100f` family where the ISA says so, which the row's docs say).
    Sm100a,
}

impl Arch {
    /// The arch-specific target's name (`"sm_90a"`), `""` for [`Arch::Base`].
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::catalog::Arch;
    /// assert_eq!(Arch::Sm100a.suffix(), "sm_100a");
    /// ```
    pub const fn suffix(self) -> &'static str {
        match self {
            Arch::Base => "",
            Arch::Sm90a => "sm_90a",
            Arch::Sm100a => "sm_100a",
        }
    }
}

/// One instruction variant: a row of an instruction table, as data.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Variant {
    /// Instruction family ([`Family::Ld`], [`Family::Mbarrier`], …; displays as its PTX name).
    pub family: Family,
    /// The operation within the family (`"add"`, `"cas"`; `""` for ld/st/fence).
    pub op: &'static str,
    /// The Rust scalar type (`"u32"`), or the operand type of an async row (`"b64"`), or `""`.
    pub ty: &'static str,
    /// The semantic marker, or [`Marker::None`].
    pub sem: Marker,
    /// The scope marker, or [`Marker::None`] (a weak access, a row without scope).
    pub scope: Marker,
    /// The state-space marker, or [`Marker::None`].
    pub space: Marker,
    /// Modifiers and operand forms beyond sem/scope/space.
    pub form: Form,
    /// The exact PTX mnemonic (what the `asm!` emits, without operands).
    pub ptx: &'static str,
    /// The operand template the `asm!` pastes after the mnemonic, without the `;` (`" {v},
    /// [{p}]"`; the async families' placeholders are listed in [`crate::instr`]'s `aops!`
    /// table). Every row of the crate carries it; `None` only in a row built by hand.
    pub operands: Option<&'static str>,
    /// The text the `asm!` pastes before the mnemonic (a `{{ .reg … ` block opening; `""` for
    /// most rows). The whole template is `asm_pre + ptx + operands + ";" + asm_post`, with
    /// `{{`/`}}` for literal braces.
    pub asm_pre: &'static str,
    /// The text the `asm!` pastes after the instruction's `;` (the block's end; `""` for most).
    pub asm_post: &'static str,
    /// The Rust call that emits the row (`"AtomicRef::<u32, Gpu, Global>::fetch_add::<AcqRel>"`);
    /// `""` where the table does not record it yet.
    pub rust: &'static str,
    /// The SM floor (`90` = sm_90).
    pub sm: u16,
    /// The PTX ISA version floor, times ten (`86` = PTX 8.6).
    pub ptx_isa: u16,
    /// The architecture-specific target the row needs ([`Arch::Base`]: none beyond `sm`).
    pub arch: Arch,
    /// The PTX ISA section that defines the instruction (`"9.7.13.5"`).
    pub isa: &'static str,
    /// The seed article section the instruction serves (`"4.3"`).
    pub seed: &'static str,
}

impl Variant {
    /// A row of `family` with every other field empty: the base a catalog section fills with
    /// `Variant { ptx, ..Variant::of(family) }`.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::catalog::{Family, Variant};
    /// let v = Variant { ptx: "fence.sc.gpu", ..Variant::of(Family::Fence) };
    /// assert_eq!((v.family.to_string(), v.sm), ("fence".to_string(), 0));
    /// ```
    pub const fn of(family: Family) -> Variant {
        Variant {
            family,
            op: "",
            ty: "",
            sem: Marker::None,
            scope: Marker::None,
            space: Marker::None,
            form: Form::NONE,
            ptx: "",
            operands: None,
            asm_pre: "",
            asm_post: "",
            rust: "",
            sm: 0,
            ptx_isa: 0,
            arch: Arch::Base,
            isa: "",
            seed: "",
        }
    }

    /// The target the row is built and assembled for: its catalog kernel's `-C target-cpu` and
    /// `ptxas -arch` — `"sm_90"` for a portable row of the crate's floor, `"sm_90a"` /
    /// `"sm_100a"` for an arch-specific row, `"sm_100a"` for a portable sm_100 row (the catalog
    /// builds for sm_90, sm_90a and sm_100a only; the row assembles on plain `sm_100` too, see
    /// [`Variant::floor_target`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::catalog::{Arch, Family, Variant};
    /// let v = Variant { sm: 90, ..Variant::of(Family::Ld) };
    /// assert_eq!(v.target(), "sm_90");
    /// assert_eq!(Variant { arch: Arch::Sm90a, ..v }.target(), "sm_90a");
    /// assert_eq!(Variant { sm: 100, ..v }.target(), "sm_100a");
    /// ```
    pub const fn target(&self) -> &'static str {
        match self.arch {
            Arch::Base if self.sm >= 100 => "sm_100a",
            Arch::Base => "sm_90",
            a => a.suffix(),
        }
    }

    /// The oldest target ptxas must accept the row on: `"sm_90"` (portable, floor ≤ sm_90),
    /// `"sm_100"` (portable sm_100), or the arch-specific target.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::catalog::{Arch, Family, Variant};
    /// assert_eq!(Variant { sm: 100, ..Variant::of(Family::Ld) }.floor_target(), "sm_100");
    /// assert_eq!(Variant { sm: 100, arch: Arch::Sm100a, ..Variant::of(Family::Ld) }.floor_target(), "sm_100a");
    /// ```
    pub const fn floor_target(&self) -> &'static str {
        match self.arch {
            Arch::Base if self.sm >= 100 => "sm_100",
            Arch::Base => "sm_90",
            a => a.suffix(),
        }
    }

    /// The catalog PTX file (in `target/ptx/`, without `.ptx`) whose kernels instantiate the
    /// row: `"catalog"` (sm_90; the other kernels are in `kernels.ptx`), `"catalog_sm90a"`,
    /// `"catalog_sm100a"` — one per [`Variant::target`].
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::catalog::{Arch, Family, Variant};
    /// assert_eq!(Variant { arch: Arch::Sm100a, ..Variant::of(Family::Ld) }.catalog_ptx(), "catalog_sm100a");
    /// assert_eq!(Variant::of(Family::Ld).catalog_ptx(), "catalog");
    /// ```
    pub const fn catalog_ptx(&self) -> &'static str {
        match (self.arch, self.sm >= 100) {
            (Arch::Sm90a, _) => "catalog_sm90a",
            (Arch::Sm100a, _) | (Arch::Base, true) => "catalog_sm100a",
            (Arch::Base, false) => "catalog",
        }
    }
}

/// The floors of an `ld`/`st`/`atom`/`red`/`fence` row: sm_70 / PTX 6.0 for the scoped forms
/// (sm_20 / 2.0 for weak and volatile accesses), sm_90 / 7.8 with `.cluster` or
/// `.shared::cluster`, PTX 7.8 for the `.shared::cta` spelling, sm_90 / 8.6 for
/// `fence.acquire`/`fence.release`.
///
/// Returns `(sm, ptx_isa)` as `(90, 86)` for sm_90 / PTX 8.6. The access tables
/// (`device/isa/{ld,st,atom,red,fence}.rows`) spell these floors as `sm=`/`ptx=` properties of
/// their values; `device/tests/isa.rs` checks every access row against this rule (a type or op
/// may raise a row above it: `.b128`, the half types, the vector atoms).
///
/// # Examples
///
/// ```
/// use ptx_sync::catalog::{access_floor, Family as F, Marker as M};
/// assert_eq!(access_floor(F::Ld, M::Acquire, M::Gpu, M::Generic), (70, 60));
/// assert_eq!(access_floor(F::Atom, M::Relaxed, M::Cluster, M::Generic), (90, 78));
/// assert_eq!(access_floor(F::Fence, M::Release, M::Gpu, M::None), (90, 86));
/// assert_eq!(access_floor(F::St, M::Weak, M::None, M::Generic), (20, 20));
/// ```
pub const fn access_floor(family: Family, sem: Marker, scope: Marker, space: Marker) -> (u16, u16) {
    let (mut sm, mut ptx) = match sem {
        Marker::Weak | Marker::Volatile => (20, 20),
        _ => (70, 60),
    };
    if matches!(family, Family::Fence) && matches!(sem, Marker::Acquire | Marker::Release) {
        sm = 90;
        ptx = 86;
    }
    if matches!(scope, Marker::Cluster) || matches!(space, Marker::SharedCluster) {
        if sm < 90 {
            sm = 90;
        }
        if ptx < 78 {
            ptx = 78;
        }
    }
    if matches!(space, Marker::Shared) && ptx < 78 {
        ptx = 78;
    }
    (sm, ptx)
}

#[cfg(not(target_arch = "nvptx64"))]
mod walk {
    use super::Variant;

    // The catalog rows of the access tables (`device/isa/{ld,st,atom,red,fence}.rows`), one
    // `const` per table: `LD`, `ST`, `ATOM_SCALAR`, …
    include!(concat!(env!("OUT_DIR"), "/isa/access_catalog.rs"));

    /// Calls `f` for every row: the access and fence tables, in the seed's order, then the
    /// generated families' files and the sections of the other modules
    /// ([`for_each_variant`](super::for_each_variant) is its public face).
    ///
    /// ```
    /// let mut n = 0;
    /// ptx_sync::catalog::for_each_variant(|_| n += 1);
    /// assert!(n > 100);
    /// ```
    pub fn all(f: &mut dyn FnMut(Variant)) {
        for rows in [
            LD,
            ST,
            ATOM_SCALAR,
            ATOM_VEC,
            CAS,
            RED_SCALAR,
            RED_VEC,
            FENCE,
        ] {
            for v in rows {
                f(*v);
            }
        }
        // The generated rows (`device/isa/*.rows`), then the other tables' rows; each names
        // its own floors and sections.
        for file in crate::catalog::GENERATED {
            for v in *file {
                f(*v);
            }
        }
        for ext in crate::catalog::EXTENSIONS {
            ext(f);
        }
    }
}

/// Calls `f` once for every instruction variant of the crate, in the seed's order
/// (ld, st, atom, red, fence, then barriers, mbarrier, async copies).
///
/// # Examples
///
/// ```
/// let mut rows = Vec::new();
/// ptx_sync::catalog::for_each_variant(|v| rows.push(v.ptx));
/// assert!(rows.contains(&"ld.acquire.gpu.u32") && rows.contains(&"fence.sc.cta"));
/// ```
#[cfg(not(target_arch = "nvptx64"))]
pub fn for_each_variant(mut f: impl FnMut(Variant)) {
    walk::all(&mut f)
}

// The `Family` enum (one variant per `family` of device/isa/*.rows).
include!(concat!(env!("OUT_DIR"), "/isa/family.rs"));

impl core::fmt::Display for Family {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.ptx())
    }
}

// The list of the generated files' rows (`GENERATED`), and the catalog kernels' call lists
// (`catalog_calls_NAME!`, exported for `host/kernels`): from `device/isa/*.rows`.
#[cfg(not(target_arch = "nvptx64"))]
include!(concat!(env!("OUT_DIR"), "/isa/catalog.rs"));
include!(concat!(env!("OUT_DIR"), "/isa/calls.rs"));

/// Catalog sections contributed by the other modules (barrier, mbarrier, copy, ...): each
/// function calls `f` for its rows.
#[cfg(not(target_arch = "nvptx64"))]
#[allow(clippy::type_complexity)]
pub(crate) const EXTENSIONS: &[fn(&mut dyn FnMut(Variant))] = &[crate::copy::catalog_rows];

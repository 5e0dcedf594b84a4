//! A `.ptx` module as rustc or nvcc emit it, and the threads of one launch of one of its entries
//! (issue #22 §1).
//!
//! [`Module::parse`] reads the module's structure (PTX ISA chapter 11 directives: `.version`,
//! `.target`, `.address_size`, `.visible .entry` / `.func` with their `.param` lists,
//! `.reg` declarations with `<N>` ranges, `.shared` / `.global` / `.const` variables with `.align`
//! and initialisers, `extern .shared` dynamic shared memory, `.file` / `.loc`, `.pragma`, brace
//! blocks with registers of their own, labels) and checks that every instruction of every entry
//! parses. [`Module::launch`] builds, for a grid, block and cluster shape and the entry's
//! parameter bindings, the [`Layout`] and one [`Thread`] per launched thread: the entry's code with
//! every `call` of a `.func` inlined, kernel parameters read by `ld.param` as the bound values.
//!
//! Example:
//!
//! ```
//! use ptx_sync_model::ptx::module::{Bind, Launch, Module};
//! let m = Module::parse(".version 8.6\n.target sm_90\n.address_size 64\n\
//!     .visible .entry k(.param .u64 k_param_0)\n{\n.reg .b64 %rd<3>;\n\
//!     ld.param.u64 %rd1, [k_param_0];\ncvta.to.global.u64 %rd2, %rd1;\n\
//!     st.global.u32 [%rd2], 1;\nret;\n}\n", "k.ptx").unwrap();
//! let mut l = Launch::new([1, 1, 1], [2, 1, 1]);
//! l.params.push((0, Bind::Buf(16)));
//! let k = m.launch("k", &l).unwrap();
//! assert_eq!(k.threads.len(), 2);
//! ```

use super::interp::{Code, Geom, RegInfo, Thread};
use super::ir::{Kind, Line, Reg, Ty};
use super::parse::{is_ident, parse_int, parse_line, Env, Param, VarRef};
use crate::engine::op::{At, Layout, Place};
use crate::parse::{Error, ErrorKind};
use std::collections::HashMap;
use std::sync::Arc;

mod flat;
mod launch;
mod text;

use flat::*;
pub use text::strip_comments;
use text::*;

/// A module-scope variable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModVar {
    /// Its name.
    pub name: String,
    /// `.shared` (one copy per CTA) rather than `.global`/`.const`.
    pub shared: bool,
    /// Bytes; `None` for `.extern .shared … name[]` (dynamic shared memory: the launch's size).
    pub size: Option<u32>,
    /// Initial bytes.
    pub init: Vec<u8>,
}

/// A `.param` of a function's parameter or return list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamDecl {
    /// Its name.
    pub name: String,
    /// Bytes.
    pub size: u32,
}

/// A body statement.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Item {
    /// `.reg .type names;` (ranges expanded).
    Reg(Ty, Vec<String>),
    /// `.param .type name;` inside a body (a call argument).
    Param(u32, String),
    /// `name:`
    Label(String),
    /// `.loc file line col`
    Loc(u32, u32),
    /// `.local .align A .type name[N];` (bytes, alignment, name).
    Local(u32, u32, String),
    /// An instruction (a `call` too).
    Inst(usize, String),
    /// `{`
    Open,
    /// `}`
    Close,
}

/// A function of the module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Func {
    /// Its name.
    pub name: String,
    /// `.entry` (a kernel) rather than `.func`.
    pub entry: bool,
    /// Its parameters.
    pub params: Vec<ParamDecl>,
    /// Its return parameters.
    pub rets: Vec<ParamDecl>,
    /// `.noreturn`
    pub noreturn: bool,
    /// Line of its header.
    pub line: usize,
    body: Option<Vec<Item>>,
}

impl Func {
    /// Whether it has a body (a definition, not a declaration).
    pub fn defined(&self) -> bool {
        self.body.is_some()
    }
}

/// A parsed module.
#[derive(Clone, Debug)]
pub struct Module {
    /// The file name (for messages).
    pub file: String,
    /// Module-scope variables, in order.
    pub vars: Vec<ModVar>,
    /// Functions, in order.
    pub funcs: Vec<Func>,
    /// `.file` names by index.
    pub files: HashMap<u32, Arc<str>>,
}

/// What a kernel parameter is bound to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bind {
    /// A fresh zeroed global buffer of this many bytes (the parameter holds its address).
    Buf(u32),
    /// An integer value.
    Int(u64),
    /// A tensor map (`.b32` elements, tile mode, row-major) over a fresh zeroed global buffer
    /// of `dims[0] × dims[1]` elements, with box `boxdim`; the parameter holds the map's address
    /// (a 128-byte global object, as a `CUtensorMap` in global memory). `rank`: 1 or 2.
    Tmap {
        /// Dimensions (elements), innermost first.
        dims: [u32; 2],
        /// Box (elements).
        boxdim: [u32; 2],
        /// 1 or 2.
        rank: u8,
    },
}

/// A launch: grid, block and cluster shape, parameter bindings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Launch {
    /// CTAs per grid (x, y, z).
    pub grid: [u32; 3],
    /// Threads per CTA (x, y, z).
    pub block: [u32; 3],
    /// CTAs per cluster (x, y, z); `[1, 1, 1]` without clusters.
    pub cluster: [u32; 3],
    /// `(parameter index, binding)`.
    pub params: Vec<(usize, Bind)>,
    /// Dynamic shared memory bytes.
    pub dyn_smem: u32,
    /// The unroll bound of the threads.
    pub unroll: u32,
    /// The most exploration steps (`None`: `PTX_SYNC_MAX_STEPS`, else 5,000,000). Past it the
    /// check stops: flags found by then are reported ([`crate::kernel::KernelOutcome::incomplete`]),
    /// a clean verdict is not decided.
    pub max_steps: Option<u64>,
    /// Threads that explore together (`None`: one when `max_steps` is given — a step budget is
    /// one depth-first search's — else `PTX_SYNC_JOBS` or the cores this process may use).
    pub jobs: Option<usize>,
    /// Steps before the other threads start (`None`: 20,000; 0: at once).
    pub spawn_after: Option<u64>,
}

impl Launch {
    /// A launch of `grid` CTAs of `block` threads, no cluster, no binding, unroll 4.
    pub fn new(grid: [u32; 3], block: [u32; 3]) -> Launch {
        Launch {
            grid,
            block,
            cluster: [1, 1, 1],
            params: Vec::new(),
            dyn_smem: 0,
            unroll: 4,
            max_steps: None,
            jobs: None,
            spawn_after: None,
        }
    }
}

/// A rewrite of one statement of a module ([`Module::launch_edited`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edit {
    /// The statement's line (1-based, where it starts).
    pub line: usize,
    /// The statement as the module writes it (trimmed, without `;`; the text of
    /// [`At::text`](crate::engine::op::At)).
    pub old: String,
    /// Its replacement, or `None` to drop it.
    pub new: Option<String>,
}

/// The threads of a launch.
#[derive(Clone, Debug)]
pub struct Kernel {
    /// The address space: the module's variables, dynamic shared memory, the bound buffers.
    pub layout: Arc<Layout>,
    /// One thread per launched thread, CTA by CTA (x fastest), thread by thread (x fastest).
    pub threads: Vec<Thread>,
    /// Parameter `i`'s buffer variable, for `Bind::Buf` parameters (`(i, var)`) and the data of
    /// `Bind::Tmap` ones.
    pub buffers: Vec<(usize, usize)>,
}

/// Most threads one launch may have (the model explores every thread).
pub const MAX_THREADS: u64 = 1 << 16;
/// Deepest call nesting inlined.
pub const MAX_INLINE: usize = 16;

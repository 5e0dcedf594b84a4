//! The litmus parser (format: `model/FORMAT.md`). Every error carries `file:line` and says what
//! was expected; anything the model cannot express is an [`ErrorKind::Unsupported`], never a guess.

use crate::ast::*;
use crate::engine::op::{Layout, Place as EPlace, TensorMap};
use crate::ptx::asm::Asm;
use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

mod condition;
mod declare;
mod instr;
mod legacy;
mod modern;
mod scan;
pub(crate) mod tokens;

pub use condition::MAX_NESTING;
use condition::*;
use declare::*;
use instr::*;
use legacy::*;
use modern::*;
pub(crate) use scan::column_spans;
use scan::*;

/// Why a file was not decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// The text is not a litmus test of the format (exit code 2).
    Parse,
    /// The text is well formed but uses something the model does not express (exit code 3).
    Unsupported,
}

/// A parse error or an unsupported construct, with its position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// Parse error or unsupported.
    pub kind: ErrorKind,
    /// The file.
    pub file: String,
    /// 1-based line (0 when the file as a whole is at fault).
    pub line: usize,
    /// What is wrong / what was expected.
    pub msg: String,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            ErrorKind::Parse if self.line == 0 => write!(f, "{}: {}", self.file, self.msg),
            ErrorKind::Parse => write!(f, "{}:{}: {}", self.file, self.line, self.msg),
            ErrorKind::Unsupported if self.line == 0 => {
                write!(f, "unsupported: {} ({})", self.msg, self.file)
            }
            ErrorKind::Unsupported => {
                write!(f, "unsupported: {} ({}:{})", self.msg, self.file, self.line)
            }
        }
    }
}

impl std::error::Error for Error {}

struct Ctx<'a> {
    file: &'a str,
}

impl Ctx<'_> {
    fn err(&self, line: usize, msg: impl Into<String>) -> Error {
        Error {
            kind: ErrorKind::Parse,
            file: self.file.to_string(),
            line,
            msg: msg.into(),
        }
    }
    fn unsupported(&self, line: usize, msg: impl Into<String>) -> Error {
        Error {
            kind: ErrorKind::Unsupported,
            file: self.file.to_string(),
            line,
            msg: msg.into(),
        }
    }
}

/// Parses one litmus test. `file` names it in messages.
///
/// Both format parts: a test in format part 1 gets its part-1 program `code` (from which
/// `ptx-sync litmus FILE` generates a GPU kernel) and the engine's threads (`prog`); a test that
/// needs format part 2 gets the engine's threads and a [`Test::legacy`] error (the GPU generator
/// reads part 1 only).
pub fn parse(text: &str, file: &str) -> Result<Test, Error> {
    let cx = Ctx { file };
    let raw = scan(&cx, text)?;
    let part2 = raw.entries.iter().find(|(_, e)| is_part2_decl(e)).cloned();
    let old = match &part2 {
        Some((ln, e)) => Err(cx.unsupported(
            *ln,
            format!("`{e}` is format part 2 (the enumerating checker reads format part 1)"),
        )),
        None => legacy(&cx, &raw),
    };
    let new = modern(&cx, &raw, old.as_ref().ok());
    let mut t = match (old, new) {
        (Ok(mut t), Ok(m)) => {
            m.attach(&mut t);
            t
        }
        // The instruction parser is the stricter reader of the ISA: what it rejects as
        // malformed is bad input for both.
        (Ok(_), Err(e)) if e.kind == ErrorKind::Parse => return Err(e),
        (Ok(mut t), Err(e)) => {
            t.engine = Some(e);
            return Ok(t);
        }
        // A source register nothing writes or initialises is a mistake in either reading.
        (Err(e), Ok(_)) if part2.is_none() && e.msg.contains("never initialised") => return Err(e),
        (Err(e), Ok(m)) => {
            let mut t = m.into_test(&cx, &raw);
            t.legacy = Some(e);
            t
        }
        (Err(eo), Err(en)) => return Err(if part2.is_some() { en } else { eo }),
    };
    check_literals(&cx, &mut t)?;
    Ok(t)
}

/// The unroll bound a litmus thread is built with (`--unroll`'s default, SEMANTICS S6);
/// [`crate::ptx::Thread::set_unroll`] changes it.
pub const DEFAULT_UNROLL: u32 = 4;

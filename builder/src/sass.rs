//! The workspace's one SASS reader: `cuobjdump -sass` output split into functions
//! ([`parse_functions`]) and instructions ([`parse_instr`]: offset, predicate, opcode with its
//! modifiers, full text). The host's `sass` and `inspect` modules and the device crate's tool
//! tests read SASS through it.

/// One SASS instruction.
///
/// ```
/// let i = ptx_sync_build::sass::parse_instr("        /*0010*/   @P0 ATOM.E.ADD.STRONG.GPU PT, RZ, [R2.64], R5 ;").unwrap();
/// assert_eq!((i.offset, i.pred.as_deref(), i.opcode.as_str()), (0x10, Some("P0"), "ATOM.E.ADD.STRONG.GPU"));
/// assert_eq!(i.text, "ATOM.E.ADD.STRONG.GPU PT, RZ, [R2.64], R5");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instr {
    /// Byte offset in the function (`/*0050*/` → 0x50).
    pub offset: u32,
    /// The guard predicate without `@` (`"P0"`, `"!P0"`), if any.
    pub pred: Option<String>,
    /// The opcode with its modifiers, e.g. `"MEMBAR.SC.GPU"`, `"ATOM.E.ADD.STRONG.GPU"`.
    pub opcode: String,
    /// The instruction as printed, without the encoding comment and the `;`.
    pub text: String,
}

/// One function (kernel) of a SASS dump.
///
/// ```
/// let f = &ptx_sync_build::sass::parse_functions("\t\tFunction : k\n        /*0000*/   EXIT ;\n")[0];
/// assert_eq!((f.name.as_str(), f.instrs.len()), ("k", 1));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Function {
    /// The symbol name from `Function : name`.
    pub name: String,
    /// Its instructions in address order, `NOP` padding included.
    pub instrs: Vec<Instr>,
}

impl Function {
    /// The opcodes in order, without the `NOP` padding.
    ///
    /// ```
    /// let f = &ptx_sync_build::sass::parse_functions("Function : k\n /*0000*/ EXIT ;\n /*0010*/ NOP;\n")[0];
    /// assert_eq!(f.opcodes(), ["EXIT"]);
    /// ```
    pub fn opcodes(&self) -> Vec<&str> {
        self.instrs
            .iter()
            .map(|i| i.opcode.as_str())
            .filter(|o| *o != "NOP")
            .collect()
    }
}

/// Parses one line of `cuobjdump -sass` output into an instruction, or `None` for anything else
/// (headers, the encoding-only continuation lines `/* 0x... */`, blank lines).
///
/// ```
/// use ptx_sync_build::sass::parse_instr;
/// let i = parse_instr("        /*0080*/               @!P0 MEMBAR.ALL.GPU ;   /* 0x0000000000008992 */").unwrap();
/// assert_eq!((i.offset, i.pred.as_deref(), i.opcode.as_str()), (0x80, Some("!P0"), "MEMBAR.ALL.GPU"));
/// assert_eq!(parse_instr("        /*0020*/   ERRBAR;   /* 0x00000000000079ab */").unwrap().opcode, "ERRBAR");
/// assert!(parse_instr("            /* 0x000fec000000a000 */").is_none());
/// ```
pub fn parse_instr(line: &str) -> Option<Instr> {
    let l = line.trim_start();
    let rest = l.strip_prefix("/*")?;
    let end = rest.find("*/")?;
    let offset = u32::from_str_radix(rest[..end].trim(), 16).ok()?;
    let mut body = &rest[end + 2..];
    if let Some(c) = body.find("/*") {
        body = &body[..c];
    }
    let body = body.trim().trim_end_matches(';').trim();
    if body.is_empty() {
        return None;
    }
    let (pred, ins) = match body.strip_prefix('@') {
        Some(p) => {
            let sp = p.find(char::is_whitespace)?;
            (Some(p[..sp].to_string()), p[sp..].trim_start())
        }
        None => (None, body),
    };
    let opcode = ins
        .split(|c: char| c.is_whitespace() || c == ';')
        .next()
        .filter(|o| !o.is_empty())?
        .to_string();
    Some(Instr {
        offset,
        pred,
        opcode,
        text: ins.to_string(),
    })
}

/// Splits a `cuobjdump -sass` dump into its functions, in the order the dump lists them.
///
/// ```
/// let fs = ptx_sync_build::sass::parse_functions("Function : b\n /*0000*/ EXIT ;\nFunction : a\n /*0000*/ RET.REL.NODEC R20 0x0 ;\n");
/// assert_eq!(fs.iter().map(|f| f.name.as_str()).collect::<Vec<_>>(), ["b", "a"]);
/// assert_eq!(fs[1].instrs[0].opcode, "RET.REL.NODEC");
/// ```
pub fn parse_functions(sass: &str) -> Vec<Function> {
    let mut out: Vec<Function> = Vec::new();
    for line in sass.lines() {
        if let Some(i) = line.find("Function : ") {
            let name = line[i + "Function : ".len()..].trim().to_string();
            out.push(Function {
                name,
                instrs: Vec::new(),
            });
        } else if let (Some(f), Some(ins)) = (out.last_mut(), parse_instr(line)) {
            f.instrs.push(ins);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn functions_instructions_predicates() {
        let dump = "\t\tFunction : k\n        /*0000*/                   LDC R1, c[0x0][0x37c] ;    /* 0x0000df00ff017b82 */\n        /*0010*/              @!P0 MEMBAR.ALL.GPU ;   /* 0x0000000000008992 */\n                                                               /* 0x000fec0000000000 */\n        /*0020*/                   EXIT ;                     /* 0x000000000000794d */\n";
        let fs = parse_functions(dump);
        assert_eq!(fs.len(), 1);
        assert_eq!(fs[0].name, "k");
        assert_eq!(fs[0].opcodes(), ["LDC", "MEMBAR.ALL.GPU", "EXIT"]);
        assert_eq!(fs[0].instrs[1].pred.as_deref(), Some("!P0"));
        assert_eq!(fs[0].instrs[1].offset, 0x10);
        assert_eq!(fs[0].instrs[0].text, "LDC R1, c[0x0][0x37c]");
    }
}

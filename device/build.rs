//! Expands the instruction rows (`device/isa/*.rows`) into `OUT_DIR/isa/*.rs` with the one
//! generator, `device/isa/gen` (std only). A bad row stops the build with its `file:line`.

#[path = "isa/gen/mod.rs"]
mod isa_gen;

fn main() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("isa");
    println!("cargo:rerun-if-changed={}", dir.display());
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src/sem.rs");
    let out = std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR")).join("isa");
    let files = match isa_gen::run(&dir) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    };
    std::fs::create_dir_all(&out).expect("create OUT_DIR/isa");
    // A file that the rows no longer generate goes.
    for e in std::fs::read_dir(&out).expect("read OUT_DIR/isa").flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if !files.iter().any(|(n, _)| *n == name) {
            let _ = std::fs::remove_file(e.path());
        }
    }
    for (name, text) in files {
        let p = out.join(name);
        // Rewrite only what changed, so that an unchanged file keeps its time stamp.
        if std::fs::read_to_string(&p).ok().as_deref() != Some(text.as_str()) {
            std::fs::write(&p, text).expect("write OUT_DIR/isa file");
        }
    }
}

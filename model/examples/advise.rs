//! `cargo run -p ptx-sync-model --example advise -- FILE.litmus… | FILE.ptx --entry NAME --grid G
//! --block B [--cluster C] [--param I=…]… [--dyn-smem N] [--unroll N] [--assert '…']`: `--advise`
//! without the host binary (the same table as `ptx-sync check … --advise`, without the SASS cost
//! column's rows: the cost table is the host's).
mod common;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (o, words) = common::kernel_options(&args);
    let files: Vec<std::path::PathBuf> = words.into_iter().map(std::path::PathBuf::from).collect();
    if files.is_empty() {
        eprintln!("usage: advise FILE.litmus… | FILE.ptx --entry NAME …");
        std::process::exit(2);
    }
    std::process::exit(ptx_sync_model::advise::cli(&files, &o, &|_| None));
}

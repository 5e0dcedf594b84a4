//! `cargo run -p ptx-sync-model --example check -- FILE|DIR ...`: the checker without the host
//! binary (same output as `ptx-sync check`).
fn main() {
    let args: Vec<std::path::PathBuf> = std::env::args_os().skip(1).map(Into::into).collect();
    std::process::exit(ptx_sync_model::cli(
        &args,
        &ptx_sync_model::CheckOptions::default(),
    ));
}

//! `cargo run -p ptx-sync-model --example check -- FILE|DIR ...`: the checker without the host
//! binary (same output as `ptx-sync check`).

/// The allocator of the `ptx-sync` binary (host/Cargo.toml says why), so that this example
/// times what the binary does.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let args: Vec<std::path::PathBuf> = std::env::args_os().skip(1).map(Into::into).collect();
    std::process::exit(ptx_sync_model::cli(
        &args,
        &ptx_sync_model::CheckOptions::default(),
    ));
}

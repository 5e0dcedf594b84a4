//! `cargo run -p ptx-sync-model --example kcheck -- FILE.ptx --entry NAME --grid G --block B
//! [--cluster C] [--param I=…]… [--dyn-smem N] [--unroll N] [--assert '…']`: the kernel checker
//! without the host binary (same output as `ptx-sync check FILE.ptx …`).
mod common;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (o, mut words) = common::kernel_options(&args);
    // The file: the last word.
    let file = words.pop();
    let Some(f) = file else {
        eprintln!("usage: kcheck FILE.ptx --entry NAME …");
        std::process::exit(2);
    };
    std::process::exit(ptx_sync_model::kernel::cli(
        std::path::Path::new(&f),
        &o,
        None,
    ));
}

//! `cargo run -p ptx-sync-model --example kcheck -- FILE.ptx --entry NAME --grid G --block B
//! [--cluster C] [--param I=…]… [--dyn-smem N] [--unroll N] [--assert '…']`: the kernel checker
//! without the host binary (same output as `ptx-sync check FILE.ptx …`).
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut o = ptx_sync_model::kernel::KernelOptions::default();
    let mut file = None;
    let mut i = 0;
    while i < args.len() {
        let v = args.get(i + 1).cloned();
        match args[i].as_str() {
            "--entry" => o.entry = v,
            "--grid" => o.grid = v,
            "--block" => o.block = v,
            "--cluster" => o.cluster = v,
            "--param" => o.params.extend(v),
            "--dyn-smem" => o.dyn_smem = v.and_then(|s| s.parse().ok()),
            "--unroll" => o.unroll = v.and_then(|s| s.parse().ok()),
            "--assert" => o.assert = v,
            f => {
                file = Some(f.to_string());
                i += 1;
                continue;
            }
        }
        i += 2;
    }
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

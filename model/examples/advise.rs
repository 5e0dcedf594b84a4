//! `cargo run -p ptx-sync-model --example advise -- FILE.litmus… | FILE.ptx --entry NAME --grid G
//! --block B [--cluster C] [--param I=…]… [--dyn-smem N] [--unroll N] [--assert '…']`: `--advise`
//! without the host binary (the same table as `ptx-sync check … --advise`, without the SASS cost
//! column's rows: the cost table is the host's).
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut o = ptx_sync_model::kernel::KernelOptions::default();
    let mut files = Vec::new();
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
                files.push(std::path::PathBuf::from(f));
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    if files.is_empty() {
        eprintln!("usage: advise FILE.litmus… | FILE.ptx --entry NAME …");
        std::process::exit(2);
    }
    std::process::exit(ptx_sync_model::advise::cli(&files, &o, &|_| None));
}

fn main() {
    println!("ptx-sync: see `cargo xtask tour`");
}

//! Benchmarks: see benches/.

//! Host-backend behaviour of the issue #13 additions: what each call does on the CPU is what its
//! docs say (counts of the remote `arrive_drop`, the tx half of `arrive_drop.expect_tx`, a
//! backoff budget still ends, the tensor-map copy copies, the cache hints change no result).

use ptx_sync::wait::{spin_until, Budget, Timeout};
use ptx_sync::{Acquire, Cluster, Cta, Mbarrier, Phase, Release};

#[test]
fn remote_arrive_drop_lowers_the_next_phases_count() {
    let m: Mbarrier = Mbarrier::new();
    m.init(2);
    m.remote(0).arrive_drop::<Release, Cluster>();
    assert!(
        !m.test_wait_parity::<Acquire, Cta>(Phase::ZERO),
        "one of two arrivals"
    );
    let _ = m.arrive::<Release, Cta>();
    assert!(
        m.test_wait_parity::<Acquire, Cta>(Phase::ZERO),
        "phase 0 complete"
    );
    // phase 1 expects one arrival only: the dropped thread no longer counts
    let _ = m.arrive::<Release, Cta>();
    assert!(
        m.test_wait_parity::<Acquire, Cta>(Phase::ONE),
        "phase 1 complete with 1 arrival"
    );
}

#[test]
fn arrive_drop_expect_tx_waits_for_its_bytes() {
    let m: Mbarrier = Mbarrier::new();
    m.init(1);
    let t = m.arrive_drop_expect_tx::<Release, Cta>(32);
    assert!(!m.test_wait::<Acquire, Cta>(t), "32 bytes still owed");
    m.complete_tx::<Cta>(16);
    assert!(!m.test_wait::<Acquire, Cta>(t), "16 bytes still owed");
    m.complete_tx::<Cta>(16);
    assert!(m.test_wait::<Acquire, Cta>(t), "all bytes arrived");
    let r: Mbarrier = Mbarrier::new();
    r.init(1);
    r.remote(0)
        .arrive_drop_expect_tx::<ptx_sync::Relaxed, Cluster>(8);
    assert!(!r.test_wait_parity::<Acquire, Cluster>(Phase::ZERO));
    r.complete_tx::<Cluster>(8);
    assert!(r.test_wait_parity::<Acquire, Cluster>(Phase::ZERO));
}

#[test]
#[should_panic(expected = "arrive_drop without arrivals left")]
fn remote_arrive_drop_past_the_count_panics() {
    let m: Mbarrier = Mbarrier::new();
    m.init(1);
    m.remote(0).arrive_drop::<Release, Cluster>(); // completes phase 0, expected now 0
    m.remote(0).arrive_drop::<Release, Cluster>();
}

#[test]
fn a_backoff_budget_still_ends() {
    let b = Budget::iterations(5).with_backoff(10_000);
    assert_eq!(b.backoff_nanos(), 10_000);
    assert_eq!(spin_until(b, || false), Err(Timeout { checks: 5 }));
    let mut n = 0;
    assert_eq!(
        spin_until(b, || {
            n += 1;
            n == 2
        }),
        Ok(2)
    );
    assert_eq!(
        Budget::nanos(5).backoff_nanos(),
        0,
        "no backoff unless asked"
    );
}

#[test]
fn tensormap_cp_fenceproxy_copies_the_map() {
    use ptx_sync::copy::TensorMap;
    let mut src = TensorMap { opaque: [0; 16] };
    for (i, w) in src.opaque.iter_mut().enumerate() {
        *w = i as u64 * 3 + 1;
    }
    let mut dst = TensorMap { opaque: [0; 16] };
    unsafe { ptx_sync::tensormap::tensormap_cp_fenceproxy::<ptx_sync::Sys>(&mut dst, &src) };
    assert_eq!(dst, src);
}

#[test]
fn cache_hinted_copies_copy_the_same_bytes() {
    use ptx_sync::copy::{cp_async_bulk_g2s_with, cp_async_bulk_s2g_with, Mods};
    use ptx_sync::policy::{createpolicy, EvictLast, EvictUnchanged};
    use ptx_sync::shared::to_shared;
    let pol = createpolicy::<EvictLast, EvictUnchanged>(0.5);
    let src: [u8; 32] = core::array::from_fn(|i| i as u8);
    let mut smem = [0u8; 32];
    let bar: Mbarrier = Mbarrier::new();
    bar.init(1);
    let t = bar.arrive_expect_tx::<Release, Cta>(32);
    unsafe {
        cp_async_bulk_g2s_with(
            to_shared(smem.as_mut_ptr()),
            src.as_ptr(),
            32,
            &bar,
            Mods::NONE.cache_hint(pol),
        )
    };
    assert!(
        bar.test_wait::<Acquire, Cta>(t),
        "the copy completed its 32 bytes"
    );
    assert_eq!(smem, src);
    let mut out = [0u8; 32];
    unsafe {
        cp_async_bulk_s2g_with(
            out.as_mut_ptr(),
            to_shared(smem.as_ptr()),
            32,
            Mods::NONE.cache_hint(pol),
        )
    };
    assert_eq!(out, src);
}

#[test]
#[should_panic(expected = "fraction must be in (0, 1]")]
fn createpolicy_checks_its_fraction() {
    let _ = ptx_sync::policy::createpolicy::<
        ptx_sync::policy::EvictFirst,
        ptx_sync::policy::NoSecondary,
    >(0.0);
}

#[test]
fn seq_cst_and_membar_on_the_host() {
    let x = ptx_sync::Strong::new(0u64);
    let r = x.at::<ptx_sync::Sys>();
    r.store_sc(3);
    ptx_sync::membar::membar::<ptx_sync::Gpu>();
    assert_eq!(r.load_sc(), 3);
    assert_eq!(r.fetch_sub_sc(1), 3);
    assert_eq!(r.swap_sc(9), 2);
    assert_eq!(r.compare_exchange_sc(9, 10), Ok(9));
    assert_eq!(r.fetch_max_sc(4), 10);
    assert_eq!(r.load_sc(), 10);
}

//! Host emulation of the tensor forms that need more than the tile copy: `cp.reduce.async.bulk.tensor`
//! (tile and im2col_no_offs, every operator), the `.im2col` loads, gather4/scatter4 and
//! `tensormap.replace` on the host map. Expected values are written by hand from the PTX ISA's
//! description (§9.7.9.25.5 the copies and reductions, §5.5 the tile and im2col modes,
//! §9.7.9.27 `tensormap.replace`), never computed by the code under test.

use ptx_sync::atomic::op::{Add, And, Dec, Inc, Max, Min, Or, Xor};
use ptx_sync::copy::blackwell::{cp_async_bulk_tensor_gather4, cp_async_bulk_tensor_scatter4};
use ptx_sync::copy::{
    cp_async_bulk_commit_group, cp_async_bulk_tensor_load, cp_async_bulk_tensor_load_im2col,
    cp_async_bulk_wait_group, cp_reduce_async_bulk_tensor, Im2colNoOffs, TensorElem, TensorMap,
    Tile,
};
use ptx_sync::shared::to_shared;
use ptx_sync::tensormap::replace::*;
use ptx_sync::{Acquire, Cta, Generic, Global, Mbarrier, Phase, Release, Shared, F16};
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

#[repr(align(128))]
struct Smem<T, const N: usize>([T; N]);

fn done() {
    cp_async_bulk_commit_group();
    cp_async_bulk_wait_group::<0>();
}

/// A 2-D u32 tensor 6 wide × 3 tall, a 4 × 2 box: the box at (4, 2) has 2 × 1 in bounds.
#[test]
fn tile_add_reduces_in_bounds_elements_and_skips_the_rest() {
    let mut out = [100u32; 24]; // rows of 8 (stride 32 bytes), the tensor is 6 × 3
    let map =
        TensorMap::host_tiled_of(out.as_mut_ptr().cast_const(), &[6, 3], &[32], &[4, 2]).unwrap();
    let part = Smem([1u32, 2, 3, 4, 5, 6, 7, 8]);
    unsafe {
        cp_reduce_async_bulk_tensor::<Add, Tile, _>(&map, [4, 2], to_shared(part.0.as_ptr()))
    };
    done();
    let mut want = [100u32; 24];
    want[2 * 8 + 4] = 101; // box (0, 0) → (4, 2)
    want[2 * 8 + 5] = 102; // box (1, 0) → (5, 2); box x 2, 3 → x 6, 7 ≥ 6; box row 1 → y 3 ≥ 3
    assert_eq!(out, want);
    // the padding columns 6, 7 of each row are not the tensor's: untouched
    unsafe {
        cp_reduce_async_bulk_tensor::<Add, Tile, _>(&map, [-2, 0], to_shared(part.0.as_ptr()))
    };
    done();
    want[0] += 3; // box (2, 0) → (0, 0)
    want[1] += 4;
    want[8] += 7; // box (2, 1) → (0, 1)
    want[9] += 8;
    assert_eq!(out, want);
}

#[test]
fn every_operator_on_its_element_types() {
    macro_rules! one {
        ($Op:ident, $t:ty, $init:expr, $src:expr, $want:expr) => {
            one!(4; $Op, $t, $init, $src, $want)
        };
        ($n:literal; $Op:ident, $t:ty, $init:expr, $src:expr, $want:expr) => {{
            let mut out: [$t; $n] = $init;
            let map =
                TensorMap::host_tiled_of(out.as_mut_ptr().cast_const(), &[$n], &[], &[$n]).unwrap();
            let s = Smem::<$t, $n>($src);
            unsafe {
                cp_reduce_async_bulk_tensor::<$Op, Tile, _>(&map, [0], to_shared(s.0.as_ptr()))
            };
            done();
            assert_eq!(out, $want, "{} on {}", stringify!($Op), stringify!($t));
        }};
    }
    one!(
        Add,
        i32,
        [-5, 0, 7, i32::MAX],
        [2, -3, -7, 1],
        [-3, -3, 0, i32::MIN]
    );
    one!(
        Add,
        u64,
        [1, 2, 3, u64::MAX],
        [10, 20, 30, 1],
        [11, 22, 33, 0]
    );
    one!(
        Add,
        f32,
        [0.5, 1.0, -2.0, 8.0],
        [0.25, 1.0, 2.0, -0.5],
        [0.75, 2.0, 0.0, 7.5]
    );
    one!(Min, i32, [-1, 5, 3, 0], [2, -6, 3, 0], [-1, -6, 3, 0]);
    one!(Min, u32, [1, 5, 3, 0], [2, 4, u32::MAX, 7], [1, 4, 3, 0]);
    one!(Max, i64, [-1, 5, -9, 0], [2, -6, -3, 0], [2, 5, -3, 0]);
    // atom.inc: old >= b ? 0 : old + 1; atom.dec: old == 0 || old > b ? b : old - 1
    one!(Inc, u32, [0, 3, 4, 9], [5, 3, 9, 2], [1, 0, 5, 0]);
    one!(Dec, u32, [0, 3, 4, 9], [5, 3, 9, 2], [5, 2, 3, 2]);
    one!(
        And,
        u32,
        [0b1100, 0xff, 7, 0],
        [0b1010, 0x0f, 0, 1],
        [0b1000, 0x0f, 0, 0]
    );
    one!(
        Or,
        u64,
        [0b1100, 1 << 40, 0, 5],
        [0b1010, 1, 0, 2],
        [0b1110, (1 << 40) | 1, 0, 7]
    );
    one!(
        Xor,
        i32,
        [0b1100, -1, 0, 5],
        [0b1010, 1, 0, 5],
        [0b0110, -2, 0, 0]
    );
    // f16: 1.0 = 0x3c00, 2.0 = 0x4000, 3.0 = 0x4200, 0.5 = 0x3800, 1.5 = 0x3e00
    let h = F16::from_bits;
    one!(
        8; // 8 × 2 bytes: the inner box spans 16 bytes
        Add,
        F16,
        [h(0x3c00), h(0x4000), h(0x3800), h(0), h(0), h(0), h(0), h(0)],
        [h(0x4000), h(0x3c00), h(0x3c00), h(0x3800), h(0), h(0), h(0), h(0)],
        [h(0x4200), h(0x4200), h(0x3e00), h(0x3800), h(0), h(0), h(0), h(0)]
    );
}

#[test]
fn four_threads_reducing_one_tile_lose_nothing() {
    const ROUNDS: u32 = 2000;
    let out: [AtomicU32; 64] = core::array::from_fn(|_| AtomicU32::new(0)); // 8 × 8
    let map =
        TensorMap::host_tiled_of(out.as_ptr().cast::<u32>(), &[8, 8], &[32], &[8, 8]).unwrap();
    std::thread::scope(|s| {
        for t in 0..4u32 {
            let map = &map;
            s.spawn(move || {
                let part = Smem::<u32, 64>(core::array::from_fn(|i| t + i as u32 % 2));
                for _ in 0..ROUNDS {
                    unsafe {
                        cp_reduce_async_bulk_tensor::<Add, Tile, _>(
                            map,
                            [0, 0],
                            to_shared(part.0.as_ptr()),
                        )
                    };
                }
                done();
            });
        }
    });
    // element i gets, from thread t, ROUNDS × (t + i % 2): Σt = 0+1+2+3 = 6
    for (i, v) in out.iter().enumerate() {
        assert_eq!(
            v.load(Relaxed),
            ROUNDS * (6 + 4 * (i as u32 % 2)),
            "element {i}"
        );
    }
}

#[test]
#[should_panic(expected = "typed map")]
fn reduction_on_an_untyped_map_is_reported() {
    let out = [0u32; 4];
    let map = TensorMap::host_tiled(out.as_ptr().cast(), 4, &[4], &[], &[4]).unwrap();
    let s = Smem([1u32; 4]);
    unsafe { cp_reduce_async_bulk_tensor::<Add, Tile, _>(&map, [0], to_shared(s.0.as_ptr())) };
}

#[test]
#[should_panic(expected = "PTX has no `inc` reduction of S32")]
fn reduction_pair_outside_the_table_is_reported() {
    let out = [0i32; 4];
    let map = TensorMap::host_tiled_of(out.as_ptr(), &[4], &[], &[4]).unwrap();
    let s = Smem([1i32; 4]);
    unsafe { cp_reduce_async_bulk_tensor::<Inc, Tile, _>(&map, [0], to_shared(s.0.as_ptr())) };
}

/// A 4d NHWC input, N = 2, H = 2, W = 3, C = 4, element value 1000n + 100h + 10w + c.
fn nhwc() -> Vec<u32> {
    let mut v = Vec::new();
    for n in 0..2 {
        for h in 0..2 {
            for w in 0..3 {
                for c in 0..4 {
                    v.push(1000 * n + 100 * h + 10 * w + c);
                }
            }
        }
    }
    v
}

#[test]
fn im2col_load_walks_the_bounding_box_and_zero_fills() {
    let x = nhwc();
    // strides: W 16 bytes, H 48, N 96. Bounding box: w ∈ -1..=3-1+0 = 2, h ∈ 0..=2-1-1 = 0
    // (lower (-1, 0), upper (0, -1)): 4 × 1 base pixels per image.
    let map = TensorMap::host_im2col(
        x.as_ptr().cast(),
        TensorElem::U32,
        &[4, 3, 2, 2],
        &[16, 48, 96],
        &[-1, 0],
        &[0, -1],
        4,
        6,
    )
    .unwrap();
    let mut t = Smem([7u32; 24]);
    let bar: Mbarrier = Mbarrier::new();
    bar.init(1);
    let _ = bar.arrive_expect_tx::<Release, Cta>(96); // 6 pixels × 4 channels × 4 bytes
                                                      // start: channel 1, base pixel (w 1, h 0) of image 0; offsets (w +1, h +1)
    unsafe {
        cp_async_bulk_tensor_load_im2col(
            to_shared(t.0.as_mut_ptr()),
            &map,
            [1, 1, 0, 0],
            [1, 1],
            &bar,
        )
    };
    assert!(
        bar.try_wait_parity::<Acquire, Cta>(Phase::ZERO),
        "96 bytes completed"
    );
    // base pixels in order: (w 1, n 0), (2, 0), then image 1: (-1, 1), (0, 1), (1, 1), (2, 1);
    // read at (w + 1, h 1): w 2, 3✗, 0, 1, 2, 3✗; channels 1, 2, 3, 4✗ (C = 4)
    #[rustfmt::skip]
    let want = [
        121, 122, 123, 0, // n 0, h 1, w 2; channel 4 is out of the tensor: zero-filled
        0, 0, 0, 0, // w 3 out of the tensor
        1101, 1102, 1103, 0, // n 1, h 1, w 0
        1111, 1112, 1113, 0,
        1121, 1122, 1123, 0,
        0, 0, 0, 0,
    ];
    assert_eq!(t.0, want);
}

#[test]
fn im2col_map_constructor_checks_its_fields() {
    let x = [0u32; 64];
    let p = x.as_ptr().cast();
    let ok = |r: Result<TensorMap, &str>| r.is_ok();
    assert!(ok(TensorMap::host_im2col(
        p,
        TensorElem::U32,
        &[4, 4, 2],
        &[16, 64],
        &[-1],
        &[-1],
        4,
        8
    )));
    assert!(
        !ok(TensorMap::host_im2col(
            p,
            TensorElem::U32,
            &[4, 4],
            &[16],
            &[],
            &[],
            4,
            8
        )),
        "rank 2"
    );
    assert!(
        !ok(TensorMap::host_im2col(
            p,
            TensorElem::U32,
            &[4, 4, 2],
            &[16, 64],
            &[-1, 0],
            &[-1],
            4,
            8
        )),
        "corners"
    );
    assert!(
        !ok(TensorMap::host_im2col(
            p,
            TensorElem::U32,
            &[4, 4, 4, 2],
            &[16, 64, 256],
            &[-129, 0],
            &[0, 0],
            4,
            8
        )),
        "4d corner range is 8-bit"
    );
    assert!(ok(TensorMap::host_im2col(
        p,
        TensorElem::U32,
        &[4, 4, 4, 2],
        &[16, 64, 256],
        &[-128, 0],
        &[0, 0],
        4,
        8
    )));
    assert!(
        !ok(TensorMap::host_im2col(
            p,
            TensorElem::U32,
            &[4, 4, 2],
            &[16, 64],
            &[-1],
            &[-1],
            4,
            1025
        )),
        "pixels per column"
    );
    assert!(
        !ok(TensorMap::host_im2col(
            p,
            TensorElem::U32,
            &[4, 4, 2],
            &[16, 64],
            &[2],
            &[-2],
            4,
            8
        )),
        "empty box"
    );
    assert!(
        !ok(TensorMap::host_im2col(
            p,
            TensorElem::U16,
            &[4, 4, 2],
            &[16, 64],
            &[0],
            &[0],
            4,
            8
        )),
        "4 × 2 bytes"
    );
}

#[test]
fn im2col_no_offs_reduction_uses_the_im2col_traversal() {
    // 3d: N 2, W 2, C 4 (u32): the bounding box w ∈ 0..=1, 2 pixels per image
    let mut out = [0u32; 16];
    let map = TensorMap::host_im2col(
        out.as_mut_ptr().cast_const().cast(),
        TensorElem::U32,
        &[4, 2, 2],
        &[16, 32],
        &[0],
        &[0],
        4,
        3,
    )
    .unwrap();
    let s = Smem::<u32, 12>(core::array::from_fn(|i| i as u32 + 1));
    // from base pixel w 1 of image 0: (1, 0), (0, 1), (1, 1)
    unsafe {
        cp_reduce_async_bulk_tensor::<Max, Im2colNoOffs, _>(
            &map,
            [0, 1, 0],
            to_shared(s.0.as_ptr()),
        )
    };
    done();
    assert_eq!(out, [0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
}

#[test]
fn gather4_and_scatter4_move_four_rows() {
    let data: Vec<i32> = (0..40).map(|i| -i).collect(); // 8 wide × 5 rows
    let map = TensorMap::host_tiled_of(data.as_ptr(), &[8, 5], &[32], &[4, 1]).unwrap();
    let mut t = Smem([1i32; 16]);
    let bar: Mbarrier = Mbarrier::new();
    bar.init(1);
    let _ = bar.arrive_expect_tx::<Release, Cta>(64);
    unsafe {
        cp_async_bulk_tensor_gather4::<Shared, _>(
            to_shared(t.0.as_mut_ptr()),
            &map,
            -1,
            [4, 0, -1, 3],
            &bar,
        )
    };
    assert!(
        bar.try_wait_parity::<Acquire, Cta>(Phase::ZERO),
        "4 rows × 16 bytes completed"
    );
    #[rustfmt::skip]
    let want = [0, -32, -33, -34, 0, 0, -1, -2, 0, 0, 0, 0, 0, -24, -25, -26];
    assert_eq!(t.0, want);

    let mut out = [0i32; 40];
    let omap =
        TensorMap::host_tiled_of(out.as_mut_ptr().cast_const(), &[8, 5], &[32], &[4, 1]).unwrap();
    let src = Smem::<i32, 16>(core::array::from_fn(|i| i as i32 + 1));
    unsafe { cp_async_bulk_tensor_scatter4(&omap, 5, [4, 0, 5, 2], to_shared(src.0.as_ptr())) };
    done();
    let mut want = [0i32; 40];
    want[4 * 8 + 5..4 * 8 + 8].copy_from_slice(&[1, 2, 3]); // x 8 out: skipped
    want[5..8].copy_from_slice(&[5, 6, 7]);
    want[2 * 8 + 5..2 * 8 + 8].copy_from_slice(&[13, 14, 15]); // row 5 out of the tensor
    assert_eq!(out, want);
}

#[test]
fn tensormap_replace_rewrites_what_the_copies_read() {
    let a: Vec<u32> = (0..64).collect(); // 8 × 8
    let b: Vec<u32> = (0..64).map(|i| 1000 + i).collect();
    let mut map = TensorMap::host_tiled(a.as_ptr().cast(), 4, &[8, 8], &[32], &[4, 2]).unwrap();
    let load = |map: &TensorMap, c: [i32; 2], bytes: u32| {
        let mut t = Smem([5u32; 16]);
        let bar: Mbarrier = Mbarrier::new();
        bar.init(1);
        let _ = bar.arrive_expect_tx::<Release, Cta>(bytes);
        unsafe { cp_async_bulk_tensor_load(to_shared(t.0.as_mut_ptr()), map, c, &bar) };
        assert!(
            bar.try_wait_parity::<Acquire, Cta>(Phase::ZERO),
            "{bytes} bytes"
        );
        t.0
    };
    assert_eq!(load(&map, [0, 1], 32)[..8], [8, 9, 10, 11, 16, 17, 18, 19]);
    unsafe { tensormap_replace::<GlobalAddress, Global>(&mut map, b.as_ptr() as u64) };
    assert_eq!(
        load(&map, [0, 1], 32)[..8],
        [1008, 1009, 1010, 1011, 1016, 1017, 1018, 1019]
    );
    // the box grows to 4 × 4 (64 bytes)
    unsafe { tensormap_replace_ord::<BoxDim, Shared, 1>(&mut map, 4) };
    let t = load(&map, [4, 0], 64);
    assert_eq!(t[12..], [1028, 1029, 1030, 1031]);
    // global dim 0 shrinks to 6: x 6, 7 are out of bounds
    unsafe { tensormap_replace_ord::<GlobalDim, Generic, 0>(&mut map, 6) };
    assert_eq!(load(&map, [4, 0], 64)[..4], [1004, 1005, 0, 0]);
    // stride of dimension 1 doubles: row y starts at 16y elements (4 rows now fit in `b`)
    unsafe { tensormap_replace_ord::<GlobalDim, Global, 1>(&mut map, 4) };
    unsafe { tensormap_replace_ord::<GlobalStride, Global, 0>(&mut map, 64) };
    assert_eq!(load(&map, [0, 1], 64)[..4], [1016, 1017, 1018, 1019]);
    // rank 1 (v = rank − 1 = 0): one coordinate, the box of dimension 0 (4 elements)
    unsafe { tensormap_replace::<Rank, Global>(&mut map, 0) };
    let mut t = Smem([5u32; 4]);
    let bar: Mbarrier = Mbarrier::new();
    bar.init(1);
    let _ = bar.arrive_expect_tx::<Release, Cta>(16);
    unsafe { cp_async_bulk_tensor_load(to_shared(t.0.as_mut_ptr()), &map, [3], &bar) };
    assert!(bar.try_wait_parity::<Acquire, Cta>(Phase::ZERO));
    assert_eq!(t.0, [1003, 1004, 1005, 0]);
}

#[test]
fn tensormap_replace_elemtype_types_the_map_and_unmodelled_fields_change_nothing() {
    let mut out = [0u32; 4];
    let mut map =
        TensorMap::host_tiled(out.as_mut_ptr().cast_const().cast(), 4, &[4], &[], &[4]).unwrap();
    assert_eq!(map.host_elem_type(), None);
    let before = map;
    unsafe {
        tensormap_replace_ord::<ElementStride, Global, 0>(&mut map, 2);
        tensormap_replace_imm::<InterleaveLayout, Global, 1>(&mut map);
        tensormap_replace_imm::<SwizzleMode, Shared, 3>(&mut map);
        tensormap_replace_imm::<SwizzleAtomicity, Generic, 1>(&mut map);
        tensormap_replace_imm::<FillMode, Global, 1>(&mut map);
    }
    assert_eq!(map, before, "the host map models none of these fields");
    // .elemtype 7 = .f32: the reduction adds floats
    unsafe { tensormap_replace_imm::<Elemtype, Global, 7>(&mut map) };
    assert_eq!(map.host_elem_type(), Some(TensorElem::F32));
    let s = Smem([1.5f32, -2.0, 0.25, 4.0]);
    unsafe { cp_reduce_async_bulk_tensor::<Add, Tile, _>(&map, [0], to_shared(s.0.as_ptr())) };
    done();
    assert_eq!(out.map(f32::from_bits), [1.5, -2.0, 0.25, 4.0]);
}

#[test]
#[should_panic(expected = "not a value of the field")]
fn tensormap_replace_rank_out_of_range_is_reported() {
    let d = [0u32; 4];
    let mut map = TensorMap::host_tiled(d.as_ptr().cast(), 4, &[4], &[], &[4]).unwrap();
    unsafe { tensormap_replace::<Rank, Global>(&mut map, 5) }; // rank 6
}

/// 5d: the traversal runs W, then H, then D, then the next image (N = 1: the next image is
/// out of the tensor). Element (d, h, w, c) = 1000d + 100h + 10w + c; the bounding box is the
/// whole 2 × 2 × 2 volume (corners 0).
#[test]
fn im2col_5d_traversal_order_and_the_multicast_form() {
    use ptx_sync::copy::{cp_async_bulk_tensor_load_im2col_with, Mods};
    let mut x = Vec::new();
    for d in 0..2u32 {
        for h in 0..2 {
            for w in 0..2 {
                for c in 0..4 {
                    x.push(1000 * d + 100 * h + 10 * w + c);
                }
            }
        }
    }
    let map = TensorMap::host_im2col(
        x.as_ptr().cast(),
        TensorElem::U32,
        &[4, 2, 2, 2, 1],
        &[16, 32, 64, 128],
        &[0, 0, 0],
        &[0, 0, 0],
        4,
        3,
    )
    .unwrap();
    let load = |coords: [i32; 5], offsets: [u16; 3]| {
        let mut t = Smem([9u32; 12]);
        let bar: Mbarrier = Mbarrier::new();
        bar.init(1);
        let _ = bar.arrive_expect_tx::<Release, Cta>(48);
        unsafe {
            cp_async_bulk_tensor_load_im2col_with(
                to_shared(t.0.as_mut_ptr()),
                &map,
                coords,
                offsets,
                &bar,
                Mods::NONE.multicast(0b1),
            )
        };
        assert!(bar.try_wait_parity::<Acquire, Cta>(Phase::ZERO), "48 bytes");
        t.0
    };
    // base pixels (w, h, d) = (0, 0, 0), (1, 0, 0), (0, 1, 0), read at d + 1
    #[rustfmt::skip]
    let want = [1000, 1001, 1002, 1003, 1010, 1011, 1012, 1013, 1100, 1101, 1102, 1103];
    assert_eq!(load([0, 0, 0, 0, 0], [0, 0, 1]), want);
    // from (0, 1, 1): (0, 1, 1), (1, 1, 1), then image 1 (out of the tensor)
    #[rustfmt::skip]
    let want = [1100, 1101, 1102, 1103, 1110, 1111, 1112, 1113, 0, 0, 0, 0];
    assert_eq!(load([0, 0, 1, 1, 0], [0, 0, 0]), want);
}

//! The host backend's tensor maps: this crate's own encoding of a tiled or im2col map
//! ([`TensorMap::host_tiled`], [`host_tiled_of`](TensorMap::host_tiled_of),
//! [`host_im2col`](TensorMap::host_im2col)), so that tensor copies and reductions run on the CPU,
//! and the walks over a box the host arms use. Not on nvptx64 (the driver encodes maps there).
//! PTX ISA §5.5.

use super::TensorMap;
#[allow(unused_imports)]
use crate::{Bf16, F16};
// Named by the docs links.
#[allow(unused_imports)]
use super::{cp_async_bulk_tensor_load, cp_reduce_async_bulk_tensor};

/// Magic word of a host-encoded tensor map (word 0).
const HOST_MAP_MAGIC: u64 = 0x7074_782d_7379_6e63; // "ptx-sync"

/// The element type of a host tensor map ([`TensorMap::host_tiled_of`],
/// [`TensorMap::host_tiled_typed`], [`TensorMap::host_im2col`]): the data types of
/// `cuTensorMapEncodeTiled`, numbered as the `.elemtype` values of `tensormap.replace` (PTX ISA
/// §9.7.9.27; `CUtensorMapDataType` 0–12). The host tensor reduction
/// ([`cp_reduce_async_bulk_tensor`]) reads it to pick the element's operation; the copies need
/// only its size.
///
/// No instruction (host backend only). PTX ISA §5.5, §9.7.9.27; seed §5.2.
///
/// # Examples
///
/// ```
/// use ptx_sync::copy::TensorElem;
/// assert_eq!(TensorElem::from_code(7), Some(TensorElem::F32));
/// assert_eq!(TensorElem::Bf16.bytes(), 2);
/// assert_eq!(TensorElem::from_code(13), None); // the sm_100a packed types are not modelled
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum TensorElem {
    /// `.u8` (0).
    U8 = 0,
    /// `.u16` (1).
    U16 = 1,
    /// `.u32` (2).
    U32 = 2,
    /// `.s32` (3).
    S32 = 3,
    /// `.u64` (4).
    U64 = 4,
    /// `.s64` (5).
    S64 = 5,
    /// `.f16` (6).
    F16 = 6,
    /// `.f32` (7).
    F32 = 7,
    /// `.f32` with flush-to-zero (8).
    F32Ftz = 8,
    /// `.f64` (9).
    F64 = 9,
    /// `.bf16` (10).
    Bf16 = 10,
    /// `.tf32` (11).
    Tf32 = 11,
    /// `.tf32` with flush-to-zero (12).
    Tf32Ftz = 12,
}

impl TensorElem {
    /// The type with `.elemtype` value `code` (0–12), `None` for any other.
    ///
    /// No instruction. PTX ISA §9.7.9.27.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(ptx_sync::copy::TensorElem::from_code(3), Some(ptx_sync::copy::TensorElem::S32));
    /// ```
    pub const fn from_code(code: u32) -> Option<TensorElem> {
        use TensorElem::*;
        Some(match code {
            0 => U8,
            1 => U16,
            2 => U32,
            3 => S32,
            4 => U64,
            5 => S64,
            6 => F16,
            7 => F32,
            8 => F32Ftz,
            9 => F64,
            10 => Bf16,
            11 => Tf32,
            12 => Tf32Ftz,
            _ => return None,
        })
    }
    /// The element's size in bytes.
    ///
    /// No instruction. PTX ISA §5.5.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(ptx_sync::copy::TensorElem::S64.bytes(), 8);
    /// ```
    pub const fn bytes(self) -> u32 {
        use TensorElem::*;
        match self {
            U8 => 1,
            U16 | F16 | Bf16 => 2,
            U32 | S32 | F32 | F32Ftz | Tf32 | Tf32Ftz => 4,
            U64 | S64 | F64 => 8,
        }
    }
}

/// A Rust element type of a typed host tensor map ([`TensorMap::host_tiled_of`]): `u8`, `u16`,
/// `u32`, `i32`, `u64`, `i64`, [`F16`], `f32`, `f64`, [`Bf16`].
///
/// No instruction (host backend only). PTX ISA §5.5.
///
/// # Examples
///
/// ```
/// use ptx_sync::copy::{HostTensorElem, TensorElem};
/// assert_eq!(<i32 as HostTensorElem>::ELEM, TensorElem::S32);
/// ```
pub trait HostTensorElem: Copy + host_seal::Sealed + 'static {
    /// The map's element type.
    const ELEM: TensorElem;
}
mod host_seal {
    pub trait Sealed {}
}
macro_rules! host_tensor_elems {
    ($($t:ty => $e:ident),*) => {$(
        impl host_seal::Sealed for $t {}
        impl HostTensorElem for $t {
            const ELEM: TensorElem = TensorElem::$e;
        }
    )*};
}
host_tensor_elems! { u8 => U8, u16 => U16, u32 => U32, i32 => S32, u64 => U64, i64 => S64,
crate::F16 => F16, f32 => F32, f64 => F64, crate::Bf16 => Bf16 }

/// The host map's layout (`opaque` words): 0 magic; 1 base; 2 element bytes (bits 0–7), element
/// type + 1 (bits 8–15, 0: untyped), rank (bits 32–39), mode (bits 40–47: 0 tile, 1 im2col);
/// 3–7 dims; 8–11 strides; 12–13 (bits 0–15 of 13) the box sides (16 bits each); im2col: word 13
/// bits 16–31 channels per pixel, 32–47 pixels per column, words 14/15 the lower/upper corners
/// (16 bits each, signed).
const HOST_MODE_IM2COL: u64 = 1;

impl TensorMap {
    /// Host backend only: a tiled tensor map in this crate's own encoding (not the driver's), so
    /// that tensor copies run on the CPU. `dims[0]` is the innermost dimension (elements),
    /// `strides[i]` the byte stride of dimension `i + 1`, `boxes` the box size per dimension.
    /// Checks what `cuTensorMapEncodeTiled` checks: element size 1..=16 bytes, rank 1..=5,
    /// strides multiples of 16, box sides 1..=256, inner box bytes a multiple of 16.
    ///
    /// The map is **untyped** (only the element size): the copies take it, the tensor reduction
    /// needs a typed map ([`host_tiled_of`](Self::host_tiled_of)).
    ///
    /// No instruction; not on nvptx64 (the driver encodes maps there: `ptx_sync_host::cuda`).
    /// PTX ISA §5.5.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::copy::TensorMap;
    /// let data = [0u32; 64]; // 8 × 8
    /// assert!(TensorMap::host_tiled(data.as_ptr().cast(), 4, &[8, 8], &[32], &[4, 4]).is_ok());
    /// assert!(TensorMap::host_tiled(data.as_ptr().cast(), 4, &[8, 8], &[36], &[4, 4]).is_err()); // stride % 16
    /// ```
    pub fn host_tiled(
        base: *const u8,
        elem_bytes: u32,
        dims: &[u64],
        strides: &[u64],
        boxes: &[u32],
    ) -> Result<TensorMap, &'static str> {
        if !(1..=16).contains(&elem_bytes) {
            return Err("the element size must be 1..=16 bytes");
        }
        let r = dims.len();
        if !(1..=5).contains(&r) || strides.len() + 1 != r || boxes.len() != r {
            return Err("rank must be 1..=5 with rank-1 strides and rank box sizes");
        }
        if strides.iter().any(|s| s % 16 != 0) {
            return Err("global strides must be multiples of 16 bytes");
        }
        if boxes.iter().any(|&b| b == 0 || b > 256) {
            return Err("box sizes must be in 1..=256");
        }
        if !(boxes[0] as u64 * elem_bytes as u64).is_multiple_of(16) {
            return Err("the inner box dimension must span a multiple of 16 bytes");
        }
        let mut w = [0u64; 16];
        w[0] = HOST_MAP_MAGIC;
        w[1] = base as u64;
        w[2] = elem_bytes as u64 | (r as u64) << 32;
        w[3..3 + r].copy_from_slice(dims);
        w[8..8 + r - 1].copy_from_slice(strides);
        for (i, &b) in boxes.iter().enumerate() {
            w[12 + i / 4] |= (b as u64) << (16 * (i % 4));
        }
        Ok(TensorMap { opaque: w })
    }

    /// Host backend only: [`host_tiled`](Self::host_tiled) with the element type `elem` (its
    /// size is the element size): what `cuTensorMapEncodeTiled`'s `tensorDataType` is. The
    /// tensor reduction ([`cp_reduce_async_bulk_tensor`]) needs it.
    ///
    /// No instruction; not on nvptx64. PTX ISA §5.5.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::copy::{TensorElem, TensorMap};
    /// let data = [0f32; 16];
    /// let map = TensorMap::host_tiled_typed(data.as_ptr().cast(), TensorElem::F32, &[16], &[], &[4]).unwrap();
    /// assert_eq!(map.host_elem_type(), Some(TensorElem::F32));
    /// ```
    pub fn host_tiled_typed(
        base: *const u8,
        elem: TensorElem,
        dims: &[u64],
        strides: &[u64],
        boxes: &[u32],
    ) -> Result<TensorMap, &'static str> {
        let mut m = Self::host_tiled(base, elem.bytes(), dims, strides, boxes)?;
        m.set_host_elem_type(elem);
        Ok(m)
    }

    /// Host backend only: [`host_tiled_typed`](Self::host_tiled_typed) with the element type
    /// of `T` (`u8` … `f64`, [`F16`], [`Bf16`]).
    ///
    /// No instruction; not on nvptx64. PTX ISA §5.5.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::copy::{TensorElem, TensorMap};
    /// let data = [0i32; 64];
    /// let map = TensorMap::host_tiled_of(data.as_ptr(), &[8, 8], &[32], &[4, 4]).unwrap();
    /// assert_eq!(map.host_elem_type(), Some(TensorElem::S32));
    /// ```
    pub fn host_tiled_of<T: HostTensorElem>(
        base: *const T,
        dims: &[u64],
        strides: &[u64],
        boxes: &[u32],
    ) -> Result<TensorMap, &'static str> {
        Self::host_tiled_typed(base.cast(), T::ELEM, dims, strides, boxes)
    }

    /// Host backend only: an **im2col** tensor map in this crate's encoding (what
    /// `cuTensorMapEncodeIm2col` describes), for the `.im2col` loads and the
    /// `.im2col_no_offs` reduction. The tensor is `N·(D)·(H)·W·C` with `dims[0]` = C (channels,
    /// innermost), `dims[1..rank-1]` the spatial dimensions W, H, D, `dims[rank-1]` = N;
    /// `strides` as for [`host_tiled`](Self::host_tiled); `lower` / `upper` (rank − 2 each, W
    /// first) the bounding box's corners: in spatial dimension `s` the base pixels run from
    /// `lower[s]` to `dims[1 + s] − 1 + upper[s]`; each load reads `pixels_per_column` pixels of
    /// `channels_per_pixel` channels.
    ///
    /// Checks what the driver checks for these fields: rank 3..=5, `lower`/`upper` of rank − 2
    /// values in the driver's range (rank 3: 16-bit, 4: 8-bit, 5: 5-bit signed), channels per
    /// pixel 1..=256 spanning a multiple of 16 bytes, pixels per column 1..=1024, a non-empty
    /// bounding box. Not modelled (always 1 / none): element strides, interleave, swizzle,
    /// `.im2col::w` modes.
    ///
    /// No instruction; not on nvptx64. PTX ISA §5.5 (im2col mode), §9.7.9.25.5.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::copy::{TensorElem, TensorMap};
    /// let x = [0u32; 4 * 8 * 2]; // N = 2, W = 8, C = 4
    /// let m = TensorMap::host_im2col(x.as_ptr().cast(), TensorElem::U32, &[4, 8, 2], &[16, 128], &[-1], &[-1], 4, 8);
    /// assert!(m.is_ok());
    /// let bad = TensorMap::host_im2col(x.as_ptr().cast(), TensorElem::U32, &[4, 8, 2], &[16, 128], &[-1], &[-1], 3, 8);
    /// assert!(bad.is_err()); // 3 channels × 4 bytes is not a multiple of 16
    /// ```
    #[allow(clippy::too_many_arguments)]
    pub fn host_im2col(
        base: *const u8,
        elem: TensorElem,
        dims: &[u64],
        strides: &[u64],
        lower: &[i32],
        upper: &[i32],
        channels_per_pixel: u32,
        pixels_per_column: u32,
    ) -> Result<TensorMap, &'static str> {
        let r = dims.len();
        if !(3..=5).contains(&r) || strides.len() + 1 != r {
            return Err("an im2col map has rank 3..=5 with rank-1 strides");
        }
        if lower.len() != r - 2 || upper.len() != r - 2 {
            return Err("the bounding box corners have rank-2 values each");
        }
        let bits = [16, 8, 5][r - 3];
        let (lo, hi) = (-(1i32 << (bits - 1)), (1i32 << (bits - 1)) - 1);
        if lower.iter().chain(upper).any(|c| !(lo..=hi).contains(c)) {
            return Err("a bounding box corner is out of the range for this rank");
        }
        if !(1..=256).contains(&channels_per_pixel)
            || !(channels_per_pixel as u64 * elem.bytes() as u64).is_multiple_of(16)
        {
            return Err("channels per pixel must be 1..=256 spanning a multiple of 16 bytes");
        }
        if !(1..=1024).contains(&pixels_per_column) {
            return Err("pixels per column must be 1..=1024");
        }
        if (0..r - 2).any(|s| dims[1 + s] as i64 - 1 + upper[s] as i64 - (lower[s] as i64) < 0) {
            return Err("the bounding box is empty");
        }
        if strides.iter().any(|s| s % 16 != 0) {
            return Err("global strides must be multiples of 16 bytes");
        }
        let mut w = [0u64; 16];
        w[0] = HOST_MAP_MAGIC;
        w[1] = base as u64;
        w[2] = elem.bytes() as u64
            | (elem as u64 + 1) << 8
            | (r as u64) << 32
            | HOST_MODE_IM2COL << 40;
        w[3..3 + r].copy_from_slice(dims);
        w[8..8 + r - 1].copy_from_slice(strides);
        w[13] = (channels_per_pixel as u64) << 16 | (pixels_per_column as u64) << 32;
        for s in 0..r - 2 {
            w[14] |= (lower[s] as u16 as u64) << (16 * s);
            w[15] |= (upper[s] as u16 as u64) << (16 * s);
        }
        Ok(TensorMap { opaque: w })
    }

    /// Host backend only: the element type of a typed host map (`None`: untyped, made by
    /// [`host_tiled`](Self::host_tiled), or not a host map).
    ///
    /// No instruction. PTX ISA §5.5.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::copy::TensorMap;
    /// let d = [0u32; 4];
    /// assert_eq!(TensorMap::host_tiled(d.as_ptr().cast(), 4, &[4], &[], &[4]).unwrap().host_elem_type(), None);
    /// ```
    pub fn host_elem_type(&self) -> Option<TensorElem> {
        if self.opaque[0] != HOST_MAP_MAGIC {
            return None;
        }
        match (self.opaque[2] >> 8) & 0xff {
            0 => None,
            k => TensorElem::from_code(k as u32 - 1),
        }
    }

    /// Host: whether this is a map of this crate's host encoding.
    pub(crate) fn is_host_map(&self) -> bool {
        self.opaque[0] == HOST_MAP_MAGIC
    }

    /// Host: the map, checked to be a host map (the copies' documented precondition).
    fn host_words(&self, what: &str) -> &[u64; 16] {
        assert!(
            self.is_host_map(),
            "{what} on the host backend needs a map made by TensorMap::host_tiled / \
             host_tiled_of / host_im2col (a driver-encoded CUtensorMap has no host meaning)"
        );
        &self.opaque
    }

    /// Host: sets the element type (and its size).
    pub(crate) fn set_host_elem_type(&mut self, e: TensorElem) {
        let w = &mut self.opaque[2];
        *w = (*w & !0xffff) | e.bytes() as u64 | (e as u64 + 1) << 8;
    }

    /// Host: the rank.
    pub(crate) fn host_rank(&self) -> usize {
        ((self.opaque[2] >> 32) & 0xff) as usize
    }

    /// Host: whether the map is an im2col map.
    pub(crate) fn host_is_im2col(&self) -> bool {
        (self.opaque[2] >> 40) & 0xff == HOST_MODE_IM2COL
    }

    /// Host: visits every element of the box at `coords`: `(box offset, Some(global address))`
    /// in bounds, `(box offset, None)` out of bounds. Returns the box's bytes.
    pub(crate) fn host_box(&self, coords: &[i32], f: impl FnMut(usize, Option<usize>)) -> u32 {
        let sides = self.host_tile_sides("a .tile tensor copy", coords.len());
        self.host_rows(coords, &sides[..coords.len()], f)
    }

    /// Host: the box sides of a tiled host map of rank `rank` (checked: a host map, tiled, of
    /// that rank; `what` names the instruction in the panic).
    pub(crate) fn host_tile_sides(&self, what: &str, rank: usize) -> [usize; 5] {
        let w = self.host_words(what);
        assert!(
            !self.host_is_im2col(),
            "{what} needs a tiled map (TensorMap::host_tiled*), not an im2col map"
        );
        let r = self.host_rank();
        assert_eq!(
            r, rank,
            "{what}: the tensor map's rank and the coordinate count differ"
        );
        let bx = |i: usize| ((w[12 + i / 4] >> (16 * (i % 4))) & 0xffff) as usize;
        core::array::from_fn(|i| if i < r { bx(i) } else { 1 })
    }

    /// Host: the elements of the box of sides `sides` at `coords` (innermost first), as
    /// [`host_box`](Self::host_box).
    pub(crate) fn host_rows(
        &self,
        coords: &[i32],
        sides: &[usize],
        mut f: impl FnMut(usize, Option<usize>),
    ) -> u32 {
        let w = &self.opaque;
        let (eb, r) = (self.host_elem(), sides.len());
        let total: usize = sides.iter().product();
        for e in 0..total {
            let (mut rem, mut addr, mut inb) = (e, w[1] as usize, true);
            for d in 0..r {
                let g = coords[d] as i64 + (rem % sides[d]) as i64;
                rem /= sides[d];
                inb &= g >= 0 && (g as u64) < w[3 + d];
                addr = addr.wrapping_add((g as usize).wrapping_mul(if d == 0 {
                    eb
                } else {
                    w[8 + d - 1] as usize
                }));
            }
            f(e * eb, if inb { Some(addr) } else { None });
        }
        (total * eb) as u32
    }

    /// Host: the address of the element at `g` (in bounds) or `None`.
    fn host_addr(&self, g: &[i64]) -> Option<usize> {
        let w = &self.opaque;
        let mut addr = w[1] as usize;
        for (d, &x) in g.iter().enumerate() {
            if x < 0 || x as u64 >= w[3 + d] {
                return None;
            }
            let stride = if d == 0 {
                self.host_elem()
            } else {
                w[8 + d - 1] as usize
            };
            addr = addr.wrapping_add((x as usize).wrapping_mul(stride));
        }
        Some(addr)
    }

    /// Host: visits the elements of the im2col box at `coords` with im2col `offsets` (PTX ISA
    /// §5.5 im2col mode): `pixels per column` pixels, starting at the base pixel `coords[1..r-1]`
    /// of image `coords[r-1]` and running through the bounding box (W fastest, then H, D, then
    /// the next image), each `channels per pixel` channels from `coords[0]`, read at the pixel
    /// plus `offsets`; out-of-tensor elements `None`. Returns the box's bytes.
    pub(crate) fn host_im2col_box(
        &self,
        coords: &[i32],
        offsets: &[u16],
        mut f: impl FnMut(usize, Option<usize>),
    ) -> u32 {
        let w = self.host_words("an .im2col tensor copy");
        assert!(
            self.host_is_im2col(),
            "an .im2col tensor copy needs an im2col map (TensorMap::host_im2col)"
        );
        let r = self.host_rank();
        assert!(
            coords.len() == r && offsets.len() == r - 2,
            "tensor map rank and coordinate count differ"
        );
        let eb = self.host_elem();
        let cpp = ((w[13] >> 16) & 0xffff) as usize;
        let ppc = ((w[13] >> 32) & 0xffff) as usize;
        let corner = |word: u64, s: usize| ((word >> (16 * s)) & 0xffff) as u16 as i16 as i64;
        let ns = r - 2;
        let lo: [i64; 3] = core::array::from_fn(|s| if s < ns { corner(w[14], s) } else { 0 });
        let side: [i64; 3] = core::array::from_fn(|s| {
            if s < ns {
                w[4 + s] as i64 - 1 + corner(w[15], s) - lo[s] + 1
            } else {
                1
            }
        });
        let per_image: i64 = side.iter().product();
        // The start pixel's linear index (images outermost).
        let mut start = coords[r - 1] as i64 * per_image;
        let mut scale = 1;
        for s in 0..ns {
            start += (coords[1 + s] as i64 - lo[s]) * scale;
            scale *= side[s];
        }
        let mut g = [0i64; 5];
        for p in 0..ppc {
            let lin = start + p as i64;
            let (n, mut rem) = (lin.div_euclid(per_image), lin.rem_euclid(per_image));
            for s in 0..ns {
                g[1 + s] = lo[s] + rem % side[s] + offsets[s] as i64;
                rem /= side[s];
            }
            g[r - 1] = n;
            for c in 0..cpp {
                g[0] = coords[0] as i64 + c as i64;
                f((p * cpp + c) * eb, self.host_addr(&g[..r]));
            }
        }
        (ppc * cpp * eb) as u32
    }

    pub(crate) fn host_elem(&self) -> usize {
        (self.opaque[2] & 0xff) as usize
    }
}

//! The host arm of `tensormap.replace` ([`crate::tensormap::replace`], the rows of
//! `device/isa/tensormap_replace.rows`): the field written into a host map
//! (`TensorMap::host_tiled*` / `host_im2col`, this crate's own layout; the module docs of
//! `tensormap::replace` list the fields and their values).

use crate::copy::TensorMap;
use crate::tensormap::replace::Field;

/// Writes field `F` (dimension `ord`) of the host map at `map`, `ptx` the instruction (for
/// the panics: a driver-encoded map, a value outside the field's range).
///
/// # Safety
/// `map` points to a live `TensorMap` nothing else accesses.
pub(crate) unsafe fn replace<F: Field>(ptx: &str, map: *mut TensorMap, ord: u32, v: u64) {
    // SAFETY: the caller keeps this function's contract (its `# Safety`).
    unsafe {
        let m = &mut *map;
        assert!(
        m.is_host_map(),
        "`{ptx}` on the host backend needs a map made by TensorMap::host_tiled / host_tiled_of / \
         host_im2col (a driver-encoded CUtensorMap has no host meaning)"
    );
        let bad =
            || -> ! { panic!("`{ptx}`: {v} is not a value of the field (PTX ISA §9.7.9.27)") };
        let (w, d) = (&mut m.opaque, ord as usize);
        match F::PTX {
            ".global_address" => w[1] = v,
            ".rank" => {
                if v > 4 {
                    bad()
                }
                w[2] = (w[2] & !(0xff << 32)) | (v + 1) << 32;
            }
            ".box_dim" => {
                if !(1..=256).contains(&v) {
                    bad()
                }
                let sh = 16 * (d % 4);
                w[12 + d / 4] = (w[12 + d / 4] & !(0xffff << sh)) | v << sh;
            }
            ".global_dim" => w[3 + d] = v,
            ".global_stride" => {
                if d > 3 || !v.is_multiple_of(16) {
                    bad()
                }
                w[8 + d] = v;
            }
            ".elemtype" => match crate::copy::TensorElem::from_code(v as u32) {
                Some(e) => m.set_host_elem_type(e),
                None => bad(),
            },
            // Not modelled by the host map: a no-op (see the module docs).
            _ => {}
        }
    }
}

// A vector store cannot acquire (PTX ISA §9.7.9.10: `st.release`/`st.relaxed` only, `.v4`
// included).
use ptx_sync::atomic::vector::{Vector, V4U32};
use ptx_sync::*;

fn main() {
    let cell: Strong<V4U32> = Strong::new(Vector([0; 4]));
    cell.at::<Gpu>().store::<Acquire>(Vector([1; 4]));
}

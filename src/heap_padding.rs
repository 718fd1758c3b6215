//! The C heap's padding for the `rigscope` program. glibc's malloc grows its heap a little at a
//! time and gives freed memory at its top back to the kernel, so each texture a picture
//! uploads (its decoded pixels, wgpu's staging copy, llvmpipe's texture, which llvmpipe zeroes)
//! arrives in fresh pages that the kernel must fault in and clear. Growing it 64 MiB at a time,
//! and keeping as much when it shrinks, lets the next texture reuse pages already touched:
//! `render` of a Ready Player Me avatar (eleven 1024² textures) in 0.93 of the wall time, its
//! peak 15 MiB lower (docs/PERFORMANCE.md). Only the program sets it: a process using the
//! library (Python's) keeps its own allocator settings.

/// What the heap grows by beyond a request, and keeps when it shrinks.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const TOP_PAD: libc::c_int = 64 << 20;

/// Pads the heap's growth and trimming by `TOP_PAD` (glibc only; elsewhere nothing).
pub fn pad_heap() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `mallopt` sets one of the allocator's parameters, under its own lock.
    unsafe {
        libc::mallopt(libc::M_TOP_PAD, TOP_PAD);
    }
}

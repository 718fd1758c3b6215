//! The C heap's padding for the `rigscope` program: glibc's malloc grows its heap 64 MiB beyond
//! each request and keeps 64 MiB free at its top when it shrinks, where by default it grows by
//! little and gives back what is freed at once (setting the padding also fixes the size past
//! which a block is mapped apart at 128 KiB, which glibc otherwise raises as large blocks are
//! freed). A picture allocates and frees in turn (decoded images, staging copies, llvmpipe's
//! textures, buffers of every size): padded, `render` of a Ready Player Me avatar faults 49,000
//! pages instead of 62,000 and takes 0.93 of the wall time, its peak 15 MiB lower
//! (docs/PERFORMANCE.md). Only the program sets it: a process using the library (Python's)
//! keeps its own allocator settings.

/// What the heap grows by beyond a request, and keeps when it shrinks.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const TOP_PAD: libc::c_int = 64 << 20;

/// Pads the heap's growth and trimming by `TOP_PAD` (glibc only; elsewhere nothing). Call it
/// before any other thread starts: glibc's `mallopt` is not safe beside other threads'
/// allocations.
pub fn pad_heap() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: called first in `run_command_line`, before any other thread starts; it passes no
    // pointers.
    unsafe {
        libc::mallopt(libc::M_TOP_PAD, TOP_PAD);
    }
}

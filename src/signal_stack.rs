//! An alternate signal stack for a thread portcullis starts (replay's
//! workers), so that a stack overflow on it reaches the binary's fault
//! handler (which exits 2) instead of killing the process by signal: a
//! handler cannot run on the stack that overflowed.
//!
//! Rust's own start-up gives every spawned thread one; the binary's C
//! `main` on Linux (`src/start.rs`) replaces that start-up, so threads get
//! theirs here. Takes the thread's work; touches only the calling thread's
//! signal stack, and restores it when the work returns.

/// Bytes of each thread's alternate signal stack (the handler only calls
/// `write` and `_exit`).
const BYTES: usize = 64 * 1024;

/// Runs `work` on the calling thread with an alternate signal stack set
/// up, and takes it down afterwards. If the thread already has one, or
/// one cannot be set, `work` runs as it is.
pub fn with_alternate_stack<T>(work: impl FnOnce() -> T) -> T {
    let mut stack = vec![0u8; BYTES];
    let wanted = libc::stack_t {
        ss_sp: stack.as_mut_ptr().cast(),
        ss_flags: 0,
        ss_size: BYTES,
    };
    // SAFETY: `old` is written by sigaltstack; `stack` outlives every use
    // of it as the signal stack (it is disabled again before it is freed).
    let installed = unsafe {
        let mut old: libc::stack_t = std::mem::zeroed();
        libc::sigaltstack(std::ptr::null(), &mut old) == 0
            && old.ss_flags & libc::SS_DISABLE != 0
            && libc::sigaltstack(&wanted, std::ptr::null_mut()) == 0
    };
    let result = work();
    if installed {
        let off = libc::stack_t {
            ss_sp: std::ptr::null_mut(),
            ss_flags: libc::SS_DISABLE,
            ss_size: 0,
        };
        // SAFETY: disables this thread's signal stack before its memory
        // is freed.
        unsafe { libc::sigaltstack(&off, std::ptr::null_mut()) };
    }
    drop(stack);
    result
}

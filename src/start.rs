//! The process's start: the signal set-up a hook call needs before any
//! input is read, and, on Linux, the C `main` that replaces Rust's own
//! start-up (issue 19).
//!
//! Rust's start-up (`std::rt::lang_start`) costs a hook call about 50 k
//! instructions and a dozen system calls before `main` runs, most of them
//! to find the main thread's stack: glibc's `pthread_getattr_np` opens and
//! parses `/proc/self/maps`, and an alternate signal stack is mapped with a
//! guard page. A hook is a new process for every tool call, so on Linux the
//! binary has its own C `main` (the crate is `no_main` there) that does
//! what a hook needs of that start and nothing else:
//! - fds 0 to 2, if closed, are opened on `/dev/null`, as Rust does, so a
//!   file opened later never receives the decision;
//! - SIGPIPE is ignored, as Rust does: a closed pipe is an error a write
//!   returns, not a death by signal;
//! - the alternate signal stack is a static buffer (untouched, so free,
//!   until a signal arrives), and [`install_abort_handler`] runs on it;
//! - stdout is flushed before the process exits.
//!
//! Everywhere else (and in the binary's unit tests) Rust's own start runs.
//! Takes nothing; touches only the process's signal state and fds 0 to 2.

use std::io::{self, Write};

/// An abort (tree-sitter out of memory, an allocation failure) or a fault
/// (a stack overflow, a fault in the parsers' C code) would end the process
/// by signal, which Claude Code reads as "no opinion" and runs the tool.
/// This handler turns it into one stderr line and exit 2, which blocks the
/// call. Only async-signal-safe calls: `write` and `_exit`.
extern "C" fn abort_handler(_signal: libc::c_int) {
    const MESSAGE: &[u8] = b"portcullis: internal error (abort); blocking to be safe\n";
    // SAFETY: write and _exit are async-signal-safe; the buffer is static.
    unsafe {
        libc::write(2, MESSAGE.as_ptr().cast(), MESSAGE.len());
        libc::_exit(2);
    }
}

/// SIGABRT, and SIGSEGV and SIGBUS (a fault in the parsers' C code, a
/// stack overflow) too. The handler runs on the main thread's alternate
/// signal stack (`SA_ONSTACK`: [`main`]'s static one on Linux, the one
/// Rust's runtime maps elsewhere), so a stack overflow reaches it.
pub fn install_abort_handler() {
    // SAFETY: sigaction with a zeroed struct, an empty mask and a handler
    // that only calls async-signal-safe functions.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = abort_handler as *const () as libc::sighandler_t;
        action.sa_flags = libc::SA_ONSTACK;
        libc::sigemptyset(&mut action.sa_mask);
        for signal in [libc::SIGABRT, libc::SIGSEGV, libc::SIGBUS] {
            libc::sigaction(signal, &action, std::ptr::null_mut());
        }
    }
}

/// Writes what is left in stdout's buffer (Rust's start-up does this after
/// `main` returns; a C `main` must do it itself).
pub fn flush_stdout() {
    let _ = io::stdout().flush();
}

/// Bytes of the alternate signal stack: far more than the handler's two
/// calls need, and at least glibc's `MINSIGSTKSZ` on every architecture.
#[cfg(all(target_os = "linux", not(test)))]
const ALT_STACK_BYTES: usize = 64 * 1024;

/// The alternate signal stack. In `.bss`: no page of it is touched, so
/// none costs memory, until a signal handler runs on it. (Not
/// `portcullis::signal_stack`, which replay's workers use: its zeroed heap
/// buffer cost a hook call 62 k instructions and 16 touched pages.)
#[cfg(all(target_os = "linux", not(test)))]
#[repr(C, align(16))]
struct AltStack([u8; ALT_STACK_BYTES]);

#[cfg(all(target_os = "linux", not(test)))]
static mut ALT_STACK: AltStack = AltStack([0; ALT_STACK_BYTES]);

/// The process's entry on Linux, called by glibc's start with the command
/// line. Returns the exit code.
#[cfg(all(target_os = "linux", not(test)))]
#[unsafe(no_mangle)]
extern "C" fn main(argc: libc::c_int, argv: *const *const libc::c_char) -> libc::c_int {
    // SAFETY: called once, first, on the main thread, before any other
    // code of this process reads a file or writes a byte.
    unsafe {
        open_closed_standard_fds();
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
        let stack = libc::stack_t {
            ss_sp: (&raw mut ALT_STACK).cast(),
            ss_flags: 0,
            ss_size: ALT_STACK_BYTES,
        };
        libc::sigaltstack(&stack, std::ptr::null_mut());
    }
    install_abort_handler();
    // SAFETY: glibc passes `argc` valid NUL-terminated strings in `argv`.
    let args = unsafe { arguments(argc, argv) };
    let code = crate::run_main(args);
    flush_stdout();
    libc::c_int::from(code)
}

/// The words of the command line after the program's name, as the kernel
/// passed them.
///
/// # Safety
/// `argv` holds `argc` pointers to NUL-terminated strings (C's `main`).
#[cfg(all(target_os = "linux", not(test)))]
unsafe fn arguments(
    argc: libc::c_int,
    argv: *const *const libc::c_char,
) -> Vec<std::ffi::OsString> {
    use std::os::unix::ffi::OsStringExt;
    let count = usize::try_from(argc).unwrap_or(0);
    (1..count)
        .filter_map(|i| {
            // SAFETY: i < argc, so argv[i] is one of the strings.
            let word = unsafe { *argv.add(i) };
            (!word.is_null()).then(|| {
                // SAFETY: a NUL-terminated string from the kernel.
                let bytes = unsafe { std::ffi::CStr::from_ptr(word) }.to_bytes();
                std::ffi::OsString::from_vec(bytes.to_vec())
            })
        })
        .collect()
}

/// Opens `/dev/null` on each of fds 0 to 2 that is closed (poll says
/// `POLLNVAL`), as Rust's start-up does: else the first file portcullis
/// opens would be fd 1, and the decision would be written into it.
///
/// # Safety
/// Only at start, before other code opens files.
#[cfg(all(target_os = "linux", not(test)))]
unsafe fn open_closed_standard_fds() {
    let mut fds = [0, 1, 2].map(|fd| libc::pollfd {
        fd,
        events: 0,
        revents: 0,
    });
    // SAFETY: three valid pollfd structs; a zero timeout.
    if unsafe { libc::poll(fds.as_mut_ptr(), 3, 0) } < 0 {
        return;
    }
    for pollfd in fds {
        if pollfd.revents & libc::POLLNVAL != 0 {
            // SAFETY: a static NUL-terminated path. The lowest free fd is
            // the closed one, since lower ones are open or reopened first.
            unsafe { libc::open(c"/dev/null".as_ptr(), libc::O_RDWR) };
        }
    }
}

//! A progress bar on stderr for `replay`, shown only when the replay takes
//! more than a second and stderr is a terminal (nothing on stdout, nothing
//! in pipes).

use std::io::{self, IsTerminal};
use std::time::{Duration, Instant};

/// The bar of one replay, not drawn until a second has passed.
pub struct Progress {
    total: Option<u64>,
    started: Instant,
    bar: Option<indicatif::ProgressBar>,
    terminal: bool,
}

impl Progress {
    /// A bar for `total` bytes (a spinner when `None`: stdin, or a size
    /// that cannot be read), started now.
    pub fn new(total: Option<u64>) -> Progress {
        Progress {
            total,
            started: Instant::now(),
            bar: None,
            terminal: io::stderr().is_terminal(),
        }
    }

    /// Shows that `bytes` of input have been read so far.
    pub fn update(&mut self, bytes: usize) {
        if !self.terminal {
            return;
        }
        if self.bar.is_none() && self.started.elapsed() >= Duration::from_secs(1) {
            let bar = match self.total {
                Some(total) => indicatif::ProgressBar::new(total).with_style(
                    indicatif::ProgressStyle::with_template(
                        "replay {bar:40} {bytes}/{total_bytes} ({bytes_per_sec}, {eta} left)",
                    )
                    .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
                ),
                None => indicatif::ProgressBar::new_spinner().with_style(
                    indicatif::ProgressStyle::with_template(
                        "replay {spinner} {bytes} read ({bytes_per_sec})",
                    )
                    .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
                ),
            };
            bar.set_draw_target(indicatif::ProgressDrawTarget::stderr());
            // The rate counts from now, not from the bytes read before the
            // bar appeared.
            bar.set_position(bytes as u64);
            bar.reset_eta();
            self.bar = Some(bar);
        }
        if let Some(bar) = &self.bar {
            bar.set_position(bytes as u64);
        }
    }

    /// Clears the bar, if one was drawn.
    pub fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}

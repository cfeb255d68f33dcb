//! The progress bar of runs over several files: one line on stderr,
//! `[12/60] file`, rewritten in place. It is drawn only on a terminal, so
//! logs and pipes never see it, and it is wiped before each result is
//! printed so that results and bar do not mix. `--quiet` turns it off;
//! `--verbose` off a terminal writes each `[12/60] file` as a line of its
//! own, for logs.

use std::io::Write;

/// Erases the current terminal line (carriage return, then clear to end).
const WIPE: &str = "\r\x1b[K";

/// The bar; a disabled one writes nothing.
pub struct Progress {
    total: usize,
    enabled: bool,
    shown: bool,
    /// A line a file, never rewritten (`--verbose` off a terminal).
    lines: bool,
}

impl Progress {
    /// The bar of a command over `total` files, as the global flags and
    /// stderr have it.
    pub fn of(total: usize, g: super::Globals) -> Progress {
        let terminal = std::io::IsTerminal::is_terminal(&std::io::stderr());
        let mut bar = Progress::new(total, !g.quiet && (terminal || g.verbose));
        bar.lines = !terminal;
        bar
    }

    /// A bar over `total` items, drawn when `enabled` (stderr is a
    /// terminal and there is more than one item).
    pub fn new(total: usize, enabled: bool) -> Progress {
        Progress {
            total,
            enabled: enabled && total > 1,
            shown: false,
            lines: false,
        }
    }

    /// Shows that item `index` (from 0), called `name`, is running.
    pub fn start(&mut self, err: &mut dyn Write, index: usize, name: &str) {
        if !self.enabled {
            return;
        }
        if self.lines {
            let _ = writeln!(err, "[{}/{}] {name}", index + 1, self.total);
            return;
        }
        let _ = write!(err, "{WIPE}[{}/{}] {name}", index + 1, self.total);
        let _ = err.flush();
        self.shown = true;
    }

    /// Wipes the bar, before a result is printed or at the end.
    pub fn clear(&mut self, err: &mut dyn Write) {
        if self.shown {
            let _ = write!(err, "{WIPE}");
            let _ = err.flush();
            self.shown = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_rewrites_and_wipes() {
        let mut err = Vec::new();
        let mut p = Progress::new(3, true);
        p.start(&mut err, 0, "a.litmus");
        p.start(&mut err, 1, "b.litmus");
        p.clear(&mut err);
        p.clear(&mut err);
        assert_eq!(
            String::from_utf8(err).unwrap(),
            "\r\x1b[K[1/3] a.litmus\r\x1b[K[2/3] b.litmus\r\x1b[K"
        );
    }

    #[test]
    fn silent_when_disabled_or_single() {
        for (total, enabled) in [(3, false), (1, true)] {
            let mut err = Vec::new();
            let mut p = Progress::new(total, enabled);
            p.start(&mut err, 0, "a.litmus");
            p.clear(&mut err);
            assert!(err.is_empty());
        }
    }
}

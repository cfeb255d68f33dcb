//! Progress on the long commands: a bar on stderr with how far it is and
//! the time left (`[12/60] ███▌   3m 05s left · file`), drawn by indicatif
//! only where stderr is a terminal, so that logs and pipes never see it,
//! and wiped before anything else is printed. `--quiet` and
//! `LITMUS_QUIET=1` leave it out; `--verbose` off a terminal writes each
//! `[12/60] file` of `run` and `campaign` as a line of its own, for logs.

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

/// `--quiet`, for the bars of engines that are not handed the global
/// flags (`tune`'s search, shared with `campaign --tune`); set by each
/// command line as it is dispatched.
static QUIET: AtomicBool = AtomicBool::new(false);

/// Records the command line's `--quiet` for every bar it draws.
pub fn set_quiet(quiet: bool) {
    QUIET.store(quiet, Ordering::Relaxed);
}

/// Whether a bar may be drawn: stderr is a terminal and neither `--quiet`
/// nor `LITMUS_QUIET=1` asks for silence (a bad value of the variable is
/// the runner's to refuse; here it draws nothing).
fn drawn() -> bool {
    let quiet =
        QUIET.load(Ordering::Relaxed) || !matches!(litmus_runner::config::quiet(), Ok(false));
    !quiet && std::io::stderr().is_terminal()
}

/// The time left, as the bars say it: the time so far, times the steps
/// left over the steps done (`3m 05s`); `?` before the first step ends.
pub fn left(elapsed: Duration, done: u64, total: u64) -> String {
    if done == 0 {
        return "?".to_string();
    }
    let rest = total.saturating_sub(done) as f64 / done as f64;
    let secs = (elapsed.as_secs_f64() * rest).round() as u64;
    match secs {
        0..=59 => format!("{secs}s"),
        60..=3599 => format!("{}m {:02}s", secs / 60, secs % 60),
        _ => format!("{}h {:02}m", secs / 3600, secs % 3600 / 60),
    }
}

/// A bar on a terminal's stderr, or nothing (every call then does
/// nothing). It is `Sync`: the threads that do the work move it on
/// through a shared reference.
pub struct Bar(Option<ProgressBar>);

impl Bar {
    /// A bar over `total` steps, `layout` being indicatif's template with
    /// `{left}`, the time left ([`left`]), drawn when [`drawn`] says so.
    pub fn new(total: u64, layout: &str) -> Bar {
        let bar = Bar::since(total, layout, Duration::ZERO, drawn());
        bar.show();
        bar
    }

    /// A bar whose work began `elapsed` ago, drawn when `shown`, but not
    /// before [`Bar::show`]: what it says can be set first, so that its
    /// first frame is not an empty one.
    fn since(total: u64, layout: &str, elapsed: Duration, shown: bool) -> Bar {
        if !shown {
            return Bar(None);
        }
        let style = ProgressStyle::with_template(layout)
            .expect("the bars' templates are valid")
            .with_key("left", |s: &ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = w.write_str(&left(s.elapsed(), s.pos(), s.len().unwrap_or(0)));
            })
            .progress_chars("█▉▊▋▌▍▎▏ ");
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::hidden())
            .with_style(style)
            .with_elapsed(elapsed);
        Bar(Some(bar))
    }

    /// Draws the bar from now on (on stderr: indicatif's target, itself
    /// hidden where stderr is no terminal or `TERM=dumb`).
    fn show(&self) {
        if let Some(b) = &self.0 {
            b.set_draw_target(ProgressDrawTarget::stderr());
            b.tick();
        }
    }

    /// A bar over `total` steps of a count (`checking the tests 12/40`).
    pub fn count(total: u64) -> Bar {
        Bar::new(total, "{msg} {pos}/{len} {bar:24} {left} left")
    }

    /// Starts a new stage of `total` steps, said by `what`: the count and
    /// the time left start again.
    pub fn stage(&self, what: &str, total: u64) {
        if let Some(b) = &self.0 {
            b.reset();
            b.set_length(total);
            b.set_message(what.to_string());
        }
    }

    /// One more step done.
    pub fn inc(&self) {
        if let Some(b) = &self.0 {
            b.inc(1);
        }
    }

    /// Says what is being done now.
    pub fn say(&self, what: String) {
        if let Some(b) = &self.0 {
            b.set_message(what);
        }
    }

    /// Runs `f` (which prints) with the bar wiped, then draws it again.
    pub fn aside<R>(&self, f: impl FnOnce() -> R) -> R {
        match &self.0 {
            Some(b) => b.suspend(f),
            None => f(),
        }
    }

    /// The family-wide search's state after a wave (`tune`, `campaign
    /// --tune`): GPU time spent of the budget, and the tests whose weak
    /// outcome has shown; `on` names the device kind searched, if any.
    pub fn wave(&self, p: &litmus_tune::family::Progress, on: &str) {
        let Some(b) = &self.0 else {
            return;
        };
        b.set_length(p.budget.as_millis() as u64);
        b.set_position(p.spent.as_millis() as u64);
        b.set_message(format!(
            "[wave {}{on}] seen {}/{}, GPU {:.1}/{:.1} s",
            p.wave,
            p.seen,
            p.tests,
            p.spent.as_secs_f64(),
            p.budget.as_secs_f64()
        ));
    }

    /// The bar of the family-wide search: [`Bar::wave`] moves it.
    pub fn search() -> Bar {
        Bar::new(1, "{msg} {bar:24} {left} left")
    }
}

impl Drop for Bar {
    /// A bar is wiped when it goes, so that an early return leaves none
    /// behind on the terminal.
    fn drop(&mut self) {
        if let Some(b) = self.0.take() {
            b.finish_and_clear();
        }
    }
}

/// The bar of a command over several files (`run`, `campaign`): `[12/60]`
/// and the file running, wiped while results are printed.
pub struct Progress {
    total: usize,
    enabled: bool,
    /// When the command's first file started: the time left counts from
    /// it, across the bars each result's printing wipes.
    began: Instant,
    bar: Option<Bar>,
    /// A line a file, never rewritten (`--verbose` off a terminal).
    lines: bool,
}

impl Progress {
    /// The bar of a command over `total` files, as the global flags and
    /// stderr have it.
    pub fn of(total: usize, g: super::Globals) -> Progress {
        let terminal = drawn();
        let mut bar = Progress::new(total, terminal || (g.verbose && !g.quiet));
        bar.lines = !terminal;
        bar
    }

    /// A bar over `total` items, drawn when `enabled` (stderr is a
    /// terminal and there is more than one item).
    pub fn new(total: usize, enabled: bool) -> Progress {
        Progress {
            total,
            enabled: enabled && total > 1,
            began: Instant::now(),
            bar: None,
            lines: false,
        }
    }

    /// Shows that item `index` (from 0), called `name`, is running.
    pub fn start(&mut self, err: &mut dyn Write, index: usize, name: &str) {
        if !self.enabled {
            return;
        }
        let counted = format!("[{}/{}]", index + 1, self.total);
        if self.lines {
            let _ = writeln!(err, "{counted} {name}");
            return;
        }
        let layout = "{prefix} {bar:24} {left} left · {wide_msg}";
        let elapsed = self.began.elapsed();
        let bar = (self.bar.take())
            .unwrap_or_else(|| Bar::since(self.total as u64, layout, elapsed, true));
        if let Some(b) = &bar.0 {
            b.set_prefix(counted);
            b.set_message(name.to_string());
            b.set_position(index as u64);
        }
        bar.show();
        self.bar = Some(bar);
    }

    /// Wipes the bar, before a result is printed or at the end.
    pub fn clear(&mut self, _err: &mut dyn Write) {
        self.bar = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_time_left_scales_the_time_so_far() {
        let s = Duration::from_secs;
        assert_eq!(left(s(10), 0, 5), "?");
        assert_eq!(left(s(10), 1, 5), "40s");
        assert_eq!(left(s(30), 1, 5), "2m 00s");
        assert_eq!(left(s(65), 1, 2), "1m 05s");
        assert_eq!(left(s(3600), 1, 3), "2h 00m");
        assert_eq!(left(s(1830), 1, 2), "30m 30s");
        assert_eq!(left(s(3660), 1, 2), "1h 01m");
        assert_eq!(left(s(10), 5, 5), "0s");
        // A count past its total (a stage's length changed) is no time.
        assert_eq!(left(s(10), 6, 5), "0s");
    }

    #[test]
    fn verbose_lines_off_a_terminal() {
        let mut err = Vec::new();
        let mut p = Progress::new(3, true);
        p.lines = true;
        p.start(&mut err, 0, "a.litmus");
        p.clear(&mut err);
        p.start(&mut err, 1, "b.litmus");
        assert_eq!(
            String::from_utf8(err).unwrap(),
            "[1/3] a.litmus\n[2/3] b.litmus\n"
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
            assert!(p.bar.is_none());
        }
    }

    #[test]
    fn a_wave_of_the_search_moves_the_bar_by_gpu_time() {
        // Made to be drawn but never shown: its state, no terminal.
        let bar = Bar::since(1, "{msg} {left}", Duration::ZERO, true);
        let p = litmus_tune::family::Progress {
            wave: 3,
            seen: 2,
            tests: 5,
            spent: Duration::from_millis(1200),
            budget: Duration::from_secs(32),
            dropped: 0,
            pool: 64,
        };
        bar.wave(&p, " on H200");
        let b = bar.0.as_ref().unwrap();
        assert_eq!(b.message(), "[wave 3 on H200] seen 2/5, GPU 1.2/32.0 s");
        assert_eq!((b.position(), b.length()), (1200, Some(32_000)));
        assert!(b.is_hidden());
    }

    #[test]
    fn a_bar_not_drawn_does_nothing() {
        let bar = Bar::since(4, "{pos}/{len} {left}", Duration::ZERO, false);
        bar.stage("checking", 4);
        bar.inc();
        bar.say("x".into());
        assert_eq!(bar.aside(|| 7), 7);
        assert!(bar.0.is_none());
    }
}

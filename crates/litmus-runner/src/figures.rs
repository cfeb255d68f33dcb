//! What a campaign says of one test's run: the weak and forbidden counts
//! of its report, and why it failed in one line. In the runner rather than
//! the command line, as figures of a [`TestReport`] any tool may print.

use litmus_core::ir::Verdict;
use litmus_hw::HwResult;

use crate::runner::{Hardware, TestReport};

/// The counts a campaign line gives for one test's run.
pub struct Figures<'a> {
    /// Whether the model allows the test's condition.
    pub condition_allowed: bool,
    /// Instances with an outcome the model forbids.
    pub forbidden: u64,
    /// Instances with an outcome the condition describes.
    pub weak: u64,
    /// The hardware run, when there was one.
    pub ran: Option<&'a HwResult>,
}

impl<'a> Figures<'a> {
    /// Counts the report's forbidden and weak outcomes.
    pub fn of(report: &'a TestReport) -> Figures<'a> {
        let condition_allowed = match report.computed {
            Some(Verdict::Allowed) => true,
            Some(Verdict::Forbidden) | None => false,
        };
        let forbidden: u64 = report
            .rows
            .iter()
            .filter(|r| r.is_violation())
            .filter_map(|r| r.seen)
            .sum();
        let ran = match &report.hardware {
            Hardware::Ran(r) => Some(r.as_ref()),
            _ => None,
        };
        let weak: u64 = report
            .rows
            .iter()
            .filter(|r| r.satisfies_condition)
            .filter_map(|r| r.seen)
            .sum();
        Figures {
            condition_allowed,
            forbidden,
            weak,
            ran,
        }
    }
}

/// Why the test failed, in one line: its failures, then why its reports
/// could not be written.
pub fn failures(report: &TestReport, unwritten: Option<&str>) -> String {
    let failures: Vec<String> = report.failures.iter().map(|f| f.to_string()).collect();
    let mut failures = failures.join("; ");
    if let Some(u) = unwritten {
        if !failures.is_empty() {
            failures.push_str("; ");
        }
        failures.push_str(u);
    }
    failures
}

//! The JSON record of one test run: everything a CI dashboard or a script
//! needs, one file per test.

use serde_json::{json, Value};

use crate::runner::{Hardware, TestReport};

/// The record: test, model, declared and computed verdicts, the allowed
/// set, the histogram, the device, seed and budget, and whether it passed.
pub fn record(report: &TestReport) -> Value {
    let (device, instances, launches, wall_ms, unfinished) = match &report.hardware {
        Hardware::Ran(r) => (
            json!(r.device),
            json!(r.instances),
            json!(r.launches),
            json!(r.wall.as_secs_f64() * 1e3),
            json!(r.unfinished),
        ),
        _ => (
            Value::Null,
            Value::Null,
            Value::Null,
            Value::Null,
            Value::Null,
        ),
    };
    let hardware = match &report.hardware {
        Hardware::Ran(_) => json!({"status": "ran"}),
        Hardware::Skipped(why) => json!({"status": "skipped", "reason": why}),
        Hardware::NotRun(why) => json!({"status": "not run", "reason": why}),
        Hardware::Failed(why) => json!({"status": "failed", "reason": why}),
        Hardware::Off => json!({"status": "not asked for"}),
    };
    let knobs = report.knobs.as_ref();
    json!({
        "test": report.test,
        "id": report.id(),
        "model": report.model,
        "declared_verdict": report.declared.map(|v| v.as_str()),
        "computed_verdict": report.computed.map(|v| v.as_str()),
        "observables": report.observables,
        "allowed": report.rows.iter().filter(|r| r.allowed).map(|r| &r.values).collect::<Vec<_>>(),
        "histogram": report.rows.iter().filter(|r| r.seen.unwrap_or(0) > 0).map(|r| json!({
            "outcome": r.values,
            "text": r.text,
            "count": r.seen,
            "allowed": r.allowed,
            "beyond_loop_bound": r.beyond_loop_bound,
            "condition": r.satisfies_condition,
        })).collect::<Vec<_>>(),
        "condition_observed": report.condition_seen(),
        "hardware": hardware,
        "device": device,
        "instances": instances,
        "launches": launches,
        "wall_ms": wall_ms,
        "unfinished": unfinished,
        "seed": knobs.map(|k| k.seed),
        "budget": {
            "budget_ms": knobs.map(|k| k.budget_ms),
            "launches": knobs.and_then(|k| k.launches),
        },
        "knobs": knobs.map(|k| k.to_string()),
        "reproduce": crate::report::text::reproduce(report),
        "passed": report.passed(),
        "failures": report.failures.iter().map(|f| f.to_string()).collect::<Vec<_>>(),
        "compiler": report.compiler,
        "build": match &report.hardware {
            Hardware::Ran(r) => Some(r.build.to_string()),
            _ => None,
        },
    })
}

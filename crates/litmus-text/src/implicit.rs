//! Locations the text uses but does not declare. herd7 and Dat3M read
//! such a location as a global word initialised to 0, and published
//! corpora rely on it, so the `.litmus` reader does the same: the IR (and
//! so the printer) has them declared. The `litmus!` macro does not: in
//! Rust source an undeclared name is likelier a typo than intent.

use std::collections::HashSet;

use litmus_core::ir::{Imm, Location, Space, Term, Test};

/// Declares, at the end of `test.locations` and in the order of their first
/// use (the threads' accesses, then the condition), every location that an
/// instruction or the condition names but the init block does not: global,
/// initialised to 0, with the first use as its origin.
pub(crate) fn declare_used_locations(test: &mut Test) {
    let mut known: HashSet<String> = test.locations.iter().map(|l| l.name.text.clone()).collect();
    let accessed = test
        .threads
        .iter()
        .flat_map(|t| &t.body)
        .filter_map(|i| i.kind.loc());
    let terms = test.condition.expr.terms();
    let in_condition = terms.into_iter().filter_map(|t| match t {
        Term::Loc(name) => Some(name),
        _ => None,
    });
    let undeclared: Vec<Location> = accessed
        .chain(in_condition)
        .filter(|name| known.insert(name.text.clone()))
        .map(|name| Location {
            name: name.clone(),
            space: Space::Global,
            gpu: 0,
            init: Imm {
                value: 0,
                origin: name.origin,
            },
            alias: None,
        })
        .collect();
    test.locations.extend(undeclared);
}

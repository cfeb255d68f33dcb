//! From instructions to events, one file per idea:
//!
//! - `paths.rs`: symbolic execution of one thread through its branches,
//!   into control paths ([`thread_paths`]), with the loop bound;
//! - `state.rs`: a thread part-way along one path (registers, pc);
//! - `instr.rs`: the events and register values each instruction adds to
//!   a path;
//! - `async_ops.rs`: the events of the async proxy's instructions (bulk
//!   copies, their completions, mbarriers, `fence.proxy.async`);
//! - `event.rs`: one event ([`Event`]);
//! - `sym.rs`: symbolic values ([`Sym`]) and their evaluation once reads
//!   have values;
//! - `structure.rs`: the event structure of one choice of paths
//!   ([`Structure`]) and its static relations (po, po-loc, rmw,
//!   dependencies, morally strong pairs);
//! - `scopes.rs`: scope instances and `sr`.

mod async_ops;
mod event;
mod instr;
mod paths;
mod scopes;
mod state;
mod structure;
mod sym;

pub use event::{BarrierScope, BarrierSpec, Event, EventId, EventKind};
pub use paths::{thread_paths, Constraint, PathError, Paths, ThreadPath};
pub use structure::Structure;
pub use sym::{bin, eval, rmw, sym_reads, Sym, SymId};

//! The file-system rules every command of the workspace follows where it
//! reads folders a stranger may have filled and writes files a person
//! cares about: one walker for folders of tests and evidence ([`walk`]),
//! bounded reads of regular files only ([`read_regular`]), writes that a
//! kill cannot leave half done ([`write_atomic`]), and outputs refused
//! when they would overwrite an input ([`refuse_clobber`]).

mod guard;
mod walk;
mod write;

pub use guard::{refuse_clobber, Clobber};
pub use walk::{read_regular, regular_file, walk, walk_matching, Walk, WalkError};
pub use write::{temporary_beside, write_atomic};

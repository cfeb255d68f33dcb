//! The span table behind the IR's [`Origin`]s: while the macro builds a
//! [`litmus_core::ir::Test`], every origin it stores is an index into this
//! table, so that a validation error found in the IR can be turned back into
//! a compile error at the user's tokens.

use litmus_core::ir::Origin;
use proc_macro2::Span;

use crate::errors::Range;

/// The parts of an instruction that a validation error can be about, so
/// that `Ld.release.gpu(x)` is reported at `release`, not at the whole
/// instruction.
#[derive(Clone, Copy, Debug)]
pub(crate) struct InstrParts {
    /// The opcode and its qualifiers (`Ld.release.gpu`).
    pub head: Range,
    pub sem: Option<Span>,
    pub scope: Option<Span>,
    pub cache: Option<Span>,
    /// The parenthesised arguments, if any.
    pub args: Option<Span>,
}

/// One entry of the table.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Site {
    pub range: Range,
    pub instr: Option<InstrParts>,
}

#[derive(Default)]
pub(crate) struct Sites {
    sites: Vec<Site>,
}

impl Sites {
    /// Records a run of tokens and returns the origin that refers to it.
    pub fn add(&mut self, range: Range) -> Origin {
        self.push(Site { range, instr: None })
    }

    pub fn add_span(&mut self, span: Span) -> Origin {
        self.add(Range::single(span))
    }

    pub fn add_instr(&mut self, range: Range, parts: InstrParts) -> Origin {
        self.push(Site {
            range,
            instr: Some(parts),
        })
    }

    fn push(&mut self, site: Site) -> Origin {
        let index = u32::try_from(self.sites.len())
            .ok()
            .filter(|&i| i != Origin::NONE.0)
            .expect("fewer than 2^32 - 1 tokens in one macro call");
        self.sites.push(site);
        Origin(index)
    }

    /// The site an origin refers to; `None` for [`Origin::NONE`].
    pub fn get(&self, origin: Origin) -> Option<&Site> {
        if origin.is_some() {
            self.sites.get(origin.0 as usize)
        } else {
            None
        }
    }
}

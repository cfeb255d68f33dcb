//! The init block of herd's GPU_PTX dialect:
//!
//! ```text
//! {
//! x=0;                      a location and its initial value
//! 0:.reg .s32 r0;           a register of thread 0, starting at 0
//! 0:.reg .s32 r2 = 5;       ... starting at 5
//! 1:.reg .b64 r1 = x;       ... holding the address of x
//! 1:.reg .pred p0;          a predicate, for `setp` and `@p0 bra`
//! P1:r3 = 1;                herd's plain form (`.reg .type` left out;
//!                           `T1:` in a file whose threads are `T<n>`)
//! }
//! ```
//!
//! Each item is a recovery point, as in the PTX dialect. Thread numbers
//! are checked once the header row says how many threads there are.

use crate::error::SyntaxError;
use crate::lex::{Punct, Tok};
use litmus_core::ir::{Imm, Location, Name, Origin, Space};

use super::Reader;

/// What the init block says.
pub(super) struct Init {
    /// `x=0` items, in order.
    pub(super) locations: Vec<Location>,
    /// Register items, in order.
    pub(super) regs: Vec<InitReg>,
}

/// One register item: thread `thread` (as written, checked later), the
/// register, and what it holds.
pub(super) struct InitReg {
    pub(super) thread: i64,
    /// Where the thread number was written.
    pub(super) thread_at: u32,
    /// The thread as written when named (`P1`, `T1`), not numbered
    /// (`1`): its style is checked against the header row's.
    pub(super) named: Option<String>,
    pub(super) reg: Name,
    pub(super) decl: Decl,
}

/// What a register starts with.
pub(super) enum Decl {
    /// A number (0 when none is given).
    Value(Imm),
    /// The address of a location: the register is an address, resolved
    /// into the accesses that use it.
    Address(Name),
    /// A `.pred` register: only `setp` writes it.
    Predicate,
}

/// The register types the init block takes.
const REG_TYPES: &str = "a register type (.s32, .u32, .b32, .s64, .u64, .b64 or .pred)";

impl Reader<'_, '_> {
    pub(super) fn init_block(&mut self) -> Init {
        let mut init = Init {
            locations: Vec::new(),
            regs: Vec::new(),
        };
        if !self.cur.eat(Punct::LBrace) {
            self.push_expected(self.cur.peek(), "`{` to open the init block");
            return init;
        }
        loop {
            let t = self.cur.peek();
            match t.tok {
                Tok::Punct(Punct::RBrace) => {
                    self.cur.bump();
                    return init;
                }
                Tok::Punct(Punct::Semi) => {
                    self.cur.bump();
                }
                Tok::Eof => {
                    self.push_expected(t, "`}` to close the init block");
                    return init;
                }
                _ => {
                    let ok = self.init_item(&mut init).is_some();
                    let t = self.cur.peek();
                    if ok && !(t.is(Punct::Semi) || t.is(Punct::RBrace)) {
                        self.push_expected(t, "`;` or `}` after an initialisation");
                    }
                    if !(ok && t.is(Punct::RBrace)) {
                        self.skip_to_init_end();
                    }
                }
            }
        }
    }

    /// Recovery: past the next `;`, or up to the `}` or the end.
    fn skip_to_init_end(&mut self) {
        loop {
            let t = self.cur.peek();
            if t.is(Punct::RBrace) || t.tok == Tok::Eof {
                return;
            }
            self.cur.bump();
            if t.is(Punct::Semi) {
                return;
            }
        }
    }

    fn init_item(&mut self, init: &mut Init) -> Option<()> {
        let t = self.cur.peek();
        if self.cur.peek_at(1).is(Punct::Colon) {
            let (thread, named) = match t.tok {
                Tok::Int(i) => (i, None),
                Tok::Ident(w) => match thread_number(w) {
                    Some(i) => (i, Some(w.to_string())),
                    None => {
                        self.errors
                            .push(t.offset, SyntaxError::UnknownInitThread(w.to_string()));
                        return None;
                    }
                },
                _ => {
                    self.push_expected(t, "a thread (`0:` or `P0:`) or a location");
                    return None;
                }
            };
            self.cur.bump();
            self.cur.bump();
            let (reg, decl) = self.register()?;
            init.regs.push(InitReg {
                thread,
                thread_at: t.offset,
                named,
                reg,
                decl,
            });
            return Some(());
        }
        let Tok::Ident(w) = t.tok else {
            self.push_expected(t, "a location (`x=0`) or a register (`0:.reg .s32 r0`)");
            return None;
        };
        self.cur.bump();
        let name = Name::new(w, Origin(t.offset));
        let init_value = if self.cur.eat(Punct::Eq) {
            let v = self.cur.peek();
            match v.tok {
                Tok::Int(n) => {
                    self.cur.bump();
                    Imm::new(n, Origin(v.offset))
                }
                Tok::Ident(other) => {
                    self.errors.push(
                        v.offset,
                        SyntaxError::Unsupported {
                            form: format!("`{w}={other}` (a location holding an address)"),
                            why: "the IR's locations hold numbers, not addresses",
                        },
                    );
                    return None;
                }
                _ => {
                    self.push_expected(v, "a number after `=`");
                    return None;
                }
            }
        } else {
            // herd: a location alone starts at 0.
            Imm::new(0, Origin(t.offset))
        };
        init.locations.push(Location {
            name,
            space: Space::Global,
            gpu: 0,
            init: init_value,
            alias: None,
        });
        Some(())
    }

    /// After `0:`: `[.reg .<type>] r [= v]`.
    fn register(&mut self) -> Option<(Name, Decl)> {
        let mut predicate = false;
        if self.cur.peek().is(Punct::Dot) && self.cur.peek_at(1).is_word("reg") {
            self.cur.bump();
            self.cur.bump();
            if !self.cur.eat(Punct::Dot) {
                self.push_expected(self.cur.peek(), REG_TYPES);
                return None;
            }
            let ty = self.cur.peek();
            match ty.tok {
                Tok::Ident("s32" | "u32" | "b32" | "s64" | "u64" | "b64") => {}
                Tok::Ident("pred") => predicate = true,
                _ => {
                    self.push_expected(ty, REG_TYPES);
                    return None;
                }
            }
            self.cur.bump();
        }
        let t = self.cur.peek();
        let Tok::Ident(r) = t.tok else {
            self.push_expected(t, "a register name");
            return None;
        };
        self.cur.bump();
        let reg = Name::new(r, Origin(t.offset));
        if !self.cur.eat(Punct::Eq) {
            let decl = if predicate {
                Decl::Predicate
            } else {
                // herd's registers start at 0; saying so keeps a declared
                // register that is read first valid.
                Decl::Value(Imm::new(0, Origin(t.offset)))
            };
            return Some((reg, decl));
        }
        let v = self.cur.peek();
        if predicate {
            self.errors.push(
                v.offset,
                SyntaxError::Unsupported {
                    form: "an initial value for a `.pred` register".to_string(),
                    why: "the IR has no predicate registers: a `setp` sets one for a guarded `bra`",
                },
            );
            return None;
        }
        let decl = match v.tok {
            Tok::Int(n) => Decl::Value(Imm::new(n, Origin(v.offset))),
            Tok::Ident(loc) => Decl::Address(Name::new(loc, Origin(v.offset))),
            _ => {
                self.push_expected(v, "a number or a location after `=`");
                return None;
            }
        };
        self.cur.bump();
        Some((reg, decl))
    }
}

/// `P3` (or `T3`) to 3: herd's `P<n>:` in the init block. Which of the
/// two a file may use is known only from the header row, after the block.
fn thread_number(word: &str) -> Option<i64> {
    let (_, digits) = super::split_thread(word)?;
    digits.parse().ok()
}

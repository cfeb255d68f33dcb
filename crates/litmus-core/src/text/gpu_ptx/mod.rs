//! herd7's GPU_PTX dialect, the one of the ASPLOS'15 corpus (Alglave et
//! al., "GPU concurrency: weak behaviours and programming assumptions"),
//! read straight into the IR.
//!
//! The dialect is PTX assembly as herd parsed it: addresses live in
//! registers the init block gives (`0:.reg .b64 r1 = x;`), accesses go
//! through them (`ld.cg.s32 r0, [r1]`), and the placement comes after the
//! code as a scope tree, with a memory map. The IR names locations in its
//! accesses, so the reader resolves every address statically: a register
//! given `x`'s address must keep it, and can only be used as an address.
//! What cannot be resolved that way, or that the IR has no form for, is an
//! error at its position, never a guess.
//!
//! The parts: [`init`] (the init block), [`instr`] (one cell of the code),
//! [`scope_tree`] (the scope tree and the memory map); this file reads the
//! rest and puts the test together.

mod init;
mod instr;
mod scope_tree;

use std::collections::{HashMap, HashSet};

use crate::ir::{Expr, Imm, Location, Name, Origin, Placement, RegInit, Space, Term, Test, Thread};
use crate::text::condition;
use crate::text::cursor::Cursor;
use crate::text::error::{Errors, SyntaxError, TextError};
use crate::text::header::{header, named_test};
use crate::text::implicit;
use crate::text::lex::{self, Token};

use init::{Decl, InitReg};

/// The first word of a file in this dialect.
pub(crate) const KEYWORD: &str = "GPU_PTX";

/// The words that end the code and open the scope tree: herd's
/// `scopeTree`, and `ScopeTree` as the ASPLOS'15 tests' listings spell it.
const SCOPE_TREE: [&str; 2] = ["scopeTree", "ScopeTree"];

/// Whether `t` opens the scope tree.
fn opens_scope_tree(t: &crate::text::lex::Token<'_>) -> bool {
    SCOPE_TREE.iter().any(|w| t.is_word(w))
}

/// Reads a GPU_PTX test without validating it (see
/// [`crate::text::parse_unvalidated`], which has checked its size).
pub(crate) fn parse_unvalidated(src: &str) -> Result<Test, TextError> {
    let mut errors = Errors::new();
    let (name, rest) = header(src, KEYWORD, "the test name after `GPU_PTX`", &mut errors);
    let toks = lex::lex_herd(src, rest, &mut errors);
    let (eof, body) = toks.split_last().expect("the lexer always ends with Eof");
    let mut r = Reader {
        cur: Cursor::new(body, *eof),
        errors,
    };
    let test = r.test(name);
    if r.errors.is_empty() {
        Ok(test)
    } else {
        Err(r.errors.into_text_error(src))
    }
}

/// What a thread's registers hold, from the init block: the addresses
/// that `[r]` resolves through.
#[derive(Default)]
struct Registers {
    /// Register name to the location whose address it holds.
    addresses: HashMap<String, Name>,
}

/// A `.global` or `.shared` qualifier on an access, checked against the
/// memory map once it is read.
struct SpaceUse {
    instr: String,
    qual: &'static str,
    space: Space,
    loc: String,
    offset: u32,
}

struct Reader<'t, 's> {
    cur: Cursor<'t, 's>,
    errors: Errors,
}

impl<'s> Reader<'_, 's> {
    fn push_expected(&mut self, t: Token<'_>, expected: &'static str) {
        self.errors.expected(t.offset, t.found(), expected);
    }

    fn test(&mut self, name: Name) -> Test {
        let mut test = named_test(name, &mut self.cur);
        let init = self.init_block();
        if self.at_rows() {
            test.threads = self.thread_header();
        } else {
            self.push_expected(self.cur.peek(), "the thread header row (`P0 | P1 ;`)");
        }
        let registers = self.registers(&init.regs, &mut test.threads);
        let mut spaces = Vec::new();
        let mut cells = instr::Threads::new(registers.len());
        while self.at_rows() {
            self.instruction_row(&mut test.threads, &registers, &mut cells, &mut spaces);
        }
        let Some(tree) = self.scope_tree(&test.threads) else {
            return test;
        };
        for (thread, placement) in test.threads.iter_mut().zip(tree.placements) {
            thread.placement = placement;
        }
        let map = self.memory_map();
        test.locations = locations(init.locations, &init.regs, &map);
        self.check_spaces(&spaces, &test.locations);
        if let Some(c) = self.condition(&test.threads, &registers) {
            test.condition = c;
        }
        implicit::declare_used_locations(&mut test);
        test
    }

    /// Whether instruction rows (or the header row) go on here: they end
    /// at the scope tree, at a condition, or at the end.
    fn at_rows(&self) -> bool {
        let t = self.cur.peek();
        !self.cur.at_end() && !opens_scope_tree(&t) && !condition::starts_condition(&t)
    }

    /// The cells of one row ([`Cursor::row`]); a row that the scope
    /// tree or the condition ends before its `;` is an error there.
    fn row(&mut self) -> Vec<(usize, usize, Token<'s>)> {
        let (cells, unclosed) = self
            .cur
            .row(|t| opens_scope_tree(t) || condition::starts_condition(t));
        if let Some(t) = unclosed {
            self.push_expected(t, "`;` at the end of the row");
        }
        cells
    }

    /// `P0 | P1 ;`: herd numbers threads by column, so each name is
    /// `P<column>` (the scope tree and the init block count on it).
    fn thread_header(&mut self) -> Vec<Thread> {
        let toks = self.cur.tokens();
        let mut threads = Vec::new();
        for (index, (a, b, end)) in self.row().into_iter().enumerate() {
            let mut cell = Cursor::new(&toks[a..b], end);
            let t = cell.bump();
            let want = format!("P{index}");
            if !t.is_word(&want) {
                self.errors.push(
                    t.offset,
                    SyntaxError::ThreadNumber {
                        index,
                        found: t.found(),
                    },
                );
            } else if !cell.at_end() {
                self.push_expected(cell.peek(), "`|` or `;` after the thread name");
            }
            // A bad cell still makes a thread, so that the columns of the
            // instruction rows stay aligned with the threads.
            threads.push(Thread {
                name: Name::new(want, Origin(t.offset)),
                placement: Placement::default(),
                init: Vec::new(),
                body: Vec::new(),
            });
        }
        threads
    }

    /// Gives each thread the values its init entries give, and collects
    /// the addresses its registers hold.
    fn registers(&mut self, regs: &[InitReg], threads: &mut [Thread]) -> Vec<Registers> {
        let mut out: Vec<Registers> = threads.iter().map(|_| Registers::default()).collect();
        let mut declared: Vec<HashSet<&str>> = threads.iter().map(|_| HashSet::new()).collect();
        for r in regs {
            let Some(index) = usize::try_from(r.thread)
                .ok()
                .filter(|&i| i < threads.len())
            else {
                self.errors.push(
                    r.thread_at,
                    SyntaxError::NoSuchThreadIndex {
                        index: r.thread,
                        threads: threads.len(),
                    },
                );
                continue;
            };
            if !declared[index].insert(&r.reg.text) {
                self.errors.push(
                    r.reg.origin.0,
                    SyntaxError::DuplicateRegister {
                        reg: r.reg.text.clone(),
                        thread: index,
                    },
                );
                continue;
            }
            match &r.decl {
                Decl::Value(v) => threads[index].init.push(RegInit {
                    reg: r.reg.clone(),
                    value: *v,
                }),
                Decl::Address(loc) => {
                    out[index].addresses.insert(r.reg.text.clone(), loc.clone());
                }
                Decl::Predicate => {}
            }
        }
        out
    }

    fn instruction_row(
        &mut self,
        threads: &mut [Thread],
        registers: &[Registers],
        cells: &mut instr::Threads,
        spaces: &mut Vec<SpaceUse>,
    ) {
        let toks = self.cur.tokens();
        let first = self.cur.peek();
        let row = self.row();
        if row.len() != threads.len() && !threads.is_empty() {
            self.errors.push(
                first.offset,
                SyntaxError::CellCount {
                    expected: threads.len(),
                    found: row.len(),
                },
            );
        }
        for (i, ((a, b, end), thread)) in row.into_iter().zip(threads.iter_mut()).enumerate() {
            let mut cell = Cursor::new(&toks[a..b], end);
            let ctx = instr::Context {
                registers: &registers[i],
                spaces: &mut *spaces,
                errors: &mut self.errors,
            };
            cells.cell(i, &mut cell, ctx, &mut thread.body);
        }
    }

    /// Checks each `.global`/`.shared` qualifier against where its location
    /// lives.
    fn check_spaces(&mut self, uses: &[SpaceUse], locations: &[Location]) {
        let mut spaces: HashMap<&str, Space> = HashMap::new();
        for l in locations.iter().rev() {
            spaces.insert(&l.name.text, l.space);
        }
        for u in uses {
            let space = spaces.get(u.loc.as_str()).copied().unwrap_or_default();
            if space != u.space {
                self.errors.push(
                    u.offset,
                    SyntaxError::SpaceMismatch {
                        instr: u.instr.clone(),
                        qual: u.qual.to_string(),
                        loc: u.loc.clone(),
                        space: if space == Space::Shared {
                            "shared"
                        } else {
                            "global"
                        },
                    },
                );
            }
        }
    }

    /// The final condition, and what may follow it. herd's `=` compares a
    /// register or location with a value, and with a name on its right
    /// the *address* of that location: the IR has no addresses, so that
    /// form is refused rather than read as a comparison of values.
    fn condition(
        &mut self,
        threads: &[Thread],
        registers: &[Registers],
    ) -> Option<crate::ir::Condition> {
        let t = self.cur.peek();
        for (word, why) in UNSUPPORTED_BEFORE_CONDITION {
            if t.is_word(word) {
                self.errors.push(
                    t.offset,
                    SyntaxError::Unsupported {
                        form: format!("`{word}`"),
                        why,
                    },
                );
                return None;
            }
        }
        if self.cur.at_end() {
            self.push_expected(t, "the condition (`exists`, `~exists` or `forall`)");
            return None;
        }
        let names: Vec<Name> = threads.iter().map(|t| t.name.clone()).collect();
        let c = condition::condition(&mut self.cur, &names, &mut self.errors)?;
        let mut bad = Vec::new();
        check_expr(&c.expr, threads, registers, &mut bad);
        for (offset, e) in bad {
            self.errors.push(offset, e);
        }
        let t = self.cur.peek();
        if t.is_word("with") {
            self.errors.push(
                t.offset,
                SyntaxError::Unsupported {
                    form: "`with`".to_string(),
                    why:
                        "the IR has one condition and no per-model kinds: remove the `with` clause",
                },
            );
        } else if !self.cur.at_end() {
            self.push_expected(t, "the end of the file after the condition");
        }
        Some(c)
    }
}

/// herd's forms around the condition that the IR has nothing for.
const UNSUPPORTED_BEFORE_CONDITION: [(&str, &str); 5] = [
    (
        "locations",
        "the IR keeps no list of extra locations to show: the outcome shows what the condition names",
    ),
    (
        "filter",
        "the IR has no filter on executions: fold it into the condition",
    ),
    (
        "final",
        "write `exists` (herd reads `final` as `exists`)",
    ),
    (
        "observed",
        "the IR's conditions are `exists`, `~exists` and `forall`",
    ),
    (
        "cases",
        "the IR's conditions are `exists`, `~exists` and `forall`",
    ),
];

/// Collects what the IR cannot hold in a condition read from herd's
/// dialect: a comparison with an address (a name on the right of `=`), an
/// address register, a number on the left.
fn check_expr(
    e: &Expr,
    threads: &[Thread],
    registers: &[Registers],
    bad: &mut Vec<(u32, SyntaxError)>,
) {
    // An explicit stack: the condition parser bounds the depth, but a
    // loop costs nothing.
    let index: HashMap<&str, usize> = threads
        .iter()
        .enumerate()
        .map(|(i, t)| (t.name.text.as_str(), i))
        .collect();
    let mut stack = vec![e];
    while let Some(e) = stack.pop() {
        match e {
            Expr::True => {}
            Expr::Not(a) => stack.push(a),
            Expr::And(a, b) | Expr::Or(a, b) => {
                stack.push(a);
                stack.push(b);
            }
            Expr::Cmp { lhs, rhs, .. } => {
                for term in [lhs, rhs] {
                    if let Term::Reg { thread, reg } = term {
                        let index = index.get(thread.text.as_str());
                        let held = index.and_then(|&i| registers.get(i)?.addresses.get(&reg.text));
                        if let Some(loc) = held {
                            bad.push((
                                reg.origin.0,
                                SyntaxError::AddressAsValue {
                                    reg: reg.text.clone(),
                                    loc: loc.text.clone(),
                                },
                            ));
                        }
                    }
                }
                if let Term::Loc(n) = rhs {
                    bad.push((
                        n.origin.0,
                        SyntaxError::Unsupported {
                            form: format!("`= {}` (the address of `{}`)", n.text, n.text),
                            why: "herd compares with a location's address here, and the IR has no addresses: compare with a number",
                        },
                    ));
                }
                if let Term::Imm(i) = lhs {
                    bad.push((
                        i.origin.0,
                        SyntaxError::Expected {
                            expected: "a register (`0:r0`) or a location on the left of `=`",
                            found: format!("the number `{}`", i.value),
                        },
                    ));
                }
            }
        }
    }
}

/// The test's locations: those the init block declares, then those whose
/// addresses registers hold, then those only the memory map names, each
/// in the memory the map gives it (global unless it says otherwise).
fn locations(declared: Vec<Location>, regs: &[InitReg], map: &[(Name, Space)]) -> Vec<Location> {
    let mut out = declared;
    let mut known: HashSet<String> = out.iter().map(|l| l.name.text.clone()).collect();
    let addressed = regs.iter().filter_map(|r| match &r.decl {
        Decl::Address(loc) => Some(loc),
        _ => None,
    });
    let mapped = map.iter().map(|(n, _)| n);
    for name in addressed.chain(mapped) {
        if known.insert(name.text.clone()) {
            out.push(Location {
                name: name.clone(),
                space: Space::Global,
                gpu: 0,
                init: Imm::new(0, name.origin),
                alias: None,
            });
        }
    }
    let spaces: HashMap<&str, Space> = map.iter().map(|(n, s)| (n.text.as_str(), *s)).collect();
    for l in &mut out {
        if let Some(s) = spaces.get(l.name.text.as_str()) {
            l.space = *s;
        }
    }
    out
}

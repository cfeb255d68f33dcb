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
//! Threads are named by column, `P0 | P1` as herd writes them or `T0 |
//! T1` as the ASPLOS'15 paper prints its listings (its Figure 12, SB);
//! one style a file, in the header row, the scope tree, the init block's
//! `P1:` and the condition's `P1:r0` alike. Either way the IR names the
//! threads `P<column>`: the printed `.litmus` file must stay one that
//! herd7 reads, and herd7 reads a thread only as `P<n>` (its lexer's
//! `PROC` token). So a `T<n>` file reads to the same test as its `P<n>`
//! twin, and a message from validation names its threads `P<n>`, at the
//! position where the file writes `T<n>`.
//!
//! The parts: [`init`] (the init block), [`instr`] (one cell of the code),
//! [`scope_tree`] (the scope tree and the memory map); this file reads the
//! rest and puts the test together.

mod init;
mod instr;
mod scope_tree;

use std::collections::{HashMap, HashSet};

use crate::condition;
use crate::cursor::Cursor;
use crate::error::{Errors, SyntaxError, TextError};
use crate::header::{header, named_test};
use crate::implicit;
use crate::lex::{self, Tok, Token};
use litmus_core::ir::{
    Expr, Imm, Location, Name, Origin, Placement, RegInit, Space, Term, Test, Thread,
};

use init::{Decl, InitReg};

/// The first word of a file in this dialect.
pub(crate) const KEYWORD: &str = "GPU_PTX";

/// The words that end the code and open the scope tree: herd's
/// `scopeTree`, and `ScopeTree` as the ASPLOS'15 tests' listings spell it.
const SCOPE_TREE: [&str; 2] = ["scopeTree", "ScopeTree"];

/// Whether `t` opens the scope tree.
fn opens_scope_tree(t: &crate::lex::Token<'_>) -> bool {
    SCOPE_TREE.iter().any(|w| t.is_word(w))
}

/// Reads a GPU_PTX test without validating it (see
/// [`crate::parse_unvalidated`], which has checked its size).
pub(crate) fn parse_unvalidated(src: &str) -> Result<Test, TextError> {
    let mut errors = Errors::new();
    let (name, rest) = header(src, KEYWORD, "the test name after `GPU_PTX`", &mut errors);
    let toks = lex::lex_herd(src, rest, &mut errors);
    let (eof, body) = toks.split_last().expect("the lexer always ends with Eof");
    let mut r = Reader {
        cur: Cursor::new(body, *eof),
        errors,
        style: None,
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
    /// How the header row names the threads; `None` until it is read, and
    /// when no cell of it is a thread name.
    style: Option<Style>,
}

/// The thread names' style, which the header row sets: herd's `P<n>` or
/// the ASPLOS'15 paper's `T<n>`.
struct Style {
    /// `P` or `T`.
    prefix: char,
    /// The header cell that set it, for the messages about mixing.
    from: String,
}

/// `P3` or `T3` to its prefix and digits; anything else, `None`.
fn split_thread(word: &str) -> Option<(char, &str)> {
    let prefix = word.chars().next().filter(|c| matches!(c, 'P' | 'T'))?;
    let digits = &word[1..];
    (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())).then_some((prefix, digits))
}

/// The IR's name of the thread of column `index`, whatever the file's
/// style (see the module documentation for why).
fn ir_thread_name(index: usize) -> String {
    format!("P{index}")
}

impl<'s> Reader<'_, 's> {
    fn push_expected(&mut self, t: Token<'_>, expected: &'static str) {
        self.errors.expected(t.offset, t.found(), expected);
    }

    /// The file's thread prefix: the header row's, else herd's `P`.
    fn prefix(&self) -> char {
        self.style.as_ref().map_or('P', |s| s.prefix)
    }

    /// Column `index`'s thread as the file spells it.
    fn spelled(&self, index: usize) -> String {
        format!("{}{index}", self.prefix())
    }

    /// When `word` names a thread in the other style from the header
    /// row's (`T1` in a file of `P<n>`, or the reverse), the same name in
    /// the file's style.
    fn in_file_style(&self, word: &str) -> Option<String> {
        let style = self.style.as_ref()?;
        let (prefix, digits) = split_thread(word)?;
        (prefix != style.prefix).then(|| format!("{}{digits}", style.prefix))
    }

    /// Reports `found`, at `at`, as a thread named in the other style.
    fn mixed_style(&mut self, at: u32, found: &str, expected: String) {
        let (prefix, from) = match &self.style {
            Some(s) => (s.prefix, s.from.clone()),
            None => ('P', String::new()),
        };
        self.errors.push(
            at,
            SyntaxError::ThreadStyle {
                found: found.to_string(),
                from,
                prefix,
                expected,
            },
        );
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

    /// `P0 | P1 ;` or `T0 | T1 ;`: herd numbers threads by column, so
    /// each name is `P<column>` (the scope tree and the init block count
    /// on it), or `T<column>` throughout in the paper's style. The first
    /// cell that is either sets the style, so that `T1 | T0` is two
    /// misnumbered threads, not a mix of styles.
    fn thread_header(&mut self) -> Vec<Thread> {
        let toks = self.cur.tokens();
        let cells = self.row();
        self.style = cells.iter().find_map(|&(a, b, _)| {
            let Tok::Ident(w) = toks[a..b].first()?.tok else {
                return None;
            };
            let (prefix, _) = split_thread(w)?;
            Some(Style {
                prefix,
                from: w.to_string(),
            })
        });
        let mut threads = Vec::new();
        for (index, (a, b, end)) in cells.into_iter().enumerate() {
            let mut cell = Cursor::new(&toks[a..b], end);
            let t = cell.bump();
            let want = self.spelled(index);
            // The right number in the other style: a mix. A wrong number
            // is a numbering mistake, whatever its style.
            let mixed = match t.tok {
                Tok::Ident(w) => self.in_file_style(w).filter(|e| *e == want).map(|e| (w, e)),
                _ => None,
            };
            if let Some((w, expected)) = mixed {
                self.mixed_style(t.offset, w, expected);
            } else if !t.is_word(&want) {
                self.errors.push(
                    t.offset,
                    SyntaxError::ThreadNumber {
                        index,
                        prefix: self.prefix(),
                        found: t.found(),
                    },
                );
            } else if !cell.at_end() {
                self.push_expected(cell.peek(), "`|` or `;` after the thread name");
            }
            // A bad cell still makes a thread, so that the columns of the
            // instruction rows stay aligned with the threads.
            threads.push(Thread {
                name: Name::new(ir_thread_name(index), Origin(t.offset)),
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
            // `T1:` in a file of `P<n>` (or the reverse): reported, and
            // the entry still read, so that it hides no later mistake.
            if let Some(w) = &r.named {
                if let Some(expected) = self.in_file_style(w) {
                    self.mixed_style(r.thread_at, w, expected);
                }
            }
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
    ) -> Option<litmus_core::ir::Condition> {
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
        // The condition's `1:r0` and `T1:r0` resolve to the names the file
        // spells, then to the IR's.
        let names: Vec<Name> = threads
            .iter()
            .enumerate()
            .map(|(i, t)| Name::new(self.spelled(i), t.name.origin))
            .collect();
        let mut c = condition::condition(&mut self.cur, &names, &mut self.errors)?;
        self.condition_threads(&mut c.expr, &names, threads);
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

impl Reader<'_, '_> {
    /// Renames the threads of the condition's registers from the file's
    /// spelling (`spelled`) to the IR's; one in the other style is an
    /// error, and one no thread spells is left for validation to report.
    fn condition_threads(&mut self, e: &mut Expr, spelled: &[Name], threads: &[Thread]) {
        let index: HashMap<&str, usize> = spelled
            .iter()
            .enumerate()
            .map(|(i, n)| (n.text.as_str(), i))
            .collect();
        for term in e.terms_mut() {
            let Term::Reg { thread, .. } = term else {
                continue;
            };
            if let Some(&i) = index.get(thread.text.as_str()) {
                thread.text.clone_from(&threads[i].name.text);
            } else if let Some(expected) = self
                .in_file_style(&thread.text)
                .filter(|e| index.contains_key(e.as_str()))
            {
                self.mixed_style(thread.origin.0, &thread.text.clone(), expected);
            }
        }
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

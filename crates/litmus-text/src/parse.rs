//! The reader: header, doc strings, init block, thread rows, condition,
//! verdict.
//!
//! Errors are collected, not returned at the first: each init item and
//! each cell of a row is a recovery point, so one bad instruction does not
//! hide the next.

use std::collections::{HashMap, HashSet};

use crate::condition::{self, starts_condition};
use crate::cursor::Cursor;
use crate::error::{Errors, SyntaxError, TextError};
use crate::header::{header, named_test, starts_with_word};
use crate::lex::{self, Punct, Tok, Token};
use crate::{gpu_ptx, implicit, instr};
use litmus_core::ir::{
    DeclaredTermination, DeclaredVerdict, Imm, Location, Name, Origin, Placement, RegInit, Space,
    Test, Thread, Verdict,
};
use litmus_core::proxy::{Alias, Proxy};

/// Reads a test, in either dialect, without validating it: the text is
/// well formed, but may read a register before writing it, say. Locations
/// used but not declared are declared (global, 0), as herd7 and Dat3M read
/// them. Most callers want [`crate::parse`].
pub fn parse_unvalidated(src: &str) -> Result<Test, TextError> {
    let mut errors = Errors::new();
    if src.len() >= u32::MAX as usize {
        errors.push(0, SyntaxError::TooLarge(src.len()));
        return Err(errors.into_text_error(""));
    }
    if starts_with_word(src, gpu_ptx::KEYWORD) {
        return gpu_ptx::parse_unvalidated(src);
    }
    let (name, rest) = header(src, "PTX", "the test name after `PTX`", &mut errors);
    let toks = lex::lex(src, rest, &mut errors);
    let (eof, body) = toks.split_last().expect("the lexer always ends with Eof");
    let mut p = Parser {
        cur: Cursor::new(body, *eof),
        errors,
        locations: HashSet::new(),
    };
    let mut test = p.test(name);
    if p.errors.is_empty() {
        implicit::declare_used_locations(&mut test);
        Ok(test)
    } else {
        Err(p.errors.into_text_error(src))
    }
}

/// A register initialisation before its thread is known.
struct PendingInit {
    thread: ThreadRef,
    reg: Name,
    value: Imm,
}

/// A thread named (`P1:r0`) or numbered (`1:r0`).
enum ThreadRef {
    Name(Name),
    Index(i64, u32),
}

struct Parser<'t, 's> {
    cur: Cursor<'t, 's>,
    errors: Errors,
    locations: HashSet<&'s str>,
}

impl<'s> Parser<'_, 's> {
    fn expected(&mut self, expected: &'static str) {
        let t = self.cur.peek();
        self.errors.expected(t.offset, t.found(), expected);
    }

    fn test(&mut self, name: Name) -> Test {
        let mut test = named_test(name, &mut self.cur);
        let inits = self.init_block(&mut test.locations);
        let at_rows = |c: &Cursor<'_, '_>| !c.at_end() && !starts_condition(&c.peek());
        if at_rows(&self.cur) {
            test.threads = self.thread_header();
        }
        while at_rows(&self.cur) {
            self.instruction_row(&mut test.threads);
        }
        self.resolve_inits(inits, &mut test.threads);
        let names: Vec<Name> = test.threads.iter().map(|t| t.name.clone()).collect();
        if self.cur.at_end() {
            self.expected("the condition (`exists`, `~exists` or `forall`)");
            return test;
        }
        match condition::condition(&mut self.cur, &names, &mut self.errors) {
            Some(c) => test.condition = c,
            // The condition parser stops at its first error; what follows
            // would only produce noise.
            None => return test,
        }
        match self.verdict() {
            Ok(v) => test.verdict = v,
            Err(()) => return test,
        }
        match self.termination() {
            Ok(t) => test.termination = t,
            Err(()) => return test,
        }
        if !self.cur.at_end() {
            self.expected("the end of the file after the condition");
        }
        test
    }

    /// `{ x=0; shared y=0; P1:r0=0; }`: locations go to `locations`,
    /// register values are returned for their threads.
    fn init_block(&mut self, locations: &mut Vec<Location>) -> Vec<PendingInit> {
        let mut inits = Vec::new();
        let braced = self.cur.eat(Punct::LBrace);
        if !braced {
            self.expected("`{` to open the init block");
        }
        loop {
            let t = self.cur.peek();
            // Without the `{`, read on while items follow, so that a
            // forgotten brace costs one error, not one per line.
            if !braced && !self.at_init_item() {
                self.cur.eat(Punct::RBrace);
                return inits;
            }
            match t.tok {
                Tok::Punct(Punct::RBrace) => {
                    self.cur.bump();
                    return inits;
                }
                Tok::Punct(Punct::Semi) => {
                    self.cur.bump();
                }
                Tok::Eof => {
                    self.expected("`}` to close the init block");
                    return inits;
                }
                _ => {
                    let ok = self.init_item(locations, &mut inits).is_some();
                    let t = self.cur.peek();
                    if ok && !(t.is(Punct::Semi) || t.is(Punct::RBrace)) {
                        self.expected("`;` or `}` after an initialisation");
                    }
                    if !(ok && t.is(Punct::RBrace)) {
                        self.skip_to_init_end();
                    }
                }
            }
        }
    }

    /// Whether an init item (`x=`, `y @`, `P0:`, `1:`, `shared x`) starts here.
    fn at_init_item(&self) -> bool {
        let (t, next) = (self.cur.peek(), self.cur.peek_at(1));
        match t.tok {
            Tok::Ident("shared" | "global" | "host") => true,
            // `gpu 1 x=0;`: a location in logical GPU 1's memory.
            Tok::Ident("gpu") if matches!(next.tok, Tok::Int(_)) => true,
            // `P0@cta 0` (a thread header) also starts `name @`.
            Tok::Ident(_) if next.is(Punct::At) => self.cur.peek_at(3).is_word("aliases"),
            Tok::Ident(_) => next.is(Punct::Eq) || next.is(Punct::Colon),
            Tok::Int(_) => next.is(Punct::Eq) || next.is(Punct::Colon),
            _ => false,
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

    fn init_item(
        &mut self,
        locations: &mut Vec<Location>,
        inits: &mut Vec<PendingInit>,
    ) -> Option<()> {
        let home = self.home()?;
        let space = self.space();
        let t = self.cur.peek();
        let thread = match t.tok {
            _ if home.is_some() => None,
            _ if space != Space::Global || !self.cur.peek_at(1).is(Punct::Colon) => None,
            Tok::Ident(w) => Some(ThreadRef::Name(Name::new(w, Origin(t.offset)))),
            Tok::Int(i) => Some(ThreadRef::Index(i, t.offset)),
            _ => None,
        };
        if let Some(thread) = thread {
            self.cur.bump();
            self.cur.bump();
            let reg = self.ident("a register name after `:`")?;
            let value = self.init_value()?;
            inits.push(PendingInit { thread, reg, value });
            return Some(());
        }
        let t = self.cur.peek();
        let name = self.ident("a location (`x=0`) or a register (`P0:r0=0`)")?;
        if let Tok::Ident(w) = t.tok {
            self.locations.insert(w);
        }
        if self.cur.peek().is(Punct::At) {
            let alias = self.alias(space)?;
            locations.push(Location {
                name,
                space,
                gpu: home.unwrap_or(0),
                init: Imm::new(0, Origin::NONE),
                alias: Some(alias),
            });
            return Some(());
        }
        let value = self.init_value()?;
        locations.push(Location {
            name,
            space,
            gpu: home.unwrap_or(0),
            init: value,
            alias: None,
        });
        Some(())
    }

    /// `@ <proxy> aliases <location>` after a location's name (PTX 7.5).
    /// An alias is memory its target owns, so it takes no space keyword.
    fn alias(&mut self, space: Space) -> Option<Alias> {
        let at = self.cur.bump();
        if space != Space::Global {
            self.errors.push(at.offset, SyntaxError::AliasWithSpace);
            return None;
        }
        let t = self.cur.peek();
        let proxy = match t.tok {
            Tok::Ident(w) => Proxy::from_word(w),
            _ => None,
        };
        let Some(proxy) = proxy else {
            self.expected("a proxy (`generic`, `surface`, `texture` or `constant`) after `@`");
            return None;
        };
        self.cur.bump();
        if !self.cur.peek().is_word("aliases") {
            self.expected("`aliases` and the location aliased (`y @ generic aliases x`)");
            return None;
        }
        self.cur.bump();
        let target = self.ident("the location aliased after `aliases`")?;
        Some(Alias { proxy, target })
    }

    /// `shared`, `shared::cluster`, `host` or `global` before a location
    /// name; the keyword only counts when a name follows it.
    /// `gpu N` before a location: the logical GPU whose memory holds it.
    /// `Some(None)` when none is written (GPU 0); `None` after an error.
    /// A space keyword may follow (`gpu 1 shared s=0;` reads, and
    /// validation says why it is wrong), so the reader stays simple and
    /// the one error lives in one place.
    fn home(&mut self) -> Option<Option<u32>> {
        let t = self.cur.peek();
        let v = self.cur.peek_at(1);
        let Tok::Int(value) = v.tok else {
            return Some(None);
        };
        if !t.is_word("gpu") {
            return Some(None);
        }
        self.cur.bump();
        self.cur.bump();
        let Ok(n) = u32::try_from(value) else {
            self.errors
                .push(v.offset, SyntaxError::PlacementRange { what: "gpu", value });
            return None;
        };
        Some(Some(n))
    }

    fn space(&mut self) -> Space {
        let t = self.cur.peek();
        let name_follows = |c: &Cursor<'_, '_>, at| matches!(c.peek_at(at).tok, Tok::Ident(_));
        if t.is_word("global") && name_follows(&self.cur, 1) {
            self.cur.bump();
            return Space::Global;
        }
        if t.is_word("host") && name_follows(&self.cur, 1) {
            self.cur.bump();
            return Space::Host;
        }
        // The lexer reads `shared::cluster` as one word.
        if t.is_word("shared::cluster") && name_follows(&self.cur, 1) {
            self.cur.bump();
            return Space::SharedCluster;
        }
        if t.is_word("shared") {
            if self.cur.peek_at(1).is(Punct::Colon)
                && self.cur.peek_at(2).is(Punct::Colon)
                && self.cur.peek_at(3).is_word("cluster")
                && name_follows(&self.cur, 4)
            {
                for _ in 0..4 {
                    self.cur.bump();
                }
                return Space::SharedCluster;
            }
            if name_follows(&self.cur, 1) {
                self.cur.bump();
                return Space::Shared;
            }
        }
        Space::Global
    }

    fn ident(&mut self, expected: &'static str) -> Option<Name> {
        let t = self.cur.peek();
        match t.tok {
            Tok::Ident(w) => {
                self.cur.bump();
                Some(Name::new(w, Origin(t.offset)))
            }
            _ => {
                self.expected(expected);
                None
            }
        }
    }

    fn init_value(&mut self) -> Option<Imm> {
        if !self.cur.eat(Punct::Eq) {
            self.expected("`=` and an initial value");
            return None;
        }
        let t = self.cur.peek();
        match t.tok {
            Tok::Int(v) => {
                self.cur.bump();
                Some(Imm::new(v, Origin(t.offset)))
            }
            _ => {
                self.expected("a number after `=`");
                None
            }
        }
    }

    /// The cells of one row ([`Cursor::row`]); a row the condition ends
    /// before its `;` is an error there.
    fn row(&mut self) -> Vec<(usize, usize, Token<'s>)> {
        let (cells, unclosed) = self.cur.row(starts_condition);
        if unclosed.is_some() {
            self.expected("`;` at the end of the row");
        }
        cells
    }

    /// `P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;`
    fn thread_header(&mut self) -> Vec<Thread> {
        let toks = self.cur.tokens();
        let mut threads = Vec::new();
        for (a, b, end) in self.row() {
            let mut cell = Cursor::new(&toks[a..b], end);
            // A bad cell still makes a thread, so that the columns of the
            // instruction rows stay aligned with the threads.
            let (name, placement) = self
                .thread_cell(&mut cell)
                .unwrap_or_else(|| (Name::new("", Origin(end.offset)), Placement::default()));
            threads.push(Thread {
                name,
                placement,
                init: Vec::new(),
                body: Vec::new(),
            });
        }
        threads
    }

    fn thread_cell(&mut self, cell: &mut Cursor<'_, 's>) -> Option<(Name, Placement)> {
        let t = cell.bump();
        let Tok::Ident(w) = t.tok else {
            self.push_expected(t, "a thread name (`P0`)");
            return None;
        };
        let name = Name::new(w, Origin(t.offset));
        if cell.at_end() {
            return Some((name, Placement::default()));
        }
        if !cell.eat(Punct::At) {
            self.push_expected(
                cell.peek(),
                "`@` and the thread's placement (`@cta 0,gpu 0`)",
            );
            return None;
        }
        let placement = self.placement(cell)?;
        Some((name, placement))
    }

    /// Parses the placement after `@`: `host` alone, or `cta`, `gpu`,
    /// `cluster` and `warp` numbers, each at most once, between commas.
    fn placement(&mut self, cell: &mut Cursor<'_, 's>) -> Option<Placement> {
        let mut placement = Placement::default();
        let mut seen: Vec<&'static str> = Vec::new();
        loop {
            let key = cell.bump();
            let what = self.placement_key(key)?;
            // `@host` takes no number and stands alone: a host thread has
            // no CTA, cluster, GPU or warp.
            if what == "host" {
                return self.host_placement(cell, key, &seen, placement);
            }
            let n = self.placement_number(cell, key, what, &seen)?;
            seen.push(what);
            match what {
                "cta" => placement.cta = n,
                "gpu" => placement.gpu = n,
                "cluster" => placement.cluster = Some(n),
                _ => placement.warp = Some(n),
            }
            if cell.at_end() {
                return Some(placement);
            }
            if !cell.eat(Punct::Comma) {
                self.push_expected(cell.peek(), "`,` and another placement, `|` or `;`");
                return None;
            }
        }
    }

    /// Reads a placement key: `cta`, `gpu`, `cluster`, `warp` or `host`.
    fn placement_key(&mut self, key: Token<'s>) -> Option<&'static str> {
        match key.tok {
            Tok::Ident("cta") => Some("cta"),
            Tok::Ident("gpu") => Some("gpu"),
            Tok::Ident("cluster") => Some("cluster"),
            Tok::Ident("warp") => Some("warp"),
            Tok::Ident("host") => Some("host"),
            _ => {
                self.push_expected(key, "`cta`, `gpu`, `cluster` or `warp`");
                None
            }
        }
    }

    /// Finishes `@host`, which must stand alone.
    fn host_placement(
        &mut self,
        cell: &mut Cursor<'_, 's>,
        key: Token<'s>,
        seen: &[&'static str],
        mut placement: Placement,
    ) -> Option<Placement> {
        if !seen.is_empty() {
            self.push_expected(
                key,
                "`cta`, `gpu`, `cluster` or `warp` (`host` stands alone)",
            );
            return None;
        }
        placement.host = true;
        if !cell.at_end() {
            self.push_expected(
                cell.peek(),
                "`|` or `;` after `@host` (a host thread has no GPU placement)",
            );
            return None;
        }
        Some(placement)
    }

    /// Reads the number after placement key `what`, refusing one out of
    /// range and a key given twice.
    fn placement_number(
        &mut self,
        cell: &mut Cursor<'_, 's>,
        key: Token<'s>,
        what: &'static str,
        seen: &[&'static str],
    ) -> Option<u32> {
        let v = cell.bump();
        let Tok::Int(value) = v.tok else {
            self.push_expected(v, "a number");
            return None;
        };
        let Ok(n) = u32::try_from(value) else {
            self.errors
                .push(v.offset, SyntaxError::PlacementRange { what, value });
            return None;
        };
        if seen.contains(&what) {
            self.errors
                .push(key.offset, SyntaxError::DuplicatePlacement(what));
            return None;
        }
        Some(n)
    }

    fn push_expected(&mut self, t: Token<'_>, expected: &'static str) {
        self.errors.push(
            t.offset,
            SyntaxError::Expected {
                expected,
                found: t.found(),
            },
        );
    }

    fn instruction_row(&mut self, threads: &mut [Thread]) {
        let toks = self.cur.tokens();
        let first = self.cur.peek();
        let cells = self.row();
        if cells.len() != threads.len() && !threads.is_empty() {
            self.errors.push(
                first.offset,
                SyntaxError::CellCount {
                    expected: threads.len(),
                    found: cells.len(),
                },
            );
        }
        for ((a, b, end), thread) in cells.into_iter().zip(threads.iter_mut()) {
            let mut cell = Cursor::new(&toks[a..b], end);
            let host = thread.placement.host;
            if let Some(i) = instr::cell(&mut cell, &self.locations, &mut self.errors, host) {
                thread.body.push(i);
            }
        }
    }

    fn resolve_inits(&mut self, inits: Vec<PendingInit>, threads: &mut [Thread]) {
        // The first thread of a name wins, as in `Test::thread`; a map keeps
        // a file with thousands of threads linear.
        let mut by_name: HashMap<String, usize> = HashMap::new();
        for (i, t) in threads.iter().enumerate().rev() {
            by_name.insert(t.name.text.clone(), i);
        }
        for init in inits {
            let index = match &init.thread {
                ThreadRef::Name(n) => match by_name.get(&n.text) {
                    Some(&i) => i,
                    None => {
                        self.errors
                            .push(n.origin.0, SyntaxError::UnknownInitThread(n.text.clone()));
                        continue;
                    }
                },
                &ThreadRef::Index(i, offset) => {
                    match usize::try_from(i).ok().filter(|&i| i < threads.len()) {
                        Some(i) => i,
                        None => {
                            self.errors.push(
                                offset,
                                SyntaxError::NoSuchThreadIndex {
                                    index: i,
                                    threads: threads.len(),
                                },
                            );
                            continue;
                        }
                    }
                }
            };
            threads[index].init.push(RegInit {
                reg: init.reg,
                value: init.value,
            });
        }
    }

    /// `=> allowed` or `=> forbidden` after the condition (the arrow is
    /// left for [`Self::termination`] when `terminates` or `may` follows).
    fn verdict(&mut self) -> Result<Option<DeclaredVerdict>, ()> {
        let next = self.cur.peek_at(1);
        if !self.cur.peek().is(Punct::Arrow) || next.is_word("terminates") || next.is_word("may") {
            return Ok(None);
        }
        self.cur.bump();
        let t = self.cur.peek();
        let verdict = if t.is_word("allowed") {
            Verdict::Allowed
        } else if t.is_word("forbidden") {
            Verdict::Forbidden
        } else {
            self.expected("`allowed`, `forbidden`, `terminates` or `may hang` after `=>`");
            return Err(());
        };
        self.cur.bump();
        Ok(Some(DeclaredVerdict {
            verdict,
            origin: Origin(t.offset),
        }))
    }

    /// `=> terminates` or `=> may hang`, after the verdict if there is one.
    fn termination(&mut self) -> Result<Option<DeclaredTermination>, ()> {
        if !self.cur.eat(Punct::Arrow) {
            return Ok(None);
        }
        let t = self.cur.peek();
        let terminates = if t.is_word("terminates") {
            true
        } else if t.is_word("may") && self.cur.peek_at(1).is_word("hang") {
            self.cur.bump();
            false
        } else {
            self.expected("`terminates` or `may hang` after `=>`");
            return Err(());
        };
        self.cur.bump();
        Ok(Some(DeclaredTermination {
            terminates,
            origin: Origin(t.offset),
        }))
    }
}

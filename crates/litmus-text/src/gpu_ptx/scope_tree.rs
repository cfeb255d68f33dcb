//! The scope tree and the memory map after the code:
//!
//! ```text
//! scopeTree
//! (device (kernel (cta (warp P0) (warp P1)) (cta (warp P2))))
//! x: global, y: shared
//! ```
//!
//! Levels, widest first: `device` (or `grid`), `kernel`, `cta` (or
//! `block`, `work_group`), `warp` (or `sub_group`), then threads named
//! as the header row names them, `P<n>` or `T<n>` (the other style is an
//! error). `ScopeTree` opens the tree as well as `scopeTree`. As in
//! herd, a level may be left out, and each child written in its place is
//! then an instance of its own: `(cta P0 P1)` puts `P0` and `P1` in two
//! warps, `(device (cta P0) (cta P1))` the two CTAs in two kernels.
//!
//! In the IR a device is a GPU (numbered in order), CTAs are numbered
//! within their GPU and warps within their CTA. Kernels group nothing the
//! models see: herd's scopes are the CTA and the device (`membar.gl`), and
//! the harness runs one grid per GPU, so the CTAs of two kernels of one
//! device are two CTAs of that GPU.

use std::collections::HashMap;

use crate::error::SyntaxError;
use crate::lex::{Punct, Tok};
use litmus_core::ir::{Name, Origin, Placement, Space, Thread};

use super::{opens_scope_tree, Reader};

/// The placements the tree gives, one per thread of the header row.
pub(super) struct Tree {
    pub(super) placements: Vec<Placement>,
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Level {
    Warp,
    Cta,
    Kernel,
    Device,
}

fn level(word: &str) -> Option<Level> {
    Some(match word {
        // A grid is one kernel launch, on one device: the ASPLOS'15
        // listings' `ScopeTree (grid (cta (warp T0) (warp T1)))`.
        "device" | "grid" => Level::Device,
        "kernel" => Level::Kernel,
        "cta" | "block" | "work_group" => Level::Cta,
        "warp" | "sub_group" => Level::Warp,
        _ => return None,
    })
}

/// What may open a node's children, naming threads in the file's style
/// (`prefix`): messages are static text, so one for each style.
fn levels(prefix: char) -> &'static str {
    if prefix == 'T' {
        "`(` and a level (`device`, `kernel`, `cta` or `warp`) or a thread `T<n>`"
    } else {
        "`(` and a level (`device`, `kernel`, `cta` or `warp`) or a thread `P<n>`"
    }
}

/// What may follow a node's first child.
fn more_children(prefix: char) -> &'static str {
    if prefix == 'T' {
        "`)`, `(` or a thread `T<n>`"
    } else {
        "`)`, `(` or a thread `P<n>`"
    }
}

/// Where the walk is: the coordinates set so far, and the next number of
/// each level within its parent.
#[derive(Clone, Copy, Default)]
struct At {
    gpu: Option<u32>,
    cta: Option<u32>,
    warp: Option<u32>,
}

struct Walk {
    /// The header row's threads, as the file spells them, to their column.
    threads: HashMap<String, usize>,
    placed: Vec<Option<Placement>>,
    next_gpu: u32,
    next_cta: u32,
    next_warp: u32,
}

impl<'s> Reader<'_, 's> {
    /// `scopeTree (device ...)+`. `None` when there is none (reported);
    /// threads it leaves out are reported at their header cells.
    pub(super) fn scope_tree(&mut self, threads: &[Thread]) -> Option<Tree> {
        let t = self.cur.peek();
        if !opens_scope_tree(&t) {
            self.push_expected(
                t,
                "`scopeTree` and the threads' placement after the code (`scopeTree (device (cta P0) (cta P1))`)",
            );
            return None;
        }
        self.cur.bump();
        let mut walk = Walk {
            threads: (0..threads.len()).map(|i| (self.spelled(i), i)).collect(),
            placed: vec![None; threads.len()],
            next_gpu: 0,
            next_cta: 0,
            next_warp: 0,
        };
        if !self.cur.peek().is(Punct::LParen) {
            self.push_expected(self.cur.peek(), "`(device ...)` after `scopeTree`");
            return None;
        }
        let mut ok = true;
        while self.cur.peek().is(Punct::LParen) {
            if self.node(None, At::default(), &mut walk).is_none() {
                ok = false;
                self.skip_tree();
                break;
            }
        }
        if ok {
            for (i, (t, p)) in threads.iter().zip(&walk.placed).enumerate() {
                if p.is_none() {
                    self.errors.push(
                        t.name.origin.0,
                        SyntaxError::NotInScopeTree(self.spelled(i)),
                    );
                }
            }
        }
        Some(Tree {
            placements: walk
                .placed
                .into_iter()
                .map(Option::unwrap_or_default)
                .collect(),
        })
    }

    /// Recovery after a mistake in the tree: past the parentheses still
    /// open, to the memory map or the condition.
    fn skip_tree(&mut self) {
        loop {
            let t = self.cur.peek();
            let map_item = matches!(t.tok, Tok::Ident(_)) && self.cur.peek_at(1).is(Punct::Colon);
            if t.tok == Tok::Eof || map_item || crate::condition::starts_condition(&t) {
                return;
            }
            self.cur.bump();
        }
    }

    /// One `( level children )`. `parent` is the level around it (`None`
    /// at the root, where only a device may stand).
    fn node(&mut self, parent: Option<Level>, mut at: At, walk: &mut Walk) -> Option<()> {
        self.cur.bump(); // `(`
        let k = self.cur.peek();
        let Some(lv) = (match k.tok {
            Tok::Ident(w) => level(w),
            _ => None,
        }) else {
            self.push_expected(k, "a level (`device`, `kernel`, `cta` or `warp`)");
            return None;
        };
        let fits = match parent {
            None => lv == Level::Device,
            Some(p) => lv < p,
        };
        if !fits {
            let expected = match parent {
                None => "`device` (the root of the scope tree holds devices)",
                Some(Level::Device) => "`kernel`, `cta` or `warp` (a level below `device`)",
                Some(Level::Kernel) => "`cta` or `warp` (a level below `kernel`)",
                Some(_) => "`warp` (a level below `cta`) or a thread",
            };
            self.push_expected(k, expected);
            return None;
        }
        self.cur.bump();
        match lv {
            Level::Device => {
                at.gpu = Some(walk.next_gpu);
                walk.next_gpu += 1;
                walk.next_cta = 0;
            }
            Level::Kernel => {}
            Level::Cta => {
                at = walk.cta(at);
            }
            Level::Warp => {
                at = walk.warp(at);
            }
        }
        let mut children = 0;
        loop {
            let t = self.cur.peek();
            match t.tok {
                Tok::Punct(Punct::RParen) => {
                    self.cur.bump();
                    if children == 0 {
                        self.push_expected(t, levels(self.prefix()));
                        return None;
                    }
                    return Some(());
                }
                Tok::Punct(Punct::LParen) => {
                    self.node(Some(lv), at, walk)?;
                }
                Tok::Ident(w) if level(w).is_none() => {
                    self.cur.bump();
                    let Some(&i) = walk.threads.get(w) else {
                        match self
                            .in_file_style(w)
                            .filter(|e| walk.threads.contains_key(e))
                        {
                            Some(expected) => self.mixed_style(t.offset, w, expected),
                            None => self
                                .errors
                                .push(t.offset, SyntaxError::UnknownScopeThread(w.to_string())),
                        }
                        return None;
                    };
                    if walk.placed[i].is_some() {
                        self.errors
                            .push(t.offset, SyntaxError::PlacedTwice(w.to_string()));
                        return None;
                    }
                    let leaf = walk.warp(at);
                    walk.placed[i] = Some(Placement {
                        gpu: leaf.gpu.unwrap_or(0),
                        cta: leaf.cta.unwrap_or(0),
                        warp: leaf.warp,
                        ..Placement::default()
                    });
                }
                _ => {
                    let expected = if children == 0 {
                        levels(self.prefix())
                    } else {
                        more_children(self.prefix())
                    };
                    self.push_expected(t, expected);
                    return None;
                }
            }
            children += 1;
        }
    }

    /// `x: global, y: shared` (herd prints `;` between entries, and reads
    /// `,`: both are read). `local` is `shared`, as in herd.
    pub(super) fn memory_map(&mut self) -> Vec<(Name, Space)> {
        let mut map: Vec<(Name, Space)> = Vec::new();
        loop {
            let t = self.cur.peek();
            let Tok::Ident(w) = t.tok else {
                return map;
            };
            if !self.cur.peek_at(1).is(Punct::Colon) {
                return map;
            }
            self.cur.bump();
            self.cur.bump();
            let s = self.cur.peek();
            let space = match s.tok {
                Tok::Ident("global") => Some(Space::Global),
                Tok::Ident("shared" | "local") => Some(Space::Shared),
                _ => None,
            };
            match space {
                Some(space) => {
                    self.cur.bump();
                    if map.iter().any(|(n, _)| n.text == w) {
                        self.errors
                            .push(t.offset, SyntaxError::MappedTwice(w.to_string()));
                    } else {
                        map.push((Name::new(w, Origin(t.offset)), space));
                    }
                }
                None => {
                    self.push_expected(s, "`global` or `shared` after `:`");
                    // A misspelt space: the entry ends here all the same.
                    if matches!(s.tok, Tok::Ident(_)) && !crate::condition::starts_condition(&s) {
                        self.cur.bump();
                    }
                }
            }
            if !(self.cur.eat(Punct::Comma) || self.cur.eat(Punct::Semi)) {
                return map;
            }
        }
    }
}

impl Walk {
    /// Inside a CTA: `at` itself; elsewhere a new CTA of its own.
    fn cta(&mut self, at: At) -> At {
        if at.cta.is_some() {
            return at;
        }
        let cta = self.next_cta;
        self.next_cta += 1;
        self.next_warp = 0;
        At {
            cta: Some(cta),
            warp: None,
            ..at
        }
    }

    /// Inside a warp: `at` itself; elsewhere a new warp of its own (in a
    /// new CTA of its own when outside any).
    fn warp(&mut self, at: At) -> At {
        if at.warp.is_some() {
            return at;
        }
        let at = self.cta(at);
        let warp = self.next_warp;
        self.next_warp += 1;
        At {
            warp: Some(warp),
            ..at
        }
    }
}

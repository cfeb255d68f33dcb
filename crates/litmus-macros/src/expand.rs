//! Code generation: the tokens of a Rust expression that builds the parsed
//! [`Test`] (origins become [`Origin::NONE`]: spans mean nothing at run
//! time), and the `#[test]` function around it.
//!
//! [`Origin::NONE`]: litmus_core::ir::Origin::NONE

use litmus_core::instr::{
    Access, AtomOp, BarrierKind, BinOp, BranchCond, CacheOp, FenceSpelling, Instr, InstrKind,
    Scope, Sem,
};
use litmus_core::ir::{
    CmpOp, Expr, Imm, Location, Name, Operand, Placement, Quantifier, Space, Term, Test, Thread,
    Verdict,
};
use litmus_core::proxy::{Proxy, ProxyFenceKind};
use proc_macro2::{Literal, TokenStream};
use quote::{quote, ToTokens};

use crate::parse::Parsed;

mod async_ops;

/// `::gpu_litmus::__private::litmus_core`: the generated code names the
/// IR through the one crate its users depend on.
fn core() -> TokenStream {
    quote!(::gpu_litmus::__private::litmus_core)
}

/// `litmus! { .. }`: one `#[test]` function named after the test, running
/// it with its PTX module (`None`: the harness cannot run the test).
pub(crate) fn test_fn(parsed: &Parsed, ptx: Option<&str>) -> TokenStream {
    let ident = &parsed.ident;
    let docs = &parsed.docs;
    let attrs = &parsed.attrs;
    let test = test_expr(&parsed.test);
    let ptx = option(ptx.as_ref(), |text| {
        Literal::string(text).into_token_stream()
    });
    quote! {
        #(#docs)*
        #[test]
        #(#attrs)*
        fn #ident() {
            let test = #test;
            ::gpu_litmus::__private::litmus_runner::run_litmus(&test, #ptx);
        }
    }
}

/// `litmus_ir! { .. }`: the expression that builds the test.
pub(crate) fn test_expr(test: &Test) -> TokenStream {
    let c = core();
    let name = name(&test.name);
    let doc = test
        .doc
        .0
        .iter()
        .map(|line| quote!(::std::string::String::from(#line)));
    let locations = test.locations.iter().map(location);
    let threads = test.threads.iter().map(thread);
    let quantifier = match test.condition.quantifier {
        Quantifier::Exists => quote!(Exists),
        Quantifier::NotExists => quote!(NotExists),
        Quantifier::Forall => quote!(Forall),
    };
    let expr = expr(&test.condition.expr);
    let verdict = match &test.verdict {
        None => quote!(::core::option::Option::None),
        Some(v) => {
            let verdict = match v.verdict {
                Verdict::Allowed => quote!(Allowed),
                Verdict::Forbidden => quote!(Forbidden),
            };
            quote!(::core::option::Option::Some(#c::ir::DeclaredVerdict {
                verdict: #c::ir::Verdict::#verdict,
                origin: #c::ir::Origin::NONE,
            }))
        }
    };
    let termination = match &test.termination {
        None => quote!(::core::option::Option::None),
        Some(t) => {
            let terminates = t.terminates;
            quote!(::core::option::Option::Some(#c::ir::DeclaredTermination {
                terminates: #terminates,
                origin: #c::ir::Origin::NONE,
            }))
        }
    };
    quote! {
        #c::ir::Test {
            name: #name,
            doc: #c::ir::Doc(::std::vec![#(#doc),*]),
            locations: ::std::vec![#(#locations),*],
            threads: ::std::vec![#(#threads),*],
            condition: #c::ir::Condition {
                quantifier: #c::ir::Quantifier::#quantifier,
                expr: #expr,
                origin: #c::ir::Origin::NONE,
            },
            verdict: #verdict,
            termination: #termination,
        }
    }
}

fn name(n: &Name) -> TokenStream {
    let c = core();
    let text = &n.text;
    quote!(#c::ir::Name::new(#text, #c::ir::Origin::NONE))
}

fn imm(i: &Imm) -> TokenStream {
    let c = core();
    let v = Literal::i64_suffixed(i.value);
    quote!(#c::ir::Imm::new(#v, #c::ir::Origin::NONE))
}

fn operand(o: &Operand) -> TokenStream {
    let c = core();
    match o {
        Operand::Reg(n) => {
            let n = name(n);
            quote!(#c::ir::Operand::Reg(#n))
        }
        Operand::Imm(i) => {
            let i = imm(i);
            quote!(#c::ir::Operand::Imm(#i))
        }
    }
}

fn option<T>(o: Option<&T>, f: impl Fn(&T) -> TokenStream) -> TokenStream {
    match o {
        None => quote!(::core::option::Option::None),
        Some(v) => {
            let v = f(v);
            quote!(::core::option::Option::Some(#v))
        }
    }
}

fn location(l: &Location) -> TokenStream {
    let c = core();
    let loc_name = name(&l.name);
    let space = match l.space {
        Space::Global => quote!(Global),
        Space::Shared => quote!(Shared),
        Space::SharedCluster => quote!(SharedCluster),
        Space::Host => quote!(Host),
    };
    let init = imm(&l.init);
    let gpu = l.gpu;
    let alias = option(l.alias.as_ref(), |a| {
        let (p, target) = (proxy(a.proxy), name(&a.target));
        quote!(#c::proxy::Alias { proxy: #p, target: #target })
    });
    quote!(#c::ir::Location { name: #loc_name, space: #c::ir::Space::#space, gpu: #gpu, init: #init, alias: #alias })
}

fn proxy(p: Proxy) -> TokenStream {
    let c = core();
    let v = match p {
        Proxy::Generic => quote!(Generic),
        Proxy::Surface => quote!(Surface),
        Proxy::Texture => quote!(Texture),
        Proxy::Constant => quote!(Constant),
        Proxy::Async => quote!(Async),
    };
    quote!(#c::proxy::Proxy::#v)
}

fn placement(p: &Placement) -> TokenStream {
    let c = core();
    let Placement {
        host,
        gpu,
        cluster,
        cta,
        warp,
    } = *p;
    let cluster = option(cluster.as_ref(), |n| n.into_token_stream());
    let warp = option(warp.as_ref(), |n| n.into_token_stream());
    quote!(#c::ir::Placement { host: #host, gpu: #gpu, cluster: #cluster, cta: #cta, warp: #warp })
}

fn thread(t: &Thread) -> TokenStream {
    let c = core();
    let name = name(&t.name);
    let placement = placement(&t.placement);
    let init = t.init.iter().map(|i| {
        let reg = self::name(&i.reg);
        let value = imm(&i.value);
        quote!(#c::ir::RegInit { reg: #reg, value: #value })
    });
    let body = t.body.iter().map(instr);
    quote! {
        #c::ir::Thread {
            name: #name,
            placement: #placement,
            init: ::std::vec![#(#init),*],
            body: ::std::vec![#(#body),*],
        }
    }
}

fn sem(s: Sem) -> TokenStream {
    let c = core();
    let v = match s {
        Sem::Weak => quote!(Weak),
        Sem::Relaxed => quote!(Relaxed),
        Sem::Acquire => quote!(Acquire),
        Sem::Release => quote!(Release),
        Sem::AcqRel => quote!(AcqRel),
        Sem::Sc => quote!(Sc),
        Sem::Volatile => quote!(Volatile),
    };
    quote!(#c::instr::Sem::#v)
}

fn scope(s: Scope) -> TokenStream {
    let c = core();
    let v = match s {
        Scope::Cta => quote!(Cta),
        Scope::Cluster => quote!(Cluster),
        Scope::Gpu => quote!(Gpu),
        Scope::Sys => quote!(Sys),
    };
    quote!(#c::instr::Scope::#v)
}

fn access(a: Access) -> TokenStream {
    let c = core();
    let sem = sem(a.sem);
    let scope = option(a.scope.as_ref(), |s| scope(*s));
    quote!(#c::instr::Access { sem: #sem, scope: #scope })
}

fn cache(op: &CacheOp) -> TokenStream {
    let c = core();
    let v = match op {
        CacheOp::Ca => quote!(Ca),
        CacheOp::Cg => quote!(Cg),
        CacheOp::Cs => quote!(Cs),
        CacheOp::Lu => quote!(Lu),
        CacheOp::Cv => quote!(Cv),
        CacheOp::Wb => quote!(Wb),
        CacheOp::Wt => quote!(Wt),
    };
    quote!(#c::instr::CacheOp::#v)
}

fn atom_op(op: AtomOp) -> TokenStream {
    let c = core();
    let v = match op {
        AtomOp::Exch => quote!(Exch),
        AtomOp::Add => quote!(Add),
        AtomOp::Sub => quote!(Sub),
        AtomOp::And => quote!(And),
        AtomOp::Or => quote!(Or),
        AtomOp::Xor => quote!(Xor),
        AtomOp::Min => quote!(Min),
        AtomOp::Max => quote!(Max),
        AtomOp::Inc => quote!(Inc),
        AtomOp::Dec => quote!(Dec),
        AtomOp::Cas => quote!(Cas),
    };
    quote!(#c::instr::AtomOp::#v)
}

fn bin_op(op: BinOp) -> TokenStream {
    let c = core();
    let v = match op {
        BinOp::Add => quote!(Add),
        BinOp::Sub => quote!(Sub),
        BinOp::Mul => quote!(Mul),
        BinOp::And => quote!(And),
        BinOp::Or => quote!(Or),
        BinOp::Xor => quote!(Xor),
    };
    quote!(#c::instr::BinOp::#v)
}

fn instr(i: &Instr) -> TokenStream {
    let c = core();
    let k = quote!(#c::instr::InstrKind);
    let kind = match &i.kind {
        InstrKind::Load {
            dst,
            loc,
            access: a,
            cache: op,
        } => {
            let (dst, loc, a, op) = (name(dst), name(loc), access(*a), option(op.as_ref(), cache));
            quote!(#k::Load { dst: #dst, loc: #loc, access: #a, cache: #op })
        }
        InstrKind::Store {
            loc,
            value,
            access: a,
            cache: op,
        } => {
            let (loc, value, a, op) = (
                name(loc),
                operand(value),
                access(*a),
                option(op.as_ref(), cache),
            );
            quote!(#k::Store { loc: #loc, value: #value, access: #a, cache: #op })
        }
        InstrKind::Fence {
            sem: s,
            scope: sc,
            spelling,
        } => {
            let (s, sc) = (sem(*s), scope(*sc));
            let spelling = match spelling {
                FenceSpelling::Fence => quote!(Fence),
                FenceSpelling::Membar => quote!(Membar),
            };
            quote!(#k::Fence { sem: #s, scope: #sc, spelling: #c::instr::FenceSpelling::#spelling })
        }
        InstrKind::Atom {
            dst,
            op,
            loc,
            access: a,
            operand: o,
            new,
        } => {
            let dst = option(dst.as_ref(), name);
            let op = atom_op(*op);
            let (loc, a, o) = (name(loc), access(*a), operand(o));
            let new = option(new.as_ref(), operand);
            quote!(#k::Atom { dst: #dst, op: #op, loc: #loc, access: #a, operand: #o, new: #new })
        }
        InstrKind::Barrier {
            kind,
            instance,
            id,
            quorum,
        } => {
            let kind = match kind {
                BarrierKind::Sync => quote!(Sync),
                BarrierKind::Arrive => quote!(Arrive),
            };
            let instance = imm(instance);
            let id = option(id.as_ref(), operand);
            let quorum = option(quorum.as_ref(), operand);
            quote!(#k::Barrier {
                kind: #c::instr::BarrierKind::#kind,
                instance: #instance,
                id: #id,
                quorum: #quorum,
            })
        }
        InstrKind::WarpSync => quote!(#k::WarpSync),
        InstrKind::ProxyLoad {
            dst,
            loc,
            proxy: p,
            access: a,
        } => {
            let (dst, loc, p, a) = (name(dst), name(loc), proxy(*p), access(*a));
            quote!(#k::ProxyLoad { dst: #dst, loc: #loc, proxy: #p, access: #a })
        }
        InstrKind::ProxyStore {
            loc,
            value,
            proxy: p,
            access: a,
        } => {
            let (loc, value, p, a) = (name(loc), operand(value), proxy(*p), access(*a));
            quote!(#k::ProxyStore { loc: #loc, value: #value, proxy: #p, access: #a })
        }
        InstrKind::ProxyFence(kind) => {
            let kind = match kind {
                ProxyFenceKind::Alias => quote!(Alias),
                ProxyFenceKind::Surface => quote!(Surface),
                ProxyFenceKind::Texture => quote!(Texture),
                ProxyFenceKind::Constant => quote!(Constant),
            };
            quote!(#k::ProxyFence(#c::proxy::ProxyFenceKind::#kind))
        }
        InstrKind::Mov { dst, src } => {
            let (dst, src) = (name(dst), operand(src));
            quote!(#k::Mov { dst: #dst, src: #src })
        }
        InstrKind::BinOp { dst, op, a, b } => {
            let (dst, op, a, b) = (name(dst), bin_op(*op), operand(a), operand(b));
            quote!(#k::BinOp { dst: #dst, op: #op, a: #a, b: #b })
        }
        InstrKind::Async(op) => {
            let op = async_ops::async_op(op);
            quote!(#k::Async(#op))
        }
        InstrKind::Label(l) => {
            let l = name(l);
            quote!(#k::Label(#l))
        }
        InstrKind::Branch { cond, target } => {
            let cond = option(cond.as_ref(), |(cond, a, b)| {
                let cond = match cond {
                    BranchCond::Eq => quote!(Eq),
                    BranchCond::Ne => quote!(Ne),
                };
                let (a, b) = (operand(a), operand(b));
                quote!((#c::instr::BranchCond::#cond, #a, #b))
            });
            let target = name(target);
            quote!(#k::Branch { cond: #cond, target: #target })
        }
    };
    quote!(#c::instr::Instr::new(#kind, #c::ir::Origin::NONE))
}

fn expr(e: &Expr) -> TokenStream {
    let c = core();
    let x = quote!(#c::ir::Expr);
    match e {
        Expr::True => quote!(#x::True),
        Expr::Cmp { lhs, op, rhs } => {
            let op = match op {
                CmpOp::Eq => quote!(Eq),
                CmpOp::Ne => quote!(Ne),
            };
            let (lhs, rhs) = (term(lhs), term(rhs));
            quote!(#x::Cmp { lhs: #lhs, op: #c::ir::CmpOp::#op, rhs: #rhs })
        }
        Expr::Not(e) => {
            let e = expr(e);
            quote!(#x::Not(::std::boxed::Box::new(#e)))
        }
        Expr::And(a, b) => {
            let (a, b) = (expr(a), expr(b));
            quote!(#x::And(::std::boxed::Box::new(#a), ::std::boxed::Box::new(#b)))
        }
        Expr::Or(a, b) => {
            let (a, b) = (expr(a), expr(b));
            quote!(#x::Or(::std::boxed::Box::new(#a), ::std::boxed::Box::new(#b)))
        }
    }
}

fn term(t: &Term) -> TokenStream {
    let c = core();
    match t {
        Term::Reg { thread, reg } => {
            let (thread, reg) = (name(thread), name(reg));
            quote!(#c::ir::Term::Reg { thread: #thread, reg: #reg })
        }
        Term::Loc(l) => {
            let l = name(l);
            quote!(#c::ir::Term::Loc(#l))
        }
        Term::Imm(i) => {
            let i = imm(i);
            quote!(#c::ir::Term::Imm(#i))
        }
    }
}

//! The tokens that rebuild an async-proxy instruction at run time.

use litmus_core::async_proxy::{AsyncOp, AsyncSpace, OneWay};
use proc_macro2::TokenStream;
use quote::quote;

use super::{core, imm, name, option, scope, sem};

/// `litmus_core::async_proxy::AsyncOp::...` for `op`.
pub(super) fn async_op(op: &AsyncOp) -> TokenStream {
    let c = core();
    let a = quote!(#c::async_proxy::AsyncOp);
    match op {
        AsyncOp::BulkLoad {
            dst,
            src,
            size,
            mbar,
        } => {
            let (dst, src, size, mbar) = (name(dst), name(src), imm(size), name(mbar));
            quote!(#a::BulkLoad { dst: #dst, src: #src, size: #size, mbar: #mbar })
        }
        AsyncOp::BulkStore { dst, src, size } => {
            let (dst, src, size) = (name(dst), name(src), imm(size));
            quote!(#a::BulkStore { dst: #dst, src: #src, size: #size })
        }
        AsyncOp::CommitGroup => quote!(#a::CommitGroup),
        AsyncOp::WaitGroup { read, pending } => {
            let pending = imm(pending);
            quote!(#a::WaitGroup { read: #read, pending: #pending })
        }
        AsyncOp::MbarrierInit { mbar, count } => {
            let (mbar, count) = (name(mbar), imm(count));
            quote!(#a::MbarrierInit { mbar: #mbar, count: #count })
        }
        AsyncOp::MbarrierArrive {
            mbar,
            sem: s,
            scope: sc,
            expect_tx,
        } => {
            let (mbar, s, sc, tx) = (
                name(mbar),
                sem(*s),
                scope(*sc),
                option(expect_tx.as_ref(), imm),
            );
            quote!(#a::MbarrierArrive { mbar: #mbar, sem: #s, scope: #sc, expect_tx: #tx })
        }
        AsyncOp::MbarrierTryWait {
            dst,
            mbar,
            sem: s,
            scope: sc,
            parity,
        } => {
            let (dst, mbar, s, sc, p) = (
                name(dst),
                name(mbar),
                sem(*s),
                scope(*sc),
                option(parity.as_ref(), imm),
            );
            quote!(#a::MbarrierTryWait { dst: #dst, mbar: #mbar, sem: #s, scope: #sc, parity: #p })
        }
        AsyncOp::ProxyFence(space) => {
            let v = match space {
                AsyncSpace::All => quote!(All),
                AsyncSpace::Global => quote!(Global),
                AsyncSpace::SharedCta => quote!(SharedCta),
                AsyncSpace::SharedCluster => quote!(SharedCluster),
            };
            quote!(#a::ProxyFence(#c::async_proxy::AsyncSpace::#v))
        }
        AsyncOp::MbarrierInitFence => quote!(#a::MbarrierInitFence),
        AsyncOp::ProxyFenceOneWay(w) => {
            let v = match w {
                OneWay::Release => quote!(Release),
                OneWay::Acquire => quote!(Acquire),
            };
            quote!(#a::ProxyFenceOneWay(#c::async_proxy::OneWay::#v))
        }
    }
}

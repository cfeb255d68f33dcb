//! The compiler in view: what a litmus test's PTX becomes, without a GPU.
//!
//! - [`Ptxas`] and [`Nvdisasm`]: the CUDA tools, found (a path,
//!   `LITMUS_PTXAS` / `LITMUS_NVDISASM`, or `PATH`) and checked;
//! - [`installed`]: the toolchains by name (`jit`, `ptxas-12.4`), the
//!   ptxas releases in the toolchain folder;
//! - [`ModuleCache`]: compiled images on disk, keyed by module, toolchain
//!   and device;
//! - [`lineinfo::annotate`], [`Sass`] and [`Listing`]: the PTX lines of
//!   each role of the test kernel beside the SASS they became;
//! - [`check()`]: where the compiler dropped an access or fence, reordered
//!   two, or folded a control dependency.
//!
//! ```no_run
//! use litmus_ptx::isa::{retarget, SmArch};
//! use litmus_toolchain::{check, lineinfo, Listing, Nvdisasm, Ptxas, Sass};
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let test = litmus_text::parse(&std::fs::read_to_string("mp.litmus")?)?;
//! let module = retarget(&litmus_ptx::generate(&test)?, SmArch::new(90))?;
//! let cubin = Ptxas::find(None)?.compile(&lineinfo::annotate(&module), SmArch::new(90), true)?;
//! let sass = Sass::parse(&Nvdisasm::find(None)?.disassemble(&cubin)?);
//! let listing = Listing::new(&module, &sass)?;
//! print!("{listing}");
//! for finding in check(&listing) {
//!     println!("warning: {finding}");
//! }
//! # Ok(())
//! # }
//! ```

#![warn(missing_docs)]

pub mod cache;
pub mod check;
pub mod error;
pub mod installed;
pub mod lineinfo;
pub mod listing;
pub mod nvdisasm;
mod process_env;
pub mod ptxas;
pub mod sass;
mod tool;

pub use cache::{CacheKey, Lookup, ModuleCache};
pub use check::{check, Finding, What};
pub use error::ToolError;
pub use listing::Listing;
pub use nvdisasm::Nvdisasm;
pub use ptxas::Ptxas;
pub use sass::Sass;

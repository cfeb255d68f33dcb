//! The CLI's own build of the program, for its tests
//! (`CARGO_BIN_EXE_litmus-cli`); users install `gpu-litmus`, the same
//! program, from the root package (`cargo install gpu-litmus`).

fn main() -> std::process::ExitCode {
    litmus_cli::main()
}

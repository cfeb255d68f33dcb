//! `gpu-litmus`, the command-line tool: `cargo install gpu-litmus` builds
//! it. The program is the litmus-cli crate's; this package carries it so
//! that the tool has the project's name.

fn main() -> std::process::ExitCode {
    litmus_cli::main()
}

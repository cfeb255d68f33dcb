use gpu_litmus::litmus_files;

// The crate root here is trybuild's project: a Cargo.toml, no `.litmus`
// file and no `tests` directory.
litmus_files!("*.litmus");

litmus_files!("tests/litmus/**/*.litmus");

fn main() {}

use gpu_litmus::litmus_files;

// Character classes are not supported: only `*`, `?` and `**`.
litmus_files!("tests/litmus/[ms]*.litmus");

litmus_files!("tests/litmus**/*.litmus");

litmus_files!("/etc/*.litmus");

fn main() {}

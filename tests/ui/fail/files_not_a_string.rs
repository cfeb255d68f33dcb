use gpu_litmus::litmus_files;

litmus_files!(tests / litmus);

litmus_files!(mod corpus "tests/litmus/*.litmus");

fn main() {}

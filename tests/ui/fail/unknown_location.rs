use gpu_litmus::litmus;

litmus! {
    unknown_location;
    global x = 0;
    thread t0 @ cta 0 { St(x, 1); St(z, 1); }
    exists (x == 1) => allowed;
}

fn main() {}

// Refused on purpose: the `.litmus` reader reads an undeclared location as
// 0, as herd7 and Dat3M do, but in Rust source an undeclared name is
// likelier a typo than intent.

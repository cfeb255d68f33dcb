use gpu_litmus::litmus;

// PTX's lower-case spellings are not the macro's: the error says which is.
litmus! {
    ptx_spelling;
    global x = 0;
    thread t0 @ cta 0 { st.relaxed.gpu(x, 1); r0 = ld(x); }
    exists (x == 1) => allowed;
}

fn main() {}

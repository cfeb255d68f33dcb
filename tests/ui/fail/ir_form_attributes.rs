use gpu_litmus::litmus_ir;

fn main() {
    // `litmus_ir!` is a value: attributes other than docs make no sense on it.
    let _test = litmus_ir! {
        #[ignore]
        ir_form_attributes;
        global x = 0;
        thread t0 @ cta 0 { St(x, 1); }
        exists (x == 1);
    };
}

// Register arithmetic, labels, branches and a spin loop.
use gpu_litmus::litmus;

litmus! {
    /// Spin until the flag is set, then read the data.
    spin_mp;
    global data = 0, flag = 0;
    thread t0 @ cta 0 { St(data, 42); St.release.gpu(flag, 1); }
    thread t1 @ cta 1 {
    spin:
        r0 = Ld.acquire.gpu(flag);
        beq(r0, 0, spin);
        r1 = Ld(data);
        r2 = r1 + 1;
        r3 = r2 * 2; r3 = r3 - 1; r3 = r3 & 255; r3 = r3 | 1; r3 = r3 ^ r2;
        bne(r1, 42, done);
        r4 = 7;
        goto done;
    done:
        St(data, r3);
    }
    exists (t1.r1 != 42) => forbidden;
}

litmus! {
    lb_data_dependency;
    global x = 0, y = 0;
    thread t0 @ cta 0 { r0 = Ld(x); St(y, r0); }
    thread t1 @ cta 1 with r9 = 0 { r0 = Ld(y); r1 = r0 + r9; St(x, r1); }
    not exists (t0.r0 == 1 && !(t1.r0 != 1)) => forbidden;
}

fn main() {}

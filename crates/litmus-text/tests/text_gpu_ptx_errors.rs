//! Every mistake the GPU_PTX reader reports, and every herd form the IR
//! cannot hold, with its `line:column` and message.

#[path = "text_support/errors.rs"]
mod support;
use support::errors;

/// A two-thread test: `r1` of each thread holds `x`'s address (lines 3
/// and 4), `init` is line 5, `row` line 8 (`P0`'s cell starts at column
/// 2), the scope tree line 10, the memory map line 11, the condition
/// line 12.
fn src(init: &str, row: &str, tree: &str, map: &str, cond: &str) -> String {
    format!(
        "GPU_PTX t\n{{\n0:.reg .b64 r1 = x;\n1:.reg .b64 r1 = x;\n{init}\n}}\n P0 | P1 ;\n {row} ;\nscopeTree\n{tree}\n{map}\n{cond}\n"
    )
}

const TREE: &str = "(device (cta P0) (cta P1))";
const LOAD: &str = "ld.cg.s32 r0,[r1] | ";

/// A test whose only mistake is in the row.
fn row(r: &str) -> String {
    src("", r, TREE, "", "exists (x=0)")
}

fn init(i: &str) -> String {
    src(i, LOAD, TREE, "", "exists (0:r0=0)")
}

fn tree(t: &str) -> String {
    src("", LOAD, t, "", "exists (x=0)")
}

fn tail(map: &str, cond: &str) -> String {
    src("", LOAD, TREE, map, cond)
}

// ---- what the IR cannot hold ----

#[test]
fn sixty_four_bit_values() {
    assert_eq!(
        errors(&row("ld.cg.b64 r0,[r1] | ")),
        "8:8: `ld` works on 64-bit values (`.b64`), but the IR's values are 32 bits: use .s32, .u32 or .b32"
    );
    assert_eq!(
        errors(&row("add.u64 r0,r0,1 | ")),
        "8:6: `add` works on 64-bit values (`.u64`), but the IR's values are 32 bits: use .s32, .u32 or .b32"
    );
}

#[test]
fn addresses_resolve_statically_or_not_at_all() {
    assert_eq!(
        errors(&row("ld.cg.s32 r0,[r5] | ")),
        "8:16: register `r5` holds no location's address: give it one in the init block (`0:.reg .b64 r5 = x;`)"
    );
    assert_eq!(
        errors(&row("st.cg.s32 [r1],r1 | ")),
        "8:17: register `r1` holds the address of `x`: the IR has no pointer values, so it can only be an address (`[r1]`)"
    );
    assert_eq!(
        errors(&row("mov.s32 r1,0 | ")),
        "8:10: `mov` writes register `r1`, which holds the address of `x`: addresses are resolved as the test is read, so an address register cannot change"
    );
    assert_eq!(
        errors(&row("ld.cg.s32 r0,r1 | ")),
        "8:15: expected an address `[r]` as operand 2 of `ld`, found `r1`"
    );
    assert_eq!(
        errors(&init("y=x;")),
        "5:3: `y=x` (a location holding an address) is not supported: the IR's locations hold numbers, not addresses"
    );
}

#[test]
fn predicates_only_guard_branches_after_a_setp() {
    assert_eq!(
        errors(&row("@p0 st.cg.s32 [r1],1 | ")),
        "8:3: a guard `@p0` on `st` is not supported: the IR has conditional branches, not predicated instructions: guard a `bra`"
    );
    let unknown = "predicate `p0` is not set by a `setp` earlier in the thread, with no label in between and its operands unchanged: the IR branches on a comparison, which the reader takes from that `setp`";
    assert_eq!(errors(&row("@p0 bra L | L:")), format!("8:3: {unknown}"));
    // A label between: a jump could arrive with another predicate.
    let src = "GPU_PTX t\n{\n0:.reg .s32 r0;\n}\n P0 ;\n setp.eq.s32 p0,r0,0 ;\n L: ;\n @p0 bra L ;\nscopeTree (device P0)\nexists (0:r0=0)";
    assert_eq!(errors(src), format!("8:3: {unknown}"));
    // An operand written in between.
    let src = "GPU_PTX t\n{\n0:.reg .s32 r0;\n}\n P0 ;\n setp.eq.s32 p0,r0,0 ;\n add.s32 r0,r0,1 ;\n @!p0 bra L ;\n L: ;\nscopeTree (device P0)\nexists (0:r0=0)";
    assert_eq!(errors(src), format!("8:4: {unknown}"));
    assert_eq!(
        errors(&row("setp.lt.s32 p0,r0,1 | ")),
        "8:7: `setp.lt` is not supported: the IR's branches test equality only: use `.eq` or `.ne`"
    );
    assert_eq!(
        errors(&row("mov.pred r0,1 | ")),
        "8:6: `.pred` on `mov` is not supported: the IR has no predicate registers: only `setp` writes one, and only a guarded `bra` reads it"
    );
    assert_eq!(
        errors(&init("0:.reg .pred p0 = 1;")),
        "5:19: an initial value for a `.pred` register is not supported: the IR has no predicate registers: a `setp` sets one for a guarded `bra`"
    );
}

#[test]
fn accesses_and_atomics() {
    assert_eq!(
        errors(&row("ld.volatile.cg.s32 r0,[r1] | ")),
        "8:14: `.volatile` with the cache operator `.cg` is not supported: PTX has no such access: a volatile load or store takes no cache operator"
    );
    assert_eq!(
        errors(&row("ld.cg r0,[r1] | ")),
        "8:2: `ld` needs a type (.s32, .u32 or .b32)"
    );
    assert_eq!(
        errors(&row("ld.cg.ca.s32 r0,[r1] | ")),
        "8:8: `ld` has two cache operator qualifiers, `.cg` and `.ca`"
    );
    assert_eq!(
        errors(&row("atom.cas.b32 r0,[r1],0 | ")),
        "8:2: `atom` takes 4 operands (`atom.cas.b32 r, [a], compared, new`), found 3"
    );
    assert_eq!(
        errors(&row("atom.min.s32 r0,[r1],1 | ")),
        "8:7: `atom.min.s32` is not supported: the IR's `atom.min` and `atom.max` compare unsigned: write `.u32`"
    );
    assert_eq!(
        errors(&row("atom.sub.s32 r0,[r1],1 | ")),
        "8:7: unknown qualifier `.sub` on `atom`: expected a state space (.global, .shared), an operation (.exch, .add, .and, .or, .xor, .min, .max, .inc, .dec, .cas) and a type (.s32, .u32, .b32)"
    );
    assert_eq!(
        errors(&row("atom.s32 r0,[r1],1 | ")),
        "8:2: `atom` needs an operation (.exch, .add, .and, .or, .xor, .min, .max, .inc, .dec or .cas)"
    );
    // The cache operator is PTX's to allow: validation says so.
    assert_eq!(
        errors(&row("st.ca.s32 [r1],1 | ")),
        "8:2: cache operator `.ca` is not allowed on stores; stores take .wb, .cg, .cs or .wt"
    );
}

#[test]
fn other_instructions() {
    assert_eq!(
        errors(&row("fence.sc.gpu | ")),
        "8:2: unknown instruction `fence`: expected ld, st, mov, add, sub, mul, and, or, xor, cvt, setp, bra, membar, atom or a label `L:`"
    );
    assert_eq!(
        errors(&row("membar.gpu | ")),
        "8:9: unknown qualifier `.gpu` on `membar`: expected a level (.cta, .gl or .sys)"
    );
    assert_eq!(
        errors(&row("membar | ")),
        "8:2: `membar` needs a level (.cta, .gl or .sys)"
    );
    assert_eq!(
        errors(&row("mul.s32 r0,r0,2 | ")),
        "8:2: `mul` needs `.lo` (the IR's `mul` keeps the low 32 bits)"
    );
    assert_eq!(
        errors(&row("cvt.s32 r0,1 | ")),
        "8:2: `cvt` needs two types (`cvt.s32.u32`)"
    );
    assert_eq!(
        errors(&row("bra.uni L | ")),
        "8:6: unknown qualifier `.uni` on `bra`: expected no qualifiers"
    );
}

// ---- the init block, the header row, the scope tree, the memory map ----

#[test]
fn init_block() {
    assert_eq!(
        errors(&init("0:.reg .s32 r1;")),
        "5:13: register `r1` of thread 0 is declared twice"
    );
    assert_eq!(
        errors(&init("5:.reg .s32 r0;")),
        "5:1: no thread has index 5: the test has 2 threads, numbered from 0"
    );
    assert_eq!(
        errors(&init("Q0:r0=1;")),
        "5:1: unknown thread `Q0` in the init block: expected a thread of the header row"
    );
    assert_eq!(
        errors(&init("0:.reg .f32 r0;")),
        "5:9: expected a register type (.s32, .u32, .b32, .s64, .u64, .b64 or .pred), found `f32`"
    );
}

#[test]
fn header_row() {
    let src = "GPU_PTX t\n{}\n P0 | P2 ;\n | ;\nscopeTree (device P0 P1)\nexists (x=0)";
    assert_eq!(
        errors(src),
        "3:7: expected `P1` (herd numbers the threads by column, from P0), found `P2`"
    );
    assert_eq!(
        errors("GPU_PTX\n{}\n"),
        "1:8: expected the test name after `GPU_PTX`, found end of line\n\
         3:1: expected the thread header row (`P0 | P1 ;`), found end of file\n\
         3:1: expected `scopeTree` and the threads' placement after the code (`scopeTree (device (cta P0) (cta P1))`), found end of file"
    );
}

#[test]
fn scope_tree() {
    assert_eq!(
        errors(&tree("(device (cta P0))")),
        "7:7: thread `P1` is not in the scope tree: place it in a `cta` of a `device`"
    );
    assert_eq!(
        errors(&tree("(device (cta P0) (cta P0 P1))")),
        "10:23: thread `P0` is placed twice in the scope tree"
    );
    assert_eq!(
        errors(&tree("(device (cta P0) (cta P1 P7))")),
        "10:26: the scope tree names `P7`, which is not a thread of the header row"
    );
    assert_eq!(
        errors(&tree("(device (cta (kernel P0)) (cta P1))")),
        "10:15: expected `warp` (a level below `cta`) or a thread, found `kernel`"
    );
    assert_eq!(
        errors(&tree("(cta P0 P1)")),
        "10:2: expected `device` (the root of the scope tree holds devices), found `cta`"
    );
    assert_eq!(
        errors(&tree("(device (cta))")),
        "10:13: expected `(` and a level (`device`, `kernel`, `cta` or `warp`) or a thread `P<n>`, found `)`"
    );
    assert_eq!(
        errors(&tree("")),
        "12:1: expected `(device ...)` after `scopeTree`, found `exists`"
    );
    // Without the tree: where the code ends.
    let src = "GPU_PTX t\n{}\n P0 ;\n mov.s32 r0,1 ;\nexists (0:r0=1)";
    assert_eq!(
        errors(src),
        "5:1: expected `scopeTree` and the threads' placement after the code (`scopeTree (device (cta P0) (cta P1))`), found `exists`"
    );
}

// ---- the thread names: `P<n>` (herd's) or `T<n>` (the ASPLOS'15 paper's) ----

/// `src`'s test in the paper's style: `T<n>` in the header row and in
/// the scope tree, the same lines and columns.
fn t_style(init: &str, tree: &str, cond: &str) -> String {
    src(init, LOAD, tree, "", cond).replace(" P0 | P1 ;", " T0 | T1 ;")
}

const T_TREE: &str = "(device (cta T0) (cta T1))";

#[test]
fn thread_styles_do_not_mix() {
    // The T-style test itself reads: each mistake below is the one change.
    litmus_text::parse(&t_style("1:r2=5;", T_TREE, "exists (T1:r2=5)"))
        .unwrap_or_else(|e| panic!("{e}"));
    let mix = |found: &str, from: &str, expected: &str| {
        let prefix = &from[..1];
        format!("`{found}` mixes the thread styles: the header row's `{from}` names the threads `{prefix}<n>`, so write `{expected}` (a file names them `P<n>` as herd does, or `T<n>` as the ASPLOS'15 paper does, not both)")
    };
    // In the header row: the first thread name sets the style.
    let header =
        |row: &str| format!("GPU_PTX t\n{{}}\n{row}\n | ;\nscopeTree (device P0 P1)\nexists (x=0)");
    assert_eq!(
        errors(&header(" P0 | T1 ;")),
        format!("3:7: {}", mix("T1", "P0", "P1"))
    );
    assert_eq!(
        errors(&header(" T0 | P1 ;")),
        format!(
            "3:7: {}\n5:19: {}",
            mix("P1", "T0", "T1"),
            mix("P0", "T0", "T0")
        )
    );
    // A mixed-up style is a style mistake only where the number is right.
    assert_eq!(
        errors(&header(" P0 | T2 ;")),
        "3:7: expected `P1` (herd numbers the threads by column, from P0), found `T2`"
    );
    // In the scope tree, both ways.
    assert_eq!(
        errors(&tree("(device (cta P0) (cta T1))")),
        format!("10:23: {}", mix("T1", "P0", "P1"))
    );
    assert_eq!(
        errors(&t_style("", "(device (cta T0) (cta P1))", "exists (x=0)")),
        format!("10:23: {}", mix("P1", "T0", "T1"))
    );
    // In the init block's named form.
    assert_eq!(
        errors(&init("T1:r2=5;")),
        format!("5:1: {}", mix("T1", "P0", "P1"))
    );
    assert_eq!(
        errors(&t_style("P1:r2=5;", T_TREE, "exists (x=0)")),
        format!("5:1: {}", mix("P1", "T0", "T1"))
    );
    // In the condition's named registers.
    assert_eq!(
        errors(&tail("", "exists (T1:r0=0)")),
        format!("12:9: {}", mix("T1", "P0", "P1"))
    );
    assert_eq!(
        errors(&t_style("", T_TREE, "exists (P1:r0=0)")),
        format!("12:9: {}", mix("P1", "T0", "T1"))
    );
}

#[test]
fn t_style_threads_are_numbered_by_column() {
    let src = "GPU_PTX t\n{}\n T1 | T0 ;\n | ;\nScopeTree (grid T0 T1)\nexists (x=0)";
    assert_eq!(
        errors(src),
        "3:2: expected `T0` (herd numbers the threads by column, from T0), found `T1`\n\
         3:7: expected `T1` (herd numbers the threads by column, from T0), found `T0`"
    );
    assert_eq!(
        errors(&t_style(
            "",
            "(device (cta T0) (cta T1 T7))",
            "exists (x=0)"
        )),
        "10:26: the scope tree names `T7`, which is not a thread of the header row"
    );
    assert_eq!(
        errors(&t_style("", "(device (cta T0))", "exists (x=0)")),
        "7:7: thread `T1` is not in the scope tree: place it in a `cta` of a `device`"
    );
    assert_eq!(
        errors(&t_style("", "(device (cta T0) (cta))", "exists (x=0)")),
        "10:22: expected `(` and a level (`device`, `kernel`, `cta` or `warp`) or a thread `T<n>`, found `)`"
    );
    assert_eq!(
        errors(&t_style("", "(device (cta T0) (cta T1 1))", "exists (x=0)")),
        "10:26: expected `)`, `(` or a thread `T<n>`, found `1`"
    );
    assert_eq!(
        errors(&t_style("5:r0=1;", T_TREE, "exists (x=0)")),
        "5:1: no thread has index 5: the test has 2 threads, numbered from 0"
    );
}

#[test]
fn memory_map() {
    assert_eq!(
        errors(&tail("x: global, x: shared", "exists (x=0)")),
        "11:12: the memory map gives `x` twice"
    );
    assert_eq!(
        errors(&tail("x: private", "exists (x=0)")),
        "11:4: expected `global` or `shared` after `:`, found `private`"
    );
    assert_eq!(
        errors(&row("ld.shared.s32 r0,[r1] | ")),
        "8:5: `ld.shared` accesses `x`, which is in global memory (the memory map says where a location lives: `x: shared`)"
    );
    // Validation: shared memory belongs to one CTA.
    assert_eq!(
        errors(&src("", "st.cg.s32 [r1],1 | ld.cg.s32 r0,[r1]", TREE, "x: shared", "exists (x=0)")),
        "8:35: shared location `x` is used by threads in different CTAs (`P0` and `P1`): shared memory belongs to one CTA"
    );
}

// ---- the condition ----

#[test]
fn condition() {
    assert_eq!(
        errors(&tail("", "locations [x;]\nexists (x=0)")),
        "12:1: `locations` is not supported: the IR keeps no list of extra locations to show: the outcome shows what the condition names"
    );
    assert_eq!(
        errors(&tail("", "filter (x=0)\nexists (x=0)")),
        "12:1: `filter` is not supported: the IR has no filter on executions: fold it into the condition"
    );
    assert_eq!(
        errors(&tail("", "exists (0:r0=x)")),
        "12:14: `= x` (the address of `x`) is not supported: herd compares with a location's address here, and the IR has no addresses: compare with a number"
    );
    assert_eq!(
        errors(&tail("", "exists (1:r1=0)")),
        "12:11: register `r1` holds the address of `x`: the IR has no pointer values, so it can only be an address (`[r1]`)"
    );
    assert_eq!(
        errors(&tail("", "exists (0=0:r0)")),
        "12:9: expected a register (`0:r0`) or a location on the left of `=`, found the number `0`"
    );
    assert_eq!(
        errors(&tail("", "exists (0:r0=0) with tso: exists")),
        "12:17: `with` is not supported: the IR has one condition and no per-model kinds: remove the `with` clause"
    );
    // Validation, positioned by the reader's origins.
    assert_eq!(
        errors(&row("st.cg.s32 [r1],r7 | ")),
        "8:17: register `r7` is read before any write in thread `P0` (initialise it or write it first)"
    );
}

#[test]
fn comments() {
    assert_eq!(
        errors(&row("ld.cg.s32 r0,[r1] | (* open")),
        "8:22: unterminated comment: expected a closing `*)`"
    );
    // Comments nest, as in OCaml, and may sit anywhere.
    let ok = row("(* (* a *) b *) ld.cg.s32 r0,[r1] | (* c *)");
    litmus_text::parse(&ok).unwrap_or_else(|e| panic!("{e}"));
}

/// Each cell and each init item is read on its own: every mistake is
/// reported at once.
#[test]
fn several_errors_at_once() {
    let src = src(
        "0:.reg .f32 r0; 1:.reg .b64 r9 = y;",
        "ld.cg.b64 r0,[r1] | st.cg.s32 [r5],1 ;\n setp.gt.s32 p0,r0,1 | mov.s32 r9,1",
        TREE,
        "",
        "exists (0:r0=x)",
    );
    assert_eq!(
        errors(&src),
        "5:9: expected a register type (.s32, .u32, .b32, .s64, .u64, .b64 or .pred), found `f32`\n\
         8:8: `ld` works on 64-bit values (`.b64`), but the IR's values are 32 bits: use .s32, .u32 or .b32\n\
         8:33: register `r5` holds no location's address: give it one in the init block (`0:.reg .b64 r5 = x;`)\n\
         9:7: `setp.gt` is not supported: the IR's branches test equality only: use `.eq` or `.ne`\n\
         9:32: `mov` writes register `r9`, which holds the address of `y`: addresses are resolved as the test is read, so an address register cannot change\n\
         13:14: `= x` (the address of `x`) is not supported: herd compares with a location's address here, and the IR has no addresses: compare with a number"
    );
}

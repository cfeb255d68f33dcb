//! `gpu-litmus run --help`: the manual of `run` (and of the options
//! `campaign` shares), kept apart from the code that reads them.

pub(super) const HELP: &str =
    "gpu-litmus run: run .litmus files with the memory model and on the GPU

USAGE:
    gpu-litmus run [OPTIONS] FILE...

For each file: the model's allowed outcomes, the declared verdict against
the model's, and the GPU's histogram against the allowed set. Prints one
summary line (the verdicts, the hardware's figures and knobs) and the
outcome table: each outcome the model allows or the hardware showed, with
the hardware's count and the model's verdict; `*` marks the outcomes the
condition describes. Without a GPU the model half still runs and the
summary says `hardware: skipped, ...`.

A test fails when its declared verdict (`=> allowed` / `=> forbidden`) is
not the model's, when the hardware shows an outcome the model forbids, or
when the hardware half breaks (a kernel fault, a JIT error, lost instances,
a GPU required by LITMUS_REQUIRE_GPU=1 but missing). A failing test prints
what failed, the table, why each forbidden outcome seen is forbidden (axiom
and witness), and a line to reproduce it. Allowed outcomes never seen, and
whether the condition's outcome was seen, are said but never fail a test.

OPTIONS:
    --model NAME        the memory model: ptx, sc, ptx-2015, ptx-7.5, ptx-async, or a .cat file
                        (default: $LITMUS_MODEL, else ptx)
    --budget-ms N       GPU time per test, in milliseconds
                        (default: $LITMUS_BUDGET_MS, else 1000)
    --launches N        stop after N kernel launches instead of a time
                        budget (default: $LITMUS_LAUNCHES)
    --seed N            seeds the permutations of roles and locations
                        (default: $LITMUS_SEED, else from the clock); every
                        result prints it
    --report DIR        write a JSON record per test (TEST.json: test, model,
                        declared_verdict, computed_verdict, allowed,
                        histogram, device, seed, budget, passed, ...) and
                        one JUnit file, junit-gpu-litmus.xml, into DIR
                        (default: $LITMUS_REPORT_DIR)
    --evidence DIR      record each hardware run's histogram, device, knobs
                        and the test's IR hash as evidence in DIR (one
                        .jsonl file per process) for `gpu-litmus gate`
                        (default: $LITMUS_EVIDENCE)
    --format FORMAT     text (default), json or litmus7.
                        json: one JSON object per file and line, the
                        report's record plus `file`; a file that cannot be
                        read or parsed gives {\"file\", \"error\"}; either has
                        `report_error` when --report could not write its
                        files.
                        litmus7: litmus7's result block per test, to
                        compare with litmus7's output line by line
                        (mcompare7 reads it); see LITMUS7 FORMAT below
    --loop-bound N      the model's loop bound: how many times a loop body
                        may run in an execution the model considers
                        (default 1: an execution that takes a backward jump
                        is dropped). Not LITMUS_LOOP_BOUND, which bounds how
                        long a role may spin on the GPU (default 1000)
    --ptxas PATH        compile each test's module with this ptxas for the
                        GPU instead of the driver's JIT (default:
                        $LITMUS_PTXAS); a path that is not ptxas is an
                        error before anything runs
    --tuning FILE       per-test knobs from a tuning file (`gpu-litmus tune`
                        writes one); a test with no entry runs the defaults
                        (default: $LITMUS_TUNING, else litmus-tuning.toml in
                        the current folder if there is one)
    -h, --help          print this help

ENVIRONMENT:
    LITMUS_MODEL        as --model
    LITMUS_BUDGET_MS    as --budget-ms
    LITMUS_LAUNCHES     as --launches
    LITMUS_SEED         as --seed
    LITMUS_REPORT_DIR   as --report
    LITMUS_EVIDENCE     as --evidence
    LITMUS_REQUIRE_GPU  1: a missing GPU fails every test instead of
                        skipping its hardware half
    LITMUS_REQUIRE_HW   1: a hardware half this machine cannot run (the
                        device or driver lacks an instruction of the
                        test, the harness cannot place it) fails the test
                        instead of being reported as not run
    LITMUS_CTAS         CTAs per launch, a power of two (default 2048)
    LITMUS_THREADS      threads per CTA, a power of two from 2 to 1024
                        (default 64)
    LITMUS_STRIDE       words between two slots of a location (default 4)
    LITMUS_PERM         auto (default: fixed on one GPU, identity for a
                        test on several), fixed, random or identity
                        (locations' slots in instance order): how roles are
                        spread over lanes and locations over memory
    LITMUS_SPIN         polls of a bounded spin barrier before each role
                        (default 0: off)
    LITMUS_STRESS       CTAS[:ROUNDS] of extra CTAs stressing memory
                        (default 0: off)
    LITMUS_STRESS_PATTERN  st-st, ld-ld, st-ld or ld-st (default ld-st)
    LITMUS_STRESS_LINES    scratch lines the stress hammers, 1-64 (default 4)
    LITMUS_STRESS_LINE_WORDS  words per line, a power of two to 1024 (64)
    LITMUS_STRESS_ASSIGN   round-robin (default) or chunk: stressing CTAs
                        over the lines
    LITMUS_STRESS_PCT      % of launches that stress (default 100)
    LITMUS_PRE_STRESS      ITERATIONS[:PATTERN] the testing threads stress
                        before their roles (default 0: off)
    LITMUS_PRE_STRESS_PCT  % of launches that pre-stress (default 100)
    LITMUS_SPIN_PCT        % of launches that use the spin barrier (100)
    LITMUS_SPIN_SCOPE      instance (default: the roles of each instance
                        meet before each role) or grid (every testing
                        thread meets on one word before its roles)
    LITMUS_SHUFFLE_PCT     % of launches that shuffle which CTA plays which
                        instances (default 0)
    LITMUS_INTERLEAVE_PCT  % of launches whose testing CTAs are spread among
                        the stressing ones rather than before them (0)
    LITMUS_CTAS_PER_SM     at most this many CTAs on one SM, 1-32 (default
                        0: as many as fit)
    LITMUS_LANES        auto (default: aligned on one GPU without
                        clusters, else permuted), permuted or aligned:
                        an instance's roles in other CTAs on the same
                        lane, as the published harnesses place them
    LITMUS_CTA_SPREAD   neighbours (default) or by-lane: an instance's CTAs
                        2·lane+1 apart, so a warp's lanes meet partners
                        in different CTAs (an earlier cuda-litmus's way)
    LITMUS_LOC_LAYOUT   apart (default) or interleaved: the locations'
                        slots alternate in one array, as the published
                        harnesses lay them out
    LITMUS_PTX_TARGET   native (default: the device's own, sm_86 on an
                        A10G) or a target since Volta (sm_70, sm_75,
                        sm_80, sm_86, sm_89, sm_90, ...): the target the
                        test's module is compiled for (the published
                        harness builds for sm_80); one newer than the
                        device, or without an instruction the test uses,
                        leaves the hardware half not run, saying why
    LITMUS_PTXAS        a ptxas that compiles the module for the device,
                        loaded as a cubin (default: the driver's JIT); a
                        newer ptxas runs PTX the driver cannot read; the
                        hardware line names the toolchain
    LITMUS_ADDRESSING   global (default) or generic: how the roles' accesses
                        address global memory (the published harness's
                        cuda::atomic uses generic addresses)
    LITMUS_TUNING       as --tuning
    LITMUS_LOOP_BOUND   the GPU's spin limit: backward branches a role may
                        take on the GPU before its instance counts as
                        unfinished (default 1000); not the model's
                        --loop-bound
    LITMUS_HOST_INSTANCES  instances per launch of a test with host
                        threads, a power of two (default 65536; fewer
                        when CTAS x THREADS is smaller)
    LITMUS_HOST_THREADS    CPU threads sharing each host role's instances
                        (default 4)
    LITMUS_DEVICES      the devices the files are spread over, one worker
                        each: all (default) or ordinals like 0,2 (after
                        CUDA_VISIBLE_DEVICES)
    LITMUS_GPU_MAP      the device of each logical GPU of a test on several
                        GPUs, comma-separated (default: GPU k on device k;
                        0,0 runs a two-GPU test on device 0)
    LITMUS_GPU_JITTER   tests on several GPUs: each GPU thread waits a
                        random 0..NS nanoseconds after the start (default
                        0), so one instance's roles meet at many offsets
    LITMUS_GPU_STAGGER  tests on several GPUs: GPU g waits g*NS nanoseconds
                        after the start (negative: the last GPU first)
    LITMUS_GPU_PARTNERS tests on several GPUs: aligned (default) or permuted
                        (an instance's roles on other GPUs anywhere in their
                        launches)

LITMUS7 FORMAT (--format litmus7), one block per file whose hardware half
ran, as litmus7 prints it:
    Test MP Allowed
    Histogram (3 states)
    5021  :>1:r0=0; 1:r1=0;
    17    *>1:r0=1; 1:r1=0;
    4956  :>1:r0=1; 1:r1=1;
    Ok

    Witnesses
    Positive: 17, Negative: 9977
    Condition exists (1:r0=1 /\\ 1:r1=0) is validated
    Observation MP Sometimes 17 9977
    Time MP 1.00
    (then an empty line). Allowed, Forbidden or Required for exists, ~exists
    or forall; each state the hardware showed with its count, *> marking
    those that satisfy the condition's expression, registers as
    THREAD-NUMBER:REG and locations as [x]; Ok or No, is validated or is
    NOT validated: whether the claim held on the hardware; Positive and
    Negative: instances satisfying the expression or not (swapped for
    ~exists); Observation: Never, Sometimes or Always, with the two counts
    unswapped. No Hash= line. Without a GPU there is no block: stderr says
    that the hardware did not run, and the model's verdict; stderr also
    says why a test failed.

Every LITMUS_* variable is checked before the first file runs, with or
without a GPU: a bad value (LITMUS_CTAS=abc, LITMUS_STRESS=x:y, ...) is an
error naming the variable, the value and what it accepts, and exit status 2.

EXIT STATUS:
    0  every test passed
    1  some test failed, or a file could not be read or parsed (the other
       files still run)
    2  the command line, or a LITMUS_* variable, is wrong
";

pub(super) const USAGE: &str = "USAGE:
    gpu-litmus run [--model NAME] [--budget-ms N] [--launches N] [--seed N]
                   [--report DIR] [--evidence DIR] [--format text|json|litmus7]
                   [--loop-bound N] [--tuning FILE] [--ptxas PATH] FILE...

For more, try `gpu-litmus run --help`.";

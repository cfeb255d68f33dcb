//! The end of `gpu-litmus run --help` (the environment, litmus7's format,
//! the exit status): the part of `run`'s manual that no option carries,
//! kept apart from the code.

pub(super) const AFTER_HELP: &str = "ENVIRONMENT:
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

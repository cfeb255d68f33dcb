#!/usr/bin/env python3
"""The experiment behind docs/findings.md's "The wait after the fence":
rewrites the wait mask (the scoreboards an instruction waits on before it
issues) of the instruction after each MEMBAR.ALL.CTA in an sm_90 cubin,
nothing else, so that one compiler's code differs from itself in that
alone.

    membar-wait.py MODE CUBIN            rewrite CUBIN in place
    membar-wait.py --wrap MODE PTXAS DIR write DIR/ptxas: runs PTXAS, then
                                         rewrites the cubin it made

MODE: `wait-all` waits on all six scoreboards (what the NOP that CUDA 13's
compilers put after the fence waits on); `wait-load` adds the scoreboard of
the last instruction before the fence that sets one (the load whose value
the fence would wait for); `as-is` rewrites nothing (the wrapper alone).
Give DIR/ptxas to a run as its compiler, `LITMUS_TOOLCHAIN=DIR/ptxas`, with
`LITMUS_CACHE_DIR` naming a folder of its own (the module cache keys on the
compiler's path and version, not on what the wrapper does).

The control bits are read as on Volta and later (Jia et al., "Dissecting
the NVIDIA Volta GPU Architecture via Microbenchmarking"): of the 128-bit
instruction, bits 105-108 the stall, 109 yield, 110-112 the write
scoreboard, 113-115 the read scoreboard, 116-121 the wait mask. nvdisasm
-hex shows them in the second word of each instruction. Adding scoreboards
to a wait mask is always safe (the instruction only waits longer);
removing one is not, so the script only adds.
"""
import os
import stat
import sys

WAIT_SHIFT, WAIT_MASK = 52, 0x3F  # in the high 64-bit word
MEMBAR_ALL_CTA_LOW = 0x0000000000007992
MEMBAR_ALL_CTA_HIGH_OPERANDS = 0x8000  # the high word below the control bits


def words(data, off):
    return (int.from_bytes(data[off:off + 8], 'little'),
            int.from_bytes(data[off + 8:off + 16], 'little'))


def write_scoreboard(high):
    return (high >> 46) & 7


def rewrite(mode, path):
    data = bytearray(open(path, 'rb').read())
    sites = 0
    off = 0
    needle = MEMBAR_ALL_CTA_LOW.to_bytes(8, 'little')
    while (off := data.find(needle, off)) >= 0:
        _, high = words(data, off)
        if off % 16 == 0 and high & ((1 << 41) - 1) == MEMBAR_ALL_CTA_HIGH_OPERANDS:
            nlow, nhigh = words(data, off + 16)
            wait = (nhigh >> WAIT_SHIFT) & WAIT_MASK
            if mode == 'wait-all':
                wait = WAIT_MASK
            elif mode == 'wait-load':
                for back in range(1, 9):
                    sb = write_scoreboard(words(data, off - 16 * back)[1])
                    if sb != 7:
                        wait |= 1 << sb
                        break
            nhigh = (nhigh & ~(WAIT_MASK << WAIT_SHIFT)) | (wait << WAIT_SHIFT)
            data[off + 16:off + 32] = nlow.to_bytes(8, 'little') + nhigh.to_bytes(8, 'little')
            sites += 1
        off += 8
    open(path, 'wb').write(data)
    return sites


def wrap(mode, ptxas, folder):
    os.makedirs(folder, exist_ok=True)
    script = os.path.join(folder, 'ptxas')
    me = os.path.abspath(__file__)
    with open(script, 'w') as f:
        f.write(f'''#!/usr/bin/env bash
"{ptxas}" "$@" || exit $?
out=""; prev=""
for a in "$@"; do [ "$prev" = "-o" ] && out=$a; prev=$a; done
[ -z "$out" ] || python3 "{me}" {mode} "$out" >/dev/null
''')
    os.chmod(script, os.stat(script).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return script


def main(argv):
    modes = ('wait-all', 'wait-load', 'as-is')
    if len(argv) == 5 and argv[1] == '--wrap' and argv[2] in modes:
        print(wrap(argv[2], argv[3], argv[4]))
        return 0
    if len(argv) == 3 and argv[1] in modes:
        print(f'{rewrite(argv[1], argv[2])} MEMBAR.ALL.CTA site(s) rewritten in {argv[2]}')
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv))

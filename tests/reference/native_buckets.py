"""Where native code's instructions go in one game, under callgrind: the
self cost of every function, put in buckets by what it does (the API's
helper and typed forms, the call helper and the VM's entries, the units
the VM runs for native code, values copied, dropped and allocated, the
sizes checked against Rhai's limits, asks, native code itself, the
engine), as shares of the run less loading and compiling.

    python3 tests/reference/native_buckets.py target/release/tabula \\
        tests/reference/games/othello.yaml 4 [more `tabula sim` arguments]

Needs valgrind; CI reads none of this. A function inlined into another is
counted in the bucket of the one it was inlined into, so the buckets are
approximate (a few percent); the time a game spends in startup that no
rule names (the "other" bucket) falls as the number of games grows.
"""

import collections
import re
import subprocess
import sys
import tempfile

# (bucket, pattern on the function's name): the first that matches.
RULES = [
    ("sizes checked against the limits", r"V::sizes|map_sizes|V::limit|builtins::limit|sizes_of"),
    ("API calls (helper and typed forms)",
     r"helpers::(api|read_regs)|vm::api|api_board|api_cards|api_game|script::api::|definition::grid|with_live|typed_on"),
    ("calls (call helper, VM entry)",
     r"jit::calls::call|Jit::call|call_pushed|call_native|call_inner|push_args|VmRun::enter|VmRun::body"),
    ("units the VM runs (eval, exec, truth, for, op=)",
     r"helpers::(eval|exec|truth|keep|put|for_next|for_begin)|mixed::|VmRun::|vm::chain|vm::methods"
     r"|vm::lists|vm::texts|vm::templates|vm::switch"),
    ("asks and options", r"ask"),
    ("values: copies, drops, allocation",
     r"drop_in_place|Clone>::clone|mi_|malloc|free|memcpy|memmove|alloc::|GlobalAlloc|smallvec|raw_vec|value::V"),
    ("engine (flow, state, memo, bots)", r"core::|state::|flow|memo|analysis::|bot"),
    ("load and compile (once)",
     r"cranelift|regalloc|rhai::|Lowering|compile|serde|saphyr|definition::|Jit::build|new_engine"),
]


def buckets(out):
    """The run's total and each bucket's instructions, from
    `callgrind_annotate --auto=no`'s table."""
    total, got = 0, collections.Counter()
    for line in out.splitlines():
        m = re.match(r"\s*([\d,]+) \([ \d.]+%\)\s+(\S.*)", line)
        if not m:
            continue
        n, name = int(m.group(1).replace(",", "")), m.group(2)
        if "PROGRAM TOTALS" in name:
            total = n
            continue
        if name.startswith("???:0x"):
            got["native code"] += n
            continue
        # `file:function [object]`: the function's name.
        fn = name.split(":", 1)[1] if ":" in name and name[0] in "/.s" else name
        for label, pattern in RULES:
            if re.search(pattern, fn):
                got[label] += n
                break
        else:
            got["other"] += n
    return total, got


def main():
    binary, game, games, rest = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
    with tempfile.NamedTemporaryFile(suffix=".cg") as cg:
        subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={cg.name}", binary, "sim", game,
             "--games", str(games), "--jobs", "1", "--no-memo", "--seed", "1", "--jit", *rest],
            check=True, capture_output=True)
        out = subprocess.run(["callgrind_annotate", "--auto=no", cg.name],
                             check=True, capture_output=True, text=True).stdout
    total, got = buckets(out)
    load = got.pop("load and compile (once)", 0)
    run = total - load
    print(f"{game}: {run / games:,.0f} instructions a game (load and compile {load:,} once)")
    for label, n in got.most_common():
        print(f"{100 * n / run:5.1f}%  {label}")


if __name__ == "__main__":
    main()

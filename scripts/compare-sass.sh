#!/usr/bin/env bash
# Whether two builds compiled the same device code: the SASS of every
# function of binary A against that of binary B (cuobjdump -sass), with
# the addresses and instruction encodings dropped, so that functions
# placed elsewhere in the cubin still compare equal, and the hashes that
# mangle a name of an anonymous namespace dropped too (they change with
# anything else in its translation unit). A change meant to
# move code and not behaviour (a shared helper in place of copies, a file
# split) that leaves every function identical cannot move a timing, and
# needs no A/B run. Needs cuobjdump, which the lent GPU machine has and
# the development machine lacks. Usage:
#   scripts/compare-sass.sh A B [LIMIT]   (LIMIT: differing functions listed, default 40)
# Prints the function counts, those found in only one binary and the
# functions whose SASS differs; exits 0 when every function matches, 1
# when one differs or is missing, 2 on a usage error.
set -euo pipefail
if [ $# -lt 2 ]; then
  sed -n '2,/^set -euo/p' "$0" | sed '$d' >&2
  exit 2
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for side in a b; do
  binary=$1
  shift
  cuobjdump -sass "$binary" | sed -E 's#/\*[0-9a-f]{4,}\*/##; s#/\* 0x[0-9a-f]+ \*/##; s/[[:space:]]+$//' |
    grep -v '^[[:space:]]*$' > "$work/$side.sass"
done
python3 - "$work/a.sass" "$work/b.sass" "${1:-40}" <<'PY'
import re
import sys


# A name in an anonymous namespace is mangled with hashes of its
# translation unit ("47_GLOBAL__N__7eeacdae_14_CudaBackend_cu_4acceee5"),
# which change when anything else in that unit does (an included kernel
# more, another flag): only the unit's file name is kept.
ANONYMOUS = re.compile(r"\d+_GLOBAL__N__[0-9a-f]+_\d+_(\w+?)_[0-9a-f]{8}(?=\d|E|$)")


def stable(text):
    return ANONYMOUS.sub(lambda m: f"{{anonymous:{m.group(1)}}}", text)


def functions(path):
    """Each function's SASS lines, by mangled name. A kernel compiled into
    several of the binary's cubins (the engine's modules) is kept once a
    cubin, its second copy named "name [2]" and so on, so that no copy
    hides another's difference; a cubin's header ends the function before it."""
    found, name = {}, None
    with open(path) as lines:
        for line in lines:
            line = stable(line)
            match = re.match(r"\s*Function : (\S+)", line)
            if match:
                name, copy = match.group(1), 1
                while (name if copy == 1 else f"{name} [{copy}]") in found:
                    copy += 1
                name = name if copy == 1 else f"{name} [{copy}]"
                found[name] = []
            elif line.startswith("Fatbin "):
                name = None
            elif name is not None:
                found[name].append(line.strip())
    return found


a, b = functions(sys.argv[1]), functions(sys.argv[2])
limit = int(sys.argv[3])
only_a, only_b = sorted(set(a) - set(b)), sorted(set(b) - set(a))
differ = sorted(k for k in set(a) & set(b) if a[k] != b[k])
print(f"functions: A {len(a)}, B {len(b)}; only in A {len(only_a)}, only in B {len(only_b)}")
print(f"functions whose SASS differs: {len(differ)}")
for label, names in (("only in A", only_a), ("only in B", only_b), ("differs", differ)):
    for name in names[:limit]:
        detail = f" ({len(a[name])} -> {len(b[name])} lines)" if label == "differs" else ""
        print(f"  {label}: {name[:120]}{detail}")
sys.exit(1 if only_a or only_b or differ else 0)
PY

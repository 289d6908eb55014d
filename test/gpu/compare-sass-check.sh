#!/usr/bin/env bash
# scripts/compare-sass.sh on made-up cuobjdump listings and on excerpts of
# real ones (the development machine and CI have no cuobjdump): functions
# that differ only in their addresses and encodings match (exit 0); a
# changed instruction or a missing function is reported (exit 1), also in
# one of two cubins that hold the same kernel; a kernel of an anonymous
# namespace matches across builds whose hashes of the translation unit
# differ; too few arguments are a usage error (exit 2).
# Usage: compare-sass-check.sh SCRIPT
set -u
script=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '#!/usr/bin/env bash\ncat "$2"\n' > "$work/cuobjdump" # cuobjdump -sass FILE
chmod +x "$work/cuobjdump"
listing() { # cuobjdump's layout: each instruction's encoding over two lines
  printf 'Fatbin elf code:\n================\narch = sm_90\n\n'
  for f in "$@"; do # "name|address|instruction|encoding", name only where a function begins
    IFS='|' read -r name address instruction encoding <<< "$f"
    [ -n "$name" ] && printf '\t\tFunction : %s\n\t.headerflags\t@"EF_CUDA_SM90"\n' "$name"
    printf '        /*%s*/                   %s ;   /* %s */\n' "$address" "$instruction" "$encoding"
    printf '                                                   /* 0x%s */\n' "${encoding#0x}"
  done
}
listing "_Z4copyPiS_|0000|MOV R1, c[0x0][0x28]|0x00000a0000017a02" "|0010|EXIT|0x000000000000794d" \
  "_Z4sumPKiPi|0000|IADD3 R0, R2, R3, RZ|0x0000000302007210" > "$work/a"
listing "_Z4copyPiS_|0040|MOV R1, c[0x0][0x28]|0x00000a0000017a03" "|0050|EXIT|0x000000000000794e" \
  "_Z4sumPKiPi|0080|IADD3 R0, R2, R3, RZ|0x0000000302007211" > "$work/moved"
listing "_Z4copyPiS_|0000|MOV R1, c[0x0][0x28]|0x00000a0000017a02" "|0010|EXIT|0x000000000000794d" \
  "_Z4sumPKiPi|0000|IADD3 R0, R2, R4, RZ|0x0000000402007210" > "$work/changed"
listing "_Z4copyPiS_|0000|MOV R1, c[0x0][0x28]|0x00000a0000017a02" "|0010|EXIT|0x000000000000794d" > "$work/fewer"
# The same kernel in two cubins (modules): a difference in the first copy
# must not hide behind the second.
cat "$work/a" "$work/a" > "$work/twice"
cat "$work/changed" "$work/a" > "$work/twice-changed"
# A kernel in an anonymous namespace, its name mangled with hashes of the
# translation unit that change with anything else in it (real cuobjdump
# names of two builds of cuda/CudaBackend.cu, one with a kernel more).
anonymous_a=_ZN3cca4cuda47_GLOBAL__N__7eeacdae_14_CudaBackend_cu_4acceee525StoreReadValuesLateKernelEPm
anonymous_b=_ZN3cca4cuda47_GLOBAL__N__7eeacdae_14_CudaBackend_cu_3883271025StoreReadValuesLateKernelEPm
listing "$anonymous_a|0000|MOV R1, c[0x0][0x28]|0x00000a0000017a02" "|0010|EXIT|0x000000000000794d" > "$work/anonymous"
listing "$anonymous_b|0000|MOV R1, c[0x0][0x28]|0x00000a0000017a02" "|0010|EXIT|0x000000000000794d" > "$work/anonymous-rehashed"
listing "$anonymous_b|0000|MOV R2, c[0x0][0x28]|0x00000a0000027a02" "|0010|EXIT|0x000000000000794d" > "$work/anonymous-changed"
failures=0
expect() { # expected exit status, a pattern its output must hold, arguments
  local status=$1 pattern=$2
  shift 2
  local output rc
  output=$(PATH="$work:$PATH" bash "$script" "$@" 2>&1)
  rc=$?
  if [ "$rc" != "$status" ] || ! grep -qE -- "$pattern" <<< "$output"; then
    echo "FAIL: compare-sass.sh $* gave exit $rc (expected $status, output matching '$pattern'):"
    echo "$output"
    failures=$((failures + 1))
  fi
}
expect 0 "SASS differs: 0" "$work/a" "$work/moved"
expect 1 "differs: _Z4sumPKiPi" "$work/a" "$work/changed"
expect 1 "only in A: _Z4sumPKiPi" "$work/a" "$work/fewer"
expect 2 "Usage" "$work/a"
expect 0 "A 4, B 4; only in A 0, only in B 0" "$work/twice" "$work/twice"
expect 1 "differs: _Z4sumPKiPi \\(" "$work/twice" "$work/twice-changed"
expect 0 "SASS differs: 0" "$work/anonymous" "$work/anonymous-rehashed"
expect 1 "differs: _ZN3cca4cuda\{anonymous:CudaBackend_cu\}25StoreReadValuesLateKernelEPm \(" "$work/anonymous" "$work/anonymous-changed"
# Excerpts of real dumps (cuobjdump 13.0, sm_90; benchmark/results/
# h100-compare-sass-real): two functions of cuda/CudaBackend.cu's object as
# CI builds it, with its header, and the same two from the build with one
# kernel included ahead of the engine's, where the anonymous namespace's
# hashes differ; that kernel is the one difference.
real=$(dirname "${BASH_SOURCE[0]}")/sass
expect 0 "A 2, B 2; only in A 0, only in B 0" "$real/CudaBackend.sass" "$real/CudaBackend.sass"
for pattern in "A 2, B 3; only in A 0, only in B 1" "SASS differs: 0" "only in B: _Z20SassCheckExtraKernelPi$"; do
  expect 1 "$pattern" "$real/CudaBackend.sass" "$real/CudaBackend-extra-kernel.sass"
done
if [ "$failures" -ne 0 ]; then
  echo "compare-sass: $failures check(s) failed"
  exit 1
fi
echo "compare-sass: 11 checks passed"

#!/usr/bin/env bash
# Reproduces the papers' experiments with cca_family_benchmark, in one go
# under a wall-time deadline (default 530 s: one device command may run 10
# minutes), and writes one JSON per experiment plus the logs:
#   cabaret2017         DLP at 2048^2, g = 1, 4, 16, d = 0..1 step 0.1, both connectivities (Table 2)
#   windisch2023        HA labeling, feature compaction None / TreeMerge / Scan: bytes copied and
#                       time vs density at 256^2 and 2048^2, g = 1, 4, 16 (Fig. 4); mean time vs size
#                       128^2..4096^2, d = 0.1..0.9, g = 1 (Fig. 5)
#   asad2019            LE and TM, Early and Late, on the six synthetic families at 8192^2, full
#                       connectivity (Table III; Ordinary = the labeling stage of the Late runs)
#   lemaitre2021-table  the seven strategies at 8192^2, g = 1, 4, 16 (d = 0..1 step 0.1) and all
#                       foreground, face and full connectivity; atomic updates at g = 1 (Table 1, Fig. 1, 5, 7 left)
#   lemaitre2021-sizes  the seven strategies, 256^2..4096^2, d = 0, 0.2, .., 1 and all foreground,
#                       face and full (Fig. 7 right; 8192^2 comes from lemaitre2021-table)
#   lemaitre2021-16k    the same at 16384^2: all seven with face connectivity, HA and FLSL_CD with full
#   report              benchmark/reproduce_report.py: docs/reproduction.md and the plots (needs the
#                       JSON only; matplotlib optional, so it can run again elsewhere)
# Usage (repository root): benchmark/reproduce-papers.sh [EXPERIMENT ...]   (default: all, in the order above)
# Environment:
#   BUILD=build-bench   build folder with benchmark/cca_family_benchmark (configured with
#                       -DCMAKE_CUDA_ARCHITECTURES=90); when it is missing and
#                       .devcarry/bench-bundle.tar.xz exists (make-bench-bundle.sh), that is unpacked
#   OUT=DIR             where the JSON and logs go (default benchmark/results/reproduction)
#   DEADLINE=530        seconds for the whole run; each experiment also has its own cap
#   BACKEND=cuda        cpu for a dry run on a machine without a GPU
#   QUICK=1             small sizes and few repetitions: checks the pipeline end to end in a minute
# Expected on one H100 (estimated from the earlier H100 runs in benchmark/results; see
# benchmark/README.md): cabaret2017 ~10 s, windisch2023 ~25 s, asad2019 ~40-90 s, lemaitre2021-table ~100 s,
# lemaitre2021-sizes ~30 s, lemaitre2021-16k ~110 s, report ~10 s: ~350 s in all.
set -uo pipefail
root=$PWD
build=${BUILD:-build-bench}
res=${OUT:-$root/benchmark/results/reproduction}
deadline=${DEADLINE:-530}
backend=${BACKEND:-cuda}
quick=${QUICK:-0}
mkdir -p "$res"
# One log per call, so that the results of several calls can share a folder.
exec > >(tee -a "$res/reproduce-$(date -u +%Y%m%d-%H%M%S).log") 2>&1

all_experiments="cabaret2017 windisch2023 asad2019 lemaitre2021-table lemaitre2021-sizes lemaitre2021-16k report"
experiments=${*:-$all_experiments}
for e in $experiments; do
  [[ " $all_experiments " == *" $e "* ]] || { echo "unknown experiment $e (known: $all_experiments)"; exit 2; }
done
want() { [[ " $experiments " == *" $1 "* ]]; }

[[ $build == /* ]] || build=$root/$build
bench=$build/benchmark/cca_family_benchmark
if [[ ! -x "$bench" && -f .devcarry/bench-bundle.tar.xz ]]; then
  mkdir -p /tmp/bench-bundle
  xz -dc .devcarry/bench-bundle.tar.xz | tar -C /tmp/bench-bundle -xf - && tar -C "$root" -xf /tmp/bench-bundle/build.tar
  export LD_LIBRARY_PATH=/tmp/bench-bundle/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi
needs_bench=0
for e in $experiments; do [[ $e != report ]] && needs_bench=1; done
if ((needs_bench)) && [[ ! -x "$bench" ]]; then
  echo "no $bench: build it (ninja -C $build cca_family_benchmark) or carry the bundle (make-bench-bundle.sh)"
  exit 1
fi

{
  echo "started $(date -u +%FT%TZ), experiments: $experiments, backend $backend, quick $quick"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv 2>/dev/null || echo "no nvidia-smi"
  echo "CPU: $(nproc) cores,$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
  echo "engine commit: ${ENGINE_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}"
} | tee "$res/device.txt"

# Sizes and repetitions; QUICK=1 shrinks everything for a dry run.
if ((quick)); then
  S_DLP=256 S_FIG4=64,256 S_FIG5=64,128,256 S_004=512 S_TABLE=512 S_SWEEP=64,128,256 S_16K=1024
  REPS="--reps 1 --warmup 0" INSTANCES=1
else
  S_DLP=2048 S_FIG4=256,2048 S_FIG5=128,256,512,1024,2048,4096 S_004=8192 S_TABLE=8192
  S_SWEEP=256,512,1024,2048,4096 S_16K=16384
  REPS="--reps 3 --warmup 1" INSTANCES=2
fi
B=("$bench" --backend "$backend")

# Runs one experiment under the smaller of its cap and the time left before
# the deadline (less $reserve seconds for the report); prints its wall time.
reserve=15
step() {
  local name=$1 cap=$2
  shift 2
  local left=$((deadline - SECONDS - reserve))
  local limit=$((cap < left ? cap : left))
  if ((limit < 5)); then
    echo "== $name: skipped, no time left (at ${SECONDS}s)"
    return
  fi
  echo "== $name (limit ${limit}s, at ${SECONDS}s): $*"
  local t0=$SECONDS
  timeout "$limit" "$@" > "$res/$name.log" 2>&1
  local rc=$?
  echo "== $name: rc=$rc, ${SECONDS}s elapsed, $((SECONDS - t0))s for this step"
  grep -E '^(==|ERROR)|MISMATCH' "$res/$name.log" | tail -8
}

if want cabaret2017; then
  # Table 2: DLP-GPU labeling; Default (FLSL_CD) beside it for reference.
  step cabaret2017 60 "${B[@]}" --family random --size "$S_DLP" --g 1,4,16 --density-step 0.1 \
    --algorithms DLP,Default --connectivity both $REPS --rep-budget-ms 100 --label cabaret2017 --json "$res/cabaret2017.json"
fi
if want windisch2023; then
  # Fig. 4 and 5: HA labeling (Windisch 2023's HA4 baseline) with each compaction; 4-connectivity as HA4.
  step windisch2023-fig4 60 "${B[@]}" --family random --sizes "$S_FIG4" --g 1,4,16 --density-step 0.1 \
    --algorithms HA --compactions None,TreeMerge,Scan --connectivity face --reps 5 --warmup 1 --rep-budget-ms 100 \
    --label windisch2023-fig4 --json "$res/windisch2023-fig4.json"
  step windisch2023-fig5 60 "${B[@]}" --family random --sizes "$S_FIG5" --g 1 --density 0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9 \
    --algorithms HA --compactions None,TreeMerge,Scan --connectivity face --reps 5 --warmup 1 --rep-budget-ms 100 \
    --label windisch2023-fig5 --json "$res/windisch2023-fig5.json"
fi
if want asad2019; then
  # Table III: the four variants on every family; the paper's 8-connectivity.
  step asad2019 170 "${B[@]}" --family ridge --size "$S_004" --algorithms asad2019 --connectivity full \
    $REPS --rep-budget-ms 100 --instances "$INSTANCES" --label asad2019 --json "$res/asad2019.json"
fi
if want lemaitre2021-table; then
  step lemaitre2021-table 200 "${B[@]}" --family random --size "$S_TABLE" --g 1,4,16,all --density-step 0.1 \
    --algorithms lemaitre2021 --connectivity both $REPS --rep-budget-ms 200 --atomic-counts g1 \
    --label lemaitre2021-table --json "$res/lemaitre2021-table.json"
fi
if want lemaitre2021-sizes; then
  step lemaitre2021-sizes 90 "${B[@]}" --family random --sizes "$S_SWEEP" --g 1,4,16,all --density 0,0.2,0.4,0.6,0.8,1 \
    --algorithms lemaitre2021 --connectivity both $REPS --rep-budget-ms 200 \
    --label lemaitre2021-sizes --json "$res/lemaitre2021-sizes.json"
fi
if want lemaitre2021-16k; then
  # 16384^2: 256 MiB images, up to 34 million components (7 GB of feature table a run at g = 1);
  # face: all seven, full: HA and FLSL_CD only (each image is made once for both).
  step lemaitre2021-16k 210 "${B[@]}" --family random --size "$S_16K" --g 1,4,16,all --density 0,0.2,0.4,0.6,0.8,1 \
    --algorithms lemaitre2021 --full-algorithms HA,FLSL_CD --connectivity both --reps 2 --warmup 1 --rep-budget-ms 200 \
    --label lemaitre2021-16k --json "$res/lemaitre2021-16k.json"
fi
if want report; then
  reserve=0
  # With OUT set (a device machine) the document goes beside the JSON: only $OUT comes back.
  doc=${DOC:-${OUT:+$res/reproduction.md}}
  step report 60 python3 benchmark/reproduce_report.py --results "$res" ${doc:+--doc "$doc"}
  tail -5 "$res/report.log"
fi
echo "total ${SECONDS}s; results in $res"
ls -la "$res"

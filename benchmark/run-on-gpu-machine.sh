#!/usr/bin/env bash
# Runs the whole benchmark on a lent GPU machine that has no ITK, from the
# bundle made here by benchmark/make-bench-bundle.sh (carry
# .devcarry/bench-bundle.tar.xz), in one go, under a wall-time deadline:
#   1. cca_benchmark, 8192^2, both connectivities, features only
#   2. cca_npp_benchmark (NVIDIA NPP peer), 8192^2, both connectivities;
#      rebuilt here with nvcc if the carried one does not load
#   3. cca_filter_benchmark, 2048^2: our ITK filter (CUDA and CPU) and ITK's
#      BinaryImageToShapeLabelMapFilter, face connectivity
#   4. cca_benchmark, 8192^2, labels + runs + features (--outputs all)
#   5. plot.py: PNG plots and the Markdown table
# Writes everything to $OUT/bench-results.tar.gz, plus the table and the
# plots as separate files. About 6 minutes on an H100 machine.
# Usage (repository root): [STEPS="..."] [BUILD=build-bench] benchmark/run-on-gpu-machine.sh [deadline_s]
# STEPS picks steps (default: engine-features npp filter engine-all plot;
# filter-full, the filter benchmark with full connectivity, runs only if named).
# End to end (issue 10), each only if named, in this order:
#   e2e          cca_e2e_benchmark: the issue's table masks, a fresh filter per
#                repetition, ITK's BinaryImageToShapeLabelMapFilter on 16 threads
#   e2e-program  benchmark/program-files.sh: the program through its files, 512^3
#   e2e-large    cca_e2e_benchmark on the 2048 x 2048 x 560 volume with a label
#                image, CUDA against our CPU backend
#   e2e-formats  benchmark/program-files.sh formats: the label image in each format
# STEPS="e2e e2e-program e2e-large" takes about 5 minutes on the H100 machine.
# Making label objects (issue 10's LabelMap), only if named:
#   labelobjects benchmark/label-objects.sh: 4 M label objects on 16 threads, New()
#                against the builder's MakeLabelObject, glibc's heap growth against
#                64 MiB steps, with and without ITK's IO factories (about a minute)
#   insertion    cca_label_objects_benchmark --insert: 11.4 M label objects (the
#                512^3 g = 1 mask's count) made on 15 threads, then inserted into
#                a LabelMap on one, as the builder's inserter does, timed apart
# Intensity statistics (issue 12), only if named:
#   stats        cca_statistics_benchmark: the CT-like 512 x 512 x 400 volume with
#                a 100-label segmentation and a thresholded mask, ours (CUDA, CPU)
#                against ITK's statistics filters on 16 threads, results compared;
#                the intensity votes' kernel cost beside the shape-only run at 8192^2
# Kernels against the labels-only peers (issue 13), each only if named:
#   kernels2d    cca_benchmark, 8192^2, face (4) and full (8) connectivity:
#                --outputs labels (labels only) and --outputs all (labels, runs,
#                features), the label image in device memory as the peers write
#                theirs; with the engine's device memory per pixel
#   kernels3d    the same on the 512^3 volumes (--dimension 3; 6 and 26 neighbours)
# Median of 5 (labels) or 3 (all) after 1 warm-up; STEPS="kernels2d kernels3d plot"
# should take about 4 minutes on an H100 (each run is capped; the JSON is
# rewritten after every image, so a capped run keeps what it measured).
set -uo pipefail
deadline=${1:-390}
STEPS=${STEPS:-engine-features npp filter engine-all plot}
want() { [[ " $STEPS " == *" $1 "* ]]; }
root=$PWD
out=${OUT:-/tmp/bench-out}
res=/tmp/bench-results
bundle=/tmp/bench-bundle
mkdir -p "$out" "$res" "$bundle"
exec > >(tee -a "$res/run.log") 2>&1

xz -dc .devcarry/bench-bundle.tar.xz | tar -C "$bundle" -xf - && tar -C "$root" -xf "$bundle/build.tar" || exit 1
build=${BUILD:-build-bench}
bin=$root/$build/benchmark

# NPP: wherever this machine's CUDA keeps it.
nppif=$(find /usr/local/cuda/lib64/ /usr/local/cuda*/targets/*/lib/ /usr/lib/x86_64-linux-gnu/ \
  "$(python3 -c 'import site; print(site.getsitepackages()[0])' 2>/dev/null)/nvidia" \
  -name 'libnppif.so*' 2>/dev/null | head -1)
nppdir=${nppif:+$(dirname "$nppif")}
export LD_LIBRARY_PATH=$bundle/lib${nppdir:+:$nppdir}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}

gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
tag=$(echo "$gpu" | grep -o -E 'H100|H200|A100|L40S|B200' | head -1 | tr 'A-Z' 'a-z')
tag=${tag:-gpu}
{
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv
  nvcc --version | tail -2
  echo "CPU: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
  echo "NPP: ${nppif:-not found}"
  echo "programs: $build, engine commit ${ENGINE_COMMIT:-not given (ENGINE_COMMIT)}"
} | tee "$res/device.txt"

# Runs one step under the smaller of its cap and the time left before the
# deadline, less what the plot step needs ($reserve seconds).
reserve=30
step() {
  local name=$1 cap=$2
  shift 2
  local left=$((deadline - SECONDS - reserve))
  local limit=$((cap < left ? cap : left))
  if ((limit < 15)); then
    echo "== $name: skipped, no time left (${SECONDS}s)"
    return
  fi
  echo "== $name (limit ${limit}s, at ${SECONDS}s): $*"
  local t0=$SECONDS
  timeout "$limit" "$@" > "$res/$name.log" 2>&1
  local rc=$?
  echo "== $name: rc=$rc in $((SECONDS - t0))s"
  grep -E '^(==|MISMATCH)' "$res/$name.log" | tail -30
}

want engine-features && step engine-features 110 "$bin/cca_benchmark" --size 8192 --reps 3 --warmup 1 --outputs features \
  --json "$res/$tag-8192-features.json"

npp=$bin/cca_npp_benchmark
if want npp && { [[ ! -x "$npp" ]] || ldd -r "$npp" 2>&1 | grep -E 'not found|undefined symbol' >/dev/null; }; then
  echo "== carried cca_npp_benchmark does not load; building it here"
  npp=/tmp/cca_npp_benchmark
  nvcc -O3 -std=c++17 -arch=sm_90 -I include -I benchmark -I "$nppdir/../include" \
    benchmark/ccaNppBenchmark.cxx "$build"/src/libCudaLabelStatisticsEngine.a -L"$nppdir" \
    -Xlinker "-l:$(basename "$(ls "$nppdir"/libnppif.so* | head -1)")" \
    -Xlinker "-l:$(basename "$(ls "$nppdir"/libnppc.so* | head -1)")" -lpthread -o "$npp" > "$res/npp-build.log" 2>&1 ||
    { echo "NPP peer build failed"; tail -20 "$res/npp-build.log"; }
fi
want npp && step npp 110 "$npp" --size 8192 --reps 5 --warmup 1 --json "$res/$tag-8192-npp.json"

want filter && step filter 150 "$bin/cca_filter_benchmark" --size 2048 --reps 3 --warmup 1 \
  --json "$res/$tag-2048-filter.json"
want filter-full && step filter-full 170 "$bin/cca_filter_benchmark" --size 2048 --reps 3 --warmup 1 \
  --connectivity full --json "$res/$tag-2048-filter-full.json"

want engine-all && step engine-all 150 "$bin/cca_benchmark" --size 8192 --reps 3 --warmup 1 --outputs all \
  --json "$res/$tag-8192-all.json"

kernels() { # name dimension size cap-labels cap-all
  local name=$1 dim=$2 size=$3 shape
  shape=$size$([[ $dim == 3 ]] && echo -3d)
  step "$name-labels" "$4" "$bin/cca_benchmark" --dimension "$dim" --size "$size" --connectivity both --reps 5 \
    --warmup 1 --outputs labels --labels-on-device --no-atomic-counts --json "$res/$tag-$shape-labels.json"
  step "$name-all" "$5" "$bin/cca_benchmark" --dimension "$dim" --size "$size" --connectivity both --reps 3 \
    --warmup 1 --outputs all --labels-on-device --no-atomic-counts --json "$res/$tag-$shape-all-device-labels.json"
}
want kernels2d && kernels kernels2d 2 8192 40 80
want kernels3d && kernels kernels3d 3 512 50 100

e2e=$bin/cca_e2e_benchmark
table_masks=ct-face,ct-full,balls-60k,random3d-g4,random3d-g1,random2d-g16,random2d-g4,random2d-g1
want e2e && step e2e 260 "$e2e" --threads 16 --only "$table_masks" --json "$res/$tag-e2e.json"
want e2e-program && step e2e-program 60 benchmark/program-files.sh "$root/$build/bin/CudaLabelStatistics" compression
want e2e-large && step e2e-large 120 "$e2e" --threads 16 --only large-labels --json "$res/$tag-e2e-large.json"
want e2e-formats && step e2e-formats 90 benchmark/program-files.sh "$root/$build/bin/CudaLabelStatistics" formats
want stats && step stats 170 "$bin/cca_statistics_benchmark" --threads 16 --json "$res/$tag-statistics.json"
want labelobjects && step labelobjects 120 benchmark/label-objects.sh "$bin/cca_label_objects_benchmark" 16 4000000 3
want insertion && step insertion 120 "$bin/cca_label_objects_benchmark" --objects 11400000 --threads 15 --grow-heaps --insert
[[ -f $res/labelobjects.log ]] && { echo "==== labelobjects.log"; tail -12 "$res/labelobjects.log"; }
[[ -f $res/insertion.log ]] && { echo "==== insertion.log"; cat "$res/insertion.log"; }
[[ -f $res/stats.log ]] && { echo "==== stats.log"; cat "$res/stats.log"; }
e2e_json=$(ls "$res"/*-e2e*.json 2>/dev/null)
[[ -n $e2e_json ]] && step e2e-plot 30 python3 benchmark/plot_e2e.py --out "$res" --table "$res/e2e-table.md" \
  --title "$gpu" $e2e_json
for name in e2e e2e-program e2e-large e2e-formats e2e-plot; do
  [[ -f $res/$name.log ]] && { echo "==== $name.log"; cat "$res/$name.log"; }
done

reserve=5
want plot && step plot 40 python3 benchmark/plot.py --out "$res" --table "$res/table.md" --title "$gpu" \
  $(ls "$res"/*.json | grep -v -e -e2e -e -statistics)
cat "$res/table.md" 2>/dev/null

tar -C "$res" -czf "$out/bench-results.tar.gz" .
cp "$res"/table.md "$res"/*.png "$out"/ 2>/dev/null
cp "$res"/stats.log "$res"/*-statistics.json "$out"/ 2>/dev/null
cp "$res"/kernels*.log "$out"/ 2>/dev/null
cp "$res"/e2e.log "$res"/e2e-program.log "$res"/e2e-large.log "$res"/e2e-table.md "$res"/e2e.png "$out"/ 2>/dev/null
ls -la "$out"
echo "total ${SECONDS}s"

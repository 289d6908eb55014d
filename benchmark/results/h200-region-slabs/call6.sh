#!/usr/bin/env bash
# Call 6 (H200): main (6370750), 8192^2 8-connected labels only, g = 1,
# d = 0.4: the first pixel offers' instructions with ncu's source
# counters (executed instructions, stall samples per SASS instruction,
# with the CUDA source lines of the -lineinfo build).
set -u
L=$OUT/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
B=/tmp/b/build-gpu/benchmark/cca_benchmark
exec > >(tee $OUT/summary.txt) 2>&1
P="--labels-on-device --no-atomic-counts --warmup 1 --reps 1 --outputs labels --g 1 --dimension 2 --size 8192 --connectivity full --density 0.4"
timeout 200 ncu --kernel-name regex:OfferStripFirstPixelsKernel --launch-skip 2 --launch-count 1 --section SourceCounters --section WarpStateStats --section InstructionStats --section ComputeWorkloadAnalysis -o $L/offers $B $P > $L/ncu-run.txt 2>&1
echo "ncu rc=$? at $SECONDS s"
ncu -i $L/offers.ncu-rep --page details > $L/details.txt 2>&1; echo "details rc=$?"
grep -E 'Executed Instructions|Issued Instructions|Branch|Divergent|Avg. Active|Stall|IPC|Pipe' $L/details.txt | head -30
ncu -i $L/offers.ncu-rep --page source --csv --print-source sass > $L/source-sass.csv 2> $L/source-sass.err; echo "sass rc=$? lines $(wc -l < $L/source-sass.csv)"
ncu -i $L/offers.ncu-rep --page source --csv --print-source cuda,sass --source-folders $PWD/cuda > $L/source-cuda.csv 2> $L/source-cuda.err; echo "cuda rc=$? lines $(wc -l < $L/source-cuda.csv)"
head -c 600 $L/source-sass.csv; echo
cp $L/source-sass.csv $L/source-cuda.csv $L/details.txt $OUT/ 2>/dev/null
rm -f $L/offers.ncu-rep
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L

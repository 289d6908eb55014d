#!/usr/bin/env bash
# Call 1 (H200): where the small masks' time goes, with a diagnostic build
# (trace.patch: timestamps in the region upload and the LabelMap builder,
# printed when CCA_TRACE_UPLOAD / CCA_TRACE_BUILDER are set). The filter's
# Update() and the engine alone, no ITK; then a CUPTI timeline of CT face.
set -u
mkdir -p $OUT/logs /tmp/i && tar -C /tmp/i -xJf .devcarry/e2e-bundle.tar.xz
export LD_LIBRARY_PATH=/tmp/i/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
exec > >(tee $OUT/summary.txt) 2>&1
E=/tmp/i/bin/cca_e2e_benchmark
timeout 120 $E --threads 16 --no-itk --reps 9 --only ct-face,ct-full,balls-60k > $OUT/logs/plain.log 2>&1
echo "plain rc=$? at $SECONDS s"; grep -E '^(ct-|balls)' $OUT/logs/plain.log
CCA_TRACE_UPLOAD=1 CCA_TRACE_BUILDER=1 timeout 120 $E --threads 16 --no-itk --reps 9 --only ct-face,ct-full,balls-60k > $OUT/logs/traced.log 2>&1
echo "traced rc=$? at $SECONDS s"; grep -E '^(ct-|balls)' $OUT/logs/traced.log
grep -E '^(upload|builder) trace' $OUT/logs/traced.log | head -80
CUDA_INJECTION64_PATH=$PWD/.devcarry/libtimeline.so TIMELINE_OUT=$OUT/timeline-ct-face.tsv timeout 120 $E --threads 16 --no-itk --reps 5 --only ct-face > $OUT/logs/timeline.log 2>&1
echo "timeline rc=$? at $SECONDS s"; grep -E '^(ct-|balls)' $OUT/logs/timeline.log; ls -la $OUT

#!/usr/bin/env bash
# Call 5 (H200): compute-sanitizer memcheck and racecheck on the final
# binary, then issue 10's end-to-end table through ITK (cca_e2e_benchmark,
# ITK's filter on 16 threads in the same process), the program through its
# files, and the 2.35 Gvox volume with its label image, from the bench
# bundle (benchmark/make-bench-bundle.sh). Logs packed in logs.tgz.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
B=/tmp/b/build-gpu
nvidia-smi -L > $L/device.txt
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 3 $B/test/gpu/ccaCudaBackendTest --quick > $L/memcheck.log 2>&1; echo "memcheck rc=$? at $SECONDS s"; grep -E "^total|ERROR SUMMARY" $L/memcheck.log
timeout 150 compute-sanitizer --tool racecheck --error-exitcode 3 $B/test/gpu/ccaCudaBackendTest --quick --cases 15 --algorithm Default > $L/racecheck.log 2>&1; echo "racecheck rc=$? at $SECONDS s"; grep -E "^total|RACECHECK SUMMARY" $L/racecheck.log
BUILD=build-bench STEPS="e2e e2e-program e2e-large" ENGINE_COMMIT="${ENGINE_COMMIT:-}" OUT=$L/e2e \
  bash benchmark/run-on-gpu-machine.sh $((570 - SECONDS)) > $L/e2e-run.log 2>&1; echo "e2e rc=$? at $SECONDS s"
grep -E "^\| |x ITK|^== e2e" $L/e2e-run.log | head -40
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L

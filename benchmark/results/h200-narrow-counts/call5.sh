#!/usr/bin/env bash
# Call 5 (H200): call 2's script again, the GPU tests of the narrow table
# as landed (widened on the device where components are few, on the host
# by AVX2 moves where many; the vote-order cases take each of the three).
exec bash "$(dirname "$0")/call2.sh"

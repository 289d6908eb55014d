#!/usr/bin/env bash
# The command of this call: ../final-ab/run.sh, unchanged, with binA the
# build of e8dcd54 (the foreground sample) and binB the build of 56be852
# (the component count read after the label image is queued).
exec bash "$(dirname "${BASH_SOURCE[0]}")/../final-ab/run.sh" "$@"

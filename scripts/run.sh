#!/usr/bin/env bash
# Builds the app if needed and starts it, passing every argument to pe-explorer.
# Example: scripts/run.sh --seq-len 100 --d-model 64
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/build.sh" >&2
exec "$root/build/app/pe-explorer" "$@"

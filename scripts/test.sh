#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test headless through CTest; then the same suite
# built with AddressSanitizer and UndefinedBehaviorSanitizer (clang 14), a bounded libFuzzer run of
# the session and lecture loaders, the command line, the table readers (.npy, safetensors, GGUF) and the model
# configs (config.json, GGUF metadata), a clang-format check, and ThreadSanitizer
# on the tests of worker threads.
#   scripts/test.sh            everything (CI runs this)
#   scripts/test.sh --quick    the normal build's tests only
# Fuzzing time per target: PE_FUZZ_SECONDS (default 30).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
quick=0
if [ "${1:-}" = "--quick" ]; then quick=1; shift; fi
step() { echo; echo "== $* ($(date +%T))"; }
step "release build"
"$root/scripts/build.sh"
"$root/scripts/deps.sh" --tests
step "every test (release build)"
ctest --test-dir "$root/build" --output-on-failure -j 2 "$@"
[ "$quick" = 1 ] && exit 0

"$root/scripts/deps.sh" --sanitizers
cd "$root"

step "format check (clang-format 14, .clang-format)"
# Every C++ file was formatted once; a change that is not fails here. The files changed since the
# last commit are named first (a working tree's edits), then every tracked file is checked.
changed=$(git -C "$root" diff --name-only HEAD -- '*.cpp' '*.h' 2>/dev/null || true)
if ! git -C "$root" ls-files '*.cpp' '*.h' | (cd "$root" && xargs clang-format-14 --dry-run -Werror); then
  [ -n "$changed" ] && echo "changed since the last commit: $changed"
  echo "format with: git ls-files '*.cpp' '*.h' | xargs clang-format-14 -i" >&2
  exit 1
fi

step "AddressSanitizer + UndefinedBehaviorSanitizer build"
cmake --preset asan >/dev/null
cmake --build --preset asan -j "$(nproc)" >/dev/null
step "every test under AddressSanitizer + UndefinedBehaviorSanitizer"
ctest --preset asan -j 2

step "fuzzing (${PE_FUZZ_SECONDS:-30} s per target)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for target in session lecture arguments table safetensors gguf model; do
  mkdir -p "$work/$target"
  # New inputs go to the scratch folder; the repository's corpus is only read. A crash leaves its
  # input in $work and fails here: copy it into tests/fuzz/corpus/$target as a regression.
  (cd "$work" && ASAN_OPTIONS=detect_leaks=0 QT_QPA_PLATFORM=offscreen \
    "$root/build-asan/tests/fuzz/fuzz_$target" -max_total_time="${PE_FUZZ_SECONDS:-30}" -rss_limit_mb=2048 \
    -max_len=4096 -print_final_stats=1 "$work/$target" "$root/tests/fuzz/corpus/$target" 2>&1 | tail -4)
done

step "ThreadSanitizer build of the worker-thread tests"
cmake --preset tsan >/dev/null
cmake --build --preset tsan -j "$(nproc)" --target tst_tsne tst_recovery tst_similarity >/dev/null
step "worker-thread tests under ThreadSanitizer"
ctest --preset tsan -j 2
step "all passed"

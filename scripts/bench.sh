#!/usr/bin/env bash
# Regenerates tests/bench/RESULTS.md, the benchmark's tables beside the benchmark: everything
# build/tests/pe-bench and pe-bench --projection print on this machine, under a header saying which machine, which commit
# and which flags. Never edited by hand.
#   scripts/bench.sh            the full run (the interaction table at 200 steps a slider)
#   scripts/bench.sh --quick    fewer repeats (40 steps a slider), marked as such in the file
# Run it on an idle machine: another build on the same cores doubles what it measures.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/build.sh" >/dev/null
out="$root/tests/bench/RESULTS.md"
tmp=$(mktemp "$out.XXXXXX")
trap 'rm -f "$tmp"' EXIT
simd=$(grep -m1 -o -w 'avx512f' /proc/cpuinfo >/dev/null && echo AVX-512 ||
  (grep -m1 -o -w 'avx2' /proc/cpuinfo >/dev/null && echo AVX2 || echo SSE2))
{
  echo "# pe-bench results"
  echo
  echo "Written by \`scripts/bench.sh $*\` on $(date -u +%Y-%m-%d) at commit $(git -C "$root" rev-parse --short HEAD);"
  echo "do not edit by hand. Machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'),"
  echo "$(nproc) cores, widest SIMD $simd, $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo)."
  echo "What each figure measures: resources/manual/speed.md."
  echo
  echo '```'
  (cd "$root" && QT_QPA_PLATFORM=offscreen build/tests/pe-bench "$@" 2>/dev/null)
  echo '```'
  echo
  echo "Projections (\`pe-bench $* --projection\`):"
  echo
  echo '```'
  (cd "$root" && QT_QPA_PLATFORM=offscreen build/tests/pe-bench "$@" --projection 2>/dev/null)
  echo '```'
} >"$tmp"
chmod 644 "$tmp"
mv "$tmp" "$out"
trap - EXIT
echo "wrote $out"

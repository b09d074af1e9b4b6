#!/usr/bin/env bash
# Regenerates the README's pictures from the app's own window and exports.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/build.sh" >/dev/null
app="$root/build/app/pe-explorer"
out="$root/resources/screenshots"
mkdir -p "$out"
xvfb-run -a -s "-screen 0 1600x1000x24" "$app" --screenshot "$out/window.png"
"$app" --seq-len 10 --d-model 6 --export heatmap --size 900x560 --out "$out/heatmap-seed003.png"
"$app" --seq-len 50 --d-model 128 --export frequencies --size 900x560 --out "$out/frequencies-seed000.png"
"$app" --seq-len 5 --d-model 9 --base 100 --exponent index --clock-face counterclockwise --export clocks --size 700x640 --out "$out/clocks-seed002.png"
"$app" --seq-len 100 --d-model 18 --position 40 --export circles --size 900x860 --out "$out/circles-seed000.png"
echo "wrote $(ls "$out" | wc -l) pictures to $out"

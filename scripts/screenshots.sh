#!/usr/bin/env bash
# Regenerates the README's pictures from the app's own window and exports.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/build.sh" >/dev/null
app="$root/build/app/pe-explorer"
out="$root/resources/screenshots"
mkdir -p "$out"
# The user's own settings (theme, last session) must not change the pictures.
export XDG_CONFIG_HOME=$(mktemp -d)
trap 'rm -rf "$XDG_CONFIG_HOME"' EXIT
xvfb-run -a -s "-screen 0 1600x1000x24" "$app" --screenshot "$out/window.png"
"$app" --seq-len 10 --d-model 6 --export heatmap --size 900x560 --out "$out/heatmap-seed003.png"
"$app" --seq-len 50 --d-model 128 --export frequencies --size 900x560 --out "$out/frequencies-seed000.png"
"$app" --seq-len 5 --d-model 9 --base 100 --exponent index --clock-face counterclockwise --export clocks --size 700x640 --out "$out/clocks-seed002.png"
"$app" --seq-len 100 --d-model 18 --position 40 --export circles --size 900x860 --out "$out/circles-seed000.png"
seed001=(--seq-len 300 --d-model 20 --reference 30 --noise 0.5 --seed 42 --rng numpy)
"$app" "${seed001[@]}" --export inputs --size 800x760 --out "$out/inputs-seed001.png"
"$app" "${seed001[@]}" --export similarity --size 800x420 --out "$out/similarity-seed001.png"
"$app" "${seed001[@]}" --export recovery --size 1000x420 --out "$out/recovery-seed001.png"
"$app" --seq-len 300 --d-model 20 --reference 30 --export distance --size 700x620 --out "$out/distance-seed001.png"
"$app" --seq-len 50 --d-model 128 --position 30 --offset 5 --export relative --size 1000x480 --out "$out/relative.png"
"$app" --preset seed004-heatmap --export heatmap --size 700x640 --out "$out/heatmap-seed004.png"
"$app" --preset seed004-tsne --export projection --size 900x640 --out "$out/projection-seed004.png"
"$app" --seq-len 30000 --d-model 64 --position 12000 --export projection --size 900x640 --out "$out/projection-30000.png"
"$app" --preset seed002-table --export heatmap --size 900x560 --out "$out/heatmap-seed002.png"
# Issue 12's pictures: reductions that keep the pairs, every position rasterised, pairs spread
# over all wavelengths, lecture mode.
"$app" --seq-len 50 --d-model 768 --export heatmap --size 600x400 --out "$out/heatmap-768-sampled.png"
"$app" --seq-len 100000 --d-model 1024 --pairs fastest --export circles --size 900x860 --out "$out/circles-100000.png"
"$app" --seq-len 1000000 --d-model 4096 --start-pos 999000000 --export clocks --size 1200x800 --out "$out/clocks-spread-4096.png"
xvfb-run -a -s "-screen 0 1600x1000x24" "$app" --lecture --preset seed003-table --screenshot "$out/lecture-seed003.png"
# Issue 14's pictures: RoPE's scalings, its clocks and decay, attention, ALiBi.
"$app" --preset yarn-x4 --export scaling --size 900x600 --out "$out/rope-scaling-yarn.png"
"$app" --preset llama3.1-rope --export scaling --size 900x600 --out "$out/rope-scaling-llama31.png"
rope_clocks=(--scheme rope --d-model 32 --original-context 64 --seq-len 200 --position 150 --export clocks --size 900x620)
"$app" "${rope_clocks[@]}" --out "$out/clocks-rope-none.png"
"$app" "${rope_clocks[@]}" --scaling linear --factor 4 --out "$out/clocks-rope-linear.png"
"$app" --scheme rope --d-model 128 --seq-len 1000 --export rope-decay --size 900x560 --out "$out/rope-decay.png"
"$app" --preset attention-sinusoidal-vs-rope --export attention --size 800x760 --out "$out/attention-sinusoidal-vs-rope.png"
"$app" --preset alibi-12-heads --export alibi --size 1000x560 --out "$out/alibi-12-heads.png"
echo "wrote $(ls "$out" | wc -l) pictures to $out"

#!/usr/bin/env bash
# Installs the Debian packages the build, the app and the tests need, and only those missing.
# Runs apt-get as root, or through sudo when not root. Nothing else is downloaded.
set -euo pipefail

packages=(
  cmake g++ make pkg-config
  qt6-base-dev qt6-svg-dev libgl-dev
  libqcustomplot-dev libqcustomplot2.1-qt6
  libeigen3-dev libfftw3-dev libgif-dev libhnswlib-dev
  libavcodec-dev libavformat-dev libswscale-dev libavutil-dev
  xvfb xauth fonts-dejavu-core fonts-dejavu-extra
)

# scripts/test.sh --tests: numpy and scikit-learn for the tests that compare with them (t-SNE's
# quality against scikit-learn 1.2 on the same table, tests/bench/tsne_quality.py), and matplotlib for
# the figures drawn beside the app's from its own data (tests/support/matplotlib_figures.py).
if [ "${1:-}" = "--tests" ]; then
  packages+=(python3-numpy python3-sklearn python3-matplotlib)
fi
# scripts/test.sh --sanitizers: clang 14 with its sanitizer and libFuzzer runtimes, and clang-format 14.
if [ "${1:-}" = "--sanitizers" ]; then
  packages+=(clang-14 libclang-rt-14-dev clang-format-14)
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "Installing missing Debian packages: ${missing[*]}"
if [ "$(id -u)" -eq 0 ]; then
  sudo=()
elif command -v sudo >/dev/null 2>&1; then
  sudo=(sudo)
else
  echo "error: need root or sudo to install: ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -q
"${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"

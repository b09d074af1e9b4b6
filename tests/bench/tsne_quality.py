#!/usr/bin/python3
"""The app's t-SNE against scikit-learn's on the same table: trustworthiness(10) of both.

For each case the app writes the window's table (--export-data encoding) and its t-SNE
(--export-data projection); scikit-learn 1.2's TSNE(init='pca', learning_rate='auto') runs on that
table, and sklearn.manifold.trustworthiness(table, embedding, n_neighbors=10) scores both.

    tsne_quality.py --explorer build/app/pe-explorer                 the grid (issue 28)
    tsne_quality.py --explorer ... --cases 128x8:1e4:4,200x16:100:5   chosen cases (NxD:BASE:PERPLEXITY)
    tsne_quality.py --explorer ... --cases 128x8:1e4:4 --check 0.01  exit 1 unless the app is within
                                                                     0.01 of scikit-learn on every case
    tsne_quality.py --explorer ... --cases ... --check-mean 0.005    exit 1 unless each size's mean is
                                                                     within 0.005 of scikit-learn's
    tsne_quality.py ... -- --learning-rate 20                        extra flags for the app's t-SNE

Exits 77 (CTest's skip code) when numpy or scikit-learn cannot be imported: use /usr/bin/python3
(Debian's python3-sklearn).
"""

import argparse
import itertools
import subprocess
import sys
import tempfile
import time

try:
    import numpy as np
    from sklearn.manifold import TSNE, trustworthiness
except ImportError as e:
    print(f"tsne_quality: skipped, {e}", file=sys.stderr)
    sys.exit(77)

SIZES = [(128, 8), (200, 16), (1000, 32), (5000, 128)]
BASES = [100.0, 1e4]
PERPLEXITIES = [2, 4, 5, 10, 30]


def parse_case(text):
    size, base, perplexity = text.split(":")
    n, d = size.split("x")
    return int(n), int(d), float(base), float(perplexity)


def run_case(explorer, n, d, base, perplexity, extra):
    # The app's --components (after --) sets scikit-learn's n_components too.
    components = int(extra[extra.index("--components") + 1]) if "--components" in extra else 2
    window = [explorer, "--seq-len", str(n), "--d-model", str(d), "--base", repr(base)]
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(window + ["--export-data", "encoding", "--out", f"{tmp}/x.npy"], check=True)
        x = np.load(f"{tmp}/x.npy")
        t0 = time.perf_counter()
        subprocess.run(window + ["--method", "tsne", "--perplexity", repr(perplexity)] + extra +
                       ["--export-data", "projection", "--out", f"{tmp}/p.csv"], check=True)
        app_seconds = time.perf_counter() - t0
        app = np.loadtxt(f"{tmp}/p.csv", delimiter=",", skiprows=1)[:, 1:1 + components]
    t0 = time.perf_counter()
    ours = TSNE(n_components=components, perplexity=perplexity, init="pca", learning_rate="auto", random_state=0)
    sk = ours.fit_transform(x)
    sk_seconds = time.perf_counter() - t0
    return (trustworthiness(x, app, n_neighbors=10), trustworthiness(x, sk, n_neighbors=10), app_seconds,
            sk_seconds)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--explorer", required=True, help="the pe-explorer binary")
    parser.add_argument("--cases", help="NxD:BASE:PERPLEXITY,... (default: the grid)")
    parser.add_argument("--check", type=float, help="fail unless app >= scikit-learn - CHECK on every case")
    parser.add_argument("--check-mean", type=float,
                        help="fail unless, for each size, the app's mean >= scikit-learn's mean - CHECK_MEAN")
    parser.add_argument("extra", nargs="*", help="after --: flags for the app's t-SNE")
    args = parser.parse_args()
    if args.cases:
        cases = [parse_case(c) for c in args.cases.split(",")]
    else:
        cases = [(n, d, b, p) for (n, d), b, p in itertools.product(SIZES, BASES, PERPLEXITIES)]
    print("      n    d    base  perplexity   app T(10)  sklearn T(10)  app - sklearn   app s  sklearn s")
    rows, failed = [], False
    for n, d, base, perplexity in cases:
        app, sk, app_s, sk_s = run_case(args.explorer, n, d, base, perplexity, args.extra)
        rows.append((n, d, app, sk))
        print(f"{n:7d} {d:4d} {base:7g} {perplexity:11g} {app:11.4f} {sk:14.4f} {app - sk:+14.4f} {app_s:7.2f} "
              f"{sk_s:10.2f}", flush=True)
        if args.check is not None and app < sk - args.check:
            failed = True
    for (n, d), group in itertools.groupby(sorted(rows, key=lambda r: (r[0], r[1])), key=lambda r: (r[0], r[1])):
        group = list(group)
        app = np.mean([r[2] for r in group])
        sk = np.mean([r[3] for r in group])
        wins = sum(r[2] >= r[3] for r in group)
        print(f"{n} x {d}: mean app {app:.4f}, sklearn {sk:.4f}; app at or above sklearn in {wins} of {len(group)}")
        if args.check_mean is not None and app < sk - args.check_mean:
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

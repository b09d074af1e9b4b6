#!/usr/bin/python3
"""The app's UMAP against umap-learn's on the same rows: whole-process seconds and trustworthiness(10).

For each case the app writes the window's rows (--export-data encoding, or embeddings with noise)
and, timed as a whole process, its UMAP (--export-data projection); umap-learn (Debian's
umap-learn 0.5) runs UMAP(n_neighbors=15, min_dist=0.1, random_state=42) on those rows in a
process of its own, timed whole too (Python's start, the imports and numba's compilation are what
its user waits for). Both are scored by trustworthiness(10): scikit-learn's over every row up to
10,000 rows; above that an estimate from 1,000 rows spread evenly over the window (each one's
exact ranks among all n rows, in the input and in the embedding), since scikit-learn's needs an
n x n matrix (80 GB at 100,000).

    umap_quality.py --explorer build/app/pe-explorer                      5,000 and 100,000 x 128
    umap_quality.py --explorer ... --cases 5000x128:0,5000x128:0.5         NxD:SIGMA
    umap_quality.py --explorer ... --cases ... --skip-umap-learn           the app alone
    umap_quality.py --explorer ... --components 3                          both in 3-D

Exits 77 (CTest's skip code) when numpy or scikit-learn cannot be imported: use /usr/bin/python3.
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time

try:
    import numpy as np
    from sklearn.manifold import trustworthiness
except ImportError as e:
    print(f"umap_quality: skipped, {e}", file=sys.stderr)
    sys.exit(77)

CASES = [(5000, 128, 0.0), (5000, 128, 0.5), (100000, 128, 0.0), (100000, 128, 0.5)]

UMAP_LEARN = """
import sys, numpy as np, umap
x = np.load(sys.argv[1])
y = umap.UMAP(n_neighbors=15, min_dist=0.1, n_components=int(sys.argv[3]), random_state=42).fit_transform(x)
np.save(sys.argv[2], y)
"""


def sampled_trustworthiness(x, y, k, rows):
    """T(k) over the given rows: 1 - 2/(m k (2n - 3k - 1)) sum over them of the penalties, each
    row's ranks taken among all n (the sum over every row with m = n is scikit-learn's)."""
    n = x.shape[0]
    xn = (x * x).sum(1)
    yn = (y * y).sum(1)
    penalty = 0.0
    for i in rows:
        din = xn + xn[i] - 2.0 * (x @ x[i])
        din[i] = np.inf
        dout = yn + yn[i] - 2.0 * (y @ y[i])
        dout[i] = np.inf
        rank = np.empty(n, dtype=np.int64)
        rank[np.argsort(din, kind="stable")] = np.arange(1, n + 1)
        near_out = np.argpartition(dout, k)[:k]
        penalty += np.maximum(rank[near_out] - k, 0).sum()
    m = len(rows)
    return 1.0 - 2.0 / (m * k * (2.0 * n - 3.0 * k - 1.0)) * penalty


def trust(x, y):
    n = x.shape[0]
    if n <= 10000:
        return trustworthiness(x, y, n_neighbors=10), "every row"
    rows = [s * n // 1000 for s in range(1000)]
    return sampled_trustworthiness(x.astype(np.float64), y.astype(np.float64), 10, rows), "1,000 rows"


def timed(command):
    t0 = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - t0


def run_case(explorer, n, d, sigma, skip, components):
    window = [explorer, "--seq-len", str(n), "--d-model", str(d)]
    if sigma > 0:
        window += ["--noise", repr(sigma)]
    with tempfile.TemporaryDirectory() as tmp:
        kind = "embeddings" if sigma > 0 else "encoding"
        subprocess.run(window + ["--export-data", kind, "--out", f"{tmp}/x.npy"], check=True)
        x = np.load(f"{tmp}/x.npy")
        app_s = timed(window + ["--method", "umap", "--components", str(components), "--export-data", "projection",
                                "--out", f"{tmp}/p.csv"])
        app = np.loadtxt(f"{tmp}/p.csv", delimiter=",", skiprows=1)[:, 1:1 + components]
        app_t, how = trust(x, app)
        if skip:
            return app_s, app_t, None, None, how
        lib_s = timed(["/usr/bin/python3", "-c", UMAP_LEARN, f"{tmp}/x.npy", f"{tmp}/u.npy", str(components)])
        lib_t, _ = trust(x, np.load(f"{tmp}/u.npy"))
        return app_s, app_t, lib_s, lib_t, how


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--explorer", required=True, help="the pe-explorer binary")
    parser.add_argument("--cases", help="NxD:SIGMA,... (default: 5,000 and 100,000 x 128, pure and sigma 0.5)")
    parser.add_argument("--skip-umap-learn", action="store_true", help="measure the app alone")
    parser.add_argument("--components", type=int, default=2, choices=(2, 3), help="dimensions of both embeddings")
    args = parser.parse_args()
    cases = CASES
    if args.cases:
        cases = []
        for text in args.cases.split(","):
            size, sigma = text.split(":")
            n, d = size.split("x")
            cases.append((int(n), int(d), float(sigma)))
    print("      n    d  sigma   app s  umap-learn s   ratio   app T(10)  umap-learn T(10)  T over", flush=True)
    for n, d, sigma in cases:
        app_s, app_t, lib_s, lib_t, how = run_case(args.explorer, n, d, sigma, args.skip_umap_learn, args.components)
        if lib_s is None:
            print(f"{n:7d} {d:4d} {sigma:6g} {app_s:7.2f} {'-':>13} {'-':>7} {app_t:11.5f} {'-':>17}  {how}",
                  flush=True)
        else:
            print(f"{n:7d} {d:4d} {sigma:6g} {app_s:7.2f} {lib_s:13.2f} {lib_s / app_s:6.1f}x {app_t:11.5f} "
                  f"{lib_t:17.5f}  {how}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""The issue-33 figures, each made twice: by the app from the command line alone, and by matplotlib
from the app's own exported data, at the same size and type, then put side by side
(compare-NAME.png) for a person to look at. Checks on the way that every data export has the columns
the figure needs and that the app's figure is the size asked.

    matplotlib_figures.py PE_EXPLORER OUTDIR

Debian's python3-matplotlib and python3-numpy (scripts/deps.sh --tests); the app never uses them.
"""
import csv
import os
import subprocess
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.image as mpimg  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

APP, OUT = sys.argv[1], sys.argv[2]
os.makedirs(OUT, exist_ok=True)
DPI = 300
plt.rcParams.update({"font.size": 7, "font.family": "DejaVu Sans", "axes.titlesize": 7.5,
                     "legend.fontsize": 7, "figure.dpi": DPI})
failures = []


def app(*args):
    run = subprocess.run([APP, *args], capture_output=True, text=True, timeout=240)
    if run.returncode != 0:
        failures.append(f"{' '.join(args)}: {run.stderr.strip()}")
    return run.returncode == 0


def table(path, needed):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    header = rows[0]
    missing = [c for c in needed if c not in header]
    if missing:
        failures.append(f"{os.path.basename(path)}: no column {missing} in {header}")
        return {}
    data = np.array(rows[1:], dtype=float)
    return {name: data[:, k] for k, name in enumerate(header)}


def matrix(path):
    return np.loadtxt(path, delimiter=",", skiprows=1)[:, 1:]


def figure_png(name, args, size):
    png = os.path.join(OUT, f"app-{name}.png")
    if app(*args, "--size", size, "--font-size", "7", "--dpi", str(DPI), "--out", png):
        w, h = (float(v) for v in size.rstrip("in").split("x"))
        shape = mpimg.imread(png).shape
        if (shape[1], shape[0]) != (round(w * DPI), round(h * DPI)):
            failures.append(f"app-{name}.png is {shape[1]}x{shape[0]} pixels, not {size} at {DPI} dpi")
    return png


def made_by_app(name, state, kind, view, size, columns, extra=()):
    """One state's data (--export-data KIND, to NAME.csv) and figure (--export VIEW at SIZE): the
    figure's path and the table's columns."""
    path = os.path.join(OUT, f"{name}.csv")
    app(*state, "--export-data", kind, "--out", path)
    return figure_png(name, [*state, "--export", view, *extra], size), table(path, columns)


def heatmap(fig, ax, values, label, xlabel, ylabel, extend="neither", **limits):
    """A matrix as imshow draws it (a cell a value), with its colour bar and axis titles; `extend`
    marks a bar whose limits clip values."""
    image = ax.imshow(values, aspect="auto", interpolation="nearest", **limits)
    fig.colorbar(image, ax=ax, label=label, extend=extend)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)


def side_by_side(name, app_png, fig):
    mine = os.path.join(OUT, f"matplotlib-{name}.png")
    fig.savefig(mine, dpi=DPI)
    plt.close(fig)
    if not os.path.exists(app_png):
        return
    both, axes = plt.subplots(1, 2, figsize=(10, 10 * fig.get_figheight() / fig.get_figwidth() / 2 + 0.4))
    for ax, path, label in zip(axes, (app_png, mine), ("Positional Encoding Explorer", "matplotlib, app's data")):
        ax.imshow(mpimg.imread(path))
        ax.set_title(label)
        ax.axis("off")
    both.savefig(os.path.join(OUT, f"compare-{name}.png"), dpi=120)
    plt.close(both)


REGIMES = [("kept: extrapolates", "C0"), ("interpolated: θᵢ/s", "C1"), ("blended", "C2"), ("beyond θᵢ/s", "C3")]


def scaling(name, preset, context, factor):
    png, t = made_by_app(name, ["--preset", preset], "frequencies", "scaling", "3.5x2.5in",
                         ["pair", "wavelength", "wavelength_unscaled", "ratio", "regime"])
    if not t:
        return
    fig, (top, bottom) = plt.subplots(2, 1, sharex=True, figsize=(3.5, 2.5), height_ratios=[2, 1],
                                      layout="constrained")
    top.semilogy(t["pair"], t["wavelength_unscaled"], "--", color="0.6", label="unscaled θᵢ")
    for k, (label, colour) in enumerate(REGIMES):
        at = t["regime"] == k
        if at.any():
            top.plot(t["pair"][at], t["wavelength"][at], "o", ms=2, color=colour, label=label)
            bottom.plot(t["pair"][at], t["ratio"][at], "o", ms=2, color=colour)
    top.axhline(context, color="C3", ls="--", lw=1)
    top.axhline(factor * context, color="C4", ls="--", lw=1)
    top.set_ylabel("wavelength 2π/θᵢ")
    top.legend(ncols=2, loc="lower right", fontsize=6)
    bottom.axhline(1 / factor, color="C1", ls="--", lw=1)
    bottom.set_ylabel("θ′ᵢ/θᵢ")
    bottom.set_xlabel("pair i")
    fig.suptitle(f"RoPE frequencies: {preset}")
    side_by_side(name, png, fig)


def attention():
    rows = {}
    for scheme, other in (("sinusoidal", "rope"), ("rope", "sinusoidal")):
        path = os.path.join(OUT, f"attention-row-{scheme}.csv")
        app("--scheme", scheme, "--export-data", "attention-row", "--compare", "--out", path)
        rows[scheme] = table(path, ["position", "weight", f"weight_{other}"])
    path = os.path.join(OUT, "attention-rope.csv")
    app("--scheme", "rope", "--export-data", "attention", "--out", path)
    png = figure_png("attention", ["--scheme", "rope", "--export", "attention", "--compare"], "7x2.5in")
    if not rows["rope"]:
        return
    fig, (left, right) = plt.subplots(1, 2, figsize=(7, 2.5), layout="constrained")
    heatmap(fig, left, matrix(path), "attention weight", "key position s", "query position t", cmap="viridis")
    r = rows["rope"]
    right.plot(r["position"], r["weight"], label="RoPE")
    right.plot(r["position"], r["weight_sinusoidal"], label="sinusoidal, same d and base")
    right.set_xlabel("key position s")
    right.set_ylabel("weight in row t = 0")
    right.legend()
    fig.suptitle("Attention from positions alone: RoPE beside the sinusoids")
    side_by_side("attention", png, fig)


def rope_decay():
    png, t = made_by_app("rope-decay", ["--scheme", "rope"], "rope-decay", "rope-decay", "3.5x2.5in",
                         ["offset", "score", "bound", "random_mean", "random_sd"])
    if not t:
        return
    fig, ax = plt.subplots(figsize=(3.5, 2.5), layout="constrained")
    ax.fill_between(t["offset"], t["random_mean"] - t["random_sd"], t["random_mean"] + t["random_sd"], alpha=0.3,
                    label="random q, k: mean ± SD")
    ax.plot(t["offset"], t["score"], label="q = k = ones")
    ax.plot(t["offset"], t["bound"], "--", label="bound")
    ax.set_xlabel("relative distance")
    ax.set_ylabel("score")
    ax.legend()
    fig.suptitle("RoPE's long-term decay")
    side_by_side("rope-decay", png, fig)


def learned_table():
    # A learned table's look: smooth columns, two with outliers that set a naive colour scale.
    rng = np.random.default_rng(7)
    t = np.arange(200)[:, None]
    values = np.sin(t / (10 + np.arange(64)[None, :])) + 0.1 * rng.standard_normal((200, 64))
    values[:, 5] *= 40
    values[:, 40] *= -30
    npy = os.path.join(OUT, "outliers.npy")
    np.save(npy, values)
    path = os.path.join(OUT, "table.csv")
    app("--table", npy, "--export-data", "encoding", "--out", path)
    png = figure_png("table-robust", ["--table", npy, "--export", "heatmap", "--robust"], "3.5x2.5in")
    m = matrix(path)
    low, high = np.percentile(m, [2, 98])
    fig, ax = plt.subplots(figsize=(3.5, 2.5), layout="constrained")
    heatmap(fig, ax, m, "value (2–98th pct)", "dimension j", "position t", extend="both", cmap="coolwarm",
            vmin=low, vmax=high)
    fig.suptitle("A learned table, robust limits")
    side_by_side("table-robust", png, fig)


def clocks():
    png, t = made_by_app("clocks", ["--preset", "seed002-clocks"], "angles", "clocks", "3.5x3.5in", ["position", "pair0"])
    if not t:
        return
    pairs = [k for k in t if k.startswith("pair")]
    positions = t["position"]
    fig, axes = plt.subplots(len(positions), len(pairs), figsize=(3.5, 3.5), layout="constrained")
    for r, pos in enumerate(positions):
        for c, pair in enumerate(pairs):
            ax = axes[r][c]
            ax.add_patch(plt.Circle((0, 0), 1, fill=False, lw=0.6))
            angle = t[pair][r]
            # As the app's (and seed 002's): from 3 o'clock, counter-clockwise.
            ax.plot([0, np.cos(angle)], [0, np.sin(angle)], lw=1.2, color="C3")
            ax.set_xlim(-1.1, 1.1)
            ax.set_ylim(-1.1, 1.1)
            ax.set_aspect("equal")
            ax.axis("off")
            if r == 0:
                ax.set_title(pair, fontsize=6)
    fig.suptitle("Seed 002's clocks: a hand a pair, a row a position")
    side_by_side("clocks", png, fig)


def two_panels():
    encoding = os.path.join(OUT, "encoding.csv")
    app("--export-data", "encoding", "--out", encoding)
    bases = {}
    for base in ("1e2", "1e4", "1e8"):
        path = os.path.join(OUT, f"frequencies-{base}.csv")
        app("--base", base, "--export-data", "frequencies", "--out", path)
        bases[base] = table(path, ["pair", "omega"])
    png = figure_png("heatmap-frequencies", ["--export", "heatmap,frequencies", "--panels", "1x2",
                                             "--legend", "upper-right"], "7x2.5in")
    fig, (left, right) = plt.subplots(1, 2, figsize=(7, 2.5), layout="constrained")
    heatmap(fig, left, matrix(encoding), "value", "dimension j", "position t", cmap="coolwarm", vmin=-1, vmax=1)
    left.set_title("(a)", loc="left", fontweight="bold")
    for base, t in bases.items():
        if t:
            right.plot(t["pair"], t["omega"], "o-", ms=2, label=f"base {base}")
    right.set_xlabel("pair index i")
    right.set_ylabel("ωᵢ (radians per position)")
    right.legend()
    right.set_title("(b)", loc="left", fontweight="bold")
    side_by_side("heatmap-frequencies", png, fig)


scaling("scaling-llama3.1", "llama3.1-rope", 8192, 8)
scaling("scaling-yarn-x4", "yarn-x4", 4096, 4)
scaling("scaling-ntk", "dynamic-ntk", 4096, 2)
attention()
rope_decay()
learned_table()
clocks()
two_panels()
for name in os.listdir(OUT):
    if name.startswith("app-") and os.path.getsize(os.path.join(OUT, name)) < 1000:
        failures.append(f"{name} is nearly empty")
if failures:
    print("\n".join(failures), file=sys.stderr)
    sys.exit(1)
print(f"figures side by side in {OUT}/compare-*.png")

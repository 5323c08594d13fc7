"""Charts rendered to SVG text on the server with matplotlib (Agg, no display, no network), for
inlining in the dossier. Text stays text (svg.fonttype none) and ids are fixed by a hash salt,
so the same figures give the same file."""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from typing import Any

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
from matplotlib.axes import Axes
from matplotlib.figure import Figure

_STYLE: Any = {"svg.fonttype": "none", "svg.hashsalt": "cardroom-dossier", "font.size": 10,
               "axes.grid": True, "grid.alpha": 0.3, "figure.figsize": (7.0, 3.6),
               "axes.formatter.useoffset": False}

Series = tuple[str, Sequence[float], Sequence[float]]
"""(label, x values, y values)."""


def line_chart(title: str, xlabel: str, ylabel: str, series: Sequence[Series],
               marks: Sequence[tuple[str, float]] = (), logx: bool = False,
               hline: float | None = None, points: bool = False,
               xlim: tuple[float, float] | None = None,
               ylim: tuple[float, float] | None = None) -> str:
    """Lines, optional vertical marks (label, x) and a horizontal reference line; `points`
    marks each value too (a series with gaps, NaN, still shows its lone values); `xlim` and
    `ylim` fix the axes' spans (else matplotlib fits them to the values, which around one
    lone value is a meaningless +-0.04)."""
    with plt.rc_context(_STYLE):
        fig, ax = plt.subplots()
        for label, xs, ys in series:
            (line,) = ax.plot(list(xs), list(ys), label=label)
            if points:
                line.set_marker("o")
                line.set_markersize(3)
        for label, x in marks:
            ax.axvline(x, linestyle="--", color="#b22222")
            ax.annotate(label, (x, 0.95), xycoords=("data", "axes fraction"), rotation=90,
                        ha="right", va="top", color="#b22222")
        if hline is not None:
            ax.axhline(hline, color="black", linewidth=0.8)
        if logx:
            ax.set_xscale("log")
        if xlim is not None:
            ax.set_xlim(*xlim)
        if ylim is not None:
            ax.set_ylim(*ylim)
        _finish(ax, title, xlabel, ylabel, legend=len(series) > 1)
        return _svg(fig)


def bar_chart(title: str, ylabel: str, labels: Sequence[str],
              groups: Sequence[tuple[str, Sequence[float]]], slant: bool = False) -> str:
    """Grouped bars: one group per label, one bar per (name, values) series; `slant` tilts
    long labels so they do not overlap."""
    with plt.rc_context(_STYLE):
        fig, ax = plt.subplots()
        width = 0.8 / max(len(groups), 1)
        for i, (name, values) in enumerate(groups):
            xs = [j + (i - (len(groups) - 1) / 2) * width for j in range(len(labels))]
            ax.bar(xs, list(values), width, label=name)
        if slant:
            ax.set_xticks(range(len(labels)), list(labels), rotation=30, ha="right")
        else:
            ax.set_xticks(range(len(labels)), list(labels))
        ax.axhline(0, color="black", linewidth=0.8)
        _finish(ax, title, "", ylabel, legend=len(groups) > 1)
        return _svg(fig)


def _finish(ax: Axes, title: str, xlabel: str, ylabel: str, legend: bool) -> None:
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if legend:
        ax.legend(fontsize=8)


def _svg(fig: Figure) -> str:
    """The figure as an <svg> element that scales to its container."""
    buffer = io.StringIO()
    fig.tight_layout()
    fig.savefig(buffer, format="svg", metadata={"Date": None})
    plt.close(fig)
    text = buffer.getvalue()
    text = text[text.index("<svg"):]
    return re.sub(r'<svg([^>]*?) width="[^"]*" height="[^"]*"', r'<svg\1 width="100%"', text,
                  count=1)

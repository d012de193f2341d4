#!/usr/bin/env python3
"""Draws the scaling curves from `opensecurity-bench --suite scale-… --json FILE` (Python standard library only).

    scripts/bench-scale-chart.py docs/bench-scale/*.json --markdown docs/benchmarks.md

For every input file (one scaling suite each) it writes FILE.svg beside it: one small line chart per unit (the
series that share a unit share a chart; log-scaled x axis, since sizes grow by factors of ten). --markdown replaces
the part of the page between `<!-- scale:begin -->` and `<!-- scale:end -->` with one section per suite: its chart,
the hand-written reading of it from docs/bench-scale/SUITE.md when that file exists, and a table of every point.
"""
import argparse
import html
import json
import math
import os
import re
import sys

PALETTE = ["#1565c0", "#c62828", "#2e7d32", "#6a1b9a", "#ef6c00", "#00838f", "#5d4037", "#ad1457"]
CHART_W, CHART_H, LEFT, BOTTOM, TOP, LEGEND_W = 460, 230, 70, 40, 34, 260


def chart(points, unit, title, x_offset, y_offset):
    xs = sorted({p["x"] for p in points})
    ys = [p["value"] for p in points if p["value"] is not None and p["value"] > 0]
    if not xs or not ys:
        return []
    lx = [math.log10(max(x, 1e-9)) for x in xs]
    x_min, x_max = min(lx), max(lx)
    if x_max == x_min:
        x_max = x_min + 1
    y_max = max(ys) * 1.1
    plot_w, plot_h = CHART_W - LEFT - 10, CHART_H - TOP - BOTTOM

    def px(x):
        return x_offset + LEFT + plot_w * (math.log10(max(x, 1e-9)) - x_min) / (x_max - x_min)

    def py(v):
        return y_offset + TOP + plot_h * (1 - v / y_max)

    out = [f'<text x="{x_offset + 10}" y="{y_offset + 18}" font-weight="bold">{html.escape(title)} ({html.escape(unit)})</text>']
    for i in range(5):
        v = y_max * i / 4
        out.append(f'<line x1="{x_offset + LEFT}" y1="{py(v):.1f}" x2="{x_offset + LEFT + plot_w}" y2="{py(v):.1f}" stroke="#eee"/>')
        out.append(f'<text x="{x_offset + LEFT - 4}" y="{py(v) + 4:.1f}" text-anchor="end" fill="#555">{v:,.3g}</text>')
    for x in xs:
        out.append(f'<text x="{px(x):.1f}" y="{y_offset + CHART_H - BOTTOM + 14}" text-anchor="middle" fill="#555">{x:,.0f}</text>')
    out.append(f'<text x="{x_offset + LEFT + plot_w / 2}" y="{y_offset + CHART_H - 8}" text-anchor="middle" fill="#555">'
               f'{html.escape(points[0]["xLabel"])} (log scale)</text>')
    series = []
    for p in points:
        if p["series"] not in series:
            series.append(p["series"])
    for i, name in enumerate(series):
        colour = PALETTE[i % len(PALETTE)]
        pts = sorted((p["x"], p["value"]) for p in points if p["series"] == name and p["value"] is not None)
        path = " ".join(f"{px(x):.1f},{py(v):.1f}" for x, v in pts)
        out.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"/>')
        for x, v in pts:
            out.append(f'<circle cx="{px(x):.1f}" cy="{py(v):.1f}" r="3" fill="{colour}"><title>{html.escape(name)} @ {x:,.0f}: {v:,.4g} {html.escape(unit)}</title></circle>')
        ly = y_offset + TOP + 14 * i
        out.append(f'<rect x="{x_offset + CHART_W + 4}" y="{ly - 8}" width="10" height="10" fill="{colour}"/>')
        out.append(f'<text x="{x_offset + CHART_W + 18}" y="{ly + 1}">{html.escape(name)}</text>')
    return out


def svg(report):
    points = report["points"]
    units = []  # one chart per (unit, x axis): a suite may sweep more than one size (members, then items)
    for p in points:
        if (p["unit"], p["xLabel"]) not in units:
            units.append((p["unit"], p["xLabel"]))
    suite = points[0]["suite"]
    width = CHART_W + LEGEND_W
    height = 30 + len(units) * CHART_H
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
           'font-family="DejaVu Sans, Helvetica, Arial, sans-serif" font-size="11">',
           f'<rect width="{width}" height="{height}" fill="#ffffff"/>',
           f'<text x="10" y="20" font-size="14" font-weight="bold">{html.escape(suite)} — '
           f'{html.escape(report["machine"]["date"])}, {report["machine"]["cores"]} cores</text>']
    for i, (unit, x_label) in enumerate(units):
        selected = [p for p in points if p["unit"] == unit and p["xLabel"] == x_label]
        out += chart(selected, unit, suite, 0, 30 + i * CHART_H)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def figure(value, unit):
    if value is None:
        return "failed"
    if abs(value) >= 10_000:
        return f"{value:,.0f} {unit}"
    return f"{value:,.3g} {unit}"


def markdown(reports):
    lines = []
    for path, report in reports:
        suite = report["points"][0]["suite"]
        machine = report["machine"]
        lines += [f"### {suite}", "",
                  f'Measured {machine["date"]} on {machine["cpu"]} ({machine["cores"]} cores), {machine["build"]} build; '
                  f'load average at the start {machine["loadAverageAtStart"]}.', "",
                  f"![{suite}](bench-scale/{os.path.basename(path)}.svg)", ""]
        prose = path[: -len(".json")] + ".md"
        if os.path.exists(prose):  # the suite's own reading of its curves, written by hand
            with open(prose, encoding="utf-8") as handle:
                lines += [handle.read().strip(), ""]
        lines += [
                  f'| series | {report["points"][0]["xLabel"]} | figure | note |', "|---|---:|---:|---|"]
        for p in report["points"]:
            lines.append(f'| {p["series"]} | {p["x"]:,.0f} | {figure(p.get("value"), p["unit"])} | {p.get("note") or ""} |')
        lines.append("")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("json", nargs="+", help="files written by opensecurity-bench --suite scale-… --json")
    parser.add_argument("--markdown", help="page whose scale:begin/scale:end section is replaced")
    args = parser.parse_args()
    reports = []
    for path in sorted(args.json):
        with open(path, encoding="utf-8") as handle:
            report = json.load(handle)
        if not report.get("points"):
            print(f"{path}: no points, skipped", file=sys.stderr)
            continue
        with open(path + ".svg", "w", encoding="utf-8") as handle:
            handle.write(svg(report))
        reports.append((path, report))
    if args.markdown and reports:
        with open(args.markdown, encoding="utf-8") as handle:
            page = handle.read()
        pattern = re.compile(r"(<!-- scale:begin -->\n).*?(<!-- scale:end -->)", re.S)
        if not pattern.search(page):
            page += "\n## How cost grows with the work (scaling suites)\n\n<!-- scale:begin -->\n<!-- scale:end -->\n"
        page = pattern.sub(lambda m: m.group(1) + markdown(reports) + "\n" + m.group(2), page)
        with open(args.markdown, "w", encoding="utf-8") as handle:
            handle.write(page)
    print(f"{len(reports)} scaling suites drawn")


if __name__ == "__main__":
    main()

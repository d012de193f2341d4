#!/usr/bin/env python3
"""Draws the benchmark chart and table from `opensecurity-bench --json FILE` (Python standard library only).

    scripts/bench-chart.py docs/benchmarks.json --svg docs/benchmarks.svg --markdown docs/benchmarks.md

--svg writes a bar chart of the ratios (ours / OpenSSL, > 1 = we are faster), one bar per row, grouped by suite.
--markdown replaces the part of the page between `<!-- bench:begin -->` and `<!-- bench:end -->` with the
machine description and one table per suite (the rest of the page is left as it is).
"""
import argparse
import html
import json
import re
import sys

AXIS_MAX = 2.0  # ratios above this are drawn to the edge, with their value printed
GOAL = 0.95
LABEL_WIDTH = 600
PLOT_WIDTH = 400
VALUE_WIDTH = 70
ROW_HEIGHT = 17
SUITE_GAP = 26
TOP = 62


def colour(ratio):
    if ratio is None:
        return "#9e9e9e"
    if ratio >= 1.0:
        return "#2e7d32"
    if ratio >= GOAL:
        return "#f9a825"
    return "#c62828"


def suites_in_order(rows):
    order = []
    for row in rows:
        if row["suite"] not in order:
            order.append(row["suite"])
    return order


def svg(report):
    rows = report["rows"]
    suites = suites_in_order(rows)
    height = TOP + len(rows) * ROW_HEIGHT + len(suites) * SUITE_GAP + 40
    width = LABEL_WIDTH + PLOT_WIDTH + VALUE_WIDTH + 20
    x0 = LABEL_WIDTH

    def x(ratio):
        return x0 + PLOT_WIDTH * min(max(ratio, 0.0), AXIS_MAX) / AXIS_MAX

    machine = report["machine"]
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Helvetica, Arial, sans-serif" font-size="11">',
        f'<rect width="{width}" height="{height}" fill="#ffffff"/>',
        '<text x="10" y="20" font-size="15" font-weight="bold">OpenSecurity ÷ OpenSSL (operations per second; '
        'right of 1.0 = faster than OpenSSL\'s own C calls)</text>',
        f'<text x="10" y="38" fill="#555">{html.escape(machine["date"])} · {html.escape(machine["cpu"])}, '
        f'{machine["cores"]} cores · {html.escape(machine["openssl"])} · {html.escape(machine["swift"])} · '
        f'{report["rounds"]} rounds × {report["secondsPerRound"]} s, best round per side</text>',
    ]
    axis_top = TOP - 8
    axis_bottom = height - 30
    for tick in (0.0, 0.5, 1.0, 1.5, 2.0):
        out.append(f'<line x1="{x(tick):.1f}" y1="{axis_top}" x2="{x(tick):.1f}" y2="{axis_bottom}" '
                   f'stroke="{"#333" if tick == 1.0 else "#ddd"}" stroke-width="1"/>')
        out.append(f'<text x="{x(tick):.1f}" y="{axis_bottom + 14}" text-anchor="middle" fill="#555">'
                   f'{tick:.1f}×</text>')
    out.append(f'<line x1="{x(GOAL):.1f}" y1="{axis_top}" x2="{x(GOAL):.1f}" y2="{axis_bottom}" '
               f'stroke="#f9a825" stroke-dasharray="4,3" stroke-width="1"/>')
    out.append(f'<text x="{x(GOAL) - 3:.1f}" y="{axis_top - 2}" text-anchor="end" fill="#8a6d00">'
               f'{GOAL}× goal</text>')
    y = TOP
    for suite in suites:
        y += SUITE_GAP - ROW_HEIGHT
        out.append(f'<text x="10" y="{y + 4}" font-size="13" font-weight="bold">{html.escape(suite)}</text>')
        y += ROW_HEIGHT - 4
        for row in (r for r in rows if r["suite"] == suite):
            ratio = row.get("ratio")
            label = f'{row["operation"]} — vs {row["baselineLabel"]}'
            out.append(f'<text x="{x0 - 6}" y="{y + 12}" text-anchor="end">{html.escape(label)}</text>')
            if ratio is None:
                out.append(f'<text x="{x0 + 4}" y="{y + 12}" fill="#9e9e9e">failed</text>')
            else:
                bar = max(x(ratio) - x0, 1.0)
                out.append(f'<rect x="{x0}" y="{y + 3}" width="{bar:.1f}" height="{ROW_HEIGHT - 5}" '
                           f'fill="{colour(ratio)}"><title>{html.escape(row["operation"])}: {ratio:.3f}×</title>'
                           f'</rect>')
                clipped = "▶ " if ratio > AXIS_MAX else ""
                out.append(f'<text x="{x0 + bar + 4:.1f}" y="{y + 12}">{clipped}{ratio:.2f}×</text>')
            y += ROW_HEIGHT
    out.append("</svg>")
    return "\n".join(out) + "\n"


def figure(value, unit):
    if value is None:
        return "failed"
    if unit == "B/s":
        return f"{value / 1e6:.0f} MB/s"
    if value >= 10_000:
        return f"{value:,.0f} {unit}"
    return f"{value:,.1f} {unit}"


def markdown(report):
    machine = report["machine"]
    lines = [
        f'Measured {machine["date"]} on {machine["cpu"]} ({machine["cores"]} cores), {machine["os"]}; '
        f'{machine["openssl"]}; {machine["swift"]}; {machine["build"]} build; load average at the start '
        f'{machine["loadAverageAtStart"]}. {report["rounds"]} rounds × {report["secondsPerRound"]} s per side, '
        'alternating, best round of each side kept.',
        "",
        "![ratios per suite](benchmarks.svg)",
        "",
    ]
    for suite in suites_in_order(report["rows"]):
        lines += [f"### {suite}", "", "| operation | ours | OpenSSL | ratio | OpenSSL entry point |",
                  "|---|---:|---:|---:|---|"]
        for row in (r for r in report["rows"] if r["suite"] == suite):
            ratio = "—" if row.get("ratio") is None else f'{row["ratio"]:.2f}×'
            lines.append(f'| {row["operation"]} | {figure(row.get("ours"), row["unit"])} | '
                         f'{figure(row.get("baseline"), row["unit"])} | {ratio} | {row["baselineLabel"]} |')
        lines.append("")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("json", help="the file written by opensecurity-bench --json")
    parser.add_argument("--svg", help="where to write the chart")
    parser.add_argument("--markdown", help="page whose bench:begin/bench:end section is replaced")
    args = parser.parse_args()
    with open(args.json, encoding="utf-8") as handle:
        report = json.load(handle)
    if not report.get("rows"):
        sys.exit(f"{args.json}: no rows")
    if args.svg:
        with open(args.svg, "w", encoding="utf-8") as handle:
            handle.write(svg(report))
    if args.markdown:
        with open(args.markdown, encoding="utf-8") as handle:
            page = handle.read()
        pattern = re.compile(r"(<!-- bench:begin -->\n).*?(<!-- bench:end -->)", re.S)
        if not pattern.search(page):
            sys.exit(f"{args.markdown}: no <!-- bench:begin --> … <!-- bench:end --> section")
        page = pattern.sub(lambda m: m.group(1) + markdown(report) + "\n" + m.group(2), page)
        with open(args.markdown, "w", encoding="utf-8") as handle:
            handle.write(page)
    ratios = [r["ratio"] for r in report["rows"] if r.get("ratio") is not None]
    below = [r for r in report["rows"] if r.get("ratio") is not None and r["ratio"] < GOAL]
    print(f"{len(report['rows'])} rows, {len(below)} below {GOAL}×, lowest {min(ratios):.2f}×")


if __name__ == "__main__":
    main()

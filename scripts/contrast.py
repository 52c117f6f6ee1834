#!/usr/bin/env python3
"""WCAG 2.2 contrast ratios of the storefront's colour pairs, light and dark (issue #11, point 3).

Reads the `light-dark(LIGHT, DARK)` custom properties of `Sources/ShopWeb/Public/app.css`, computes
every pair the pages use, prints a Markdown table and exits 1 when a pair is under its minimum
(4.5:1 for text, 3:1 for UI components and large text). `color-mix(in srgb, A p%, B)` is mixed the
way the browser mixes it. Run: `python3 scripts/contrast.py`."""
import re
import sys
from pathlib import Path

CSS = Path(__file__).resolve().parent.parent / "Sources" / "ShopWeb" / "Public" / "app.css"


def parse(css):
    themes = {"light": {}, "dark": {}}
    root = re.search(r":root\s*\{(.*?)\n\}", css, re.S).group(1)
    for name, light, dark in re.findall(r"--([\w-]+):\s*light-dark\(\s*(#[0-9a-fA-F]{6})\s*,\s*(#[0-9a-fA-F]{6})\s*\)", root):
        themes["light"][name] = light
        themes["dark"][name] = dark
    return themes


def rgb(hex_):
    return tuple(int(hex_[i:i + 2], 16) for i in (1, 3, 5))


def mix(a, b, weight):
    """color-mix(in srgb, a weight%, b)."""
    return "#" + "".join(f"{round(x * weight + y * (1 - weight)):02x}" for x, y in zip(rgb(a), rgb(b)))


def luminance(hex_):
    def channel(c):
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(c) for c in rgb(hex_))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def ratio(a, b):
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


# (what, foreground, background, minimum); names are custom properties, `mix:a:b:p` a color-mix.
PAIRS = [
    ("Body text on page", "ink", "bg", 4.5),
    ("Body text on cards", "ink", "surface", 4.5),
    ("Body text on tiles, tags", "ink", "surface-2", 4.5),
    ("Secondary text on page", "ink-2", "bg", 4.5),
    ("Secondary text on cards", "ink-2", "surface", 4.5),
    ("Secondary text on tiles, tags", "ink-2", "surface-2", 4.5),
    ("Links, active tab on page", "accent", "bg", 4.5),
    ("Links on cards", "accent", "surface", 4.5),
    ("Link in banner, done step", "accent", "accent-soft", 4.5),
    ("Text on banner", "ink", "accent-soft", 4.5),
    ("Primary button text", "accent-ink", "accent", 4.5),
    ("Sale price, errors", "sale", "surface", 4.5),
    ("Sale price on page", "sale", "bg", 4.5),
    ("Sale pill, badge text", "sale-ink", "sale", 4.5),
    ("Error alert text", "sale", "mix:sale:surface:0.12", 4.5),
    ("Discount, in stock", "ok", "surface", 4.5),
    ("Verified pill", "ok", "mix:ok:surface:0.18", 4.5),
    ("Low stock", "warn", "surface", 4.5),
    ("Unverified pill", "warn", "mix:warn:surface:0.18", 4.5),
    ("Sold-out pill", "bg", "ink", 4.5),
    ("Toast", "bg", "ink", 4.5),
    ("Inactive tab label", "ink-2", "mix:surface:bg:0.92", 4.5),
    ("Field border (UI)", "field-line", "surface", 3.0),
    ("Field border on page (UI)", "field-line", "bg", 3.0),
    ("Focus ring (UI)", "accent", "bg", 3.0),
    ("Checked option border (UI)", "accent", "accent-soft", 3.0),
    ("Rating stars (graphic)", "star", "surface", 3.0),
    ("Gallery dot, inactive (UI)", "field-line", "bg", 3.0),
    ("Gallery dot, current (UI)", "ink", "bg", 3.0),
]


def color(theme, spec):
    if spec.startswith("mix:"):
        _, a, b, weight = spec.split(":")
        return mix(theme[a], theme[b], float(weight))
    return theme[spec]


def main():
    themes = parse(CSS.read_text())
    failed = False
    print("| pair | foreground / background | min | light | dark |")
    print("|---|---|---|---|---|")
    for what, fg, bg, minimum in PAIRS:
        cells = []
        for name in ("light", "dark"):
            theme = themes[name]
            value = ratio(color(theme, fg), color(theme, bg))
            ok = value >= minimum
            failed |= not ok
            cells.append(f"{value:.2f}{'' if ok else ' ✗'}")
        print(f"| {what} | `{fg}` / `{bg.replace('mix:', 'mix ')}` | {minimum}:1 | {cells[0]} | {cells[1]} |")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Writes the Adjust panel's section of docs/filters.md (between its `adjust:start` and `adjust:end` marks) and
its pictures (docs/images/adjust/), from the sliders themselves: `sepia filters --json` gives each slider's
mappings, and `sepia strip` with a small catalog renders the photo with the slider at −1 (when it goes both
ways), at 0 and at +1.

Run after building sepia: swift build -c release --static-swift-stdlib
                          python3 scripts/docs/adjust_gallery.py
"""
import json
import os
import plistlib
import re
import subprocess
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SEPIA = os.path.join(ROOT, ".build", "release", "sepia")
PHOTO = os.path.join(ROOT, ".build", "testdata", "photos", "iptc-orientation-3.jpg")
IMAGES = os.path.join(ROOT, "docs", "images", "adjust")
DOC = os.path.join(ROOT, "docs", "filters.md")
SIZE = "240x180"


def fmt(value):
    if isinstance(value, list):
        return "(" + ", ".join(fmt(v) for v in value) + ")"
    return ("%g" % value) if isinstance(value, float) else str(value)


def describe(mapping):
    """`CIExposureAdjust` inputEV 0 → 2"""
    moved = []
    for key, ends in sorted(mapping["parameters"].items()):
        if ends["at0"] == ends["at1"]:
            moved.append(f"{key} {fmt(ends['at0'])}")
        else:
            moved.append(f"{key} {fmt(ends['at0'])} → {fmt(ends['at1'])}")
    return f"`{mapping['filter']}` " + ", ".join(moved)


def end_parameters(mapping, distances, scale):
    """The mapping's values at the slider's end; distances in pixels scaled to the picture, as the editor's
    preview scales them (`sepia strip` applies parameters as they are, at thumbnail scale), the defaults of
    those the mapping leaves alone (a sharpening radius, a grain's size) included."""
    out = {key: default * scale for (name, key), default in distances.items() if name == mapping["filter"] and default}
    for key, ends in mapping["parameters"].items():
        value = ends["at1"]
        out[key] = value * scale if (mapping["filter"], key) in distances else value
    return out


def main():
    listing = json.loads(subprocess.check_output([SEPIA, "filters", "--json"]))
    distances = {(f["coreImageName"], p["coreImageKey"]): p.get("defaultValue") for f in listing["filters"] for p in f["parameters"]
                 if p["kind"] == "distance"}
    width = int(subprocess.check_output(["vipsheader", "-f", "width", PHOTO]))
    scale = int(SIZE.split("x")[0]) / width
    os.makedirs(IMAGES, exist_ok=True)
    out = ["<!-- adjust:start (written by scripts/docs/adjust_gallery.py) -->", "",
           "| slider | id | range | at −1 | at +1 | −1 · 0 · +1 |", "|---|---|---|---|---|---|"]
    titles = {"light": "Light", "color": "Color", "blackAndWhite": "Black & White", "detail": "Detail"}
    with tempfile.TemporaryDirectory() as tmp:
        for slider in listing["adjustments"]:
            entries = []
            if slider.get("negative"):
                entries.append({"filter": slider["negative"]["filter"], "name": "-1", "parameters": end_parameters(slider["negative"], distances, scale)})
            entries.append({"filter": "None", "name": "0"})
            entries.append({"filter": slider["positive"]["filter"], "name": "+1", "parameters": end_parameters(slider["positive"], distances, scale)})
            catalog = os.path.join(tmp, slider["id"] + ".plist")
            with open(catalog, "wb") as fh:
                plistlib.dump(entries, fh)
            picture = os.path.join(IMAGES, slider["id"] + ".jpg")
            subprocess.check_call([SEPIA, "strip", PHOTO, "--size", SIZE, "--catalog", catalog, "--sheet", picture,
                                   "--quality", "80"])
            negative = describe(slider["negative"]) if slider.get("negative") else "—"
            span = "−1…1" if slider["minimum"] < 0 else "0…1"
            out.append(f"| {titles[slider['section']]}: **{slider['name']}** | `{slider['id']}` | {span} | {negative} | "
                       f"{describe(slider['positive'])} | ![{slider['name']}](images/adjust/{slider['id']}.jpg) |")
    out += ["", "<!-- adjust:end -->"]
    text = open(DOC).read()
    section = "\n".join(out)
    if "<!-- adjust:start" in text:
        text = re.sub(r"<!-- adjust:start.*?<!-- adjust:end -->", lambda _: section, text, flags=re.S)
    else:
        raise SystemExit("docs/filters.md has no adjust:start mark")
    with open(DOC, "w") as fh:
        fh.write(text)


if __name__ == "__main__":
    main()

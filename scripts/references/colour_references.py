#!/usr/bin/env python3
"""Reference colours for Sepia's colour-management tests, computed by an independent implementation.

Pillow's ImageCms (Little CMS through Pillow's own bindings) converts each tagged test image from its
embedded ICC profile to sRGB with relative colorimetric intent; CMYK JPEGs are converted by Pillow's own
CMYK→RGB path. For a fixed grid of pixels the script records the expected 8-bit sRGB values, and the values an
untagged (wrongly "assumed sRGB") decode would give, so tests can show which interpretation Sepia matches.

Run: python3 scripts/references/colour_references.py  (writes Tests/Fixtures/references/colour.json)
"""
import io
import json
import os

from PIL import Image, ImageCms

ROOT = os.path.join(os.path.dirname(__file__), "..", "..", "Tests", "Fixtures")
CORPUS = os.path.join(ROOT, "..", "..", ".build", "testdata")
OUT = os.path.join(ROOT, "references", "colour.json")

ICC_FILES = [
    "jpeg-conformance/P3-red.jpg",
    "photos/xmp_test.jpg",
    "jpeg-conformance/Rec2020-green.jpg",
    "png-suite/extra/p3.png",
]
CMYK_FILES = [
    "jpeg-conformance/pil_sample_cmyk.jpg",
    "jpeg-conformance/baseline_cmyk.jpg",
]


def grid(width, height, steps=12):
    xs = sorted({min(width - 1, int((i + 0.5) * width / steps)) for i in range(steps)})
    ys = sorted({min(height - 1, int((j + 0.5) * height / steps)) for j in range(steps)})
    return [(x, y) for y in ys for x in xs]


def main():
    entries = []
    for rel in ICC_FILES:
        im = Image.open(os.path.join(CORPUS, rel))
        icc = im.info.get("icc_profile")
        rgb = im.convert("RGB")
        source = ImageCms.ImageCmsProfile(io.BytesIO(icc))
        converted = ImageCms.profileToProfile(
            rgb, source, ImageCms.createProfile("sRGB"),
            renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC, outputMode="RGB")
        points = grid(*rgb.size)
        entries.append({
            "file": rel,
            "conversion": "icc",
            "points": [[x, y] for x, y in points],
            "expected": [list(converted.getpixel(p)) for p in points],
            "untagged": [list(rgb.getpixel(p)) for p in points],
        })
    for rel in CMYK_FILES:
        im = Image.open(os.path.join(CORPUS, rel))
        rgb = im.convert("RGB")
        points = grid(*rgb.size)
        entries.append({
            "file": rel,
            "conversion": "cmyk",
            "points": [[x, y] for x, y in points],
            "expected": [list(rgb.getpixel(p)) for p in points],
        })
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        json.dump({"generator": "Pillow ImageCms (Little CMS)", "entries": entries}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Writes the facts of each corpus file into Tests/Fixtures/corpus/MANIFEST.json, measured by tools other than
Sepia: sizes (stored, and as displayed after EXIF orientation or HEIF rotation) by Pillow and pillow-heif, EXIF
facts by exiftool, the byte count, and the SHA-256 of every file whose bytes do not depend on a tool's version.

Run after changing the manifest's entries, with the corpus materialised (scripts/testdata --force):
    python3 scripts/generate/corpus_facts.py      (needs pillow, pillow-heif and exiftool)
A file pinned by SHA-256 whose recipe changes is made again only once its "sha256" is taken out of the
manifest (scripts/testdata refuses bytes that differ from a pin, and keeps a file that matches it); this script
then pins the new bytes.
"""
import hashlib
import json
import os
import shlex
import subprocess
import sys

from PIL import Image

try:
    import pillow_heif

    pillow_heif.register_heif_opener()
except ImportError:
    pillow_heif = None

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
MANIFEST = os.path.join(ROOT, "Tests", "Fixtures", "corpus", "MANIFEST.json")
CORPUS = os.path.join(ROOT, ".build", "testdata")
# Recipes that only move bytes in Python: their output is the same wherever they run.
PURE = {"empty", "text", "copy", "truncate", "png", "png-from-pnm", "png-crop", "png-solid", "png-scene", "jpeg-icc",
        "icc-chunks", "mpo-first", "jpeg-meta", "jpeg-patch", "lossless-jpeg", "png-patch", "heif-irot", "orient"}
FIELDS = ["FileType", "ImageWidth", "ImageHeight", "Orientation", "Make", "Model", "GPSLatitude", "GPSLongitude", "GPSAltitude",
          "ProfileDescription", "ExifByteOrder", "EncodingProcess", "BitsPerSample", "ColorComponents"]


def exif_facts(path):
    out = subprocess.run(["exiftool", "-j", "-n"] + ["-" + f for f in FIELDS] + [path], capture_output=True, text=True)
    facts = json.loads(out.stdout or "[{}]")[0]
    facts.pop("SourceFile", None)
    dated = subprocess.run(["exiftool", "-j", "-G", "-EXIF:DateTimeOriginal", "-EXIF:CreateDate", "-XMP:DateCreated",
                            "-IPTC:DateCreated", "-EXIF:GPSDateStamp", path], capture_output=True, text=True)
    more = json.loads(dated.stdout or "[{}]")[0]
    more.pop("SourceFile", None)
    facts.update(more)
    return {k: v for k, v in facts.items() if v not in (None, "")}


def sizes(path):
    try:
        with Image.open(path) as im:
            im.load()
            w, h = im.size
            orientation = im.getexif().get(0x0112, 1) if im.format in ("JPEG", "MPO", "WEBP", "PNG", "AVIF") else 1
            if orientation in (5, 6, 7, 8):
                w, h = h, w
            return [w, h], im.format
    except Exception:
        return None, None


def main():
    manifest = json.load(open(MANIFEST))
    entries = manifest["files"]
    pinned = {}
    for e in entries:
        if "source" in e:
            pinned[e["file"]] = True
        else:
            words = shlex.split(e["generated"])
            inputs = [w for w in words[1:] if w in pinned]
            pure = words[0] in PURE and not any(w.startswith("scene:") and False for w in words)
            pinned[e["file"]] = pure and all(pinned[w] for w in inputs)
    for e in entries:
        path = os.path.join(CORPUS, e["file"])
        data = open(path, "rb").read()
        facts = exif_facts(path) if data else {}
        display, fmt = sizes(path)
        stored = [facts["ImageWidth"], facts["ImageHeight"]] if "ImageWidth" in facts and "ImageHeight" in facts else None
        if fmt in ("HEIF", "AVIF") and display and stored and display != stored and display[::-1] != stored:
            stored = None
        if display is None and e["expected"] in ("DECODE", "LENIENT") and stored:
            # Pillow refuses it (a limit of its own, or a layout it does not read): the header's size.
            display = stored
        e["display_size"] = display if e["expected"] != "REJECT" else None
        e["stored_size"] = stored
        e["exif"] = facts
        e["verified_pillow"] = fmt
        e["bytes"] = len(data)
        if pinned[e["file"]]:
            e["sha256"] = hashlib.sha256(data).hexdigest()
        else:
            e.pop("sha256", None)
    json.dump(manifest, open(MANIFEST, "w"), indent=1, ensure_ascii=False)
    with open(MANIFEST, "a") as f:
        f.write("\n")
    print("%d entries, %d pinned by SHA-256" % (len(entries), sum(1 for e in entries if "sha256" in e)), file=sys.stderr)


if __name__ == "__main__":
    main()

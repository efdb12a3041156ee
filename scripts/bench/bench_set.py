#!/usr/bin/env python3
"""Builds the benchmark set the engine targets are measured on, from the bench photos and the corpus.

    scripts/bench/bench_set.py BENCH_DIR OUT_DIR

BENCH_DIR holds spices-24mp.jpg, spices-24mp-progressive.jpg and bus-12mp.jpg. OUT_DIR gets:

- those three (linked);
- iphone-12mp.heic: a real iPhone HEIC from the corpus (arrow-irot0.heic, pillow-heif's iPhone 8 Plus photo
  with its rotation set to 0): a grid of 48 HEVC tiles of 512x512, Display P3, a 320x240 thumbnail, as
  iPhones write them;
- iphone-12mp-nothumb.heic: the same file with its thumbnail reference renamed, so readers find no
  thumbnail and must decode the grid (the tiles, colour and transforms are untouched);
- spices-24mp.avif: spices-24mp.jpg encoded by libheif's heif-enc with libaom (quality 50, speed 8);
- mixed/: 100 photos, 20 sources in five formats each: baseline JPEG and progressive JPEG (jpegtran,
  coefficients unchanged), HEIC with a 320 px thumbnail as phones write them (heif-enc, x265, quality 60;
  the phone HEICs are used as they are), PNG and WebP quality 80 (libvips). The sources are the corpus's 10
  JPEG photos that decode cleanly (its manifest's DECODE), two of the bench photos, four phone HEICs
  (arrow-irot0.heic; arrow.heic, the same grid turned by irot; pug.heic, an iPhone 13 Pro grid with a depth
  map and no thumbnail; aux_YCbCr.heic, a Galaxy S25 Ultra grid with a thumbnail and auxiliary images) and
  four crops of the bench photos.

Files already there are kept, so a second run costs nothing. Needs libheif-examples, libjpeg-turbo-progs and
libvips-tools (scripts/setup --peers installs them).
"""
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CORPUS = os.path.join(ROOT, ".build", "testdata")


def run(*argv):
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def make(path, build):
    """Runs build(tmp) and renames tmp to path, unless path exists: an interrupted run leaves no half file."""
    if os.path.exists(path):
        return
    tmp = path + ".part" + os.path.splitext(path)[1]
    build(tmp)
    os.replace(tmp, path)


def without_thumbnail(src, dst):
    data = open(src, "rb").read()
    iref = data.find(b"iref")
    at = data.find(b"thmb", iref)
    if iref < 0 or at < 0 or data.count(b"thmb") != 1:
        raise SystemExit("%s: no single thumbnail reference to remove" % src)
    with open(dst, "wb") as f:
        f.write(data[:at] + b"xxxx" + data[at + 4:])


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    bench, out = map(os.path.abspath, sys.argv[1:])
    mixed = os.path.join(out, "mixed")
    os.makedirs(mixed, exist_ok=True)
    for name in ("spices-24mp.jpg", "spices-24mp-progressive.jpg", "bus-12mp.jpg"):
        if not os.path.exists(os.path.join(bench, name)):
            raise SystemExit("missing %s in %s" % (name, bench))
        if not os.path.exists(os.path.join(out, name)):
            os.symlink(os.path.join(bench, name), os.path.join(out, name))
    iphone = os.path.join(CORPUS, "heic-avif", "arrow-irot0.heic")
    rotated = os.path.join(CORPUS, "heic-avif", "arrow.heic")
    depth = os.path.join(CORPUS, "heic-avif", "pug.heic")
    galaxy = os.path.join(CORPUS, "heic-avif", "aux_YCbCr.heic")
    make(os.path.join(out, "iphone-12mp.heic"), lambda t: shutil.copyfile(iphone, t))
    make(os.path.join(out, "iphone-12mp-nothumb.heic"), lambda t: without_thumbnail(iphone, t))
    make(os.path.join(out, "spices-24mp.avif"),
         lambda t: run("heif-enc", "-A", "-q", "50", "-p", "speed=8", os.path.join(bench, "spices-24mp.jpg"), "-o", t))

    # Sources: (name, path of a JPEG or HEIC to convert from). Crops are made as baseline JPEGs first.
    crops = os.path.join(out, "crops")
    os.makedirs(crops, exist_ok=True)
    crop_specs = [
        ("spices-top", "spices-24mp.jpg", (0, 0, 4000, 3000)),
        ("spices-bottom", "spices-24mp.jpg", (0, 3000, 4000, 3000)),
        ("bus-left", "bus-12mp.jpg", (0, 0, 2016, 3024)),
        ("bus-centre", "bus-12mp.jpg", (1008, 512, 2016, 2000)),
    ]
    # The corpus's photos that decode cleanly: not the ones cut short on purpose.
    with open(os.path.join(CORPUS, "MANIFEST.json")) as f:
        clean = {e["file"] for e in json.load(f)["files"] if e["expected"] == "DECODE"}
    sources = [(os.path.splitext(f)[0], os.path.join(CORPUS, "photos", f))
               for f in sorted(os.listdir(os.path.join(CORPUS, "photos")))
               if f.endswith(".jpg") and "photos/" + f in clean]
    sources += [("spices", os.path.join(bench, "spices-24mp.jpg")), ("bus", os.path.join(bench, "bus-12mp.jpg"))]
    sources += [("iphone8plus", iphone), ("iphone8plus-irot", rotated), ("iphone13pro", depth), ("galaxy-s25", galaxy)]
    for name, src, (x, y, w, h) in crop_specs:
        path = os.path.join(crops, name + ".jpg")
        make(path, lambda t: run("vips", "crop", os.path.join(bench, src), t + "[Q=90]", str(x), str(y), str(w), str(h)))
        sources.append((name, path))
    assert len(sources) == 20, len(sources)

    for i, (name, src) in enumerate(sources, 1):
        stem = os.path.join(mixed, "%02d-%s" % (i, name))
        is_heic = src.endswith(".heic")
        # A JPEG to derive the others from: the source itself, or for a phone HEIC its decode at q92.
        jpeg = src if not is_heic else os.path.join(crops, name + ".jpg")
        if is_heic:
            make(jpeg, lambda t: run("vips", "copy", src, t + "[Q=92]"))
        make(stem + "-baseline.jpg", lambda t: run("sh", "-c", "jpegtran -copy all '%s' > '%s'" % (jpeg, t)))
        make(stem + "-progressive.jpg",
             lambda t: run("sh", "-c", "jpegtran -copy all -progressive '%s' > '%s'" % (jpeg, t)))
        if is_heic:
            make(stem + "-heic.heic", lambda t: shutil.copyfile(src, t))
        else:
            side = max(int(subprocess.check_output(["vipsheader", "-f", f, jpeg])) for f in ("width", "height"))
            thumb = ["-t", "320"] if side > 320 else []  # heif-enc refuses a thumbnail as large as the image
            make(stem + "-heic.heic", lambda t: run("heif-enc", "-q", "60", *thumb, "-p", "preset=fast", jpeg, "-o", t))
        make(stem + "-png.png", lambda t: run("vips", "copy", jpeg, t))
        make(stem + "-webp.webp", lambda t: run("vips", "copy", jpeg, t + "[Q=80]"))
        print("%2d/20 %s" % (i, name), flush=True)
    # Every file has its own stem, so thumbnails written to one folder do not overwrite each other.
    files = sorted(f for f in os.listdir(mixed) if not f.startswith("."))
    assert len({os.path.splitext(f)[0] for f in files}) == len(files)
    assert len(files) == 100, len(files)
    print("%s: %d photos" % (mixed, len(files)))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Makes photos with faces for the People benchmarks, reproducibly (seeded), from the corpus's face photos.

    scripts/bench/face_photos.py OUT_DIR [--count N] [--megapixels MP] [--seed S] [--originals] [--chips-only]

Each photo is a camera-sized JPEG (quality 90, 4:3 landscape of about MP megapixels): a background cut from one of
the corpus's larger photos (fujifilm-w3.jpg, no-date.jpg, xmp_test.jpg; a random crop, flipped or not, its colours
shifted a little, with a fine grain as a camera's sensor leaves), with 1 to 5 faces pasted at random places,
none over another, at varied sizes:

- a face chip of dlib's `johns/` (5 people × 11 aligned 150-pixel chips; Debian's libdlib19.1 examples), from 4 %
  to 12 % of the photo's width;
- one of face_recognition's test photos (`faces/*.jpg` of the corpus: Obama, Biden; one face each, with the
  shoulders and background around it), from 20 % to 50 % of the photo's height;
- now and then dlib's `bald_guys.jpg` (24 faces), 40 % to 70 % of the photo's width.

`--originals` also copies the seven source photos as they are (`faces/*.jpg` and `bald_guys.jpg`). `--chips-only`
pastes only the `johns/` chips, whose whole square is the face: the boxes written to `.faces.json` are then real
face boxes, which the People view's benchmark records. `.faces.json` (hidden, so that imports leave it out) maps
each file to what was pasted in it (`{"box": [x, y, w, h], "kind": "chip"|"portrait"|"group", "source": name}`,
pixels of the photo).

A folder made once is kept, and made again only when the parameters or VERSION change (a stamp in it).
"""
import argparse
import glob
import json
import os
import random
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CORPUS = os.path.join(ROOT, ".build", "testdata")
DLIB_EXAMPLES = "/usr/share/doc/libdlib19.1/examples"
BACKGROUNDS = ("fujifilm-w3.jpg", "no-date.jpg", "xmp_test.jpg")
# The version of the photos this script makes: a change to what it makes (not to how it is written) changes it,
# so that folders made before are made again.
VERSION = 1
MANIFEST = ".faces.json"


def sources():
    """(chips, portraits, group): the paths of the face pictures pasted."""
    chips = sorted(glob.glob(os.path.join(DLIB_EXAMPLES, "johns", "*", "*.jpg")))
    portraits = sorted(glob.glob(os.path.join(CORPUS, "faces", "*.jpg")))
    group = os.path.join(DLIB_EXAMPLES, "faces", "bald_guys.jpg")
    if not chips or not os.path.exists(group):
        raise SystemExit("dlib's examples are missing (%s): apt-get install libdlib19.1 (scripts/setup installs it)"
                         % DLIB_EXAMPLES)
    if not portraits:
        raise SystemExit("the corpus's faces/ folder is missing: run scripts/testdata")
    return chips, portraits, group


def stamp_of(args):
    return json.dumps({"count": args.count, "megapixels": args.megapixels, "seed": args.seed,
                       "originals": args.originals, "chips_only": args.chips_only, "version": VERSION}, sort_keys=True)


def make(out, count=48, megapixels=12.0, seed=1, originals=False, chips_only=False, quiet=False):
    """Fills `out` (see the module's documentation) unless it already holds this set; returns the list of files."""
    args = argparse.Namespace(count=count, megapixels=megapixels, seed=seed, originals=originals, chips_only=chips_only)
    stamp_path = os.path.join(out, ".stamp")
    stamp = stamp_of(args)
    if os.path.exists(stamp_path) and open(stamp_path).read() == stamp:
        return sorted(f for f in os.listdir(out) if f.lower().endswith(".jpg"))
    import numpy as np
    from PIL import Image, ImageEnhance

    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    chips, portraits, group = sources()
    backgrounds = [Image.open(os.path.join(CORPUS, "photos", name)).convert("RGB") for name in BACKGROUNDS]
    width = int(round((megapixels * 1e6 * 4 / 3) ** 0.5 / 16)) * 16
    height = width * 3 // 4
    rng = random.Random(seed)
    grain = np.random.default_rng(seed)
    opened = {}

    def picture(path):
        if path not in opened:
            opened[path] = Image.open(path).convert("RGB")
        return opened[path]

    manifest = {}
    digits = len(str(count))
    for n in range(count):
        base = rng.choice(backgrounds)
        crop_w = rng.uniform(0.55, 1.0) * base.width
        crop_h = min(crop_w * 3 / 4, base.height)
        crop_w = crop_h * 4 / 3
        left = rng.uniform(0, base.width - crop_w)
        top = rng.uniform(0, base.height - crop_h)
        photo = base.resize((width, height), Image.BICUBIC, box=(left, top, left + crop_w, top + crop_h))
        if rng.random() < 0.5:
            photo = photo.transpose(Image.FLIP_LEFT_RIGHT)
        photo = ImageEnhance.Color(photo).enhance(rng.uniform(0.6, 1.3))
        photo = ImageEnhance.Brightness(photo).enhance(rng.uniform(0.8, 1.15))
        placed = []
        wanted = rng.randint(1, 5)
        attempts = 0
        while len(placed) < wanted and attempts < 200:
            attempts += 1
            roll = rng.random()
            if chips_only or roll < 0.55:
                kind, path = "chip", rng.choice(chips)
                side = int(rng.uniform(0.04, 0.12) * width)
                size = (side, side)
            elif roll < 0.93:
                kind, path = "portrait", rng.choice(portraits)
                source = picture(path)
                h = int(rng.uniform(0.2, 0.5) * height)
                size = (max(1, source.width * h // source.height), h)
            else:
                if any(p["kind"] == "group" for p in placed):
                    continue
                kind, path = "group", group
                source = picture(path)
                w = int(rng.uniform(0.4, 0.7) * width)
                size = (w, max(1, source.height * w // source.width))
            if size[0] >= width or size[1] >= height:
                continue
            x = rng.randint(0, width - size[0])
            y = rng.randint(0, height - size[1])
            box = [x, y, size[0], size[1]]
            if any(x < p["box"][0] + p["box"][2] and p["box"][0] < x + size[0]
                   and y < p["box"][1] + p["box"][3] and p["box"][1] < y + size[1] for p in placed):
                continue
            sprite = picture(path).resize(size, Image.LANCZOS)
            if rng.random() < 0.3:
                sprite = sprite.transpose(Image.FLIP_LEFT_RIGHT)
            photo.paste(sprite, (x, y))
            placed.append({"box": box, "kind": kind,
                           "source": os.path.relpath(path, DLIB_EXAMPLES if kind != "portrait" else CORPUS)})
        pixels = np.asarray(photo, dtype=np.int16)
        pixels = pixels + grain.normal(0, 3.0, size=(height, width, 1)).astype(np.int16)
        photo = Image.fromarray(np.clip(pixels, 0, 255).astype(np.uint8))
        name = "face-%0*d.jpg" % (digits, n)
        photo.save(os.path.join(out, name), quality=90)
        manifest[name] = placed
        if not quiet and (n + 1) % 50 == 0:
            print("  %d of %d photos made" % (n + 1, count), file=sys.stderr, flush=True)
    if originals:
        for path in portraits + [group]:
            name = "original-" + os.path.basename(path)
            shutil.copyfile(path, os.path.join(out, name))
            manifest[name] = []
    with open(os.path.join(out, MANIFEST), "w") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
    with open(stamp_path, "w") as f:
        f.write(stamp)
    return sorted(manifest)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out")
    parser.add_argument("--count", type=int, default=48)
    parser.add_argument("--megapixels", type=float, default=12.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--originals", action="store_true")
    parser.add_argument("--chips-only", action="store_true")
    args = parser.parse_args()
    files = make(args.out, args.count, args.megapixels, args.seed, args.originals, args.chips_only)
    print("%d photos in %s" % (len(files), args.out))


if __name__ == "__main__":
    main()

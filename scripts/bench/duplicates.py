#!/usr/bin/env python3
"""Near-duplicate detection on a generated set: `sepia duplicates` against PyPI's ImageHash 4.3.2 (`phash`, with
the files joined by union-find at the same thresholds), on the same files, in one run; prints Markdown tables.

    scripts/bench-duplicates [--photos N] [--unrelated N] [--thresholds A-B] [--keep DIR] [--markdown FILE]
                             [--imagehash-only]

The set is made in a temporary folder from fixed seeds, so that every run sees the same files. N photos (default
50) and N unrelated photos (default 50) are 1200 × 900 pictures, each of its own: ImageMagick's fractal plasma
(its own seed), blended with a linear or radial gradient between two random colours at a random angle, 6 to 14
random shapes (circles, ellipses, rectangles, triangles; some translucent, some outlined), one to three words of
text, and a little Gaussian noise, stored as JPEG quality 92. Each of the photos then gets six copies, made from
its JPEG (the files carry no date but their modification time, set to a fixed one for each picture and to a day
later for its copies, so that the item proposed to keep does not depend on when the set was made):

- `resized`: 60 % of its size (720 × 540), JPEG quality 90;
- `q60`: recompressed at JPEG quality 60;
- `cropped`: 95 % of its width and of its height, at an offset drawn from the photo's seed (the copy a pHash
  finds hardest: what is left is also shifted), JPEG quality 90;
- `brightened`: lightness +15 % (ImageMagick's `-modulate 115`), JPEG quality 90;
- `webp`: cwebp quality 80;
- `heic`: heif-enc quality 50.

The unrelated photos have no copies. Everything is imported into a new library (`sepia import`, timed), then
`sepia duplicates --json` runs: first at its default threshold (this run hashes every photo, and is timed), then
again at each threshold of the sweep. For each run:

- **recall**: the share of the copies that are in the same group as their photo;
- **false joins**: the groups that hold two different pictures (two photos, or an unrelated photo with
  anything);
- **groups**: how many groups there are (the set has one per photo).

ImageHash hashes the same files with Pillow (HEIC files decoded to PNG by heif-convert first: Pillow reads no
HEIC), and files whose hashes are within the threshold are joined (single linkage), which gives its figures at
each threshold. The best threshold is the smallest one without false joins that has the best recall (a pHash sets
32 of its 64 bits, so two hashes differ in an even number of bits: an odd threshold finds what the even one below
it finds). The script exits with 1 when, at Sepia's default threshold, recall is under 95 % or there is a false
join. SEPIA_BIN chooses the build (default: the debug build, .build/debug/sepia).
"""
import argparse
import concurrent.futures
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "scripts", "generate"))
import corpus  # noqa: E402

SEPIA = os.environ.get("SEPIA_BIN") or os.path.join(ROOT, ".build", "debug", "sepia")
VENV = os.path.join(ROOT, ".build", "duplicates-peer-venv")
ARCHIVES = os.path.join(ROOT, ".build", "testdata-archives")
PEER = ("ImageHash", "ImageHash-4.3.2-py2.py3-none-any.whl",
        "02b0f965f8c77cd813f61d7d39031ea27d4780e7ebcad56c6cd6a709acc06e5f")
PINNED = ["numpy==2.4.6", "scipy==1.17.1", "pillow==13.0.0", "PyWavelets==1.9.0"]
WANTED = "4.3.2 2.4.6 1.17.1 13.0.0 1.9.0"
TOOLS = {"convert": "imagemagick", "cwebp": "webp", "heif-enc": "libheif-examples", "heif-convert": "libheif-examples"}

WIDTH, HEIGHT = 1200, 900
# The copies of each photo: name, file extension.
COPIES = [("resized", "jpg"), ("q60", "jpg"), ("cropped", "jpg"), ("brightened", "jpg"), ("webp", "webp"),
          ("heic", "heic")]
RECALL_TARGET = 0.95
# When the pictures were taken (their files' modification time, 2024-06-01 00:00 UTC plus a minute per seed), and
# how long after their copies were made.
TAKEN = 1717200000
COPIED = 86400


def fail(message):
    sys.exit("scripts/bench-duplicates: error: " + message)


def run(command, **options):
    """Runs a command; a failure stops the script with its output."""
    result = subprocess.run(command, capture_output=True, text=True, **options)
    if result.returncode != 0:
        fail("%s exited with %d:\n%s%s" % (" ".join(command), result.returncode, result.stdout[-2000:],
                                           result.stderr[-2000:]))
    return result


# The set.

def colour(rng, alpha=None):
    r, g, b = (rng.randrange(256) for _ in range(3))
    return "rgba(%d,%d,%d,%.2f)" % (r, g, b, alpha) if alpha is not None else "rgb(%d,%d,%d)" % (r, g, b)


WORDS = ["harbour", "Lisbon", "market", "1987", "summer", "garden", "STATION", "bakery", "north", "ferry", "Oslo",
         "picnic", "river", "CAFE", "museum", "tram", "beach", "festival", "Porto", "bridge"]


def base_command(seed, path):
    """ImageMagick's command that draws picture `seed` into `path`, a JPEG of quality 92."""
    rng = random.Random(seed)
    command = ["convert", "-seed", str(seed), "-size", "400x300", "plasma:fractal", "-resize", "%dx%d!" % (WIDTH, HEIGHT)]
    # A gradient over the plasma: linear at a random angle, or radial from a random centre.
    if rng.random() < 0.6:
        gradient = ["(", "-size", "%dx%d" % (WIDTH, HEIGHT), "-define", "gradient:angle=%d" % rng.randrange(360),
                    "gradient:%s-%s" % (colour(rng), colour(rng)), ")"]
    else:
        size, inner, outer = rng.randrange(600, 2400), colour(rng), colour(rng)
        gradient = ["(", "-size", "%dx%d" % (WIDTH, HEIGHT), "xc:" + outer, "(", "-size", "%dx%d" % (size, size),
                    "radial-gradient:%s-%s" % (inner, outer), ")", "-gravity", "northwest", "-geometry",
                    "%+d%+d" % (rng.randrange(WIDTH) - size // 2, rng.randrange(HEIGHT) - size // 2), "-composite", ")"]
    command += gradient + ["-gravity", "northwest", "-compose", "blend", "-define",
                           "compose:args=%d" % rng.randrange(30, 75), "-composite", "-compose", "over"]
    for _ in range(rng.randrange(6, 15)):
        fill = colour(rng, rng.choice([1.0, 1.0, 0.8, 0.5]))
        command += ["-fill", fill]
        if rng.random() < 0.3:
            command += ["-stroke", colour(rng), "-strokewidth", str(rng.randrange(2, 12))]
        else:
            command += ["-stroke", "none"]
        x, y = rng.randrange(-100, WIDTH), rng.randrange(-100, HEIGHT)
        w, h = rng.randrange(40, 600), rng.randrange(40, 500)
        kind = rng.choice(["circle", "ellipse", "rectangle", "roundrectangle", "polygon"])
        if kind == "circle":
            shape = "circle %d,%d %d,%d" % (x, y, x + w // 2, y)
        elif kind == "ellipse":
            shape = "ellipse %d,%d %d,%d 0,360" % (x, y, w // 2, h // 2)
        elif kind == "rectangle":
            shape = "rectangle %d,%d %d,%d" % (x, y, x + w, y + h)
        elif kind == "roundrectangle":
            shape = "roundrectangle %d,%d %d,%d 30,30" % (x, y, x + w, y + h)
        else:
            shape = "polygon %d,%d %d,%d %d,%d" % (x, y, x + w, y + rng.randrange(-h, h), x + rng.randrange(-w, w), y + h)
        command += ["-draw", shape]
    command += ["-stroke", "none", "-font", "DejaVu-Sans-Bold"]
    for _ in range(rng.randrange(1, 4)):
        command += ["-fill", colour(rng), "-pointsize", str(rng.randrange(40, 160)), "-annotate",
                    "%+d%+d" % (rng.randrange(0, WIDTH - 300), rng.randrange(120, HEIGHT)), rng.choice(WORDS)]
    command += ["-attenuate", "%.2f" % rng.uniform(0.2, 0.6), "+noise", "Gaussian", "-blur", "0x0.7", "-quality", "92", path]
    return command


def make_photo(folder, name, seed, copies):
    """Draws one picture into NAME-original.jpg (NAME.jpg without copies), then makes its copies."""
    original = os.path.join(folder, name + ("-original.jpg" if copies else ".jpg"))
    run(base_command(seed, original))
    # The files carry no date but their own: each picture its minute, its copies a day later.
    taken = TAKEN + 60 * seed
    os.utime(original, (taken, taken))
    if not copies:
        return
    rng = random.Random(seed * 7919)
    crop_w, crop_h = WIDTH * 95 // 100, HEIGHT * 95 // 100
    crop = "%dx%d+%d+%d" % (crop_w, crop_h, rng.randrange(WIDTH - crop_w + 1), rng.randrange(HEIGHT - crop_h + 1))
    out = lambda kind, ext: os.path.join(folder, "%s-%s.%s" % (name, kind, ext))  # noqa: E731
    run(["convert", original, "-resize", "60%", "-quality", "90", out("resized", "jpg")])
    run(["convert", original, "-quality", "60", out("q60", "jpg")])
    run(["convert", original, "-crop", crop, "+repage", "-quality", "90", out("cropped", "jpg")])
    run(["convert", original, "-modulate", "115", "-quality", "90", out("brightened", "jpg")])
    run(["cwebp", "-quiet", "-q", "80", original, "-o", out("webp", "webp")])
    run(["heif-enc", "-q", "50", original, "-o", out("heic", "heic")])
    for kind, ext in COPIES:
        os.utime(out(kind, ext), (taken + COPIED, taken + COPIED))


def generate(folder, photos, unrelated):
    """Makes the set; returns {file name: (picture, kind)}, kind being 'original', a copy's name or 'unrelated'."""
    jobs = [("p%03d" % i, 1000 + i, True) for i in range(1, photos + 1)]
    jobs += [("u%03d" % i, 5000 + i, False) for i in range(1, unrelated + 1)]
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        for future in [pool.submit(make_photo, folder, name, seed, copies) for name, seed, copies in jobs]:
            future.result()
    files = {}
    for name, _, copies in jobs:
        if copies:
            files[name + "-original.jpg"] = (name, "original")
            for kind, ext in COPIES:
                files["%s-%s.%s" % (name, kind, ext)] = (name, kind)
        else:
            files[name + ".jpg"] = (name, "unrelated")
    missing = [f for f in files if not os.path.exists(os.path.join(folder, f))]
    if missing:
        fail("the set lacks %s" % ", ".join(missing[:5]))
    return files


# Scoring.

def score(groups, files):
    """Recall (overall and per copy kind), false joins and the number of groups, for groups given as lists of
    file names (files in no group are alone)."""
    group_of = {}
    for index, group in enumerate(groups):
        for name in group:
            group_of[name] = index
    found, total = {}, {}
    for name, (picture, kind) in files.items():
        if kind in ("original", "unrelated"):
            continue
        original = picture + "-original.jpg"
        total[kind] = total.get(kind, 0) + 1
        if name in group_of and group_of.get(original) == group_of[name]:
            found[kind] = found.get(kind, 0) + 1
    copies = sum(total.values())
    recall = sum(found.values()) / copies if copies else 1.0
    false_joins = sum(1 for group in groups if len({files[name][0] for name in group}) > 1)
    return {"recall": recall, "byKind": {kind: found.get(kind, 0) / total[kind] for kind in total},
            "falseJoins": false_joins, "groups": len(groups)}


def best_threshold(results):
    """The smallest threshold without false joins that has the best recall among those without, or None."""
    clean = [(t, r) for t, r in sorted(results.items()) if r["falseJoins"] == 0]
    if not clean:
        return None
    best = max(r["recall"] for _, r in clean)
    return next(t for t, r in clean if r["recall"] == best)


# Sepia.

def sepia_import(library, folder, files):
    """Imports the folder; returns ({asset id: file name}, seconds)."""
    start = time.perf_counter()
    result = run([SEPIA, "import", "--library", library, "--json", folder])
    seconds = time.perf_counter() - start
    assets, problems = {}, []
    for line in result.stdout.splitlines():
        item = json.loads(line)
        if "summary" in item:
            continue
        name = os.path.basename(item.get("path", ""))
        if item.get("status") == "imported" and item.get("assetID"):
            assets[item["assetID"]] = name
        else:
            problems.append("%s: %s %s" % (name, item.get("status"), item.get("reason", "")))
    if problems or len(assets) != len(files):
        fail("the import took %d of %d files:\n  %s" % (len(assets), len(files), "\n  ".join(problems[:20])))
    return assets, seconds


def sepia_duplicates(library, assets, threshold=None):
    """Runs `sepia duplicates --json`; returns (groups as lists of file names, the whole answer, seconds)."""
    command = [SEPIA, "duplicates", "--library", library, "--json"]
    if threshold is not None:
        command += ["--threshold", str(threshold)]
    start = time.perf_counter()
    result = run(command)
    seconds = time.perf_counter() - start
    try:
        answer = json.loads(result.stdout)
    except ValueError:
        fail("`%s` printed no JSON object:\n%s" % (" ".join(command), result.stdout[:2000]))
    groups = []
    for group in answer.get("groups", []):
        names = []
        for asset in group.get("assets", []):
            name = assets.get(asset.get("id")) or asset.get("originalFilename") or asset.get("filename")
            if name is None:
                fail("a group names asset %s, which the import did not report" % asset.get("id"))
            names.append(name)
        groups.append(names)
    return groups, answer, seconds


def default_threshold():
    """The default of --threshold, as `sepia duplicates --help` states it, or None."""
    result = subprocess.run([SEPIA, "duplicates", "--help"], capture_output=True, text=True)
    match = re.search(r"--threshold[^\n]*(?:\n[^\n-][^\n]*)*?default:?\s*(\d+)", result.stdout + result.stderr)
    return int(match.group(1)) if match else None


# ImageHash.

def peer_python():
    """The venv's Python with ImageHash and its dependencies, pinned (made on first use)."""
    python = os.path.join(VENV, "bin", "python")
    if not os.path.exists(python):
        subprocess.run([sys.executable, "-m", "venv", VENV], check=True)
    probe = subprocess.run([python, "-c", "import imagehash, numpy, scipy, PIL, pywt; from importlib.metadata import "
                            "version as v; print(v('ImageHash'), numpy.__version__, scipy.__version__, "
                            "PIL.__version__, pywt.__version__)"], capture_output=True, text=True)
    if probe.returncode != 0 or probe.stdout.strip() != WANTED:
        pip = [python, "-m", "pip", "install", "-q", "--disable-pip-version-check"]
        subprocess.run(pip + PINNED, check=True)
        subprocess.run(pip + ["--no-deps", corpus.download(PEER[0], PEER[1], PEER[2], ARCHIVES)], check=True)
    return python


PEER_RUN = r"""
import json, sys, time
import imagehash
from PIL import Image
hashes = {}
start = time.perf_counter()
for path in sys.argv[1:]:
    with Image.open(path) as image:
        hashes[path] = str(imagehash.phash(image))
print(json.dumps({"hashes": hashes, "seconds": time.perf_counter() - start}))
"""


def peer_hashes(folder, files, work):
    """ImageHash's phash of every file, as integers, and the seconds hashing took (HEIC decoding aside)."""
    python = peer_python()
    decoded = os.path.join(work, "decoded")
    os.makedirs(decoded, exist_ok=True)
    readable = {}
    heics = [name for name in files if name.endswith(".heic")]
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        for name in heics:
            readable[name] = os.path.join(decoded, name[:-5] + ".png")
        list(pool.map(lambda name: run(["heif-convert", os.path.join(folder, name), readable[name]]), heics))
    for name in files:
        readable.setdefault(name, os.path.join(folder, name))
    script = os.path.join(work, "peer.py")
    with open(script, "w") as f:
        f.write(PEER_RUN)
    names = sorted(files)
    answer = json.loads(run([python, script] + [readable[name] for name in names]).stdout)
    return {name: int(answer["hashes"][readable[name]], 16) for name in names}, answer["seconds"]


def union_find_groups(hashes, threshold):
    """Groups (of two or more files) joined by single linkage: files within `threshold` bits are together."""
    names = sorted(hashes)
    parent = {name: name for name in names}

    def root(name):
        while parent[name] != name:
            parent[name] = parent[parent[name]]
            name = parent[name]
        return name

    for i, a in enumerate(names):
        for b in names[i + 1:]:
            if bin(hashes[a] ^ hashes[b]).count("1") <= threshold:
                parent[root(a)] = root(b)
    groups = {}
    for name in names:
        groups.setdefault(root(name), []).append(name)
    return [group for group in groups.values() if len(group) > 1]


def distance_summary(hashes, files):
    """The largest distance of each copy kind to its photo, and the smallest between different pictures."""
    largest = {}
    for name, (picture, kind) in files.items():
        if kind in ("original", "unrelated"):
            continue
        d = bin(hashes[name] ^ hashes[picture + "-original.jpg"]).count("1")
        largest[kind] = max(largest.get(kind, 0), d)
    pictures = {}
    for name, (picture, _) in files.items():
        pictures.setdefault(picture, []).append(hashes[name])
    keys = sorted(pictures)
    closest = 64
    for i, a in enumerate(keys):
        for b in keys[i + 1:]:
            closest = min(closest, min(bin(x ^ y).count("1") for x in pictures[a] for y in pictures[b]))
    return largest, closest


# Output.

def percent(value):
    return "%.1f %%" % (100 * value)


def by_kind(result):
    return ", ".join("%s %s" % (kind, percent(result["byKind"].get(kind, 0))) for kind, _ in COPIES)


def main():
    parser = argparse.ArgumentParser(description="Near-duplicate detection on a generated set, against ImageHash.")
    parser.add_argument("--photos", type=int, default=50, help="photos with copies (default 50)")
    parser.add_argument("--unrelated", type=int, default=50, help="photos without copies (default 50)")
    parser.add_argument("--thresholds", default="4-20", help="the thresholds swept, A-B (default 4-20)")
    parser.add_argument("--keep", metavar="DIR", help="make the set and the library in DIR (new or empty) and keep them")
    parser.add_argument("--markdown", metavar="FILE", help="also write the tables to FILE")
    parser.add_argument("--imagehash-only", action="store_true", help="only the set and ImageHash's figures (no sepia)")
    args = parser.parse_args()
    match = re.fullmatch(r"(\d+)-(\d+)", args.thresholds)
    if not match or int(match.group(1)) > int(match.group(2)) or int(match.group(2)) > 64:
        fail("--thresholds takes A-B, 0 ≤ A ≤ B ≤ 64")
    thresholds = list(range(int(match.group(1)), int(match.group(2)) + 1))
    if args.photos < 1 or args.unrelated < 0:
        fail("--photos must be at least 1, --unrelated at least 0")
    for tool, package in TOOLS.items():
        if shutil.which(tool) is None:
            fail("%s is missing: install Debian's %s (scripts/setup)" % (tool, package))
    if not args.imagehash_only:
        if not os.access(SEPIA, os.X_OK):
            fail("%s does not exist: build it (swift build) or set SEPIA_BIN" % SEPIA)
        probe = subprocess.run([SEPIA, "duplicates", "--help"], capture_output=True, text=True)
        if probe.returncode != 0:
            fail("%s has no `duplicates` command:\n%s" % (SEPIA, (probe.stderr or probe.stdout)[-1000:]))

    if args.keep:
        work = os.path.abspath(args.keep)
        if os.path.exists(work) and os.listdir(work):
            fail("--keep %s: the folder is not empty" % args.keep)
        os.makedirs(work, exist_ok=True)
    else:
        work = tempfile.mkdtemp(prefix="sepia-bench-duplicates.")
    try:
        folder = os.path.join(work, "photos")
        os.makedirs(folder)
        print("Making %d photos with %d copies each and %d unrelated photos…" % (args.photos, len(COPIES), args.unrelated),
              file=sys.stderr, flush=True)
        start = time.perf_counter()
        files = generate(folder, args.photos, args.unrelated)
        made = time.perf_counter() - start
        set_bytes = sum(os.path.getsize(os.path.join(folder, name)) for name in files)
        copies = args.photos * len(COPIES)

        print("Hashing with ImageHash…", file=sys.stderr, flush=True)
        hashes, peer_seconds = peer_hashes(folder, files, work)
        peer = {t: score(union_find_groups(hashes, t), files) for t in thresholds}
        largest, closest = distance_summary(hashes, files)

        sepia, facts, default = {}, {}, None
        if not args.imagehash_only:
            library = os.path.join(work, "library")
            print("Importing %d files with %s…" % (len(files), SEPIA), file=sys.stderr, flush=True)
            assets, import_seconds = sepia_import(library, folder, files)
            print("Finding duplicates…", file=sys.stderr, flush=True)
            groups, answer, first_seconds = sepia_duplicates(library, assets)
            default_score = score(groups, files)
            default = default_threshold()
            _, _, again_seconds = sepia_duplicates(library, assets)
            for t in thresholds:
                sepia[t] = score(sepia_duplicates(library, assets, t)[0], files)
            keeps_original = sum(1 for group in answer.get("groups", [])
                                 if assets.get(group.get("keep"), "").endswith("-original.jpg"))
            facts = {"import": import_seconds, "first": first_seconds, "again": again_seconds,
                     "hashed": answer.get("hashedAssets"), "waiting": answer.get("waitingAssets"),
                     "unreadable": answer.get("unreadableAssets", 0),
                     "keepsOriginal": keeps_original, "score": default_score}

        lines = []
        lines.append("Set: %d photos × %d copies (%s) + %d unrelated photos = %d files, %.1f MB, made in %.0f s."
                     % (args.photos, len(COPIES), ", ".join(kind for kind, _ in COPIES), args.unrelated, len(files),
                        set_bytes / 1e6, made))
        lines.append("")
        if facts:
            s = facts["score"]
            build = os.path.relpath(SEPIA, ROOT) if SEPIA.startswith(ROOT + os.sep) else SEPIA
            at = " (%d)" % default if default is not None else ""
            lines.append("| Sepia (%s), default threshold%s | |" % (build, at))
            lines.append("|---|---:|")
            lines.append("| `sepia import` of %d files | %.1f s |" % (len(files), facts["import"]))
            lines.append("| `sepia duplicates`, first run (hashes %s photos) | %.2f s |" % (facts["hashed"], facts["first"]))
            lines.append("| `sepia duplicates`, again (hashes kept) | %.2f s |" % facts["again"])
            lines.append("| recall (%d copies) | **%s** |" % (copies, percent(s["recall"])))
            lines.append("| recall by copy | %s |" % by_kind(s))
            lines.append("| false joins | **%d** |" % s["falseJoins"])
            lines.append("| groups (%d expected) | %d |" % (args.photos, s["groups"]))
            lines.append("| groups whose kept photo is the original | %d |" % facts["keepsOriginal"])
            lines.append("| photos waiting to be hashed, unreadable | %s, %s |" % (facts["waiting"], facts["unreadable"]))
            lines.append("")
        header = "| threshold |"
        rule = "|---:|"
        if sepia:
            header += " Sepia recall | Sepia false joins | Sepia groups |"
            rule += "---:|---:|---:|"
        header += " ImageHash recall | ImageHash false joins | ImageHash groups |"
        rule += "---:|---:|---:|"
        lines += [header, rule]
        for t in thresholds:
            row = "| %d |" % t
            if sepia:
                row += " %s | %d | %d |" % (percent(sepia[t]["recall"]), sepia[t]["falseJoins"], sepia[t]["groups"])
            row += " %s | %d | %d |" % (percent(peer[t]["recall"]), peer[t]["falseJoins"], peer[t]["groups"])
            lines.append(row)
        lines.append("")
        best_peer = best_threshold(peer)
        summary = []
        if sepia:
            best = best_threshold(sepia)
            summary.append("Sepia's best threshold: %s" % ("%d (recall %s)" % (best, percent(sepia[best]["recall"]))
                                                           if best is not None else "none without false joins"))
        summary.append("ImageHash's: %s" % ("%d (recall %s)" % (best_peer, percent(peer[best_peer]["recall"]))
                                            if best_peer is not None else "none without false joins"))
        lines.append("; ".join(summary) + ".")
        if sepia and best is not None:
            lines.append("Sepia's recall by copy at %d: %s." % (best, by_kind(sepia[best])))
        if best_peer is not None:
            lines.append("ImageHash's recall by copy at %d: %s." % (best_peer, by_kind(peer[best_peer])))
        lines.append("ImageHash pHash: %.1f s for %d files (HEIC decoded to PNG beforehand); largest distance of a copy "
                     "to its photo: %s; smallest distance between two different pictures: %d."
                     % (peer_seconds, len(files), ", ".join("%s %d" % (kind, largest[kind]) for kind, _ in COPIES),
                        closest))
        text = "\n".join(lines)
        print(text)
        if args.markdown:
            with open(args.markdown, "w") as f:
                f.write(text + "\n")
        if facts:
            s = facts["score"]
            if s["recall"] < RECALL_TARGET or s["falseJoins"] > 0:
                print("FAILED: at the default threshold, recall %s (at least %s wanted) and %d false joins (none wanted)"
                      % (percent(s["recall"]), percent(RECALL_TARGET), s["falseJoins"]), file=sys.stderr)
                return 1
        return 0
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())

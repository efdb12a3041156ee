#!/usr/bin/env python3
"""Times sepia against libvips, ImageMagick and Pillow on the same photos, in one interleaved run.

Every tool runs as a whole process (start-up, decode, operation, JPEG q85 encode, metadata stripped). The
commands of one operation run in turn, round after round, so a slow or busy moment of this shared machine hits
every tool alike; the table gives the median wall time, the median CPU time, the peak memory (max RSS) and
sepia's ratio to each peer.

    scripts/bench-peers PHOTOS_DIR [--runs N] [--only OP,OP] [--markdown FILE]
    scripts/bench-peers --targets SET_DIR [--runs N] [--markdown FILE]

--targets measures the engine targets (HEIC, AVIF, progressive JPEG, blur, a 100-photo mixed batch and an
import of it) on the set scripts/bench/bench_set.py builds, against libvips, and says which targets hold.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SEPIA = os.path.join(ROOT, ".build", "release", "sepia")
PILLOW = [sys.executable, os.path.join(HERE, "pillow_op.py")]


def operations(photo, out):
    """name -> list of (tool, argv). The first entry is sepia's; the second is the libvips reference."""
    mat = os.path.join(out, "sepia.mat")
    with open(mat, "w") as f:
        f.write("3 3\n0.393 0.769 0.189\n0.349 0.686 0.168\n0.272 0.534 0.131\n")
    j = lambda name: os.path.join(out, name)
    return {
        "thumb256": [
            ("sepia", [SEPIA, "thumbnail", photo, "--size", "256", "-o", j("s-thumb.jpg")]),
            ("vipsthumbnail", ["vipsthumbnail", "-s", "256", photo, "-o", j("v-thumb.jpg") + "[Q=85,strip]"]),
            ("imagemagick", ["convert", "-define", "jpeg:size=512x512", photo, "-thumbnail", "256x256", "-strip",
                             "-quality", "85", j("m-thumb.jpg")]),
            ("pillow", PILLOW + ["thumb256", photo, j("p-thumb.jpg")]),
        ],
        "resize1024": [
            ("sepia", [SEPIA, "thumbnail", photo, "--size", "1024", "-o", j("s-1024.jpg")]),
            ("vipsthumbnail", ["vipsthumbnail", "-s", "1024", photo, "-o", j("v-1024.jpg") + "[Q=85,strip]"]),
            ("imagemagick", ["convert", "-define", "jpeg:size=2048x2048", photo, "-resize", "1024x1024", "-strip",
                             "-quality", "85", j("m-1024.jpg")]),
            ("pillow", PILLOW + ["resize1024", photo, j("p-1024.jpg")]),
        ],
        "sepia": [
            ("sepia", [SEPIA, "apply", "CISepiaTone", photo, "-o", j("s-sepia.jpg")]),
            ("vips recomb", ["vips", "recomb", photo, j("v-sepia.jpg") + "[Q=85,strip]", mat]),
            ("imagemagick", ["convert", photo, "-color-matrix", "0.393 0.769 0.189 0.349 0.686 0.168 0.272 0.534 0.131",
                             "-strip", "-quality", "85", j("m-sepia.jpg")]),
            ("pillow", PILLOW + ["sepia", photo, j("p-sepia.jpg")]),
        ],
        "blur10": [
            ("sepia", [SEPIA, "apply", "CIGaussianBlur", "--param", "inputRadius=10", photo, "-o", j("s-blur.jpg")]),
            ("vips gaussblur", ["vips", "gaussblur", photo, j("v-blur.jpg") + "[Q=85,strip]", "10"]),
            ("pillow", PILLOW + ["blur10", photo, j("p-blur.jpg")]),
        ],
        # The LetsEat filter strip: ten 150 px thumbnails through every FilterData.plist entry, against the
        # cost of one plain thumbnail by libvips.
        "strip": [
            ("sepia", [SEPIA, "strip", photo, "--size", "150x150", "--out-dir", j("strip")]),
            ("vipsthumbnail", ["vipsthumbnail", "-s", "150", photo, "-o", j("v-150.jpg") + "[Q=85,strip]"]),
        ],
        # Fusion: three colour filters in one recipe against one of them; libvips runs the same three steps as
        # one pipeline for comparison.
        "fusion": [
            ("sepia", [SEPIA, "apply", "--recipe", j("three.json"), photo, "-o", j("s-three.jpg")]),
            ("sepia, one filter", [SEPIA, "apply", "CISepiaTone", photo, "-o", j("s-one.jpg")]),
            ("vips recomb", ["vips", "recomb", photo, j("v-sepia2.jpg") + "[Q=85,strip]", mat]),
        ],
    }


def import_operation(folder, out):
    """Import of a folder (thumbnails 256 px and previews 1440 px made at import, as Immich does) against
    vipsthumbnail making the same two sizes of every photo. Each run starts from an empty library."""
    photos = sorted(os.path.join(folder, f) for f in os.listdir(folder) if f.lower().endswith((".jpg", ".jpeg")))
    library = os.path.join(out, "library")
    vips = " && ".join(
        "vipsthumbnail -s %d %s -o '%s'" % (size, " ".join("'%s'" % p for p in photos),
                                            os.path.join(out, "%%s-%d.jpg[Q=82,strip]" % size))
        for size in (1440, 256))
    return len(photos), [
        ("sepia import", ["sh", "-c", "rm -rf '%s' && '%s' import '%s' --library '%s' >/dev/null" % (library, SEPIA, folder, library)]),
        ("vipsthumbnail 1440 + 256", ["sh", "-c", vips]),
    ]


def target_operations(folder, out):
    """(label, target wall ratio, target CPU ratio, target RSS ratio, runs, [sepia command, libvips command])."""
    f = lambda name: os.path.join(folder, name)
    j = lambda name: os.path.join(out, name)
    mixed = sorted(os.path.join(folder, "mixed", n) for n in os.listdir(os.path.join(folder, "mixed")))
    thumbs = lambda size, image, tag: [
        ("sepia", [SEPIA, "thumbnail", f(image), "--size", str(size), "-o", j("s-%s.jpg" % tag)]),
        ("vipsthumbnail", ["vipsthumbnail", "-s", str(size), f(image), "-o", j("v-%s.jpg" % tag) + "[Q=85,strip]"]),
    ]
    for d in ("s-mixed", "v-mixed"):
        os.makedirs(j(d), exist_ok=True)
    library = j("library")
    # Rows of a few tens of milliseconds take this many rounds whatever --runs says: over three rounds their
    # medians moved by 2 ms, a tenth of the row, from one run of the script to the next.
    quick = 15
    vips_import = " && ".join(
        "vipsthumbnail -s %d %s -o '%s'" % (size, " ".join("'%s'" % p for p in mixed), j("v-mixed/%%s-%d.jpg[Q=82,strip]" % size))
        for size in (1440, 256))
    return [
        ("100 mixed photos to 256 px, one process each side", 0.6, 0.8, None, 3, [
            ("sepia", [SEPIA, "thumbnail", *mixed, "--size", "256", "--out-dir", j("s-mixed")]),
            ("vipsthumbnail", ["vipsthumbnail", "-s", "256", *mixed, "-o", j("v-mixed/%s.jpg") + "[Q=85,strip]"]),
        ]),
        ("12 MP iPhone HEIC to 256 px, embedded thumbnail", 0.3, None, None, quick, thumbs(256, "iphone-12mp.heic", "ih")),
        ("12 MP HEIC to 256 px without one (grid of 512 px tiles, Display P3, irot)", 0.6, None, None, None,
         thumbs(256, "iphone-12mp-nothumb.heic", "nt")),
        ("12 MP iPhone HEIC to 1440 px", 0.7, None, None, None, thumbs(1440, "iphone-12mp.heic", "i1440")),
        ("24 MP progressive JPEG to 256 px", 0.6, None, None, quick, thumbs(256, "spices-24mp-progressive.jpg", "pj")),
        ("24 MP AVIF to 256 px", 0.8, None, 1.0, None, thumbs(256, "spices-24mp.avif", "av")),
        ("CIGaussianBlur σ 10, 24 MP progressive JPEG", 0.6, None, 1.0, None, [
            ("sepia", [SEPIA, "apply", "CIGaussianBlur", "--param", "inputRadius=10", f("spices-24mp-progressive.jpg"),
                       "-o", j("s-blur.jpg")]),
            ("vips gaussblur", ["vips", "gaussblur", f("spices-24mp-progressive.jpg"), j("v-blur.jpg") + "[Q=85,strip]", "10"]),
        ]),
        # The same rows on the other bench photo and the HEIC variants of both (single HEVC images with a
        # 320 px thumbnail, as heif-enc writes them), which the "done when" names too.
        ("12 MP progressive JPEG (bus) to 256 px", 0.6, None, None, quick, thumbs(256, "mixed/14-bus-progressive.jpg", "bp")),
        ("12 MP HEIC (bus, heif-enc) to 256 px, embedded thumbnail", 0.3, None, None, quick,
         thumbs(256, "mixed/14-bus-heic.heic", "bh")),
        ("12 MP HEIC (bus, heif-enc) to 1440 px", 0.7, None, None, None, thumbs(1440, "mixed/14-bus-heic.heic", "bh1440")),
        ("24 MP HEIC (spices, heif-enc) to 256 px, embedded thumbnail", 0.3, None, None, quick,
         thumbs(256, "mixed/13-spices-heic.heic", "sh")),
        ("24 MP HEIC (spices, heif-enc) to 1440 px", 0.7, None, None, None, thumbs(1440, "mixed/13-spices-heic.heic", "sh1440")),
        ("CIGaussianBlur σ 10, 24 MP baseline JPEG", 0.6, None, 1.0, None, [
            ("sepia", [SEPIA, "apply", "CIGaussianBlur", "--param", "inputRadius=10", f("spices-24mp.jpg"), "-o", j("s-blur-b.jpg")]),
            ("vips gaussblur", ["vips", "gaussblur", f("spices-24mp.jpg"), j("v-blur-b.jpg") + "[Q=85,strip]", "10"]),
        ]),
        ("CIGaussianBlur σ 10, 12 MP progressive JPEG (bus)", 0.6, None, 1.0, None, [
            ("sepia", [SEPIA, "apply", "CIGaussianBlur", "--param", "inputRadius=10", f("mixed/14-bus-progressive.jpg"),
                       "-o", j("s-blur-bp.jpg")]),
            ("vips gaussblur", ["vips", "gaussblur", f("mixed/14-bus-progressive.jpg"), j("v-blur-bp.jpg") + "[Q=85,strip]", "10"]),
        ]),
        ("sepia import of the 100 mixed photos (1440 and 256 px)", 0.6, None, None, 3, [
            ("sepia import", ["sh", "-c", "rm -rf '%s' && '%s' import '%s' --library '%s' >/dev/null" % (
                library, SEPIA, os.path.join(folder, "mixed"), library)]),
            ("vipsthumbnail 1440 + 256", ["sh", "-c", vips_import]),
        ]),
    ]


def write_recipe(out):
    with open(os.path.join(out, "three.json"), "w") as f:
        f.write('{"formatIdentifier": "org.sepia.recipe", "formatVersion": "1", "steps": ['
                '{"filter": "CISepiaTone", "parameters": {"inputIntensity": 0.8}}, '
                '{"filter": "CIExposureAdjust", "parameters": {"inputEV": 0.3}}, '
                '{"filter": "CIColorControls", "parameters": {"inputSaturation": 1.2, "inputContrast": 1.1}}]}')


def run_one(argv):
    # os.wait4 gives the child's own rusage (CPU and max RSS) without a wrapper process. posix_spawn starts the
    # child without copying this Python process first (glibc uses vfork): a fork was counted in every tool's
    # wall time, 3.4 ms for /bin/true from a 50 MB interpreter against 0.55 ms spawned.
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        start = time.perf_counter()
        pid = os.posix_spawnp(argv[0], argv, os.environ,
                              file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 1), (os.POSIX_SPAWN_DUP2, devnull, 2)])
        _, status, usage = os.wait4(pid, 0)
        wall = time.perf_counter() - start
    finally:
        os.close(devnull)
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError("%s failed with %d" % (" ".join(argv), os.waitstatus_to_exitcode(status)))
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("photos", help="folder with the benchmark photos (spices-24mp.jpg, bus-12mp.jpg), or with "
                        "--targets the folder scripts/bench/bench_set.py made")
    parser.add_argument("--targets", action="store_true", help="measure the engine targets on a bench set")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--only", default="")
    parser.add_argument("--images", default="spices-24mp.jpg")
    parser.add_argument("--markdown", help="also write the table to this file")
    parser.add_argument("--import-folder", default=os.path.join(ROOT, ".build", "testdata", "photos"),
                        help="the photos the import operation imports (default: the corpus photos)")
    args = parser.parse_args()
    if not os.access(SEPIA, os.X_OK):
        raise SystemExit("build sepia first: swift build -c release --static-swift-stdlib")
    lines = []
    def emit(line=""):
        print(line, flush=True)
        lines.append(line)
    emit("| image | operation | tool | wall s (median) | CPU s | max RSS MiB | sepia ÷ tool (wall) | sepia ÷ tool (RSS) |")
    emit("|---|---|---|---|---|---|---|---|")
    out = tempfile.mkdtemp(prefix="sepia-bench-")
    write_recipe(out)
    def compare(label, name, commands, runs=None):
        """Runs the commands in turn, round after round; emits one row per tool with ratios to the first, and
        returns the medians (wall, CPU, RSS) by tool."""
        samples = {tool: [] for tool, _ in commands}
        for tool, argv in commands:  # warm-up: file cache and binaries
            run_one(argv)
        for _ in range(runs or args.runs):
            for tool, argv in commands:
                samples[tool].append(run_one(argv))
        medians = {tool: tuple(statistics.median(x[i] for x in v) for i in range(3)) for tool, v in samples.items()}
        first = commands[0][0]
        for tool, _ in commands:
            wall, cpu, rss = medians[tool]
            ratio = "" if tool == first else "%.2f" % (medians[first][0] / wall)
            rss_ratio = "" if tool == first else "%.2f" % (medians[first][2] / rss)
            emit("| %s | %s | %s | %.3f | %.3f | %.0f | %s | %s |" % (label(wall), name, tool, wall, cpu, rss, ratio, rss_ratio))
        return medians

    if args.targets:
        try:
            verdicts = []
            for label, wall_t, cpu_t, rss_t, runs, commands in target_operations(os.path.abspath(args.photos), out):
                medians = compare(lambda wall: label, "target", commands, runs)
                (s_wall, s_cpu, s_rss), (p_wall, p_cpu, p_rss) = medians[commands[0][0]], medians[commands[1][0]]
                checks = [("wall", s_wall / p_wall, wall_t), ("CPU", s_cpu / p_cpu, cpu_t), ("memory", s_rss / p_rss, rss_t)]
                verdicts.append((label, commands[1][0], [(k, r, t) for k, r, t in checks if t is not None]))
        finally:
            shutil.rmtree(out, ignore_errors=True)
        emit()
        emit("| target | against | sepia ÷ peer | target | holds |")
        emit("|---|---|---|---|---|")
        for label, peer, checks in verdicts:
            for kind, ratio, target in checks:
                emit("| %s | %s | %s %.2f× | ≤ %.1f× | %s |" % (label, peer, kind, ratio, target, "yes" if ratio <= target else "**no**"))
        if args.markdown:
            with open(args.markdown, "w") as f:
                f.write("\n".join(lines) + "\n")
        return

    try:
        for image in args.images.split(","):
            photo = os.path.join(args.photos, image)
            if not os.path.exists(photo):
                raise SystemExit("missing %s" % photo)
            for name, commands in operations(photo, out).items():
                if not args.only or name in args.only.split(","):
                    compare(lambda wall: image, name, commands)
        if not args.only or "import" in args.only.split(","):
            count, commands = import_operation(args.import_folder, out)
            compare(lambda wall: "%d photos (%.1f/s)" % (count, count / wall), "import", commands)
    finally:
        shutil.rmtree(out, ignore_errors=True)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()

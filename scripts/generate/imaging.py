"""Small, dependency-free image writers for the test corpus (python3 standard library only).

Everything here is deterministic: the same arguments give the same bytes, so the files made with it can be
pinned by SHA-256 in the corpus manifest.
"""
import math
import struct
import zlib

# --- PPM / PGM -------------------------------------------------------------------------------------------


def read_pnm(data):
    """(width, height, channels, pixels) of a binary 8-bit PGM (P5) or PPM (P6)."""
    fields, i = [], 2
    magic = data[:2]
    assert magic in (b"P5", b"P6"), "only binary 8-bit PGM/PPM"
    while len(fields) < 3:
        while data[i:i + 1].isspace():
            i += 1
        if data[i:i + 1] == b"#":
            while data[i:i + 1] != b"\n":
                i += 1
            continue
        j = i
        while not data[j:j + 1].isspace():
            j += 1
        fields.append(int(data[i:j]))
        i = j
    i += 1
    width, height, maxval = fields
    assert maxval == 255
    channels = 1 if magic == b"P5" else 3
    return width, height, channels, data[i:i + width * height * channels]


def write_pnm(width, height, channels, pixels):
    return (b"P5" if channels == 1 else b"P6") + b"\n%d %d\n255\n" % (width, height) + bytes(pixels)


def crop(width, height, channels, pixels, x, y, w, h):
    rows = [pixels[((y + r) * width + x) * channels:((y + r) * width + x + w) * channels] for r in range(h)]
    return w, h, channels, b"".join(rows)


def to_grey(width, height, channels, pixels):
    if channels == 1:
        return width, height, 1, pixels
    out = bytearray(width * height)
    for i in range(width * height):
        r, g, b = pixels[3 * i:3 * i + 3]
        out[i] = (299 * r + 587 * g + 114 * b + 500) // 1000
    return width, height, 1, bytes(out)


# --- A synthetic scene -----------------------------------------------------------------------------------


def scene(width, height):
    """An RGB picture (bytes) that differs under every flip and turn: a sky graded from the top, a sun near
    the top left, hills lower on the right than on the left, a red house near the bottom right and a dark tree
    on the left."""
    px = bytearray(width * height * 3)
    horizon = int(height * 0.62)

    def put_row_span(y, x0, x1, colour):
        x0, x1 = max(0, x0), min(width, x1)
        if x1 > x0:
            px[(y * width + x0) * 3:(y * width + x1) * 3] = bytes(colour) * (x1 - x0)

    for y in range(height):
        t = y / max(1, height - 1)
        sky = (int(40 + 120 * t), int(90 + 110 * t), int(200 + 40 * t))
        put_row_span(y, 0, width, sky)
    # Ground: its edge runs from high on the left (a) to low on the right (b).
    a, b = horizon - int(height * 0.10), horizon + int(height * 0.08)
    for y in range(a, height):
        shade = 25 * ((y // max(1, height // 24)) % 2)
        end = width if y >= b else int(width * (y - a) / (b - a))
        put_row_span(y, 0, end, (60 + shade, 130 + shade, 55))
    # Sun near the top left.
    cx, cy, r = int(width * 0.18), int(height * 0.2), int(min(width, height) * 0.09)
    for y in range(max(0, cy - r), min(height, cy + r + 1)):
        dx = int(math.sqrt(max(0, r * r - (y - cy) ** 2)))
        put_row_span(y, cx - dx, cx + dx + 1, (250, 220, 80))
    # A house near the bottom right: red wall, dark door on its left side, triangular roof.
    hx0, hx1 = int(width * 0.62), int(width * 0.86)
    hy0, hy1 = int(height * 0.66), int(height * 0.9)
    for y in range(hy0, hy1):
        put_row_span(y, hx0, hx1, (190, 40, 35))
    for y in range(int(height * 0.76), hy1):
        put_row_span(y, hx0 + int(width * 0.03), hx0 + int(width * 0.07), (60, 35, 20))
    roof = int(height * 0.12)
    for k in range(roof):
        y = hy0 - roof + k
        half = int((hx1 - hx0) / 2 * (k + 1) / roof)
        mid = (hx0 + hx1) // 2
        put_row_span(y, mid - half, mid + half, (90, 60, 50))
    # A tree on the left: trunk and a crown.
    tx = int(width * 0.12)
    for y in range(int(height * 0.55), int(height * 0.85)):
        put_row_span(y, tx - int(width * 0.012), tx + int(width * 0.012), (80, 50, 30))
    cr = int(min(width, height) * 0.1)
    cy = int(height * 0.5)
    for y in range(max(0, cy - cr), min(height, cy + cr + 1)):
        dx = int(math.sqrt(max(0, cr * cr - (y - cy) ** 2)))
        put_row_span(y, tx - dx, tx + dx + 1, (25, 80, 30))
    # Diagonal stripes on the lowest band, so that flips show in fine detail too.
    for y in range(int(height * 0.92), height):
        for x in range(0, width):
            if ((x + 2 * y) // max(2, width // 60)) % 2 == 0:
                px[(y * width + x) * 3:(y * width + x) * 3 + 3] = b"\xc8\xb4\x64"
    return bytes(px)


# --- PNG ---------------------------------------------------------------------------------------------------


def chunk(kind, payload):
    return struct.pack(">I", len(payload)) + kind + payload + struct.pack(">I", zlib.crc32(kind + payload) & 0xFFFFFFFF)


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}
ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]


def pack_row(samples, depth):
    """Samples (ints) of one row packed at `depth` bits (1, 2, 4, 8 or 16)."""
    if depth == 8:
        return bytes(samples)
    if depth == 16:
        return b"".join(struct.pack(">H", s) for s in samples)
    out = bytearray()
    per = 8 // depth
    for i in range(0, len(samples), per):
        byte = 0
        group = samples[i:i + per]
        for k, s in enumerate(group):
            byte |= s << (8 - depth * (k + 1))
        out.append(byte)
    return bytes(out)


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def filter_row(kind, row, previous, bpp):
    out = bytearray(len(row))
    for i, x in enumerate(row):
        a = row[i - bpp] if i >= bpp else 0
        b = previous[i] if previous else 0
        c = previous[i - bpp] if previous and i >= bpp else 0
        predictor = (0, a, b, (a + b) // 2, paeth(a, b, c))[kind]
        out[i] = (x - predictor) & 0xFF
    return bytes([kind]) + bytes(out)


def png(width, height, colour_type, depth, pixel, interlace=False, filters=(0,), level=9, before_plte=(),
        palette=None, after_plte=(), idat_chunks=1, after_idat=(), raw_ihdr=None):
    """A PNG whose sample values come from pixel(x, y) -> tuple of samples. `filters` are used in turn, row by
    row; the chunk lists are (type, payload) pairs placed as named."""
    channels = CHANNELS[colour_type]
    bpp = max(1, channels * depth // 8)
    raw = bytearray()
    passes = ADAM7 if interlace else [(0, 0, 1, 1)]
    n = 0
    for x0, y0, dx, dy in passes:
        xs = range(x0, width, dx)
        ys = range(y0, height, dy)
        if not xs or not ys:
            continue
        previous = None
        for y in ys:
            samples = []
            for x in xs:
                samples.extend(pixel(x, y))
            row = pack_row(samples, depth)
            line = filter_row(filters[n % len(filters)], row, previous, bpp)
            n += 1
            previous = row
            raw += line
    data = zlib.compress(bytes(raw), level)
    ihdr = raw_ihdr or struct.pack(">IIBBBBB", width, height, depth, colour_type, 0, 0, 1 if interlace else 0)
    out = PNG_SIGNATURE + chunk(b"IHDR", ihdr)
    for kind, payload in before_plte:
        out += chunk(kind, payload)
    if palette is not None:
        out += chunk(b"PLTE", b"".join(bytes(c) for c in palette))
    for kind, payload in after_plte:
        out += chunk(kind, payload)
    size = max(1, -(-len(data) // idat_chunks))
    for i in range(0, len(data), size):
        out += chunk(b"IDAT", data[i:i + size])
    for kind, payload in after_idat:
        out += chunk(kind, payload)
    return out + chunk(b"IEND", b"")


# --- JPEG segments ---------------------------------------------------------------------------------------


def jpeg_segments(data):
    """[(marker, payload)] of the segments before the first SOS, and the rest of the file from that SOS."""
    assert data[:2] == b"\xff\xd8", "not a JPEG"
    i, segments = 2, []
    while True:
        assert data[i] == 0xFF
        marker = data[i + 1]
        if marker == 0xDA:
            return segments, data[i:]
        length = struct.unpack(">H", data[i + 2:i + 4])[0]
        segments.append((marker, data[i + 4:i + 2 + length]))
        i += 2 + length


def jpeg_join(segments, rest):
    out = b"\xff\xd8"
    for marker, payload in segments:
        out += bytes([0xFF, marker]) + struct.pack(">H", len(payload) + 2) + payload
    return out + rest


def is_exif(marker, payload):
    return marker == 0xE1 and payload.startswith(b"Exif\0")


def is_xmp(marker, payload):
    return marker == 0xE1 and payload.startswith(b"http://ns.adobe.com/xap/1.0/\0")


def is_icc(marker, payload):
    return marker == 0xE2 and payload.startswith(b"ICC_PROFILE\0")


def icc_segments(profile, chunk_size=65519):
    parts = [profile[i:i + chunk_size] for i in range(0, len(profile), chunk_size)]
    return [(0xE2, b"ICC_PROFILE\0" + bytes([n + 1, len(parts)]) + part) for n, part in enumerate(parts)]


# --- EXIF (TIFF) -------------------------------------------------------------------------------------------

BYTE, ASCII, SHORT, LONG, RATIONAL, UNDEFINED = 1, 2, 3, 4, 5, 7


def tiff(ifd0, exif=None, gps=None, order="MM"):
    """A TIFF structure of IFD0 with optional EXIF and GPS sub-IFDs. Each IFD is a list of (tag, type, value):
    value is bytes/str for ASCII/UNDEFINED, an int or list of ints for SHORT/LONG, a list of (num, den) for
    RATIONAL."""
    e = ">" if order == "MM" else "<"
    ifd0 = list(ifd0)
    if exif is not None:
        ifd0.append((0x8769, LONG, 0))
    if gps is not None:
        ifd0.append((0x8825, LONG, 0))

    def encode(kind, value):
        if kind == ASCII:
            raw = value.encode("latin-1") if isinstance(value, str) else value
            return raw + b"\0", len(raw) + 1
        if kind == UNDEFINED:
            return value, len(value)
        values = value if isinstance(value, (list, tuple)) else [value]
        if kind == BYTE:
            return bytes(values), len(values)
        values = value if isinstance(value, (list, tuple)) else [value]
        if kind == SHORT:
            return b"".join(struct.pack(e + "H", v) for v in values), len(values)
        if kind == LONG:
            return b"".join(struct.pack(e + "I", v) for v in values), len(values)
        if kind == RATIONAL:
            return b"".join(struct.pack(e + "II", n, d) for n, d in values), len(values)
        raise ValueError(kind)

    def layout(entries, start, pointers):
        entries = sorted(entries, key=lambda t: t[0])
        size = 2 + 12 * len(entries) + 4
        data_at = start + size
        table, extra = b"", b""
        for tag, kind, value in entries:
            if tag in pointers:
                value = pointers[tag]
            raw, count = encode(kind, value)
            if len(raw) <= 4:
                field = raw.ljust(4, b"\0")
            else:
                field = struct.pack(e + "I", data_at + len(extra))
                extra += raw + (b"\0" if len(raw) % 2 else b"")
            table += struct.pack(e + "HHI", tag, kind, count) + field
        return struct.pack(e + "H", len(entries)) + table + struct.pack(e + "I", 0) + extra

    header = (b"MM\0*" if order == "MM" else b"II*\0") + struct.pack(e + "I", 8)
    # Two passes: the sub-IFDs' offsets depend on IFD0's size, which does not depend on their values.
    probe = layout(ifd0, 8, {0x8769: 0, 0x8825: 0})
    offset = 8 + len(probe)
    pointers = {}
    blocks = []
    if exif is not None:
        pointers[0x8769] = offset
        block = layout(exif, offset, {})
        blocks.append(block)
        offset += len(block)
    if gps is not None:
        pointers[0x8825] = offset
        block = layout(gps, offset, {})
        blocks.append(block)
        offset += len(block)
    return header + layout(ifd0, 8, pointers) + b"".join(blocks)


def degrees(value):
    """A latitude or longitude as three EXIF rationals (degrees, minutes, seconds)."""
    value = abs(value)
    d = int(value)
    m = int((value - d) * 60)
    s = round(((value - d) * 60 - m) * 60 * 10000)
    return [(d, 1), (m, 1), (s, 10000)]


def exif_segment(payload):
    return (0xE1, b"Exif\0\0" + payload)


def xmp_segment(properties):
    """An XMP packet with one rdf:Description carrying `properties` (a dict of qualified name -> text)."""
    namespaces = {
        "xmp": "http://ns.adobe.com/xap/1.0/",
        "photoshop": "http://ns.adobe.com/photoshop/1.0/",
        "exif": "http://ns.adobe.com/exif/1.0/",
        "tiff": "http://ns.adobe.com/tiff/1.0/",
    }
    used = sorted({name.split(":")[0] for name in properties})
    attributes = " ".join('xmlns:%s="%s"' % (p, namespaces[p]) for p in used)
    body = "".join("<%s>%s</%s>" % (k, v, k) for k, v in properties.items())
    xml = ('<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>'
           '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
           '<rdf:Description rdf:about="" %s>%s</rdf:Description></rdf:RDF></x:xmpmeta>'
           '<?xpacket end="w"?>' % (attributes, body))
    return (0xE1, b"http://ns.adobe.com/xap/1.0/\0" + xml.encode("utf-8"))


# --- ICC profiles ------------------------------------------------------------------------------------------

D50 = (0.9642, 1.0, 0.8249)


def _matrix_inverse(m):
    a, b, c = m[0]
    d, e, f = m[1]
    g, h, i = m[2]
    det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
    return [[(e * i - f * h) / det, (c * h - b * i) / det, (b * f - c * e) / det],
            [(f * g - d * i) / det, (a * i - c * g) / det, (c * d - a * f) / det],
            [(d * h - e * g) / det, (b * g - a * h) / det, (a * e - b * d) / det]]


def _mul(m, n):
    return [[sum(m[r][k] * n[k][c] for k in range(3)) for c in range(3)] for r in range(3)]


def _xyz(x, y):
    return [x / y, 1.0, (1 - x - y) / y]


def rgb_to_xyz_d50(primaries, white):
    """The RGB to XYZ matrix of an RGB space, adapted from its white point to D50 with the Bradford method."""
    cols = [_xyz(*p) for p in primaries]
    m = [[cols[c][r] for c in range(3)] for r in range(3)]
    w = _xyz(*white)
    s = [sum(_matrix_inverse(m)[r][k] * w[k] for k in range(3)) for r in range(3)]
    m = [[m[r][c] * s[c] for c in range(3)] for r in range(3)]
    bradford = [[0.8951, 0.2664, -0.1614], [-0.7502, 1.7135, 0.0367], [0.0389, -0.0685, 1.0296]]
    src = [sum(bradford[r][k] * w[k] for k in range(3)) for r in range(3)]
    dst = [sum(bradford[r][k] * D50[k] for k in range(3)) for r in range(3)]
    scale = [[dst[r] / src[r] if r == c else 0 for c in range(3)] for r in range(3)]
    adapt = _mul(_matrix_inverse(bradford), _mul(scale, bradford))
    return _mul(adapt, m)


def s15(v):
    return struct.pack(">i", int(round(v * 65536)))


def icc_profile(description, primaries, white, curve):
    """A display-class ICC v2 matrix/TRC profile. curve: ('gamma', g) or ('srgb',) (a 1024-entry table of the
    sRGB transfer function)."""
    matrix = rgb_to_xyz_d50(primaries, white)

    def tag_xyz(x, y, z):
        return b"XYZ \0\0\0\0" + s15(x) + s15(y) + s15(z)

    if curve[0] == "gamma":
        trc = b"curv\0\0\0\0" + struct.pack(">I", 1) + struct.pack(">H", int(round(curve[1] * 256)))
    else:
        table = []
        for i in range(1024):
            v = i / 1023
            lin = v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4
            table.append(int(round(lin * 65535)))
        trc = b"curv\0\0\0\0" + struct.pack(">I", len(table)) + b"".join(struct.pack(">H", t) for t in table)
    text = description.encode("ascii")
    desc = (b"desc\0\0\0\0" + struct.pack(">I", len(text) + 1) + text + b"\0" + b"\0" * 8 + b"\0" * 2 + b"\0" * 67)
    cprt = b"text\0\0\0\0" + b"No copyright, use freely\0"
    tags = [
        (b"desc", desc), (b"cprt", cprt), (b"wtpt", tag_xyz(*D50)),
        (b"rXYZ", tag_xyz(matrix[0][0], matrix[1][0], matrix[2][0])),
        (b"gXYZ", tag_xyz(matrix[0][1], matrix[1][1], matrix[2][1])),
        (b"bXYZ", tag_xyz(matrix[0][2], matrix[1][2], matrix[2][2])),
        (b"rTRC", trc), (b"gTRC", trc), (b"bTRC", trc),
    ]
    offset = 128 + 4 + 12 * len(tags)
    table, body, placed = b"", b"", {}
    for sig, data in tags:
        if data in placed:
            table += sig + struct.pack(">II", placed[data], len(data))
            continue
        while (offset + len(body)) % 4:
            body += b"\0"
        placed[data] = offset + len(body)
        table += sig + struct.pack(">II", offset + len(body), len(data))
        body += data
    while len(body) % 4:
        body += b"\0"
    size = offset + len(body)
    header = (struct.pack(">I", size) + b"\0\0\0\0" + bytes([2, 0x40, 0, 0]) + b"mntr" + b"RGB " + b"XYZ "
              + struct.pack(">6H", 2024, 1, 1, 0, 0, 0) + b"acsp" + b"\0" * 4 + struct.pack(">I", 0) + b"\0" * 4
              + b"\0" * 4 + b"\0" * 8 + struct.pack(">I", 0) + s15(D50[0]) + s15(D50[1]) + s15(D50[2])
              + b"\0" * 4 + b"\0" * 16 + b"\0" * 28)
    assert len(header) == 128
    return header + struct.pack(">I", len(tags)) + table + body


SRGB = ("sRGB (generated)", [(0.64, 0.33), (0.30, 0.60), (0.15, 0.06)], (0.3127, 0.3290), ("srgb",))
DISPLAY_P3 = ("Display P3 (generated)", [(0.680, 0.320), (0.265, 0.690), (0.150, 0.060)], (0.3127, 0.3290), ("srgb",))
REC2020 = ("Rec. 2020 gamma 2.2 (generated)", [(0.708, 0.292), (0.170, 0.797), (0.131, 0.046)], (0.3127, 0.3290),
           ("gamma", 2.2))
ADOBE_RGB = ("Adobe RGB compatible (generated)", [(0.64, 0.33), (0.21, 0.71), (0.15, 0.06)], (0.3127, 0.3290),
             ("gamma", 563 / 256))

# --- Lossless JPEG (ITU T.81 process 14) ---------------------------------------------------------------------


def lossless_jpeg(width, height, grey, predictor=1):
    """An 8-bit greyscale lossless JPEG (SOF3), Huffman-coded with a table giving every difference category
    a 5-bit code."""
    counts = [0] * 16
    counts[4] = 17  # 17 codes of length 5
    symbols = bytes(range(17))
    dht = bytes([0x00]) + bytes(counts) + symbols
    codes = {s: (s, 5) for s in range(17)}
    bits = []

    def emit(value, length):
        for k in range(length - 1, -1, -1):
            bits.append((value >> k) & 1)

    for y in range(height):
        for x in range(width):
            px = grey[y * width + x]
            if x == 0 and y == 0:
                pred = 128
            elif y == 0:
                pred = grey[x - 1]
            elif x == 0:
                pred = grey[(y - 1) * width]
            else:
                a, b, c = grey[y * width + x - 1], grey[(y - 1) * width + x], grey[(y - 1) * width + x - 1]
                pred = (a, b, c, a + b - c, a + ((b - c) >> 1), b + ((a - c) >> 1), (a + b) // 2)[predictor - 1]
            diff = ((px - pred + 32768) % 65536) - 32768
            category = 0 if diff == 0 else abs(diff).bit_length()
            emit(*codes[category])
            if category and category < 16:
                emit(diff if diff > 0 else diff - 1 + (1 << category), category)
    while len(bits) % 8:
        bits.append(1)
    entropy = bytearray()
    for i in range(0, len(bits), 8):
        byte = int("".join(map(str, bits[i:i + 8])), 2)
        entropy.append(byte)
        if byte == 0xFF:
            entropy.append(0)
    sof = struct.pack(">BHHB", 8, height, width, 1) + bytes([1, 0x11, 0])
    sos = bytes([1, 1, 0x00, predictor, 0, 0])
    return jpeg_join([(0xC3, sof), (0xC4, dht)], b"\xff\xda" + struct.pack(">H", len(sos) + 2) + sos
                     + bytes(entropy) + b"\xff\xd9")

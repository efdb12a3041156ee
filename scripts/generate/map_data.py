"""Installs the Map view's base map where `sepia serve` finds it: the countries of Natural Earth (public domain),
at 1:110 million, as one GeoJSON file of simplified shapes.

The shapes are taken from the copy of Natural Earth's `ne_110m_admin_0_countries` that the geopandas 0.14.4
source distribution on PyPI carries (geopandas/datasets/naturalearth_lowres), pinned by the archive's SHA-256.
The shapefile is read here (polygons and the dBASE table of names, no GIS library) and written with coordinates
rounded to 0.01° and points that round to the one before dropped: about 180 countries in some 300 KB. The folder
is SEPIA_MAP_DATA, or $XDG_DATA_HOME/sepia/map (~/.local/share/sepia/map); --dest names another. Quick when the
file is there.

    scripts/map-data [--dest DIR] [--quiet]
"""

import argparse
import json
import os
import struct
import sys
import tarfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import corpus  # noqa: E402

ARCHIVE = ("geopandas", "geopandas-0.14.4.tar.gz", "56765be9d58e2c743078085db3bd07dc6be7719f0dbe1dfdc1d705cb80be7c25")
MEMBER = "geopandas-0.14.4/geopandas/datasets/naturalearth_lowres/naturalearth_lowres"
# What the written file holds; a different one is written again.
VERSION = "natural-earth-110m-countries/1"


def default_dest():
    named = os.environ.get("SEPIA_MAP_DATA")
    if named:
        return named
    data = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(data, "sepia", "map")


def read_dbf(data):
    """The rows of a dBASE III table, as dictionaries of stripped text."""
    count, header_length, record_length = struct.unpack("<xxxxIHH", data[:12])
    fields = []
    offset = 32
    while data[offset] != 0x0D:
        name = data[offset:offset + 11].split(b"\0")[0].decode("ascii")
        fields.append((name, data[offset + 16]))
        offset += 32
    rows = []
    for index in range(count):
        start = header_length + index * record_length + 1
        row = {}
        for name, length in fields:
            row[name] = data[start:start + length].decode("utf-8", "replace").strip()
            start += length
        rows.append(row)
    return rows


def read_shp(data):
    """Each record's rings (lists of (x, y)), for a polygon shapefile."""
    shapes = []
    offset = 100
    while offset < len(data):
        _, length = struct.unpack(">ii", data[offset:offset + 8])
        content = data[offset + 8:offset + 8 + length * 2]
        offset += 8 + length * 2
        kind = struct.unpack("<i", content[:4])[0]
        if kind == 0:
            shapes.append([])
            continue
        if kind != 5:
            raise SystemExit("error: the shapefile holds shapes of type %d, not polygons" % kind)
        parts_count, points_count = struct.unpack("<ii", content[36:44])
        parts = list(struct.unpack("<%di" % parts_count, content[44:44 + 4 * parts_count]))
        points_at = 44 + 4 * parts_count
        points = [struct.unpack("<dd", content[points_at + 16 * i:points_at + 16 * i + 16]) for i in range(points_count)]
        rings = [points[start:end] for start, end in zip(parts, parts[1:] + [points_count])]
        shapes.append(rings)
    return shapes


def simplified(ring):
    out = []
    for x, y in ring:
        point = [round(x, 2), round(y, 2)]
        if not out or out[-1] != point:
            out.append(point)
    if len(out) >= 2 and out[0] != out[-1]:
        out.append(out[0])
    return out if len(out) >= 4 else None


def signed_area(ring):
    return sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(ring, ring[1:])) / 2


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dest", default=default_dest())
    parser.add_argument("--archives", default=os.path.join(corpus.ROOT, ".build", "testdata-archives"))
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args()
    target = os.path.join(args.dest, "countries.geojson")
    if os.path.exists(target):
        try:
            with open(target, encoding="utf-8") as f:
                if json.load(f).get("version") == VERSION:
                    if not args.quiet:
                        print("base map: installed in %s" % args.dest)
                    return 0
        except (OSError, ValueError):
            pass
    archive_path = corpus.download(ARCHIVE[0], ARCHIVE[1], ARCHIVE[2], args.archives)
    with tarfile.open(archive_path) as archive:
        shp = archive.extractfile(MEMBER + ".shp").read()
        dbf = archive.extractfile(MEMBER + ".dbf").read()
    rows = read_dbf(dbf)
    shapes = read_shp(shp)
    if len(rows) != len(shapes):
        raise SystemExit("error: the shapefile has %d shapes and %d rows of names" % (len(shapes), len(rows)))
    features = []
    for row, rings in zip(rows, shapes):
        # A shapefile's outer rings run clockwise, its holes counter-clockwise: each outer ring starts a polygon.
        polygons = []
        for ring in rings:
            ring = simplified(ring)
            if ring is None:
                continue
            if signed_area(ring) < 0 or not polygons:
                polygons.append([list(reversed(ring))])
            else:
                polygons[-1].append(list(reversed(ring)))
        if not polygons:
            continue
        features.append({
            "type": "Feature",
            "properties": {"name": row.get("name", ""), "iso_a3": row.get("iso_a3", "")},
            "geometry": {"type": "MultiPolygon", "coordinates": polygons},
        })
    os.makedirs(args.dest, exist_ok=True)
    document = {"type": "FeatureCollection", "version": VERSION,
                "attribution": "Made with Natural Earth (public domain), naturalearthdata.com", "features": features}
    with open(target + ".part", "w", encoding="utf-8") as f:
        json.dump(document, f, separators=(",", ":"))
    os.replace(target + ".part", target)
    if not args.quiet:
        print("base map: %d countries in %s (%d bytes)" % (len(features), target, os.path.getsize(target)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

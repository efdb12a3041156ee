"""The nearest GeoNames city to each position, by brute force: the independent reference for SepiaPlaces.

Reads a GeoNames cities table (tab-separated: id, name, ascii name, alternate names, latitude, longitude, ...)
and positions on standard input ("latitude longitude" per line), and prints for each the id of the nearest
city and its haversine distance in metres ("id metres"), computed with NumPy over every city at once.

    python3 scripts/references/nearest_cities.py /usr/share/libtimezonemap/ui/cities15000.txt < positions
"""

import sys

import numpy as np

EARTH_RADIUS = 6_371_008.8


def main():
    ids, lats, lons = [], [], []
    with open(sys.argv[1], encoding="utf-8") as table:
        for line in table:
            if not line.strip() or line.startswith("#"):
                continue
            fields = line.rstrip("\r\n").split("\t")
            ids.append(int(fields[0]))
            lats.append(float(fields[4]))
            lons.append(float(fields[5]))
    ids = np.array(ids)
    phi = np.radians(np.array(lats))
    lam = np.radians(np.array(lons))
    cos_phi = np.cos(phi)
    out = []
    for line in sys.stdin:
        if not line.strip():
            continue
        lat, lon = (float(v) for v in line.split())
        p, l = np.radians(lat), np.radians(lon)
        # Haversine, on every city.
        a = np.sin((phi - p) / 2) ** 2 + np.cos(p) * cos_phi * np.sin((lam - l) / 2) ** 2
        d = 2 * EARTH_RADIUS * np.arcsin(np.sqrt(np.minimum(1.0, a)))
        i = int(np.argmin(d))
        out.append(f"{ids[i]} {d[i]:.3f}")
    print("\n".join(out))


if __name__ == "__main__":
    main()

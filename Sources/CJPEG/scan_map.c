#include "scan_map.h"

#include <stdlib.h>
#include <string.h>

#include <jerror.h>

/* The end of the entropy-coded data that starts at `p`: the first marker that is not a stuffed 0xFF00 or a
 * restart marker. Returns `end` when the data runs to the end of the buffer. */
static const unsigned char *scan_data_end(const unsigned char *p, const unsigned char *end) {
    while (p < end) {
        const unsigned char *ff = memchr(p, 0xFF, (size_t)(end - p));
        if (ff == NULL) {
            return end;
        }
        const unsigned char *q = ff + 1;
        while (q < end && *q == 0xFF) {
            q++; /* fill bytes before a marker */
        }
        if (q >= end) {
            return end;
        }
        if (*q == 0x00 || (*q >= 0xD0 && *q <= 0xD7)) {
            p = q + 1;
            continue;
        }
        return ff;
    }
    return end;
}

void sepia_scan_map_free(sepia_scan_map *map) {
    free(map->scans);
    memset(map, 0, sizeof(*map));
}

static int scan_map_fail(sepia_scan_map *map) {
    sepia_scan_map_free(map);
    return -1;
}

int sepia_scan_map_parse(const unsigned char *data, size_t size, int max_scans, sepia_scan_map *map) {
    memset(map, 0, sizeof(*map));
    const unsigned char *end = data + size;
    if (size < 4 || data[0] != 0xFF || data[1] != 0xD8 || max_scans < 1) {
        return -1;
    }
    int capacity = 0;
    int component_id[SEPIA_SCAN_MAP_MAX_COMPONENTS];
    const unsigned char *p = data + 2;
    for (;;) {
        if (p + 2 > end || p[0] != 0xFF) {
            return scan_map_fail(map);
        }
        while (p + 1 < end && p[1] == 0xFF) {
            p++;
        }
        if (p + 2 > end) {
            return scan_map_fail(map);
        }
        unsigned char marker = p[1];
        if (marker == 0xD9) {
            if (map->component_count == 0 || map->scan_count == 0) {
                return scan_map_fail(map);
            }
            map->end = (size_t)(p + 2 - data);
            return 0;
        }
        if (marker == 0xD8 || marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7) || p + 4 > end) {
            return scan_map_fail(map);
        }
        size_t length = (size_t)p[2] << 8 | p[3];
        if (length < 2 || p + 2 + length > end) {
            return scan_map_fail(map);
        }
        const unsigned char *segment_end = p + 2 + length;
        if (marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC) {
            /* Baseline, lossless, hierarchical or arithmetic-coded, or a second frame: not mapped. */
            if (marker != 0xC2 || map->component_count != 0 || length < 8) {
                return scan_map_fail(map);
            }
            int count = p[9];
            if (count < 1 || count > SEPIA_SCAN_MAP_MAX_COMPONENTS || length != 8 + 3 * (size_t)count) {
                return scan_map_fail(map);
            }
            map->image_height = p[5] << 8 | p[6];
            map->image_width = p[7] << 8 | p[8];
            for (int c = 0; c < count; c++) {
                component_id[c] = p[10 + 3 * c];
                map->h[c] = p[11 + 3 * c] >> 4;
                map->v[c] = p[11 + 3 * c] & 15;
                if (map->h[c] < 1 || map->h[c] > 4 || map->v[c] < 1 || map->v[c] > 4) {
                    return scan_map_fail(map);
                }
                map->max_h = map->h[c] > map->max_h ? map->h[c] : map->max_h;
                map->max_v = map->v[c] > map->max_v ? map->v[c] : map->max_v;
            }
            map->component_count = count;
        }
        if (marker == 0xDA) {
            if (map->component_count == 0 || length < 6) {
                return scan_map_fail(map);
            }
            int count = p[4];
            if (count < 1 || count > map->component_count || length != 6 + 2 * (size_t)count) {
                return scan_map_fail(map);
            }
            if (map->scan_count == max_scans) {
                return scan_map_fail(map);
            }
            if (map->scan_count == capacity) {
                capacity = capacity ? 2 * capacity : 16;
                sepia_scan *grown = realloc(map->scans, (size_t)capacity * sizeof(sepia_scan));
                if (grown == NULL) {
                    return scan_map_fail(map);
                }
                map->scans = grown;
            }
            sepia_scan *scan = &map->scans[map->scan_count];
            scan->component_count = count;
            for (int i = 0; i < count; i++) {
                int found = -1;
                for (int c = 0; c < map->component_count; c++) {
                    if (component_id[c] == p[5 + 2 * i]) {
                        found = c;
                    }
                }
                if (found < 0) {
                    return scan_map_fail(map);
                }
                scan->components[i] = found;
            }
            scan->ss = p[5 + 2 * count];
            scan->se = p[6 + 2 * count];
            scan->ah = p[7 + 2 * count] >> 4;
            scan->al = p[7 + 2 * count] & 15;
            const unsigned char *data_end = scan_data_end(segment_end, end);
            if (data_end >= end) {
                return scan_map_fail(map); /* the file ends inside a scan */
            }
            scan->start = (size_t)(p - data);
            scan->end = (size_t)(data_end - data);
            map->scan_count += 1;
            p = data_end;
            continue;
        }
        p = segment_end;
    }
}

int sepia_scan_map_is_complete(const sepia_scan_map *map) {
    int bits[SEPIA_SCAN_MAP_MAX_COMPONENTS][DCTSIZE2];
    for (int c = 0; c < map->component_count; c++) {
        for (int k = 0; k < DCTSIZE2; k++) {
            bits[c][k] = -1;
        }
    }
    for (int s = 0; s < map->scan_count; s++) {
        const sepia_scan *scan = &map->scans[s];
        int dc = scan->ss == 0;
        if ((dc && scan->se != 0) || (!dc && (scan->ss > scan->se || scan->se >= DCTSIZE2 || scan->component_count != 1))) {
            return 0;
        }
        if ((scan->ah != 0 && scan->al != scan->ah - 1) || scan->al > 13) {
            return 0;
        }
        for (int i = 0; i < scan->component_count; i++) {
            int c = scan->components[i];
            if (!dc && bits[c][0] < 0) {
                return 0; /* an AC scan before the component's first DC scan */
            }
            for (int k = scan->ss; k <= scan->se; k++) {
                int expected = bits[c][k] < 0 ? 0 : bits[c][k];
                if (scan->ah != expected) {
                    return 0;
                }
                bits[c][k] = scan->al;
            }
        }
    }
    for (int c = 0; c < map->component_count; c++) {
        for (int k = 0; k < DCTSIZE2; k++) {
            if (bits[c][k] != 0) {
                return 0;
            }
        }
    }
    return 1;
}

JDIMENSION sepia_scan_map_block_rows(const sepia_scan_map *map, int c) {
    /* As libjpeg: the component's height in blocks, rounded up to its vertical sampling factor. */
    long height = ((long)map->image_height * map->v[c] + map->max_v - 1) / map->max_v;
    long blocks = (height + DCTSIZE - 1) / DCTSIZE;
    return (JDIMENSION)((blocks + map->v[c] - 1) / map->v[c] * map->v[c]);
}

int sepia_scan_map_ranges(const sepia_scan_map *map, const unsigned char *data, const unsigned char *keep,
                          sepia_byte_range *ranges) {
    int count = 0;
    size_t from = 0;
    for (int s = 0; s < map->scan_count; s++) {
        if (keep[s]) {
            continue;
        }
        if (map->scans[s].start > from) {
            ranges[count].start = data + from;
            ranges[count].length = map->scans[s].start - from;
            count += 1;
        }
        from = map->scans[s].end;
    }
    ranges[count].start = data + from;
    ranges[count].length = map->end - from;
    return count + 1;
}

static void range_source_init(j_decompress_ptr cinfo) {
    (void)cinfo;
}

static boolean range_source_fill(j_decompress_ptr cinfo) {
    static const JOCTET fake_eoi[2] = {0xFF, JPEG_EOI};
    sepia_range_source *source = (sepia_range_source *)cinfo->src;
    if (source->next < source->count) {
        source->pub.next_input_byte = source->ranges[source->next].start;
        source->pub.bytes_in_buffer = source->ranges[source->next].length;
        source->next += 1;
        return TRUE;
    }
    WARNMS(cinfo, JWRN_JPEG_EOF);
    source->pub.next_input_byte = fake_eoi;
    source->pub.bytes_in_buffer = 2;
    return TRUE;
}

static void range_source_skip(j_decompress_ptr cinfo, long count) {
    sepia_range_source *source = (sepia_range_source *)cinfo->src;
    if (count <= 0) {
        return;
    }
    while ((size_t)count > source->pub.bytes_in_buffer) {
        count -= (long)source->pub.bytes_in_buffer;
        (void)range_source_fill(cinfo);
    }
    source->pub.next_input_byte += count;
    source->pub.bytes_in_buffer -= (size_t)count;
}

static void range_source_term(j_decompress_ptr cinfo) {
    (void)cinfo;
}

void sepia_range_source_install(j_decompress_ptr cinfo, sepia_range_source *source, const sepia_byte_range *ranges,
                                int count) {
    memset(source, 0, sizeof(*source));
    source->pub.init_source = range_source_init;
    source->pub.fill_input_buffer = range_source_fill;
    source->pub.skip_input_data = range_source_skip;
    source->pub.resync_to_restart = jpeg_resync_to_restart;
    source->pub.term_source = range_source_term;
    source->ranges = ranges;
    source->count = count;
    source->next = 0;
    cinfo->src = &source->pub;
}

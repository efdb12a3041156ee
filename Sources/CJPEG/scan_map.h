/*
 * Where the scans of a progressive JPEG are, read from its markers without decoding anything, and a libjpeg
 * source that reads the file with some of those scans left out.
 */
#ifndef SEPIA_SCAN_MAP_H
#define SEPIA_SCAN_MAP_H

#include <stddef.h>

#include <stdio.h>

#include <jpeglib.h>

#define SEPIA_SCAN_MAP_MAX_COMPONENTS 4

typedef struct sepia_scan {
    /* Byte offsets of the SOS marker and of the marker that ends the scan's entropy-coded data. */
    size_t start;
    size_t end;
    int component_count;
    /* Indexes into the frame's components, in the scan's order. */
    int components[SEPIA_SCAN_MAP_MAX_COMPONENTS];
    int ss, se, ah, al;
} sepia_scan;

typedef struct sepia_scan_map {
    int component_count;
    int h[SEPIA_SCAN_MAP_MAX_COMPONENTS];
    int v[SEPIA_SCAN_MAP_MAX_COMPONENTS];
    int max_h, max_v;
    int image_width, image_height;
    int scan_count;
    sepia_scan *scans;
    /* Offset just past the EOI marker. */
    size_t end;
} sepia_scan_map;

/*
 * Maps a whole progressive Huffman-coded JPEG: one SOF2 frame, every marker segment complete, every scan naming
 * the frame's components and followed by a marker, EOI at the end, at most `max_scans` scans. Returns 0, or -1
 * (and an empty map) for anything else: other coding processes, truncated or malformed files. Free with
 * sepia_scan_map_free.
 */
int sepia_scan_map_parse(const unsigned char *data, size_t size, int max_scans, sepia_scan_map *map);

void sepia_scan_map_free(sepia_scan_map *map);

/*
 * Non-zero when the scans form a legal progression (libjpeg would not warn of a bogus one) that brings every
 * coefficient of every component to full precision, so the decoded image does not depend on block smoothing.
 */
int sepia_scan_map_is_complete(const sepia_scan_map *map);

/* The rows of 8x8 blocks in component `c`'s coefficient buffer (libjpeg pads them to its sampling factor). */
JDIMENSION sepia_scan_map_block_rows(const sepia_scan_map *map, int c);

/* A stretch of the file handed to libjpeg. */
typedef struct sepia_byte_range {
    const unsigned char *start;
    size_t length;
} sepia_byte_range;

/*
 * The ranges of the whole file (up to EOI) without the scans whose `keep` entry is 0. `ranges` must hold
 * scan_count + 1 entries; returns how many were used.
 */
int sepia_scan_map_ranges(const sepia_scan_map *map, const unsigned char *data, const unsigned char *keep,
                          sepia_byte_range *ranges);

/* A libjpeg source reading `count` ranges in turn; the ranges must outlive the decompress object. */
typedef struct sepia_range_source {
    struct jpeg_source_mgr pub;
    const sepia_byte_range *ranges;
    int count;
    int next;
} sepia_range_source;

void sepia_range_source_install(j_decompress_ptr cinfo, sepia_range_source *source, const sepia_byte_range *ranges,
                                int count);

#endif

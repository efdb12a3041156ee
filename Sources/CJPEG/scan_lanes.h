/*
 * A progressive JPEG's scans Huffman-decoded on two threads.
 *
 * A progressive file is a series of scans, each a pass over the image adding some coefficients (a band of the
 * zig-zag order, or one more bit of them) of one or more components. libjpeg decodes them one after another on
 * one thread, and that is nearly all of the time a progressive decode takes. But scans of different components
 * are independent, so are a component's DC and AC scans, and a scan that follows another of the same kind (a
 * refinement, or the next band) can trail it row by row.
 *
 * So the scans are split between two lanes, each a libjpeg decompressor fed the whole file without the other
 * lane's scans (scan_map.h). Lane A is the caller's decompressor, in buffered-image mode, and owns the coefficient
 * buffers; lane B runs on a thread of its own with buffers of one block, and its accesses to them are sent to
 * lane A's. Before a lane touches rows of a component in a scan, it waits until every earlier scan of the other
 * lane that shares that component, and codes DC terms if this one does or AC terms if this one does, has
 * finished those rows. The coefficients that result
 * are exactly those of one decompressor reading every scan in order, and lane A's output pass turns them into
 * the same pixels.
 */
#ifndef SEPIA_SCAN_LANES_H
#define SEPIA_SCAN_LANES_H

#include "error_mgr.h"
#include "scan_map.h"

typedef struct sepia_scan_lanes sepia_scan_lanes;

/*
 * Plans two lanes for a mapped file, or returns NULL when it would not pay: too few scans or bytes, an
 * incomplete or irregular progression, or no split that shortens the decode. Takes ownership of `map` either way.
 * `data` must outlive the lanes.
 */
sepia_scan_lanes *sepia_scan_lanes_plan(sepia_scan_map *map, const unsigned char *data, int strict);

/* Hands lane A's share of the file to `cinfo` and makes it keep lane B's coefficients too. Call right after
 * jpeg_create_decompress; set buffered_image and clear do_block_smoothing before jpeg_start_decompress. */
void sepia_scan_lanes_attach(sepia_scan_lanes *lanes, j_decompress_ptr cinfo);

/*
 * After jpeg_start_decompress (buffered): starts lane B, reads lane A's scans on this thread and waits for B.
 * Errors of either lane longjmp through `cinfo`'s error manager, which must be a sepia_error_mgr.
 */
void sepia_scan_lanes_run(sepia_scan_lanes *lanes, j_decompress_ptr cinfo);

/*
 * After an error of lane A longjmped out of sepia_scan_lanes_run: lets lane B finish or fail the scans before the
 * one lane A failed in, then leaves in `cinfo`'s error manager the failure of the earliest scan, the one a single
 * decompressor would have reported, so that the verdict does not depend on which lane got there first. Does
 * nothing when lane B is not running.
 */
void sepia_scan_lanes_settle(sepia_scan_lanes *lanes, j_decompress_ptr cinfo);

/* Stops lane B if it still runs and frees the lanes. */
void sepia_scan_lanes_destroy(sepia_scan_lanes *lanes);

#endif

#include "scan_lanes.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jerror.h>

/* Dependencies are kept as bit masks over the scans. */
#define LANES_MAX_SCANS 64
/* Up to this many scans every split is tried; beyond it each scan goes where it finishes first. */
#define LANES_EXHAUSTIVE_SCANS 12
/* Less entropy-coded data than this decodes in a few milliseconds: not worth a thread. */
#define LANES_MIN_BYTES (128u << 10)
/* A split must shorten the estimated decode to this fraction of one lane's, or it is not used. */
#define LANES_MIN_GAIN 0.85
#define ROWS_DONE ((JDIMENSION)-1)

typedef jvirt_barray_ptr (*request_barray_fn)(j_common_ptr, int, boolean, JDIMENSION, JDIMENSION, JDIMENSION);
typedef JBLOCKARRAY (*access_barray_fn)(j_common_ptr, jvirt_barray_ptr, JDIMENSION, JDIMENSION, boolean);

typedef struct lane {
    j_decompress_ptr cinfo;
    sepia_byte_range *ranges;
    int range_count;
    sepia_range_source source;
    /* The global index of the lane's n-th scan. */
    int *scans;
    int scan_count;
    /* The scan being read, or -1; every earlier scan of this lane is finished. */
    int current;
    int waiting;
    jvirt_barray_ptr arrays[SEPIA_SCAN_MAP_MAX_COMPONENTS];
    int array_count;
    request_barray_fn request;
    access_barray_fn access;
} lane;

struct sepia_scan_lanes {
    sepia_scan_map map;
    const unsigned char *data;
    int strict;
    unsigned char *lane_of;
    /* Per scan: the earlier scans it must follow row by row (scans_conflict). */
    uint64_t *depends;
    /* Per scan and component: rows of blocks finished. */
    JDIMENSION *progress;
    JDIMENSION rows[SEPIA_SCAN_MAP_MAX_COMPONENTS];
    lane lanes[2];

    pthread_mutex_t mutex;
    pthread_cond_t changed;
    int synchronized;
    /* Set while lane B runs: lane A's accesses are then checked against it. */
    int active;
    /* The failure of the earliest scan, in the file's order, that failed: the one a single decompressor reading
     * every scan in order would report. failed_scan is -1 when the decode is being stopped. */
    int failed;
    int failed_scan;
    int failure_strict;
    char failure[JMSG_LENGTH_MAX];

    pthread_t thread;
    int thread_started;
    struct jpeg_decompress_struct b;
    sepia_error_mgr b_err;
    int b_created;
};

/* MARK: - Planning */

static int scan_has_component(const sepia_scan *scan, int c) {
    for (int i = 0; i < scan->component_count; i++) {
        if (scan->components[i] == c) {
            return 1;
        }
    }
    return 0;
}

/*
 * Whether scan `b` must follow scan `a` row by row: they share a component and both code DC or both code AC
 * terms. AC scans of one component are kept in order even when their bands do not overlap: with damaged data
 * libjpeg can write past the end of a scan's band (a run that overshoots it lands on a later coefficient), and
 * the result must still be that of one decompressor. DC scans write only the DC term and AC scans never do.
 */
static int scans_conflict(const sepia_scan *a, const sepia_scan *b) {
    if ((a->ss == 0) != (b->ss == 0)) {
        return 0;
    }
    for (int i = 0; i < a->component_count; i++) {
        if (scan_has_component(b, a->components[i])) {
            return 1;
        }
    }
    return 0;
}

/* How long one lane would take over `lane_of`'s split: each lane reads its scans in order, and a scan that
 * follows one of the other lane can neither start before it nor finish much after it. */
static double lanes_makespan(const sepia_scan_lanes *lanes, const double *cost, const unsigned char *lane_of,
                             int count, double *start, double *finish) {
    double free_at[2] = {0, 0};
    for (int s = 0; s < count; s++) {
        int which = lane_of[s];
        double begin = free_at[which], lower = 0;
        for (int p = 0; p < s; p++) {
            if ((lanes->depends[s] >> p & 1) && lane_of[p] != which) {
                begin = start[p] > begin ? start[p] : begin;
                double after = finish[p] + cost[s] / 32;
                lower = after > lower ? after : lower;
            }
        }
        start[s] = begin;
        finish[s] = begin + cost[s] > lower ? begin + cost[s] : lower;
        free_at[which] = finish[s];
    }
    return free_at[0] > free_at[1] ? free_at[0] : free_at[1];
}

/* Splits the scans; returns the estimated time of the split over that of one lane. */
static double lanes_split(sepia_scan_lanes *lanes, const double *cost, const unsigned char *forced) {
    int count = lanes->map.scan_count;
    double start[LANES_MAX_SCANS], finish[LANES_MAX_SCANS], total = 0;
    unsigned char trial[LANES_MAX_SCANS];
    int free_scans[LANES_MAX_SCANS], free_count = 0;
    for (int s = 0; s < count; s++) {
        total += cost[s];
        lanes->lane_of[s] = 0;
        if (!forced[s]) {
            free_scans[free_count++] = s;
        }
    }
    double best = total;
    if (free_count <= LANES_EXHAUSTIVE_SCANS) {
        for (uint32_t bits = 1; bits < (1u << free_count); bits++) {
            memset(trial, 0, (size_t)count);
            for (int i = 0; i < free_count; i++) {
                trial[free_scans[i]] = (unsigned char)(bits >> i & 1);
            }
            double time = lanes_makespan(lanes, cost, trial, count, start, finish);
            if (time < best) {
                best = time;
                memcpy(lanes->lane_of, trial, (size_t)count);
            }
        }
    } else {
        memset(trial, 0, (size_t)count);
        for (int s = 0; s < count; s++) {
            if (forced[s]) {
                continue;
            }
            trial[s] = 0;
            (void)lanes_makespan(lanes, cost, trial, s + 1, start, finish);
            double on_a = finish[s];
            trial[s] = 1;
            (void)lanes_makespan(lanes, cost, trial, s + 1, start, finish);
            trial[s] = finish[s] < on_a ? 1 : 0;
        }
        best = lanes_makespan(lanes, cost, trial, count, start, finish);
        memcpy(lanes->lane_of, trial, (size_t)count);
    }
    return best / total;
}

static int lanes_build(lane *me, const sepia_scan_lanes *lanes, int which) {
    int count = lanes->map.scan_count;
    unsigned char keep[LANES_MAX_SCANS];
    me->scans = malloc((size_t)count * sizeof(int));
    me->ranges = malloc((size_t)(count + 1) * sizeof(sepia_byte_range));
    if (me->scans == NULL || me->ranges == NULL) {
        return -1;
    }
    me->scan_count = 0;
    for (int s = 0; s < count; s++) {
        keep[s] = lanes->lane_of[s] == which;
        if (keep[s]) {
            me->scans[me->scan_count++] = s;
        }
    }
    me->range_count = sepia_scan_map_ranges(&lanes->map, lanes->data, keep, me->ranges);
    me->current = -1;
    return me->scan_count > 0 ? 0 : -1;
}

sepia_scan_lanes *sepia_scan_lanes_plan(sepia_scan_map *map, const unsigned char *data, int strict) {
    int count = map->scan_count;
    size_t bytes = 0;
    for (int s = 0; s < count; s++) {
        bytes += map->scans[s].end - map->scans[s].start;
    }
    if (count < 2 || count > LANES_MAX_SCANS || bytes < LANES_MIN_BYTES || !sepia_scan_map_is_complete(map)) {
        sepia_scan_map_free(map);
        return NULL;
    }
    sepia_scan_lanes *lanes = calloc(1, sizeof(sepia_scan_lanes));
    if (lanes == NULL) {
        sepia_scan_map_free(map);
        return NULL;
    }
    lanes->map = *map;
    memset(map, 0, sizeof(*map));
    lanes->data = data;
    lanes->strict = strict;
    lanes->lane_of = calloc((size_t)count, 1);
    lanes->depends = calloc((size_t)count, sizeof(uint64_t));
    lanes->progress = calloc((size_t)count * SEPIA_SCAN_MAP_MAX_COMPONENTS, sizeof(JDIMENSION));
    if (lanes->lane_of == NULL || lanes->depends == NULL || lanes->progress == NULL) {
        sepia_scan_lanes_destroy(lanes);
        return NULL;
    }

    /* Costs: the entropy-coded bytes, plus the blocks a scan walks even where it codes nothing. */
    const sepia_scan_map *m = &lanes->map;
    double cost[LANES_MAX_SCANS];
    unsigned char forced[LANES_MAX_SCANS];
    int seen[SEPIA_SCAN_MAP_MAX_COMPONENTS] = {0};
    for (int c = 0; c < m->component_count; c++) {
        lanes->rows[c] = sepia_scan_map_block_rows(m, c);
    }
    for (int s = 0; s < count; s++) {
        const sepia_scan *scan = &m->scans[s];
        double blocks = 0;
        forced[s] = 0;
        for (int i = 0; i < scan->component_count; i++) {
            int c = scan->components[i];
            long width = ((long)m->image_width * m->h[c] + m->max_h - 1) / m->max_h;
            blocks += (double)((width + DCTSIZE - 1) / DCTSIZE) * lanes->rows[c];
            /* libjpeg takes a component's quantization table at its first scan; lane A must see it there. */
            if (!seen[c]) {
                seen[c] = 1;
                forced[s] = 1;
            }
        }
        cost[s] = (double)(scan->end - scan->start) + blocks / 4;
        for (int p = 0; p < s; p++) {
            if (scans_conflict(&m->scans[p], scan)) {
                lanes->depends[s] |= (uint64_t)1 << p;
            }
        }
    }
    if (lanes_split(lanes, cost, forced) > LANES_MIN_GAIN || lanes_build(&lanes->lanes[0], lanes, 0) != 0 ||
        lanes_build(&lanes->lanes[1], lanes, 1) != 0) {
        sepia_scan_lanes_destroy(lanes);
        return NULL;
    }
    if (pthread_mutex_init(&lanes->mutex, NULL) != 0) {
        sepia_scan_lanes_destroy(lanes);
        return NULL;
    }
    if (pthread_cond_init(&lanes->changed, NULL) != 0) {
        pthread_mutex_destroy(&lanes->mutex);
        sepia_scan_lanes_destroy(lanes);
        return NULL;
    }
    lanes->synchronized = 1;
    return lanes;
}

/* MARK: - Shared coefficient buffers */

static lane *lanes_lane_of(sepia_scan_lanes *lanes, j_common_ptr cinfo) {
    return cinfo == (j_common_ptr)lanes->lanes[0].cinfo ? &lanes->lanes[0] : &lanes->lanes[1];
}

/* Lane A's buffers are the real ones; lane B asks for buffers of one block, which are never touched. */
static jvirt_barray_ptr lanes_request(j_common_ptr cinfo, int pool_id, boolean pre_zero, JDIMENSION blocks_per_row,
                                      JDIMENSION rows, JDIMENSION max_access) {
    sepia_scan_lanes *lanes = cinfo->client_data;
    lane *me = lanes_lane_of(lanes, cinfo);
    int c = me->array_count;
    if (c >= lanes->map.component_count) {
        ERREXIT(cinfo, JERR_VIRTUAL_BUG);
    }
    jvirt_barray_ptr array;
    if (me == &lanes->lanes[0]) {
        if (rows != lanes->rows[c]) {
            ERREXIT(cinfo, JERR_VIRTUAL_BUG);
        }
        array = me->request(cinfo, pool_id, pre_zero, blocks_per_row, rows, max_access);
    } else {
        array = me->request(cinfo, pool_id, FALSE, 1, 1, 1);
    }
    me->arrays[c] = array;
    me->array_count = c + 1;
    return array;
}

static void lanes_finish_scan(sepia_scan_lanes *lanes, lane *me) {
    if (me->current >= 0) {
        for (int c = 0; c < SEPIA_SCAN_MAP_MAX_COMPONENTS; c++) {
            lanes->progress[me->current * SEPIA_SCAN_MAP_MAX_COMPONENTS + c] = ROWS_DONE;
        }
        me->current = -1;
    }
}

static int lanes_ready(const sepia_scan_lanes *lanes, int scan, int c, JDIMENSION end_row) {
    uint64_t depends = lanes->depends[scan];
    for (int p = 0; depends != 0; p++, depends >>= 1) {
        if ((depends & 1) && scan_has_component(&lanes->map.scans[p], c) &&
            lanes->progress[p * SEPIA_SCAN_MAP_MAX_COMPONENTS + c] < end_row) {
            return 0;
        }
    }
    return 1;
}

/* Whether a lane must stop before reading `scan`: a scan before it failed, or the decode is being stopped. Scans
 * before the failed one go on, since one of them may fail too, and its failure is the one to report. */
static int lanes_stopped(const sepia_scan_lanes *lanes, int scan) {
    return lanes->failed && lanes->failed_scan < scan;
}

/* The scan, in the file's order, that a lane's decompressor is reading: -1 before its first, the number of scans
 * after its last. */
static int lanes_scan_reading(const sepia_scan_lanes *lanes, const lane *me, j_decompress_ptr cinfo) {
    int local = cinfo->input_scan_number - 1;
    if (local < 0) {
        return -1;
    }
    return local < me->scan_count ? me->scans[local] : lanes->map.scan_count;
}

/* Leaves through the lane's own error manager; an earlier scan of the other lane failed or the decode is being
 * stopped. */
static void lanes_abort(sepia_scan_lanes *lanes, j_common_ptr cinfo) {
    sepia_error_mgr *err = (sepia_error_mgr *)cinfo->err;
    sepia_copy(err->error, sizeof(err->error), lanes->failure[0] ? lanes->failure : "the decode was stopped");
    err->strict_failure = lanes->failure_strict;
    longjmp(err->jump, 1);
}

static JBLOCKARRAY lanes_access(j_common_ptr cinfo, jvirt_barray_ptr array, JDIMENSION start_row, JDIMENSION rows,
                                boolean writable) {
    sepia_scan_lanes *lanes = cinfo->client_data;
    lane *me = lanes_lane_of(lanes, cinfo);
    lane *owner = &lanes->lanes[0];
    int c = -1;
    for (int i = 0; i < me->array_count; i++) {
        if (me->arrays[i] == array) {
            c = i;
        }
    }
    if (me == owner && (!lanes->active || c < 0)) {
        return owner->access(cinfo, array, start_row, rows, writable);
    }
    int local = ((j_decompress_ptr)cinfo)->input_scan_number - 1;
    if (c < 0 || local < 0 || local >= me->scan_count || start_row + rows > lanes->rows[c]) {
        ERREXIT(cinfo, JERR_BAD_VIRTUAL_ACCESS);
    }
    int scan = me->scans[local];
    lane *other = me == owner ? &lanes->lanes[1] : owner;

    pthread_mutex_lock(&lanes->mutex);
    if (me->current != scan) {
        lanes_finish_scan(lanes, me);
        me->current = scan;
    }
    JDIMENSION *done = &lanes->progress[scan * SEPIA_SCAN_MAP_MAX_COMPONENTS + c];
    if (*done < start_row) {
        *done = start_row;
    }
    if (other->waiting) {
        pthread_cond_broadcast(&lanes->changed);
    }
    while (!lanes_stopped(lanes, scan) && !lanes_ready(lanes, scan, c, start_row + rows)) {
        me->waiting = 1;
        pthread_cond_wait(&lanes->changed, &lanes->mutex);
        me->waiting = 0;
    }
    if (lanes_stopped(lanes, scan)) {
        pthread_mutex_unlock(&lanes->mutex);
        lanes_abort(lanes, cinfo);
    }
    /* Under the mutex: libjpeg zeroes rows on their first access and keeps count of them. */
    JBLOCKARRAY result = owner->access((j_common_ptr)owner->cinfo, owner->arrays[c], start_row, rows, writable);
    pthread_mutex_unlock(&lanes->mutex);
    return result;
}

static void lanes_hook(sepia_scan_lanes *lanes, lane *me, j_decompress_ptr cinfo) {
    me->cinfo = cinfo;
    cinfo->client_data = lanes;
    me->request = cinfo->mem->request_virt_barray;
    me->access = cinfo->mem->access_virt_barray;
    cinfo->mem->request_virt_barray = lanes_request;
    cinfo->mem->access_virt_barray = lanes_access;
    sepia_range_source_install(cinfo, &me->source, me->ranges, me->range_count);
}

/* MARK: - Running */

void sepia_scan_lanes_attach(sepia_scan_lanes *lanes, j_decompress_ptr cinfo) {
    lanes_hook(lanes, &lanes->lanes[0], cinfo);
}

/* Records a lane's failure in `scan` unless an earlier scan's is recorded already. */
static void lanes_fail(sepia_scan_lanes *lanes, lane *me, const sepia_error_mgr *err, int scan) {
    pthread_mutex_lock(&lanes->mutex);
    /* A lane that failed in a new scan before touching its rows has still read the one before to its end: the
     * other lane may be waiting for it. */
    if (me->current >= 0 && me->current != scan) {
        lanes_finish_scan(lanes, me);
    }
    if (!lanes->failed || scan < lanes->failed_scan) {
        lanes->failed = 1;
        lanes->failed_scan = scan;
        sepia_copy(lanes->failure, sizeof(lanes->failure), err->error[0] ? err->error : "unknown libjpeg error");
        lanes->failure_strict = err->strict_failure;
    }
    pthread_cond_broadcast(&lanes->changed);
    pthread_mutex_unlock(&lanes->mutex);
}

static void *lane_b_main(void *argument) {
    sepia_scan_lanes *lanes = argument;
    j_decompress_ptr cinfo = &lanes->b;
    if (setjmp(lanes->b_err.jump)) {
        lanes_fail(lanes, &lanes->lanes[1], &lanes->b_err, lanes_scan_reading(lanes, &lanes->lanes[1], cinfo));
        return NULL;
    }
    jpeg_create_decompress(cinfo);
    lanes->b_created = 1;
    lanes_hook(lanes, &lanes->lanes[1], cinfo);
    jpeg_read_header(cinfo, TRUE);
    jpeg_read_coefficients(cinfo);
    pthread_mutex_lock(&lanes->mutex);
    lanes_finish_scan(lanes, &lanes->lanes[1]);
    pthread_cond_broadcast(&lanes->changed);
    pthread_mutex_unlock(&lanes->mutex);
    return NULL;
}

void sepia_scan_lanes_run(sepia_scan_lanes *lanes, j_decompress_ptr cinfo) {
    sepia_error_mgr *err = (sepia_error_mgr *)cinfo->err;
    if (lanes->lanes[0].array_count != lanes->map.component_count) {
        ERREXIT(cinfo, JERR_VIRTUAL_BUG);
    }
    sepia_install_error_mgr(&lanes->b_err, lanes->strict);
    lanes->b_err.ignore_progression = 1;
    lanes->b.err = &lanes->b_err.pub;
    err->ignore_progression = 1;
    lanes->active = 1;
    if (pthread_create(&lanes->thread, NULL, lane_b_main, lanes) != 0) {
        lanes->active = 0;
        sepia_copy(err->error, sizeof(err->error), "cannot start a thread to decode the progressive scans");
        longjmp(err->jump, 1);
    }
    lanes->thread_started = 1;
    while (jpeg_consume_input(cinfo) != JPEG_REACHED_EOI) {
        /* The source never suspends: the whole file is in memory. */
    }
    pthread_mutex_lock(&lanes->mutex);
    lanes_finish_scan(lanes, &lanes->lanes[0]);
    pthread_cond_broadcast(&lanes->changed);
    pthread_mutex_unlock(&lanes->mutex);
    pthread_join(lanes->thread, NULL);
    lanes->thread_started = 0;
    lanes->active = 0;
    err->ignore_progression = 0;
    if (lanes->b_err.warning_count > 0) {
        if (err->warning_count == 0) {
            memcpy(err->first_warning, lanes->b_err.first_warning, sizeof(err->first_warning));
        }
        err->warning_count += lanes->b_err.warning_count;
    }
    if (lanes->failed) {
        lanes_abort(lanes, (j_common_ptr)cinfo);
    }
}

void sepia_scan_lanes_settle(sepia_scan_lanes *lanes, j_decompress_ptr cinfo) {
    if (lanes == NULL || !lanes->thread_started) {
        return;
    }
    sepia_error_mgr *err = (sepia_error_mgr *)cinfo->err;
    lane *a = &lanes->lanes[0];
    lanes_fail(lanes, a, err, lanes_scan_reading(lanes, a, cinfo));
    /* Lane B finishes or fails the scans before lane A's failed one, and stops at the first after it. */
    pthread_join(lanes->thread, NULL);
    lanes->thread_started = 0;
    lanes->active = 0;
    sepia_copy(err->error, sizeof(err->error), lanes->failure);
    err->strict_failure = lanes->failure_strict;
}

void sepia_scan_lanes_destroy(sepia_scan_lanes *lanes) {
    if (lanes == NULL) {
        return;
    }
    if (lanes->thread_started) {
        pthread_mutex_lock(&lanes->mutex);
        if (!lanes->failed || lanes->failed_scan >= 0) {
            lanes->failed = 1;
            lanes->failed_scan = -1;
            sepia_copy(lanes->failure, sizeof(lanes->failure), "the decode was stopped");
        }
        pthread_cond_broadcast(&lanes->changed);
        pthread_mutex_unlock(&lanes->mutex);
        pthread_join(lanes->thread, NULL);
    }
    if (lanes->b_created) {
        jpeg_destroy_decompress(&lanes->b);
    }
    if (lanes->synchronized) {
        pthread_cond_destroy(&lanes->changed);
        pthread_mutex_destroy(&lanes->mutex);
    }
    for (int i = 0; i < 2; i++) {
        free(lanes->lanes[i].scans);
        free(lanes->lanes[i].ranges);
    }
    free(lanes->lane_of);
    free(lanes->depends);
    free(lanes->progress);
    sepia_scan_map_free(&lanes->map);
    free(lanes);
}

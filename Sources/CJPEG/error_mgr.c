#include "error_mgr.h"

#include <string.h>

#include <jerror.h>

#include "sepia_jpeg.h"

static void sepia_error_exit(j_common_ptr cinfo) {
    sepia_error_mgr *err = (sepia_error_mgr *)cinfo->err;
    (*cinfo->err->format_message)(cinfo, err->error);
    longjmp(err->jump, 1);
}

/* Warnings after which the decoded pixels are not what the file meant: data was skipped or invented. */
static int sepia_warning_loses_data(int code) {
    switch (code) {
    case JWRN_HIT_MARKER:
    case JWRN_HUFF_BAD_CODE:
    case JWRN_JPEG_EOF:
    case JWRN_MUST_RESYNC:
    case JWRN_NOT_SEQUENTIAL:
    case JWRN_ARITH_BAD_CODE:
    case JWRN_BOGUS_PROGRESSION:
        return 1;
    default:
        return 0;
    }
}

static void sepia_emit_message(j_common_ptr cinfo, int msg_level) {
    sepia_error_mgr *err = (sepia_error_mgr *)cinfo->err;
    if (msg_level >= 0) {
        return; /* trace messages */
    }
    if (err->ignore_progression && cinfo->err->msg_code == JWRN_BOGUS_PROGRESSION) {
        return;
    }
    err->warning_count += 1;
    char text[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, text);
    if (err->warning_count == 1) {
        memcpy(err->first_warning, text, sizeof(text));
    }
    if (err->strict && sepia_warning_loses_data(cinfo->err->msg_code)) {
        err->strict_failure = 1;
        memcpy(err->error, text, sizeof(text));
        longjmp(err->jump, 1);
    }
}

static void sepia_output_message(j_common_ptr cinfo) {
    (void)cinfo; /* never print */
}

void sepia_install_error_mgr(sepia_error_mgr *err, int strict) {
    jpeg_std_error(&err->pub);
    err->pub.error_exit = sepia_error_exit;
    err->pub.emit_message = sepia_emit_message;
    err->pub.output_message = sepia_output_message;
    err->strict = strict;
    err->strict_failure = 0;
    err->ignore_progression = 0;
    err->warning_count = 0;
    err->first_warning[0] = 0;
    err->error[0] = 0;
}

void sepia_copy(char *dest, size_t size, const char *src) {
    if (dest == NULL || size == 0) {
        return;
    }
    snprintf(dest, size, "%s", src);
}

int sepia_failure(sepia_error_mgr *err, char *message, size_t message_size) {
    sepia_copy(message, message_size, err->error[0] ? err->error : "unknown libjpeg error");
    return err->strict_failure ? SEPIA_JPEG_STRICT_WARNING : SEPIA_JPEG_ERROR;
}

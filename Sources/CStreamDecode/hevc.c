#include "CStreamDecode.h"
#include <libde265/de265.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct shoebox_hevc {
    /// A single image: the decoder that owns `picture`, whose planes are used where they are.
    de265_decoder_context *ctx;
    const struct de265_image *picture;
    /// A grid: its tiles copied into planes of the output size (one allocation).
    uint8_t *grid;
    const uint8_t *planes[3];
    int strides[3];
    int width, height, shift_x, shift_y, monochrome;
    int matrix, full_range;
};

/// Pushes NAL units each preceded by a `length_size`-byte big-endian length. -1 when a length
/// runs past the data or libde265 refuses a unit.
static int push_nals(de265_decoder_context *ctx, const uint8_t *p, size_t n, int length_size) {
    size_t pos = 0;
    while (pos < n) {
        if (n - pos < (size_t)length_size) return -1;
        size_t len = 0;
        for (int i = 0; i < length_size; i++) len = len << 8 | p[pos + i];
        pos += (size_t)length_size;
        if (len > n - pos || len > INT_MAX) return -1;
        if (len > 0 && !de265_isOK(de265_push_NAL(ctx, p + pos, (int)len, 0, NULL))) return -1;
        pos += len;
    }
    return 0;
}

/// Decodes one coded image: its first picture (owned by `ctx`), or NULL with `msg` set.
static const struct de265_image *decode_one(de265_decoder_context *ctx, const shoebox_hevc_tile *t,
                                            char *msg, size_t msg_size) {
    if (t->length_size < 1 || t->length_size > 4 || push_nals(ctx, t->params, t->params_length, 4) != 0
        || push_nals(ctx, t->data, t->data_length, t->length_size) != 0) {
        snprintf(msg, msg_size, "HEVC data malformed (a NAL unit runs past its item)");
        return NULL;
    }
    de265_flush_data(ctx);
    const struct de265_image *picture = NULL;
    int more = 1;
    while (more) {
        more = 0;
        de265_error err = de265_decode(ctx, &more);
        if (!de265_isOK(err)) {
            snprintf(msg, msg_size, "HEVC data not decodable: %s", de265_get_error_text(err));
            return NULL;
        }
        if (!picture) picture = de265_get_next_picture(ctx);
    }
    if (!picture) snprintf(msg, msg_size, "HEVC data holds no picture");
    return picture;
}

/// Chroma shifts of a picture; -1 when it is not 8 bits per sample.
static int layout(const struct de265_image *img, int *sx, int *sy, int *mono) {
    enum de265_chroma c = de265_get_chroma_format(img);
    *mono = c == de265_chroma_mono;
    *sx = c == de265_chroma_420 || c == de265_chroma_422;
    *sy = c == de265_chroma_420;
    if (de265_get_bits_per_pixel(img, 0) != 8) return -1;
    if (!*mono && (de265_get_bits_per_pixel(img, 1) != 8 || de265_get_bits_per_pixel(img, 2) != 8)) return -1;
    return 0;
}

typedef struct grid_job {
    const shoebox_hevc_tile *tiles;
    int count, columns, tile_w, tile_h, shift_x, shift_y, monochrome;
    shoebox_hevc *out;
    pthread_mutex_t lock;
    int next, failed, unsupported;
    char message[200];
} grid_job;

/// Copies the part of a decoded tile that lies inside the output planes.
static void place_tile(grid_job *job, int k, const struct de265_image *img) {
    shoebox_hevc *o = job->out;
    int x0 = (k % job->columns) * job->tile_w, y0 = (k / job->columns) * job->tile_h;
    for (int c = 0; c < (job->monochrome ? 1 : 3); c++) {
        int sx = c ? job->shift_x : 0, sy = c ? job->shift_y : 0;
        int pw = (o->width + (1 << sx) - 1) >> sx, ph = (o->height + (1 << sy) - 1) >> sy;
        int cx = x0 >> sx, cy = y0 >> sy, tw = job->tile_w >> sx, th = job->tile_h >> sy;
        if (cx >= pw || cy >= ph) continue;
        int w = cx + tw > pw ? pw - cx : tw, h = cy + th > ph ? ph - cy : th;
        int stride;
        const uint8_t *src = de265_get_image_plane(img, c, &stride);
        uint8_t *dst = (uint8_t *)o->planes[c] + (size_t)cy * o->strides[c] + cx;
        for (int y = 0; y < h; y++) memcpy(dst + (size_t)y * o->strides[c], src + (size_t)y * stride, (size_t)w);
    }
}

/// Decodes tile `k` with a decoder of its own; 0, or -1 with the job's message set.
static int grid_tile(grid_job *job, int k) {
    de265_decoder_context *ctx = de265_new_decoder();
    char msg[200];
    int sx, sy, mono, result = -1, unsupported = 0;
    if (!ctx) { snprintf(msg, sizeof msg, "out of memory starting the HEVC decoder"); goto done; }
    const struct de265_image *img = decode_one(ctx, &job->tiles[k], msg, sizeof msg);
    if (!img) goto done;
    if (layout(img, &sx, &sy, &mono) != 0 || sx != job->shift_x || sy != job->shift_y || mono != job->monochrome
        || de265_get_image_width(img, 0) != job->tile_w || de265_get_image_height(img, 0) != job->tile_h) {
        snprintf(msg, sizeof msg, "grid tile %d differs from the first in size, depth or chroma format", k);
        unsupported = 1;
        goto done;
    }
    place_tile(job, k, img);
    result = 0;
done:
    if (ctx) de265_free_decoder(ctx);
    if (result != 0) {
        pthread_mutex_lock(&job->lock);
        if (!job->failed) { memcpy(job->message, msg, sizeof msg); job->unsupported = unsupported; }
        job->failed = 1;
        pthread_mutex_unlock(&job->lock);
    }
    return result;
}

static void *grid_worker(void *arg) {
    grid_job *job = arg;
    for (;;) {
        pthread_mutex_lock(&job->lock);
        int k = job->failed ? job->count : job->next++;
        pthread_mutex_unlock(&job->lock);
        if (k >= job->count || grid_tile(job, k) != 0) return NULL;
    }
}

/// The first tile (decoded here, to learn the tiles' size and layout), the planes allocated,
/// then the rest on `threads` threads, this one among them.
static shoebox_hevc *decode_grid(const shoebox_hevc_tile *tiles, int count, int columns, int width, int height,
                                 int threads, char *message, size_t message_size, int *unsupported) {
    shoebox_hevc *o = calloc(1, sizeof *o);
    de265_decoder_context *first = de265_new_decoder();
    if (!o || !first) { snprintf(message, message_size, "out of memory starting the HEVC decoder"); goto fail; }
    const struct de265_image *img = decode_one(first, &tiles[0], message, message_size);
    if (!img) goto fail;
    grid_job job = { .tiles = tiles, .count = count, .columns = columns, .out = o, .next = 1 };
    job.tile_w = de265_get_image_width(img, 0);
    job.tile_h = de265_get_image_height(img, 0);
    int rows = (count + columns - 1) / columns;
    if (layout(img, &job.shift_x, &job.shift_y, &job.monochrome) != 0
        || (long)job.tile_w * columns < width || (long)job.tile_h * rows < height
        || job.tile_w % (1 << job.shift_x) || job.tile_h % (1 << job.shift_y)) {
        snprintf(message, message_size, "grid of %d×%d tiles of %d×%d (not 8-bit, or not covering %d×%d)",
                 columns, rows, job.tile_w, job.tile_h, width, height);
        *unsupported = 1;
        goto fail;
    }
    o->width = width; o->height = height;
    o->shift_x = job.shift_x; o->shift_y = job.shift_y; o->monochrome = job.monochrome;
    o->matrix = de265_get_image_matrix_coefficients(img);
    o->full_range = de265_get_image_full_range_flag(img);
    size_t cw = (size_t)((width + (1 << job.shift_x) - 1) >> job.shift_x), ch = (size_t)((height + (1 << job.shift_y) - 1) >> job.shift_y);
    size_t luma = (size_t)width * (size_t)height, chroma = job.monochrome ? 0 : cw * ch;
    if (!(o->grid = malloc(luma + 2 * chroma))) { snprintf(message, message_size, "out of memory for a %d×%d grid", width, height); goto fail; }
    o->planes[0] = o->grid; o->strides[0] = width;
    if (!job.monochrome) {
        o->planes[1] = o->grid + luma; o->planes[2] = o->grid + luma + chroma;
        o->strides[1] = o->strides[2] = (int)cw;
    }
    place_tile(&job, 0, img);
    de265_free_decoder(first);
    first = NULL;
    pthread_mutex_init(&job.lock, NULL);
    int extra = threads - 1 < count - 1 ? threads - 1 : count - 1;
    pthread_t ids[16];
    int started = 0;
    for (int i = 0; i < extra && i < 16; i++) if (pthread_create(&ids[started], NULL, grid_worker, &job) == 0) started++;
    grid_worker(&job);
    for (int i = 0; i < started; i++) pthread_join(ids[i], NULL);
    pthread_mutex_destroy(&job.lock);
    if (job.failed) {
        snprintf(message, message_size, "%s", job.message);
        *unsupported = job.unsupported;
        goto fail;
    }
    return o;
fail:
    if (first) de265_free_decoder(first);
    shoebox_hevc_free(o);
    return NULL;
}

shoebox_hevc *shoebox_hevc_decode(const shoebox_hevc_tile *tiles, int count, int columns, int width, int height,
                                  int threads, char *message, size_t message_size, int *unsupported) {
    *unsupported = 0;
    if (count < 1 || columns < 1 || width < 1 || height < 1) {
        snprintf(message, message_size, "HEVC image without data");
        return NULL;
    }
    if (count > 1) return decode_grid(tiles, count, columns, width, height, threads, message, message_size, unsupported);
    shoebox_hevc *o = calloc(1, sizeof *o);
    if (!o || !(o->ctx = de265_new_decoder())) {
        snprintf(message, message_size, "out of memory starting the HEVC decoder");
        shoebox_hevc_free(o);
        return NULL;
    }
    // Wavefront threads: used when the encoder allowed them (x265 does by default), else idle.
    if (threads > 1) de265_start_worker_threads(o->ctx, threads);
    const struct de265_image *img = decode_one(o->ctx, tiles, message, message_size);
    if (!img || layout(img, &o->shift_x, &o->shift_y, &o->monochrome) != 0) {
        if (img) { snprintf(message, message_size, "HEVC image is not 8-bit"); *unsupported = 1; }
        shoebox_hevc_free(o);
        return NULL;
    }
    o->picture = img;
    o->width = de265_get_image_width(img, 0);
    o->height = de265_get_image_height(img, 0);
    o->matrix = de265_get_image_matrix_coefficients(img);
    o->full_range = de265_get_image_full_range_flag(img);
    for (int c = 0; c < (o->monochrome ? 1 : 3); c++) o->planes[c] = de265_get_image_plane(img, c, &o->strides[c]);
    return o;
}

void shoebox_hevc_planes(const shoebox_hevc *o, shoebox_ycbcr *src, int *width, int *height, int *vui_matrix,
                         int *vui_full_range) {
    *width = o->width;
    *height = o->height;
    src->y = o->planes[0]; src->y_stride = o->strides[0];
    src->cb = o->monochrome ? NULL : o->planes[1]; src->cb_stride = o->strides[1];
    src->cr = o->monochrome ? NULL : o->planes[2]; src->cr_stride = o->strides[2];
    src->bits = 8; src->chroma_bits = o->monochrome ? 0 : 8;
    src->chroma_shift_x = o->shift_x; src->chroma_shift_y = o->shift_y;
    *vui_matrix = o->matrix;
    *vui_full_range = o->full_range;
}

void shoebox_hevc_free(shoebox_hevc *o) {
    if (!o) return;
    if (o->ctx) de265_free_decoder(o->ctx);
    free(o->grid);
    free(o);
}

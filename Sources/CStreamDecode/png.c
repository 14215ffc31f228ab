#include "CStreamDecode.h"
#include <png.h>
#include <errno.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct shoebox_png {
    int fd;
    off_t position;
    png_structp png;
    png_infop info;
    uint8_t *row;         // one decoded row, freed by close even after a longjmp
    shoebox_box box;      // likewise
    char message[256];
};

static void on_error(png_structp png, png_const_charp message) {
    shoebox_png *self = png_get_error_ptr(png);
    snprintf(self->message, sizeof self->message, "%s", message ? message : "unknown error");
    png_longjmp(png, 1);
}

// Warnings (a bad CRC in an ancillary chunk, an sRGB profile libpng dislikes) are not worth a
// line on stderr per file: the picture decodes.
static void on_warning(png_structp png, png_const_charp message) { (void)png; (void)message; }

static void read_data(png_structp png, png_bytep data, size_t length) {
    shoebox_png *self = png_get_io_ptr(png);
    size_t done = 0;
    while (done < length) {
        ssize_t n = pread(self->fd, data + done, length - done, self->position);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) png_error(png, "cannot read the file");
        if (n == 0) png_error(png, "the file ends before the image does");
        done += (size_t)n;
        self->position += n;
    }
}

shoebox_png *shoebox_png_open(int fd) {
    shoebox_png *self = calloc(1, sizeof *self);
    if (!self) return NULL;
    self->fd = fd;
    self->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, self, on_error, on_warning);
    if (self->png) self->info = png_create_info_struct(self->png);
    if (!self->png || !self->info) { shoebox_png_close(self); return NULL; }
    png_set_read_fn(self->png, self, read_data);
    // Untrusted files: Debian's libpng puts no ceiling on what an ancillary chunk may allocate,
    // so a 1.8 KB file declaring a 2 GB iTXt chunk made libpng allocate 2 GB before finding the
    // file ends (a fuzzing find). Only the pixels and the colour chunks matter here: every text,
    // eXIf (read by MetadataReader), time and palette-histogram chunk is skipped unread, and
    // whatever is still kept (iCCP) may take at most 16 MiB; past that libpng reports a benign
    // error and drops the chunk. The simplified API used before skipped them the same way.
    static const png_byte skipped[] = {'t', 'E', 'X', 't', '\0', 'z', 'T', 'X', 't', '\0', 'i', 'T', 'X', 't', '\0',
                                       'e', 'X', 'I', 'f', '\0', 't', 'I', 'M', 'E', '\0', 's', 'P', 'L', 'T', '\0',
                                       'h', 'I', 'S', 'T', '\0', 'p', 'H', 'Y', 's', '\0', 'o', 'F', 'F', 's', '\0',
                                       'p', 'C', 'A', 'L', '\0', 's', 'C', 'A', 'L', '\0'};
    png_set_keep_unknown_chunks(self->png, PNG_HANDLE_CHUNK_NEVER, NULL, 0);
    png_set_keep_unknown_chunks(self->png, PNG_HANDLE_CHUNK_NEVER, skipped, (int)(sizeof skipped / 5));
    png_set_chunk_malloc_max(self->png, 16u << 20);
    png_set_chunk_cache_max(self->png, 128);
    return self;
}

int shoebox_png_read_header(shoebox_png *self, uint32_t *width, uint32_t *height, int *interlaced) {
    if (setjmp(png_jmpbuf(self->png))) return -1;
    // As the simplified API: damage in ancillary chunks is a warning, not a refusal.
    png_set_benign_errors(self->png, 1);
    png_read_info(self->png, self->info);
    *width = png_get_image_width(self->png, self->info);
    *height = png_get_image_height(self->png, self->info);
    *interlaced = png_get_interlace_type(self->png, self->info) != PNG_INTERLACE_NONE;
    return 0;
}

const uint8_t *shoebox_png_icc(shoebox_png *self, uint32_t *length) {
    png_charp name = NULL;
    png_bytep profile = NULL;
    png_uint_32 len = 0;
    int compression = 0;
    if (!png_get_iCCP(self->png, self->info, &name, &compression, &profile, &len)) return NULL;
    *length = len;
    return profile;
}

/// The transformations png_image_finish_read makes for PNG_FORMAT_RGB(A) (pngread.c,
/// png_image_read_direct), so colours come out as they did through the simplified API: the
/// file's gAMA, or sRGB when it has none, except 16-bit files without one, which libpng takes
/// as linear.
static void set_transforms(shoebox_png *self) {
    png_structp png = self->png;
    int depth = png_get_bit_depth(png, self->info);
    png_set_expand(png);
    if (!(png_get_color_type(png, self->info) & PNG_COLOR_MASK_COLOR)) png_set_gray_to_rgb(png);
    png_set_alpha_mode_fixed(png, PNG_ALPHA_PNG, depth == 16 ? PNG_GAMMA_LINEAR : PNG_DEFAULT_sRGB);
    if (depth == 16) png_set_scale_16(png);
    png_set_alpha_mode_fixed(png, PNG_ALPHA_PNG, PNG_DEFAULT_sRGB);
}

int shoebox_png_read_reduced(shoebox_png *self, int factor, uint8_t *out) {
    if (setjmp(png_jmpbuf(self->png))) return -1;
    png_structp png = self->png;
    set_transforms(self);
    // No png_set_interlace_handling: an interlaced file's rows come pass by pass, each pass a
    // sub-image, and are placed where Adam7 puts them. A box average does not care about the
    // order, so even interlaced files need no full-size image (only sums for the reduced one).
    png_read_update_info(png, self->info);
    int channels = png_get_channels(png, self->info);
    if (channels != 3 && channels != 4) png_error(png, "unexpected channel count after expansion");
    uint32_t w = png_get_image_width(png, self->info), h = png_get_image_height(png, self->info);
    int interlaced = png_get_interlace_type(png, self->info) != PNG_INTERLACE_NONE;
    self->row = malloc(png_get_rowbytes(png, self->info));
    if (!self->row) png_error(png, "out of memory for a row");
    int band = interlaced ? (int)((h + factor - 1) / factor) : 1;
    if (shoebox_box_init(&self->box, (int)w, (int)h, factor, channels, 0, band, out) != 0)
        png_error(png, "out of memory for the reduced image");
    if (!interlaced) {
        for (uint32_t y = 0; y < h; y++) {
            png_read_row(png, self->row, NULL);
            shoebox_box_add(&self->box, (int)y, 0, 1, self->row, (int)w);
            if ((y + 1) % (uint32_t)factor == 0 || y + 1 == h) shoebox_box_flush(&self->box);
        }
    } else {
        for (int pass = 0; pass < 7; pass++) {
            uint32_t cols = PNG_PASS_COLS(w, pass), rows = PNG_PASS_ROWS(h, pass);
            if (cols == 0 || rows == 0) continue;   // libpng skips empty passes too
            for (uint32_t r = 0; r < rows; r++) {
                png_read_row(png, self->row, NULL);
                shoebox_box_add(&self->box, (int)PNG_ROW_FROM_PASS_ROW(r, pass), (int)PNG_PASS_START_COL(pass),
                                1 << PNG_PASS_COL_SHIFT(pass), self->row, (int)cols);
            }
        }
        shoebox_box_flush(&self->box);
    }
    // The rest of the file (text, eXIf after the data) is not needed: no png_read_end.
    return 0;
}

const char *shoebox_png_message(const shoebox_png *self) {
    return self->message[0] ? self->message : "unknown error";
}

void shoebox_png_close(shoebox_png *self) {
    if (!self) return;
    if (self->png) png_destroy_read_struct(&self->png, self->info ? &self->info : NULL, NULL);
    free(self->row);
    shoebox_box_free(&self->box);
    free(self);
}

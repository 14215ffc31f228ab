#ifndef SHOEBOX_CSTREAMDECODE_H
#define SHOEBOX_CSTREAMDECODE_H
// Decoding without a full-size image in memory: a PNG read row by row (libpng's row API, whose
// errors longjmp and so must be caught in C, never across Swift frames), and an integer box
// reduction that rows of any decoder feed as they come.
#include <stdint.h>
#include <stddef.h>
#ifdef __cplusplus
extern "C" {
#endif

// MARK: Box reduction

/// Averages factor×factor blocks of 8-bit RGB or RGBA rows into `out` (ceil(width/factor) ×
/// ceil(height/factor) packed RGB; blocks cut by the right or bottom edge average what they
/// hold). RGBA is composited onto white first, in the file's values: c·a + 255·(1 − a),
/// rounded, or c + 255 − a when `premultiplied`. Pixels may arrive in any order (Adam7 passes).
typedef struct shoebox_box {
    int width, height, factor, channels, premultiplied;
    int out_width, out_height;
    /// Output rows [band_start, band_start + band_rows) accumulate in `sums` (3 per pixel);
    /// NULL when factor is 1 (pixels go straight to `out`).
    int band_start, band_rows;
    /// Pixels missing before the first column and row (0 unless set after init): blocks then
    /// end, not start, at the image's left or top edge, as they would after a turn or mirror
    /// applied to the reduced image. `width`/`height` include them; rows and columns passed to
    /// shoebox_box_add count them.
    int lead_x, lead_y;
    uint32_t *sums;
    uint8_t *out;
} shoebox_box;

/// `band_rows` output rows of sums: 1 when rows arrive top to bottom, out_height otherwise.
/// Returns -1 when the sums cannot be allocated. factor ≤ 4096 (sums stay within 32 bits).
int shoebox_box_init(shoebox_box *box, int width, int height, int factor, int channels, int premultiplied,
                     int band_rows, uint8_t *out);
/// `count` pixels of input row y at x = x0, x0 + xstep, …
void shoebox_box_add(shoebox_box *box, int y, int x0, int xstep, const uint8_t *pixels, int count);
/// Writes the averages of the band's output rows and moves the band to the next rows.
void shoebox_box_flush(shoebox_box *box);
void shoebox_box_free(shoebox_box *box);

// MARK: YCbCr planes

/// A decoded image's planes as libheif hands them over natively (no RGB copy made by libheif):
/// luma, chroma subsampled by 1 << chroma_shift_x/y (4:2:0 is 1, 1), optional alpha. Samples
/// of more than 8 bits are 16-bit words in host order. `cb`/`cr` NULL: monochrome.
typedef struct shoebox_ycbcr {
    const uint8_t *y, *cb, *cr, *alpha;
    int y_stride, cb_stride, cr_stride, alpha_stride;
    int bits, chroma_bits, alpha_bits;
    int chroma_shift_x, chroma_shift_y;
    /// H.273 matrix_coefficients (0 identity/GBR, 1 BT.709, 5/6 BT.601, 9/10 BT.2020 NCL…).
    int matrix, full_range;
    /// Lookup tables made by shoebox_ycbcr_prepare: every sample value's contribution, in
    /// 16.16 fixed point (a multiply per pixel and channel in doubles cost a 12-megapixel HEIC
    /// 0.2 s more than libheif's own conversion).
    int32_t *tables;
} shoebox_ycbcr;

/// Whether shoebox_box_add_ycbcr converts this matrix (the constant-luminance, YCgCo and
/// chromaticity-derived ones are left to libheif).
int shoebox_ycbcr_supported(int matrix);
/// Makes the tables for `src`'s matrix, range and depths. -1 when out of memory.
int shoebox_ycbcr_prepare(shoebox_ycbcr *src);
void shoebox_ycbcr_free(shoebox_ycbcr *src);
/// Converts row y of `src` to 8-bit RGB(A) (nearest chroma sample) in `scratch` (width × 4
/// bytes) and adds it to `box`, whose channels say whether alpha is used.
void shoebox_box_add_ycbcr(shoebox_box *box, const shoebox_ycbcr *src, int y, uint8_t *scratch);
/// Opaque images (see shoebox_ycbcr_reduce_supported for the factors): the planes are averaged
/// first (luma in factor×factor blocks, chroma in the blocks covering the same pixels) and only
/// the reduced image converted, a factor² fewer conversions (the conversion is linear, so this
/// differs from converting first only where a block's pixels clip). `out` as shoebox_box's.
/// -1 when out of memory.
int shoebox_ycbcr_reduce(const shoebox_ycbcr *src, int width, int height, int factor, uint8_t *out);
/// Whether shoebox_ycbcr_reduce takes `src` at `factor`: > 1, and a multiple of the chroma
/// subsampling, or 8-bit chroma (then summed per luma pixel, nearest sample: an odd factor in
/// 4:2:0, 3 for a 4032-px photo wanted at 1024).
int shoebox_ycbcr_reduce_supported(const shoebox_ycbcr *src, int factor);

// MARK: PNG rows

typedef struct shoebox_png shoebox_png;

/// A reader of the PNG in `fd` through `pread` from offset 0 (the descriptor's offset is not
/// used). NULL when out of memory.
shoebox_png *shoebox_png_open(int fd);
/// Reads the chunks before the image data. 0, or -1 with shoebox_png_message set.
int shoebox_png_read_header(shoebox_png *png, uint32_t *width, uint32_t *height, int *interlaced);
/// The iCCP profile libpng accepted (NULL when none); valid until shoebox_png_close.
const uint8_t *shoebox_png_icc(shoebox_png *png, uint32_t *length);
/// Decodes the image to 8-bit sRGB-encoded RGB (as libpng's simplified API does: palette and
/// grey expanded, 16 bits scaled, gAMA honoured), alpha composited onto white, reduced by
/// `factor` into `out` (ceil(width/factor) × ceil(height/factor) × 3 bytes). 0, or -1 with
/// shoebox_png_message set; `out` then holds what was decoded before the error.
int shoebox_png_read_reduced(shoebox_png *png, int factor, uint8_t *out);
const char *shoebox_png_message(const shoebox_png *png);
void shoebox_png_close(shoebox_png *png);

// MARK: HEVC images (a HEIC's coded items)

/// One coded image: its parameter sets (VPS, SPS, PPS from the item's hvcC, each NAL preceded
/// by a 4-byte big-endian length) and its data (each NAL preceded by `length_size` bytes).
typedef struct shoebox_hevc_tile {
    const uint8_t *params; size_t params_length;
    const uint8_t *data; size_t data_length;
    int length_size;
} shoebox_hevc_tile;

/// Decoded pictures held for their planes: one picture as libde265 left it (no copy), or the
/// tiles of a grid assembled into planes of the grid's output size.
typedef struct shoebox_hevc shoebox_hevc;

/// Decodes `count` tiles laid out `columns` across into a `width` × `height` image (a single
/// image: count 1, columns 1, its own size), on `threads` threads: libde265's wavefront threads
/// for a single image, whole tiles in parallel for a grid. NULL with `message` set (one line)
/// when a tile does not decode, is not 8-bit, or the tiles disagree in size or chroma format;
/// `*unsupported` is then 1 when the data decoded but is a layout not handled here.
shoebox_hevc *shoebox_hevc_decode(const shoebox_hevc_tile *tiles, int count, int columns, int width, int height,
                                  int threads, char *message, size_t message_size, int *unsupported);
/// The planes in `src` (y, cb, cr, strides, depths, chroma shifts; cb/cr NULL when monochrome),
/// their size and the stream's VUI colour description (matrix, full range), valid until
/// shoebox_hevc_free.
void shoebox_hevc_planes(const shoebox_hevc *hevc, shoebox_ycbcr *src, int *width, int *height, int *vui_matrix,
                         int *vui_full_range);
void shoebox_hevc_free(shoebox_hevc *hevc);

#ifdef __cplusplus
}
#endif
#endif

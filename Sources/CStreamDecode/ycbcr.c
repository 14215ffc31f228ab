#include "CStreamDecode.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/// Kr and Kb of the non-constant-luminance matrices (H.273 table 4); 0 for the others.
static int coefficients(int matrix, double *kr, double *kb) {
    switch (matrix) {
    case 1: *kr = 0.2126; *kb = 0.0722; return 1;        // BT.709
    case 4: *kr = 0.30; *kb = 0.11; return 1;            // FCC
    case 2:                                              // unspecified: BT.601, as libheif
    case 5: case 6: *kr = 0.299; *kb = 0.114; return 1;  // BT.601 (625 and 525 lines)
    case 7: *kr = 0.212; *kb = 0.087; return 1;          // SMPTE 240M
    case 9: *kr = 0.2627; *kb = 0.0593; return 1;        // BT.2020 non-constant luminance
    default: return 0;
    }
}

int shoebox_ycbcr_supported(int matrix) {
    double kr, kb;
    return matrix == 0 || coefficients(matrix, &kr, &kb);
}

enum { T_Y, T_R_CR, T_G_CB, T_G_CR, T_B_CB, T_COUNT };

int shoebox_ycbcr_prepare(shoebox_ycbcr *src) {
    double kr = 0.299, kb = 0.114;
    coefficients(src->matrix, &kr, &kb);
    double kg = 1 - kr - kb;
    double r_cr = 2 * (1 - kr), b_cb = 2 * (1 - kb), g_cb = -2 * kb * (1 - kb) / kg, g_cr = -2 * kr * (1 - kr) / kg;
    if (src->matrix == 0) { r_cr = 1; b_cb = 1; g_cb = 0; g_cr = 0; }   // identity: Cr is R, Cb is B
    int ny = 1 << src->bits, nc = 1 << (src->chroma_bits > 0 ? src->chroma_bits : 8);
    // Samples scaled to 0…255; limited range stretched (luma 16…235, chroma 16…240).
    double ys = 255.0 / (ny - 1), cs = 255.0 / (nc - 1);
    double yoff = 0, ymul = 1, cmul = 1;
    if (!src->full_range) { yoff = 16; ymul = 255.0 / 219; cmul = 255.0 / 224; }
    int n = ny > nc ? ny : nc;
    src->tables = malloc(sizeof(int32_t) * (size_t)n * T_COUNT);
    if (!src->tables) return -1;
    int32_t *t = src->tables;
    for (int v = 0; v < ny; v++) {
        // Identity: G is the "luma" plane as it is; the chroma planes carry R and B plus 128.
        double y = src->matrix == 0 ? v * ys : (v * ys - yoff) * ymul;
        t[T_Y * n + v] = (int32_t)lround(y * 65536) + 32768;   // + ½ to round
    }
    for (int v = 0; v < nc; v++) {
        double c = src->matrix == 0 ? v * cs : (v * cs - 128) * cmul;
        t[T_R_CR * n + v] = (int32_t)lround(r_cr * c * 65536);
        t[T_G_CB * n + v] = (int32_t)lround(g_cb * c * 65536);
        t[T_G_CR * n + v] = (int32_t)lround(g_cr * c * 65536);
        t[T_B_CB * n + v] = (int32_t)lround(b_cb * c * 65536);
    }
    return 0;
}

void shoebox_ycbcr_free(shoebox_ycbcr *src) {
    free(src->tables);
    src->tables = NULL;
}

static inline int sample(const uint8_t *row, int x, int bits) {
    return bits > 8 ? ((const uint16_t *)row)[x] : row[x];
}

static inline uint8_t clip16(int32_t v) {
    v >>= 16;
    return v < 0 ? 0 : v > 255 ? 255 : (uint8_t)v;
}

void shoebox_box_add_ycbcr(shoebox_box *box, const shoebox_ycbcr *src, int y, uint8_t *scratch) {
    int n = 1 << src->bits, nc = 1 << (src->chroma_bits > 0 ? src->chroma_bits : 8);
    if (nc > n) n = nc;
    const int32_t *ty = src->tables + T_Y * n, *trcr = src->tables + T_R_CR * n, *tgcb = src->tables + T_G_CB * n,
                  *tgcr = src->tables + T_G_CR * n, *tbcb = src->tables + T_B_CB * n;
    const uint8_t *yrow = src->y + (size_t)y * src->y_stride;
    int cy = y >> src->chroma_shift_y, sx = src->chroma_shift_x;
    const uint8_t *cbrow = src->cb ? src->cb + (size_t)cy * src->cb_stride : NULL;
    const uint8_t *crrow = src->cr ? src->cr + (size_t)cy * src->cr_stride : NULL;
    const uint8_t *arow = src->alpha ? src->alpha + (size_t)y * src->alpha_stride : NULL;
    int channels = box->channels, w = box->width - box->lead_x, by = y + box->lead_y;
    if (src->bits == 8 && src->chroma_bits == 8 && cbrow && crrow && src->matrix != 0 && channels == 3) {
        // The common case (an 8-bit 4:2:0 photo without alpha) without a branch per pixel;
        // unreduced, straight into the output row.
        int direct = !box->sums && box->lead_x == 0;
        if (direct) scratch = box->out + (size_t)by * box->out_width * 3;
        for (int x = 0; x < w; x++) {
            int32_t yv = ty[yrow[x]];
            int cb = cbrow[x >> sx], cr = crrow[x >> sx];
            uint8_t *p = scratch + (size_t)x * 3;
            p[0] = clip16(yv + trcr[cr]);
            p[1] = clip16(yv + tgcb[cb] + tgcr[cr]);
            p[2] = clip16(yv + tbcb[cb]);
        }
        if (!direct) shoebox_box_add(box, by, box->lead_x, 1, scratch, w);
        return;
    }
    for (int x = 0; x < w; x++) {
        int32_t yv = ty[sample(yrow, x, src->bits)];
        uint8_t *p = scratch + (size_t)x * channels;
        if (!cbrow || !crrow) {
            p[0] = p[1] = p[2] = clip16(yv);
        } else {
            int cb = sample(cbrow, x >> sx, src->chroma_bits), cr = sample(crrow, x >> sx, src->chroma_bits);
            if (src->matrix == 0) {   // identity: the planes are G, B, R
                p[0] = clip16(trcr[cr] + 32768); p[1] = clip16(yv); p[2] = clip16(tbcb[cb] + 32768);
            } else {
                p[0] = clip16(yv + trcr[cr]);
                p[1] = clip16(yv + tgcb[cb] + tgcr[cr]);
                p[2] = clip16(yv + tbcb[cb]);
            }
        }
        if (channels == 4)
            p[3] = arow ? (uint8_t)(sample(arow, x, src->alpha_bits) * 255 / ((1 << src->alpha_bits) - 1)) : 255;
    }
    shoebox_box_add(box, by, box->lead_x, 1, scratch, w);
}

/// Adds plane rows [y0, y1) into sums[0…], one per block of `f` samples across.
static void sum_rows(const uint8_t *plane, int stride, int bits, int width, int y0, int y1, int f, uint32_t *sums) {
    for (int y = y0; y < y1; y++) {
        const uint8_t *row = plane + (size_t)y * stride;
        for (int x = 0; x < width; x += f) {
            uint32_t s = 0;
            int n = width - x < f ? width - x : f;
            if (bits > 8) { for (int i = 0; i < n; i++) s += ((const uint16_t *)row)[x + i]; }
            else { for (int i = 0; i < n; i++) s += row[x + i]; }
            sums[x / f] += s;
        }
    }
}

/// Adds, for luma rows [y0, y1), each luma pixel's nearest 8-bit chroma sample into sums[0…],
/// one per block of `f` pixels across: the chroma of a block whose edges cut chroma samples
/// (an odd factor in 4:2:0), weighted as converting every pixel would weight it.
static void sum_chroma_nearest(const uint8_t *plane, int stride, int width, int y0, int y1, int f, int sx, int sy,
                               uint32_t *sums) {
    for (int y = y0; y < y1; y++) {
        const uint8_t *row = plane + (size_t)(y >> sy) * stride;
        for (int x = 0; x < width; x += f) {
            uint32_t s = 0;
            int end = width - x < f ? width : x + f;
            for (int i = x; i < end; i++) s += row[i >> sx];
            sums[x / f] += s;
        }
    }
}

int shoebox_ycbcr_reduce_supported(const shoebox_ycbcr *src, int factor) {
    int whole = factor % (1 << src->chroma_shift_x) == 0 && factor % (1 << src->chroma_shift_y) == 0;
    return factor > 1 && (whole || src->chroma_bits == 8 || !src->cb || !src->cr);
}

int shoebox_ycbcr_reduce(const shoebox_ycbcr *src, int width, int height, int factor, uint8_t *out) {
    int f = factor, ow = (width + f - 1) / f, oh = (height + f - 1) / f;
    int sx = src->chroma_shift_x, sy = src->chroma_shift_y, fx = f >> sx, fy = f >> sy;
    int cw = (width + (1 << sx) - 1) >> sx, ch = (height + (1 << sy) - 1) >> sy;
    int chroma = src->cb && src->cr;
    // A factor that cuts chroma samples: chroma summed per luma pixel (nearest sample).
    int nearest = factor % (1 << sx) != 0 || factor % (1 << sy) != 0;
    uint32_t *sums = calloc((size_t)ow * 3, sizeof(uint32_t));
    if (!sums) return -1;
    int n = 1 << src->bits, nc = 1 << (src->chroma_bits > 0 ? src->chroma_bits : 8);
    if (nc > n) n = nc;
    const int32_t *ty = src->tables + T_Y * n, *trcr = src->tables + T_R_CR * n, *tgcb = src->tables + T_G_CB * n,
                  *tgcr = src->tables + T_G_CR * n, *tbcb = src->tables + T_B_CB * n;
    uint32_t *ys = sums, *cbs = sums + ow, *crs = sums + 2 * ow;
    for (int oy = 0; oy < oh; oy++) {
        int y0 = oy * f, y1 = y0 + f < height ? y0 + f : height;
        sum_rows(src->y, src->y_stride, src->bits, width, y0, y1, f, ys);
        int c0 = oy * fy, c1 = c0 + fy < ch ? c0 + fy : ch;
        if (chroma && nearest) {
            sum_chroma_nearest(src->cb, src->cb_stride, width, y0, y1, f, sx, sy, cbs);
            sum_chroma_nearest(src->cr, src->cr_stride, width, y0, y1, f, sx, sy, crs);
        } else if (chroma) {
            sum_rows(src->cb, src->cb_stride, src->chroma_bits, cw, c0, c1, fx, cbs);
            sum_rows(src->cr, src->cr_stride, src->chroma_bits, cw, c0, c1, fx, crs);
        }
        uint8_t *row = out + (size_t)oy * ow * 3;
        for (int ox = 0; ox < ow; ox++) {
            uint32_t bw = (uint32_t)(width - ox * f < f ? width - ox * f : f), bh = (uint32_t)(y1 - y0), nl = bw * bh;
            int32_t yv = ty[(ys[ox] + nl / 2) / nl];
            uint8_t *p = row + ox * 3;
            if (!chroma) {
                p[0] = p[1] = p[2] = clip16(yv);
            } else {
                uint32_t cbw = (uint32_t)(cw - ox * fx < fx ? cw - ox * fx : fx), cn = nearest ? nl : cbw * (uint32_t)(c1 - c0);
                int cb = (int)((cbs[ox] + cn / 2) / cn), cr = (int)((crs[ox] + cn / 2) / cn);
                if (src->matrix == 0) {
                    p[0] = clip16(trcr[cr] + 32768); p[1] = clip16(yv); p[2] = clip16(tbcb[cb] + 32768);
                } else {
                    p[0] = clip16(yv + trcr[cr]);
                    p[1] = clip16(yv + tgcb[cb] + tgcr[cr]);
                    p[2] = clip16(yv + tbcb[cb]);
                }
            }
        }
        memset(sums, 0, (size_t)ow * 3 * sizeof(uint32_t));
    }
    free(sums);
    return 0;
}

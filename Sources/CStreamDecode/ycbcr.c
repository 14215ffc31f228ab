#include "CStreamDecode.h"
#include <math.h>

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

static inline int sample(const uint8_t *row, int x, int bits) {
    return bits > 8 ? ((const uint16_t *)row)[x] : row[x];
}

static inline uint8_t clip(double v) {
    return v <= 0 ? 0 : v >= 255 ? 255 : (uint8_t)lround(v);
}

void shoebox_box_add_ycbcr(shoebox_box *box, const shoebox_ycbcr *src, int y, uint8_t *scratch) {
    double kr = 0.299, kb = 0.114;
    coefficients(src->matrix, &kr, &kb);
    double kg = 1 - kr - kb;
    double r_cr = 2 * (1 - kr), b_cb = 2 * (1 - kb), g_cb = -2 * kb * (1 - kb) / kg, g_cr = -2 * kr * (1 - kr) / kg;
    // Samples scaled to 0…255 floats; limited range stretched (luma 16…235, chroma 16…240).
    double ys = 255.0 / ((1 << src->bits) - 1), cs = 255.0 / ((1 << src->chroma_bits) - 1);
    double yoff = 0, ymul = 1, cmul = 1;
    if (!src->full_range) { yoff = 16; ymul = 255.0 / 219; cmul = 255.0 / 224; }
    const uint8_t *yrow = src->y + (size_t)y * src->y_stride;
    int cy = y >> src->chroma_shift_y;
    const uint8_t *cbrow = src->cb ? src->cb + (size_t)cy * src->cb_stride : NULL;
    const uint8_t *crrow = src->cr ? src->cr + (size_t)cy * src->cr_stride : NULL;
    const uint8_t *arow = src->alpha ? src->alpha + (size_t)y * src->alpha_stride : NULL;
    int channels = box->channels;
    for (int x = 0; x < box->width; x++) {
        double yv = (sample(yrow, x, src->bits) * ys - yoff) * ymul;
        uint8_t *p = scratch + (size_t)x * channels;
        if (!cbrow || !crrow) {
            p[0] = p[1] = p[2] = clip(yv);
        } else {
            int cx = x >> src->chroma_shift_x;
            double cb = (sample(cbrow, cx, src->chroma_bits) * cs - 128) * cmul;
            double cr = (sample(crrow, cx, src->chroma_bits) * cs - 128) * cmul;
            if (src->matrix == 0) {   // identity: the planes are G, B, R
                p[0] = clip(cr + 128); p[1] = clip(yv); p[2] = clip(cb + 128);
            } else {
                p[0] = clip(yv + r_cr * cr);
                p[1] = clip(yv + g_cb * cb + g_cr * cr);
                p[2] = clip(yv + b_cb * cb);
            }
        }
        if (channels == 4)
            p[3] = arow ? (uint8_t)(sample(arow, x, src->alpha_bits) * 255 / ((1 << src->alpha_bits) - 1)) : 255;
    }
    shoebox_box_add(box, y, 0, 1, scratch, box->width);
}

#include "CStreamDecode.h"
#include <stdlib.h>
#include <string.h>

int shoebox_box_init(shoebox_box *box, int width, int height, int factor, int channels, int premultiplied,
                     int band_rows, uint8_t *out) {
    memset(box, 0, sizeof *box);
    box->width = width; box->height = height; box->factor = factor;
    box->channels = channels; box->premultiplied = premultiplied; box->out = out;
    box->out_width = (width + factor - 1) / factor;
    box->out_height = (height + factor - 1) / factor;
    box->band_rows = band_rows < box->out_height ? band_rows : box->out_height;
    if (factor == 1) return 0;
    box->sums = calloc((size_t)box->band_rows * (size_t)box->out_width * 3, sizeof(uint32_t));
    return box->sums ? 0 : -1;
}

/// One pixel's RGB on white, as PNGDecoder has always composited (sRGB values, not linear
/// light: what viewers on a light background show).
static inline void on_white(const shoebox_box *box, const uint8_t *p, uint32_t rgb[3]) {
    if (box->channels == 3) { rgb[0] = p[0]; rgb[1] = p[1]; rgb[2] = p[2]; return; }
    uint32_t a = p[3];
    for (int c = 0; c < 3; c++) {
        if (box->premultiplied) {
            uint32_t v = p[c] + 255 - a;
            rgb[c] = v > 255 ? 255 : v;
        } else {
            rgb[c] = (p[c] * a + 255 * (255 - a) + 127) / 255;
        }
    }
}

void shoebox_box_add(shoebox_box *box, int y, int x0, int xstep, const uint8_t *pixels, int count) {
    uint32_t rgb[3];
    if (!box->sums) {
        uint8_t *row = box->out + (size_t)y * box->out_width * 3;
        for (int i = 0, x = x0; i < count; i++, x += xstep) {
            on_white(box, pixels + (size_t)i * box->channels, rgb);
            row[x * 3] = (uint8_t)rgb[0]; row[x * 3 + 1] = (uint8_t)rgb[1]; row[x * 3 + 2] = (uint8_t)rgb[2];
        }
        return;
    }
    int oy = y / box->factor - box->band_start;
    if (oy < 0 || oy >= box->band_rows) return;   // a caller's mistake; never write outside
    uint32_t *sums = box->sums + (size_t)oy * box->out_width * 3;
    if (box->channels == 3 && x0 == 0 && xstep == 1) {
        // Opaque rows in order (nearly every row of every image): no compositing, no division
        // per pixel, one block of `factor` pixels after another.
        int f = box->factor;
        for (int x = 0; x < count; x += f) {
            uint32_t *s = sums + (x / f) * 3, r = 0, g = 0, b = 0;
            const uint8_t *p = pixels + (size_t)x * 3;
            for (int i = 0, n = count - x < f ? count - x : f; i < n; i++, p += 3) { r += p[0]; g += p[1]; b += p[2]; }
            s[0] += r; s[1] += g; s[2] += b;
        }
        return;
    }
    for (int i = 0, x = x0; i < count; i++, x += xstep) {
        on_white(box, pixels + (size_t)i * box->channels, rgb);
        uint32_t *s = sums + (x / box->factor) * 3;
        s[0] += rgb[0]; s[1] += rgb[1]; s[2] += rgb[2];
    }
}

void shoebox_box_flush(shoebox_box *box) {
    if (!box->sums) return;
    int f = box->factor;
    for (int r = 0; r < box->band_rows && box->band_start + r < box->out_height; r++) {
        int oy = box->band_start + r;
        int top = oy * f > box->lead_y ? oy * f : box->lead_y, bottom = (oy + 1) * f < box->height ? (oy + 1) * f : box->height;
        uint32_t bh = (uint32_t)(bottom - top);
        uint32_t *sums = box->sums + (size_t)r * box->out_width * 3;
        uint8_t *row = box->out + (size_t)oy * box->out_width * 3;
        for (int ox = 0; ox < box->out_width; ox++) {
            int left = ox * f > box->lead_x ? ox * f : box->lead_x, right = (ox + 1) * f < box->width ? (ox + 1) * f : box->width;
            uint32_t n = (uint32_t)(right - left) * bh;
            for (int c = 0; c < 3; c++) row[ox * 3 + c] = (uint8_t)((sums[ox * 3 + c] + n / 2) / n);
        }
        memset(sums, 0, (size_t)box->out_width * 3 * sizeof(uint32_t));
    }
    box->band_start += box->band_rows;
}

void shoebox_box_free(shoebox_box *box) {
    free(box->sums);
    box->sums = NULL;
}

#ifndef SHOEBOX_CIMAGEOPS_H
#define SHOEBOX_CIMAGEOPS_H
// The few OpenCV operations the analysis pipeline needs, behind plain C types so Swift never
// sees C++ (OpenCV's headers do not import into Swift).
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

/// Area-averaging resize of interleaved 8-bit RGB (cv::resize, INTER_AREA). Both buffers are
/// tightly packed rows. Returns 0, or -1 when OpenCV threw (the message is not kept).
int shoebox_resize_area(const uint8_t *src, int srcWidth, int srcHeight,
                        uint8_t *dst, int dstWidth, int dstHeight);

/// The rectangle (cropX, cropY, cropWidth, cropHeight) of interleaved 8-bit RGB `src` (tightly
/// packed) resized into `dst`, a dstWidth×dstHeight window whose rows are `dstStride` bytes apart
/// (a cell of a larger canvas): INTER_AREA when it shrinks (no aliasing), INTER_CUBIC when it
/// enlarges. Returns 0, or -1 for a rectangle outside `src` or when OpenCV threw.
int shoebox_resize_region(const uint8_t *src, int srcWidth, int srcHeight,
                          int cropX, int cropY, int cropWidth, int cropHeight,
                          uint8_t *dst, int dstStride, int dstWidth, int dstHeight);

/// `src` scaled to scaledWidth×scaledHeight (INTER_AREA when neither side grows, else
/// INTER_CUBIC: area averaging only reduces), then the dstWidth×dstHeight window at (x, y) of the
/// scaled image copied into `dst`. Returns 0, or -1 when OpenCV threw or the window is not inside.
int shoebox_resize_window(const uint8_t *src, int srcWidth, int srcHeight, int scaledWidth, int scaledHeight,
                          int x, int y, uint8_t *dst, int dstWidth, int dstHeight);

/// cv::img_hash::PHash of interleaved 8-bit RGB: 64 bits, first byte of OpenCV's hash in the
/// high bits. Returns 0 and sets *hash, or -1 when OpenCV threw.
int shoebox_phash(const uint8_t *rgb, int width, int height, uint64_t *hash);

#ifdef __cplusplus
}
#endif
#endif

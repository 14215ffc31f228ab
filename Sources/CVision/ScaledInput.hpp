// What every detector does first: check the caller's pixels and scale, then resize them.
#pragma once
#include <cstddef>
#include <cstdint>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "ErrorText.hpp"

namespace cvision {

// The photo resized by `scale`: area averaging when reducing (no aliasing), bilinear when
// enlarging. The caller's buffer is only read: OpenCV wraps it without copying.
inline cv::Mat scaled(const uint8_t *rgb, int w, int h, double scale) {
    cv::Mat source(h, w, CV_8UC3, const_cast<uint8_t *>(rgb));
    if (scale == 1.0) return source;
    cv::Mat result;
    cv::resize(source, result, cv::Size(), scale, scale, scale < 1 ? cv::INTER_AREA : cv::INTER_LINEAR);
    return result;
}

inline bool valid_input(const uint8_t *rgb, int w, int h, double scale, char *err, size_t err_len) {
    if (rgb == nullptr || w <= 0 || h <= 0) {
        set_error(err, err_len, "no pixels to detect faces in");
        return false;
    }
    if (!(scale > 0.01 && scale <= 8)) {
        set_error(err, err_len, "detection scale out of range (0.01, 8]");
        return false;
    }
    return true;
}

}  // namespace cvision

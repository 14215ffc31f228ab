#include "CImageOps.h"
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/img_hash.hpp>

extern "C" int shoebox_resize_area(const uint8_t *src, int srcWidth, int srcHeight,
                                   uint8_t *dst, int dstWidth, int dstHeight) {
    try {
        // Mats over the caller's buffers: no copy in, and resize writes straight into dst
        // because its size and type already match.
        cv::Mat in(srcHeight, srcWidth, CV_8UC3, const_cast<uint8_t *>(src));
        cv::Mat out(dstHeight, dstWidth, CV_8UC3, dst);
        cv::resize(in, out, out.size(), 0, 0, cv::INTER_AREA);
        return out.data == dst ? 0 : -1;
    } catch (...) {
        return -1;
    }
}

extern "C" int shoebox_resize_region(const uint8_t *src, int srcWidth, int srcHeight,
                                     int cropX, int cropY, int cropWidth, int cropHeight,
                                     uint8_t *dst, int dstStride, int dstWidth, int dstHeight) {
    if (cropX < 0 || cropY < 0 || cropWidth <= 0 || cropHeight <= 0 || cropX + cropWidth > srcWidth ||
        cropY + cropHeight > srcHeight || dstWidth <= 0 || dstHeight <= 0 || dstStride < dstWidth * 3) return -1;
    try {
        cv::Mat in(srcHeight, srcWidth, CV_8UC3, const_cast<uint8_t *>(src));
        cv::Mat region = in(cv::Rect(cropX, cropY, cropWidth, cropHeight));
        // A header over the canvas window (its stride the canvas's): resize writes straight into it.
        cv::Mat out(dstHeight, dstWidth, CV_8UC3, dst, (size_t)dstStride);
        bool shrinks = cropWidth >= dstWidth && cropHeight >= dstHeight;
        cv::resize(region, out, out.size(), 0, 0, shrinks ? cv::INTER_AREA : cv::INTER_CUBIC);
        return out.data == dst ? 0 : -1;
    } catch (...) {
        return -1;
    }
}

extern "C" int shoebox_resize_window(const uint8_t *src, int srcWidth, int srcHeight, int scaledWidth, int scaledHeight,
                                     int x, int y, uint8_t *dst, int dstWidth, int dstHeight) {
    if (x < 0 || y < 0 || dstWidth <= 0 || dstHeight <= 0 || x + dstWidth > scaledWidth || y + dstHeight > scaledHeight) return -1;
    try {
        cv::Mat in(srcHeight, srcWidth, CV_8UC3, const_cast<uint8_t *>(src));
        cv::Mat scaled;
        bool reduces = scaledWidth <= srcWidth && scaledHeight <= srcHeight;
        cv::resize(in, scaled, cv::Size(scaledWidth, scaledHeight), 0, 0, reduces ? cv::INTER_AREA : cv::INTER_CUBIC);
        cv::Mat out(dstHeight, dstWidth, CV_8UC3, dst);
        scaled(cv::Rect(x, y, dstWidth, dstHeight)).copyTo(out);
        return out.data == dst ? 0 : -1;
    } catch (...) {
        return -1;
    }
}

extern "C" int shoebox_phash(const uint8_t *rgb, int width, int height, uint64_t *hash) {
    try {
        cv::Mat in(height, width, CV_8UC3, const_cast<uint8_t *>(rgb));
        cv::Mat bgr;
        // PHash converts BGR to grey; ours is RGB, so swap once to weigh the channels right.
        cv::cvtColor(in, bgr, cv::COLOR_RGB2BGR);
        cv::Mat out;
        cv::img_hash::pHash(bgr, out);
        if (out.total() != 8) return -1;
        uint64_t h = 0;
        for (int i = 0; i < 8; i++) h = (h << 8) | out.at<uint8_t>(0, i);
        *hash = h;
        return 0;
    } catch (...) {
        return -1;
    }
}

// The handle's parts that the measurement files share (not part of the C interface).
#pragma once
#include <opencv2/objdetect.hpp>
#include <tesseract/capi.h>

namespace cscore {
/// opencv-data's eye (open eyes, glasses too) and smile cascades; empty when missing.
struct Cascades {
    cv::CascadeClassifier eyes, smile;
};
/// Tesseract with English, or none when its data is missing.
struct Reader {
    TessBaseAPI *api = nullptr;
};
}  // namespace cscore

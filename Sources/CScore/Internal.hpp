// The handle's parts that the measurement files share (not part of the C interface).
#pragma once
#include <opencv2/objdetect.hpp>
#include <tesseract/capi.h>

namespace cscore {
struct Landmarks;
/// dlib's 68-point shape predictor from `path`; NULL when the file is missing or another model.
Landmarks *load_landmarks(const char *path);
void free_landmarks(Landmarks *l);
/// The eye aspect ratio of each eye of the face in `box` (Eyes.cpp); false without landmarks.
bool eye_ratios(const Landmarks *l, const cv::Mat &gray8, cv::Rect box, double &left, double &right);

/// opencv-data's eye (open eyes, glasses too) and smile cascades, empty when missing; dlib's 68
/// landmarks for the eyes' opening when its model is there (then the eye cascade is not used).
struct Cascades {
    cv::CascadeClassifier eyes, smile;
    Landmarks *landmarks = nullptr;
};
/// Tesseract with English, or none when its data is missing.
struct Reader {
    TessBaseAPI *api = nullptr;
};
}  // namespace cscore

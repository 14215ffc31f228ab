// The handle's parts that the measurement files share (not part of the C interface).
#pragma once
#include <opencv2/objdetect.hpp>
#include <string>
#include <tesseract/capi.h>

namespace cscore {
struct Landmarks;
/// dlib's 68-point shape predictor from `path`, loaded on the first call for that path and then
/// shared by every scorer of the process (~0.5 s of CPU and 95 MB: once, and only when a face
/// needs its eyes judged; its predictions are const, so threads share it). NULL when the file
/// is missing or another model.
const Landmarks *shared_landmarks(const std::string &path);
/// The eye aspect ratio of each eye of the face in `box` (Eyes.cpp); false without landmarks.
bool eye_ratios(const Landmarks *l, const cv::Mat &gray8, cv::Rect box, double &left, double &right);

/// opencv-data's eye (open eyes, glasses too) and smile cascades, empty when missing; dlib's 68
/// landmarks for the eyes' opening when its model is there (then the eye cascade is not used).
struct Cascades {
    cv::CascadeClassifier eyes, smile;
    std::string landmarksPath;
};
/// Tesseract with English, started on the first page to read (most photos never need it), or
/// none when its data is missing.
struct Reader {
    std::string tessdata;
    bool tried = false;
    TessBaseAPI *api = nullptr;
    /// The started API, or NULL when Tesseract or its English data is missing.
    TessBaseAPI *open();
    ~Reader();
};
}  // namespace cscore

// Face detection: dlib's frontal HOG detector and OpenCV's Haar cascade behind one contract, so
// both can be measured on the same photos (Faces picks the default).
#include "CVision.h"
#include "ErrorText.hpp"
#include "OpenCVThreads.hpp"
#include "ScaledInput.hpp"

#include <algorithm>
#include <exception>
#include <new>
#include <vector>

#include <dlib/image_processing/frontal_face_detector.h>
#include <dlib/opencv/cv_image.h>
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/objdetect.hpp>

using cvision::scaled;
using cvision::set_error;
using cvision::valid_input;

struct cv_hog_detector {
    dlib::frontal_face_detector detector = dlib::get_frontal_face_detector();
};

struct cv_haar_detector {
    cv::CascadeClassifier cascade;
};

namespace {

// Boxes of the scaled image back in the caller's pixels, best first.
int write_boxes(std::vector<cv_face_box> boxes, double scale, cv_face_box *out, int max) {
    std::sort(boxes.begin(), boxes.end(),
              [](const cv_face_box &a, const cv_face_box &b) { return a.confidence > b.confidence; });
    for (int i = 0; i < (int)boxes.size() && i < max; i++) {
        cv_face_box b = boxes[i];
        out[i] = {b.x / scale, b.y / scale, b.w / scale, b.h / scale, b.confidence};
    }
    return (int)boxes.size();
}

}  // namespace

extern "C" {

// Shoebox runs one detector per worker thread: OpenCV's own thread pool under resize and the
// cascade would only compete with those workers. Process-wide, set when a detector is made.
static void single_threaded_opencv() { shoebox_opencv_single_threaded(); }

cv_hog_detector *cv_hog_create(char *err, size_t err_len) {
    try {
        single_threaded_opencv();
        return new cv_hog_detector();
    } catch (const std::exception &e) {
        set_error(err, err_len, std::string("dlib's face detector: ") + e.what());
    } catch (...) {
        set_error(err, err_len, "dlib's face detector could not be created");
    }
    return nullptr;
}

void cv_hog_destroy(cv_hog_detector *d) { delete d; }

int cv_hog_detect(cv_hog_detector *d, const uint8_t *rgb, int w, int h, double scale,
                  double adjust_threshold, cv_face_box *out, int max, char *err, size_t err_len) {
    if (!valid_input(rgb, w, h, scale, err, err_len)) return -1;
    try {
        cv::Mat image = scaled(rgb, w, h, scale);
        // cv_image reads the Mat's bytes as dlib pixels: R, G, B in that order, as given.
        dlib::cv_image<dlib::rgb_pixel> view(image);
        std::vector<dlib::rect_detection> found;
        d->detector(view, found, adjust_threshold);
        std::vector<cv_face_box> boxes;
        for (const auto &f : found) {
            // dlib's rectangles are inclusive of their right and bottom pixels.
            boxes.push_back({(double)f.rect.left(), (double)f.rect.top(), (double)f.rect.width(),
                             (double)f.rect.height(), f.detection_confidence});
        }
        return write_boxes(boxes, scale, out, max);
    } catch (const std::exception &e) {
        set_error(err, err_len, std::string("face detection failed: ") + e.what());
    } catch (...) {
        set_error(err, err_len, "face detection failed");
    }
    return -1;
}

cv_haar_detector *cv_haar_create(const char *cascade_path, char *err, size_t err_len) {
    try {
        single_threaded_opencv();
        auto d = new cv_haar_detector();
        if (cascade_path == nullptr || !d->cascade.load(cascade_path)) {
            delete d;
            set_error(err, err_len, std::string("cannot load the Haar cascade ") +
                                        (cascade_path ? cascade_path : "(no path)") +
                                        " (Debian's opencv-data: scripts/install-deps)");
            return nullptr;
        }
        return d;
    } catch (const std::exception &e) {
        set_error(err, err_len, std::string("cannot load the Haar cascade: ") + e.what());
    } catch (...) {
        set_error(err, err_len, "cannot load the Haar cascade");
    }
    return nullptr;
}

void cv_haar_destroy(cv_haar_detector *d) { delete d; }

int cv_haar_detect(cv_haar_detector *d, const uint8_t *rgb, int w, int h, double scale,
                   int min_neighbors, cv_face_box *out, int max, char *err, size_t err_len) {
    if (!valid_input(rgb, w, h, scale, err, err_len)) return -1;
    try {
        cv::Mat image = scaled(rgb, w, h, scale), gray;
        cv::cvtColor(image, gray, cv::COLOR_RGB2GRAY);
        cv::equalizeHist(gray, gray);
        std::vector<cv::Rect> rects;
        std::vector<int> levels;
        std::vector<double> weights;
        // The smallest face matches the HOG detector's window so both are measured on equal terms.
        d->cascade.detectMultiScale(gray, rects, levels, weights, 1.1, std::max(1, min_neighbors), 0,
                                    cv::Size(40, 40), cv::Size(), true);
        std::vector<cv_face_box> boxes;
        for (size_t i = 0; i < rects.size(); i++) {
            const cv::Rect &r = rects[i];
            boxes.push_back({(double)r.x, (double)r.y, (double)r.width, (double)r.height,
                             i < weights.size() ? weights[i] : 0});
        }
        return write_boxes(boxes, scale, out, max);
    } catch (const std::exception &e) {
        set_error(err, err_len, std::string("face detection failed: ") + e.what());
    } catch (...) {
        set_error(err, err_len, "face detection failed");
    }
    return -1;
}

}  // extern "C"

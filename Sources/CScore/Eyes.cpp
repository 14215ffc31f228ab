// Open or closed eyes from dlib's 68 face landmarks: the eye aspect ratio of Soukupová and Čech
// (2016), the eyelids' opening over the eye's width. It holds on real faces where the Haar eye
// cascade, which finds only clear open eyes, called small, soft or turned faces "eyes closed".
// The only file that includes dlib (its headers are slow to compile).
#include "Internal.hpp"
#include <dlib/image_processing/shape_predictor.h>
#include <dlib/opencv/cv_image.h>
#include <cmath>
#include <fstream>
#include <map>
#include <mutex>

namespace cscore {

struct Landmarks {
    dlib::shape_predictor predictor;
};

namespace {
Landmarks *load_landmarks(const std::string &path) {
    if (path.empty() || !std::ifstream(path, std::ios::binary).good()) return nullptr;
    auto l = new Landmarks();
    try {
        dlib::deserialize(path) >> l->predictor;
    } catch (...) {
        delete l;
        return nullptr;
    }
    if (l->predictor.num_parts() != 68) { delete l; return nullptr; }
    return l;
}
}  // namespace

const Landmarks *shared_landmarks(const std::string &path) {
    static std::mutex lock;
    static std::map<std::string, Landmarks *> loaded;  // kept for the process's life
    std::lock_guard<std::mutex> hold(lock);
    auto found = loaded.find(path);
    if (found != loaded.end()) return found->second;
    return loaded[path] = load_landmarks(path);
}

namespace {
/// (|p2 − p6| + |p3 − p5|) / (2 |p1 − p4|) over the six points of one eye, from `first`.
double aspect(const dlib::full_object_detection &s, int first) {
    auto d = [&](int a, int b) { return std::hypot((double)(s.part(first + a).x() - s.part(first + b).x()),
                                                   (double)(s.part(first + a).y() - s.part(first + b).y())); };
    double width = d(0, 3);
    return width > 0 ? (d(1, 5) + d(2, 4)) / (2 * width) : 0;
}
}  // namespace

bool eye_ratios(const Landmarks *l, const cv::Mat &gray8, cv::Rect box, double &left, double &right) {
    if (l == nullptr) return false;
    dlib::cv_image<unsigned char> image(gray8);
    // The CenterFace box as it is: on real faces it placed the eyelids better than a box cut to
    // dlib's own detector's (brows to chin).
    dlib::rectangle rect(box.x, box.y, box.x + box.width - 1, box.y + box.height - 1);
    dlib::full_object_detection shape = l->predictor(image, rect);
    if (shape.num_parts() != 68) return false;
    right = aspect(shape, 36);  // the subject's right eye, on the image's left
    left = aspect(shape, 42);
    return true;
}

}  // namespace cscore

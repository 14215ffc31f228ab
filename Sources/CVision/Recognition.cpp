// Face identity: dlib's 5-point alignment and its ResNet 128-d descriptor. The only file that
// includes dlib's DNN headers (they take minutes to compile: keep them here alone).
#include "CVision.h"
#include "ErrorText.hpp"

#include <cmath>
#include <cstring>
#include <exception>
#include <fstream>
#include <string>
#include <vector>

#include <dlib/dnn.h>
#include <dlib/image_processing.h>
#include <dlib/image_transforms.h>

using cvision::set_error;

namespace {

// The network dlib_face_recognition_resnet_model_v1.dat was trained as: a ResNet-29 of dlib's
// layers, written out because a serialized dlib network is read only into its exact C++ type
// (the definition dlib publishes with the model, dnn_face_recognition_ex.cpp).
using namespace dlib;
template <template <int, template <typename> class, int, typename> class block, int N,
          template <typename> class BN, typename SUBNET>
using residual = add_prev1<block<N, BN, 1, tag1<SUBNET>>>;
template <template <int, template <typename> class, int, typename> class block, int N,
          template <typename> class BN, typename SUBNET>
using residual_down = add_prev2<avg_pool<2, 2, 2, 2, skip1<tag2<block<N, BN, 2, tag1<SUBNET>>>>>>;
template <int N, template <typename> class BN, int stride, typename SUBNET>
using block = BN<con<N, 3, 3, 1, 1, relu<BN<con<N, 3, 3, stride, stride, SUBNET>>>>>;
template <int N, typename SUBNET> using ares = relu<residual<block, N, affine, SUBNET>>;
template <int N, typename SUBNET> using ares_down = relu<residual_down<block, N, affine, SUBNET>>;
template <typename SUBNET> using alevel0 = ares_down<256, SUBNET>;
template <typename SUBNET> using alevel1 = ares<256, ares<256, ares_down<256, SUBNET>>>;
template <typename SUBNET> using alevel2 = ares<128, ares<128, ares_down<128, SUBNET>>>;
template <typename SUBNET> using alevel3 = ares<64, ares<64, ares<64, ares_down<64, SUBNET>>>>;
template <typename SUBNET> using alevel4 = ares<32, ares<32, ares<32, SUBNET>>>;
using anet_type = loss_metric<fc_no_bias<128, avg_pool_everything<
    alevel0<alevel1<alevel2<alevel3<alevel4<
    max_pool<3, 3, 2, 2, relu<affine<con<32, 7, 7, 2, 2, input_rgb_image_sized<150>>>>>>>>>>>>>;

// What the network expects: the face turned upright on its eyes, 150 px square, 25 % padding.
constexpr unsigned long chip_size = 150;
constexpr double chip_padding = 0.25;

// A readable file, or a message naming it (deserialize's own error for a missing file is vague).
// How much fine detail the aligned chip holds: the variance of its grey Laplacian. The chip is
// always 150 px, so a face found at 20 px (enlarged into it) or out of focus scores low, a sharp
// face of 80 px or more high; the descriptor of a face without such detail is unreliable.
float chip_sharpness(const dlib::matrix<dlib::rgb_pixel> &chip) {
    const long n = chip.nr(), m = chip.nc();
    std::vector<float> grey((size_t)(n * m));
    for (long r = 0; r < n; r++)
        for (long c = 0; c < m; c++) {
            const auto &p = chip(r, c);
            grey[(size_t)(r * m + c)] = 0.299f * p.red + 0.587f * p.green + 0.114f * p.blue;
        }
    double sum = 0, sum2 = 0;
    long count = 0;
    for (long r = 1; r + 1 < n; r++)
        for (long c = 1; c + 1 < m; c++) {
            const float *g = &grey[(size_t)(r * m + c)];
            const double lap = 4.0 * g[0] - g[-1] - g[1] - g[-m] - g[m];
            sum += lap;
            sum2 += lap * lap;
            count++;
        }
    if (count == 0) return 0;
    const double mean = sum / count;
    return (float)(sum2 / count - mean * mean);
}

// How far the face is turned from the camera, from the five landmarks (dlib's order: the
// corners of one eye, of the other, the base of the nose): the nose's offset from the point
// between the eyes along the eyes' line, in eye distances. ~0 facing the camera, ~0.5 and more
// towards a profile, where the descriptor is far from the same person's frontal ones.
float landmark_turn(const dlib::full_object_detection &shape) {
    const dlib::dpoint e1 = (dlib::dpoint(shape.part(0)) + dlib::dpoint(shape.part(1))) / 2.0;
    const dlib::dpoint e2 = (dlib::dpoint(shape.part(2)) + dlib::dpoint(shape.part(3))) / 2.0;
    const dlib::dpoint axis = e2 - e1;
    const double span = dlib::length(axis);
    if (span < 1e-6) return 1;
    const dlib::dpoint nose = dlib::dpoint(shape.part(4)) - (e1 + e2) / 2.0;
    return (float)std::abs(nose.dot(axis) / (span * span));
}

bool readable(const char *path, const char *what, char *err, size_t err_len) {
    if (path == nullptr) {
        set_error(err, err_len, std::string("no path given for ") + what);
        return false;
    }
    std::ifstream f(path, std::ios::binary);
    if (!f.good()) {
        set_error(err, err_len, std::string("cannot read ") + what + " " + path);
        return false;
    }
    return true;
}

}  // namespace

// OpenBLAS's own call (libdlib already loads libopenblas.so.0 for its BLAS and LAPACK).
extern "C" void openblas_set_num_threads(int);

struct cv_recognizer {
    dlib::shape_predictor landmarks;
    anet_type network;
};

extern "C" {

cv_recognizer *cv_recognizer_create(const char *shape_predictor_path, const char *resnet_path,
                                    char *err, size_t err_len) {
    if (!readable(shape_predictor_path, "the shape predictor", err, err_len)) return nullptr;
    if (!readable(resnet_path, "the face descriptor network", err, err_len)) return nullptr;
    cv_recognizer *r = nullptr;
    const char *loading = shape_predictor_path;
    // Shoebox runs one recogniser per worker thread; OpenBLAS's threads under each network call
    // only fight those workers for the same cores (measured on 2 busy cores: 39 ms a face with
    // them, 20 ms without). Process-wide, and nothing else in Shoebox uses BLAS.
    openblas_set_num_threads(1);
    try {
        r = new cv_recognizer();
        dlib::deserialize(shape_predictor_path) >> r->landmarks;
        if (r->landmarks.num_parts() != 5) {
            delete r;
            set_error(err, err_len, std::string(shape_predictor_path) + " is not a 5-point shape predictor");
            return nullptr;
        }
        loading = resnet_path;
        dlib::deserialize(resnet_path) >> r->network;
        return r;
    } catch (const std::exception &e) {
        set_error(err, err_len, std::string("invalid model file ") + loading + ": " + e.what());
    } catch (...) {
        set_error(err, err_len, std::string("invalid model file ") + loading);
    }
    delete r;
    return nullptr;
}

void cv_recognizer_destroy(cv_recognizer *r) { delete r; }

int cv_face_descriptors(cv_recognizer *r, const uint8_t *rgb, int w, int h,
                        const cv_face_box *boxes, int n, float *out, float *quality, char *err, size_t err_len) {
    if (r == nullptr || rgb == nullptr || w <= 0 || h <= 0 || n < 0 || (n > 0 && (boxes == nullptr || out == nullptr))) {
        set_error(err, err_len, "invalid arguments to face descriptors");
        return -1;
    }
    if (n == 0) return 0;
    try {
        // dlib's own image type: one copy of the photo, rows of R, G, B as given.
        dlib::matrix<dlib::rgb_pixel> image(h, w);
        std::memcpy(&image(0, 0), rgb, (size_t)w * h * 3);
        std::vector<dlib::matrix<dlib::rgb_pixel>> chips;
        chips.reserve(n);
        for (int i = 0; i < n; i++) {
            const cv_face_box &b = boxes[i];
            dlib::drectangle box(b.x, b.y, b.x + b.w - 1, b.y + b.h - 1);
            auto shape = r->landmarks(image, box);
            dlib::matrix<dlib::rgb_pixel> chip;
            dlib::extract_image_chip(image, dlib::get_face_chip_details(shape, chip_size, chip_padding), chip);
            if (quality != nullptr) {
                quality[i * 2] = landmark_turn(shape);
                quality[i * 2 + 1] = chip_sharpness(chip);
            }
            chips.push_back(std::move(chip));
        }
        // One batch through the network: faster than one call per face.
        std::vector<dlib::matrix<float, 0, 1>> descriptors = r->network(chips, 16);
        for (int i = 0; i < n; i++) {
            for (int k = 0; k < 128; k++) out[i * 128 + k] = descriptors[i](k);
        }
        return 0;
    } catch (const std::exception &e) {
        set_error(err, err_len, std::string("face descriptors failed: ") + e.what());
    } catch (...) {
        set_error(err, err_len, "face descriptors failed");
    }
    return -1;
}

}  // extern "C"

// Face detection with CenterFace (Xu et al. 2019, arXiv:1911.03599; MIT licence), a small
// convolutional network trained on WIDER FACE, run by OpenCV's dnn module from its ONNX file.
// dlib's HOG sees no face under ~80 px even enlarged, and on real group photos (faces of
// 22–50 px) it stayed at recall 0.79–0.83 whatever was tried (docs/faces.md); CenterFace finds
// all 24 hand-boxed faces at their own size, with no false face on the scenery photos.
//
// The network's output, per 4×4-pixel cell of the input: a face-centre heat map, log sizes
// (height, width, in units of 4 px), sub-cell offsets of the centre (y, x) and five landmarks.
// Decoding it is written here from that description of the model's outputs.
#include "CVision.h"
#include "OpenCVThreads.hpp"
#include "ErrorText.hpp"
#include "ScaledInput.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <fstream>
#include <iterator>
#include <list>
#include <utility>
#include <vector>

#include <opencv2/core.hpp>
#include <opencv2/dnn.hpp>
#include <opencv2/imgproc.hpp>

using cvision::scaled;
using cvision::set_error;
using cvision::valid_input;

// OpenCV 4.6's ONNX import computes this network wrongly once its input size changes after a
// first forward pass (measured: the astronaut's heat map has 16 cells over 0.5 at 512×512 on a
// new net, 519 on a net that ran 384×384 before). So a net is made per input size, from the
// model's bytes kept in memory (~18 ms and ~55 MB of fresh pages). A net holds its activations
// for its size (~55 MB at 512×384, ~185 MB at 1024×768). Camera-size inputs (512 px long side)
// are padded to three shapes (`padded_size`), whose nets are all kept: a roll of 4:3, 3:2, 16:9
// and square photos, either way up, then builds three nets, not one a photo. A net for a larger
// input is dropped after use.
struct cv_centerface_detector {
    std::vector<uchar> model;
    std::list<std::pair<cv::Size, cv::dnn::Net>> nets;  // most recently used first

    static constexpr int kept_nets = 3;
    static constexpr int kept_area = 512 * 512;

    cv::dnn::Net &net(cv::Size input) {
        for (auto it = nets.begin(); it != nets.end(); ++it) {
            if (it->first == input) {
                nets.splice(nets.begin(), nets, it);
                return nets.front().second;
            }
        }
        if ((int)nets.size() >= kept_nets) nets.pop_back();
        nets.emplace_front(input, cv::dnn::readNetFromONNX(model));
        return nets.front().second;
    }

    void done_with(cv::Size input) {
        if (input.area() > kept_area && !nets.empty() && nets.front().first == input) nets.pop_front();
    }
};

namespace {

// The network's input sides must be multiples of 32 (five stride-2 stages); 64 here, so that
// photos of nearly the same size share a net.
int padded(int side) { return (side + 63) / 64 * 64; }

// The camera-size shapes: a long side over 384 and up to 512 is padded to 512, the short side to
// 384 when it fits (4:3, 3:2, 16:9) and to 512 otherwise. Only black is added, below and to the
// right, as `padded` does; the pipeline's photos then come in three sizes (512×384, 384×512,
// 512×512) instead of one per aspect ratio (seven on bench/analyze.py's roll). Other inputs: `padded`.
constexpr int camera_long = 512, camera_short = 384;

cv::Size padded_size(cv::Size image) {
    const int longSide = std::max(image.width, image.height), shortSide = std::min(image.width, image.height);
    if (longSide <= camera_short || longSide > camera_long) return {padded(image.width), padded(image.height)};
    const int shortPadded = shortSide <= camera_short ? camera_short : camera_long;
    return image.width >= image.height ? cv::Size(camera_long, shortPadded) : cv::Size(shortPadded, camera_long);
}

// The output names of the published ONNX file: heat map, scales, offsets, landmarks.
const std::vector<cv::String> output_names = {"537", "538", "539", "540"};

struct Candidate {
    cv::Rect2d box;
    float score;
};

// Faces from the network's four outputs, in pixels of the (scaled, padded) input.
std::vector<Candidate> decode(const std::vector<cv::Mat> &outs, double threshold) {
    const cv::Mat &heat = outs[0], &scale = outs[1], &offset = outs[2];
    const int rows = heat.size[2], cols = heat.size[3], plane = rows * cols;
    const float *h = heat.ptr<float>(), *s = scale.ptr<float>(), *o = offset.ptr<float>();
    std::vector<Candidate> found;
    for (int r = 0; r < rows; r++) {
        for (int c = 0; c < cols; c++) {
            const int i = r * cols + c;
            if (h[i] <= threshold) continue;
            const double height = std::exp(s[i]) * 4, width = std::exp(s[plane + i]) * 4;
            const double cy = (r + o[i] + 0.5) * 4, cx = (c + o[plane + i] + 0.5) * 4;
            found.push_back({cv::Rect2d(cx - width / 2, cy - height / 2, width, height), h[i]});
        }
    }
    return found;
}

}  // namespace

extern "C" {

cv_centerface_detector *cv_centerface_create(const char *onnx_path, char *err, size_t err_len) {
    try {
        shoebox_opencv_single_threaded();  // one detector per worker thread (see CVision.h)
        auto d = new cv_centerface_detector();
        std::ifstream file(onnx_path ? onnx_path : "", std::ios::binary);
        d->model.assign(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
        // Made once here so that an unreadable or invalid file fails now, in one line.
        if (d->model.empty() || d->net(cv::Size(64, 64)).empty()) {  // (a 64×64 net is small)
            delete d;
            set_error(err, err_len, std::string("cannot load the face detector network ") + (onnx_path ? onnx_path : "(no path)"));
            return nullptr;
        }
        return d;
    } catch (const std::exception &e) {
        set_error(err, err_len, std::string("cannot load the face detector network ") + (onnx_path ? onnx_path : "") +
                                    ": " + e.what());
    } catch (...) {
        set_error(err, err_len, "cannot load the face detector network");
    }
    return nullptr;
}

void cv_centerface_destroy(cv_centerface_detector *d) { delete d; }

int cv_centerface_detect(cv_centerface_detector *d, const uint8_t *rgb, int w, int h, double scale,
                         double threshold, cv_face_box *out, int max, char *err, size_t err_len) {
    if (!valid_input(rgb, w, h, scale, err, err_len)) return -1;
    try {
        cv::Mat image = scaled(rgb, w, h, scale);
        // Padded with black (`padded_size`; no stretching: boxes keep the photo's proportions).
        const cv::Size size = padded_size(image.size());
        cv::Mat input;
        cv::copyMakeBorder(image, input, 0, size.height - image.rows, 0, size.width - image.cols,
                           cv::BORDER_CONSTANT, cv::Scalar(0, 0, 0));
        // The network takes RGB in 0…255, unnormalised, as the pixels come.
        cv::dnn::Net &net = d->net(input.size());
        // However this call ends (an exception, unexpected outputs), a large net is not kept.
        struct Release {
            cv_centerface_detector *d;
            cv::Size size;
            ~Release() { d->done_with(size); }
        } release{d, input.size()};
        net.setInput(cv::dnn::blobFromImage(input, 1.0, cv::Size(), cv::Scalar(), false, false));
        std::vector<cv::Mat> outs;
        net.forward(outs, output_names);
        if (outs.size() != 4 || outs[0].dims != 4) {
            set_error(err, err_len, "the face detector network gave unexpected outputs");
            return -1;
        }
        std::vector<Candidate> found = decode(outs, threshold);
        // Neighbouring cells over one face: keep the strongest of boxes overlapping by IoU ≥ 0.3.
        std::vector<cv::Rect2d> boxes;
        std::vector<float> scores;
        for (const auto &f : found) { boxes.push_back(f.box); scores.push_back(f.score); }
        std::vector<int> keep;
        cv::dnn::NMSBoxes(boxes, scores, (float)threshold, 0.3f, keep);
        std::sort(keep.begin(), keep.end(), [&](int a, int b) { return scores[a] > scores[b]; });
        for (int k = 0; k < (int)keep.size() && k < max; k++) {
            const cv::Rect2d &b = boxes[keep[k]];
            out[k] = {b.x / scale, b.y / scale, b.width / scale, b.height / scale, scores[keep[k]]};
        }
        return (int)keep.size();
    } catch (const std::exception &e) {
        set_error(err, err_len, std::string("face detection failed: ") + e.what());
    } catch (...) {
        set_error(err, err_len, "face detection failed");
    }
    return -1;
}

}  // extern "C"

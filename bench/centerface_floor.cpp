// The face detector's share of the analysis budget, measured alone (bench/analysis_floor.py builds
// and runs this): CenterFace through OpenCV's dnn module, one thread, the way
// Sources/CVision/CenterFace.cpp runs it (RGB 0…255, padded with black below and to the right,
// heat map over 0.5, NMS at IoU 0.3), at several input long sides.
//
//   centerface_floor MODEL SIDES REPEATS < LIST
//
// LIST: one line per photo, "camera PATH" (a hand-boxed group photo, enlarged 3.75× with bicubic
// as a camera would have taken it: GroupPhotoTests' handBoxedGroupPhotosAtCameraSize) or "roll
// PATH" (a camera JPEG, reduced by the DCT as the pipeline does: 1/4 at 4032 px). Each is reduced (area)
// to the pipeline's 1024-px working image, then to each side of SIDES ("512,448,384").
// Output: one JSON object a line {file, side, input [w, h], cpu_ms (median of REPEATS forward
// passes, thread CPU), faces [[x, y, w, h, score] normalised to the photo]}.
// A fresh network per input (OpenCV 4.6 computes a reused net wrongly after a change of size).
#include <opencv2/dnn.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace {

double thread_cpu_ms() {
    timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

int padded(int side) { return (side + 31) / 32 * 32; }

cv::Mat reduced(const cv::Mat &rgb, int longSide) {
    const double k = (double)longSide / std::max(rgb.cols, rgb.rows);
    if (k >= 1) return rgb;
    cv::Mat out;
    cv::resize(rgb, out, cv::Size((int)std::lround(rgb.cols * k), (int)std::lround(rgb.rows * k)), 0, 0, cv::INTER_AREA);
    return out;
}

// The 1024-px working image of a list line, or an empty Mat.
cv::Mat working_image(const std::string &kind, const std::string &path) {
    cv::Mat bgr = cv::imread(path, cv::IMREAD_COLOR);
    if (bgr.empty()) return bgr;
    if (kind == "roll") {
        // The pipeline's decode: reduced by the DCT as far as a long side of 960 px allows.
        const int longSide = std::max(bgr.cols, bgr.rows);
        const int factor = longSide >= 8 * 960 ? 8 : longSide >= 4 * 960 ? 4 : longSide >= 2 * 960 ? 2 : 1;
        const int flags[] = {cv::IMREAD_COLOR, cv::IMREAD_REDUCED_COLOR_2, cv::IMREAD_REDUCED_COLOR_4, cv::IMREAD_REDUCED_COLOR_8};
        if (factor > 1) bgr = cv::imread(path, flags[factor == 2 ? 1 : factor == 4 ? 2 : 3]);
    }
    cv::Mat rgb;
    cv::cvtColor(bgr, rgb, cv::COLOR_BGR2RGB);
    if (kind == "camera") cv::resize(rgb, rgb, cv::Size(), 3.75, 3.75, cv::INTER_CUBIC);
    return reduced(rgb, 1024);
}

void detect(const std::string &model, const std::string &path, const cv::Mat &working, int side, int repeats) {
    static const std::vector<cv::String> outputs = {"537", "538", "539", "540"};
    cv::Mat image = reduced(working, side), input;
    cv::copyMakeBorder(image, input, 0, padded(image.rows) - image.rows, 0, padded(image.cols) - image.cols,
                       cv::BORDER_CONSTANT, cv::Scalar(0, 0, 0));
    cv::dnn::Net net = cv::dnn::readNetFromONNX(model);
    std::vector<cv::Mat> outs;
    std::vector<double> times;
    for (int r = 0; r <= repeats; r++) {  // the first pass allocates the net's buffers: not timed
        const double t0 = thread_cpu_ms();
        net.setInput(cv::dnn::blobFromImage(input, 1.0, cv::Size(), cv::Scalar(), false, false));
        net.forward(outs, outputs);
        if (r > 0) times.push_back(thread_cpu_ms() - t0);
    }
    std::sort(times.begin(), times.end());
    const cv::Mat &heat = outs[0], &scale = outs[1], &offset = outs[2];
    const int rows = heat.size[2], cols = heat.size[3], plane = rows * cols;
    const float *h = heat.ptr<float>(), *s = scale.ptr<float>(), *o = offset.ptr<float>();
    std::vector<cv::Rect2d> boxes;
    std::vector<float> scores;
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            const int i = r * cols + c;
            if (h[i] <= 0.5) continue;
            const double bh = std::exp(s[i]) * 4, bw = std::exp(s[plane + i]) * 4;
            const double cy = (r + o[i] + 0.5) * 4, cx = (c + o[plane + i] + 0.5) * 4;
            boxes.emplace_back(cx - bw / 2, cy - bh / 2, bw, bh);
            scores.push_back(h[i]);
        }
    std::vector<int> keep;
    cv::dnn::NMSBoxes(boxes, scores, 0.5f, 0.3f, keep);
    std::ostringstream faces;
    for (size_t k = 0; k < keep.size(); k++) {
        const cv::Rect2d &b = boxes[keep[k]];
        faces << (k ? "," : "") << "[" << b.x / image.cols << "," << b.y / image.rows << "," << b.width / image.cols << ","
              << b.height / image.rows << "," << scores[keep[k]] << "]";
    }
    std::string escaped;
    for (char ch : path) escaped += (ch == '"' || ch == '\\') ? std::string("\\") + ch : std::string(1, ch);
    std::printf("{\"file\": \"%s\", \"side\": %d, \"input\": [%d, %d], \"cpu_ms\": %.2f, \"faces\": [%s]}\n", escaped.c_str(),
                side, input.cols, input.rows, times[times.size() / 2], faces.str().c_str());
    std::fflush(stdout);
}

}  // namespace

int main(int argc, char **argv) {
    if (argc != 4) {
        std::fprintf(stderr, "usage: centerface_floor MODEL SIDES REPEATS < LIST\n");
        return 2;
    }
    cv::setNumThreads(1);  // as the pipeline: one thread per worker
    std::vector<int> sides;
    std::stringstream list(argv[2]);
    for (std::string t; std::getline(list, t, ',');) sides.push_back(std::stoi(t));
    const int repeats = std::max(1, std::atoi(argv[3]));
    for (std::string line; std::getline(std::cin, line);) {
        const size_t space = line.find(' ');
        if (space == std::string::npos) continue;
        const std::string kind = line.substr(0, space), path = line.substr(space + 1);
        cv::Mat working = working_image(kind, path);
        if (working.empty()) {
            std::fprintf(stderr, "centerface_floor: cannot read %s\n", path.c_str());
            return 1;
        }
        for (int side : sides) detect(argv[1], path, working, side, repeats);
    }
    return 0;
}

// Composition and people: where the subject is (spectral-residual saliency: no model file), how
// level the horizon is (Hough lines), and for each face whether it is sharp, cut by the frame,
// its eyes open (Haar eye cascade inside the face box) and smiling.
#include "Measure.hpp"
#include "Internal.hpp"
#include <opencv2/imgproc.hpp>
#include <opencv2/saliency.hpp>
#include <algorithm>
#include <cmath>

namespace cscore {

std::vector<double> measure_saliency(const Frame &f, int cols, int rows, sc_measures &m) {
    std::vector<double> tiles((size_t)cols * rows, 0.0);
    m.subject_x = 0.5; m.subject_y = 0.5; m.thirds = 0;
    auto sr = cv::saliency::StaticSaliencySpectralResidual::create();
    cv::Mat map;
    if (!sr->computeSaliency(f.gray8, map) || map.empty()) return tiles;
    map.convertTo(map, CV_32F);
    // Centre of mass of the squared map: its peaks, not its faint floor.
    cv::Mat w = map.mul(map);
    cv::Moments mo = cv::moments(w, false);
    if (mo.m00 > 0) {
        m.subject_x = mo.m10 / mo.m00 / map.cols;
        m.subject_y = mo.m01 / mo.m00 / map.rows;
    }
    static const double points[5][2] = {{1 / 3., 1 / 3.}, {2 / 3., 1 / 3.}, {1 / 3., 2 / 3.}, {2 / 3., 2 / 3.}, {0.5, 0.5}};
    double best = 1;
    for (auto &p : points) best = std::min(best, std::hypot(m.subject_x - p[0], m.subject_y - p[1]));
    m.thirds = best;
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            cv::Rect roi(c * f.tile, r * f.tile, f.tile, f.tile);
            roi &= cv::Rect(0, 0, map.cols, map.rows);
            if (roi.area() > 0) tiles[(size_t)r * cols + c] = cv::mean(map(roi))[0];
        }
    return tiles;
}

void measure_tilt(const Frame &f, sc_measures &m) {
    m.tilt = 0; m.has_horizon = 0;
    // At half size: a horizon is a long line, and the Hough transform costs a quarter as much.
    cv::Mat half, edges;
    cv::resize(f.gray8, half, cv::Size(), 0.5, 0.5, cv::INTER_AREA);
    cv::Canny(half, edges, 60, 160);
    std::vector<cv::Vec4i> lines;
    int minLength = std::max(20, half.cols * 3 / 10);
    // Only lines within 14° of level are looked for (`near_horizontal_lines`: cv::HoughLinesP's
    // algorithm on those angles alone); the margin over the 12° kept below covers the rounding
    // of a segment's ends.
    lines = near_horizontal_lines(edges, 14, CV_PI / 720, 40, minLength, 4);
    double total = 0, weighted = 0;
    for (auto &l : lines) {
        double dx = l[2] - l[0], dy = l[3] - l[1];
        if (dx < 0) { dx = -dx; dy = -dy; }
        double angle = std::atan2(dy, dx) * 180 / CV_PI;
        if (std::fabs(angle) > 12) continue;  // not a horizon candidate
        double len = std::hypot(dx, dy);
        total += len; weighted += len * angle;
    }
    if (total >= 0.5 * half.cols) {
        m.has_horizon = 1;
        m.tilt = weighted / total;
    }
}

/// An eye aspect ratio at or above this is an open eye.
constexpr double kOpenEye = 0.13;

void measure_faces(const Frame &f, Cascades *c, const sc_face_in *faces, int n, sc_face_out *out) {
    const int W = f.gray8.cols, H = f.gray8.rows;
    for (int i = 0; i < n; i++) {
        const sc_face_in &in = faces[i];
        sc_face_out &o = out[i];
        cv::Rect box((int)std::lround(in.x * W), (int)std::lround(in.y * H), (int)std::lround(in.w * W), (int)std::lround(in.h * H));
        o.cut = (in.x <= 0.005 || in.y <= 0.005 || in.x + in.w >= 0.995 || in.y + in.h >= 0.995) ? 1 : 0;
        box &= cv::Rect(0, 0, W, H);
        o.blur = blur_of_region(f, box);
        o.eyes = -1; o.smile = -1; o.eye_ratio = -1;
        if (box.height < 48 || box.width < 40 || c == nullptr) continue;
        cv::Mat face;
        cv::equalizeHist(f.gray8(box), face);
        double left = -1, right = -1;
        if (eye_ratios(shared_landmarks(c->landmarksPath), f.gray8, box, left, right)) {
            // Closed eyes measure 0.05–0.12; open ones 0.25–0.40, and down to 0.15 when a person
            // laughs or squints behind sunglasses (real faces of test-data/faces): 0.13 between.
            o.eye_ratio = std::max(left, right);
            o.eyes = (left >= kOpenEye) + (right >= kOpenEye);
        } else if (!c->eyes.empty()) {
            // Eyes sit in the upper part of a CenterFace box (which reaches the forehead).
            cv::Rect upper(0, box.height / 10, box.width, box.height / 2);
            std::vector<cv::Rect> found;
            c->eyes.detectMultiScale(face(upper), found, 1.1, 3, 0, cv::Size(box.width / 8, box.width / 8),
                                     cv::Size(box.width / 2, box.width / 2));
            bool l = false, r = false;
            for (auto &e : found) (e.x + e.width / 2 < box.width / 2 ? l : r) = true;
            o.eyes = (int)l + (int)r;
        }
        if (!c->smile.empty()) {
            cv::Rect lower(box.width / 8, box.height * 11 / 20, box.width * 3 / 4, box.height * 9 / 20);
            std::vector<cv::Rect> found;
            // The smile cascade fires on any mouth at low neighbour counts; 20 keeps the clear ones.
            c->smile.detectMultiScale(face(lower), found, 1.15, 20, 0, cv::Size(box.width / 4, box.height / 10));
            o.smile = found.empty() ? 0 : 1;
        }
    }
}

}  // namespace cscore

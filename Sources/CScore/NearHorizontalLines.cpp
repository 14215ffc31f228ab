// The horizon's line segments: OpenCV's progressive probabilistic Hough transform (Matas et al.
// 2000, as cv::HoughLinesP does it: the same random order of edge points, the same voting, the
// same walk along the winning line and the same gaps), but voting only for lines within a few
// degrees of level. cv::HoughLinesP votes every edge point into all 720 angles of a half turn;
// the tilt measure uses ±12° of them (measured: 13 ms of the scorer's ~80 a photo).
#include "Measure.hpp"
#include <opencv2/core.hpp>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace cscore {
namespace {

constexpr int kShift = 16;

struct Accumulator {
    int numangle, numrho;
    std::vector<float> cosTab, sinTab;  // per angle, over the rho step
    std::vector<int> votes;

    // cv::HoughLinesP's angles (multiples of thetaStep, rho in steps of 1 px), those whose line
    // is within maxDegrees of level: normal angles around 90°.
    Accumulator(double maxDegrees, double thetaStep, int width, int height) {
        const int centre = (int)std::lround(CV_PI / 2 / thetaStep), half = (int)std::ceil(maxDegrees * CV_PI / 180 / thetaStep);
        numangle = 2 * half + 1;
        numrho = (width + height) * 2 + 1;
        votes.assign((size_t)numangle * numrho, 0);
        for (int n = 0; n < numangle; n++) {
            const double ang = (centre - half + n) * thetaStep;
            cosTab.push_back((float)std::cos(ang));
            sinTab.push_back((float)std::sin(ang));
        }
    }
    int rho(int n, int x, int y) const {
        return cvRound(x * cosTab[n] + y * sinTab[n]) + (numrho - 1) / 2;
    }
    // Adds (±1) the point's votes; returns the angle with most votes and their count.
    std::pair<int, int> vote(int x, int y, int delta) {
        int best = -1, bestN = 0;
        for (int n = 0; n < numangle; n++) {
            int &v = votes[(size_t)n * numrho + rho(n, x, y)];
            v += delta;
            if (v > best) { best = v; bestN = n; }
        }
        return {bestN, best};
    }
};

}  // namespace

std::vector<cv::Vec4i> near_horizontal_lines(const cv::Mat &edges, double maxDegrees, double thetaStep, int threshold,
                                             int lineLength, int lineGap) {
    const int width = edges.cols, height = edges.rows;
    Accumulator acc(maxDegrees, thetaStep, width, height);
    cv::Mat mask(height, width, CV_8U, cv::Scalar(0));
    std::vector<cv::Point> points;
    for (int y = 0; y < height; y++) {
        const uchar *e = edges.ptr<uchar>(y);
        uchar *m = mask.ptr<uchar>(y);
        for (int x = 0; x < width; x++)
            if (e[x]) { m[x] = 1; points.emplace_back(x, y); }
    }
    // cv::HoughLinesP's generator and seed: the same order of points.
    cv::RNG rng((uint64)-1);
    std::vector<cv::Vec4i> lines;
    for (int count = (int)points.size(); count > 0; count--) {
        const int idx = rng.uniform(0, count);
        const cv::Point p = points[idx];
        points[idx] = points[count - 1];
        if (!mask.at<uchar>(p)) continue;
        const auto [n, peak] = acc.vote(p.x, p.y, 1);
        if (peak < threshold) continue;
        // Walk from the point along the winning line, both ways, over gaps of at most lineGap.
        const float a = -acc.sinTab[n], b = acc.cosTab[n];
        int x0 = p.x, y0 = p.y, dx0, dy0;
        const bool xflag = std::fabs(a) > std::fabs(b);
        if (xflag) {
            dx0 = a > 0 ? 1 : -1;
            dy0 = cvRound(b * (1 << kShift) / std::fabs(a));
            y0 = (y0 << kShift) + (1 << (kShift - 1));
        } else {
            dy0 = b > 0 ? 1 : -1;
            dx0 = cvRound(a * (1 << kShift) / std::fabs(b));
            x0 = (x0 << kShift) + (1 << (kShift - 1));
        }
        cv::Point ends[2];
        for (int k = 0; k < 2; k++) {
            int gap = 0, x = x0, y = y0, dx = k ? -dx0 : dx0, dy = k ? -dy0 : dy0;
            for (;; x += dx, y += dy) {
                const int j = xflag ? x : x >> kShift, i = xflag ? y >> kShift : y;
                if (j < 0 || j >= width || i < 0 || i >= height) break;
                if (mask.at<uchar>(i, j)) { gap = 0; ends[k] = {j, i}; }
                else if (++gap > lineGap) break;
            }
        }
        const bool good = std::abs(ends[1].x - ends[0].x) >= lineLength || std::abs(ends[1].y - ends[0].y) >= lineLength;
        // Take the line's points out of the image, and out of the votes when it is kept.
        for (int k = 0; k < 2; k++) {
            int x = x0, y = y0, dx = k ? -dx0 : dx0, dy = k ? -dy0 : dy0;
            for (;; x += dx, y += dy) {
                const int j = xflag ? x : x >> kShift, i = xflag ? y >> kShift : y;
                uchar &m = mask.at<uchar>(i, j);
                if (m) {
                    if (good) acc.vote(j, i, -1);
                    m = 0;
                }
                if (i == ends[k].y && j == ends[k].x) break;
            }
        }
        if (good) lines.emplace_back(ends[0].x, ends[0].y, ends[1].x, ends[1].y);
    }
    return lines;
}

}  // namespace cscore

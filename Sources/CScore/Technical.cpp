// Technical measurements: blur (Crété-Roffet re-blur index on tiles and per direction), noise
// (Immerkær's estimator in the smoothest tiles), exposure, contrast, colourfulness, JPEG
// blockiness, vignetting and banding. Each is a plain image statistic that a degradation moves
// in one direction, so that a worse copy of a photo always measures worse.
#include "Measure.hpp"
#include <opencv2/imgproc.hpp>
#include <algorithm>
#include <cmath>

namespace cscore {

double percentile(std::vector<double> v, double p) {
    if (v.empty()) return 0;
    size_t k = std::min(v.size() - 1, (size_t)std::lround(p * (double)(v.size() - 1)));
    std::nth_element(v.begin(), v.begin() + (long)k, v.end());
    return v[k];
}

namespace {
// The re-blur of Crété-Roffet et al. (2007): a 9-tap average along the direction. A sharp edge
// loses most of its step when blurred again; an already blurred one loses little.
const int kTaps = 9;
const int kDX[4] = {1, 0, 1, -1}, kDY[4] = {0, 1, 1, 1};

/// |I(p) − I(p − step)| along direction d (zero where the step leaves the image).
cv::Mat step_abs(const cv::Mat &img, int d) {
    cv::Mat out = cv::Mat::zeros(img.size(), CV_32F);
    int x0 = std::max(0, kDX[d]), x1 = img.cols + std::min(0, kDX[d]), y0 = kDY[d];
    if (x1 <= x0 || img.rows <= y0) return out;
    cv::Rect a(x0, y0, x1 - x0, img.rows - y0), b(x0 - kDX[d], 0, x1 - x0, img.rows - y0);
    cv::Mat diff;
    cv::absdiff(img(a), img(b), diff);
    diff.copyTo(out(a));
    return out;
}

/// The difference energy lost to the re-blur and the energy there was, in direction d.
void reblur_maps(const cv::Mat &gray, int d, cv::Mat &dF, cv::Mat &v) {
    cv::Mat blurred;
    // The 9-tap average along the direction: a box filter (running sums) along x and y, nine
    // shifted copies added along a diagonal — what filter2D with the kernel computes, at a
    // fraction of the cost of a 9×9 convolution.
    if (d < 2) {
        cv::blur(gray, blurred, d == 0 ? cv::Size(kTaps, 1) : cv::Size(1, kTaps), cv::Point(-1, -1), cv::BORDER_REFLECT);
    } else {
        const int r = kTaps / 2;
        cv::Mat padded;
        cv::copyMakeBorder(gray, padded, r, r, r, r, cv::BORDER_REFLECT);
        blurred = cv::Mat::zeros(gray.size(), CV_32F);
        for (int j = -r; j <= r; j++) blurred += padded(cv::Rect(r + j * kDX[d], r + j * kDY[d], gray.cols, gray.rows));
        blurred *= 1.0 / kTaps;
    }
    dF = step_abs(gray, d);
    v = cv::max(dF - step_abs(blurred, d), 0.0);
}
}  // namespace

BlurTiles blur_tiles(const Frame &f) {
    BlurTiles t;
    const int T = f.tile;
    t.cols = std::max(1, f.gray.cols / T);
    t.rows = std::max(1, f.gray.rows / T);
    const size_t n = (size_t)t.cols * t.rows;
    std::vector<double> sF(n * 4), sV(n * 4);
    for (int d = 0; d < 4; d++) {
        cv::Mat dF, v, iF, iV;
        reblur_maps(f.gray, d, dF, v);
        cv::integral(dF, iF, CV_64F);
        cv::integral(v, iV, CV_64F);
        auto box = [&](const cv::Mat &I, int r, int c) {
            int y0 = r * T, x0 = c * T, y1 = std::min(y0 + T, f.gray.rows), x1 = std::min(x0 + T, f.gray.cols);
            return I.at<double>(y1, x1) - I.at<double>(y0, x1) - I.at<double>(y1, x0) + I.at<double>(y0, x0);
        };
        for (int r = 0; r < t.rows; r++)
            for (int c = 0; c < t.cols; c++) {
                size_t i = (size_t)r * t.cols + c;
                sF[i * 4 + d] = box(iF, r, c);
                sV[i * 4 + d] = box(iV, r, c);
            }
    }
    t.blur.resize(n);
    t.energy.resize(n);
    t.textured.resize(n);
    for (size_t i = 0; i < n; i++) {
        double e = 0, b = 0;
        for (int d = 0; d < 4; d++) {
            e += sF[i * 4 + d];
            b += sF[i * 4 + d] > 0 ? (sF[i * 4 + d] - sV[i * 4 + d]) / sF[i * 4 + d] : 1.0;
        }
        t.energy[i] = e / (4.0 * T * T);
        t.blur[i] = b / 4;
    }
    // Textured: a quarter of the detail of the busier tiles (relative, so that a blurred copy
    // keeps roughly the same tiles) and at least one grey level of steps on average.
    double busy = percentile(t.energy, 0.9);
    for (size_t i = 0; i < n; i++) t.textured[i] = t.energy[i] >= std::max(1.0, 0.25 * busy);
    for (int d = 0; d < 4; d++) {
        double F = 0, V = 0;
        for (size_t i = 0; i < n; i++)
            if (t.textured[i]) { F += sF[i * 4 + d]; V += sV[i * 4 + d]; }
        t.direction[d] = F > 0 ? (F - V) / F : 1.0;
    }
    return t;
}

double blur_of_region(const Frame &f, cv::Rect r) {
    r &= cv::Rect(0, 0, f.gray.cols, f.gray.rows);
    if (r.width < 8 || r.height < 8) return -1;
    cv::Mat roi = f.gray(r);
    double sum = 0;
    for (int d = 0; d < 2; d++) {
        cv::Mat dF, v;
        reblur_maps(roi, d, dF, v);
        double F = cv::sum(dF)[0], V = cv::sum(v)[0];
        sum += F > 0 ? (F - V) / F : 1.0;
    }
    return sum / 2;
}

namespace {
/// Immerkær (1996): σ from the absolute response to a mask that cancels planes and ramps;
/// taken in the smoothest tiles, where texture does not pass for noise.
double noise_sigma(const cv::Mat &plane, const cv::Mat &gray, int T, bool mid_tones_only) {
    static const float mask[9] = {1, -2, 1, -2, 4, -2, 1, -2, 1};
    cv::Mat r;
    cv::filter2D(plane, r, CV_32F, cv::Mat(3, 3, CV_32F, (void *)mask), cv::Point(-1, -1), 0, cv::BORDER_REFLECT);
    r = cv::abs(r);
    std::vector<double> sigmas;
    for (int y = 0; y + T <= plane.rows; y += T)
        for (int x = 0; x + T <= plane.cols; x += T) {
            cv::Rect roi(x, y, T, T);
            double mean = cv::mean(gray(roi))[0];
            // Clipped tiles have no noise left to see; they would pass for clean.
            if (mid_tones_only && (mean < 12 || mean > 243)) continue;
            sigmas.push_back(std::sqrt(M_PI / 2) * cv::sum(r(roi))[0] / (6.0 * T * T));
        }
    return percentile(sigmas, 0.1);
}

/// The mean step between neighbours along `axis` (0: across columns, 1: across rows), per
/// column (or row): where block or pixel-grid edges show.
std::vector<double> step_profile(const cv::Mat &gray, int axis) {
    cv::Mat profile;
    cv::reduce(step_abs(gray, axis), profile, axis == 0 ? 0 : 1, cv::REDUCE_AVG, CV_64F);
    std::vector<double> v((size_t)profile.total());
    for (size_t i = 0; i < v.size(); i++) v[i] = profile.at<double>((int)i);
    return v;
}

/// JPEG block edges: the mean step across block boundaries over the mean step inside blocks, − 1.
double blockiness(const std::vector<double> profiles[2], double period) {
    if (period < 3) return 0;  // blocks this small are invisible at this size
    double result = 0;
    for (int axis = 0; axis < 2; axis++) {
        const std::vector<double> &profile = profiles[axis];
        int len = (int)profile.size();
        std::vector<char> kind(len, 0);  // 1 boundary, 2 next to one
        for (int k = 1; std::lround(k * period) < len; k++) {
            long b = std::lround(k * period);
            kind[b] = 1;
            if (b > 0 && kind[b - 1] == 0) kind[b - 1] = 2;
            if (b + 1 < len && kind[b + 1] == 0) kind[b + 1] = 2;
        }
        double on = 0, off = 0; int non = 0, noff = 0;
        for (int i = 1; i < len; i++) {
            double p = profile[i];
            if (kind[i] == 1) { on += p; non++; } else if (kind[i] == 0) { off += p; noff++; }
        }
        if (non && noff && off > 0) result += (on / non) / (off / noff) - 1;
    }
    return std::max(0.0, result / 2);
}

/// A grid of repeated pixels (a small image enlarged by repeating its pixels, a pixelated one):
/// steps only every p pixels. For each period 2…16 and phase, the mean step on the grid's lines
/// over the mean step between them, − 1; the strongest period, the weaker of the two axes (a
/// grid is in both; a fence or a striped shirt seldom is, at the same period and phase).
double pixel_grid(const std::vector<double> profiles[2]) {
    double axes[2] = {0, 0};
    for (int axis = 0; axis < 2; axis++) {
        const std::vector<double> &v = profiles[axis];
        const int len = (int)v.size();
        double best = 0;
        for (int p = 2; p <= 16 && p * 8 <= len; p++)
            for (int phase = 0; phase < p; phase++) {
                double on = 0, off = 0; int non = 0, noff = 0;
                for (int i = 1; i < len; i++) {
                    if ((i - phase) % p == 0) { on += v[i]; non++; } else { off += v[i]; noff++; }
                }
                if (non && noff && off > 0) best = std::max(best, (on / non) / (off / noff) - 1);
            }
        axes[axis] = best;
    }
    return std::min(axes[0], axes[1]);
}
}  // namespace

void measure_technical(const Frame &f, double block_period, sc_measures &m) {
    const cv::Mat &rgb = f.rgb;
    const int n = (int)rgb.total();
    // Exposure from histograms of luminance, of the darkest and of the brightest channel.
    std::vector<int> hl(256, 0), hmin(256, 0), hmax(256, 0);
    int clipHigh = 0, clipLow = 0;
    for (int y = 0; y < rgb.rows; y++) {
        const uint8_t *p = rgb.ptr<uint8_t>(y);
        const uint8_t *g = f.gray8.ptr<uint8_t>(y);
        for (int x = 0; x < rgb.cols; x++, p += 3) {
            int lo = std::min({p[0], p[1], p[2]}), hi = std::max({p[0], p[1], p[2]});
            hmin[lo]++; hmax[hi]++; hl[g[x]]++;
            clipHigh += hi >= 254; clipLow += g[x] <= 3;
        }
    }
    auto pct = [&](const std::vector<int> &h, double p) {
        long target = std::lround(p * n), acc = 0;
        for (int i = 0; i < 256; i++) { acc += h[i]; if (acc > target) return (double)i; }
        return 255.0;
    };
    m.black_point = pct(hmin, 0.01);
    m.white_point = pct(hmax, 0.995);
    m.clip_high = (double)clipHigh / n;
    m.clip_low = (double)clipLow / n;
    cv::Scalar mean, sd;
    cv::meanStdDev(f.gray, mean, sd);
    m.mean_luma = mean[0];
    m.contrast = sd[0] / 255.0;
    // Banding: levels of a channel missing between its 2nd and 98th percentile (a posterized
    // gradient); per channel, since mixing three posterized channels fills luminance's gaps.
    std::vector<std::vector<int>> hc(3, std::vector<int>(256, 0));
    for (int y = 0; y < rgb.rows; y++) {
        const uint8_t *p = rgb.ptr<uint8_t>(y);
        for (int x = 0; x < rgb.cols; x++, p += 3) { hc[0][p[0]]++; hc[1][p[1]]++; hc[2][p[2]]++; }
    }
    double missing = 0;
    for (auto &h : hc) {
        int lo = (int)pct(h, 0.02), hi = (int)pct(h, 0.98), empty = 0;
        for (int i = lo; i <= hi; i++) empty += h[i] < std::max(2, n / 20000);
        missing += hi > lo + 8 ? (double)empty / (hi - lo + 1) : 0;
    }
    m.posterize = missing / 3;

    // Colourfulness (Hasler and Süsstrunk, 2003).
    std::vector<cv::Mat> ch;
    cv::Mat rgbF;
    rgb.convertTo(rgbF, CV_32F);
    cv::split(rgbF, ch);
    cv::Mat rg = ch[0] - ch[1], yb = 0.5 * (ch[0] + ch[1]) - ch[2];
    cv::Scalar mrg, srg, myb, syb;
    cv::meanStdDev(rg, mrg, srg);
    cv::meanStdDev(yb, myb, syb);
    m.colorfulness = std::sqrt(srg[0] * srg[0] + syb[0] * syb[0]) + 0.3 * std::sqrt(mrg[0] * mrg[0] + myb[0] * myb[0]);

    m.noise = noise_sigma(f.gray, f.gray, f.tile, true);
    m.chroma_noise = std::max(noise_sigma(0.5 * rg, f.gray, f.tile, true), noise_sigma(0.5 * yb, f.gray, f.tile, true));
    const std::vector<double> profiles[2] = {step_profile(f.gray, 0), step_profile(f.gray, 1)};
    m.blockiness = blockiness(profiles, block_period);
    m.pixelation = pixel_grid(profiles);

    // Vignetting: the four corners (15 % squares) against the centre (the middle 40 %).
    int cw = std::max(1, rgb.cols * 15 / 100), chh = std::max(1, rgb.rows * 15 / 100);
    double corners = (cv::mean(f.gray(cv::Rect(0, 0, cw, chh)))[0] + cv::mean(f.gray(cv::Rect(rgb.cols - cw, 0, cw, chh)))[0]
                      + cv::mean(f.gray(cv::Rect(0, rgb.rows - chh, cw, chh)))[0]
                      + cv::mean(f.gray(cv::Rect(rgb.cols - cw, rgb.rows - chh, cw, chh)))[0]) / 4;
    cv::Rect mid(rgb.cols * 3 / 10, rgb.rows * 3 / 10, std::max(1, rgb.cols * 4 / 10), std::max(1, rgb.rows * 4 / 10));
    double centre = cv::mean(f.gray(mid))[0];
    m.vignette = centre > 1 ? 1 - corners / centre : 0;
}

}  // namespace cscore

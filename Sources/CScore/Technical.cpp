// Technical measurements: blur (Crété-Roffet re-blur index on tiles and per direction), noise
// (Immerkær's estimator in the smoothest tiles), exposure, contrast, colourfulness, JPEG
// blockiness, vignetting and banding. Each is a plain image statistic that a degradation moves
// in one direction, so that a worse copy of a photo always measures worse.
#include "Measure.hpp"
#include <opencv2/imgproc.hpp>
#include <algorithm>
#include <cstdint>
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
/// Each whole tile's mean luminance (row-major, tiles of T from the top-left corner).
std::vector<double> tile_means(const cv::Mat &gray8, int T) {
    std::vector<double> means;
    for (int y = 0; y + T <= gray8.rows; y += T)
        for (int x = 0; x + T <= gray8.cols; x += T) means.push_back(cv::mean(gray8(cv::Rect(x, y, T, T)))[0]);
    return means;
}

/// Immerkær (1996): σ from the absolute response to a mask that cancels planes and ramps;
/// taken in the smoothest tiles, where texture does not pass for noise. `means`: the tiles'
/// mean luminance (`tile_means`), clipped tiles left out.
double noise_sigma(const cv::Mat &plane, const std::vector<double> &means, int T) {
    static const float mask[9] = {1, -2, 1, -2, 4, -2, 1, -2, 1};
    cv::Mat r;
    cv::filter2D(plane, r, CV_32F, cv::Mat(3, 3, CV_32F, (void *)mask), cv::Point(-1, -1), 0, cv::BORDER_REFLECT);
    r = cv::abs(r);
    std::vector<double> sigmas;
    size_t i = 0;
    for (int y = 0; y + T <= plane.rows; y += T)
        for (int x = 0; x + T <= plane.cols; x += T, i++) {
            // Clipped tiles have no noise left to see; they would pass for clean.
            if (means[i] < 12 || means[i] > 243) continue;
            sigmas.push_back(std::sqrt(M_PI / 2) * cv::sum(r(cv::Rect(x, y, T, T)))[0] / (6.0 * T * T));
        }
    return percentile(sigmas, 0.1);
}

/// The mean step between neighbours across columns (`profiles[0]`, per column) and across rows
/// (`profiles[1]`, per row): where block or pixel-grid edges show. The first column's and
/// row's are 0.
void step_profiles(const cv::Mat &gray8, std::vector<double> profiles[2]) {
    const int W = gray8.cols, H = gray8.rows;
    std::vector<int64_t> cols(W, 0), rows(H, 0);
    for (int y = 0; y < H; y++) {
        const uint8_t *g = gray8.ptr<uint8_t>(y), *up = gray8.ptr<uint8_t>(y > 0 ? y - 1 : 0);
        int64_t across = 0;
        for (int x = 1; x < W; x++) cols[x] += std::abs((int)g[x] - (int)g[x - 1]);
        if (y > 0) for (int x = 0; x < W; x++) across += std::abs((int)g[x] - (int)up[x]);
        rows[y] = across;
    }
    profiles[0].assign(W, 0);
    profiles[1].assign(H, 0);
    for (int x = 0; x < W; x++) profiles[0][x] = (double)cols[x] / H;
    for (int y = 0; y < H; y++) profiles[1][y] = (double)rows[y] / W;
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
    // One pass: histograms of luminance, of the darkest and the brightest channel and of each
    // channel, clipping, and the two colour-difference planes (sums for colourfulness, planes
    // for chroma noise).
    std::vector<int> hl(256, 0), hmin(256, 0), hmax(256, 0);
    std::vector<std::vector<int>> hc(3, std::vector<int>(256, 0));
    int clipHigh = 0, clipLow = 0;
    cv::Mat rg(rgb.size(), CV_32F), yb(rgb.size(), CV_32F);
    int64_t sumRG = 0, sumRG2 = 0, sumYB = 0, sumYB2 = 0;  // yb at twice its scale: R + G − 2B
    for (int y = 0; y < rgb.rows; y++) {
        const uint8_t *p = rgb.ptr<uint8_t>(y);
        const uint8_t *g = f.gray8.ptr<uint8_t>(y);
        float *prg = rg.ptr<float>(y), *pyb = yb.ptr<float>(y);
        for (int x = 0; x < rgb.cols; x++, p += 3) {
            int lo = std::min({p[0], p[1], p[2]}), hi = std::max({p[0], p[1], p[2]});
            hmin[lo]++; hmax[hi]++; hl[g[x]]++;
            hc[0][p[0]]++; hc[1][p[1]]++; hc[2][p[2]]++;
            clipHigh += hi >= 254; clipLow += g[x] <= 3;
            int a = (int)p[0] - p[1], b = (int)p[0] + p[1] - 2 * p[2];
            sumRG += a; sumRG2 += a * a; sumYB += b; sumYB2 += b * b;
            prg[x] = (float)a;
            pyb[x] = 0.5f * (float)b;
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
    double s1 = 0, s2 = 0;
    for (int i = 0; i < 256; i++) { s1 += (double)i * hl[i]; s2 += (double)i * i * hl[i]; }
    m.mean_luma = s1 / n;
    m.contrast = std::sqrt(std::max(0.0, s2 / n - m.mean_luma * m.mean_luma)) / 255.0;
    // Banding: levels of a channel missing between its 2nd and 98th percentile (a posterized
    // gradient); per channel, since mixing three posterized channels fills luminance's gaps.
    double missing = 0;
    for (auto &h : hc) {
        int lo = (int)pct(h, 0.02), hi = (int)pct(h, 0.98), empty = 0;
        for (int i = lo; i <= hi; i++) empty += h[i] < std::max(2, n / 20000);
        missing += hi > lo + 8 ? (double)empty / (hi - lo + 1) : 0;
    }
    m.posterize = missing / 3;

    // Colourfulness (Hasler and Süsstrunk, 2003).
    double mrg = (double)sumRG / n, myb = (double)sumYB / n / 2;
    double vrg = std::max(0.0, (double)sumRG2 / n - mrg * mrg), vyb = std::max(0.0, (double)sumYB2 / n / 4 - myb * myb);
    m.colorfulness = std::sqrt(vrg + vyb) + 0.3 * std::sqrt(mrg * mrg + myb * myb);

    const std::vector<double> means = tile_means(f.gray8, f.tile);
    m.noise = noise_sigma(f.gray, means, f.tile);
    // Halved planes, as the measure was tuned on (the mask is linear: σ halves with them).
    m.chroma_noise = 0.5 * std::max(noise_sigma(rg, means, f.tile), noise_sigma(yb, means, f.tile));
    std::vector<double> profiles[2];
    step_profiles(f.gray8, profiles);
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

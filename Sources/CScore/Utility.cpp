// Utility cues: what tells a screenshot, a photographed page or a QR code from a photograph.
// Flat blocks of one exact colour (screens and graphics have them, camera sensors do not), a
// bright four-cornered page filling much of the frame, a QR code, and, only when one of those
// cheap cues is there, the words Tesseract can read (its ~1 s would otherwise be spent on every photo).
#include "Measure.hpp"
#include "Internal.hpp"
#include <opencv2/imgproc.hpp>
#include <opencv2/objdetect.hpp>
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>

namespace cscore {

TessBaseAPI *Reader::open() {
    if (tried) return api;
    tried = true;
    if (tessdata.empty()) return nullptr;
    // Tesseract's OpenMP would take every core for one page: workers are the parallelism.
    setenv("OMP_THREAD_LIMIT", "1", 0);
    api = TessBaseAPICreate();
    if (TessBaseAPIInit3(api, tessdata.c_str(), "eng") != 0) {
        TessBaseAPIDelete(api);
        api = nullptr;
    } else {
        TessBaseAPISetPageSegMode(api, tesseract::PSM_AUTO);
        TessBaseAPISetVariable(api, "debug_file", "/dev/null");
    }
    return api;
}

Reader::~Reader() {
    if (api) { TessBaseAPIEnd(api); TessBaseAPIDelete(api); }
}

namespace {
double flat_share(const cv::Mat &rgb) {
    int flat = 0, total = 0;
    for (int y = 0; y + 8 <= rgb.rows; y += 8)
        for (int x = 0; x + 8 <= rgb.cols; x += 8) {
            total++;
            const uint8_t *first = rgb.ptr<uint8_t>(y) + x * 3;
            bool same = true;
            for (int j = 0; j < 8 && same; j++) {
                const uint8_t *p = rgb.ptr<uint8_t>(y + j) + x * 3;
                for (int i = 0; i < 24 && same; i++) same = std::abs((int)p[i] - (int)first[i % 3]) <= 1;
            }
            flat += same;
        }
    return total ? (double)flat / total : 0;
}

/// A page: the largest bright region of Otsu's threshold is a convex quadrilateral covering
/// 20–97 % of the frame, light and nearly colourless inside.
bool find_page(const Frame &f) {
    cv::Mat smooth, bin;
    cv::GaussianBlur(f.gray8, smooth, cv::Size(5, 5), 0);
    cv::threshold(smooth, bin, 0, 255, cv::THRESH_BINARY | cv::THRESH_OTSU);
    // Close the text lines into the page so that its outline is one contour.
    cv::morphologyEx(bin, bin, cv::MORPH_CLOSE, cv::getStructuringElement(cv::MORPH_RECT, cv::Size(15, 15)));
    std::vector<std::vector<cv::Point>> contours;
    cv::findContours(bin, contours, cv::RETR_EXTERNAL, cv::CHAIN_APPROX_SIMPLE);
    const double area = (double)f.gray8.total();
    cv::Mat hsv;
    cv::cvtColor(f.rgb, hsv, cv::COLOR_RGB2HSV);
    for (auto &c : contours) {
        double a = cv::contourArea(c);
        if (a < 0.2 * area || a > 0.97 * area) continue;
        std::vector<cv::Point> poly;
        cv::approxPolyDP(c, poly, 0.02 * cv::arcLength(c, true), true);
        if (poly.size() != 4 || !cv::isContourConvex(poly)) continue;
        cv::Mat mask = cv::Mat::zeros(f.gray8.size(), CV_8U);
        cv::fillConvexPoly(mask, poly, cv::Scalar(255));
        cv::Scalar inside = cv::mean(hsv, mask);
        if (inside[2] >= 150 && inside[1] <= 60) return true;
    }
    return false;
}

/// Text-like lines, before any reading: the morphological gradient's strong pixels joined along
/// rows; a line is a blob 0.6–6 % of the frame's height tall, at least 2.5 times as wide,
/// mostly filled. The share of the frame their boxes cover: a receipt 16 %, photographs of
/// test-data 0–3 % (leaves, grass and window rows make a few short "lines").
double text_line_share(const Frame &f) {
    cv::Mat grad, bin;
    cv::morphologyEx(f.gray8, grad, cv::MORPH_GRADIENT, cv::getStructuringElement(cv::MORPH_ELLIPSE, cv::Size(3, 3)));
    cv::threshold(grad, bin, 0, 255, cv::THRESH_BINARY | cv::THRESH_OTSU);
    const int H = f.gray8.rows;
    cv::Mat joined;
    cv::morphologyEx(bin, joined, cv::MORPH_CLOSE, cv::getStructuringElement(cv::MORPH_RECT, cv::Size(std::max(3, H / 60), 1)));
    std::vector<std::vector<cv::Point>> contours;
    cv::findContours(joined.clone(), contours, cv::RETR_EXTERNAL, cv::CHAIN_APPROX_SIMPLE);
    double covered = 0;
    for (auto &c : contours) {
        cv::Rect r = cv::boundingRect(c);
        if (r.height < 0.006 * H || r.height > 0.06 * H || r.width < 2.5 * r.height) continue;
        if (cv::countNonZero(joined(r)) < 0.45 * r.area()) continue;
        covered += r.area();
    }
    return covered / (double)f.gray8.total();
}

double qr_share(const Frame &f) {
    cv::QRCodeDetector detector;
    std::vector<cv::Point2f> corners;
    // OpenCV's detector can throw on small odd images (a flood fill seeded outside the image was
    // seen on a 75-px reduction): no code found, rather than the whole photo's score failing.
    try {
        if (!detector.detect(f.gray8, corners) || corners.size() != 4) return 0;
    } catch (const cv::Exception &) {
        return 0;
    }
    // The finder-pattern detector also fires on window grids and tiles, and Debian's OpenCV
    // cannot decode (no quirc): a code counts when its quadrilateral is nearly square and,
    // straightened, is black and white (Otsu's two classes explain most of its variance).
    double a = cv::norm(corners[0] - corners[1]), b = cv::norm(corners[1] - corners[2]);
    double c = cv::norm(corners[2] - corners[3]), d = cv::norm(corners[3] - corners[0]);
    double lo = std::min({a, b, c, d}), hi = std::max({a, b, c, d});
    if (lo < 20 || hi > 1.4 * lo) return 0;
    std::vector<cv::Point2f> square = {{0, 0}, {63, 0}, {63, 63}, {0, 63}};
    cv::Mat patch, bin;
    cv::warpPerspective(f.gray8, patch, cv::getPerspectiveTransform(corners, square), cv::Size(64, 64));
    cv::threshold(patch, bin, 0, 255, cv::THRESH_BINARY | cv::THRESH_OTSU);
    cv::Scalar mean, sd, m0, m1;
    cv::meanStdDev(patch, mean, sd);
    double dark = 1 - cv::countNonZero(bin) / 4096.0;
    if (sd[0] < 40 || dark < 0.25 || dark > 0.75) return 0;
    m1 = cv::mean(patch, bin);
    cv::Mat inv = 255 - bin;
    m0 = cv::mean(patch, inv);
    double between = dark * (1 - dark) * (m1[0] - m0[0]) * (m1[0] - m0[0]);
    if (between < 0.8 * sd[0] * sd[0]) return 0;
    return std::fabs(cv::contourArea(corners)) / (double)f.gray8.total();
}

/// Words read with confidence ≥ 70 having at least two letters or digits (Tesseract reads
/// "words" of one or two marks into any texture).
int read_words(Reader *reader, const cv::Mat &gray, double &area) {
    area = 0;
    TessBaseAPI *api = reader ? reader->open() : nullptr;
    if (api == nullptr) return -1;
    TessBaseAPISetImage(api, gray.data, gray.cols, gray.rows, 1, (int)gray.step);
    if (TessBaseAPIRecognize(api, nullptr) != 0) { TessBaseAPIClear(api); return -1; }
    int words = 0;
    TessResultIterator *it = TessBaseAPIGetIterator(api);
    if (it != nullptr) {
        do {
            char *text = TessResultIteratorGetUTF8Text(it, tesseract::RIL_WORD);
            if (text == nullptr) continue;
            int alnum = 0;
            for (char *p = text; *p; p++) alnum += std::isalnum((unsigned char)*p) ? 1 : 0;
            if (alnum >= 2 && TessResultIteratorConfidence(it, tesseract::RIL_WORD) >= 70) {
                words++;
                int x0, y0, x1, y1;
                if (TessPageIteratorBoundingBox(TessResultIteratorGetPageIterator(it), tesseract::RIL_WORD, &x0, &y0, &x1, &y1))
                    area += (double)(x1 - x0) * (y1 - y0);
            }
            TessDeleteText(text);
        } while (TessResultIteratorNext(it, tesseract::RIL_WORD));
        TessResultIteratorDelete(it);
    }
    TessBaseAPIClear(api);
    area /= (double)gray.total();
    return words;
}
}  // namespace

void measure_utility(const Frame &f, const Frame &seen, Reader *reader, int ocr, sc_measures &m) {
    m.flat = flat_share(f.rgb);
    m.page = find_page(f) ? 1 : 0;
    m.qr_area = qr_share(f);
    // Text lines at the size they would be seen: a small photographed page's print is too small
    // to find at its own size.
    m.text_lines = text_line_share(seen);
    m.text_words = -1;
    m.text_area = 0;
    const bool lines = m.text_lines >= 0.012;
    // Flat areas alone start the reading only at the screenshot rule's own bar (ScoreModel: 25 %
    // of flat blocks and 5 words): below it words could only make a document, which text lines
    // or a page outline announce. Camera photos with clipped skies or smooth upscaled areas
    // (15–23 % flat) were read for nothing, at a few times the cost of all the rest.
    bool candidate = m.page || m.flat >= 0.25 || m.qr_area > 0 || lines;
    // Enlarged only where lines of print were seen: Tesseract's time grows with the pixels, and a
    // small picture with flat areas (a drawing, a scan) would pay several times over for nothing.
    if (ocr == 2 || (ocr == 1 && candidate)) m.text_words = read_words(reader, lines ? seen.gray8 : f.gray8, m.text_area);
}

}  // namespace cscore

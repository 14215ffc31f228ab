// The scorer's handle and its one entry point: builds the shared luminance once and runs every
// measurement group on it. OpenCV and Tesseract exceptions stop here.
#include "CScore.h"
#include "Internal.hpp"
#include "Measure.hpp"
#include "OpenCVThreads.hpp"
#include <opencv2/core/utility.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/quality.hpp>
#include <cstdlib>
#include <cmath>
#include <cstring>
#include <string>
#include <unistd.h>

struct sc_scorer {
    cv::Ptr<cv::quality::QualityBRISQUE> brisque;
    cscore::Cascades cascades;
    cscore::Reader reader;
};

namespace {
void set_error(char *err, size_t err_len, const std::string &message) {
    if (err == nullptr || err_len == 0) return;
    size_t n = message.size() < err_len - 1 ? message.size() : err_len - 1;
    std::memcpy(err, message.data(), n);
    err[n] = '\0';
}

bool readable(const std::string &path) { return access(path.c_str(), R_OK) == 0; }

/// BRISQUE at most 512 px on the long side: its features are local statistics and LIVE's
/// training images were about that size; it costs a quarter of the time at 1024 px.
double brisque_of(sc_scorer *s, const cscore::Frame &f) {
    if (s->brisque.empty()) return -1;
    cv::Mat g = f.gray8;
    int longSide = std::max(g.cols, g.rows);
    if (longSide > 512) {
        double k = 512.0 / longSide;
        cv::resize(g, g, cv::Size(std::max(1, (int)(g.cols * k)), std::max(1, (int)(g.rows * k))), 0, 0, cv::INTER_AREA);
    }
    return s->brisque->compute(g)[0];
}
}  // namespace

extern "C" sc_scorer *sc_create(const char *opencv_data, const char *tessdata, const char *landmarks68, char *err,
                                size_t err_len) {
    try {
        shoebox_opencv_single_threaded();  // one scorer per analysis worker: no pool of OpenCV's own
        auto s = new sc_scorer();
        std::string data = opencv_data ? opencv_data : "/usr/share/opencv4";
        std::string model = data + "/quality/brisque_model_live.yml", range = data + "/quality/brisque_range_live.yml";
        if (readable(model) && readable(range)) s->brisque = cv::quality::QualityBRISQUE::create(model, range);
        std::string eyes = data + "/haarcascades/haarcascade_eye_tree_eyeglasses.xml";
        std::string smile = data + "/haarcascades/haarcascade_smile.xml";
        if (readable(eyes)) s->cascades.eyes.load(eyes);
        if (readable(smile)) s->cascades.smile.load(smile);
        // dlib's model and Tesseract load on first use: a photo without a face of 48 px or
        // more never needs the one, one without a cue of text never the other.
        s->cascades.landmarksPath = landmarks68 ? landmarks68 : "";
        if (tessdata && readable(std::string(tessdata) + "/eng.traineddata")) s->reader.tessdata = tessdata;
        return s;
    } catch (const std::exception &e) {
        set_error(err, err_len, std::string("scorer: ") + e.what());
    } catch (...) {
        set_error(err, err_len, "scorer: unknown error");
    }
    return nullptr;
}

extern "C" void sc_destroy(sc_scorer *s) {
    if (s == nullptr) return;
    delete s;
}

/// The luminance as a person would see it on a screen: a picture smaller than 1024 px is enlarged
/// to it (bicubic, as viewers do), so that its blur is judged at that size, not at a thumbnail's.
static cscore::Frame seen_frame(const cscore::Frame &f, int full_long_side) {
    const int longSide = std::max(f.gray8.cols, f.gray8.rows);
    const int view = 1024;
    if (full_long_side <= 0 || full_long_side >= view || longSide >= view) return f;
    double k = (double)view / longSide;
    cscore::Frame seen;
    cv::resize(f.gray8, seen.gray8, cv::Size((int)std::lround(f.gray8.cols * k), (int)std::lround(f.gray8.rows * k)), 0, 0,
               cv::INTER_CUBIC);
    seen.gray8.convertTo(seen.gray, CV_32F);
    seen.tile = std::max(8, view / 32);
    return seen;
}

extern "C" int sc_measure(sc_scorer *s, const uint8_t *rgb, int w, int h, double block_period, int full_long_side, int ocr,
                          const sc_face_in *faces, int n_faces, sc_face_out *face_out, sc_measures *out,
                          char *err, size_t err_len) {
    try {
        if (s == nullptr || rgb == nullptr || out == nullptr || w < 16 || h < 16) {
            set_error(err, err_len, "scorer: an image of at least 16×16 pixels is needed");
            return -1;
        }
        std::memset(out, 0, sizeof *out);
        cscore::Frame f;
        f.rgb = cv::Mat(h, w, CV_8UC3, const_cast<uint8_t *>(rgb));
        cv::cvtColor(f.rgb, f.gray8, cv::COLOR_RGB2GRAY);
        f.gray8.convertTo(f.gray, CV_32F);
        // Tiles of ~1/32 of the long side: 32 px on a 1024-px working image.
        f.tile = std::max(8, std::max(w, h) / 32);

        cscore::measure_technical(f, block_period, *out);
        // Sharpness where it would be seen: a small picture enlarged to a screen's size.
        cscore::Frame seen = seen_frame(f, full_long_side);
        cscore::BlurTiles tiles = cscore::blur_tiles(seen);
        std::vector<double> saliency = cscore::measure_saliency(seen, tiles.cols, tiles.rows, *out);
        cscore::measure_tilt(f, *out);
        cscore::measure_faces(f, &s->cascades, faces, n_faces, face_out);
        if (seen.gray.data != f.gray.data)
            for (int i = 0; i < n_faces; i++) {
                const int W = seen.gray.cols, H = seen.gray.rows;
                cv::Rect box((int)std::lround(faces[i].x * W), (int)std::lround(faces[i].y * H),
                             (int)std::lround(faces[i].w * W), (int)std::lround(faces[i].h * H));
                face_out[i].blur = cscore::blur_of_region(seen, box);
            }
        cscore::measure_utility(f, seen, &s->reader, ocr, *out);
        out->brisque = brisque_of(s, f);

        // Sharpness where it matters: the sharpest tenth of the textured tiles (a shallow depth
        // of field keeps its subject sharp), the median, and the salient tiles' median.
        std::vector<double> all, salient, sal;
        for (size_t i = 0; i < tiles.blur.size(); i++)
            if (tiles.textured[i]) { all.push_back(tiles.blur[i]); sal.push_back(saliency[i]); }
        double cut = cscore::percentile(sal, 0.7);
        for (size_t i = 0; i < all.size(); i++) if (sal[i] >= cut) salient.push_back(all[i]);
        out->blur_best = all.empty() ? 1 : cscore::percentile(all, 0.1);
        out->blur_global = all.empty() ? 1 : cscore::percentile(all, 0.5);
        out->blur_subject = salient.empty() ? out->blur_global : cscore::percentile(salient, 0.5);
        double lo = 1, hi = 0;
        for (double d : tiles.direction) { lo = std::min(lo, d); hi = std::max(hi, d); }
        out->motion = hi - lo;
        return 0;
    } catch (const std::exception &e) {
        set_error(err, err_len, std::string("scorer: ") + e.what());
    } catch (...) {
        set_error(err, err_len, "scorer: unknown error");
    }
    return -1;
}

// The scorer's measurements, one group a file; all work on OpenCV matrices of the working image.
#pragma once
#include <opencv2/core.hpp>
#include <string>
#include <vector>
#include "CScore.h"

namespace cscore {

/// Luminance (CV_32F, 0…255) and the image's tiles, shared by every measurement.
struct Frame {
    cv::Mat rgb;    ///< CV_8UC3, RGB order
    cv::Mat gray8;  ///< CV_8U luminance
    cv::Mat gray;   ///< CV_32F luminance
    int tile = 32;  ///< tile side in pixels
};

/// Per-tile Crété-Roffet blur indices (0 sharp … 1 featureless) in four directions (0°, 90°,
/// 45°, 135°) and each tile's gradient energy, so sharpness can be read where the subject is.
struct BlurTiles {
    int cols = 0, rows = 0;
    std::vector<double> blur;      ///< mean of the four directions, per tile
    std::vector<double> energy;    ///< mean |difference| of the original, per tile
    std::vector<bool> textured;    ///< enough detail for the index to mean something
    double direction[4] = {0, 0, 0, 0};  ///< energy-weighted index over textured tiles, per direction
};

BlurTiles blur_tiles(const Frame &f);
/// The blur index of one rectangle (both main directions), for a face.
double blur_of_region(const Frame &f, cv::Rect r);
void measure_technical(const Frame &f, double block_period, sc_measures &m);
/// Fills subject_x/y, thirds and returns the per-tile mean saliency (cols × rows).
std::vector<double> measure_saliency(const Frame &f, int cols, int rows, sc_measures &m);
void measure_tilt(const Frame &f, sc_measures &m);
/// cv::HoughLinesP's segments (rho 1 px, angles in steps of `thetaStep`) on `edges`, voting only
/// for lines within `maxDegrees` of level (NearHorizontalLines.cpp).
std::vector<cv::Vec4i> near_horizontal_lines(const cv::Mat &edges, double maxDegrees, double thetaStep, int threshold,
                                             int lineLength, int lineGap);

struct Cascades;
void measure_faces(const Frame &f, Cascades *c, const sc_face_in *faces, int n, sc_face_out *out);

struct Reader;
/// Flat areas, a page and a QR code on `f`; text lines and words on `seen` (`f` enlarged to a
/// screen's size when it is smaller).
void measure_utility(const Frame &f, const Frame &seen, Reader *reader, int ocr, sc_measures &m);

/// A percentile (0…1) of `v` (copied, partially sorted); 0 for an empty vector.
double percentile(std::vector<double> v, double p);

}  // namespace cscore

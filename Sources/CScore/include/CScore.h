// The scorer's measurements of one photo, over OpenCV (imgproc, quality, saliency, objdetect) and
// Tesseract. Plain C only: every handle is opaque, errors come back as text in a caller's buffer,
// and no C++ exception crosses this boundary (each entry point catches them all).
// A handle is not thread-safe (BRISQUE's SVM, the cascades and Tesseract keep scratch state):
// one per analysis worker.
#ifndef CSCORE_H
#define CSCORE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A face found by the detector, normalised to the image (x/y the top-left corner).
typedef struct {
    double x, y, w, h;
} sc_face_in;

/// What the scorer sees of one face.
typedef struct {
    /// Blur index of the face box (Crété-Roffet: 0 sharp … 1 featureless).
    double blur;
    /// Open eyes: 0, 1, 2 — from the eye aspect ratio of dlib's 68 landmarks when its model is
    /// there, else the Haar eye cascade; -1 when the face is too small to tell (under 48 px).
    int eyes;
    /// The larger of the two eyes' aspect ratios (Soukupová and Čech 2016: the eyelids' opening
    /// over the eye's width, ~0.3 open, < 0.2 closed); -1 when not measured.
    double eye_ratio;
    /// 1 when the smile cascade fires in the lower half of the box, 0 when not, -1 unknown.
    int smile;
    /// 1 when the box touches the frame (a face cut by the edge).
    int cut;
} sc_face_out;

/// Raw measurements; every field is documented in docs/SCORING.md.
typedef struct {
    // Technical, on the luminance of the working image.
    double blur_subject;    ///< blur index (0 sharp … 1) where the subject is: faces, else salient tiles
    double blur_best;       ///< blur index of the sharpest tenth of textured tiles (depth of field)
    double blur_global;     ///< median blur index of textured tiles
    double motion;          ///< directional blur: the blurriest direction's index minus the sharpest's
    double noise;           ///< luminance noise σ (0…255) in the smoothest tiles (Immerkær)
    double chroma_noise;    ///< the same on the colour-difference planes
    double mean_luma;       ///< mean luminance (0…255)
    double black_point;     ///< 1st percentile of min(R,G,B)
    double white_point;     ///< 99.5th percentile of max(R,G,B)
    double clip_high;       ///< share of pixels with a channel at 254 or more over bright areas
    double clip_low;        ///< share of pixels with luminance at 3 or less
    double contrast;        ///< RMS contrast: standard deviation of luminance / 255
    double colorfulness;    ///< Hasler–Süsstrunk M (0 grey … ~150)
    double blockiness;      ///< JPEG block edges: boundary / interior step ratio − 1 (0 none)
    double pixelation;      ///< a grid of repeated pixels (an image blown up): the strongest period's step ratio − 1 (0 none)
    double vignette;        ///< 1 − corners' mean luminance / centre's (0 even, > 0 dark corners)
    double posterize;       ///< share of empty luminance levels between the 2nd and 98th percentile (banding)
    double brisque;         ///< OpenCV BRISQUE 0 (best) … 100; -1 when its model is missing
    // Composition.
    double subject_x, subject_y;  ///< the saliency map's centre of mass (0…1)
    double thirds;          ///< distance of it from the nearest third-point or the centre (0…~0.5)
    double tilt;            ///< horizon tilt in degrees (long near-horizontal lines), 0 when none
    int has_horizon;        ///< 1 when long near-horizontal lines were found
    // Utility cues.
    double flat;            ///< share of 8×8 blocks of exactly one colour (screens, graphics)
    int text_words;         ///< words Tesseract read with confidence ≥ 70 (-1: not run)
    double text_area;       ///< share of the frame those words' boxes cover (0 when not run)
    double text_lines;      ///< share of the frame in text-like lines (a cheap cue, before any reading)
    int page;               ///< 1 when a bright quadrilateral page fills ≥ 20 % of the frame
    double qr_area;         ///< share of the frame a QR code covers (0 none)
} sc_measures;

typedef struct sc_scorer sc_scorer;

/// Loads BRISQUE's model and the eye and smile cascades (from `opencv_data`, e.g.
/// /usr/share/opencv4); Tesseract's English data (from `tessdata`) is read on the first page to
/// read, and dlib's 68-point shape predictor (`landmarks68`, e.g.
/// /usr/share/dlib/shape_predictor_68_face_landmarks.dat; NULL or missing: the eye cascade judges
/// eyes) on the first face that needs its eyes judged, once per process for all scorers. A
/// missing file disables that measurement (reported as -1), never the scorer. NULL and `err`
/// filled on failure.
sc_scorer *sc_create(const char *opencv_data, const char *tessdata, const char *landmarks68, char *err, size_t err_len);
void sc_destroy(sc_scorer *s);

/// Measures `rgb` (w×h, RGB8, rows without padding). `block_period` is the JPEG block size in
/// pixels of `rgb` (8 × w / full width; 0 when not a JPEG). `full_long_side` is the file's own
/// long side in pixels (0 unknown): a picture smaller than a screen is judged for sharpness as it
/// would be seen there, enlarged to 1024 px. `ocr` 0 never reads text, 1 reads
/// it when the cheap cues (flat areas, a page, a QR code) suggest a utility image, 2 always.
/// Faces in, one result per face out. Returns 0, or -1 with `err` filled.
int sc_measure(sc_scorer *s, const uint8_t *rgb, int w, int h, double block_period, int full_long_side, int ocr,
               const sc_face_in *faces, int n_faces, sc_face_out *face_out, sc_measures *out,
               char *err, size_t err_len);

#ifdef __cplusplus
}
#endif

#endif

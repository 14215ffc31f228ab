// Face detection, alignment, descriptors and clustering for Faces, over dlib and OpenCV.
// Plain C only: every handle is opaque, every error comes back as text in a caller's buffer,
// and no C++ exception crosses this boundary (each entry point catches them all).
// A handle is not thread-safe (dlib's detectors and networks keep scratch state): one per thread.
// Creating one sets OpenCV's and OpenBLAS's own thread pools to a single thread, process-wide:
// Shoebox parallelises over photos, a handle per worker.
#ifndef CVISION_H
#define CVISION_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A face in pixels of the image passed in (top-left x/y), with the detector's confidence:
/// CenterFace's face score (0…1), dlib HOG's SVM score (0 at its default threshold) or OpenCV
/// Haar's level weight.
typedef struct {
    double x, y, w, h;
    double confidence;
} cv_face_box;

typedef struct cv_hog_detector cv_hog_detector;
typedef struct cv_centerface_detector cv_centerface_detector;
typedef struct cv_haar_detector cv_haar_detector;
typedef struct cv_recognizer cv_recognizer;

// dlib's frontal HOG detector (get_frontal_face_detector): NULL and `err` filled on failure.
cv_hog_detector *cv_hog_create(char *err, size_t err_len);
void cv_hog_destroy(cv_hog_detector *d);

// Detects faces in `rgb` (w×h, RGB8, rows without padding) after resizing it by `scale`
// (> 1 upsamples so small faces reach the detector's ~80 px window; < 1 reduces). Boxes come
// back in the coordinates of `rgb`, best first, at most `max` of them; `adjust_threshold` is added
// to dlib's decision threshold (negative finds more, less precisely).
// Returns how many faces were found (may exceed `max`), or -1 with `err` filled.
int cv_hog_detect(cv_hog_detector *d, const uint8_t *rgb, int w, int h, double scale,
                  double adjust_threshold, cv_face_box *out, int max, char *err, size_t err_len);

// CenterFace (a small network trained on WIDER FACE, MIT licence) from its ONNX file, run by
// OpenCV's dnn module: the default detector, the one that finds the small faces of group photos.
cv_centerface_detector *cv_centerface_create(const char *onnx_path, char *err, size_t err_len);
void cv_centerface_destroy(cv_centerface_detector *d);

// Same contract as cv_hog_detect; `threshold` is the network's face-centre score (0…1) a face
// needs (0.5 measured: docs/faces.md); `confidence` in the boxes is that score.
int cv_centerface_detect(cv_centerface_detector *d, const uint8_t *rgb, int w, int h, double scale,
                         double threshold, cv_face_box *out, int max, char *err, size_t err_len);

// OpenCV's Haar cascade from `cascade_path` (e.g. opencv-data's haarcascade_frontalface_alt2.xml).
cv_haar_detector *cv_haar_create(const char *cascade_path, char *err, size_t err_len);
void cv_haar_destroy(cv_haar_detector *d);

// Same contract as cv_hog_detect; `min_neighbors` is the cascade's grouping threshold (3–5).
int cv_haar_detect(cv_haar_detector *d, const uint8_t *rgb, int w, int h, double scale,
                   int min_neighbors, cv_face_box *out, int max, char *err, size_t err_len);

// dlib's 5-point shape predictor and ResNet face descriptor, loaded from their .dat files.
// NULL and `err` naming the file on a missing or invalid one.
cv_recognizer *cv_recognizer_create(const char *shape_predictor_path, const char *resnet_path,
                                    char *err, size_t err_len);
void cv_recognizer_destroy(cv_recognizer *r);

// One 128-float descriptor per box (in pixels of `rgb`) into `out` (n × 128): the five landmarks,
// the face aligned into a 150-px chip with 25 % padding, the network. When `quality` is not NULL,
// two floats per face into it (n × 2): how far the face is turned (the nose's offset from between
// the eyes, in eye distances: ~0 frontal, 0.5 and more towards a profile) and the sharpness of
// the aligned chip (variance of its grey Laplacian: low for a small enlarged or blurred face).
// Returns 0, or -1 with `err` filled.
int cv_face_descriptors(cv_recognizer *r, const uint8_t *rgb, int w, int h,
                        const cv_face_box *boxes, int n, float *out, float *quality, char *err, size_t err_len);

// dlib's chinese whispers over the graph whose edges join descriptors (n × 128) closer than
// `threshold` (Euclidean): one label per descriptor into `labels` (0 ..< clusters).
// Returns the number of clusters, or -1 with `err` filled.
int cv_chinese_whispers(const float *descriptors, int n, float threshold, int *labels,
                        char *err, size_t err_len);

#ifdef __cplusplus
}
#endif

#endif

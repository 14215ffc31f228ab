// Faces into people: dlib's chinese whispers over the graph of descriptors closer than a threshold.
#include "CVision.h"
#include "ErrorText.hpp"

#include <cmath>
#include <exception>
#include <vector>

#include <dlib/clustering/chinese_whispers.h>

using cvision::set_error;

extern "C" int cv_chinese_whispers(const float *descriptors, int n, float threshold, int *labels,
                                   char *err, size_t err_len) {
    if (n < 0 || (n > 0 && (descriptors == nullptr || labels == nullptr))) {
        set_error(err, err_len, "invalid arguments to chinese whispers");
        return -1;
    }
    if (n == 0) return 0;
    try {
        std::vector<dlib::sample_pair> edges;
        for (int i = 0; i < n; i++) {
            // Each node joins itself, as dlib's own face clustering does: a face no other one is
            // near still gets a cluster of its own.
            edges.emplace_back(i, i);
            for (int j = i + 1; j < n; j++) {
                double sum = 0;
                for (int k = 0; k < 128; k++) {
                    double d = descriptors[i * 128 + k] - descriptors[j * 128 + k];
                    sum += d * d;
                }
                if (std::sqrt(sum) < threshold) edges.emplace_back(i, j);
            }
        }
        std::vector<unsigned long> found;
        // A fixed iteration count keeps the result deterministic for the same input: dlib seeds
        // its own random generator the same way each call.
        unsigned long clusters = dlib::chinese_whispers(edges, found, 100);
        for (int i = 0; i < n; i++) labels[i] = (int)found[i];
        return (int)clusters;
    } catch (const std::exception &e) {
        set_error(err, err_len, std::string("chinese whispers failed: ") + e.what());
    } catch (...) {
        set_error(err, err_len, "chinese whispers failed");
    }
    return -1;
}

// OpenCV's thread count is process-wide, and cv::setNumThreads re-creates its parallel backend
// (TBB's arena on Debian): called from several analysis workers at once — each making its own
// detector and scorer — it crashed inside libtbb under load. So it is set once per process,
// whichever of CVision and CScore comes first: this inline function is defined identically in
// both targets' OpenCVThreads.hpp, so the program has one of it, with one once_flag.
#pragma once
#include <mutex>
#include <opencv2/core.hpp>

inline void shoebox_opencv_single_threaded() {
    static std::once_flag once;
    std::call_once(once, [] { cv::setNumThreads(1); });
}

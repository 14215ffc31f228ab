// Copies an error message into a caller's C buffer, always NUL-terminated and truncated to fit.
#pragma once
#include <cstring>
#include <string>

namespace cvision {
inline void set_error(char *err, size_t err_len, const std::string &message) {
    if (err == nullptr || err_len == 0) return;
    size_t n = message.size() < err_len - 1 ? message.size() : err_len - 1;
    std::memcpy(err, message.data(), n);
    err[n] = '\0';
}
}

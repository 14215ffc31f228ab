#ifndef SHOEBOX_CFFMPEG_SHIM_H
#define SHOEBOX_CFFMPEG_SHIM_H
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/display.h>
#include <libavutil/imgutils.h>
#include <libswscale/swscale.h>
#include <errno.h>
// FFmpeg's error codes and "no timestamp" are macros Swift does not import (FFERRTAG, AVERROR).
static const int SHOEBOX_AVERROR_EOF = AVERROR_EOF;
static const int SHOEBOX_AVERROR_EAGAIN = AVERROR(EAGAIN);
static const int64_t SHOEBOX_AV_NOPTS_VALUE = AV_NOPTS_VALUE;
static const int SHOEBOX_AVSEEK_SIZE = AVSEEK_SIZE;
#endif

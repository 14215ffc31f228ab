#ifndef SHOEBOX_CTurboJPEG_SHIM_H
#define SHOEBOX_CTurboJPEG_SHIM_H
#include <turbojpeg.h>
#endif

#ifndef SHOEBOX_CLCMS2_SHIM_H
#define SHOEBOX_CLCMS2_SHIM_H
#include <lcms2.h>
// lcms2's pixel formats are macros built from other function-like macros, which Swift does not
// import: the few Shoebox uses, as constants.
static const cmsUInt32Number SHOEBOX_TYPE_RGB_8 = TYPE_RGB_8;
static const cmsUInt32Number SHOEBOX_TYPE_CMYK_8 = TYPE_CMYK_8;
// Adobe Photoshop writes CMYK JPEGs inverted (0 = full ink); TurboJPEG hands them over as stored.
static const cmsUInt32Number SHOEBOX_TYPE_CMYK_8_REV = TYPE_CMYK_8_REV;
#endif

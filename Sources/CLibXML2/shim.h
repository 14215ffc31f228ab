#ifndef SHOEBOX_CLibXML2_SHIM_H
#define SHOEBOX_CLibXML2_SHIM_H
// libxml2's SAX2 push parser, for XMP packets (Metadata's XMPTree.swift): Foundation's XMLParser
// wraps the same parser with a delegate call, NSString and dictionary per element and attribute.
#include <libxml/xmlversion.h>
// Debian's libxml2 is built with ICU, and its encoding.h then includes ICU's headers, which
// clash with the copy of ICU inside Foundation (_FoundationICU) in any module that sees both.
// Nothing here uses the ICU converters: only pointers to the structures they change are used.
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#endif

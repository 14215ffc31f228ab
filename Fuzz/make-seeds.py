#!/usr/bin/env python3
"""Seed corpora for the fuzz targets, made from sample-library/ and a scratch library.

    Fuzz/make-seeds.py OUT SAMPLE_LIBRARY [SCRATCH_LIBRARY]

Writes OUT/<Target>/<name> for every target of Fuzz/Package.swift. SCRATCH_LIBRARY is a copy of
the sample library that `shoebox init`, `scan`, `album create` and `trash` ran on (Fuzz/run makes
it): its sidecars, album files, .trashinfo files and config.toml become seeds. Media are cut to
their first 64 KiB where the parser needs only headers, a few small files are kept whole, and MP4/MOV
files keep their boxes but lose the media data. Everything is small and deterministic.
"""
import json, hashlib
import os
import shutil
import struct
import subprocess
import sys
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from web_seeds import web_seeds  # noqa: E402

HEAD = 64 << 10

out_root, sample = sys.argv[1], sys.argv[2]
scratch = sys.argv[3] if len(sys.argv) > 3 else None


def put(target, data, hint=""):
    """Writes one seed, named by content (duplicates collapse)."""
    if isinstance(data, str):
        data = data.encode()
    folder = os.path.join(out_root, target)
    os.makedirs(folder, exist_ok=True)
    name = hashlib.sha1(data).hexdigest()[:16] + (("-" + hint) if hint else "")
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)


def media(ext):
    found = []
    for root, dirs, files in os.walk(sample):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for f in sorted(files):
            if f.lower().endswith(ext):
                found.append(os.path.join(root, f))
    return found


def read(path):
    with open(path, "rb") as f:
        return f.read()


def exiftool(*args):
    try:
        return subprocess.run(["exiftool", *args], capture_output=True, check=False).stdout
    except FileNotFoundError:
        return b""


def trim_xmp(packet):
    """An XMP packet without its padding (kilobytes of spaces for in-place editing)."""
    end = packet.find(b"<?xpacket end")
    if end >= 0:
        stop = packet.find(b"?>", end)
        return packet[:packet.rfind(b">", 0, end) + 1].rstrip() + b"\n" + packet[end:stop + 2]
    return packet.rstrip(b" \n\0")


# JPEG: APP1 payloads are EXIF and XMP seeds too.
def jpeg_segments(data):
    pos = 2
    while pos + 4 <= len(data) and data[pos] == 0xFF:
        marker = data[pos + 1]
        length = struct.unpack(">H", data[pos + 2:pos + 4])[0]
        if marker == 0xDA:
            return
        yield marker, data[pos + 4:pos + 2 + length]
        pos += 2 + length


exif_blocks, xmp_packets, iptc_resources = [], [], []
jpegs = media(".jpg")
for i, path in enumerate(jpegs):
    data = read(path)
    whole = len(data) <= 16 << 10
    if whole or i % 2 == 0:
        put("JPEG", data if whole else data[:HEAD], "whole" if whole else "head")
    if i % 3 == 0 or whole:
        put("MetadataReader", data if whole else data[:HEAD], "jpeg")
    for marker, payload in jpeg_segments(data):
        if marker == 0xE1 and payload.startswith(b"Exif\0\0"):
            exif_blocks.append(payload[6:])
        elif marker == 0xE1 and payload.startswith(b"http://ns.adobe.com/xap/1.0/\0"):
            xmp_packets.append(payload[29:])
        elif marker == 0xED and payload.startswith(b"Photoshop 3.0\0"):
            iptc_resources.append(payload[14:])

heics = media(".heic")
for path in heics:
    data = read(path)
    whole = len(data) <= 32 << 10
    put("HEIC", data if whole else data[:HEAD], "whole" if whole else "head")
    if len(data) <= 64 << 10:   # HEIFItems needs the coded data after the boxes: whole files only
        put("HEIFItems", data, "whole")
    if whole:
        put("MetadataReader", data, "heic")
    exif_blocks.append(exiftool("-exif", "-b", path))
    xmp_packets.append(exiftool("-xmp", "-b", path))


# PNG: the samples' heads, and a tiny PNG with eXIf and XMP chunks (Shoebox reads both).
def chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def tiny_png(extra, palette=False):
    """4×3 pixels, RGB or with a palette (which libpng wants before IDAT)."""
    sig = b"\x89PNG\r\n\x1a\n"
    ihdr = chunk(b"IHDR", struct.pack(">IIBBBBB", 4, 3, 8, 3 if palette else 2, 0, 0, 0))
    plte = chunk(b"PLTE", bytes(range(12))) if palette else b""
    row = b"\0" + (b"\x01" * 4 if palette else b"\x80" * 12)
    idat = chunk(b"IDAT", zlib.compress(row * 3))
    return sig + ihdr + b"".join(extra) + plte + idat + chunk(b"IEND", b"")


for path in media(".png"):
    data = read(path)
    put("PNG", data[:HEAD], "head")
    xmp_packets.append(exiftool("-xmp", "-b", path))


def iptc_seeds():
    """APP13 payloads (after "Photoshop 3.0\0") that exiftool writes: dates, places, keywords,
    a Latin-1 one without a coded character set; what the samples lack."""
    tmp = os.path.join(out_root, ".iptc-scratch")
    os.makedirs(tmp, exist_ok=True)
    base = os.path.join(tmp, "base.jpg")
    # The smallest JPEG there is to exiftool: SOI, a minimal frame, EOI are enough for it to write APP13.
    smallest = min(jpegs, key=os.path.getsize) if jpegs else None
    if smallest is None:
        return []
    shutil.copyfile(smallest, base)
    found = []
    for i, tags in enumerate([
        ["-IPTC:DateCreated=2019:07:04", "-IPTC:TimeCreated=14:30:15+02:00", "-IPTC:City=Lyon",
         "-IPTC:Country-PrimaryLocationName=France", "-IPTC:Sub-location=Vieux Lyon", "-IPTC:Keywords=river",
         "-IPTC:Keywords=bridge", "-IPTC:CodedCharacterSet=UTF8"],
        ["-charset", "iptc=Latin", "-IPTC:City=Zürich", "-IPTC:Country-PrimaryLocationCode=CHE",
         "-IPTC:DateCreated=2015:02:03"],
    ]):
        path = os.path.join(tmp, "iptc%d.jpg" % i)
        shutil.copyfile(base, path)
        exiftool("-q", "-overwrite_original", "-all=", *tags, path)
        for marker, payload in jpeg_segments(read(path)):
            if marker == 0xED and payload.startswith(b"Photoshop 3.0\0"):
                found.append(payload[14:])
    shutil.rmtree(tmp, ignore_errors=True)
    return found


for r in dict.fromkeys(iptc_resources + iptc_seeds()):
    put("IPTC", r)

exif_blocks = [b for b in dict.fromkeys(exif_blocks) if len(b) > 8]
xmp_packets = [trim_xmp(p) for p in dict.fromkeys(xmp_packets) if p.strip()]
for b in exif_blocks:
    put("EXIF", b)
for p in xmp_packets:
    put("XMP", p)

small_exif = min(exif_blocks, key=len) if exif_blocks else b""
small_xmp = min(xmp_packets, key=len) if xmp_packets else b""
plain = tiny_png([])
with_meta = tiny_png([chunk(b"eXIf", small_exif),
                      chunk(b"iTXt", b"XML:com.adobe.xmp\0\0\0\0\0" + small_xmp)])
palette = tiny_png([], palette=True)
for data, hint in [(plain, "tiny"), (with_meta, "exif-xmp"), (palette, "palette")]:
    put("PNG", data, hint)
    put("MetadataReader", data, "png")

# XMP packets crafted for what the samples lack: Microsoft regions, places, dates, GPS,
# rdf:Alt, ExtendedXMP's GUID, UTF-16, a declaration.
NS = ("xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#' "
      "xmlns:MP='http://ns.microsoft.com/photo/1.2/' "
      "xmlns:MPRI='http://ns.microsoft.com/photo/1.2/t/RegionInfo#' "
      "xmlns:MPReg='http://ns.microsoft.com/photo/1.2/t/Region#' "
      "xmlns:photoshop='http://ns.adobe.com/photoshop/1.0/' "
      "xmlns:exif='http://ns.adobe.com/exif/1.0/' xmlns:xmp='http://ns.adobe.com/xap/1.0/' "
      "xmlns:xmpNote='http://ns.adobe.com/xmp/note/' "
      "xmlns:Iptc4xmpExt='http://iptc.org/std/Iptc4xmpExt/2008-02-29/'")
crafted = [
    f"""<x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF {NS}><rdf:Description rdf:about=''>
<MP:RegionInfo rdf:parseType='Resource'><MPRI:Regions><rdf:Bag><rdf:li rdf:parseType='Resource'>
<MPReg:Rectangle>0.25, 0.1, 0.3, 0.4</MPReg:Rectangle><MPReg:PersonDisplayName>Ana</MPReg:PersonDisplayName>
</rdf:li></rdf:Bag></MPRI:Regions></MP:RegionInfo></rdf:Description></rdf:RDF></x:xmpmeta>""",
    f"""<x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF {NS}><rdf:Description rdf:about=''
photoshop:City='Lisbon' photoshop:Country='Portugal' exif:DateTimeOriginal='2023-05-14T12:34:56.12+01:00'
exif:GPSLatitude='38,43.02N' exif:GPSLongitude='9,8.4W' xmpNote:HasExtendedXMP='0123456789ABCDEF0123456789ABCDEF'/>
</rdf:RDF></x:xmpmeta>""",
    f"""<x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF {NS}><rdf:Description rdf:about=''>
<Iptc4xmpExt:LocationCreated><rdf:Bag><rdf:li><rdf:Description Iptc4xmpExt:City='Porto' Iptc4xmpExt:CountryName='Portugal'/></rdf:li></rdf:Bag></Iptc4xmpExt:LocationCreated>
<photoshop:DateCreated>2023-05-14</photoshop:DateCreated>
<xmp:CreateDate><rdf:Alt><rdf:li xml:lang='x-default'>2023:05:14 12:34</rdf:li></rdf:Alt></xmp:CreateDate>
<Iptc4xmpExt:PersonInImage rdf:resource='Bo'/>
</rdf:Description></rdf:RDF></x:xmpmeta>""",
]
for text in crafted:
    put("XMP", text, "crafted")
put("XMP", "<?xml version='1.0' encoding='UTF-8'?>" + crafted[1], "decl")
put("XMP", b"\xff\xfe" + crafted[1].encode("utf-16-le"), "utf16")

# JPEG with the crafted XMP and an ExtendedXMP chunk for its GUID.
if jpegs:
    base = min((read(p) for p in jpegs), key=len)
    guid = b"0123456789ABCDEF0123456789ABCDEF"
    ext = crafted[0].encode()
    app1 = lambda payload: b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload
    extended = app1(b"http://ns.adobe.com/xmp/extension/\0" + guid + struct.pack(">II", len(ext), 0) + ext)
    main = app1(b"http://ns.adobe.com/xap/1.0/\0" + crafted[1].encode())
    put("JPEG", base[:2] + main + extended + base[2:], "extended-xmp")


# MP4/MOV: every box kept, media data dropped (mdat emptied), so the moov at the end survives.
def boxes(data, start=0, end=None):
    end = len(data) if end is None else end
    pos = start
    while pos + 8 <= end:
        size, kind = struct.unpack(">I4s", data[pos:pos + 8])
        header = 8
        if size == 1:
            size, header = struct.unpack(">Q", data[pos + 8:pos + 16])[0], 16
        elif size == 0:
            size = end - pos
        if size < header or pos + size > end:
            return
        yield kind, pos, header, size
        pos += size


def without_media(data):
    out = b""
    for kind, pos, header, size in boxes(data):
        out += b"\0\0\0\x08mdat" if kind == b"mdat" else data[pos:pos + size]
    return out


for path in media(".mov") + media(".mp4"):
    data = read(path)
    small = without_media(data)
    put("ISOBMFF", small, "boxes")
    put("ISOBMFF", data[:HEAD], "head")
    put("MetadataReader", small, "mov")



# A movie with what the samples lack: Apple's keys/ilst metadata (in moov and in udta, as ffmpeg
# writes it), ©xyz/©mak/©mod user data, a 64-bit box size, a last box of size 0, no ftyp.
def box(kind, body):
    return struct.pack(">I", 8 + len(body)) + kind + body


def keyed_meta(items):
    keys = struct.pack(">II", 0, len(items)) + b"".join(box(b"mdta", k.encode()) for k, _ in items)
    ilst = b"".join(box(struct.pack(">I", i + 1), box(b"data", struct.pack(">II", 1, 0) + v.encode()))
                    for i, (_, v) in enumerate(items))
    hdlr = box(b"hdlr", bytes(8) + b"mdta" + bytes(13))
    return box(b"meta", hdlr + box(b"keys", keys) + box(b"ilst", ilst))


def intl_text(kind, text):
    return box(kind, struct.pack(">HH", len(text), 0x55C4) + text.encode())


movs = media(".mov")
if movs:
    data = read(movs[0])
    moov = next((data[p:p + n] for k, p, h, n in boxes(data) if k == b"moov"), None)
    if moov:
        meta = keyed_meta([("com.apple.quicktime.location.ISO6709", "+38.7167-009.1333+000.000/"),
                           ("com.apple.quicktime.creationdate", "2023-05-14T12:34:56+0100"),
                           ("com.apple.quicktime.make", "Apple"), ("com.apple.quicktime.model", "iPhone 12"),
                           ("com.apple.quicktime.software", "16.5")])
        udta = box(b"udta", intl_text(b"\xa9xyz", "+3843.02-00908.00/") + intl_text(b"\xa9mak", "Canon")
                   + intl_text(b"\xa9mod", "EOS") + keyed_meta([("com.apple.quicktime.make", "ffmpeg")]))
        rich = box(b"moov", moov[8:] + meta + udta)
        ftyp_qt = box(b"ftyp", b"qt  \0\0\0\0qt  ")
        ftyp_mp4 = box(b"ftyp", b"isom\0\0\x02\0isomiso2avc1mp41")
        big_mdat = struct.pack(">I", 1) + b"mdat" + struct.pack(">Q", 16 + 8) + bytes(8)
        for movie, hint in [(ftyp_qt + rich + box(b"mdat", bytes(8)), "keys"),
                            (ftyp_mp4 + big_mdat + rich, "mp4-large-mdat"),
                            (box(b"wide", b"") + rich + b"\0\0\0\0mdat" + bytes(8), "bare-size0")]:
            put("ISOBMFF", movie, hint)
            put("MetadataReader", movie, hint)

# Not media: what the sniffing tells apart.
for data, hint in [(b"GIF89a" + bytes(32), "gif"), (b"RIFF\0\0\0\0WEBPVP8 " + bytes(16), "webp"),
                   (b"\0\0\0\x18ftypavif\0\0\0\0avifmif1", "avif"), (b"II*\0\x08\0\0\0" + bytes(8), "tiff"),
                   (b"Dear diary,\nnot a photo.\n", "text")]:
    put("MetadataReader", data, hint)

# File names: the sample library's and every pattern FileNameDate documents.
names = {os.path.basename(p) for p in media("")}
names |= {"IMG_20230514_123456.jpg", "PXL_20230514_123456789.jpg", "VID_20230514_123456.mp4", "20230514_123456.jpg",
          "IMG-20230514-WA0001.jpg", "Screenshot 2024-05-01 at 10.11.12.png", "Screenshot_20240501-101112.png",
          "Screen Shot 2019-03-02 at 9.41.07 PM.png", "Photo 2023-05-14 12 34 56.jpg", "2023-05-14 12.34.56.jpg",
          "20230514123456.heic", "2023_05_14-12_34_56.jpg", "IMG_0412.HEIC", ".hidden", "noext"}
for n in sorted(names):
    put("FileNameDate", n)

# EXIF/XMP/QuickTime value texts: "date\0subsec\0offset" for the EXIF reading, the rest whole.
for text in ["2023:05:14 12:34:56\x005\x00+02:00", "2023:05:14 12:34:56\x00123\x00-05:30", "2023-05-14 12:34\x00\x00Z",
             "    :  :     :  :  ", "0000:00:00 00:00:00", "2023-05-14T12:34:56.12+02:00", "2023-05-14T12:34Z",
             "2023:05:14", "+38.7167-009.1333+000.000/", "+3843.02-00908.00/", "+384301.2-0090800.0/",
             "38,43.02N", "9,8,24.5W", "-33.8688", "+0530", "Z"]:
    put("DateText", text)

# .trashinfo: as Shoebox writes them, as other tools do (zone, fraction, CRLF, absolute path).
for text in ["[Trash Info]\nPath=2024/Lisbon/IMG%200412.HEIC\nDeletionDate=2026-11-22T10:15:03\n",
             "[Trash Info]\r\nPath=/library/2023/Caf%C3%A9/a.jpg\r\nDeletionDate=2026-11-22T10:15:03.123+01:00\r\n",
             "# by hand\n[Trash Info]\nPath=a%2Fb.jpg\nX-Extension=1\nDeletionDate=2024-02-29 23:59:59Z\n[Other]\nPath=x\n"]:
    put("TrashInfo", text)

# config.toml: the example and a few spellings of the subset.
example = os.path.join(os.path.dirname(sample.rstrip("/")), "etc", "config.toml.example")
if os.path.exists(example):
    put("Config", read(example), "example")
put("Config", '[watch]\nsafety_scan_minutes = 1_440 # a day\nmass_disappearance_share = 2.5e-1\n[trash]\nretention_days = 7\n'
              'name = "a \\"quoted\\" # not a comment"\nflag = true\n', "forms")

# The curation list: what `CurationState.encoded` writes (empty, a few ids, a selection), and
# near misses (an unknown field, an upper-case id, a newer schema, ids as numbers).
ids = ["8de33bb3-b08d-4f5e-9d5e-2f0c4a1b2c3d", "30750b85-4381-4a5b-8c7d-1e2f3a4b5c6d", "1923f157-6f4b-4c3d-9e8f-0a1b2c3d4e5f"]
put("Curation", '{\n  "items" : [\n\n  ],\n  "schema" : 1,\n  "selected" : [\n\n  ]\n}', "empty")
put("Curation", json.dumps({"items": ids, "schema": 1, "selected": ids[1:]}, indent=2, sort_keys=True), "list")
put("Curation", json.dumps({"items": ids + ids[:1], "schema": 1, "selected": [ids[0].upper()], "extra": {"a": [1]}}), "near")
put("Curation", json.dumps({"items": [1, 2], "schema": 2, "selected": None}), "wrong")

# Tidy's session files (the first byte picks the parser: even = the state JSON, odd = the list):
# what `TidyState.encoded` and `TidyList.encode` write, and near misses.
session = "0d5a3f4e-1b2c-4d5e-8f90-a1b2c3d4e5f6"
state = {"schema": 1, "session": session, "filter": "year:2024", "startedAt": "2026-11-26T12:00:00.000Z", "items": 3,
         "totalAssets": 4, "position": 1, "positionAssets": 2, "removed": 0, "freedBytes": 0,
         "log": [{"kind": "decide", "item": 0, "positionBefore": 0, "positionAssetsBefore": 0,
                  "marks": [{"id": ids[0], "to": {"decision": "delete", "at": "2026-11-26T12:00:01.000Z", "session": session}}]},
                 {"kind": "empty", "positionBefore": 1, "positionAssetsBefore": 2, "done": False, "marks": []}]}
put("Tidy", "\x00" + json.dumps(state, indent=2, sort_keys=True), "state")
put("Tidy", "\x00" + json.dumps({**state, "schema": 9}), "newer")
put("Tidy", "\x00" + json.dumps({**state, "position": 7, "filter": "yesterday"}), "wrong")
put("Tidy", "\x01shoebox-tidy-list 1 " + session + "\na " + ids[0] + "\ns g0123456789abcdef " + ids[1] + " " + ids[2] + "\n", "list")
put("Tidy", "\x01shoebox-tidy-list 1 " + session + "\nd g0123456789abcdef " + ids[1] + " " + ids[1] + "\nx\n\na\n", "near")
# The tracker's store: version 2 as `TrackerFile.encode` writes it, version 1 (migrated), and
# near misses (a dangling reference, an unsafe photo path, an unknown stage, a newer version).
tp = {"id": "9d7e0c52-1111-4d2e-8a51-0f6c3a1b2c3d", "game_system": "Warhammer 40K", "army": "Ultramarines", "name": None,
      "created_at": "2026-11-22T10:15:03Z"}
tm = {"id": "5e4d3c2b-2222-4a1b-9c8d-7e6f5a4b3c2d", "project_id": tp["id"], "name": "Captain", "type": "character",
      "progress": "primed", "history": [{"progress": "unpainted", "at": "2026-11-22T10:15:03Z"},
                                        {"progress": "primed", "at": "2026-11-23T10:15:03+01:00"}],
      "recipe_ids": ["7a6b5c4d-3333-4e2f-8a9b-1c2d3e4f5a6b"], "photo_ids": ["0b6c9f4e-2a57-4c1e-9d3a-5f3f4c1d2e10"]}
tr = {"id": "7a6b5c4d-3333-4e2f-8a9b-1c2d3e4f5a6b", "name": "Blue", "type": "character", "steps": ["Prime", "Base, thin"],
      "paints": ["Macragge Blue"], "techniques": ["wash"]}
tf = {"id": "0b6c9f4e-2a57-4c1e-9d3a-5f3f4c1d2e10", "mini_id": tm["id"], "file": "Tracker/photos/0b6c9f4e-2a57-4c1e-9d3a-5f3f4c1d2e10.jpg",
      "taken_at": "2023-05-14T12:34:56.120", "added_at": "2026-11-22T10:15:03Z", "sha256": "ab" * 32}
put("Tracker", json.dumps({"schema_version": 2, "projects": [tp], "miniatures": [tm], "recipes": [tr], "photos": [tf]}, indent=2, sort_keys=True), "v2")
put("Tracker", '{\n  "miniatures" : [\n\n  ],\n  "photos" : [\n\n  ],\n  "projects" : [\n\n  ],\n  "recipes" : [\n\n  ],\n  "schema_version" : 2\n}', "empty")
v1m = {k: tm[k] for k in ("id", "project_id", "name", "type", "progress")} | {"progress_updated_at": "2025-02-01T10:00:00Z"}
v1r = {k: tr[k] for k in ("id", "name", "steps", "paints", "techniques")} | {"miniature_ids": [tm["id"]]}
put("Tracker", json.dumps({"schema_version": 1, "projects": [tp], "miniatures": [v1m], "recipes": [v1r], "photos": [tf]}), "v1")
put("Tracker", json.dumps({"schema_version": 2, "projects": [], "miniatures": [tm | {"recipe_ids": ["x", "x"]}], "recipes": [],
                           "photos": [tf | {"file": "Tracker/photos/../../etc/passwd"}]}), "near")
put("Tracker", json.dumps({"schema_version": 3, "projects": [tp | {"game_system": "Necromunda"}]}), "wrong")
# The composer's draft: what `ComposerDraft.encoded` writes (one to four ids), and near misses
# (five ids, an id twice, an unknown field, a newer schema, ids as numbers).
more = ids + ["5d0c7e21-3b4a-4f6e-8a9b-0c1d2e3f4a5b", "6e1d8f32-4c5b-4a7f-9b0c-1d2e3f4a5b6c"]
put("Composer", json.dumps({"items": ids[:1], "schema": 1}, indent=2, sort_keys=True), "one")
put("Composer", json.dumps({"items": more[:4], "schema": 1}, indent=2, sort_keys=True), "four")
put("Composer", json.dumps({"items": more, "schema": 1}), "five")
put("Composer", json.dumps({"items": ids[:1] * 2, "schema": 1, "extra": [1]}), "twice")
put("Composer", json.dumps({"items": [1, 2], "schema": 2}), "wrong")

# Camera raw: DNGs made by scripts/make-dng (pidng, when install-deps made its venv), with and
# without an embedded preview, a TIFF header alone, and a CR3-like ISO-BMFF head of brand 'crx '.
pidng = os.path.join(os.environ.get("SHOEBOX_TOOLS", os.path.expanduser("~/.cache/shoebox-tools")), "pidng/bin/python")
if os.path.exists(pidng):
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        for i, photo in enumerate(media(".jpg")[:3]):
            dng = os.path.join(tmp, f"{i}.dng")
            tags = ["-DateTimeOriginal=2022:03:04 05:06:07", "-Make=Nikon", "-Model=Z 6"] if i % 2 == 0 else []
            # Two of three carry a JPEG preview, for RAWPreview.jpeg.
            preview = ["--preview=80x60"] if i != 2 else []
            if subprocess.run([pidng, "scripts/make-dng", photo, dng, *preview, *tags], capture_output=True).returncode == 0:
                put("RAW", read(dng), "dng")
put("RAW", b"II*\0\x08\0\0\0" + b"\0" * 64, "tiff")

# TIFF: the repository's real TIFF, and small ones ImageMagick writes in the layouts libtiff's
# RGBA interface handles differently (strips, tiles, 16-bit, grey, palette, CMYK, alpha, JPEG-in-TIFF).
put("TIFF", read("test-data/photos/coffee.tif"), "coffee")
for i, options in enumerate([[], ["-define", "tiff:tile-geometry=16x16"], ["-depth", "16"], ["-colorspace", "Gray"],
                             ["-type", "Palette"], ["-colorspace", "CMYK"], ["-alpha", "on"], ["-compress", "jpeg"],
                             ["-compress", "lzw", "-define", "tiff:rows-per-strip=4"]]):
    made = subprocess.run(["convert", "test-data/photos/coffee.jpg", "-resize", "40x", *options, "tiff:-"], capture_output=True)
    if made.returncode == 0:
        put("TIFF", made.stdout, f"layout{i}")
put("RAW", b"\0\0\0\x18ftypcrx \0\0\0\x01crx isom" + b"\0\0\0\x08moov", "cr3")

# From the scratch library Shoebox itself wrote.
if scratch:
    state = os.path.join(scratch, ".shoebox")
    for folder, target in [("sidecars", "Sidecar"), ("albums", "UserAlbum")]:
        path = os.path.join(state, folder)
        for i, f in enumerate(sorted(os.listdir(path)) if os.path.isdir(path) else []):
            if f.endswith(".json") and (target == "UserAlbum" or i % 4 == 0):
                put(target, read(os.path.join(path, f)))
    info = os.path.join(scratch, "Recently Deleted", "info")
    for f in sorted(os.listdir(info)) if os.path.isdir(info) else []:
        put("TrashInfo", read(os.path.join(info, f)), "shoebox")
    if os.path.exists(os.path.join(state, "config.toml")):
        put("Config", read(os.path.join(state, "config.toml")), "init")

# The web server's request parsers (Targets/WebRequest.swift): Fuzz/web_seeds.py.
web_seeds(put, read, media, tiny_png)

# ImageDecoder: every whole file MetadataReader starts from (the sniffer picks the decoder), the
# raw files (their previews), and tiny PNGs that decode completely.
for source in ["MetadataReader", "RAW"]:
    folder = os.path.join(out_root, source)
    for f in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
        put("ImageDecoder", read(os.path.join(folder, f)), source.lower())
put("ImageDecoder", tiny_png([]), "png")
put("ImageDecoder", tiny_png([], palette=True), "palette")

for target in sorted(os.listdir(out_root)):
    folder = os.path.join(out_root, target)
    files = os.listdir(folder)
    size = sum(os.path.getsize(os.path.join(folder, f)) for f in files)
    print(f"  seeds {target}: {len(files)} files, {size // 1024} KiB", file=sys.stderr)

"""Writing the planned photos: pixels with ImageMagick, metadata with one exiftool run for the
whole roll, HEIC with libheif's heif-enc, and the copies."""
import datetime as dt
import json
import os
import shutil
import subprocess

CONVERT = "/usr/bin/convert"  # ImageMagick's, not another `convert` earlier on PATH
EXIFTOOL = "exiftool"

# How each degradation looks at levels 1, 2, 3 (ImageMagick operators).
DEGRADE = {
    "blur": lambda level: ["-gaussian-blur", f"0x{(1.2, 2.8, 5.5)[level - 1]}"],
    "noise": lambda level: ["-attenuate", f"{(0.5, 1.1, 1.9)[level - 1]}", "+noise", "Gaussian"],
    "dark": lambda level: ["-evaluate", "multiply", f"{(0.5, 0.28, 0.14)[level - 1]}"],
    "bright": lambda level: ["-evaluate", "add", f"{(22, 42, 62)[level - 1]}%"],
    "flat": lambda level: ["+level", f"{(18, 30, 40)[level - 1]}%,{(82, 70, 60)[level - 1]}%"],
    "jpeg": lambda level: [],  # the damage is the JPEG quality below
}
JPEG_QUALITY = {"jpeg": (28, 12, 5)}
# Pixels are stored turned against the EXIF orientation, so a viewer that applies it shows them upright.
STORED_TURN = {1: None, 3: "180", 6: "-90", 8: "90"}


def run(cmd, **kwargs):
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, **kwargs)


def render_pixels(item, source_path: str, source_size: tuple, staged: str, seed: int):
    """The cropped, scaled, maybe degraded source as a JPEG without metadata, turned for its orientation."""
    w, h = source_size
    x, y, cw, ch = item.crop
    geometry = f"{max(1, round(cw * w))}x{max(1, round(ch * h))}+{round(x * w)}+{round(y * h)}"
    out_w, out_h = item.upright_size
    cmd = [CONVERT, source_path, "-crop", geometry, "+repage", "-filter", "Lanczos", "-resize", f"{out_w}x{out_h}!",
           "-seed", str(seed)]
    quality = 93 if item.format == "jpeg" else 96  # HEIC is encoded again from this
    if item.degradation:
        kind, level = item.degradation["type"], item.degradation["level"]
        cmd += DEGRADE[kind](level)
        quality = JPEG_QUALITY.get(kind, (quality,) * 3)[level - 1]
    if STORED_TURN[item.orientation]:
        cmd += ["-rotate", STORED_TURN[item.orientation]]
    run(cmd + ["-strip", "-sampling-factor", "2x2", "-quality", str(quality), staged])


def exif_record(item, staged: str) -> dict:
    """exiftool's JSON input for one file: capture time with offset and milliseconds, camera, GPS,
    orientation, and the people in it (XMP PersonInImage and MWG face regions, normalised to the
    upright image)."""
    tags = {"SourceFile": staged}
    if item.taken_at:
        tags.update(date_tags(item))
    if item.camera or item.date_source != "exif":
        # What any camera records; a photo dated by XMP or IPTC keeps only this of its camera.
        tags.update({"EXIF:ExposureTime": 0.008, "EXIF:FNumber": 2.8, "EXIF:ISO": 100})
    if item.camera:
        tags.update({"EXIF:Make": item.camera[0], "EXIF:Model": item.camera[1]})
    if item.gps:
        lat, lon = item.gps
        tags.update({"EXIF:GPSLatitude": abs(lat), "EXIF:GPSLatitudeRef": "N" if lat >= 0 else "S",
                     "EXIF:GPSLongitude": abs(lon), "EXIF:GPSLongitudeRef": "E" if lon >= 0 else "W"})
    tags["EXIF:Orientation"] = item.orientation
    if item.persons:
        width, height = item.upright_size
        tags["XMP-iptcExt:PersonInImage"] = [p["name"] for p in item.persons]
        tags["XMP-mwg-rs:RegionInfo"] = {
            "AppliedToDimensions": {"W": width, "H": height, "Unit": "pixel"},
            "RegionList": [{"Area": {"X": p["box"][0], "Y": p["box"][1], "W": p["box"][2], "H": p["box"][3],
                                     "Unit": "normalized"}, "Name": p["name"], "Type": "Face"} for p in item.persons]}
    return tags


def date_tags(item) -> dict:
    """The capture time where the item's `date_source` says: EXIF (with offset and milliseconds),
    XMP (photoshop:DateCreated, with both, and the place's city and country) or IPTC-IIM
    (DateCreated and TimeCreated with the offset, whole seconds, city and country, UTF-8). The
    last two also get an IFD0 DateTime a week later, as an editor leaves it."""
    stamp = item.taken_at.strftime("%Y:%m:%d %H:%M:%S")
    offset = item.taken_at.strftime("%z")
    offset = f"{offset[:3]}:{offset[3:]}"
    if item.date_source == "exif":
        return {"EXIF:DateTimeOriginal": stamp, "EXIF:CreateDate": stamp,
                "EXIF:OffsetTimeOriginal": offset, "EXIF:SubSecTimeOriginal": f"{item.subsec:03d}"}
    edited = (item.taken_at + dt.timedelta(days=7)).strftime("%Y:%m:%d %H:%M:%S")
    tags = {"EXIF:ModifyDate": edited}
    if item.date_source == "xmp":
        tags.update({"XMP-photoshop:DateCreated": f"{stamp}.{item.subsec:03d}{offset}",
                     "XMP-photoshop:City": item.place.city, "XMP-photoshop:Country": item.place.country})
    else:
        tags.update({"IPTC:CodedCharacterSet": "UTF8", "IPTC:DateCreated": item.taken_at.strftime("%Y:%m:%d"),
                     "IPTC:TimeCreated": item.taken_at.strftime("%H:%M:%S") + offset,
                     "IPTC:City": item.place.city, "IPTC:Country-PrimaryLocationName": item.place.country})
    return tags


def write_metadata(records: list, workdir: str):
    """Writes every record in one exiftool process (starting exiftool per file would cost most of the run)."""
    if not records:
        return
    listing = os.path.join(workdir, "exif.json")
    with open(listing, "w") as f:
        json.dump(records, f)
    run([EXIFTOOL, "-n", "-q", "-q", "-overwrite_original", f"-json={listing}", *[r["SourceFile"] for r in records]])
    os.remove(listing)


def encode_heic(staged: str, out: str, item):
    """HEIC from the staged JPEG (libheif keeps its EXIF and XMP); big images get a thumbnail, as phones write."""
    thumbnail = ["-t", "320"] if max(item.upright_size) >= 640 else []
    run(["heif-enc", "-q", "60", *thumbnail, staged, "-o", out])
    size = heic_size(out)
    if size != tuple(item.upright_size):
        raise SystemExit(f"make-camera-roll: {out} is {size[0]}×{size[1]}, planned {item.upright_size}")


def heic_size(path: str) -> tuple:
    info = subprocess.run(["heif-info", path], capture_output=True, text=True, check=True).stdout
    line = next(l for l in info.splitlines() if l.startswith("image: "))
    return tuple(int(v) for v in line.split()[1].split("x"))


def place_jpeg(staged: str, out: str):
    shutil.move(staged, out)


def copy_bytes(original: str, out: str):
    """A byte-identical copy (as a download of a photo one already has)."""
    shutil.copyfile(original, out)


def reencode(original: str, out: str):
    """An "edited" copy: slightly brighter, re-encoded at a lower quality; metadata kept."""
    run([CONVERT, original, "-modulate", "104,103", "-quality", "72", out])

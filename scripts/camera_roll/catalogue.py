"""What a generated camera roll is made of: real places, cameras, and the source photographs."""
import datetime as dt
import os
import subprocess
from dataclasses import dataclass


@dataclass(frozen=True)
class Place:
    """A real city, named exactly as Shoebox's GeoNames gazetteer names it, so that the place a
    scan derives from a photo's GPS position is the manifest's city, letter for letter."""
    city: str
    country: str
    lat: float
    lon: float
    utc_offset: str      # the local time of the roll's photos there (no daylight saving: fixed per city)
    folder: str = ""     # the ASCII spelling a phone import would give the event folder

    @property
    def folder_name(self) -> str:
        return self.folder or self.city

    def zone(self) -> dt.timezone:
        sign = -1 if self.utc_offset.startswith("-") else 1
        hours, minutes = self.utc_offset[1:].split(":")
        return dt.timezone(sign * dt.timedelta(hours=int(hours), minutes=int(minutes)))


# GeoNames coordinates of each city's centre (Tests/PlacesTests/GazetteerTests.swift checks that
# every point within 0.02° of them resolves to the same city).
PLACES = [
    Place("Lisbon", "Portugal", 38.7167, -9.1333, "+01:00"),
    Place("Paris", "France", 48.8534, 2.3488, "+02:00"),
    Place("New York City", "United States", 40.7143, -74.0060, "-04:00"),
    Place("Tokyo", "Japan", 35.6895, 139.6917, "+09:00"),
    Place("Sydney", "Australia", -33.8679, 151.2073, "+10:00"),
    Place("Cape Town", "South Africa", -33.9258, 18.4232, "+02:00"),
    Place("Reykjavík", "Iceland", 64.1355, -21.8954, "+00:00", folder="Reykjavik"),
    Place("Rio de Janeiro", "Brazil", -22.9064, -43.1822, "-03:00"),
    Place("Kyoto", "Japan", 35.0211, 135.7538, "+09:00"),
    Place("Barcelona", "Spain", 41.3888, 2.1590, "+02:00"),
    Place("Vancouver", "Canada", 49.2497, -123.1193, "-07:00"),
    Place("Marrakesh", "Morocco", 31.6342, -7.9999, "+01:00"),
    Place("Edinburgh", "United Kingdom", 55.9521, -3.1965, "+01:00"),
    Place("Queenstown", "New Zealand", -45.0302, 168.6627, "+12:00"),
    Place("Honolulu", "United States", 21.3069, -157.8583, "-10:00"),
]

# (Make, Model) as cameras write them into EXIF.
CAMERAS = [("Apple", "iPhone 13"), ("Apple", "iPhone 15 Pro"), ("Google", "Pixel 8"), ("FUJIFILM", "X-T4")]

# The sources with a person in them: who, and where the face is, in pixels of the source
# (left, top, right, bottom), measured on test-data/photos: brows to chin, ear to ear — for Tom,
# in profile, the half of the face that shows: the front of the ear to the tip of the nose (an
# earlier Tom box from the back of his hair to his nose overlapped any detector's box by < 0.45).
PORTRAITS = {
    "astronaut.jpg": ("Ana", (174, 60, 279, 175)),
    "camera.jpg": ("Tom", (203, 124, 262, 192)),
}


def default_sources() -> str:
    """test-data/photos of the repository that holds this script."""
    scripts = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    return os.path.join(os.path.dirname(scripts), "test-data", "photos")


def source_sizes(folder: str) -> dict:
    """{file name: (width, height)} of every JPEG in `folder`, in name order."""
    names = sorted(n for n in os.listdir(folder) if n.lower().endswith((".jpg", ".jpeg")))
    if not names:
        raise SystemExit(f"make-camera-roll: no JPEG photographs in {folder}")
    out = subprocess.run(["/usr/bin/identify", "-format", "%w %h\n", *[os.path.join(folder, n) for n in names]],
                         capture_output=True, text=True, check=True).stdout.split("\n")
    return {name: tuple(int(v) for v in line.split()) for name, line in zip(names, out)}

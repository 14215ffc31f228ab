"""What every file of a roll will be, decided up front from the seed alone (no file is touched
here), so that the same seed always gives the same roll and its ground truth."""
import datetime as dt
import os
import random
from dataclasses import dataclass, field
from typing import Optional

from .catalogue import CAMERAS, PLACES, PORTRAITS, Place

DEGRADATION_TYPES = ["blur", "noise", "dark", "bright", "flat", "jpeg"]


@dataclass
class Item:
    """One file of the roll and the truth about it."""
    path: str
    kind: str                                  # photo | screenshot | document | video
    format: str                                # jpeg | heic | png | mp4 | mov
    taken_at: Optional[dt.datetime] = None     # aware; None when the file carries no date
    subsec: int = 0                            # milliseconds written to EXIF (the manifest has whole seconds)
    gps: Optional[list] = None
    place: Optional[Place] = None
    persons: list = field(default_factory=list)
    orientation: int = 1
    upright_size: tuple = (0, 0)
    source: Optional[str] = None
    crop: Optional[tuple] = None               # (x, y, w, h) of the source, normalised
    degradation: Optional[dict] = None
    burst: Optional[str] = None
    duplicate_of: Optional[str] = None
    near_duplicate_of: Optional[str] = None
    is_utility: bool = False
    camera: Optional[tuple] = None
    live_video: Optional[str] = None
    live_photo_of: Optional[str] = None
    mtime: float = 0.0
    drawing_seed: int = 0                      # what a drawn screenshot or page says
    date_source: str = "exif"                  # exif | xmp | iptc: where the capture time is written

    def manifest(self, size: int) -> dict:
        """The ground truth, as Tests/TestSupport/TestRoll.swift (RollEntry) reads it."""
        return {
            "path": self.path, "kind": self.kind, "format": self.format,
            "taken_at": self.taken_at.isoformat() if self.taken_at else None,
            "mtime": self.mtime, "gps": self.gps,
            "city": self.place.city if self.place else None,
            "country": self.place.country if self.place else None,
            "persons": self.persons, "orientation": self.orientation,
            "upright_size": list(self.upright_size), "source": self.source,
            "degradation": self.degradation, "burst": self.burst,
            "duplicate_of": self.duplicate_of, "near_duplicate_of": self.near_duplicate_of,
            "is_utility": self.is_utility, "camera": list(self.camera) if self.camera else None,
            "live_video": self.live_video, "live_photo_of": self.live_photo_of, "size": size,
            "date_source": self.date_source if self.taken_at and self.kind != "video" else None,
        }


def even(v: float) -> int:
    """Nearest even number of pixels ≥ 2 (HEIC's 4:2:0 chroma keeps even sizes exactly)."""
    return max(2, 2 * round(v / 2))


class RollPlanner:
    """Turns the command-line options into the list of files of a roll: trips (event folders of
    photos, bursts, portraits, videos), then screenshots, photographed documents, Live Photo
    pairs, byte-identical copies and re-encoded copies."""

    def __init__(self, options, sources: dict):
        self.o = options
        self.rng = random.Random(options.seed)
        self.sources = sources
        self.scenery = [s for s in sources if s not in PORTRAITS]
        self.faces = [s for s in sorted(PORTRAITS) if s in sources]
        self.number = self.rng.randint(120, 880)
        self.items: list = []
        self.home = self.rng.choice(PLACES)
        self.last_place = None

    def plan(self) -> list:
        sizes = self._trip_sizes()
        for i, (when, shots) in enumerate(zip(self._trip_days(len(sizes)), sizes)):
            self._plan_trip(when, shots, videos=self._videos_for_trip(i, len(sizes)))
        self._plan_utility()
        self._pair_live_photos()
        self._plan_other_dating()  # before the copies, which take their original's metadata
        self._plan_copies()
        return self.items

    # --- trips -----------------------------------------------------------------------------

    def _trip_sizes(self) -> list:
        """Shots per trip; the first trip is large, so a roll of any size has one big folder."""
        left, sizes = self.o.count, []
        while left > 0:
            n = min(left, self.rng.randint(12, 15) if not sizes else self.rng.randint(4, 12))
            sizes.append(n)
            left -= n
        return sizes

    def _trip_days(self, trips: int) -> list:
        """One date per trip, in order, spread over --start … --end, never within two days of
        New Year (a file's year must not depend on the time zone it is read in)."""
        start = dt.date.fromisoformat(self.o.start)
        span = max(trips, (dt.date.fromisoformat(self.o.end) - start).days)
        days = []
        for k in range(trips):
            day = start + dt.timedelta(days=int((k + self.rng.uniform(0.15, 0.85)) * span / trips))
            if (day.month, day.day) >= (12, 29) or (day.month, day.day) <= (1, 2):
                day = day.replace(month=12, day=24) if day.month == 12 else day.replace(day=6)
            days.append(day)
        return days

    def _videos_for_trip(self, trip: int, trips: int) -> int:
        return self.o.videos // trips + (1 if trip < self.o.videos % trips else 0)

    def _plan_trip(self, day: dt.date, shots: int, videos: int):
        place = self.rng.choice([p for p in PLACES if p != self.last_place])
        self.last_place = place
        clock = dt.datetime(day.year, day.month, day.day, self.rng.randint(8, 10), self.rng.randint(0, 59),
                            self.rng.randint(0, 59), tzinfo=place.zone())
        folder = f"{day.year}/{day:%Y-%m} {place.folder_name}"
        camera = self.rng.choice(CAMERAS)
        videos_before = sorted(self.rng.sample(range(shots), min(videos, shots)))  # shot numbers a clip precedes
        made = 0
        while made < shots:
            clock += dt.timedelta(seconds=self.rng.randint(120, 2700))
            while videos_before and videos_before[0] <= made:
                videos_before.pop(0)
                self._plan_video(folder, clock)
                clock += dt.timedelta(seconds=self.rng.randint(30, 300))
            left = shots - made
            if left >= 3 and self.rng.random() < 0.12:
                made += self._plan_burst(folder, clock, place, camera, min(left, self.rng.randint(3, 5)))
            else:
                self._plan_photo(folder, clock, place, camera)
                made += 1

    def _plan_burst(self, folder, clock, place, camera, frames) -> int:
        """Frames a second apart of one scene, slightly shifted; one sharp, the others blurred."""
        burst = f"burst-{len(self.items)}"
        source = self.rng.choice(self.scenery)
        side = self.rng.uniform(0.7, 0.85)
        x, y = self.rng.uniform(0, 1 - side - 0.06), self.rng.uniform(0, 1 - side)
        sharp = self.rng.randrange(frames)
        for j in range(frames):
            blur = None if j == sharp else {"type": "blur", "level": self.rng.randint(1, 2)}
            self._plan_photo(folder, clock + dt.timedelta(seconds=j), place, camera, source=source,
                             crop=(round(x + 0.012 * j, 4), round(y, 4), round(side, 4), round(side, 4)),
                             degradation=blur, burst=burst)
        return frames

    def _portrait(self):
        """A source with a face and a crop around it: the face fills roughly 10–25 % of the frame."""
        source = self.rng.choice(self.faces)
        name, (left, top, right, bottom) = PORTRAITS[source]
        w, h = self.sources[source]
        fx, fy, fw, fh = left / w, top / h, (right - left) / w, (bottom - top) / h
        zoom = self.rng.uniform(2.0, 3.0)
        cw, ch = min(1.0, fw * zoom), min(1.0, fh * zoom)
        margin = 0.02  # the face stays inside the frame after rounding
        x = self.rng.uniform(max(0.0, fx + fw - cw + margin), min(1.0 - cw, fx - margin))
        y = self.rng.uniform(max(0.0, fy + fh - ch + margin), min(1.0 - ch, fy - margin))
        crop = (round(x, 4), round(y, 4), round(cw, 4), round(ch, 4))
        x, y, cw, ch = crop
        box = [round((fx + fw / 2 - x) / cw, 4), round((fy + fh / 2 - y) / ch, 4), round(fw / cw, 4), round(fh / ch, 4)]
        return source, crop, [{"name": name, "box": box}]

    def _plan_photo(self, folder, clock, place, camera, source=None, crop=None, degradation="random", burst=None):
        persons = []
        if source is None and self.faces and self.rng.random() < self.o.portraits:
            source, crop, persons = self._portrait()
        source = source or self.rng.choice(self.scenery)
        if crop is None:
            cw = self.rng.uniform(0.6, 1.0)
            ch = min(1.0, cw * self.rng.uniform(0.8, 1.2))
            crop = (round(self.rng.uniform(0, 1 - cw), 4), round(self.rng.uniform(0, 1 - ch), 4), round(cw, 4), round(ch, 4))
        fmt = "heic" if not self.o.no_heic and self.rng.random() < 0.3 else "jpeg"
        if degradation == "random":
            degradation = None
            if self.rng.random() < 0.25:
                kinds = DEGRADATION_TYPES if fmt == "jpeg" else DEGRADATION_TYPES[:-1]
                degradation = {"type": self.rng.choice(kinds), "level": self.rng.randint(1, 3)}
        gps = None
        if self.rng.random() < 0.9:
            gps = [round(place.lat + self.rng.uniform(-0.02, 0.02), 5), round(place.lon + self.rng.uniform(-0.02, 0.02), 5)]
        item = Item(path=self._name(folder, "HEIC" if fmt == "heic" else "JPG"), kind="photo", format=fmt,
                    taken_at=clock, subsec=self.rng.randint(0, 999), gps=gps, place=place if gps else None,
                    persons=persons, source=source, crop=crop, degradation=degradation, burst=burst,
                    orientation=1 if fmt == "heic" else self.rng.choice([1, 1, 1, 1, 1, 1, 6, 8, 3]),
                    upright_size=self._output_size(source, crop),
                    camera=camera if self.rng.random() < 0.85 else self.rng.choice(CAMERAS))
        self.items.append(item)
        return item

    def _output_size(self, source, crop) -> tuple:
        w, h = self.sources[source]
        cw, ch = crop[2] * w, crop[3] * h
        scale = self.o.long_side / max(cw, ch)
        if not self.o.upscale:
            scale = min(1.0, scale)
        return even(cw * scale), even(ch * scale)

    def _plan_video(self, folder, clock):
        """A short clip; a container holds UTC only, so that is its truth."""
        self.items.append(Item(path=self._name(folder, "MP4"), kind="video", format="mp4",
                               taken_at=clock.astimezone(dt.timezone.utc), upright_size=(640, 360),
                               source=self.rng.choice(self.scenery)))

    # --- screenshots, documents, Live Photos, copies ----------------------------------------

    def _some_day(self) -> dt.datetime:
        """A day of the roll's span (never near New Year), at a waking hour, naive."""
        first = dt.date.fromisoformat(self.o.start)
        span = (dt.date.fromisoformat(self.o.end) - first).days
        while True:
            day = first + dt.timedelta(days=self.rng.randint(0, max(0, span)))
            if (3 <= day.timetuple().tm_yday <= 360):
                break
        return dt.datetime(day.year, day.month, day.day, self.rng.randint(9, 21), self.rng.randint(0, 59), self.rng.randint(0, 59))

    def _plan_utility(self):
        for _ in range(max(1, self.o.count // 20)):
            when = self._some_day()
            path = f"Screenshots/Screenshot {when:%Y-%m-%d at %H.%M.%S}.png"
            if self.rng.random() < 0.5 or any(i.path == path for i in self.items):
                path = self._name("Screenshots", "PNG")
            self.items.append(Item(path=path, kind="screenshot", format="png", is_utility=True,
                                   upright_size=self.rng.choice([(1170, 2532), (1290, 2796), (2532, 1170)]),
                                   mtime=when.replace(tzinfo=dt.timezone.utc).timestamp(),
                                   drawing_seed=self.rng.randrange(1 << 30)))
        for _ in range(max(1, self.o.count // 40)):
            taken = self._some_day().replace(tzinfo=self.home.zone())
            self.items.append(Item(path=self._name("Documents", "JPG"), kind="document", format="jpeg",
                                   taken_at=taken, is_utility=True, upright_size=(1512, 2016),
                                   camera=self.rng.choice(CAMERAS[:3]), drawing_seed=self.rng.randrange(1 << 30)))

    def _pair_live_photos(self):
        """--live N: N HEIC photos get a .MOV of the same name beside them (made at the same instant)."""
        heics = [i for i in self.items if i.kind == "photo" and i.format == "heic"]
        if len(heics) < self.o.live:  # too few by chance: turn plain JPEG photos into HEIC
            for item in [i for i in self.items if i.kind == "photo" and i.format == "jpeg"][:self.o.live - len(heics)]:
                item.format, item.orientation, item.path = "heic", 1, item.path[:-4] + ".HEIC"
                if item.degradation and item.degradation["type"] == "jpeg":
                    item.degradation["type"] = "blur"
                heics.append(item)
        for photo in self.rng.sample(heics, self.o.live):
            video = Item(path=os.path.splitext(photo.path)[0] + ".MOV", kind="video", format="mov",
                         taken_at=photo.taken_at.astimezone(dt.timezone.utc), upright_size=(640, 360),
                         source=photo.source, live_photo_of=photo.path)
            photo.live_video = video.path
            self.items.insert(self.items.index(photo) + 1, video)

    def _plan_copies(self):
        """Byte-identical copies into Downloads/ and re-encoded ("edited") copies into Shared/."""
        jpegs = [i for i in self.items if i.kind == "photo" and i.format == "jpeg"]
        for original in self.rng.sample(jpegs, min(len(jpegs), max(1, len(jpegs) // 30))):
            copy = Item(**{**original.__dict__, "path": "Downloads/copy of " + os.path.basename(original.path),
                           "duplicate_of": original.path})
            self.items.append(copy)
        for original in self.rng.sample(jpegs, min(len(jpegs), max(1, len(jpegs) // 30))):
            stem = os.path.splitext(os.path.basename(original.path))[0]
            edited = Item(**{**original.__dict__, "path": f"Shared/{stem}-edited.jpg", "burst": None,
                             "near_duplicate_of": original.path})
            self.items.append(edited)

    def _plan_other_dating(self):
        """--dated-by SHARE: that share of the JPEG photos is dated by XMP or by IPTC-IIM alone, as
        a photo tool or an agency writes them, beside an IFD0 DateTime of a later edit; their place
        is written as city and country instead of GPS, and their camera only as exposure data. Its
        own random stream, so the rest of a seed's roll stays as it was."""
        if not getattr(self.o, "dated_by", 0):
            return
        rng = random.Random(self.o.seed * 7919 + 1)
        for item in self.items:
            if item.kind != "photo" or item.format != "jpeg" or rng.random() >= self.o.dated_by:
                continue
            item.date_source = rng.choice(["xmp", "iptc"])
            item.gps = None
            item.camera = None
            item.place = item.place or self.home

    def _name(self, folder: str, ext: str) -> str:
        self.number += 1
        return f"{folder}/IMG_{self.number:04d}.{ext}"

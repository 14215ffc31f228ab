"""The files that are not camera photos: screenshots (PNG, no metadata), photographed documents
(camera JPEGs of a page of text) and video clips (ffmpeg)."""
import datetime as dt
import random

from .render import CONVERT, run

PHRASES = ["Your table is booked for 19:30", "Gate B12 · boarding 08:45", "Parcel delivered",
           "Receipt no. {n}", "Amount due: €{m}.{c:02d}", "Code: {code}", "See you at the station",
           "Meeting moved to Thursday", "Password changed", "Flight LX{n} on time", "Balance: ${m}.{c:02d}"]


def _lines(rng: random.Random, count: int) -> str:
    """Text lines for ImageMagick's -annotate (newlines written as \\n)."""
    picked = [rng.choice(PHRASES).format(n=rng.randint(100, 9999), m=rng.randint(3, 900), c=rng.randint(0, 99),
                                         code=f"{rng.randint(0, 999999):06d}") for _ in range(count)]
    return "\\n".join(picked)


def draw_screenshot(item, out: str):
    """A phone screen: a coloured bar, a title and lines of text, saved as PNG without metadata."""
    rng = random.Random(item.drawing_seed)
    w, h = item.upright_size
    dark = rng.random() < 0.3
    background, ink = ("#121214", "#f4f4f6") if dark else (rng.choice(["#ffffff", "#f5f5f0"]), "#16161a")
    accent = rng.choice(["#1e6fd9", "#2f9e44", "#d9480f", "#7048e8"])
    run([CONVERT, "-size", f"{w}x{h}", f"xc:{background}",
         "-fill", accent, "-draw", f"rectangle 0,0 {w},{h // 10}",
         "-fill", ink, "-pointsize", str(max(12, w // 20)), "-annotate", f"+{w // 16}+{h // 10 + w // 8}",
         _lines(rng, rng.randint(5, 12)), "-strip", out])


def draw_document(item, staged: str):
    """A page of text lying on a desk, a little askew, as a phone photographs a receipt or a letter."""
    rng = random.Random(item.drawing_seed)
    w, h = item.upright_size
    margin = w // 12
    run([CONVERT, "-size", f"{w}x{h}", f"xc:{rng.choice(['#5b4636', '#3c3f44', '#7a6a55'])}",
         "-fill", "#f3f1ea", "-draw", f"rectangle {margin},{margin} {w - margin},{h - margin}",
         "-fill", "#222222", "-pointsize", str(w // 28), "-annotate", f"+{margin * 2}+{margin * 3}",
         _lines(rng, rng.randint(10, 18)),
         "-distort", "SRT", f"{rng.uniform(-3, 3):.2f}", "-strip", "-quality", "88", staged])


def make_clip(item, source_path: str, out: str):
    """Two seconds of H.264 panning across a source photograph, stamped with the capture instant
    (UTC, the only time a QuickTime/MP4 container keeps)."""
    w, h = item.upright_size
    created = item.taken_at.astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.000000Z")
    pan = f"scale={w * 2}:-2,crop={w}:{h}:x='(in_w-{w})*t/2':y='(in_h-{h})/2',format=yuv420p"
    run(["ffmpeg", "-nostdin", "-y", "-loglevel", "error", "-loop", "1", "-framerate", "24", "-i", source_path,
         "-t", "2", "-vf", pan, "-c:v", "libx264", "-preset", "veryfast", "-threads", "1",
         "-map_metadata", "-1", "-metadata", f"creation_time={created}",
         *(["-f", "mov"] if item.format == "mov" else ["-f", "mp4"]), out])

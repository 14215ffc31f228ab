"""Seeds of the WebRequest fuzz target (Targets/WebRequest.swift), for make-seeds.py: the first
byte picks the parser. Each group holds what a page sends, near misses and the inputs of past
findings (named "finding")."""
import json


def web_seeds(put, read, media, tiny_png):
    uuid = "8de33bb3-b08d-4f5e-9d5e-2f0c4a1b2c3d"
    for size, header in [(3, "bytes=0-99"), (4, "bytes=100-"), (3, "bytes=-500"), (1, "bytes=0-0"), (3, "bytes=5-3"),
                         (3, "bytes=0-1,5-9"), (3, "items=0-5"), (4, "bytes= 0 - 5"), (6, "bytes=99999999999999999999-"),
                         (3, "bytes=-0"), (0, "bytes=-1"), (5, "bytes=2147483647-2147483648")]:
        put("WebRequest", bytes([0, size]) + header.encode(), "range")
    host, token = "127.0.0.1:8765", "0123456789abcdef0123456789abcdef"
    for flags, fields in [(0, [host, "", "", "", "/"]), (2, [host, "http://" + host, "", "", "/api/trash"]),
                          (2, [host, "http://evil.example", "", "", "/api/trash"]), (2, [host, "", token, "", "/api/upload"]),
                          (8, ["192.168.1.20:8765", "", "", "nope", "/"]), (8 + 128, ["", "", "", "", "/api/library"]),
                          (8, ["192.168.1.20:8765", "", "", "", "/pair"]), (0, ["evil.example:8765", "", "", "", "/"]),
                          (0, ["LOCALHOST:8765", "", "", "", "/"]), (2, ["127.0.0.1:8765.evil.com", "http://127.0.0.1:8765.evil.com", "", "", "/"]),
                          (4 + 16 + 64, ["", "", "", "", "/api/albums"]), (3, [host])]:
        put("WebRequest", bytes([1, flags]) + "\0".join(fields).encode(), "access")
    for text in [uuid, uuid.upper(), "{" + uuid + "}", uuid + "x", uuid[:-1], "p12", "p", "p0", "p" + "9" * 39,
                 "p\u0661\u0662", "p\u00bd", "p\uff11", uuid + "#1", uuid + "#0", uuid + "#+5", uuid + "#10000", uuid.upper() + "#2",
                 "../../etc/passwd", uuid[:8], "8de33bb3-b08d-4f5e--d5e-2f0c4a1b2c3d", " de33bb3-b08d-4f5e-9d5e-2f0c4a1b2c3d",
                 "8d+33bb3-b08d-4f5e-9d5e-2f0c4a1b2c3d"]:
        finding = not text.isascii() or "--" in text or "+" in text or text.startswith(" ")
        put("WebRequest", b"\2" + text.encode(), "finding" if finding else "id")
    for path in ["Years/2024", "Places/Paris%2C%20France", "Places%2FParis%2C%20France", "Trip/../..", "%2E%2E/x",
                 "a/%2E%2E", "a%00b", "Lisbon best", "%zz", "People/Zo%C3%AB", "a/b/c/d/e", "a%2F%2Fb", ".", "%2e"]:
        put("WebRequest", b"\3" + path.encode(), "finding-key" if "%2C" in path else "key")
    for path in ["css/app.css", "../secret.txt", "css/../../secret.txt", ".hidden", "css//app.css", "css\\app.css",
                 "app.html", "%2e%2e/secret.txt", "css/./app.css", "/etc/passwd", "css/app.css\0.png"]:
        put("WebRequest", b"\4" + path.encode(), "static")
    for q in ["year=2024&kind=photo&sort=score&reverse=1", "place=Reykjav%C3%ADk", "person=Ana", "year=abc", "kind=cat",
              "year=99999999999999999999", "place=%27%3B%20DROP%20TABLE%20asset%3B--", "year=2024&year=2025", "sort=name&reverse=0",
              "person=%3F", "place=%25&person=_", "place=a%26year%3D2024", "place=a+b&year=2024", "=x&%3D=y"]:
        put("WebRequest", b"\5" + q.encode(), "finding-key" if "%26" in q else "query")
    jpeg_head = read(media(".jpg")[0])[:4096] if media(".jpg") else b"\xff\xd8\xff\xe0"
    heic_head = read(media(".heic")[0])[:4096] if media(".heic") else b"\0\0\0\x18ftypheic"
    for name, head, hint in [("IMG_0001.jpg", jpeg_head, "upload"), ("notes.txt", jpeg_head, "finding-name"),
                             ("b.jpg~", jpeg_head, "finding-name"), ("c.part", jpeg_head, "finding-name"), (".hidden.jpg", jpeg_head, "upload"),
                             ("x" * 300 + ".jpg", jpeg_head, "upload"), ("a/b/../c.heic", heic_head, "upload"),
                             ("Été 2024.HEIC", heic_head, "upload"), ("photo", tiny_png([]), "upload"), ("x.dng", b"II*\0\x08\0\0\0" + b"\0" * 64, "upload"),
                             ("  .. ", b"", "upload"), ("a\u0301" * 120 + ".jpeg", jpeg_head, "upload")]:
        put("WebRequest", b"\6" + name.encode() + b"\0" + head, hint)
    for body in [{"ids": [uuid]}, {"ids": []}, {"ids": ["../x"]}, {"ids": [uuid, uuid.upper()]}, {"name": "Trip"},
                 {"names": ["IMG_0412.HEIC"]}, {"names": [".."]}, {"names": ["a/b"]}, {"face": uuid + "#2"}, {"ids": ["p1", "p2"]},
                 {"ids": "x"}, {"name": 5}, {"from": 3, "to": 1}, {"from": True, "to": 1}, {"position": 1.5},
                 {"position": 1e300, "id": uuid}, {"render": "0123456789abcdef0123456789abcdef"}, {"render": "../x"},
                 # Memories' page: a source, a range, a seed.
                 {"year": 2019, "range": "last-year", "seed": 7}, {"place": "Lisbon, Portugal", "seed": "18446744073709551615"},
                 {"person": "Tomás", "range": "last-5-years", "seed": 1.5}, {"year": True}, {"person": "p3", "place": " "}]:
        put("WebRequest", b"\7" + json.dumps(body).encode(), "body")
    for render in ["0123456789abcdef0123456789abcdef.heic", "0123456789abcdef0123456789abcdef.jpg",
                   "0123456789ABCDEF0123456789abcdef.jpg", "0123456789abcdef0123456789abcdef", "../x.jpg"]:
        put("WebRequest", b"\2" + render.encode(), "render")
    put("WebRequest", b"\7" + b"[" * 600 + b"]" * 600, "deep")

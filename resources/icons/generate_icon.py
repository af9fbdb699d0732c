"""Draw the Kernel Setup Wizard's icon: ``python resources/icons/generate_icon.py``.

The icon is our own drawing, made by this script with the standard library only (no Pillow, no
third-party artwork): a rounded square holding a 4×4 attention matrix whose causal (lower
triangle) cells are lit, the diagonal brightest. It writes ``ksw.png`` (256×256, used by Qt and
Linux desktops) and ``ksw.ico`` (16…256 px PNG frames, used by PyInstaller for the Windows
executables). Both files are committed; run this again only to change the drawing.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

HERE = Path(__file__).resolve().parent
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)
SUPERSAMPLE = 4

BACKGROUND = (22, 44, 84)  # deep blue
LIT = (64, 200, 160)  # teal: causal cells
DIAGONAL = (150, 240, 205)  # bright: the diagonal
DIM = (44, 72, 118)  # masked cells


def _inside_rounded(x: float, y: float, x0: float, y0: float, x1: float, y1: float,
                    r: float) -> bool:
    if not (x0 <= x <= x1 and y0 <= y <= y1):
        return False
    cx = min(max(x, x0 + r), x1 - r)
    cy = min(max(y, y0 + r), y1 - r)
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r


def _color_at(u: float, v: float) -> tuple[int, int, int, int]:
    """The colour at (u, v) in [0, 1)², with alpha; transparent outside the tile."""
    if not _inside_rounded(u, v, 0.02, 0.02, 0.98, 0.98, 0.20):
        return (0, 0, 0, 0)
    cells, margin, gap = 4, 0.17, 0.035
    size = (1 - 2 * margin - (cells - 1) * gap) / cells
    for row in range(cells):
        for col in range(cells):
            x0 = margin + col * (size + gap)
            y0 = margin + row * (size + gap)
            if _inside_rounded(u, v, x0, y0, x0 + size, y0 + size, size * 0.18):
                if col == row:
                    return (*DIAGONAL, 255)
                return (*(LIT if col < row else DIM), 255)
    return (*BACKGROUND, 255)


def render(px: int) -> bytes:
    """RGBA rows of a px×px image, anti-aliased by supersampling."""
    out = bytearray()
    n = SUPERSAMPLE
    for y in range(px):
        for x in range(px):
            acc = [0, 0, 0, 0]
            for sy in range(n):
                for sx in range(n):
                    r, g, b, a = _color_at((x + (sx + 0.5) / n) / px, (y + (sy + 0.5) / n) / px)
                    acc[0] += r * a
                    acc[1] += g * a
                    acc[2] += b * a
                    acc[3] += a
            alpha = acc[3]
            if alpha:
                out += bytes((acc[0] // alpha, acc[1] // alpha, acc[2] // alpha, alpha // (n * n)))
            else:
                out += b"\0\0\0\0"
    return bytes(out)


def png(px: int, rgba: bytes) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    stride = px * 4
    raw = b"".join(b"\0" + rgba[y * stride:(y + 1) * stride] for y in range(px))
    header = struct.pack(">IIBBBBB", px, px, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def ico(frames: dict[int, bytes]) -> bytes:
    """An .ico whose frames are PNG images (understood by Windows Vista and later)."""
    header = struct.pack("<HHH", 0, 1, len(frames))
    offset = 6 + 16 * len(frames)
    entries, blobs = b"", b""
    for px, data in sorted(frames.items()):
        dim = 0 if px >= 256 else px
        entries += struct.pack("<BBBBHHII", dim, dim, 0, 0, 1, 32, len(data), offset)
        blobs += data
        offset += len(data)
    return header + entries + blobs


def main() -> None:
    frames = {px: png(px, render(px)) for px in ICO_SIZES}
    (HERE / "ksw.png").write_bytes(frames[256])
    (HERE / "ksw.ico").write_bytes(ico(frames))
    print(f"wrote {HERE / 'ksw.png'} and {HERE / 'ksw.ico'}")


if __name__ == "__main__":
    main()

"""What a wheel source that publishes no digest can still be checked for: real wheel files,
damaged or renamed in one precise way each (tests/download_testsupport.py)."""

from __future__ import annotations

import hashlib
import shutil
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
from download_testsupport import member, rewrite_wheel

from kernel_wizard.base.download import DownloadError, check_wheel, sniff

WheelMaker = Callable[[str], Path]
NAME = "ksw_probe_kernel-0.1.0-py3-none-any.whl"


def test_a_sound_wheel_passes_and_says_what_was_checked(kernel_wheel: WheelMaker) -> None:
    wheel = kernel_wheel("correct")
    said = check_wheel(wheel, wheel.name)
    assert "ksw-probe-kernel 0.1.0" in said and "py3-none-any" in said
    assert "all 3 files match their RECORD hashes" in said  # RECORD itself has no hash


def test_a_file_that_does_not_match_its_record_hash_is_named(kernel_wheel: WheelMaker,
                                                              tmp_path: Path) -> None:
    wheel = kernel_wheel("correct")
    bad = rewrite_wheel(wheel, tmp_path / NAME, {"ksw_probe/__init__.py": b"import os\n"})
    with pytest.raises(DownloadError) as info:
        check_wheel(bad, NAME)
    assert "damaged" in info.value.what and "RECORD" in info.value.what
    assert "The file ksw_probe/__init__.py does not match the hash" in info.value.why
    assert "build from source" in info.value.hint


def test_a_file_record_does_not_list_is_refused(kernel_wheel: WheelMaker, tmp_path: Path) -> None:
    wheel = kernel_wheel("correct")
    bad = rewrite_wheel(wheel, tmp_path / NAME, {"ksw_probe/extra.py": b"print('hi')\n"})
    with pytest.raises(DownloadError) as info:
        check_wheel(bad, NAME)
    assert "RECORD does not list: ksw_probe/extra.py" in info.value.why


def test_a_listed_file_that_is_missing_is_refused(kernel_wheel: WheelMaker,
                                                  tmp_path: Path) -> None:
    wheel = kernel_wheel("correct")
    bad = rewrite_wheel(wheel, tmp_path / NAME, {"ksw_probe/__init__.py": None})
    with pytest.raises(DownloadError) as info:
        check_wheel(bad, NAME)
    assert "RECORD lists ksw_probe/__init__.py, but the archive does not hold it" in \
        info.value.why


def test_a_wheel_renamed_to_another_version_is_not_what_its_name_says(
    kernel_wheel: WheelMaker, tmp_path: Path
) -> None:
    wheel = kernel_wheel("correct")
    renamed = shutil.copy(wheel, tmp_path / "ksw_probe_kernel-0.2.0-py3-none-any.whl")
    with pytest.raises(DownloadError) as info:
        check_wheel(Path(renamed), Path(renamed).name)
    assert "is not what its name says" in info.value.what
    assert "its name says ksw-probe-kernel 0.2.0, but inside is ksw_probe_kernel-0.1.0" in \
        info.value.why.lower()
    assert "renamed" in info.value.why


def test_a_wheel_renamed_to_other_tags_is_caught_by_its_wheel_file(
    kernel_wheel: WheelMaker, tmp_path: Path
) -> None:
    wheel = kernel_wheel("correct")
    name = "ksw_probe_kernel-0.1.0-cp312-cp312-linux_x86_64.whl"
    renamed = Path(shutil.copy(wheel, tmp_path / name))
    with pytest.raises(DownloadError) as info:
        check_wheel(renamed, name)
    assert "cp312-cp312-linux_x86_64" in info.value.why and "py3-none-any" in info.value.why


def test_metadata_of_another_package_is_caught(kernel_wheel: WheelMaker, tmp_path: Path) -> None:
    wheel = kernel_wheel("correct")
    metadata = member(wheel, ".dist-info/METADATA")
    bad = rewrite_wheel(wheel, tmp_path / NAME, {
        metadata: b"Metadata-Version: 2.1\nName: flash-attn\nVersion: 0.1.0\n"})
    with pytest.raises(DownloadError) as info:
        check_wheel(bad, NAME)
    assert "its METADATA says flash-attn 0.1.0" in info.value.why


def test_a_truncated_wheel_is_not_a_usable_zip(kernel_wheel: WheelMaker, tmp_path: Path) -> None:
    data = kernel_wheel("correct").read_bytes()
    cut = tmp_path / NAME
    cut.write_bytes(data[: len(data) // 2])
    with pytest.raises(DownloadError) as info:
        check_wheel(cut, NAME)
    assert info.value.what == f"The downloaded file {NAME} is not a usable wheel."
    assert "damaged or incomplete" in info.value.why


@pytest.mark.parametrize(("body", "kind", "words"), [
    (b"<!DOCTYPE html>\n<html><head><title>Sign in &middot; Corp</title><style>p{}</style>"
     b"</head><body><h1>Please sign in</h1><script>var x=1;</script><p>to continue.</p>",
     "a web page", "Sign in · Corp — Please sign in to continue."),
    (b"\xef\xbb\xbf  <html><body>404 Not Found</body></html>", "a web page", "404 Not Found"),
    (b'<?xml version="1.0"?><Error><Code>NoSuchKey</Code><Message>The specified key does '
     b"not exist.</Message></Error>", "an XML document", "NoSuchKey The specified key"),
    (b'{"message": "Not Found", "documentation_url": "https://docs"}', "a JSON document",
     '{"message": "Not Found"'),
    (b"Service temporarily unavailable, try later\n", "a text message",
     "Service temporarily unavailable, try later"),
])
def test_pages_served_as_the_file_are_named_with_their_first_words(
    body: bytes, kind: str, words: str
) -> None:
    found = sniff(body)
    assert found is not None and found.kind == kind
    assert found.words.startswith(words), found.words


def test_binary_data_and_zips_are_not_mistaken_for_pages(kernel_wheel: WheelMaker) -> None:
    assert sniff(kernel_wheel("correct").read_bytes()) is None
    assert sniff(bytes(range(256)) * 8) is None
    long_page = b"<html><body>" + b"word " * 500 + b"</body></html>"
    found = sniff(long_page)
    assert found is not None and found.words.endswith("…") and len(found.words) <= 101


def test_a_page_saved_as_the_wheel_is_named_a_web_page(tmp_path: Path) -> None:
    page = tmp_path / NAME
    page.write_bytes(b"<html><head><title>Rate limit exceeded</title></head></html>")
    with pytest.raises(DownloadError) as info:
        check_wheel(page, NAME)
    assert info.value.what == f"The server sent a web page instead of the wheel {NAME}."
    assert "Rate limit exceeded" in info.value.why
    assert "Nothing was installed" in info.value.hint


def test_a_binary_that_is_not_a_zip_says_so(tmp_path: Path) -> None:
    blob = tmp_path / NAME
    blob.write_bytes(b"\x1f\x8b\x08\x00" + bytes(range(256)) * 4)
    with pytest.raises(DownloadError) as info:
        check_wheel(blob, NAME)
    assert "not a zip archive (it begins with 1f 8b 08 00" in info.value.why


@pytest.mark.parametrize(("name", "wheel_tags"), [
    # maturin writes a compressed tag set into WHEEL
    ("ksw_probe_kernel-0.1.0-cp39-abi3-manylinux_2_17_x86_64.manylinux2014_x86_64.whl",
     ["cp39-abi3-manylinux_2_17_x86_64.manylinux2014_x86_64"]),
    # built as linux_x86_64, named manylinux after an audit (as ray and mysql-connector do)
    ("ksw_probe_kernel-0.1.0-cp311-cp311-manylinux_2_28_x86_64.whl",
     ["cp311-cp311-linux_x86_64"]),
    # "any" inside, a platform in the name (as playwright does)
    ("ksw_probe_kernel-0.1.0-py3-none-manylinux1_x86_64.whl", ["py3-none-any"]),
])
def test_how_real_publishers_spell_tags_is_accepted(kernel_wheel: WheelMaker, tmp_path: Path,
                                                    name: str, wheel_tags: list[str]) -> None:
    wheel = kernel_wheel("correct")
    text = "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: false\n" + "".join(
        f"Tag: {tag}\n" for tag in wheel_tags)
    published = rewrite_wheel(wheel, tmp_path / name,
                              {member(wheel, ".dist-info/WHEEL"): text.encode()}, rehash=True)
    assert "all 3 files match" in check_wheel(published, name)


@pytest.mark.parametrize("name", [
    "ksw_probe_kernel-0.1.0-cp312-cp312-linux_x86_64.whl",  # another Python
    "ksw_probe_kernel-0.1.0-cp311-cp311-win_amd64.whl",  # another OS
    "ksw_probe_kernel-0.1.0-cp311-cp311-manylinux_2_28_aarch64.whl",  # another architecture
])
def test_a_rename_to_another_python_os_or_architecture_is_caught(
    kernel_wheel: WheelMaker, tmp_path: Path, name: str
) -> None:
    wheel = kernel_wheel("correct")
    text = b"Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: false\n" \
           b"Tag: cp311-cp311-linux_x86_64\n"
    published = rewrite_wheel(wheel, tmp_path / name,
                              {member(wheel, ".dist-info/WHEEL"): text}, rehash=True)
    with pytest.raises(DownloadError) as info:
        check_wheel(published, name)
    assert "but its WHEEL file says cp311-cp311-linux_x86_64" in info.value.why


def test_a_record_written_in_hex_is_still_checked(kernel_wheel: WheelMaker,
                                                  tmp_path: Path) -> None:
    """gmsh's wheels write hex digests instead of base64: the same hash, checked as such."""
    wheel = kernel_wheel("correct")
    record_name = member(wheel, ".dist-info/RECORD")
    sound = rewrite_wheel(wheel, tmp_path / "sound" / NAME, rehash=True)
    with zipfile.ZipFile(sound) as archive:
        code = archive.read("ksw_probe/__init__.py")
        rows = archive.read(record_name).decode().splitlines()
    hexed = [f"ksw_probe/__init__.py,sha256={hashlib.sha256(code).hexdigest()},{len(code)}"
             if row.startswith("ksw_probe/__init__.py,") else row for row in rows]
    good = rewrite_wheel(sound, tmp_path / NAME, {record_name: "\n".join(hexed).encode()})
    assert "all 3 files match" in check_wheel(good, NAME)
    bad = rewrite_wheel(good, tmp_path / "bad" / NAME, {"ksw_probe/__init__.py": b"x = 2\n"})
    with pytest.raises(DownloadError, match="RECORD"):
        check_wheel(bad, NAME)

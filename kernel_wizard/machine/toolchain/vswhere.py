"""Visual Studio instances as ``vswhere -format json`` describes them, and which ones can build.

Pure functions of vswhere's answer (recorded real outputs in ``tests/data/vswhere``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

from kernel_wizard.machine.toolchain.base import (
    ToolchainParseError,
    Version,
    dotted_text,
    parse_dotted,
    snippet,
    strip_bom,
)


class VsProduct(Enum):
    """The Visual Studio product (``productId``) of an instance."""

    BUILD_TOOLS = "Microsoft.VisualStudio.Product.BuildTools"
    COMMUNITY = "Microsoft.VisualStudio.Product.Community"
    PROFESSIONAL = "Microsoft.VisualStudio.Product.Professional"
    ENTERPRISE = "Microsoft.VisualStudio.Product.Enterprise"
    OTHER = "other"  # Team Explorer, SQL Server Management Studio, a future product...

    @classmethod
    def from_product_id(cls, product_id: str) -> VsProduct:
        for member in cls:
            if member.value.casefold() == product_id.casefold():
                return member
        return cls.OTHER


# The installation major version → the year in the product's name. VS 2026 reports
# ``catalog.productLineVersion`` "18", not "2026", and installs under ``...\\18\\<Edition>``.
_VS_YEAR_BY_MAJOR: dict[int, str] = {15: "2017", 16: "2019", 17: "2022", 18: "2026"}


@dataclass(frozen=True)
class VsInstance:
    """One Visual Studio (or Build Tools) instance as ``vswhere -format json`` describes it."""

    installation_path: Path
    installation_version: Version  # (17, 14, 37027, 9)
    product_id: str  # "Microsoft.VisualStudio.Product.BuildTools"
    display_name: str  # "Visual Studio Build Tools 2022" (localised by vswhere)
    product_display_version: str  # catalog.productDisplayVersion: "17.14.28"; "" if absent
    product_line_version: str  # catalog.productLineVersion: "2022" (but "18" for VS 2026)
    is_complete: bool
    is_launchable: bool
    is_reboot_required: bool
    is_prerelease: bool
    instance_id: str = ""
    channel_id: str = ""  # "VisualStudio.17.Release", "VisualStudio.18.Stable"
    state: int | None = None  # the raw InstanceState bit field; 4294967295 = complete

    @property
    def product(self) -> VsProduct:
        return VsProduct.from_product_id(self.product_id)

    @property
    def major(self) -> int:
        """17 for VS 2022, 18 for VS 2026."""
        return self.installation_version[0]

    @property
    def year(self) -> str:
        """'2022', '2026': the year of the product name, whatever the catalog says."""
        return _VS_YEAR_BY_MAJOR.get(self.major, self.product_line_version)

    @property
    def version_text(self) -> str:
        """'17.14.28' (the version the Visual Studio Installer shows), else the full one."""
        return self.product_display_version or dotted_text(self.installation_version)

    @property
    def label(self) -> str:
        """'Visual Studio Build Tools 2022 17.14.28', for one line in the UI."""
        name = self.display_name or f"Visual Studio {self.year}"
        return f"{name} {self.version_text}"


def _json_bool(obj: Mapping[str, Any], key: str, default: bool) -> bool:
    value = obj.get(key, default)
    if isinstance(value, bool):
        return value
    if isinstance(value, int):  # vswhere's text format prints 0/1
        return value != 0
    if isinstance(value, str) and value.strip().lower() in {"true", "false", "1", "0"}:
        return value.strip().lower() in {"true", "1"}
    raise ToolchainParseError(
        f"vswhere gave an unexpected value for {key!r}: {value!r}.",
        hint="Update the Visual Studio Installer (it ships vswhere), then try again.",
    )


def _json_str(obj: Mapping[str, Any], key: str) -> str:
    value = obj.get(key, "")
    return value if isinstance(value, str) else str(value)


def _vs_instance(item: Any, index: int) -> VsInstance:
    if not isinstance(item, dict):
        raise ToolchainParseError(
            f"vswhere's list holds something that is not an instance (item {index}).",
            why=f"got {snippet(repr(item))}",
            hint="Update the Visual Studio Installer (it ships vswhere), then try again.",
        )
    path = item.get("installationPath")
    version_text = item.get("installationVersion")
    if not isinstance(path, str) or not path or not isinstance(version_text, str):
        raise ToolchainParseError(
            f"vswhere listed an instance without an installation path or version (item {index}).",
            why=f"got {snippet(json.dumps(item))}",
            hint="Open the Visual Studio Installer and repair that installation.",
        )
    try:
        version = parse_dotted(version_text)
    except ValueError:
        raise ToolchainParseError(
            f"vswhere gave an installation version this program cannot read: {version_text!r}.",
            hint="Update the Visual Studio Installer (it ships vswhere), then try again.",
        ) from None
    catalog = item.get("catalog")
    catalog = catalog if isinstance(catalog, dict) else {}
    state = item.get("state")
    return VsInstance(
        installation_path=Path(path),
        installation_version=version,
        product_id=_json_str(item, "productId"),
        display_name=_json_str(item, "displayName"),
        product_display_version=_json_str(catalog, "productDisplayVersion"),
        product_line_version=_json_str(catalog, "productLineVersion"),
        # vswhere older than 2.5 does not print these: absent means "not known to be bad"
        is_complete=_json_bool(item, "isComplete", True),
        is_launchable=_json_bool(item, "isLaunchable", True),
        is_reboot_required=_json_bool(item, "isRebootRequired", False),
        is_prerelease=_json_bool(item, "isPrerelease", False),
        instance_id=_json_str(item, "instanceId"),
        channel_id=_json_str(item, "channelId"),
        state=state if isinstance(state, int) and not isinstance(state, bool) else None,
    )


def parse_vswhere(json_text: str) -> list[VsInstance]:
    """The instances in the output of ``vswhere -format json`` (in vswhere's order).

    ``[]`` (vswhere found nothing) gives an empty list. Anything that is not a JSON list of
    instances raises :class:`ToolchainParseError`, including vswhere's text format and an
    empty output (vswhere always prints at least ``[]`` when it works).
    """
    text = strip_bom(json_text).strip()
    hint = (
        "Run the wizard again. If this repeats, update or repair the Visual Studio Installer "
        "(vswhere.exe comes with it)."
    )
    if not text:
        raise ToolchainParseError("vswhere printed nothing.", hint=hint)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ToolchainParseError(
            "vswhere's answer is not the JSON list this program asked for.",
            why=f"{exc.msg} (it began with {snippet(text)!r})",
            hint=hint,
        ) from None
    if not isinstance(data, list):
        raise ToolchainParseError(
            "vswhere's answer is JSON, but not a list of Visual Studio instances.",
            why=f"it began with {snippet(text)!r}",
            hint=hint,
        )
    return [_vs_instance(item, i) for i, item in enumerate(data)]


class VsRejection(Enum):
    """Why an instance cannot be used to build. The order is the order of importance."""

    REBOOT_REQUIRED = "reboot_required"
    INCOMPLETE = "incomplete"
    NOT_LAUNCHABLE = "not_launchable"

    @property
    def text(self) -> str:
        """A plain sentence for the UI: what is wrong and what to do."""
        return _REJECTION_TEXT[self]


_REJECTION_TEXT: dict[VsRejection, str] = {
    VsRejection.REBOOT_REQUIRED: (
        "Windows must restart to finish installing it. Restart the computer, then run the "
        "wizard again."
    ),
    VsRejection.INCOMPLETE: (
        "its installation did not finish (an install or update was interrupted). Open the "
        "Visual Studio Installer and choose Repair, or finish the pending update."
    ),
    VsRejection.NOT_LAUNCHABLE: (
        "the Visual Studio Installer reports it cannot be used in its current state. Open the "
        "Visual Studio Installer and repair or update it."
    ),
}


def vs_rejections(instance: VsInstance) -> tuple[VsRejection, ...]:
    """Every reason ``instance`` cannot be used, most important first; () when usable.

    A pending reboot also leaves an instance incomplete; the reboot comes first because it is
    the one thing the user has to do.
    """
    reasons: list[VsRejection] = []
    if instance.is_reboot_required:
        reasons.append(VsRejection.REBOOT_REQUIRED)
    if not instance.is_complete:
        reasons.append(VsRejection.INCOMPLETE)
    if not instance.is_launchable:
        reasons.append(VsRejection.NOT_LAUNCHABLE)
    return tuple(reasons)


@dataclass(frozen=True)
class RejectedVsInstance:
    """An instance that cannot be used, with every reason."""

    instance: VsInstance
    reasons: tuple[VsRejection, ...]

    def explain(self) -> str:
        """'Visual Studio Build Tools 2022 17.14.28 (C:\\...) can't be used: Windows must...'"""
        details = " Also, ".join(r.text for r in self.reasons)
        return f"{self.instance.label} ({self.instance.installation_path}) can't be used: {details}"


@dataclass(frozen=True)
class VsSelection:
    """The instances split into usable ones (best first) and rejected ones (with reasons)."""

    usable: tuple[VsInstance, ...]
    rejected: tuple[RejectedVsInstance, ...]

    @property
    def best(self) -> VsInstance | None:
        return self.usable[0] if self.usable else None


def select_vs_instances(instances: Iterable[VsInstance]) -> VsSelection:
    """Reject incomplete, non-launchable and reboot-pending instances, keeping the reasons.

    Usable instances are ordered releases before previews, then newest first. Whether the
    newest one's MSVC fits the CUDA toolkit is a separate question
    (:func:`pick_msvc_toolset`).
    """
    usable: list[VsInstance] = []
    rejected: list[RejectedVsInstance] = []
    for instance in instances:
        reasons = vs_rejections(instance)
        if reasons:
            rejected.append(RejectedVsInstance(instance, reasons))
        else:
            usable.append(instance)
    usable.sort(key=lambda i: (not i.is_prerelease, i.installation_version), reverse=True)
    return VsSelection(tuple(usable), tuple(rejected))


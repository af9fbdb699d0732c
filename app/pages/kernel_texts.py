"""The Kernel page's words: the machine line, a row's status, the details of one version.

Pure functions of the core's objects (no widgets), so that what the page says can be read in
one place. The page's own sentences are in ``TEXT`` (context ``KernelPage``); the core's
(every reason why a version does not fit, its hint, the warnings, the recommendation) are
shown in the user's language with :func:`~app.i18n.tr_core`.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from kernel_wizard.catalog import Catalog, Machine, Reason, Recipe, RecipeVersion, Verdict
from kernel_wizard.machine.toolkits import CudaToolkit

from ..i18n import Texts, kernel_name, tr_core

TEXT = Texts("KernelPage", {
    "wsl2_steps": (
        "This kernel cannot be built natively on Windows for your GPU, but it builds in WSL2 "
        "(Linux inside Windows), which uses this PC's GPU.\n\n"
        "1. Open PowerShell as administrator and run:  wsl --install -d Ubuntu\n"
        "2. Restart when asked, then open Ubuntu from the Start menu and create a user.\n"
        "3. Keep the NVIDIA driver of Windows: WSL2 uses it. Do not install a driver inside "
        "Ubuntu.\n"
        "4. Run the Linux version of this wizard inside Ubuntu and choose this kernel there."),
    "go_to_prerequisites": "Fix it on the Prerequisites page…",
    "gpu_builds_for_one": "GPU: {names} — builds for architecture {archs}",
    "gpu_builds_for_many": "GPU: {names} — builds for architectures {archs}",
    "union": " (the union of the selected GPUs)",
    "gpu_none_selected": "GPU: none selected",
    "gpu_none_usable": "GPU: none usable",
    "unknown": "unknown",
    "torch_missing": "PyTorch: not installed",
    "torch": "PyTorch {version}",
    "torch_cuda": "PyTorch {version} (CUDA {cuda})",
    "torch_cpu": "PyTorch {version} (CPU-only)",
    "toolkit": "CUDA toolkit {version} ({root})",
    "toolkit_failed": "CUDA toolkit: search failed ({error})",
    "toolkit_none": "CUDA toolkit: none found",
    "fits": "✔ Fits",
    "fits_cpu": "✔ Fits (CPU part only)",
    "not_fit": "✖ {reason}",
    "not_fit_more": "✖ {reason} (+{more} more)",
    "recommended": "{version} (recommended)",
    "broken_one": "{count} broken recipe was left out ({files})",
    "broken_many": "{count} broken recipes were left out ({files})",
    "license": "License: {license}",
    "released": "released {date}",
    "cpu_only": "Only its CPU part can be built here (see the warnings).",
    "built_for": "It will be built for {names}.",
    "built_default": "It will be built for its default architectures.",
    "fits_here": "✔ Fits this computer. {what}",
    "not_fit_one": "✖ Does not fit this computer ({count} reason):",
    "not_fit_many": "✖ Does not fit this computer ({count} reasons):",
    "way_back": "The Prerequisites page can fix this: “{button}” takes you there; come back "
                "here when it is done.",
    "warnings": "⚠ Warnings",
    "use_wsl2": "<b>Use WSL2:</b> this kernel builds in WSL2 on this PC (see “Use WSL2…”).",
    "variants": "Build variants (choose one under “How to get it”):",
})


# The "Fits this computer?" column: why not, in a few words (the details say it whole)
SHORT = Texts("KernelStatus", {
    "os": "Not for this operating system",
    "no_gpu": "Needs an NVIDIA GPU",
    "gpu_unsupported": "Not for this GPU",
    "version_lacks_arch": "This version lacks code for your GPU",
    "native_build_blocked": "Not built natively here",
    "gpu_count": "Needs more GPUs",
    "nvlink": "Needs GPUs linked by NVLink",
    "no_torch": "Needs PyTorch",
    "torch_cpu_only": "Needs a CUDA build of PyTorch",
    "torch_too_old": "PyTorch is too old",
    "cuda_too_old": "CUDA is too old",
    "toolkit_mismatch": "CUDA toolkit does not fit PyTorch",
    "python": "Needs another Python version",
    "library": "A library is missing or too old",
    "prerequisite": "Missing: {check}",
    "other": "Does not fit",
})
# the prerequisite checks' titles (the core's words, CheckId values)
CHECK_TITLES = {"compiler": "C++ compiler", "cuda-toolkit": "CUDA toolkit",
                "compiler-cuda": "Compiler and CUDA fit together", "long-paths": "Long paths",
                "python-env": "Python environment", "resources": "Disk space and memory"}


def short_reason(reason: Reason) -> str:
    """'Needs a CUDA build of PyTorch': a reason in a few words."""
    kind = reason.kind.value
    if kind == "prerequisite":
        title = CHECK_TITLES.get(reason.fix_check)
        return SHORT["prerequisite"].format(check=tr_core(title)) if title else SHORT["other"]
    return SHORT[kind] if kind in SHORT else SHORT["other"]


def wsl2_steps() -> str:
    return TEXT["wsl2_steps"]


def go_to_prerequisites() -> str:
    return TEXT["go_to_prerequisites"]


def machine_text(machine: Machine, toolkit: CudaToolkit | None, toolkit_error: str) -> str:
    """'Linux · GPU: NVIDIA H100 — builds for architecture 9.0 · PyTorch 2.9.0+cu130 · …'."""
    parts: list[str] = [machine.os.label]
    gpus = machine.gpus
    if gpus:
        names = ", ".join(dict.fromkeys(g.name or TEXT["unknown"] for g in gpus))
        archs = ", ".join(sorted({f"{g.compute_capability[0]}.{g.compute_capability[1]}"
                                  for g in gpus if g.compute_capability}))
        key = "gpu_builds_for_many" if "," in archs else "gpu_builds_for_one"
        union = TEXT["union"] if len(gpus) > 1 else ""
        parts.append(TEXT[key].format(names=names, archs=archs) + union)
    elif machine.hardware.usable_gpus:
        parts.append(TEXT["gpu_none_selected"])
    else:
        parts.append(TEXT["gpu_none_usable"])
    torch = machine.torch
    if torch is None:
        parts.append(TEXT["torch_missing"])
    else:
        if not torch.cuda:
            parts.append(TEXT["torch_cpu"].format(version=torch.version))
        elif "+cu" in torch.version:
            parts.append(TEXT["torch"].format(version=torch.version))
        else:
            parts.append(TEXT["torch_cuda"].format(version=torch.version, cuda=torch.cuda))
        if torch.cuda:
            if toolkit is not None:
                parts.append(TEXT["toolkit"].format(
                    version=toolkit.version.text if toolkit.version else "?", root=toolkit.root))
            elif toolkit_error:
                parts.append(TEXT["toolkit_failed"].format(error=tr_core(toolkit_error)))
            else:
                parts.append(TEXT["toolkit_none"])
    return " · ".join(parts)


def _unbroken_tail(text: str) -> str:
    """The closing "(+2 more)" of a cell kept on one line: it wrapped inside the brackets in
    Chinese ("（另有" / "1 条）"). Its characters are joined (WORD JOINER, no-break spaces);
    a line may still break before it."""
    start = max(text.rfind("("), text.rfind("（"))
    if start <= 0:
        return text
    tail = text[start:].replace(" ", "\u00a0")
    return text[:start] + "\u2060".join(tail)


def row_status(verdict: Verdict) -> tuple[str, str]:
    """The "Fits this computer?" cell and its tooltip."""
    if verdict.available:
        status = TEXT["fits_cpu"] if verdict.cpu_only else TEXT["fits"]
        return status, "\n".join(tr_core(w) for w in verdict.warnings) or tr_core(
            verdict.summary)
    more = len(verdict.reasons) - 1
    first = short_reason(verdict.reasons[0])
    status = (_unbroken_tail(TEXT["not_fit_more"].format(reason=first, more=more)) if more
              else TEXT["not_fit"].format(reason=first))
    return status, "\n".join(f"• {tr_core(r.text)}" for r in verdict.reasons)


def version_text(version: RecipeVersion, verdict: Verdict, recommended: bool) -> str:
    """A version in the picker: '✖ v2.8.3', 'v2.8.3 (recommended)'. Only a version that fits
    is ever called recommended."""
    mark = "" if verdict.available else "✖ "
    label = (TEXT["recommended"].format(version=kernel_name(version.label))
             if recommended and verdict.available else kernel_name(version.label))
    return mark + label


def reasons_tooltip(verdict: Verdict) -> str:
    """Why a version does not fit, one reason a line (a version picker's tooltip)."""
    return "\n".join(tr_core(text) for text in verdict.texts)


def problems_text(catalog: Catalog) -> tuple[str, str] | None:
    """The broken-recipes banner (title, details); None when every recipe loaded."""
    if not catalog.problems:
        return None
    files = sorted({p.file for p in catalog.problems})
    key = "broken_many" if len(files) > 1 else "broken_one"
    return (TEXT[key].format(count=len(files), files=", ".join(files)),
            "\n".join(str(p) for p in catalog.problems))


def details_html(recipe: Recipe, version: RecipeVersion, verdict: Verdict,
                 build_names: Sequence[str], way_back: bool = False) -> str:
    """The details of one version: what it is, whether it fits (every reason with what to do),
    its warnings. ``build_names``: what it will be built for ('sm_90', ...); ``way_back``:
    the button to the Prerequisites page is there."""
    e = html.escape
    out = [f"<b>{e(kernel_name(recipe.name))} {e(kernel_name(version.label))}</b> — "
           f"{e(tr_core(recipe.description))}"]
    facts = [e(TEXT["license"].format(license=recipe.license))]
    if recipe.homepage:
        facts.append(f'<a href="{e(recipe.homepage)}">{e(recipe.homepage)}</a>')
    if version.released:
        facts.append(e(TEXT["released"].format(date=version.released)))
    out.append("<br>" + " · ".join(facts))
    if version.notes:
        out.append(f"<br><i>{e(tr_core(version.notes))}</i>")
    if verdict.available:
        if verdict.cpu_only:
            what = TEXT["cpu_only"]
        else:
            what = (TEXT["built_for"].format(names=", ".join(build_names)) if build_names
                    else TEXT["built_default"])
        out.append(f"<p style='color:#1d6b32'>{e(TEXT['fits_here'].format(what=what))}</p>")
    else:
        count = len(verdict.reasons)
        heading = TEXT["not_fit_many" if count > 1 else "not_fit_one"].format(count=count)
        out.append(f"<p style='color:#a11d1d'><b>{e(heading)}</b></p><ul>")
        for reason in verdict.reasons:
            hint = f"<br><span style='color:#555'>→ {e(tr_core(reason.hint))}</span>" \
                if reason.hint else ""
            out.append(f"<li>{e(tr_core(reason.text))}{hint}</li>")
        out.append("</ul>")
        if way_back and any(r.fix_check for r in verdict.reasons):
            out.append(f"<p>{e(TEXT['way_back'].format(button=go_to_prerequisites()))}</p>")
    if verdict.warnings:
        out.append(f"<p style='color:#8a5a00'><b>{e(TEXT['warnings'])}</b></p><ul>")
        out += [f"<li>{e(tr_core(w))}</li>" for w in verdict.warnings]
        out.append("</ul>")
    if verdict.alternative == "wsl2":
        out.append(f"<p>{TEXT['use_wsl2']}</p>")
    if recipe.variants:  # what each build variant compiles (chosen under "How to get it")
        out.append(f"<p><b>{e(TEXT['variants'])}</b></p><ul>")
        out += [f"<li><b>{e(tr_core(v.label))}</b>: {e(tr_core(v.description))}</li>"
                for v in recipe.variants]
        out.append("</ul>")
    return "".join(out)


__all__ = ["TEXT", "details_html", "go_to_prerequisites", "machine_text", "problems_text",
           "reasons_tooltip", "row_status", "version_text", "wsl2_steps"]

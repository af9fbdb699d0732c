"""The Kernel page's words: the machine line, a row's status, the details of one version.

Pure functions of the core's objects (no widgets), so that what the page says can be read in
one place.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from build_backend.catalog import Catalog, Machine, Recipe, RecipeVersion, Verdict
from build_backend.toolkits import CudaToolkit

WSL2_STEPS = (
    "This kernel cannot be built natively on Windows for your GPU, but it builds in WSL2 "
    "(Linux inside Windows), which uses this PC's GPU.\n\n"
    "1. Open PowerShell as administrator and run:  wsl --install -d Ubuntu\n"
    "2. Restart when asked, then open Ubuntu from the Start menu and create a user.\n"
    "3. Keep the NVIDIA driver of Windows: WSL2 uses it. Do not install a driver inside Ubuntu.\n"
    "4. Run the Linux version of this wizard inside Ubuntu and choose this kernel there."
)
GO_TO_PREREQUISITES = "Fix it on the Prerequisites page…"


def machine_text(machine: Machine, toolkit: CudaToolkit | None, toolkit_error: str) -> str:
    """'Linux · GPU: NVIDIA H100 — builds for architecture 9.0 · PyTorch 2.9.0+cu130 · …'."""
    parts: list[str] = [machine.os.label]
    gpus = machine.gpus
    if gpus:
        names = ", ".join(dict.fromkeys(g.name or "unknown" for g in gpus))
        archs = ", ".join(sorted({f"{g.compute_capability[0]}.{g.compute_capability[1]}"
                                  for g in gpus if g.compute_capability}))
        label = "architectures" if "," in archs else "architecture"
        union = " (the union of the selected GPUs)" if len(gpus) > 1 else ""
        parts.append(f"GPU: {names} — builds for {label} {archs}{union}")
    elif machine.hardware.usable_gpus:
        parts.append("GPU: none selected")
    else:
        parts.append("GPU: none usable")
    torch = machine.torch
    if torch is None:
        parts.append("PyTorch: not installed")
    else:
        cuda = "" if "+cu" in torch.version else f" (CUDA {torch.cuda})"
        parts.append(f"PyTorch {torch.version}" + (cuda if torch.cuda else " (CPU-only)"))
        if torch.cuda:
            if toolkit is not None:
                parts.append(f"CUDA toolkit {toolkit.version.text if toolkit.version else '?'}"
                             f" ({toolkit.root})")
            elif toolkit_error:
                parts.append(f"CUDA toolkit: search failed ({toolkit_error})")
            else:
                parts.append("CUDA toolkit: none found")
    return " · ".join(parts)


def row_status(verdict: Verdict) -> tuple[str, str]:
    """The "Fits this computer?" cell and its tooltip."""
    if verdict.available:
        status = "✔ Fits (CPU part only)" if verdict.cpu_only else "✔ Fits"
        return status, "\n".join(verdict.warnings) or verdict.summary
    more = len(verdict.reasons) - 1
    return ("✖ " + verdict.reasons[0].text + (f" (+{more} more)" if more else ""),
            "\n".join(f"• {r.text}" for r in verdict.reasons))


def version_text(version: RecipeVersion, verdict: Verdict, recommended: bool) -> str:
    """A version in the picker: '✖ v2.8.3', 'v2.8.3 (recommended)'. Only a version that fits
    is ever called recommended."""
    mark = "" if verdict.available else "✖ "
    return mark + version.label + (" (recommended)" if recommended and verdict.available
                                   else "")


def problems_text(catalog: Catalog) -> tuple[str, str] | None:
    """The broken-recipes banner (title, details); None when every recipe loaded."""
    if not catalog.problems:
        return None
    files = sorted({p.file for p in catalog.problems})
    return (f"{len(files)} broken recipe{'s were' if len(files) > 1 else ' was'} left out "
            f"({', '.join(files)})", "\n".join(str(p) for p in catalog.problems))


def details_html(recipe: Recipe, version: RecipeVersion, verdict: Verdict,
                 build_names: Sequence[str], way_back: bool = False) -> str:
    """The details of one version: what it is, whether it fits (every reason with what to do),
    its warnings. ``build_names``: what it will be built for ('sm_90', ...); ``way_back``:
    the button to the Prerequisites page is there."""
    e = html.escape
    out = [f"<b>{e(recipe.name)} {e(version.label)}</b> — {e(recipe.description)}"]
    facts = [f"License: {e(recipe.license)}"]
    if recipe.homepage:
        facts.append(f'<a href="{e(recipe.homepage)}">{e(recipe.homepage)}</a>')
    if version.released:
        facts.append(f"released {e(version.released)}")
    out.append("<br>" + " · ".join(facts))
    if version.notes:
        out.append(f"<br><i>{e(version.notes)}</i>")
    if verdict.available:
        if verdict.cpu_only:
            what = "Only its CPU part can be built here (see the warnings)."
        else:
            what = (f"It will be built for {', '.join(build_names)}." if build_names
                    else "It will be built for its default architectures.")
        out.append(f"<p style='color:#1d6b32'>✔ Fits this computer. {e(what)}</p>")
    else:
        count = len(verdict.reasons)
        out.append(f"<p style='color:#a11d1d'><b>✖ Does not fit this computer "
                   f"({count} reason{'s' if count > 1 else ''}):</b></p><ul>")
        for reason in verdict.reasons:
            hint = f"<br><span style='color:#555'>→ {e(reason.hint)}</span>" \
                if reason.hint else ""
            out.append(f"<li>{e(reason.text)}{hint}</li>")
        out.append("</ul>")
        if way_back and any(r.fix_check for r in verdict.reasons):
            out.append(f"<p>The Prerequisites page can fix this: “{e(GO_TO_PREREQUISITES)}” "
                       "takes you there; come back here when it is done.</p>")
    if verdict.warnings:
        out.append("<p style='color:#8a5a00'><b>⚠ Warnings</b></p><ul>")
        out += [f"<li>{e(w)}</li>" for w in verdict.warnings]
        out.append("</ul>")
    if verdict.alternative == "wsl2":
        out.append("<p><b>Use WSL2:</b> this kernel builds in WSL2 on this PC "
                   "(see “Use WSL2…”).</p>")
    return "".join(out)


__all__ = ["GO_TO_PREREQUISITES", "WSL2_STEPS", "details_html", "machine_text",
           "problems_text", "row_status", "version_text"]

"""Inspect the Python environment this script runs in; print one JSON object.

Run by the Kernel Setup Wizard with the *target* interpreter, never imported by the wizard.
Self-contained: standard library only (torch is imported if present). Keep the syntax
compatible with old Pythons (3.6+) so that an old interpreter gets a clear answer (older ones,
Python 2 included, are named by the wizard's own version question when this script fails).

With torch installed it answers twice: once before importing torch (``"importing": true``) and
once after; the wizard reads the last complete answer.
"""

import importlib
import json
import os
import platform
import shutil
import struct
import sys
import sysconfig
import traceback

BEGIN = "@@KSW-ENV-BEGIN@@"
END = "@@KSW-ENV-END@@"


def dist_version(name):
    try:
        from importlib import metadata
    except ImportError:  # Python < 3.8
        return None
    try:
        return metadata.version(name)
    except Exception:
        return None


def find_executable(name):
    scripts = sysconfig.get_path("scripts")
    for folder in [scripts] + os.environ.get("PATH", "").split(os.pathsep):
        if not folder:
            continue
        found = shutil.which(name, path=folder)
        if found:
            return found
    return None


def has_module(name):
    try:
        import importlib.util

        return importlib.util.find_spec(name) is not None
    except Exception:
        return False


def torch_facts():
    if not has_module("torch"):
        return {"present": False}
    facts = {"present": True, "dist_version": dist_version("torch")}
    try:
        torch = importlib.import_module("torch")
    except BaseException:
        facts["import_error"] = traceback.format_exc(limit=3).strip().splitlines()[-1]
        return facts
    facts["version"] = str(torch.__version__)
    facts["cuda"] = getattr(torch.version, "cuda", None)
    facts["hip"] = getattr(torch.version, "hip", None)
    facts["cxx11_abi"] = bool(getattr(torch._C, "_GLIBCXX_USE_CXX11_ABI", False))
    try:
        nccl = torch.cuda.nccl.version() if facts["cuda"] else None
        facts["nccl"] = ".".join(str(v) for v in nccl) if isinstance(nccl, tuple) else None
    except BaseException:
        facts["nccl"] = None
    try:
        facts["cuda_available"] = bool(torch.cuda.is_available())
        facts["device_count"] = int(torch.cuda.device_count()) if facts["cuda_available"] else 0
        facts["arch_list"] = list(torch.cuda.get_arch_list()) if facts["cuda"] else []
    except BaseException:
        facts["cuda_available"] = False
        facts["device_count"] = 0
        facts["arch_list"] = []
        facts["cuda_error"] = traceback.format_exc(limit=2).strip().splitlines()[-1]
    return facts


def nvidia_libraries():
    """NCCL and NVSHMEM as a multi-GPU kernel's build finds them: NVIDIA's pip packages
    (nvidia-nccl-cu12/-cu13, nvidia-nvshmem-cu12/-cu13) and the NCCL that torch was built
    with."""
    facts = {}
    for lib in ("nccl", "nvshmem"):
        found = None
        for name in ("nvidia-%s-cu13" % lib, "nvidia-%s-cu12" % lib, "nvidia-%s" % lib):
            version = dist_version(name)
            if version:
                found = {"dist": name, "version": version}
                break
        facts[lib] = found
    # Triton, for kernels that run Triton kernels (SageAttention): its metadata only
    facts["triton"] = None
    for name in ("triton-windows", "triton", "pytorch-triton"):
        version = dist_version(name)
        if version:
            facts["triton"] = {"dist": name, "version": version}
            break
    return facts


def dev_files():
    """Where extension builds look for Python's C headers and (Windows) import library, and
    whether they are there. Embedded Pythons (python.org's embeddable zip, ComfyUI portable)
    ship neither."""
    include = sysconfig.get_paths().get("include") or ""
    facts = {
        "include": include,
        "python_h": bool(include) and os.path.isfile(os.path.join(include, "Python.h")),
        "libs_dir": None,
        "import_lib": None,
        "import_lib_present": None,
        "release_level": sys.version_info[3],
    }
    if os.name == "nt":
        # setuptools and torch add <base_exec_prefix>\libs to the linker's search path
        libs = os.path.join(getattr(sys, "base_exec_prefix", sys.exec_prefix), "libs")
        name = "python%d%d.lib" % (sys.version_info[0], sys.version_info[1])
        facts["libs_dir"] = libs
        facts["import_lib"] = name
        facts["import_lib_present"] = os.path.isfile(os.path.join(libs, name))
    return facts


def emit(facts):
    sys.stdout.write("\n" + BEGIN + "\n" + json.dumps(facts) + "\n" + END + "\n")
    sys.stdout.flush()


def main():
    version = sys.version_info
    ninja_exe = find_executable("ninja")
    facts = {
        "python": {
            "executable": sys.executable,
            "version": platform.python_version(),
            "implementation": platform.python_implementation(),
            "bits": struct.calcsize("P") * 8,
            "platform": sysconfig.get_platform(),
            "interpreter_tag": "cp%d%d" % (version[0], version[1]),
            "prefix": sys.prefix,
            "base_prefix": getattr(sys, "base_prefix", sys.prefix),
            "is_conda": os.path.exists(os.path.join(sys.prefix, "conda-meta")),
            "scripts": sysconfig.get_path("scripts"),
            "libc": list(platform.libc_ver()),
        },
        "pip": {"present": has_module("pip"), "version": dist_version("pip")},
        "ninja": {
            "module_version": dist_version("ninja"),
            "executable": ninja_exe,
        },
        "torch": {"present": False},
        "dev_files": dev_files(),
        "libraries": nvidia_libraries(),
    }
    if has_module("torch"):
        # An answer before "import torch": a torch that kills the interpreter (abort, segfault)
        # still leaves this one, marked "importing", so the wizard can tell what crashed.
        facts["torch"] = {"present": True, "dist_version": dist_version("torch"),
                          "importing": True}
        emit(facts)
        facts["torch"] = torch_facts()
    emit(facts)


if __name__ == "__main__":
    main()

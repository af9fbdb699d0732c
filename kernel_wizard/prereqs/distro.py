"""Linux package-manager commands the wizard shows (it never runs them: they need sudo).

Pure functions of the distribution (:class:`~kernel_wizard.prereqs.facts.LinuxDistro`). The
CUDA repository names and the ``cuda-keyring`` step follow NVIDIA's network-repository
instructions (``developer.download.nvidia.com/compute/cuda/repos/<distro>/<arch>/``); WSL2 uses
the ``wsl-ubuntu`` repository, which has no driver packages (the Windows driver serves WSL).
"""

from __future__ import annotations

from kernel_wizard.prereqs.facts import LinuxDistro

CUDA_REPOS = "https://developer.download.nvidia.com/compute/cuda/repos"
CUDA_DOWNLOADS_PAGE = "https://developer.nvidia.com/cuda-downloads"


def gcc_install_commands(distro: LinuxDistro | None) -> tuple[str, ...]:
    """Commands that install gcc and g++; () when the distribution is not known."""
    family = distro.family if distro is not None else "other"
    if family == "debian":
        return ("sudo apt-get update", "sudo apt-get install -y build-essential")
    if family == "rhel":
        return ("sudo dnf install -y gcc gcc-c++ make",)
    if family == "suse":
        return ("sudo zypper install -y gcc gcc-c++ make",)
    if family == "arch":
        return ("sudo pacman -S --needed base-devel",)
    return ()


def cuda_repo_name(distro: LinuxDistro) -> str | None:
    """NVIDIA's repository folder for this distribution: 'debian12', 'ubuntu2404', 'rhel9',
    'fedora41', 'wsl-ubuntu'; None when NVIDIA has no repository for it (as far as known)."""
    major = distro.version_id.split(".")[0]
    if distro.wsl and distro.family == "debian":
        return "wsl-ubuntu"
    if distro.id == "ubuntu" and distro.version_id:
        return "ubuntu" + distro.version_id.replace(".", "")
    if distro.id == "debian" and major:
        return "debian" + major
    if distro.id == "fedora" and major:
        return "fedora" + major
    if distro.family == "rhel" and major:
        return "rhel" + major
    return None


def cuda_arch(machine: str) -> str:
    """'x86_64' or 'sbsa' (64-bit Arm servers), as NVIDIA names repository folders."""
    return "sbsa" if machine.lower() in {"aarch64", "arm64"} else "x86_64"


def cuda_install_commands(distro: LinuxDistro | None, release: tuple[int, int]) -> tuple[str, ...]:
    """Commands that add NVIDIA's repository and install ``cuda-toolkit-X-Y`` (the toolkit
    only, no driver); () when the distribution is not known."""
    if distro is None:
        return ()
    repo = cuda_repo_name(distro)
    if repo is None:
        return ()
    package = f"cuda-toolkit-{release[0]}-{release[1]}"
    base = f"{CUDA_REPOS}/{repo}/{cuda_arch(distro.machine)}"
    if distro.family == "debian":
        return (
            f"wget {base}/cuda-keyring_1.1-1_all.deb",
            "sudo dpkg -i cuda-keyring_1.1-1_all.deb",
            "sudo apt-get update",
            f"sudo apt-get install -y {package}",
        )
    if distro.family == "rhel":
        return (
            f"sudo dnf config-manager --add-repo {base}/cuda-{repo}.repo",
            f"sudo dnf install -y {package}",
        )
    return ()


__all__ = [
    "CUDA_DOWNLOADS_PAGE",
    "cuda_arch",
    "cuda_install_commands",
    "cuda_repo_name",
    "gcc_install_commands",
]

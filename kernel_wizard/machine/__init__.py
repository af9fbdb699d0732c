"""What is on this computer: GPUs (NVML), Python environments and the AI programs they belong
to, CUDA toolkits, compilers and Visual Studio, the operating system's seams (``platforms``: one
module per OS behind one interface) and the wizard's own process lifetime. Read-only facts and
the parsers of tools' output; it knows nothing of kernels or builds.
"""

"""Turning a kernel's source into a wheel: the plan (``plan``: architectures, jobs, toolchain),
the source (``sources``: git, archives, local folders, cached), the recipe's patches, the build
folder (``worktree``), the compiler run with its progress and retries (``run``), the estimate
of how long it takes (``eta``, ``buildtimes``) and prebuilt wheels downloaded instead
(``prebuilt``).
"""

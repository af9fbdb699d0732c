"""The verification harness's test mode, for the wizard's own tests only (never shipped).

The tests put this folder on the harness's ``PYTHONPATH``; ``verify_kernel.py`` then calls
:func:`install` with ``harness_common`` (its device hooks). With ``KSW_VERIFY_TEST_CPU=1`` and
``--device cpu``, a GPU kernel's adapter runs on the CPU against a stand-in package, and the
report says so (``options.test_mode``, a "TEST MODE" note); ``KSW_VERIFY_TEST_CC`` ("9.0")
pretends the compute capability that adapters such as FlashMLA's choose their checks by.
Without ``KSW_VERIFY_TEST_CPU=1`` nothing changes. Runs in the target interpreter: Python 3.9
syntax, standard library only.
"""

from __future__ import annotations

import os

TEST_CPU_ENV = "KSW_VERIFY_TEST_CPU"
TEST_CC_ENV = "KSW_VERIFY_TEST_CC"


def install(hc):
    """Replace ``hc.gpu_device`` and ``hc.device_capability`` by the test mode's."""
    if os.environ.get(TEST_CPU_ENV) != "1":
        return
    real_gpu_device = hc.gpu_device
    real_device_capability = hc.device_capability

    def gpu_device(h, label):
        if h.device_option != "cpu":
            return real_gpu_device(h, label)
        h.report["options"]["test_mode"] = True
        h.note(
            f"TEST MODE ({TEST_CPU_ENV}=1): the {label} adapter ran on the CPU, as the wizard's "
            "own tests do with stand-in packages; this says nothing about a real GPU kernel."
        )
        return h.torch.device("cpu")

    def device_capability(h, device):
        text = os.environ.get(TEST_CC_ENV, "")
        if text and h.report["options"].get("test_mode"):
            major, _, minor = text.partition(".")
            return int(major), int(minor or 0)
        return real_device_capability(h, device)

    hc.gpu_device = gpu_device
    hc.device_capability = device_capability

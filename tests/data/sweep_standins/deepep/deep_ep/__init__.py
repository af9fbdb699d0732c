"""A stand-in ``deep_ep`` for the boundary sweep's tests on the CPU (2 processes over gloo): the
verification tests' intranode stand-in (tests/data/bad_kernels/deepep_standin, which computes
dispatch and combine by a route of its own), plus the host checks of upstream's
``Buffer::intranode_dispatch`` (csrc/deep_ep.cpp at 567632d) that the sweep's calls reach: a
hidden size whose rows are not a whole number of 16-byte vectors (``(x.size(1) *
x.element_size()) % sizeof(int4) == 0``) and more than 1,024 experts per rank
(``NUM_MAX_LOCAL_EXPERTS``) raise, with upstream's EPException text.

KSW_SWEEP_STANDIN_FAIL plants: ``crash``: the hidden size check is missing and the process
aborts instead; ``wrong``: received weights are scaled by 1.5 (the base stand-in's bug).
"""

import importlib.util
import os
from pathlib import Path

FAIL = os.environ.get("KSW_SWEEP_STANDIN_FAIL", "")
if FAIL == "wrong":
    os.environ["KSW_STANDIN_BUG"] = "weights"

_PATH = (Path(__file__).resolve().parents[3] / "bad_kernels" / "deepep_standin" / "deep_ep"
         / "__init__.py")
_spec = importlib.util.spec_from_file_location("_ksw_deepep_base", _PATH)
_base = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_base)

__version__ = "1.2.1+sweep-standin"
topk_idx_t = _base.topk_idx_t
EventOverlap = _base.EventOverlap
Config = _base.Config
NUM_MAX_LOCAL_EXPERTS = 1024


class Buffer(_base.Buffer):
    def dispatch(self, x, *args, **kwargs):
        if (x.size(1) * x.element_size()) % 16:
            if FAIL == "crash":
                os.abort()
            raise RuntimeError("Failed: Assertion error csrc/deep_ep.cpp:511 '(x.size(1) * "
                               "x.element_size()) % sizeof(int4) == 0'")
        per_expert = kwargs.get("num_tokens_per_expert")
        if per_expert is not None and per_expert.numel() // self.world > NUM_MAX_LOCAL_EXPERTS:
            raise RuntimeError("Failed: Assertion error csrc/deep_ep.cpp:522 "
                               "'num_tokens_per_expert->size(0) / num_ranks <= "
                               "NUM_MAX_LOCAL_EXPERTS'")
        return super().dispatch(x, *args, **kwargs)

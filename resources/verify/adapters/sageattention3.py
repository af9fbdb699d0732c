"""SageAttention 3 (thu-ml/SageAttention, ``sageattention3_blackwell/``: the ``sageattn3``
package): FP4 attention for Blackwell GPUs, forward only. The checks are SageAttention 2's (see
``adapters/sageattention.py``), called through ``sageattn3_blackwell(q, k, v, is_causal)``."""

from __future__ import annotations

from adapters import sageattention


def run(h):
    sageattention.run_sage3(h)

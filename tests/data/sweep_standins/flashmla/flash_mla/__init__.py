"""The boundary sweep's FlashMLA stand-in (see flash_mla_interface.py): upstream's exports."""

__version__ = "1.0.0+standin"

from flash_mla.flash_mla_interface import (  # noqa: E402
    FlashMLASchedMeta,
    flash_attn_varlen_func,
    flash_mla_sparse_fwd,
    flash_mla_with_kvcache,
    get_mla_metadata,
)

__all__ = ["FlashMLASchedMeta", "flash_attn_varlen_func", "flash_mla_sparse_fwd",
           "flash_mla_with_kvcache", "get_mla_metadata"]

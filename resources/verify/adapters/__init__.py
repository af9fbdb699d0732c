"""One module per kernel family. Each has ``run(h)`` taking a ``harness_common.Harness``: it
imports the kernel, records the environment, plans its cases and runs them (and, on a GPU, the
timings against ``torch.nn.functional.scaled_dot_product_attention``)."""

"""The ground floor: what every step stands on and that knows no step.

Sentences a front end can translate (``messages``), the wizard's errors and the advice they
carry (``errors``, ``advice``, ``oserrors``), its folders and files (``paths``, ``resources``,
``jsonfile``, ``statefile``, ``locks``), child processes and their clean-up (``processes``,
``process_tree``, ``process_guard``), how many compilers fit (``parallelism``), time in words
(``durations``) and downloads with resume and digests (``download``). Nothing here imports any
other package of the core.
"""

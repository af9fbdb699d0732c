"""The command line (``python -m app --headless``): ``main`` parses and dispatches through its
command registry; each command lives in a module of its own (``build``, ``installs``, ``clean``,
``explain``, ``prereqs``); ``terminal`` draws progress; ``consent`` asks before anything is
changed.
"""

"""The wizard's steps in order, for both front ends: ``session`` (the one way into a step: the
GUI's pages and the CLI's commands call it), the build-verify-install ``pipeline``, the
recommendation of what to install (``recommend``), verifying a wheel before it is installed
(``verify_install``) and re-verifying what is installed (``reverify``).
"""

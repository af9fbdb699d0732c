"""The Qt-free core of the Kernel Setup Wizard.

Everything the wizard does lives here and is usable from the command line
(``python -m app --headless ...``). Nothing in this package imports Qt or the GUI.
"""

__version__ = "0.1.0"

"""Putting a verified wheel into a Python environment and remembering it: pip runs with a
backup and a roll-back (``installer``), the install records (``records``) and the clean-up of
what the wizard left behind (``housekeeping``).
"""

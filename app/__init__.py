"""The PySide6 front end of the Kernel Setup Wizard. No business logic lives here."""

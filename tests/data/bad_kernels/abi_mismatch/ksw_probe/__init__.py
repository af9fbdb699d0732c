"""Fails to import the way an extension built against another torch does."""

raise ImportError(
    "/site-packages/ksw_probe/_C.cpython-311-x86_64-linux-gnu.so: undefined symbol: "
    "_ZN3c104cuda9SetDeviceEab"
)

"""The test suite; a package so that test modules in different folders may share a name."""

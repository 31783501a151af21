"""kernelevo: faster GPU kernels by evolutionary quality-diversity search."""

__version__ = "0.1.0"

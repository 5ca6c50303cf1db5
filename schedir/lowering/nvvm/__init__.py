"""The steps of `convert-gpu-to-nvvm`: kernels and their memory, gpu ops, libdevice."""

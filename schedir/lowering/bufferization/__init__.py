"""One-Shot Bufferize: the analysis (which tensor operands may bufferize in place) and the rewrite (tensor ops to memref ops)."""

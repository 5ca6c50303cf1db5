"""Vector rewrites: lowering contractions, reductions, transfers, masks and shapes; folders."""

"""GPU rewrites: mapping foralls to blocks and threads, distributing copies, eliminating barriers."""

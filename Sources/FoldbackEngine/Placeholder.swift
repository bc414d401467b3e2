// Placeholder for FoldbackEngine; replaced as the target fills in.

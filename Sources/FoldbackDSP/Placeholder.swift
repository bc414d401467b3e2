// Placeholder for FoldbackDSP; replaced as the target fills in.

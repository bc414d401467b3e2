// Placeholder for FoldbackPresets; replaced as the target fills in.

// Placeholder for FoldbackJACK; replaced as the target fills in.

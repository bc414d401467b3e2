// Placeholder for FoldbackRender; replaced as the target fills in.

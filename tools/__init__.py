"""Developer tools (not part of the installed game): screenshots, checks."""

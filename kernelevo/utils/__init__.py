"""Small helpers shared by several roles."""

"""Club archives: backup and restore of a whole club (docs/deployment.md)."""

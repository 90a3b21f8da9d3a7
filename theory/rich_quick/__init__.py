"""Claims of the rich_quick paper."""

"""Files to and from other programs: TSH's `.t` files (docs/tsh.md)."""

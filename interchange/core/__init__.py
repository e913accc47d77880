"""Files of other programs, read and written as plain records: pure, no Django."""

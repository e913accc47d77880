"""The pure core of the competition app: standings, pairing engines, TSH files, charts,
paper scoresheets and the results CSV reader, as functions on plain dataclasses.

Pure: nothing here imports Django, the ORM or another app of the project (only the standard
library and rustworkx); `tests/competition/core/test_purity.py` checks it. The Django
side (`competition.selectors`, `competition.services`) turns ORM rows into these records
and back.
"""

"""Writers and readers of ``reports/`` (docs/reports.md), all from the run record alone.

* :mod:`.record`: the typed, self-contained record ``claims.json`` (build, merge, load);
* :mod:`.files`: atomic writes and the reports folder's lock;
* :mod:`.paper_scale`: paper-scale records (written by the plugin, read from the repository);
* :mod:`.figures`: figure files saved as a test hands them over;
* :mod:`.writer`: merge a run and render every report;
* :mod:`.findings`: what the suite found, first in every report;
* :mod:`.pdf`, :mod:`.html`, :mod:`.terminal`, :mod:`.show` (``python -m verify show``): the
  reports; :mod:`.forms` and :mod:`.text`: forms, colours and text shared by them (no drawing
  backend).
"""

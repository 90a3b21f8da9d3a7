"""Writers of ``reports/`` (docs/reports.md): the run record ``claims.json`` (:mod:`.record`),
figure files (:mod:`.figures`), paper-scale records (:mod:`.paper_scale`), and every report
rendered from the record (:mod:`.writer`): the PDFs (:mod:`.pdf`), the HTML report (:mod:`.html`),
the terminal summary (:mod:`.terminal`) and ``python -m theory show`` (:mod:`.show`); shared text
formatting in :mod:`.text`."""

"""make bench: figures, not pass/fail. ``python -m tools.bench [SUBJECT ...]``.

Each module here is one subject with a ``report()`` that prints its section: ``solver``
(the firmware solver against reference_solver.py, the straightforward BFS kept for
comparison), ``game`` (the referee engine), ``platform_layer`` (display, input, store),
``app`` (the handheld's heap and frames), ``simulator`` (simulator, pictures, flashing),
``ricochet`` (the Ricochet Robots solver). ``__main__.py`` runs them in turn; naming
subjects runs only those.
"""

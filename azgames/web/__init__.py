"""The browser app: watch, replay and play the suite's games in a web page.

``python -m azgames serve`` (or ``python -m azgames.web``) starts a local
server and opens the page. :mod:`.session` holds one page's game,
:mod:`.clicks` turns clicks on the board into moves, :mod:`.app` is the
FastAPI server, :mod:`.access` who may use it (its token, ``Host`` and
``Origin`` checks), :mod:`.cli` its command line, and ``static/`` the page
(plain HTML, CSS and JavaScript, no build step). Needs the ``web`` extra
(FastAPI and uvicorn).
"""

"""The Ocean Die's face names, shared by the rules, the text render and the
picture (so neither drawing module imports :mod:`azimuth_env.coop.rules`,
which imports them). Index ``k`` names face ``k`` of
:mod:`azimuth_env.coop.kernels` (``SUNNY, MERMAID, ... = range(6)``)."""

FACE_NAMES = ("sunny", "mermaid", "wave away", "wave towards", "gust", "turtle")

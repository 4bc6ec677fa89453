"""The package list, found rather than written: a new game's package installs
by itself, and ``agents/`` (at the top, as the design lists it) installs as
``azgames.agents``: a top-level ``agents`` would collide with other
packages of that name. Everything else is in pyproject.toml."""

from setuptools import find_packages, setup

AGENTS = ["azgames.agents"] + [f"azgames.agents.{p}" for p in find_packages("agents")]

setup(
    packages=find_packages(include=["azgames", "azgames.*", "*_env", "*_env.*"]) + AGENTS,
    package_dir={"azgames.agents": "agents"},
)

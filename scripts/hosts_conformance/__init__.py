"""Conformance of `albedo-skills hosts` with the agents' own loaders, run for real
(docs/hosts-conformance.md).

One module per agent runner (`run_<agent>.py`); the fixture (`fixture.py`), the network-less sandbox
(`sandbox.py`), the pinned installs (`agents.py`), the normalisation (`observe.py`, `tree.py`), the
comparison (`compare.py`) and the recorded observations (`recorded.py`). Usage: `__main__.py`.
"""

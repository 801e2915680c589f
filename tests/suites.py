"""tests/suites.py — suites that run once, not per variant (they test a tool, not a build).

Each suite is a function (variants) -> [Result].
"""
import os
import shutil

from run import Result, run_process, ROOT

ALL = []

"""The one thing pyproject.toml cannot say: logparse.frame._native, the fast lane's shape test in C.

It is optional: where no C compiler is found the build goes on without it, and the fast lane reads the same
lines through its regexes (logparse/frame/fastlane.py), only slower.
"""

from setuptools import Extension, setup

setup(ext_modules=[Extension("logparse.frame._native", ["logparse/frame/_native.c"], optional=True)])

# SPDX-License-Identifier: MIT
"""setup.py - builds the acgrep module: acgrep/_engine.c, acgrep/_compiled.c,
the engine's sources (../src/engine, libacgrep included) and the part of
the grep layer that compiled pattern sets need (../src/grep: compiled,
match, fold, regex; PCRE2 left out) compiled into one extension under the
stable ABI (abi3: one build for CPython 3.11 and later), so that nothing
but Python itself is needed at run time.

    pip install --no-build-isolation ./python
    python3 setup.py build_ext --build-lib DIR    (tests: make python)
"""
import glob
import os
import re

from setuptools import Extension, setup

HERE = os.path.dirname(os.path.abspath(__file__))
ENGINE = os.path.join(os.path.dirname(HERE), "src", "engine")
GREP = os.path.join(os.path.dirname(HERE), "src", "grep")
# matcher_save and matcher_load_image, and what they call: the matcher
# (matcher_for_config) and below it; not the input, search or output
GREP_FOLDERS = ("compiled", "match", "fold", "regex")


def acgrep_version():
    with open(os.path.join(os.path.dirname(HERE), "src", "cli", "help.h")) as f:
        return re.search(r'#define ACGREP_VERSION "([^"]+)"', f.read()).group(1)


VERSION = acgrep_version()

engine = Extension(
    "acgrep._engine",
    sources=[os.path.join("acgrep", "_engine.c"), os.path.join("acgrep", "_compiled.c")]
    + sorted(glob.glob(os.path.join(ENGINE, "*.c")))
    + sorted(f for d in GREP_FOLDERS for f in glob.glob(os.path.join(GREP, d, "*.c"))),
    include_dirs=[ENGINE, GREP],
    depends=[os.path.join("acgrep", "_engine.h")],
    define_macros=[("_GNU_SOURCE", None), ("ACGREP_LIB_VERSION", '"%s"' % VERSION)],
    extra_compile_args=["-std=c11", "-pthread", "-fvisibility=hidden"],
    extra_link_args=["-pthread"],
    py_limited_api=True,
)

setup(
    name="acgrep",
    version=VERSION,
    description="Find many fixed strings in one pass (acgrep's Aho-Corasick engine)",
    license="MIT",
    packages=["acgrep"],
    package_data={"acgrep": ["__init__.pyi", "py.typed"]},
    ext_modules=[engine],
    options={"bdist_wheel": {"py_limited_api": "cp311"}},
    python_requires=">=3.11",
)

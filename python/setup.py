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
import subprocess
import sysconfig

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

# search_file(decompress=True) decodes with the CLI's decompress.c, each
# format where its library is there (as the Makefile decides)
DECODERS = (("zlib.h", "z", "ZLIB"), ("lzma.h", "lzma", "LZMA"), ("zstd.h", "zstd", "ZSTD"),
            ("bzlib.h", "bz2", "BZIP2"))


def have_lib(header, lib):
    cc = (sysconfig.get_config_var("CC") or "cc").split()
    probe = "#include <%s>\nint main(void) { return 0; }\n" % header
    try:
        done = subprocess.run(cc + ["-x", "c", "-", "-o", os.devnull, "-l" + lib], input=probe.encode(),
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    except OSError:
        return False
    return done.returncode == 0


DECODERS_HERE = [(lib, name) for header, lib, name in DECODERS if have_lib(header, lib)]

engine = Extension(
    "acgrep._engine",
    sources=[os.path.join("acgrep", f) for f in ("_engine.c", "_compiled.c", "_input.c")]
    + sorted(glob.glob(os.path.join(ENGINE, "*.c")))
    + [os.path.join(GREP, "decompress", "decompress.c")]
    + sorted(f for d in GREP_FOLDERS for f in glob.glob(os.path.join(GREP, d, "*.c"))),
    include_dirs=[ENGINE, GREP],
    depends=[os.path.join("acgrep", "_engine.h")],
    define_macros=[("_GNU_SOURCE", None), ("ACGREP_LIB_VERSION", '"%s"' % VERSION)]
    + [("ACGREP_HAVE_" + name, None) for _, name in DECODERS_HERE],
    libraries=[lib for lib, _ in DECODERS_HERE],
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

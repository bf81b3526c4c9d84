# SPDX-License-Identifier: MIT
"""Tests of compiled pattern sets: acgrep.load of files the CLI saved
(`acgrep -F --save-compiled`), Set.save of files the CLI loads
(`acgrep -F --compiled`), each against the CLI's own matches, the options
refused, and damaged files (every 1/16th truncation, random byte flips)."""

import os
import random
import subprocess

import pytest

import acgrep

HERE = os.path.dirname(os.path.abspath(__file__))
ACGREP = os.environ.get("ACGREP", os.path.join(HERE, "..", "..", "acgrep"))
C = dict(os.environ, LC_ALL="C")
UTF8 = dict(os.environ, LC_ALL="C.UTF-8")


def cli(args, stdin=b"", env=C):
    """acgrep's exit status and stdout for args."""
    r = subprocess.run([ACGREP] + args, input=stdin, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, env=env, check=False)
    return r.returncode, r.stdout, r.stderr


def cli_matches(path, text, options=(), env=C):
    """The matches `acgrep -o -b --show-pattern=number --compiled=path` finds
    in text, as (start, end, index): grep -o's, line by line."""
    rc, out, err = cli(["-F", "-o", "-b", "--show-pattern=number", "--compiled=" + path]
                       + list(options), text, env)
    assert rc in (0, 1), err
    found = []
    for line in out.split(b"\n")[:-1]:
        offset, number, match = line.split(b":", 2)
        found.append((int(offset), int(offset) + len(match), int(number) - 1))
    return found


def save_with_cli(tmp_path, patterns, options=(), env=C):
    listed = tmp_path / "patterns"
    listed.write_bytes(b"\n".join(patterns) + b"\n")
    path = str(tmp_path / "set.acs")
    syntax = [] if "-E" in options else ["-F"]
    rc, _, err = cli(syntax + ["-f", str(listed), "--save-compiled=" + path] + list(options), env=env)
    assert rc == 0, err
    return path


def random_case(rng):
    patterns = sorted({bytes(rng.choice(b"abAB_") for _ in range(rng.randint(1, 4)))
                       for _ in range(rng.randint(1, 8))}, key=lambda _: rng.random())
    text = bytes(rng.choice(b"abAB_ \n") for _ in range(300))
    return patterns, text


@pytest.mark.parametrize("options", [(), ("-i",), ("-w",), ("-i", "-w")])
def test_cli_saved_loads_with_the_same_matches(tmp_path, options):
    rng = random.Random("cli" + "".join(options))
    for _ in range(8):
        patterns, text = random_case(rng)
        path = save_with_cli(tmp_path, patterns, options)
        s = acgrep.load(path)
        assert s.patterns == patterns
        assert list(s.find_iter(text)) == cli_matches(path, text, options)
        assert s.count(text) == len(cli_matches(path, text, options))


@pytest.mark.parametrize("options", [(), ("-i",), ("-w",), ("-i", "-w")])
def test_python_saved_is_the_cli_s_with_the_same_matches(tmp_path, options):
    rng = random.Random("py" + "".join(options))
    path = str(tmp_path / "py.acs")
    for _ in range(8):
        patterns, text = random_case(rng)
        s = acgrep.Set(patterns, ignore_case="-i" in options, whole_words="-w" in options)
        s.save(path)
        assert list(s.find_iter(text)) == cli_matches(path, text, options)
        assert list(acgrep.load(path).find_iter(text)) == list(s.find_iter(text))


def test_utf8_locale_ascii_folding_is_honoured(tmp_path):
    # grep -i folds ASCII patterns without i or s by ASCII alone in a UTF-8 locale too
    path = save_with_cli(tmp_path, [b"ab", b"Zurch"], ["-i"], UTF8)
    text = "AB zÜ zü ZURCH Zürich ab\n".encode()
    assert list(acgrep.load(path).find_iter(text)) == cli_matches(path, text, ["-i"], UTF8)
    assert [m[:2] for m in acgrep.load(path).find_iter(text)] == [(0, 2), (11, 16), (25, 27)]


def test_tags_and_nul_round_trip(tmp_path):
    path = str(tmp_path / "t.acs")
    s = acgrep.Set([b"a\0b", "cat", "dog", "cow"], tags=["nul", "pet", "pet", b"farm"])
    s.save(path)
    loaded = acgrep.load(path, overlapping=True)
    text = b"a\0b dog cow cat"
    assert list(loaded.find_iter(text)) == [(0, 3, "nul"), (4, 7, "pet"), (8, 11, "farm"),
                                            (12, 15, "pet")]
    # the CLI needs -a for a set that keeps a pattern holding NUL
    rc, out, err = cli(["-F", "-a", "-o", "--show-pattern=tag", "--compiled=" + path], text)
    assert (rc, out) == (0, b"nul:a\0b\npet:dog\nfarm:cow\npet:cat\n"), err


def test_cli_tagged_file_loads_its_tags(tmp_path):
    (tmp_path / "tags").write_bytes(b"pet\tcat\npet\tdog\n\xff\tcow\n")
    path = str(tmp_path / "t.acs")
    assert cli(["-F", "--tagged-file=" + str(tmp_path / "tags"), "--save-compiled=" + path])[0] == 0
    assert list(acgrep.load(path).find_iter(b"cow dog")) == [(0, 3, b"\xff"), (4, 7, "pet")]


def test_cli_dropped_nul_patterns_keep_list_indexes(tmp_path):
    # without -a grep leaves out a pattern holding NUL: the others keep their index
    s = acgrep.load(save_with_cli(tmp_path, [b"x", b"a\0b", b"cd"]))
    assert len(s) == 3
    assert list(s.find_iter(b"cd a\0b x")) == [(0, 2, 2), (7, 8, 0)]


@pytest.mark.parametrize("options, env, why", [
    (["-x"], C, "compiled with -x"),
    (["-w"], UTF8, "compiled with -w in a UTF-8 locale"),
    (["-i"], UTF8, "compiled with -i in a UTF-8 locale"),
    (["-E"], C, "compiled from -E/-G"),
])
def test_options_the_module_cannot_honour_are_refused(tmp_path, options, env, why):
    path = save_with_cli(tmp_path, [b"is", b"a(b|c)"], options, env)
    with pytest.raises(ValueError, match=why):
        acgrep.load(path)


def test_empty_pattern_is_refused(tmp_path):
    path = save_with_cli(tmp_path, [b"a", b""])
    with pytest.raises(ValueError, match="pattern 1 is empty"):
        acgrep.load(path)


def test_save_refuses_what_grep_cannot_hold(tmp_path):
    path = str(tmp_path / "x.acs")
    with pytest.raises(ValueError, match="unicode"):
        acgrep.Set(["a"], ignore_case="unicode").save(path)
    with pytest.raises(ValueError, match="newline"):
        acgrep.Set(["a\nb"]).save(path)
    with pytest.raises(ValueError, match="tag 0"):
        acgrep.Set(["a"], tags=[1]).save(path)
    with pytest.raises(OSError, match="No such file or directory"):
        acgrep.Set(["a"]).save(str(tmp_path / "no" / "x.acs"))
    assert not os.path.exists(path)


def test_load_errors(tmp_path):
    with pytest.raises(FileNotFoundError):
        acgrep.load(str(tmp_path / "absent"))
    (tmp_path / "text").write_bytes(b"not a set\n" * 20)
    with pytest.raises(ValueError, match="not a compiled pattern set"):
        acgrep.load(str(tmp_path / "text"))


def test_damaged_files_raise_never_crash(tmp_path):
    path = str(tmp_path / "d.acs")
    words = [("w%d" % i).encode() for i in range(300)]
    acgrep.Set(words, tags=["t%d" % (i % 7) for i in range(300)], ignore_case=True).save(path)
    good = open(path, "rb").read()
    damaged = str(tmp_path / "damaged.acs")
    for k in range(16):
        with open(damaged, "wb") as f:
            f.write(good[:len(good) * k // 16])
        with pytest.raises(ValueError):
            acgrep.load(damaged)
    rng = random.Random(30)
    for _ in range(64):
        flipped = bytearray(good)
        at = rng.randrange(len(good))
        flipped[at] ^= 1 << rng.randrange(8)
        with open(damaged, "wb") as f:
            f.write(flipped)
        with pytest.raises(ValueError):
            acgrep.load(damaged)


# XXH64 (seed 0), the checksum of compiled sets (src/engine/hash64.c), so
# that forged bytes reach the checks behind the checksum
P1, P2, P3, P4, P5 = (0x9E3779B185EBCA87, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9,
                      0x85EBCA77C2B2AE63, 0x27D4EB2F165667C5)
M64 = (1 << 64) - 1


def _rotl(x, r):
    return ((x << r) | (x >> (64 - r))) & M64


def _round(acc, lane):
    return (_rotl((acc + lane * P2) & M64, 31) * P1) & M64


def xxh64(data):
    n, i = len(data), 0
    if n >= 32:
        v = [(P1 + P2) & M64, P2, 0, (-P1) & M64]
        while i + 32 <= n:
            v = [_round(v[k], int.from_bytes(data[i + 8 * k:i + 8 * k + 8], "little"))
                 for k in range(4)]
            i += 32
        h = (_rotl(v[0], 1) + _rotl(v[1], 7) + _rotl(v[2], 12) + _rotl(v[3], 18)) & M64
        for x in v:
            h = ((h ^ _round(0, x)) * P1 + P4) & M64
    else:
        h = P5
    h = (h + n) & M64
    while i + 8 <= n:
        h = (_rotl(h ^ _round(0, int.from_bytes(data[i:i + 8], "little")), 27) * P1 + P4) & M64
        i += 8
    if i + 4 <= n:
        h = (_rotl(h ^ (int.from_bytes(data[i:i + 4], "little") * P1) & M64, 23) * P2 + P3) & M64
        i += 4
    while i < n:
        h = (_rotl(h ^ (data[i] * P5) & M64, 11) * P1) & M64
        i += 1
    h = ((h ^ (h >> 33)) * P2) & M64
    h = ((h ^ (h >> 29)) * P3) & M64
    return h ^ (h >> 32)


def reseal(image):
    image[24:32] = xxh64(bytes(image[32:])).to_bytes(8, "little")


def test_forged_files_raise_or_load_never_crash(tmp_path):
    """Bytes changed behind a valid checksum: refused by the checks of the
    tables, or a set that scans without crashing."""
    path = str(tmp_path / "f.acs")
    acgrep.Set([("w%d" % i).encode() for i in range(200)], tags=["t%d" % (i % 5) for i in
                                                                  range(200)]).save(path)
    good = bytearray(open(path, "rb").read())
    resealed = bytearray(good)
    reseal(resealed)
    assert resealed == good  # the checksum is XXH64 as computed here
    rng = random.Random(31)
    forged, refused = str(tmp_path / "forged.acs"), 0
    for _ in range(120):
        image = bytearray(good)
        for _ in range(rng.randint(1, 4)):
            image[rng.randrange(64, len(image))] = rng.randrange(256)
        reseal(image)
        with open(forged, "wb") as f:
            f.write(image)
        try:
            s = acgrep.load(forged)
        except ValueError:
            refused += 1
            continue
        s.count(b"w1 w22 w199 t3 " * 20)
        list(s.find_iter(b"w1 w22 w199 t3 " * 20))
    assert refused > 0

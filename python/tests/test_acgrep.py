# SPDX-License-Identifier: MIT
"""Tests of the acgrep module: hand cases, a pure-Python reference and
pyahocorasick on random sets and texts, bad input, threads, files."""

import bz2
import gzip
import lzma
import os
import random
import subprocess
import threading

import pytest

import acgrep

WORD = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")


# ---- the reference: every rule of python/README.md, spelled out slowly ----

def ref_occurrences(patterns, text, fold=False, words=False):
    """Every (start, end, index) with text[start:end] equal to a pattern
    (ASCII case aside when fold), the first of equal patterns, kept by the
    whole-word rule when words; in order of end, the longest first."""
    norm = (lambda b: b.lower()) if fold else (lambda b: b)
    first = {}
    for i, p in enumerate(patterns):
        first.setdefault(norm(p), i)
    out = []
    for end in range(len(text) + 1):
        for start in range(end):
            i = first.get(norm(text[start:end]))
            if i is None:
                continue
            if words and ((start > 0 and text[start - 1] in WORD) or
                          (end < len(text) and text[end] in WORD)):
                continue
            out.append((start, end, i))
    return out


def ref_leftmost(occurrences):
    """grep -o's choice: the leftmost start, the longest match there, then
    the same from its end."""
    out, pos = [], 0
    for s, e, i in sorted(occurrences, key=lambda m: (m[0], -m[1])):
        if s >= pos:
            out.append((s, e, i))
            pos = e
    return out


def rand_bytes(rng, n, alphabet=b"abAB_ "):
    return bytes(rng.choice(alphabet) for _ in range(n))


# ---- hand cases ----

def test_leftmost_longest_and_overlapping():
    assert list(acgrep.Set(["he", "she", "hers"]).find_iter(b"ushers")) == [(1, 4, 1)]
    s = acgrep.Set(["he", "she", "hers"], overlapping=True)
    assert list(s.find_iter(b"ushers")) == [(1, 4, 1), (2, 4, 0), (2, 6, 2)]
    assert list(acgrep.Set(["ab", "abcd", "bc"]).find_iter(b"abcdbc")) == [(0, 4, 1), (4, 6, 2)]


def test_input_types_are_equal():
    s = acgrep.Set([b"ab", "cd"])
    want = [(0, 2, 0), (3, 5, 1)]
    for data in (b"ab cd", bytearray(b"ab cd"), memoryview(b"xab cdx")[1:6], "ab cd"):
        assert list(s.find_iter(data)) == want
    assert s.count(b"ab cd ab") == 3 and s.contains(b"xxcd") and not s.contains(b"xx")
    assert not s.contains(b"") and s.count("") == 0


def test_str_offsets_are_characters():
    text = "été à Zürich, Zürich"
    s = acgrep.Set(["Zürich", "à"], overlapping=True)
    got = list(s.find_iter(text))
    assert got == [(4, 5, 1), (6, 12, 0), (14, 20, 0)]
    assert [text[a:b] for a, b, _ in got] == ["à", "Zürich", "Zürich"]
    # the same set on the UTF-8 bytes: byte offsets
    assert list(s.find_iter(text.encode())) == [(6, 8, 1), (9, 16, 0), (18, 25, 0)]


def test_bytes_pattern_never_matches_inside_a_character():
    s = acgrep.Set([b"\xa9", b"x"])
    assert list(s.find_iter("é©x")) == [(2, 3, 1)]  # é is c3 a9, © c2 a9
    assert list(s.find_iter("é©x".encode())) == [(1, 2, 0), (3, 4, 0), (4, 5, 1)]


def test_tags_and_duplicates():
    s = acgrep.Set(["cat", "dog", "cat"], tags=[("animal", 1), "dog", "dup"])
    assert list(s.find_iter("a cat, a dog")) == [(2, 5, ("animal", 1)), (9, 12, "dog")]
    assert len(s) == 3 and s.patterns == [b"cat", b"dog", b"cat"]


def test_ignore_case_ascii():
    s = acgrep.Set(["Hello"], ignore_case="ascii")
    assert list(s.find_iter("HELLO hello hÉllo".encode())) == [(0, 5, 0), (6, 11, 0)]
    assert acgrep.Set(["Hello"], ignore_case=True).count("hELLo") == 1
    assert acgrep.Set(["é"], ignore_case="ascii").count("É") == 0


def test_ignore_case_unicode():
    s = acgrep.Set(["straße", "élan", "k"], ignore_case="unicode", overlapping=True)
    text = "STRAẞE Élan ÉLAN \u212a K k ss"
    assert list(s.find_iter(text)) == [
        (0, 6, 0), (7, 11, 1), (12, 16, 1), (17, 18, 2), (19, 20, 2), (21, 22, 2)]
    assert acgrep.Set(["straße"], ignore_case="unicode").count("STRASSE") == 0
    # bytes that are not UTF-8 fold ASCII only
    assert acgrep.Set([b"A\xff"], ignore_case="unicode").count(b"a\xff") == 1


def test_whole_words():
    s = acgrep.Set(["foo", "foobar", "bar"], whole_words=True)
    assert list(s.find_iter(b"foobar foo_ xfoo foo bar.")) == [(0, 6, 1), (17, 20, 0),
                                                                 (21, 24, 2)]
    # no whole-word match at the leftmost start: the next start
    assert list(s.find_iter(b"foobarx bar")) == [(8, 11, 2)]
    # a shorter match at the same start is whole where the longest is not
    assert list(acgrep.Set(["ab", "ab-c", "abc"], whole_words=True).find_iter(b"ab-cd ab")) == [
        (0, 2, 0), (6, 8, 0)]
    assert acgrep.Set(["foo"], whole_words=True).count(b"foo foox foo") == 2
    assert not acgrep.Set(["foo"], whole_words=True).contains(b"foox xfoo")


def test_search_file(tmp_path):
    text = b"alpha beta\ngamma alpha\n"
    s = acgrep.Set(["alpha", "gamma"])
    want = list(s.find_iter(text))
    (tmp_path / "plain").write_bytes(text)
    (tmp_path / "empty").write_bytes(b"")
    (tmp_path / "t.gz").write_bytes(gzip.compress(text))
    (tmp_path / "t.bz2").write_bytes(bz2.compress(text))
    (tmp_path / "t.xz").write_bytes(lzma.compress(text))
    assert list(s.search_file(tmp_path / "plain")) == want
    assert list(s.search_file(str(tmp_path / "plain"), decompress=True)) == want
    assert list(s.search_file(tmp_path / "empty")) == []
    for name in ("t.gz", "t.bz2", "t.xz"):
        assert list(s.search_file(tmp_path / name, decompress=True)) == want
        assert list(s.search_file(tmp_path / name)) != want
    with pytest.raises(FileNotFoundError):
        s.search_file(tmp_path / "missing")
    with pytest.raises(FileNotFoundError):
        s.search_file(tmp_path / "missing", decompress=True)


def test_search_file_decompresses_as_the_cli(tmp_path):
    """The CLI's decoders: zstd too, members one after another, damage
    reported after the bytes before it, as acgrep --decompress."""
    text = b"alpha beta\ngamma alpha\n" * 50
    s = acgrep.Set(["alpha", "gamma"])
    want = list(s.find_iter(text + text))
    (tmp_path / "t.zst").write_bytes(subprocess.run(["zstd", "-q", "-c"], input=text + text,
                                                    stdout=subprocess.PIPE, check=True).stdout)
    (tmp_path / "two.gz").write_bytes(gzip.compress(text) + gzip.compress(text))
    (tmp_path / "two.bz2").write_bytes(bz2.compress(text) + bz2.compress(text))
    for name in ("t.zst", "two.gz", "two.bz2"):
        assert list(s.search_file(tmp_path / name, decompress=True)) == want
    fifo = str(tmp_path / "fifo")
    os.mkfifo(fifo)
    for data in (text + text, gzip.compress(text) + gzip.compress(text)):
        writer = threading.Thread(target=lambda d=data: open(fifo, "wb").write(d))
        writer.start()
        assert list(s.search_file(fifo, decompress=True)) == want
        writer.join()
    (tmp_path / "cut.gz").write_bytes(gzip.compress(text)[:40])
    with pytest.raises(OSError, match="cut.gz: unexpected end of compressed data"):
        s.search_file(tmp_path / "cut.gz", decompress=True)


# ---- bad input ----

@pytest.mark.parametrize("patterns, kwargs, error", [
    ([], {}, ValueError),
    (["a", ""], {}, ValueError),
    ([b""], {}, ValueError),
    (["a", 3], {}, TypeError),
    ("abc", {}, TypeError),
    (b"abc", {}, TypeError),
    (None, {}, TypeError),
    (["a"], {"tags": [1, 2]}, ValueError),
    (["a"], {"ignore_case": "turkish"}, ValueError),
    (["a"], {"ignore_case": []}, ValueError),
    (["\ud800"], {}, UnicodeEncodeError),
    (["éééééééééééééééééééééééééééééé"], {"ignore_case": "unicode"}, ValueError),
])
def test_bad_sets_raise(patterns, kwargs, error):
    with pytest.raises(error):
        acgrep.Set(patterns, **kwargs)


def test_bad_data_raises():
    s = acgrep.Set(["a"])
    for data in (3, None, ["a"], 1.5):
        with pytest.raises(TypeError):
            s.find_iter(data)
        with pytest.raises(TypeError):
            s.count(data)
    with pytest.raises(UnicodeEncodeError):
        s.contains("a\udc80")


def test_huge_pattern():
    big = b"xy" * (1 << 19)
    s = acgrep.Set([big, b"y"])
    assert s.count(b"a" + big + b"a") == 1
    assert acgrep.Set([big, b"y"], overlapping=True).count(big) == (1 << 19) + 1


# ---- differential: the reference and pyahocorasick ----

@pytest.mark.parametrize("seed", range(60))
def test_against_reference(seed):
    rng = random.Random(seed)
    patterns = [rand_bytes(rng, rng.randint(1, 4), b"abAB_") for _ in range(rng.randint(1, 12))]
    text = rand_bytes(rng, rng.randint(0, 200))
    for fold in (False, True):
        for words in (False, True):
            occ = ref_occurrences(patterns, text, fold, words)
            kw = {"ignore_case": "ascii" if fold else False, "whole_words": words}
            over = acgrep.Set(patterns, overlapping=True, **kw)
            left = acgrep.Set(patterns, **kw)
            assert list(over.find_iter(text)) == occ
            assert over.count(text) == len(occ)
            assert list(left.find_iter(text)) == ref_leftmost(occ)
            assert left.count(text) == len(ref_leftmost(occ))
            assert left.contains(text) == bool(occ)


@pytest.mark.parametrize("seed", range(30))
def test_against_pyahocorasick(seed):
    ahocorasick = pytest.importorskip("ahocorasick")
    rng = random.Random(1000 + seed)
    alphabet = "abcé€"
    words = sorted({"".join(rng.choice(alphabet) for _ in range(rng.randint(1, 5)))
                    for _ in range(rng.randint(1, 40))})
    text = "".join(rng.choice(alphabet + " ") for _ in range(rng.randint(0, 2000)))
    auto = ahocorasick.Automaton()
    for i, w in enumerate(words):
        auto.add_word(w, (i, w))
    auto.make_automaton()
    theirs = sorted((end + 1 - len(w), end + 1, i) for end, (i, w) in auto.iter(text))
    s = acgrep.Set(words, overlapping=True)
    assert sorted(s.find_iter(text)) == theirs
    assert sorted(s.find_iter(text.encode())) == sorted(
        (len(text[:a].encode()), len(text[:b].encode()), i) for a, b, i in theirs)


def test_large_set_counts_as_it_finds():
    """A set of 65,536 states and more over a text of 64 KiB and more is
    counted run by run with a memo of repeated words (ac_runs.c): the same
    counts as its matches, repeated and unique words, threads at once."""
    rng = random.Random(11)
    words = sorted({"".join(rng.choice("abcdefgh") for _ in range(rng.randint(1, 12)))
                    for _ in range(30_000)})
    vocab = ["".join(rng.choice("abcdefghAB") for _ in range(rng.randint(1, 20))) for _ in range(400)]
    repeated = " ".join(rng.choice(vocab) for _ in range(30_000))
    unique = " ".join("".join(rng.choice("abcdefghAB") for _ in range(rng.randint(4, 14)))
                      for _ in range(30_000))
    for kw in ({}, {"ignore_case": "ascii"}, {"overlapping": True}):
        s = acgrep.Set(words, **kw)
        for text in (repeated, unique, repeated.encode()):
            assert len(text) > 64 << 10
            want = sum(1 for _ in s.find_iter(text))
            assert want > 0 and s.count(text) == want
        results = [None] * 4

        def work(k, s=s):
            results[k] = s.count(repeated)

        pool = [threading.Thread(target=work, args=(k,)) for k in range(4)]
        for t in pool:
            t.start()
        for t in pool:
            t.join()
        assert results == [sum(1 for _ in s.find_iter(repeated))] * 4


# ---- threads: scans share one Set, without the GIL ----

def test_threads_scan_one_set_at_once():
    rng = random.Random(7)
    words = ["%s%d" % (rng.choice(["err", "warn", "ip"]), n) for n in range(2000)]
    text = " ".join(rng.choice(words + ["noise"] * 3) for _ in range(20_000)).encode() * 4
    s = acgrep.Set(words, whole_words=True)
    want = s.count(text)
    first = list(s.find_iter(text))
    threads = 8
    barrier, results = threading.Barrier(threads), [None] * threads

    def work(k):
        barrier.wait()
        results[k] = (s.count(text), list(s.find_iter(text)))

    pool = [threading.Thread(target=work, args=(k,)) for k in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    assert want > 0 and all(r == (want, first) for r in results)


def test_find_arrays_are_find_iter_s_matches():
    rng = random.Random(7)
    text = rand_bytes(rng, 2000)
    for kwargs in ({}, {"overlapping": True}, {"whole_words": True}, {"ignore_case": True}):
        s = acgrep.Set(["ab", "b", "aBa", "_a"], tags=["t0", "t1", "t2", "t3"], **kwargs)
        plain = acgrep.Set(["ab", "b", "aBa", "_a"], **kwargs)
        starts, ends, indexes = s.find_arrays(text)
        assert (starts.format, ends.format, indexes.format) == ("Q", "Q", "I")
        assert list(zip(starts, ends, indexes)) == list(plain.find_iter(text))
        assert [s._tags[i] for i in indexes] == [t for _, _, t in s.find_iter(text)]
    starts, ends, indexes = acgrep.Set(["é", "b"]).find_arrays("aéb")
    assert list(zip(starts, ends, indexes)) == [(1, 2, 0), (2, 3, 1)]
    assert [len(a) for a in acgrep.Set(["x"]).find_arrays(b"")] == [0, 0, 0]

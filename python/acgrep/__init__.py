# SPDX-License-Identifier: MIT
"""acgrep - find many fixed strings in one pass, with acgrep's
Aho-Corasick engine (libacgrep).

    >>> import acgrep
    >>> s = acgrep.Set(["he", "she", "hers"])
    >>> list(s.find_iter(b"ushers"))
    [(1, 4, 1)]
    >>> list(acgrep.Set(["he", "she", "hers"], overlapping=True).find_iter("ushers"))
    [(1, 4, 1), (2, 4, 0), (2, 6, 2)]

A Set is compiled once and is read-only afterwards: any number of threads
may scan with it at once, and scans run without the GIL.  python/README.md
has the rules (offsets, case folding, whole words).
"""

import array
import mmap
import os

from . import _engine, _fold

__all__ = ["Set", "load", "__version__"]
__version__ = _engine.LIBACGREP_VERSION

_IGNORE_CASE = {False: None, None: None, True: "ascii", "ascii": "ascii", "unicode": "unicode"}


def _pattern_bytes(p, i):
    """p as bytes (Set's caller passes exact bytes through unchanged)."""
    if isinstance(p, str):
        return p.encode("utf-8")
    if isinstance(p, (bytes, bytearray, memoryview)):
        return bytes(p)
    raise TypeError("pattern %d: str or bytes expected, not %s" % (i, type(p).__name__))


def _utf8(b):
    if b.isascii():  # no str made for an ASCII pattern
        return True
    try:
        b.decode("utf-8")
        return True
    except UnicodeDecodeError:
        return False


class Set:
    """A compiled set of fixed strings.

    Set(patterns, *, tags=None, ignore_case=False, whole_words=False,
    overlapping=False)

    patterns: an iterable of str (searched for as UTF-8) or bytes; at least
    one, none empty.  A match reports the pattern's index in that order, or
    tags[index] when tags (a sequence as long as patterns) is given.  Equal
    patterns match as one, reporting the first.

    ignore_case: False; "ascii" (or True): A-Z match a-z, as grep -i in the
    C locale; "unicode": also non-ASCII letters by the rule of
    python/README.md (a pattern's variants are compiled in; ValueError when
    one has more than 65,536).

    whole_words: only matches with no ASCII letter, digit or "_" just
    before or just after them (grep -w in the C locale).

    overlapping: every occurrence of every pattern, in order of end, the
    longest first among those that end together; otherwise the
    leftmost-longest matches grep -o prints.

    Raises TypeError for a pattern neither str nor bytes, ValueError for no
    pattern, an empty one, tags of another length or an unknown
    ignore_case.
    """

    def __init__(self, patterns, *, tags=None, ignore_case=False, whole_words=False,
                 overlapping=False):
        if isinstance(patterns, (str, bytes, bytearray, memoryview)):
            raise TypeError("patterns must be an iterable of str or bytes, not one %s"
                            % type(patterns).__name__)
        given = [p if type(p) is bytes else _pattern_bytes(p, i) for i, p in enumerate(patterns)]
        if not given:
            raise ValueError("no patterns: a Set needs at least one")
        if not all(given):
            i = given.index(b"")
            raise ValueError("pattern %d is empty (it would match at every position)" % i)
        try:
            fold = _IGNORE_CASE[ignore_case]
        except (KeyError, TypeError):
            raise ValueError("ignore_case must be False, True, \"ascii\" or \"unicode\", not %r"
                             % (ignore_case,)) from None
        labels = None
        if tags is not None:
            labels = tuple(tags)
            if len(labels) != len(given):
                raise ValueError("%d tags for %d patterns" % (len(labels), len(given)))
        compiled, index_of = given, None
        if fold == "unicode":
            compiled, owners = [], array.array("I")
            for i, p in enumerate(given):
                vs = _fold.variants(p)
                compiled.extend(vs)
                owners.extend([i] * len(vs))
            if len(compiled) != len(given):
                index_of = owners.tobytes()
        self._patterns = given
        self._ignore_case = fold
        self._whole_words = bool(whole_words)
        self._overlapping = bool(overlapping)
        self._tags = labels
        # a pattern that is not UTF-8 could match inside a str's character
        # (all ASCII: one check over the joined patterns)
        self._boundaries = not (b"".join(compiled).isascii() or all(_utf8(p) for p in compiled))
        self._engine = _engine.Engine(compiled, fold is not None, index_of, len(given), labels)

    def __len__(self):
        return len(self._patterns)

    def __repr__(self):
        return "acgrep.Set(<%d patterns>, ignore_case=%r, whole_words=%r, overlapping=%r)" % (
            len(self._patterns), self._ignore_case or False, self._whole_words,
            self._overlapping)

    @property
    def patterns(self):
        """The patterns as given, as bytes (str ones encoded UTF-8)."""
        return list(self._patterns)

    def save(self, path):
        """Writes the set to path as a compiled pattern set that
        acgrep.load and `acgrep -F --compiled=PATH` load instead of
        compiling: `LC_ALL=C acgrep -F --compiled=PATH` with -i where
        ignore_case, -w where whole_words, and -a where a pattern holds a
        NUL byte (the options a compiled set searches with are the ones it
        was compiled with).  tags, when given, must be str (saved as UTF-8)
        or bytes.  overlapping is the search's, not saved.  The file is
        written beside path, then renamed over it.  Raises ValueError for
        ignore_case="unicode" (grep folds otherwise), a pattern holding a
        newline (which a grep pattern never holds) or a tag neither str
        nor bytes, OSError when the file cannot be written."""
        if self._ignore_case == "unicode":
            raise ValueError("ignore_case=\"unicode\" has no compiled form: acgrep -i folds "
                             "otherwise (save with ignore_case=\"ascii\")")
        for i, p in enumerate(self._patterns):
            if b"\n" in p:
                raise ValueError("pattern %d holds a newline, which separates grep's patterns" % i)
        names = tag_of = None
        if self._tags is not None:
            named = {}
            for i, t in enumerate(self._tags):
                if not isinstance(t, (str, bytes)):
                    raise ValueError("tag %d: str or bytes can be saved, not %s"
                                     % (i, type(t).__name__))
                named.setdefault(t.encode("utf-8") if isinstance(t, str) else t, len(named))
            names = list(named)
            tag_of = array.array("I", (named[t.encode("utf-8") if isinstance(t, str) else t]
                                       for t in self._tags)).tobytes()
        _engine.save(os.fspath(path), self._patterns, self._ignore_case == "ascii",
                     self._whole_words, names, tag_of)

    def _args(self, data):
        return (data, self._overlapping, self._whole_words, self._boundaries)

    def find_iter(self, data):
        """The matches in data, as (start, end, index or tag) tuples:
        data[start:end] is the match.  data: bytes, bytearray, memoryview
        (or any buffer of bytes: read in place, not copied) or str (offsets
        in characters of the str; the scan reads its UTF-8 form).  The scan
        runs once, without the GIL, before the first match is returned."""
        return self._engine.matches(*self._args(data))

    def find_arrays(self, data):
        """The matches find_iter(data) yields, as three memoryviews of
        native integers: the starts and the ends (format "Q") and the
        pattern indexes (format "I"; indexes, not tags), made in C without
        a Python object per match (list(find_iter) costs about six times
        the scan on a text full of matches).  numpy.asarray takes them as
        they are."""
        starts, ends, indexes = self._engine.arrays(*self._args(data))
        return memoryview(starts).cast("Q"), memoryview(ends).cast("Q"), memoryview(indexes).cast("I")

    def count(self, data):
        """The number of matches find_iter(data) yields, without making them."""
        return self._engine.count(*self._args(data))

    def contains(self, data):
        """Whether data holds a match; stops at the first one found."""
        return self._engine.contains(*self._args(data))

    def search_file(self, path, *, decompress=False):
        """find_iter over the bytes of the file at path, mapped (mmap) where
        it is a non-empty regular file, read otherwise.  decompress=True:
        a file that starts as gzip, xz, zstd or bzip2 data is searched
        decompressed, as acgrep --decompress does, by the same decoders
        (members one after another; ValueError for a format this build
        has no library for, OSError for damaged data), any other file as
        it is.  Offsets are in the bytes searched."""
        if decompress:
            data = _engine.decompressed(os.fspath(path))
            if data is not None:
                return self.find_iter(data)
        with open(path, "rb") as f:
            st = os.fstat(f.fileno())
            if not (st.st_size > 0 and os.path.stat.S_ISREG(st.st_mode)):
                return self.find_iter(f.read())
            with mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as m:
                return self.find_iter(m)


def load(path, *, overlapping=False):
    """The Set of the compiled pattern set at path, written by Set.save or
    `acgrep -F --save-compiled=PATH`, without compiling it again: its
    patterns, their tags (as str; bytes where a tag is not UTF-8) and the
    options it was compiled with (-i: ignore_case="ascii"; -w:
    whole_words), scanning as that Set would.  overlapping is the
    search's.  The file is read once and checked (checksum, tables):
    ValueError for a file that is damaged, not a compiled set, or one
    whose options the module cannot honour (-E/-G, -x, -w in a UTF-8
    locale, -i that grep folds beyond ASCII, an empty pattern); OSError
    when it cannot be read."""
    with open(path, "rb") as f:
        data = f.read()
    try:
        engine, patterns, tags, ignore_case, whole_words = _engine.load_image(data)
    except ValueError as e:
        raise ValueError("%s: %s" % (os.fsdecode(path), e)) from None
    for i, p in enumerate(patterns):
        if not p:
            raise ValueError("%s: pattern %d is empty (it would match at every position)"
                             % (os.fsdecode(path), i))
    s = Set.__new__(Set)
    s._patterns = patterns
    s._ignore_case = "ascii" if ignore_case else None
    s._whole_words = whole_words
    s._overlapping = bool(overlapping)
    s._tags = tags
    s._boundaries = not all(_utf8(p) for p in patterns)
    s._engine = engine
    return s

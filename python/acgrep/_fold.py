# SPDX-License-Identifier: MIT
"""Unicode case folding for acgrep.Set(ignore_case="unicode"): a pattern
becomes the list of its case variants, each searched for as bytes.

Owns the rule: two characters match each other when they have the same
key, key(c) being c.upper().lower() (each step kept only where it gives
one character, else skipped).  So "k", "K" and KELVIN SIGN match each other,
"s", "S" and LONG S do, "ß" and "ẞ" do, but "ß" never matches "ss" (a
variant is as long as its pattern in characters).  ASCII case is left to
the engine's folding; a variant differs from its pattern only in non-ASCII
characters or in ASCII characters whose class holds a non-ASCII one.
"""

# A pattern with more variants than this is refused (ValueError), never cut.
MAX_VARIANTS = 1 << 16

_classes = None


def _key(c):
    u = c.upper()
    if len(u) != 1:
        u = c
    low = u.lower()
    return low if len(low) == 1 else u


def _class_table():
    """char -> the characters of its class that differ from it beyond
    ASCII case (itself first), for every character in a class of more
    than one.  Built once, on first use (about a second)."""
    global _classes
    if _classes is None:
        groups = {}
        for cp in range(0x110000):
            if 0xD800 <= cp <= 0xDFFF:
                continue
            c = chr(cp)
            k = _key(c)
            if k != c or c.upper() != c:
                groups.setdefault(k, set()).add(c)
        table = {}
        for k, members in groups.items():
            members.add(k)
            if len(members) < 2:
                continue
            for c in members:
                # one member per ASCII-case class: the engine folds the rest
                seen = {c.lower() if c.isascii() else c}
                alts = [c]
                for m in sorted(members):
                    norm = m.lower() if m.isascii() else m
                    if norm not in seen:
                        seen.add(norm)
                        alts.append(m)
                if len(alts) > 1:
                    table[c] = alts
        _classes = table
    return _classes


def variants(pattern):
    """The UTF-8 byte strings pattern (bytes) matches under the rule, the
    pattern itself first; [pattern] for bytes that are not UTF-8.  Raises
    ValueError past MAX_VARIANTS."""
    try:
        text = pattern.decode("utf-8")
    except UnicodeDecodeError:
        return [pattern]
    table = _class_table()
    choices = [table.get(c, (c,)) for c in text]
    total = 1
    for alts in choices:
        total *= len(alts)
        if total > MAX_VARIANTS:
            raise ValueError("pattern %r has more than %d Unicode case variants"
                             % (text[:40], MAX_VARIANTS))
    if total == 1:
        return [pattern]
    out = [""]
    for alts in choices:
        out = [head + c for head in out for c in alts]
    return [v.encode("utf-8") for v in out]

#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""json_check.py - checks acgrep --json output against its inputs.

Usage: json_check.py OUTPUT [--patterns FILE] [--eol nl|nul] [--no-summary]
       [--stdin FILE] [--label NAME]

Reads the JSON Lines in OUTPUT with Python's json module (strict: every
line one object) and checks, field by field:
  - the records: per input begin, then match/context records, then end, the
    path the same in all of them; one summary last;
  - every field's type and the fields' order (ripgrep's);
  - text values: {"text": str} only for valid UTF-8, {"bytes": base64}
    otherwise, decoded to the bytes they stand for;
  - a line's bytes are the input's at absolute_offset, its line_number the
    count of line terminators before it plus one;
  - each submatch's start/end slice its match out of the line, the pattern
    number names a pattern of the list (--patterns: one per line) whose
    text is its tag;
  - end stats: bytes_printed is the size of the input's records before it;
    matched_lines/matches at least the records'/submatches' counts
    (equal when nothing stopped the output: exact=True unless --inexact);
  - the summary's stats are the sums of the end records' (at least, with
    --inexact: inputs that output no record count there too).
Prints the number of records checked; exits 1 with a message on the first
problem.  The input files are read by path (--stdin FILE stands in for the
path --label NAME, default "(standard input)").
"""
import base64
import bisect
import json
import sys


def fail(msg):
    print("json_check: " + msg, file=sys.stderr)
    sys.exit(1)


def text_of(v, what):
    if not isinstance(v, dict) or len(v) != 1:
        fail("%s: not a text value: %r" % (what, v))
    if "text" in v:
        if not isinstance(v["text"], str):
            fail("%s: text is not a string" % what)
        return v["text"].encode("utf-8", "surrogatepass")
    if "bytes" in v:
        raw = base64.b64decode(v["bytes"], validate=True)
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError:
            return raw
        fail("%s: valid UTF-8 sent as bytes: %r" % (what, raw))
    fail("%s: neither text nor bytes: %r" % (what, v))


def keys(rec, want, what):
    if list(rec.keys()) != want:
        fail("%s: keys %s, expected %s" % (what, list(rec.keys()), want))


def is_count(v):
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


def check_duration(d, what, sorted_keys):
    order = ["human", "nanos", "secs"] if sorted_keys else ["secs", "nanos", "human"]
    keys(d, order, what)
    if not (is_count(d["secs"]) and is_count(d["nanos"]) and d["nanos"] < 10**9):
        fail("%s: bad duration %r" % (what, d))
    if not (isinstance(d["human"], str) and d["human"].endswith("s")):
        fail("%s: bad human %r" % (what, d))


def main():
    args = sys.argv[1:]
    out = args.pop(0)
    patterns, eol, summary, stdin, label, exact = None, b"\n", True, None, "(standard input)", True
    while args:
        a = args.pop(0)
        if a == "--patterns":
            with open(args.pop(0), "rb") as f:
                patterns = f.read().split(b"\n")
                if patterns and patterns[-1] == b"":
                    patterns.pop()
        elif a == "--eol":
            eol = b"\0" if args.pop(0) == "nul" else b"\n"
        elif a == "--no-summary":
            summary = False
        elif a == "--stdin":
            stdin = args.pop(0)
        elif a == "--label":
            label = args.pop(0)
        elif a == "--inexact":
            exact = False
        else:
            fail("unknown argument " + a)

    with open(out, "rb") as f:
        lines = f.read().split(b"\n")
    if lines[-1] != b"":
        fail("output does not end in a newline")
    recs, sizes = [], []
    for i, raw in enumerate(lines[:-1]):
        sizes.append(len(raw) + 1)
        try:
            recs.append(json.loads(raw.decode("utf-8")))
        except (ValueError, UnicodeDecodeError) as e:
            fail("line %d is not JSON: %s: %r" % (i + 1, e, raw[:200]))

    cache = {}
    eols = {}  # a path's offsets of its line terminators, for line numbers

    def data_of(path):
        name = path.decode("utf-8", "surrogateescape")
        if stdin is not None and name == label:
            name = stdin
        if name not in cache:
            with open(name, "rb") as f:
                cache[name] = f.read()
        return cache[name]

    def line_number_at(path, off):
        """1 + the line terminators before offset off of path's input."""
        if path not in eols:
            data, at, found = data_of(path), [], -1
            while (found := data.find(eol, found + 1)) >= 0:
                at.append(found)
            eols[path] = at
        return bisect.bisect_left(eols[path], off) + 1

    cur = None  # the path of the input whose records are open
    n_match = n_sub = 0
    ends = []
    n = 0
    for i, r in enumerate(recs):
        what = "record %d" % (i + 1)
        t = r.get("type")
        if t == "summary":
            keys(r, ["data", "type"], what)
            if i != len(recs) - 1 or cur is not None:
                fail("%s: summary is not last" % what)
            d = r["data"]
            keys(d, ["elapsed_compile", "elapsed_total", "stats"], what)
            check_duration(d["elapsed_compile"], what, True)
            check_duration(d["elapsed_total"], what, True)
            s = d["stats"]
            keys(s, ["bytes_printed", "bytes_searched", "elapsed", "lines_searched", "matched_lines",
                     "matches", "patterns", "patterns_seen", "searches", "searches_with_match"], what)
            check_duration(s["elapsed"], what, True)
            for k in ("bytes_printed", "matched_lines", "matches", "searches_with_match"):
                total = sum(e[k] for e in ends)
                if s[k] != total if exact else s[k] < total:
                    fail("%s: summary %s %d, the end records add up to %d" % (what, k, s[k], total))
            if s["searches"] < len(ends) or s["bytes_searched"] < sum(e["bytes_searched"] for e in ends):
                fail("%s: summary counts fewer searches or bytes than the end records" % what)
            if patterns is not None and s["patterns"] != len(patterns):
                fail("%s: patterns %d, %d given" % (what, s["patterns"], len(patterns)))
            if s["patterns_seen"] > s["patterns"]:
                fail("%s: more patterns seen than given" % what)
            n += 1
            continue
        keys(r, ["type", "data"], what)
        d = r["data"]
        if t == "begin":
            keys(d, ["path"], what)
            if cur is not None:
                fail("%s: begin inside an input" % what)
            cur = text_of(d["path"], what + " path")
            n_match = n_sub = 0
            printed = 0
        elif t in ("match", "context"):
            keys(d, ["path", "lines", "line_number", "absolute_offset", "submatches"], what)
            if text_of(d["path"], what) != cur:
                fail("%s: path is not the begin record's" % what)
            line = text_of(d["lines"], what + " lines")
            off, num = d["absolute_offset"], d["line_number"]
            if not (is_count(off) and is_count(num) and num >= 1):
                fail("%s: bad offset or line number" % what)
            data = data_of(cur)
            if data[off:off + len(line)] != line:
                fail("%s: lines %r are not the input's bytes at %d: %r" % (what, line, off, data[off:off + len(line)]))
            if off > 0 and data[off - 1:off] not in (eol, b"\0"):
                fail("%s: offset %d is not a line start" % (what, off))
            if line_number_at(cur, off) != num:
                fail("%s: line_number %d, the line is number %d" % (what, num, line_number_at(cur, off)))
            prev_end = 0
            for k, sm in enumerate(d["submatches"]):
                sw = "%s submatch %d" % (what, k + 1)
                keys(sm, ["match", "start", "end", "pattern", "tag"], sw)
                m = text_of(sm["match"], sw)
                st, en = sm["start"], sm["end"]
                if not (is_count(st) and is_count(en) and prev_end <= st < en <= len(line)):
                    fail("%s: bounds %r out of order or of the line" % (sw, (st, en)))
                if line[st:en] != m:
                    fail("%s: line[%d:%d] is %r, match %r" % (sw, st, en, line[st:en], m))
                prev_end = en
                p, tag = sm["pattern"], text_of(sm["tag"], sw + " tag")
                if not (is_count(p) and p >= 1):
                    fail("%s: bad pattern number %r" % (sw, p))
                if patterns is not None:
                    if p > len(patterns):
                        fail("%s: pattern %d of %d" % (sw, p, len(patterns)))
                    if tag != patterns[p - 1]:
                        fail("%s: tag %r is not pattern %d %r" % (sw, tag, p, patterns[p - 1]))
            if t == "match":
                n_match += 1
                n_sub += len(d["submatches"])
        elif t == "end":
            keys(d, ["path", "binary_offset", "stats"], what)
            if cur is None or text_of(d["path"], what) != cur:
                fail("%s: end without its begin" % what)
            b = d["binary_offset"]
            if b is not None and not (is_count(b) and data_of(cur)[b:b + 1] == b"\0"):
                fail("%s: binary_offset %r is not at a NUL byte" % (what, b))
            s = d["stats"]
            keys(s, ["elapsed", "searches", "searches_with_match", "bytes_searched", "bytes_printed",
                     "matched_lines", "matches"], what)
            check_duration(s["elapsed"], what, False)
            if s["searches"] != 1 or s["searches_with_match"] not in (0, 1):
                fail("%s: bad searches" % what)
            if exact and (s["matched_lines"] != n_match or s["matches"] != n_sub):
                fail("%s: matched_lines %d / matches %d, the records hold %d / %d"
                     % (what, s["matched_lines"], s["matches"], n_match, n_sub))
            if s["matched_lines"] < n_match or s["matches"] < n_sub:
                fail("%s: fewer matched lines or matches than the records hold" % what)
            if s["bytes_printed"] != printed:
                fail("%s: bytes_printed %d, the records before it hold %d" % (what, s["bytes_printed"], printed))
            if s["bytes_searched"] > len(data_of(cur)):
                fail("%s: more bytes searched than the input has" % what)
            ends.append(s)
            cur = None
        else:
            fail("%s: unknown type %r" % (what, t))
        if cur is not None:
            printed += sizes[i]
        n += 1
    if cur is not None:
        fail("the last input has no end record")
    if summary and (not recs or recs[-1].get("type") != "summary"):
        fail("no summary record")
    print(n)


main()

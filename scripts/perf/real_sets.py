#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""real_sets.py - the texts real_sets.sh searches, and the check of their counts.

  real_sets.py urls     BLOCKLIST OUT BYTES     a proxy and DNS log (URLs, hosts)
  real_sets.py reads    ADAPTERS.tsv OUT BYTES  FASTQ reads with adapters planted
  real_sets.py maclog   OUI.tsv OUT BYTES       a DHCP/RADIUS/firewall syslog
  real_sets.py crosscheck [-i] (-f LIST | --tagged-file LIST)
                        per-pattern rows from `grep -F -o -n` output on stdin

Each generator is a pure function of its list and BYTES (random.Random with
a fixed seed: the same file on every machine with the same packages); it
stops at the first line past BYTES and prints, as `planted<TAB>N` lines on
stdout, what it put in on purpose (the number of lines built around a listed
domain, per adapter the reads it was planted in, MAC addresses of a listed
vendor).  Those are not the counts a search reports: fixed strings also
match by chance (an OUI in a syslog time, a short domain inside another
name), which is why real_sets.sh counts with tests/diff/pattern_oracle.py
and checks that with GNU grep.

crosscheck reads grep's `LINENO:MATCH` lines and credits each match as
acgrep's per-pattern report does (pattern_oracle.Patterns: the first listed
pattern equal to it, under -i ASCII-folded; its tag): the rows of
`--count-per-pattern` built from grep's matches instead of the oracle's.
"""
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'tests', 'diff'))
import pattern_oracle  # noqa: E402

MONTH = 'Dec'


def syslog_time(t):
    """'Dec  1 08:00:27' for t seconds after Dec 1 00:00:00."""
    d, s = divmod(int(t), 86400)
    return '%s %2d %02d:%02d:%02d' % (MONTH, d + 1, s // 3600, s // 60 % 60, s % 60)


def zipf_pick(rng, seq, s=1.1):
    """An element of seq, the first ones far more often (rank r with weight ~1/r^s)."""
    # inverse of the continuous CDF of 1/x^s on [1, n+1)
    n = len(seq)
    u = rng.random()
    a = 1.0 - s
    r = ((((n + 1) ** a) - 1.0) * u + 1.0) ** (1.0 / a)
    return seq[min(int(r) - 1, n - 1)]


class Out:
    """Writes lines until BYTES are written (the line that crosses stays)."""

    def __init__(self, path, limit):
        self.f = open(path, 'w', encoding='ascii', newline='\n')
        self.limit, self.n = limit, 0

    def full(self):
        return self.n >= self.limit

    def line(self, s):
        self.f.write(s)
        self.f.write('\n')
        self.n += len(s) + 1

    def close(self):
        self.f.close()


def read_lines(path):
    with open(path, encoding='utf-8') as f:
        return [ln.rstrip('\n') for ln in f if ln.strip()]


def tagged(path):
    """(tag, pattern) of a TAG<TAB>PATTERN list (pattern_oracle's rules)."""
    with open(path, 'rb') as f:
        return [(t.decode(), p.decode()) for p, t in pattern_oracle.tagged_entries(f.read(), path)]


# ---- the URL and DNS log ---------------------------------------------------------

SYLL = ['ba', 'ko', 'ri', 'ta', 'me', 'lu', 'zen', 'par', 'vo', 'ni', 'sta', 'gro', 'fi', 'del',
        'mar', 'tek', 'lo', 'sun', 'ca', 'dro', 'pi', 'nor', 'we', 'xa', 'qui', 'bel', 'mon', 'ter']
TLDS = ['com'] * 8 + ['net'] * 3 + ['org'] * 2 + ['io', 'de', 'co.uk', 'fr', 'nl', 'info', 'eu']
SUBS = ['www', 'cdn', 'static', 'api', 'img', 'm', 'assets', 'media', 'login', 'mail']
EXTS = ['js', 'css', 'png', 'jpg', 'gif', 'html', 'json', 'woff2', 'svg', 'php']
MIME = {'js': 'application/javascript', 'css': 'text/css', 'png': 'image/png', 'jpg': 'image/jpeg',
        'gif': 'image/gif', 'html': 'text/html', 'json': 'application/json', 'woff2': 'font/woff2',
        'svg': 'image/svg+xml', 'php': 'text/html'}


def word(rng, lo=2, hi=4):
    return ''.join(rng.choice(SYLL) for _ in range(rng.randint(lo, hi)))


def gen_urls(blocklist, out_path, limit):
    """A squid access.log and dnsmasq query log of 200 clients: 1 line in 8
    names a host of the blocklist (a listed domain or a subdomain of one,
    popular ones far more often), the others hosts of 20,000 made-up sites;
    1 request in 20 carries another host in its query string (a referrer)."""
    rng = random.Random(20261201)
    listed = read_lines(blocklist)
    rng.shuffle(listed)  # popularity ranks: not the sorted order
    sites = sorted({'%s.%s' % (word(rng), rng.choice(TLDS)) for _ in range(20000)})
    rng.shuffle(sites)
    clients = ['192.168.%d.%d' % (rng.randint(0, 3), rng.randint(2, 254)) for _ in range(200)]
    out = Out(out_path, limit)
    t = 1764547200.0  # 2025-12-01 00:00:00 UTC
    planted = 0
    def host():
        if rng.random() < 0.125:
            d = zipf_pick(rng, listed)
            r = rng.random()
            if r < 0.5:
                return d, True
            return ('%s.%s' % (rng.choice(SUBS), d) if r < 0.85 else
                    '%s%d.%s' % (word(rng, 1, 2), rng.randint(1, 99), d)), True
        d = zipf_pick(rng, sites, 1.05)
        return ('%s.%s' % (rng.choice(SUBS), d) if rng.random() < 0.6 else d), False
    while not out.full():
        t += rng.expovariate(40.0)
        h, hit = host()
        c = zipf_pick(rng, clients, 0.8)
        if rng.random() < 0.3:  # dnsmasq: the query and its answer
            planted += 2 * hit
            ts = syslog_time(t - 1764547200.0)
            out.line('%s gw dnsmasq[812]: query[%s] %s from %s' % (ts, rng.choice(['A', 'A', 'AAAA', 'HTTPS']), h, c))
            out.line('%s gw dnsmasq[812]: reply %s is 203.0.%d.%d' % (ts, h, rng.randint(0, 255), rng.randint(1, 254)))
            continue
        ext = rng.choice(EXTS)
        path = '/'.join(word(rng, 1, 3) for _ in range(rng.randint(1, 4)))
        url = 'https://%s/%s.%s' % (h, path, ext)
        if rng.random() < 0.3:
            url += '?id=%d&v=%x' % (rng.randint(1, 10 ** 6), rng.getrandbits(32))
        planted += hit
        if rng.random() < 0.05:
            ref, hit = host()
            planted += hit
            url += '%sref=https%%3A%%2F%%2F%s%%2F' % ('&' if '?' in url else '?', ref)
        if rng.random() < 0.15:
            out.line('%.3f %6d %s TCP_TUNNEL/200 %d CONNECT %s:443 - HIER_DIRECT/203.0.113.%d -' % (
                t, rng.randint(5, 90000), c, rng.randint(200, 900000), h, rng.randint(1, 254)))
        else:
            out.line('%.3f %6d %s %s %d GET %s - HIER_DIRECT/203.0.113.%d %s' % (
                t, rng.randint(1, 3000), c, rng.choice(['TCP_MISS/200', 'TCP_MISS/200', 'TCP_HIT/200',
                                                        'TCP_MISS/304', 'TCP_MISS/404']),
                rng.randint(200, 500000), url, rng.randint(1, 254), MIME[ext]))
    out.close()
    print('planted\t%d\tlisted hosts written (in a line or a referrer)' % planted)


# ---- the FASTQ reads -------------------------------------------------------------

READ_LEN = 101
# per adapter (in list order): the fraction of reads it is planted in
ADAPTER_RATES = [0.05, 0.01, 0.005, 0.02, 0.001]


def gen_reads(adapters_tsv, out_path, limit):
    """Illumina-style reads of 101 bases (CASAVA 1.8 headers, binned
    qualities), uniform random bases with an N in 1 read of 50; each
    adapter of the list planted whole in a fraction of the reads
    (ADAPTER_RATES, at most one per read), at a random offset from 20 on:
    read-through of short inserts.  Qualities are drawn from F : , # and J,
    which hold no T, so no adapter (each has a T) matches in them."""
    rng = random.Random(20261202)
    ads = tagged(adapters_tsv)
    rates = ADAPTER_RATES[:len(ads)] + [0.002] * max(0, len(ads) - len(ADAPTER_RATES))
    planted = [0] * len(ads)
    out = Out(out_path, limit)
    qual = 'FFFFFFFFFF:::,#J'
    n = 0
    tile, x = 1101, 1000
    while not out.full():
        n += 1
        x += rng.randint(1, 40)
        if x > 30000:
            tile, x = tile + 1, 1000
        seq = [rng.choice('ACGT') for _ in range(READ_LEN)]
        if rng.random() < 0.02:
            seq[rng.randrange(READ_LEN)] = 'N'
        u = rng.random()
        for i, r in enumerate(rates):
            if u < r:
                a = ads[i][1]
                p = rng.randint(20, READ_LEN - len(a))
                seq[p:p + len(a)] = a
                planted[i] += 1
                break
            u -= r
        out.line('@SIM:1:FCX0042:1:%d:%d:%d 1:N:0:ATCACG' % (tile, x, rng.randint(1000, 30000)))
        out.line(''.join(seq))
        out.line('+')
        out.line(''.join(rng.choice(qual) for _ in range(READ_LEN)))
    out.close()
    print('reads\t%d' % n)
    for (tag, a), p in zip(ads, planted):
        print('planted\t%d\t%s\t%s' % (p, a, tag))


# ---- the MAC address log ------------------------------------------------------------

def mac_of(rng, prefix=None):
    b = [rng.randrange(256) for _ in range(6)]
    if prefix is None:  # a randomised (locally administered, unicast) MAC
        b[0] = (b[0] & 0xFC) | 0x02
    else:
        b[0:3] = prefix
    return b


def gen_maclog(oui_tsv, out_path, limit):
    """A gateway's syslog: dnsmasq-dhcp and ISC dhcpd leases (MACs in
    lower-case colon form), FreeRADIUS logins (upper-case hyphen form,
    as its Calling-Station-Id), netfilter drops (MAC=dst:src:type) and
    unrelated sshd/cron lines.  Syslog times (HH:MM:SS) look like colon-form
    OUIs and some are listed (00:00:00-00:00:09 are Xerox's): matches by
    chance that a user meets too.  5,000 devices: 60% from the 20 vendors with
    the most OUIs, 25% from any listed OUI, 15% randomised MACs (locally
    administered, as phones use per network), some busy, most quiet."""
    rng = random.Random(20261203)
    rows = tagged(oui_tsv)
    ouis, vendor_of = [], {}
    for tag, p in rows:
        if ':' in p:
            b = tuple(int(x, 16) for x in p.split(':'))
            if b not in vendor_of:
                vendor_of[b] = tag
                ouis.append(b)
    count = {}
    for v in vendor_of.values():
        count[v] = count.get(v, 0) + 1
    top = sorted(count, key=lambda v: (-count[v], v))[:20]
    top_ouis = [o for o in ouis if vendor_of[o] in top]
    devices = []
    for i in range(5000):
        u = rng.random()
        if u < 0.60:
            m = mac_of(rng, rng.choice(top_ouis))
        elif u < 0.85:
            m = mac_of(rng, rng.choice(ouis))
        else:
            m = mac_of(rng)
        devices.append((m, '%s-%d' % (rng.choice(['iphone', 'galaxy', 'laptop', 'printer', 'tv', 'cam',
                                                    'desktop', 'tablet', 'ap', 'nas']), i),
                        '10.%d.%d.%d' % (rng.randint(0, 3), rng.randint(0, 255), rng.randint(2, 254))))
    rng.shuffle(devices)
    gateway = mac_of(rng, rng.choice(top_ouis))  # the router's own MAC: netfilter's MAC= dst
    users = ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace', 'heidi']
    out = Out(out_path, limit)
    t = 0.0
    planted = 0
    def colon(m):
        return ':'.join('%02x' % x for x in m)
    def hyphen(m):
        return '-'.join('%02X' % x for x in m)
    while not out.full():
        t += rng.expovariate(2.0)
        ts = syslog_time(t)
        m, host, ip = zipf_pick(rng, devices, 0.9)
        listed = tuple(m[:3]) in vendor_of
        u = rng.random()
        if u < 0.35:
            iface = rng.choice(['br0', 'br0', 'wlan0'])
            kind = rng.choice(['DHCPDISCOVER', 'DHCPREQUEST', 'DHCPACK', 'DHCPACK'])
            if kind == 'DHCPDISCOVER':
                out.line('%s gw dnsmasq-dhcp[812]: %s(%s) %s' % (ts, kind, iface, colon(m)))
            elif kind == 'DHCPREQUEST':
                out.line('%s gw dnsmasq-dhcp[812]: %s(%s) %s %s' % (ts, kind, iface, ip, colon(m)))
            else:
                out.line('%s gw dnsmasq-dhcp[812]: %s(%s) %s %s %s' % (ts, kind, iface, ip, colon(m), host))
        elif u < 0.55:
            out.line('%s dhcp1 dhcpd[1402]: DHCPACK on %s to %s (%s) via eth1' % (ts, ip, colon(m), host))
        elif u < 0.70:
            out.line('%s radius1 radiusd[977]: (%d) Login OK: [%s] (from client ap-%d port 0 cli %s)' % (
                ts, rng.randint(1, 99999), rng.choice(users), rng.randint(1, 12), hyphen(m)))
        elif u < 0.85:
            out.line('%s gw kernel: [%d.%06d] DROP IN=br0 OUT= MAC=%s:%s:08:00 SRC=%s DST=10.0.0.1 '
                     'LEN=%d TOS=0x00 PREC=0x00 TTL=64 ID=%d DF PROTO=TCP SPT=%d DPT=%d WINDOW=64240 SYN' % (
                         ts, int(t), rng.randrange(10 ** 6), colon(gateway),
                         colon(m), ip, rng.randint(40, 1500), rng.randint(1, 65535), rng.randint(1024, 65535),
                         rng.choice([22, 80, 443, 445, 3389])))
        else:
            if rng.random() < 0.5:
                out.line('%s gw CRON[%d]: (root) CMD (command -v debian-sa1 > /dev/null && debian-sa1 1 1)' % (
                    ts, rng.randint(1000, 60000)))
            else:
                out.line('%s gw sshd[%d]: Accepted publickey for %s from 198.51.100.%d port %d ssh2' % (
                    ts, rng.randint(1000, 60000), rng.choice(users), rng.randint(1, 254), rng.randint(1024, 65535)))
            continue
        planted += listed
    out.close()
    print('planted\t%d\tMAC addresses of a listed vendor written' % planted)


# ---- grep's matches, credited -------------------------------------------------------------

def crosscheck(argv):
    import argparse
    ap = argparse.ArgumentParser(prog='real_sets.py crosscheck')
    ap.add_argument('-i', action='store_true')
    # grep already applied these; a match is credited the same way with them
    ap.add_argument('-w', action='store_true')
    ap.add_argument('-x', action='store_true')
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument('-f')
    g.add_argument('--tagged-file')
    a = ap.parse_args(argv)
    with open(a.f or a.tagged_file, 'rb') as f:
        data = f.read()
    entries = (pattern_oracle.tagged_entries(data, a.tagged_file) if a.tagged_file
               else pattern_oracle.plain_entries(data))
    pats = pattern_oracle.Patterns(entries, ignore_case=a.i, tagged=bool(a.tagged_file))
    nk = len(pats.names)
    matches, lines, last = [0] * nk, [0] * nk, [0] * nk
    for ln in sys.stdin.buffer:
        no, _, text = ln.rstrip(b'\n').partition(b':')
        k = pats.credit(pats.first[pats.fold(text)])
        matches[k] += 1
        n = int(no)
        if last[k] != n:
            last[k] = n
            lines[k] += 1
    out = sys.stdout.buffer
    for k, name in enumerate(pats.names):
        if matches[k]:
            out.write(b'%d\t%d\t1\t%s\n' % (matches[k], lines[k], name))


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    cmd = sys.argv[1]
    if cmd == 'crosscheck':
        return crosscheck(sys.argv[2:])
    gens = {'urls': gen_urls, 'reads': gen_reads, 'maclog': gen_maclog}
    if cmd not in gens or len(sys.argv) != 5:
        sys.exit(__doc__)
    gens[cmd](sys.argv[2], sys.argv[3], int(sys.argv[4]))


if __name__ == '__main__':
    main()

#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Regenerate examples/access.log: synthetic web-server log lines in the
Combined Log Format, for `make demo` (acgrep -F -f examples/iocs.txt).

Deterministic: a fixed seed and a fixed start time, no clock, no network.
Every address is from the documentation or private ranges and every host
name under .example/.test/.invalid, so nothing here is a real indicator.

    python3 examples/gen-access-log.py > examples/access.log
"""

import random
import sys

LINES = 2000
SEED = 20240229

rng = random.Random(SEED)

# ordinary visitors
CLIENTS = (["192.0.2.%d" % i for i in range(10, 60)]
           + ["198.51.100.%d" % i for i in range(2, 40)]
           + ["10.20.%d.%d" % (i % 4, 10 + i) for i in range(20)])
# hostile sources (some listed in iocs.txt)
BAD_CLIENTS = ["203.0.113.66", "203.0.113.7", "198.51.100.250", "192.0.2.201", "203.0.113.145"]

UAS = [
    "Mozilla/5.0 (X11; Linux x86_64) Firefox/115.0",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/120.0",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 13_5) Safari/605.1.15",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 16_6) Mobile/15E148",
    "Googlebot/2.1 (+http://www.google.com/bot.html)",
    "curl/7.88.1",
    "Wget/1.21.3",
]
BAD_UAS = [
    "sqlmap/1.7.2#stable (https://sqlmap.org)",
    "Mozilla/5.00 (Nikto/2.5.0) (Evasions:None) (Test:000001)",
    "masscan/1.3 (https://github.com/robertdavidgraham/masscan)",
    "python-requests/2.28.1",
    "Go-http-client/1.1",
    "zgrab/0.x",
    "WPScan v3.8.24 (https://wpscan.com/wordpress-security-scanner)",
]

PAGES = ["/", "/index.html", "/about", "/contact", "/blog/", "/blog/2024/01/hello-world",
         "/blog/2024/02/release-notes", "/products/widget-a", "/products/widget-b",
         "/search?q=widgets", "/search?q=blue+widget", "/cart", "/checkout", "/login",
         "/static/css/site.css", "/static/js/app.js", "/static/img/logo.png",
         "/favicon.ico", "/robots.txt", "/sitemap.xml", "/api/v1/items?page=2",
         "/api/v1/items/1842", "/docs/install", "/docs/faq"]
BAD_PATHS = ["/wp-login.php", "/xmlrpc.php", "/.env", "/.git/config",
             "/cgi-bin/luci/;stok=/locale", "/index.php?page=../../../../etc/passwd",
             "/search?q=1%27%20OR%20%271%27=%271", "/phpmyadmin/index.php",
             "/boaform/admin/formLogin", "/shell.php?cmd=id",
             "/api/v1/items?id=1%20UNION%20SELECT%20password%20FROM%20users",
             "/?url=http://malware-drop.test/payload.sh",
             "/login?next=https://phish-login.example/verify"]
REFERERS = ["-", "-", "-", "-", "-", "-", "-", "https://www.shop.example/", "https://www.shop.example/blog/",
            "https://search.example/?q=widgets", "https://news.example/tech"]
BAD_REFERERS = ["http://free-prizes.invalid/win", "https://phish-login.example/verify",
                "http://c2.badcdn.test/gate.php"]

MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]


def stamp(t):
    """t: seconds since 2024-02-01 00:00:00 (a 29-day month, no DST)."""
    day, rest = divmod(t, 86400)
    h, rest = divmod(rest, 3600)
    m, s = divmod(rest, 60)
    return "%02d/%s/2024:%02d:%02d:%02d +0000" % (1 + day, MONTHS[1], h, m, s)


def main():
    out = sys.stdout
    t = 6 * 3600
    for _ in range(LINES):
        t += rng.choice([0, 1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 120, 300])
        hostile = rng.random() < 0.06
        if hostile:
            ip = rng.choice(BAD_CLIENTS) if rng.random() < 0.7 else rng.choice(CLIENTS)
            ua = rng.choice(BAD_UAS) if rng.random() < 0.6 else rng.choice(UAS)
            path = rng.choice(BAD_PATHS) if rng.random() < 0.7 else rng.choice(PAGES)
            ref = rng.choice(BAD_REFERERS) if rng.random() < 0.3 else "-"
            status = rng.choice([404, 404, 403, 400, 200, 301, 500])
            method = rng.choice(["GET", "GET", "POST", "HEAD"])
        else:
            ip = rng.choice(CLIENTS)
            ua = rng.choice(UAS)
            path = rng.choice(PAGES)
            ref = rng.choice(REFERERS)
            status = rng.choice([200] * 12 + [304, 304, 301, 404, 500])
            method = "POST" if path in ("/checkout", "/login") and rng.random() < 0.5 else "GET"
        size = 0 if status in (304,) or method == "HEAD" else rng.randint(120, 48000)
        out.write('%s - - [%s] "%s %s HTTP/1.1" %d %d "%s" "%s"\n'
                  % (ip, stamp(t), method, path, status, size, ref, ua))


if __name__ == "__main__":
    main()

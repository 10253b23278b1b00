#!/usr/bin/env python3
"""Every link of the project's Markdown stays inside the repository and leads
somewhere.

Scans README.md, CONTRIBUTING.md, docs/*.md, rules/*.md, examples/README.md
and fixtures/README.md for Markdown links (inline links and images, reference
definitions, and href/src attributes of inline HTML), outside code blocks and
code spans. A link fails when

  - it leaves the repository: a file:// URL, an absolute path, or a relative
    path whose ../ climbs above the root (http, https and mailto links to
    outside sources, such as the SARIF specification, are allowed);
  - its target file does not exist;
  - its #anchor is no heading of the target Markdown file (GitHub's slugs:
    lowercase, spaces to '-', punctuation other than '-' and '_' dropped,
    -1, -2, ... for repeated headings) nor an explicit id or name in it.

When cmark-gfm (Debian package cmark-gfm) is on PATH, each page is also
rendered to HTML and the links of the rendered page are checked the same way,
so a link this scanner misreads cannot slip through; without it that step is
skipped.

Each broken link is printed as file:line: 'target': why. Exit status: 0 all
links good, 1 a broken link, 2 bad usage.

usage: check_links.py <repository root>
"""
import glob
import html
import os
import re
import shutil
import subprocess
import sys
import urllib.parse

PAGES = ["README.md", "CONTRIBUTING.md", "docs/*.md", "rules/*.md", "examples/README.md",
         "fixtures/README.md"]
EXTERNAL_SCHEMES = ("http", "https", "mailto")

FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
CODE_SPAN = re.compile(r"(`+)(?:[^\n]|\n(?![ \t]*\n))*?(?<!`)\1(?!`)")
# [text](target "title") and ![alt](target): the text may hold one level of
# brackets, the target one level of parentheses.
INLINE_LINK = re.compile(
    r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*(<[^<>\n]*>|(?:[^()\s]|\([^()\s]*\))*)"
    r"(?:\s+(?:\"[^\"]*\"|'[^']*'|\([^()]*\)))?\s*\)")
REFERENCE_DEFINITION = re.compile(r"^ {0,3}\[[^\]]+\]:[ \t]*\n?[ \t]*(<[^<>\n]*>|\S+)", re.M)
AUTOLINK = re.compile(r"<([a-zA-Z][a-zA-Z0-9+.-]{1,31}:[^<>\s]*)>")
HTML_ATTRIBUTE = re.compile(r"<[a-zA-Z][^>]*?\b(?:href|src)\s*=\s*(\"[^\"]*\"|'[^']*')")
HTML_ANCHOR = re.compile(r"<[a-zA-Z][^>]*?\b(?:id|name)\s*=\s*(\"[^\"]*\"|'[^']*')")
ATX_HEADING = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
SETEXT_UNDERLINE = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")


def prose_lines(text):
    """(line number, line) of the text outside fenced code blocks; indented
    code is rare in these pages and left in (it holds no links)."""
    fence = None
    for number, line in enumerate(text.split("\n"), 1):
        opened = FENCE.match(line)
        if fence:
            if opened and opened.group(1)[0] == fence[0] and len(opened.group(1)) >= len(fence) \
                    and not line.strip()[len(opened.group(1)):].strip():
                fence = None
            continue
        if opened:
            fence = opened.group(1)
            continue
        yield number, line


def without_code(text):
    """The text with fenced code blocks and code spans blanked out, line
    numbers and offsets kept."""
    lines = text.split("\n")
    prose = dict(prose_lines(text))
    kept = "\n".join(prose.get(number, "") for number in range(1, len(lines) + 1))
    return CODE_SPAN.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), kept)


def links(text):
    """[(line number, target)] of every link of a Markdown page; a link's text
    may run over several lines."""
    prose = without_code(text)
    found = []
    for pattern, decode in ((INLINE_LINK, False), (REFERENCE_DEFINITION, False),
                            (HTML_ATTRIBUTE, True), (AUTOLINK, False)):
        for match in pattern.finditer(prose):
            target = match.group(1)
            if decode:
                target = html.unescape(target[1:-1])
            elif target.startswith("<"):
                target = target[1:-1]
            found.append((prose.count("\n", 0, match.start(1)) + 1, target))
    return sorted(found)


def slug(heading):
    """GitHub's anchor of a heading's text."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # links: their text
    text = re.sub(r"<[^>]+>", "", text)  # inline HTML tags
    text = text.replace("`", "").lower()
    text = "".join(c for c in text if c.isalnum() or c in " -_")
    return text.replace(" ", "-")


def anchors(text):
    """The anchors a Markdown page defines: its headings' slugs (repeats get
    -1, -2, ...) and explicit id/name attributes."""
    found = set()
    seen = {}
    previous = None
    for _, line in prose_lines(text):
        heading = None
        atx = ATX_HEADING.match(line)
        if atx:
            heading = atx.group(2) or ""
        elif previous is not None and previous.strip() and SETEXT_UNDERLINE.match(line) \
                and not ATX_HEADING.match(previous):
            heading = previous.strip()
        if heading is not None:
            base = slug(heading.strip())
            count = seen.get(base, 0)
            found.add(base if count == 0 else f"{base}-{count}")
            seen[base] = count + 1
        for match in HTML_ANCHOR.finditer(line):
            found.add(html.unescape(match.group(1)[1:-1]))
        previous = line
    return found


class Checker:
    def __init__(self, root):
        self.root = os.path.realpath(root)
        self.anchor_cache = {}

    def anchors_of(self, path):
        if path not in self.anchor_cache:
            with open(path, encoding="utf-8") as f:
                self.anchor_cache[path] = anchors(f.read())
        return self.anchor_cache[path]

    def problem(self, page, target):
        """Why a link of `page` is broken, or None."""
        if not target:
            return "an empty link"
        scheme = re.match(r"^([a-zA-Z][a-zA-Z0-9+.-]*):", target)
        if scheme:
            name = scheme.group(1).lower()
            if name in EXTERNAL_SCHEMES:
                return None
            if name == "file":
                return "a file:// link leaves the repository"
            return f"a {name}: link leaves the repository"
        if target.startswith("//"):
            return "a protocol-relative URL leaves the repository"
        path, _, anchor = target.partition("#")
        path = urllib.parse.unquote(path.split("?", 1)[0])
        anchor = urllib.parse.unquote(anchor)
        if path.startswith("/") or re.match(r"^[A-Za-z]:[\\/]", path):
            return "an absolute path leaves the repository"
        full = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
        if os.path.relpath(full, self.root).split(os.sep)[0] == "..":
            return "leaves the repository (../ above its root)"
        if not os.path.exists(full):
            return f"no such file: {os.path.relpath(full, self.root)}"
        real = os.path.realpath(full)
        if os.path.relpath(real, self.root).split(os.sep)[0] == "..":
            return "a symbolic link out of the repository"
        if anchor:
            if not full.endswith(".md") or os.path.isdir(full):
                return None  # anchors of other files (line anchors of code) are not checked
            if anchor not in self.anchors_of(full):
                return f"no heading '#{anchor}' in {os.path.relpath(full, self.root)}"
        return None


def rendered_links(page):
    """The href/src targets of cmark-gfm's HTML of a page; None without cmark-gfm."""
    tool = shutil.which("cmark-gfm")
    if not tool:
        return None
    rendered = subprocess.run([tool, "--unsafe", "-e", "table", page],
                              capture_output=True, text=True, timeout=60)
    if rendered.returncode != 0:
        raise RuntimeError(f"cmark-gfm failed on {page}: {rendered.stderr.strip()}")
    return [html.unescape(m.group(2)) for m in
            re.finditer(r"<(?:a|img)\b[^>]*?\b(href|src)=\"([^\"]*)\"", rendered.stdout)]


def main(argv):
    if len(argv) != 2 or argv[1].startswith("-"):
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    root = argv[1]
    if not os.path.isdir(root):
        print(f"check_links.py: not a directory: {root}", file=sys.stderr)
        return 2
    checker = Checker(root)
    pages = sorted({path for pattern in PAGES
                    for path in glob.glob(os.path.join(checker.root, pattern))})
    broken = 0
    count = 0
    rendered_pages = 0
    for page in pages:
        name = os.path.relpath(page, checker.root)
        with open(page, encoding="utf-8") as f:
            text = f.read()
        found = links(text)
        count += len(found)
        for number, target in found:
            why = checker.problem(page, target)
            if why:
                print(f"{name}:{number}: '{target}': {why}")
                broken += 1
        # cmark-gfm percent-encodes what it renders; compare decoded targets.
        seen = {urllib.parse.unquote(target) for _, target in found}
        rendered = rendered_links(page)
        if rendered is None:
            continue
        rendered_pages += 1
        for target in rendered:
            if urllib.parse.unquote(target) in seen or \
                    re.match(r"^(?:https?|mailto):", target, re.I):
                continue
            why = checker.problem(page, target)
            # Links the scanner did not see are reported even when they are
            # good: the scanner has to learn their form.
            print(f"{name}: '{target}': in the page rendered by cmark-gfm but not found by "
                  f"the scanner{'; ' + why if why else ''}")
            broken += 1
    rendering = (f"; {rendered_pages} rendered with cmark-gfm" if rendered_pages
                 else "; cmark-gfm not found, pages not rendered")
    print(f"check_links: {count} links in {len(pages)} pages, {broken} broken{rendering}")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

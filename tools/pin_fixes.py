#!/usr/bin/env python3
"""Writes the CHECK-FIXES lines of annotated test cases (see test_cases/check_gradlint.py).

For each case whose findings carry a fix-it, fixes a copy with gradlint and
pins each changed place of the fixed code as exact lines, next to the code it
replaces: the line before the change (more when that line is not the first of
its kind since the previous pin), then the new lines with -NEXT; a deletion is
pinned as the two lines that are now adjacent. Safe fixes are pinned with
CHECK-FIXES (`gradlint --fix`), unsafe ones with CHECK-FIXES-UNSAFE
(`gradlint --fix --unsafe-fixes`). The [[@LINE+-k]] references of the other
annotations are renumbered around the inserted lines. Every written case is
then run through check_gradlint.py. Review the pins: they record what the fix
does now, which is what the test then holds it to.

usage: pin_fixes.py <gradlint> <case.cpp>... [--force]
  --force  replace the pins of cases that have them (default: skip those)
"""
import difflib
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "test_cases"))
from check_gradlint import (ANNOTATION_LINE, FIX_PREFIXES, compiler_args,  # noqa: E402
                            fix_kinds, fixed_text)

LINE_REF = re.compile(r"\[\[@LINE([+-]\d+)?\]\]")
FIX_PIN = re.compile(r"^\s*//\s*CHECK-FIXES(-UNSAFE)?(-[A-Z]+)?:")


class Line:
    """One source line; an annotation keeps the Line its [[@LINE+-k]] points at."""

    def __init__(self, text):
        self.text = text
        self.targets = []


def parse(text):
    lines = [Line(t) for t in text.split("\n")]
    for i, line in enumerate(lines):
        for match in LINE_REF.finditer(line.text):
            line.targets.append(lines[i + int(match.group(1) or 0)])
    return lines


def render(lines):
    index = {id(line): i for i, line in enumerate(lines)}
    out = []
    for i, line in enumerate(lines):
        targets = iter(line.targets)

        def renumber(_):
            offset = index[id(next(targets))] - i
            return "[[@LINE]]" if offset == 0 else f"[[@LINE{offset:+d}]]"
        out.append(LINE_REF.sub(renumber, line.text))
    return "\n".join(out)


def escape(code):
    """Literal code as a FileCheck pattern ({{ and [[ would open a regex or a variable)."""
    return code.replace("{{", "{{[{][{]}}").replace("[[", "{{[[][[]}}")


def complete(code):
    """Whether a line ends a statement (a pin may follow it)."""
    body = code.split("//", 1)[0].rstrip()
    return not body or body.lstrip().startswith("#") or body.endswith((";", "{", "}", ":"))


def pin_blocks(before, after):
    """[(anchor, pinned)]: each place the fix changes, in order; `anchor` is the
    last line of `before` at or above the change, `pinned` the indices of the
    lines of `after` that pin it."""
    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    blocks, last = [], -1
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        if j2 > j1:  # new lines, after the line before them
            start, end = j1 - 1, j2 - 1
            if start < 0:
                start, end = 0, min(j2, len(after) - 1)
        else:  # a deletion: the two lines it makes adjacent
            start, end = max(j1 - 1, 0), min(j1, len(after) - 1)
        anchor = max(i2 - 1 if i2 > i1 else i1 - 1, 0)
        # Its first line must be a line of code that is the first of its kind
        # after the previous pin (FileCheck takes the first match).
        while start > last + 1 and (not after[start] or after[start] in after[last + 1:start]):
            start -= 1
        if blocks and start <= last + 1:  # touches the previous pin: one block
            first = blocks[-1][1][0]
            last = max(last, end)
            blocks[-1] = (blocks[-1][0], list(range(first, last + 1)))
            continue
        blocks.append((anchor, list(range(start, end + 1))))
        last = end
    return blocks, {i for tag, i1, i2, _, _ in matcher.get_opcodes() if tag != "equal"
                    for i in range(i1, i2)}


def pin(gradlint, path, force):
    with open(path, encoding="utf-8") as handle:
        original = handle.read()
    lines = parse(original)
    had_pins = any(FIX_PIN.match(line.text) for line in lines)
    if had_pins and not force:
        return "has pins (--force replaces them)"
    lines = [line for line in lines if not FIX_PIN.match(line.text)]
    text = render(lines)
    args = compiler_args("model", None)
    _, output = fixed_text(gradlint, text, os.path.basename(path), [], args)
    kinds = fix_kinds(output)
    code = [i for i, line in enumerate(lines) if not ANNOTATION_LINE.match(line.text)]
    before = [lines[i].text for i in code]
    inserts = []  # (line index to insert after, comment lines)
    for prefix, options, kind in FIX_PREFIXES:
        if not kinds[kind]:
            continue
        fixed, _ = fixed_text(gradlint, text, os.path.basename(path), options, args)
        after = [t for t in fixed.split("\n") if not ANNOTATION_LINE.match(t)]
        position = -1
        blocks, changed = pin_blocks(before, after)
        for anchor, pinned in blocks:
            # After the statement the anchor line is part of, and after the
            # annotations of that statement.
            while (not complete(before[anchor]) and anchor + 1 < len(before) and
                   anchor + 1 not in changed):
                anchor += 1
            at = code[anchor]
            while at + 1 < len(lines) and ANNOTATION_LINE.match(lines[at + 1].text):
                at += 1
            position = max(position, at)
            # Indented like the code that follows (inside a block that a
            # closing brace ends).
            following = before[anchor + 1] if anchor + 1 < len(before) else ""
            indent = re.match(r"\s*", following).group(0)
            if following.lstrip().startswith("}"):
                indent += "  "
            comments = [f"{indent}// {prefix}-EMPTY:" if n and not after[j] else
                        f"{indent}// {prefix}{'-NEXT' if n else ''}: {{{{^}}}}{escape(after[j])}{{{{$}}}}"
                        for n, j in enumerate(pinned)]
            inserts.append((position, comments))
    if not inserts:
        if had_pins:
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(text)
            return "no fix-it: pins removed"
        return "no fix-it"
    # Insert from the bottom so that earlier indices stay valid; blocks at the
    # same place keep their order.
    for _, position, comments in sorted(((n, p, c) for n, (p, c) in enumerate(inserts)),
                                        key=lambda t: (t[1], t[0]), reverse=True):
        for comment in reversed(comments):
            lines.insert(position + 1, Line(comment))
    written = render(lines)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(written)
    run = subprocess.run([sys.executable, os.path.join(ROOT, "test_cases", "check_gradlint.py"),
                          gradlint, path], capture_output=True, text=True)
    if run.returncode != 0:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(original)
        return "FAILED, left as it was:\n" + run.stdout + run.stderr
    return f"pinned {sum(len(c) for _, c in inserts)} lines"


def main():
    args = [a for a in sys.argv[1:] if a != "--force"]
    if len(args) < 2:
        sys.exit(__doc__)
    gradlint, paths = args[0], args[1:]
    failed = False
    for path in paths:
        result = pin(gradlint, path, "--force" in sys.argv[1:])
        failed |= result.startswith("FAILED")
        print(f"{path}: {result}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

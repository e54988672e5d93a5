#!/usr/bin/env python3
"""labcheck.py IVX [--update] [FILE.md...] — the labs in docs/labs/ are
their own golden tests.

Every ```console block of a lab is a transcript: a line `$ COMMAND` is a
shell command as the student types it from the top of the tree, and the
lines after it, up to the next `$ ` line, are what it prints (stdout and
stderr). When the lines after `$ build/ivx ARGS` include `(ivx) CMD`
lines, it is an explorer session: the `(ivx)` lines are typed at the
explorer's prompt, and the other lines are what the console shows; the
check runs them as a batch script (`ivx -x`), which prints the same.
Commands run with LC_ALL=C (ASCII panes) and `build/ivx` replaced by
IVX, with HOME in a temporary directory that lives as long as the lab's
check: one lab's commands share it (a lab writes the files it reads back,
databases and the like, under `~/`), and each lab starts with it empty.
--update rewrites the outputs in place (then review the diff). Exit status 1 if any transcript differs.
"""
import os
import subprocess
import sys
import tempfile
import time


def parse(path):
    """[(start_line, end_line, [(cmd, [ivx_cmds], expected_lines)])] per block."""
    lines = open(path).read().split("\n")
    blocks, i = [], 0
    while i < len(lines):
        if lines[i].strip() == "```console":
            j = i + 1
            while j < len(lines) and lines[j].strip() != "```":
                j += 1
            sessions, cur = [], None
            for ln in lines[i + 1:j]:
                if ln.startswith("$ "):
                    cur = [ln[2:], [], []]
                    sessions.append(cur)
                elif cur is not None:
                    if ln.startswith("(ivx) "):
                        cur[1].append(ln[6:])
                    cur[2].append(ln)
            blocks.append((i, j, sessions))
            i = j
        i += 1
    return lines, blocks


MARK = "@@labcheck@@"


def transcript(ivx_cmds, out):
    """The session as the lab shows it: each (ivx) line, then its output."""
    parts = out.split(MARK + "\n")
    body = []
    for k, c in enumerate(ivx_cmds):
        body.append("(ivx) " + c)
        if k < len(parts) and parts[k]:
            body += parts[k].rstrip("\n").split("\n") if parts[k].strip("\n") or parts[k] != "\n" else [""]
    rest = MARK.join(parts[len(ivx_cmds):])
    if rest:
        body += rest.rstrip("\n").split("\n")
    return body


def run(ivx, tmp, cmd, ivx_cmds):
    env = dict(os.environ, LC_ALL="C", HOME=tmp)
    env.pop("NO_COLOR", None)
    if ivx_cmds:
        if not cmd.startswith("build/ivx"):
            return None, "an explorer session must start with `$ build/ivx ...`"
        script = os.path.join(tmp, "session.ivx")
        with open(script, "w") as f:
            for c in ivx_cmds:   # a marker after each command splits the output
                f.write(c + "\necho " + MARK + "\n")
        cmd = "build/ivx -x " + script + cmd[len("build/ivx"):]
    cmd = cmd.replace("build/ivx", ivx)
    p = subprocess.run(["sh", "-c", cmd], env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=60)
    out = p.stdout.decode(errors="replace")
    if ivx_cmds:   # an error names the script's line; on the screen there is none
        import re
        out = re.sub(re.escape(script) + r":[0-9]+: ", "", out)
    return out, None


def main():
    args = sys.argv[1:]
    ivx = os.path.abspath(args.pop(0))
    update = bool(args) and args[0] == "--update"
    if update:
        args.pop(0)
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    files = args or sorted(os.path.join("docs/labs", f) for f in os.listdir("docs/labs") if f.endswith(".md"))
    fail = n = 0
    slow = []
    for path in files:
        lines, blocks = parse(path)
        out_lines = list(lines)
        home = tempfile.TemporaryDirectory()   # the lab's HOME (docstring)
        tmp = home.name
        # run the blocks in the lab's order (a later one may read what an
        # earlier one wrote); replace them from the last backwards so the
        # line numbers stay valid
        replaced = []
        for start, end, sessions in blocks:
            new_body = []
            for cmd, ivx_cmds, expected in sessions:
                n += 1
                t0 = time.time()
                got, err = run(ivx, tmp, cmd, ivx_cmds)
                dt = time.time() - t0
                if err:
                    print("FAIL %s:%d: %s" % (path, start + 1, err))
                    fail += 1
                    continue
                if dt > 5:
                    slow.append("%s: %s (%.1f s)" % (path, cmd, dt))
                if ivx_cmds:
                    got_lines = transcript(ivx_cmds, got)
                    want = list(expected)
                else:
                    got_lines = got.rstrip("\n").split("\n") if got.strip() else []
                    want = [l for l in expected]
                while want and not want[-1].strip():
                    want.pop()
                while got_lines and not got_lines[-1].strip():
                    got_lines.pop()
                if update:
                    new_body += ["$ " + cmd] + got_lines
                elif got_lines != want:
                    fail += 1
                    print("FAIL %s:%d: `%s` printed something else:" % (path, start + 1, cmd))
                    import difflib
                    for d in list(difflib.unified_diff(want, got_lines, "doc", "ivx", lineterm=""))[:40]:
                        print("   " + d)
            replaced.append((start, end, new_body))
        home.cleanup()
        if update:
            for start, end, new_body in reversed(replaced):
                out_lines[start + 1:end] = new_body
            open(path, "w").write("\n".join(out_lines))
            print("updated " + path)
    for s in slow:
        print("slow (over 5 s): " + s)
    if fail:
        print("labs: %d of %d transcripts differ" % (fail, n))
        return 1
    print("labs: %d transcripts in %d labs match" % (n, len(files)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""selftests-in-tree.py: selftests/ as the series' last patch.

selftests/ is the one source of the fault-around selftests.  The series
carries them under tools/testing/selftests/mm/; this script derives that
tree content from selftests/, so that the patch is generated, never edited.

  commit GITTREE MSGFILE
        on top of HEAD of GITTREE, commit (without touching its checkout,
        index or branches) the tests copied into tools/testing/selftests/mm/
        and added to its Makefile, .gitignore and run_vmtests.sh (category
        "faultaround") and to MAINTAINERS, with the message in MSGFILE;
        print the commit's id
  check GITTREE MSGFILE [REV]
        TAP: REV (default HEAD) of GITTREE changes exactly what "commit"
        would make of REV~1, with the message in MSGFILE, i.e. the patch
        and selftests/ agree; exit 1 when they do not

The test list is TESTS in selftests/Makefile; a test whose source includes
<liburing.h> is built only where the mm Makefile found liburing.
"""
import os
import re
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SRC = os.path.join(TOP, "selftests")
MM = "tools/testing/selftests/mm"
CATEGORY = "faultaround"


def tests():
    text = open(os.path.join(SRC, "Makefile")).read()
    m = re.search(r"^TESTS\s*:=\s*(.*)$", text, re.M)
    if not m:
        sys.exit("selftests/Makefile has no TESTS line")
    return m.group(1).split()


def copied_files():
    """The files copied verbatim: the tests' sources and what they share."""
    names = [t + ".c" for t in tests()]
    names += sorted(f for f in os.listdir(SRC)
                    if f.startswith("fa_util.") and f.endswith((".c", ".h")))
    return names


def needs_liburing(test):
    src = open(os.path.join(SRC, test + ".c")).read()
    return re.search(r"^#include <liburing\.h>", src, re.M) is not None


def insert_after(text, anchor, new, what):
    """Insert @new after the first line that is exactly @anchor."""
    lines = text.split("\n")
    if anchor not in lines:
        sys.exit("%s: line '%s' not found; the kernel tree changed" % (what, anchor))
    i = lines.index(anchor) + 1
    return "\n".join(lines[:i] + new + lines[i:])


def edit_makefile(text):
    plain = [t for t in tests() if not needs_liburing(t)]
    uring = [t for t in tests() if needs_liburing(t)]
    lists = ["TEST_GEN_FILES += " + t for t in plain]
    if uring:
        lists += ["ifneq ($(IOURING_EXTRA_LIBS),)"]
        lists += ["TEST_GEN_FILES += " + t for t in uring]
        lists += ["endif"]
    text = insert_after(text, "TEST_GEN_FILES += droppable", lists, "mm/Makefile")
    text = insert_after(text, "LOCAL_HDRS += $(selfdir)/mm/mseal_helpers.h",
                        ["LOCAL_HDRS += $(selfdir)/mm/fa_util.h"], "mm/Makefile")
    rules = ["", "$(filter $(OUTPUT)/faultaround_%,$(TEST_GEN_FILES)): fa_util.c"]
    for t in uring:
        rules += ["", "$(OUTPUT)/%s: LDLIBS += $(IOURING_EXTRA_LIBS)" % t]
    return insert_after(text, "$(OUTPUT)/gup_longterm: LDLIBS += $(IOURING_EXTRA_LIBS)",
                        rules, "mm/Makefile")


def edit_gitignore(text):
    return text.rstrip("\n") + "\n" + "".join(t + "\n" for t in tests())


def edit_run_vmtests(text):
    """The category and its first test come with the series' first part
    (fault_around_advice, the advice that sizes the window); these tests
    run after it."""
    runs = []
    for t in tests():
        run = 'CATEGORY="%s" run_test ./%s' % (CATEGORY, t)
        if needs_liburing(t):
            # built only where the Makefile found liburing
            run = "[ -x ./%s ] && %s" % (t, run)
        runs.append(run)
    return insert_after(text, 'CATEGORY="%s" run_test ./fault_around_advice' % CATEGORY,
                        runs, "run_vmtests.sh")


def edit_maintainers(text):
    """The new files join part 1's selftest in MEMORY MANAGEMENT - CORE, in
    the order checkpatch wants: fa_util.*, fault_around_advice.c,
    faultaround_*."""
    anchor = "F:\t%s/fault_around_advice.c" % MM
    lines = text.split("\n")
    if anchor not in lines:
        sys.exit("MAINTAINERS: line '%s' not found; the kernel tree changed" % anchor)
    i = lines.index(anchor)
    return "\n".join(lines[:i] + ["F:\t%s/fa_util.*" % MM, anchor,
                                   "F:\t%s/%s_*" % (MM, CATEGORY)] + lines[i + 1:])


EDITS = {
    MM + "/Makefile": edit_makefile,
    MM + "/.gitignore": edit_gitignore,
    MM + "/run_vmtests.sh": edit_run_vmtests,
    "MAINTAINERS": edit_maintainers,
}


def generated(read_old):
    """{path: text} of every file the patch adds or changes; @read_old(path)
    returns a file of the tree the patch applies to, or None."""
    files = {}
    for name in copied_files():
        if read_old(MM + "/" + name) is not None:
            sys.exit("%s/%s exists already: the tree has the selftests patch" % (MM, name))
        files[MM + "/" + name] = open(os.path.join(SRC, name)).read()
    for path, edit in EDITS.items():
        old = read_old(path)
        if old is None:
            sys.exit("%s missing from the kernel tree" % path)
        files[path] = edit(old)
    return files


def git(tree, *args, **kw):
    r = subprocess.run(["git", "-C", tree] + list(args), capture_output=True,
                       text=True, **kw)
    if r.returncode:
        sys.exit("git %s: %s" % (" ".join(args[:2]), r.stderr.strip()))
    return r.stdout


def commit(tree, msgfile):
    """Commit the generated files on top of HEAD of the git tree @tree
    without touching its checkout, index or branches (a private index);
    author and dates are HEAD's, so the same input gives the same commit.
    Prints the new commit's id."""
    env = dict(os.environ, GIT_INDEX_FILE=os.path.join(
        git(tree, "rev-parse", "--absolute-git-dir").strip(), "faultaround-selftests.index"))
    fmt = "%an%n%ae%n%ad%n%cn%n%ce%n%cd"
    an, ae, ad, cn, ce, cd = git(tree, "log", "-1", "--date=raw", "--format=" + fmt,
                                 "HEAD").split("\n")[:6]
    env.update(GIT_AUTHOR_NAME=an, GIT_AUTHOR_EMAIL=ae, GIT_AUTHOR_DATE=ad,
               GIT_COMMITTER_NAME=cn, GIT_COMMITTER_EMAIL=ce, GIT_COMMITTER_DATE=cd)
    git(tree, "read-tree", "HEAD", env=env)
    for path, text in generated(lambda p: git_show(tree, "HEAD", p)).items():
        blob = git(tree, "hash-object", "-w", "--stdin", input=text).strip()
        mode = git(tree, "ls-tree", "HEAD", path).split(" ")[0] or "100644"
        git(tree, "update-index", "--add", "--cacheinfo", "%s,%s,%s" % (mode, blob, path),
            env=env)
    treeid = git(tree, "write-tree", env=env).strip()
    os.unlink(env["GIT_INDEX_FILE"])
    sha = git(tree, "commit-tree", treeid, "-p", "HEAD", "-F", os.path.abspath(msgfile),
              env=env).strip()
    print(sha)


def git_show(tree, rev, path):
    r = subprocess.run(["git", "-C", tree, "show", "%s:%s" % (rev, path)],
                       capture_output=True, text=True)
    return r.stdout if r.returncode == 0 else None


def check(tree, msgfile, rev="HEAD"):
    results = []
    msg = git(tree, "log", "-1", "--format=%B", rev).strip()
    results.append((msg == open(msgfile).read().strip(),
                    "the selftests patch's message is %s" % os.path.basename(msgfile)))
    want = generated(lambda p: git_show(tree, rev + "~1", p))
    for path, text in sorted(want.items()):
        results.append((git_show(tree, rev, path) == text,
                        "%s is generated from selftests/" % path))
    # The patch touches nothing else; no file of a removed test lingers.
    changed = subprocess.run(["git", "-C", tree, "diff", "--name-only", rev + "~1", rev],
                             capture_output=True, text=True, check=True).stdout.split()
    results.append((sorted(changed) == sorted(want),
                    "the selftests patch changes exactly the generated files"))
    bad = 0
    for i, (ok, what) in enumerate(results, 1):
        print("%s %d %s" % ("ok" if ok else "not ok", i, what))
        bad += not ok
    if bad:
        print("# kernel/patches disagrees with selftests/: run scripts/series-export.sh")
    return 1 if bad else 0


def main(argv):
    if len(argv) == 3 and argv[0] == "commit":
        commit(argv[1], argv[2])
        return 0
    if len(argv) in (3, 4) and argv[0] == "check":
        return check(*argv[1:4])
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/env python3
"""
Runs a command and prints its wall time and the CPU time of it and of every process it started, those left
running by their parent included (verify-adapter's worker, a CLI's children): /usr/bin/time counts only the
children their parents waited for. Linux only (it becomes the subreaper of the command's processes).

    python3 bench/tree-cpu.py npx vitest run --project db test/storage/orm-init.db.test.ts
"""
import ctypes
import os
import resource
import subprocess
import sys
import time

PR_SET_CHILD_SUBREAPER = 36
ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
start = time.monotonic()
code = subprocess.Popen(sys.argv[1:]).wait()
wall = time.monotonic() - start
while True:
    try:
        os.wait()
    except ChildProcessError:
        break
used = resource.getrusage(resource.RUSAGE_CHILDREN)
print(
    f"tree-cpu: wall {wall:.2f} s, cpu {used.ru_utime + used.ru_stime:.2f} s "
    f"(user {used.ru_utime:.2f}, sys {used.ru_stime:.2f}), exit {code}",
    file=sys.stderr,
)
sys.exit(code)

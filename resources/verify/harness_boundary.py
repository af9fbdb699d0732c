"""Boundary checks: calls a build left out must raise a Python error, never kill the process.

A compact build (FlashAttention 3 with head size 128 only, say) has no kernel for what it left
out. A user's program that makes such a call must get an exception it can read, not a
segmentation fault. Each boundary check runs one such call in a child process of the same
interpreter, so that a crash cannot take the harness down, and classifies what happened:

* ``raised``: a Python exception (its type and message are kept: the report shows them);
* ``ran``: the call returned (the case says whether that was expected); where the setup also
  defines ``check(result) -> (ok, detail)``, ``ran-correct`` or ``wrong`` instead (``ok`` may
  also be an outcome's name, e.g. ``"crashed"`` when a process the call started died);
* ``crashed``: the process died from a signal or an abort (exit code 134/139, ...);
* ``hung``: no answer within the time limit (the child is killed).

Only ``raised`` passes where the call is left out of the build; a crash or a hang fails the
verification with a plain reason. Needs only the standard library.
"""

from __future__ import annotations

import atexit
import concurrent.futures
import json
import os
import signal
import subprocess
import sys

import harness_common as hc

MARK = "@@KSW-BOUNDARY@@ "
TIMEOUT_S = 120.0
# a verification's boundary calls run this many at once (each its own process: a crash still
# takes only its own); the sweep (scripts/boundary_sweep.py) runs its calls one at a time
PARALLEL = 4

# the fallback child (no os.fork): defines say(), then runs the same code as a forked child
_CHILD = r"""
import json, sys
def say(outcome, message=""):
    sys.stdout.write("\n" + %(mark)r + json.dumps({"outcome": outcome, "message": message}) + "\n")
    sys.stdout.flush()
SETUP = %(setup)r
"""

_SIGNALS = {getattr(signal, n): n for n in ("SIGSEGV", "SIGABRT", "SIGBUS", "SIGILL", "SIGFPE",
                                            "SIGKILL") if hasattr(signal, n)}


def _signal_words(code):
    """'a segmentation fault (SIGSEGV)' for a child killed by a signal (negative code, or
    128 + signal from a shell)."""
    number = -code if code < 0 else code - 128 if code > 128 else 0
    name = _SIGNALS.get(number, "")
    words = {"SIGSEGV": "a segmentation fault", "SIGABRT": "an abort",
             "SIGBUS": "a bus error", "SIGILL": "an illegal instruction",
             "SIGFPE": "a floating-point exception", "SIGKILL": "being killed"}
    if name:
        return f"{words[name]} ({name}, exit code {code})"
    return f"exit code {code}"


def run_call(setup, timeout_s=TIMEOUT_S, one_gpu=False):
    """Run ``setup`` (Python source that defines ``call()`` and ``sync()``) in a child of this
    interpreter. Returns ``(outcome, message)``. ``one_gpu``: as for :func:`start_calls`."""
    code = _CHILD % {"mark": MARK, "setup": setup} + _FORKED_CHILD
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    if one_gpu:
        env["CUDA_VISIBLE_DEVICES"] = first_gpu()
    try:
        proc = subprocess.run([sys.executable, "-c", code], stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, timeout=timeout_s, env=env,
                              check=False)
    except subprocess.TimeoutExpired:
        return "hung", f"no answer within {timeout_s:.0f} s (the call was stopped)"
    text = proc.stdout.decode("utf-8", "replace")
    answer = None
    for line in text.splitlines():
        if line.startswith(MARK):
            try:
                answer = json.loads(line[len(MARK):])
            except ValueError:
                answer = None
    if proc.returncode != 0 or answer is None:
        if answer is not None and answer.get("outcome") == "ran":
            return "crashed", "the call returned, then the process ended with " + \
                _signal_words(proc.returncode)
        tail = text.strip().splitlines()[-3:]
        return "crashed", "the process ended with " + _signal_words(proc.returncode) + (
            (": " + " | ".join(tail)[:400]) if tail else "")
    return answer["outcome"], answer.get("message", "")


# The zygote: imports what every call shares (torch, the kernel's module) once, without touching
# the GPU, then forks one child per call. Each call still runs in its own process (a crash or a
# hang takes only that child), but pays for the CUDA start-up alone instead of the whole import:
# on the H200 about 1-2 s a call instead of about 12 s. Up to job["parallel"] children run at
# once (their CUDA start-ups overlap); each answer is printed as its child ends, with its index.
_ZYGOTE = r"""
import json, os, signal, sys, tempfile, time
MARK = %(mark)r
exec(%(preload)r, {})  # a zygote started ahead of its job (prestart) imports torch meanwhile
job = json.loads(sys.stdin.read())
try:
    exec(job["imports"], {})
except BaseException as exc:
    sys.stdout.write(MARK + json.dumps({"index": -1, "outcome": "setup_failed",
        "message": "%%s: %%s" %% (type(exc).__name__, str(exc)[:600])}) + "\n")
    sys.exit(0)
CHILD = job["child"]
def start(index, setup):
    sys.stdout.flush()
    sys.stderr.flush()
    r, w = os.pipe()
    printed = tempfile.TemporaryFile()  # what the call prints: its tail explains a crash
    pid = os.fork()
    if pid == 0:
        os.close(r)
        os.dup2(printed.fileno(), 1)
        os.dup2(printed.fileno(), 2)
        def say(outcome, message=""):
            os.write(w, json.dumps({"outcome": outcome, "message": message}).encode())
        try:
            exec(CHILD, {"say": say, "SETUP": setup})
        finally:
            os._exit(0)
    os.close(w)
    return {"pid": pid, "index": index, "read": r, "printed": printed,
            "deadline": time.monotonic() + job["timeout"]}
def finish(child, status):
    data = b""
    while True:
        chunk = os.read(child["read"], 65536)
        if not chunk:
            break
        data += chunk
    os.close(child["read"])
    printed = child["printed"]
    printed.seek(0)
    lines = printed.read()[-4000:].decode("utf-8", "replace").strip().splitlines()
    printed.close()
    tail = " | ".join(line.strip() for line in lines[-3:] if line.strip())[-400:]
    if status == "hung":
        row = {"outcome": "hung", "message": "no answer within %%.0f s (the call was stopped)"
               %% job["timeout"] + (": " + tail if tail else "")}
    elif os.WIFSIGNALED(status):
        row = {"outcome": "crashed", "signal": os.WTERMSIG(status), "tail": tail}
    elif not data:
        row = {"outcome": "crashed", "code": os.WEXITSTATUS(status), "tail": tail}
    else:
        row = json.loads(data.decode("utf-8", "replace"))
    row["index"] = child["index"]
    sys.stdout.write("\n" + MARK + json.dumps(row) + "\n")
    sys.stdout.flush()
waiting = list(enumerate(job["calls"]))
running = []
while waiting or running:
    while waiting and len(running) < max(1, job["parallel"]):
        running.append(start(*waiting.pop(0)))
    for child in list(running):
        done, status = os.waitpid(child["pid"], os.WNOHANG)
        if not done and time.monotonic() > child["deadline"]:
            os.kill(child["pid"], signal.SIGKILL)
            os.waitpid(child["pid"], 0)
            done, status = child["pid"], "hung"
        if done:
            running.remove(child)
            finish(child, status)
    if running:
        time.sleep(0.02)
"""

# what a forked child runs: the call's setup, the call, then its check. An exception that
# carries one of CUDA's sticky errors (a kernel that trapped or ran wild) is no error a program
# can catch and go on from: the process's GPU context is lost, every later CUDA call fails.
# That counts as a crash, not as "raised".
_FORKED_CHILD = r"""
GPU_LOST = ("unspecified launch failure", "illegal memory access", "device-side assert",
            "misaligned address", "illegal instruction was encountered")
g = {}
try:
    exec(SETUP, g)
except BaseException as exc:
    say("setup_failed", "%s: %s" % (type(exc).__name__, str(exc)[:600]))
else:
    try:
        result = g["call"]()
        g["sync"]()
    except BaseException as exc:
        text = "%s: %s" % (type(exc).__name__, str(exc)[:1500])
        lost = [words for words in GPU_LOST if words in text]
        if lost:
            say("crashed", "the GPU stopped the call (%s): this process cannot use the GPU "
                "any more; %s" % (lost[0], text))
        else:
            say("raised", text)
    else:
        judge = g.get("check")
        if judge is None:
            say("ran")
        else:
            try:
                ok, detail = judge(result)
            except BaseException as exc:
                say("check_failed", "%s: %s" % (type(exc).__name__, str(exc)[:600]))
            else:
                # a check may name the outcome itself ("crashed" where a process the call
                # started died, e.g. one of DeepEP's worker processes)
                say(ok if isinstance(ok, str) else "ran-correct" if ok else "wrong", detail)
"""


def first_gpu():
    """What ``CUDA_VISIBLE_DEVICES`` must say for a child to see only the GPU that
    ``torch.device("cuda")`` means here (the first one this process sees)."""
    visible = os.environ.get("CUDA_VISIBLE_DEVICES")
    if visible is None:
        return "0"
    return visible.split(",")[0].strip()


# zygotes started ahead of their job (:func:`prestart`): (one_gpu, process), taken in order
_READY = []
PRELOAD = "import torch\n"


def _zygote_env(one_gpu):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    if one_gpu:
        env["CUDA_VISIBLE_DEVICES"] = first_gpu()
    return env


def _spawn_zygote(one_gpu, preload):
    return subprocess.Popen([sys.executable, "-c", _ZYGOTE % {"mark": MARK, "preload": preload}],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, env=_zygote_env(one_gpu))


def prestart(count, one_gpu):
    """Start ``count`` zygotes now, each importing torch while the caller does its own start-up
    (importing torch too, then the first checks): a verification's boundary calls later take
    one each (:func:`start_calls`) and skip the seconds of that import. Measured on an H200
    (docs/recorded/h200x2-2026-11-28): the first boundary answer came 12.9 s (FlashAttention 3)
    and 5.0 s (FlashMLA) after the adapter started, most of it the zygote importing torch.
    Where ``os.fork`` is missing, does nothing. Unused ones are stopped at exit."""
    if not hasattr(os, "fork"):
        return
    if not _READY:
        atexit.register(_stop_unused)
    for _ in range(max(0, count)):
        try:
            _READY.append((one_gpu, _spawn_zygote(one_gpu, PRELOAD)))
        except OSError:
            return


def _take(one_gpu):
    for index, (gpu, proc) in enumerate(_READY):
        # one that sees only the first GPU serves calls on the CPU as well
        if (gpu or not one_gpu) and proc.poll() is None:
            del _READY[index]
            return proc
    return None


def _stop_unused():
    while _READY:
        _, proc = _READY.pop()
        try:
            proc.kill()
            proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            pass


def start_calls(imports, setups, timeout_s=TIMEOUT_S, parallel=1, one_gpu=False):
    """Start running each of ``setups`` in its own process, forked from one that runs
    ``imports`` (where ``os.fork`` exists): returns at once; :func:`finish_calls` waits for
    the answers. Started early, the shared imports (torch and the kernel: seconds) overlap the
    caller's own work. ``parallel``: how many calls run at once. ``one_gpu``: the calls use
    ``torch.device("cuda")`` only, so their processes see that GPU alone (``CUDA_VISIBLE_DEVICES``):
    a process's CUDA start-up grows with the GPUs it sees (the two boundary calls of one
    verification took about 20 s on a 4-GPU H200 machine, 1-2 s a call on a 1-GPU one:
    docs/recorded/h200x4-2026-11-28/reverify)."""
    job = json.dumps({"imports": imports, "calls": list(setups), "timeout": timeout_s,
                      "child": _FORKED_CHILD, "parallel": parallel})
    proc = _take(one_gpu) or _spawn_zygote(one_gpu, "")
    try:  # the job goes now (the zygote reads it whole first): its imports start at once
        proc.stdin.write(job.encode())
        proc.stdin.close()
    except OSError:
        pass  # it ended already: finish_calls says how
    proc.stdin = None  # sent: communicate() only reads
    return {"proc": proc, "count": len(setups),
            "limit": timeout_s * (len(setups) + 1) + 60}


def finish_calls(started):
    """The ``(outcome, message)`` of each call that :func:`start_calls` started, in order."""
    proc, count = started["proc"], started["count"]
    try:
        out, _ = proc.communicate(timeout=started["limit"])
        text = out.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        proc.kill()
        out, _ = proc.communicate()
        text = (out or b"").decode("utf-8", "replace")
    results = {}
    for line in text.splitlines():
        if line.startswith(MARK):
            try:
                row = json.loads(line[len(MARK):])
            except ValueError:
                continue
            results[row.get("index")] = row
    if -1 in results:  # the shared imports failed: every call is that failure
        row = results[-1]
        return [(row["outcome"], row["message"]) for _ in range(count)]
    answers = []
    for index in range(count):
        row = results.get(index)
        if row is None:
            answers.append(("crashed", "the process running the calls ended early: "
                            + " | ".join(text.strip().splitlines()[-3:])[:400]))
        elif row["outcome"] == "crashed" and ("signal" in row or "code" in row):
            code = -row["signal"] if "signal" in row else row["code"]
            tail = row.get("tail") or ""
            answers.append(("crashed", "the process ended with " + _signal_words(code)
                            + (": " + tail if tail else "")))
        else:
            answers.append((row["outcome"], row.get("message", "")))
    return answers


def run_calls(imports, setups, timeout_s=TIMEOUT_S, parallel=1, one_gpu=False):
    """Each of ``setups`` in its own process, forked from one that ran ``imports`` (where
    ``os.fork`` exists; elsewhere one fresh interpreter a call, see :func:`run_call`), up to
    ``parallel`` at once. Returns one ``(outcome, message)`` per setup, in order."""
    if not hasattr(os, "fork"):
        with concurrent.futures.ThreadPoolExecutor(max(1, parallel)) as pool:
            return list(pool.map(
                lambda setup: run_call(imports + "\n" + setup, timeout_s, one_gpu), setups))
    return finish_calls(start_calls(imports, setups, timeout_s, parallel, one_gpu))


def cases(entries, *, imports, device, api, expect="raised", needle=None):
    """Harness Cases for left-out calls: ``entries`` are ``(what, setup)``, ``what`` naming the
    call for people ("head size 192"). The calls start at once (see :func:`start_calls`: their
    process imports torch and the kernel while the adapter's other checks run) and are waited
    for when the first of these cases runs. ``needle``: text a raised message must contain to
    count as one a user can act on."""
    entries = list(entries)
    memo = {}
    setups = [setup for _, setup in entries]
    one_gpu = device == "cuda"
    started = (start_calls(imports, setups, parallel=PARALLEL, one_gpu=one_gpu)
               if entries and hasattr(os, "fork") else None)

    def outcome_of(index):
        if not memo:
            results = (finish_calls(started) if started is not None
                       else run_calls(imports, setups, parallel=PARALLEL, one_gpu=one_gpu))
            memo.update(enumerate(results))
        return memo[index]

    def make_run(index, what):
        def run(h, record):
            outcome, message = outcome_of(index)
            record["outcome"] = outcome
            record["message"] = message
            record["measures"] = []
            hc.log(f"boundary {what}: {outcome}" + (f" - {message[:160]}" if message else ""))
            if outcome == expect and (needle is None or needle in message):
                record["status"] = "pass"
                return
            raise hc.CaseFailure(_failure_words(what, outcome, message))
        return run

    return [
        hc.Case(f"left out: {what}", make_run(index, what), api=api, device=device,
                dtype="", causal=False, shapes={},
                extra={"boundary": True, "left_out": what})
        for index, (what, _) in enumerate(entries)
    ]


def _failure_words(what, outcome, message):
    if outcome == "crashed" and message.startswith("the GPU stopped the call"):
        return (f"A call to {what}, which this build left out, stopped the GPU ({message}) "
                "instead of raising an error that says what is missing: a program that makes "
                "this call cannot use the GPU any more. Rebuild with the wizard (its recipe "
                "makes such calls raise), or build the full variant.")
    if outcome == "crashed":
        return (f"A call to {what}, which this build left out, crashed the Python process "
                f"({message}) instead of raising an error: a program that makes this call is "
                "killed. Rebuild with the wizard (its recipe makes such calls raise), or build "
                "the full variant.")
    if outcome == "hung":
        return f"A call to {what}, which this build left out, hung ({message})."
    if outcome == "setup_failed":
        return f"The boundary check for {what} could not start: {message}"
    if outcome == "raised":
        return f"A call to {what} raised an error that does not say what to do: {message}"
    return (f"A call to {what}, which this build says it left out, ran: its result is "
            "unchecked.")

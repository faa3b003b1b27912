"""A minimal client of the Chrome DevTools Protocol over ``--remote-debugging-pipe`` (no extra dependency).

Chromium started with ``--remote-debugging-pipe`` reads protocol commands from its file descriptor 3 and
writes replies and events to file descriptor 4, each message one JSON object followed by a NUL byte. Used by
``tests/test_docs_site.py`` only: open local pages one by one, collect console errors, failed loads and
uncaught exceptions, evaluate a probe script, and optionally save a screenshot.
"""

from __future__ import annotations

import base64
import json
import os
import select
import subprocess
import time
from pathlib import Path

#: installed before any script of the page runs: errors of local resources (images, scripts) that fail to load
#: (an off-site one, such as MathJax from its CDN on a machine without a network, is not the site's error)
_LISTEN = ("window.__labeldpErrors = [];"
           "window.addEventListener('error', e => {"
           " const t = e.target; const u = t && t !== window && (t.src || t.href);"
           " if (u && !/^https?:/.test(u)) window.__labeldpErrors.push('failed to load ' + u);"
           "}, true);")


class _Pipe:
    def __init__(self, proc, write_fd, read_fd):
        self.proc, self.w, self.r = proc, write_fd, read_fd
        self.buf, self.next_id, self.events = b"", 0, []

    def _read_message(self, deadline):
        while b"\0" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("Chromium did not answer in time")
            ready, _, _ = select.select([self.r], [], [], left)
            if ready:
                chunk = os.read(self.r, 1 << 16)
                if not chunk:
                    raise RuntimeError("Chromium closed its DevTools pipe")
                self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def send(self, method, params=None, session=None, timeout=30.0):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.w, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            m = self._read_message(deadline)
            if m.get("id") == self.next_id:
                if "error" in m:
                    raise RuntimeError(f"{method}: {m['error']}")
                return m.get("result", {})
            self.events.append(m)

    def wait_event(self, method, session, timeout=30.0):
        deadline = time.monotonic() + timeout
        for i, m in enumerate(self.events):
            if m.get("method") == method and m.get("sessionId") == session:
                return self.events.pop(i)
        while True:
            m = self._read_message(deadline)
            if m.get("method") == method and m.get("sessionId") == session:
                return m
            self.events.append(m)


def _console_errors(events, session) -> list[str]:
    """Error-level console messages, log entries and uncaught exceptions of one session.

    A failed load of an off-site resource (``http(s)://``: MathJax from its CDN when there is no network) is
    not an error of the site and is left out.
    """
    out = []
    for m in events:
        if m.get("sessionId") != session:
            continue
        p = m.get("params", {})
        if m.get("method") == "Runtime.exceptionThrown":
            out.append("exception: " + json.dumps(p.get("exceptionDetails", {}))[:500])
        elif m.get("method") == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
            e = p["entry"]
            if e.get("source") == "network" and str(e.get("url", "")).startswith(("http://", "https://")):
                continue
            out.append(f"{e.get('source')}: {e.get('text')} {e.get('url', '')}")
        elif m.get("method") == "Runtime.consoleAPICalled" and p.get("type") == "error":
            out.append("console.error: " + " ".join(str(a.get("value", a.get("description", ""))) for a in p["args"]))
    return out


def open_pages(chromium: str, pages, probe: str, profile_dir: Path, screenshots=None, timeout=60.0) -> dict:
    """Open each local page in headless Chromium; return ``{page: {"probe": value, "console_errors": [...]}}``.

    ``probe`` is a JavaScript expression evaluated after the load event (its value returned as is);
    ``screenshots``, a folder, receives one full-page PNG per page.
    """
    to_child_r, to_child_w = os.pipe()
    from_child_r, from_child_w = os.pipe()

    def wire():  # in the child: its fd 3 reads our commands, its fd 4 writes its replies
        os.dup2(to_child_r, 3)
        os.dup2(from_child_w, 4)

    args = [chromium, "--headless=new", "--remote-debugging-pipe", "--no-sandbox", "--disable-gpu",
            "--no-first-run", "--no-default-browser-check", "--disable-extensions", "--allow-file-access-from-files",
            f"--user-data-dir={profile_dir}", "--window-size=1280,900", "about:blank"]
    proc = subprocess.Popen(args, preexec_fn=wire, pass_fds=(3, 4),  # kept open by close_fds, which runs after wire()
                            stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    os.close(to_child_r)
    os.close(from_child_w)
    cdp = _Pipe(proc, to_child_w, from_child_r)
    results = {}
    try:
        for page in pages:
            page = Path(page)
            target = cdp.send("Target.createTarget", {"url": "about:blank"}, timeout=timeout)["targetId"]
            session = cdp.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
            for domain in ("Page", "Runtime", "Log"):
                cdp.send(f"{domain}.enable", session=session)
            cdp.send("Page.addScriptToEvaluateOnNewDocument", {"source": _LISTEN}, session=session)
            cdp.send("Page.navigate", {"url": page.resolve().as_uri()}, session=session, timeout=timeout)
            cdp.wait_event("Page.loadEventFired", session, timeout=timeout)
            time.sleep(0.5)  # scripts run on load (the theme's) finish
            value = cdp.send("Runtime.evaluate", {"expression": probe, "returnByValue": True, "awaitPromise": True},
                             session=session, timeout=timeout)["result"].get("value")
            if screenshots:
                shot = cdp.send("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True},
                                session=session, timeout=timeout)
                Path(screenshots).mkdir(parents=True, exist_ok=True)
                name = "_".join(page.with_suffix(".png").parts[-2:])  # e.g. theory_003.png
                (Path(screenshots) / name).write_bytes(base64.b64decode(shot["data"]))
            results[page] = {"probe": value, "console_errors": _console_errors(cdp.events, session)}
            cdp.send("Target.closeTarget", {"targetId": target})
    finally:
        try:
            cdp.send("Browser.close", timeout=5)
        except Exception:
            pass
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        os.close(to_child_w)
        os.close(from_child_r)
    return results

#!/usr/bin/env python3
"""Drives headless Chromium over the DevTools protocol on a page served by `blog serve`, edits the blog's
files, and checks that the open page follows: an edited body appears without the test reloading the page,
a broken post shows the error overlay, the fix removes it, and a stylesheet change is applied without a reload.

Usage: livereload_browser.py PAGE_URL POST_FILE CSS_FILE
Prints one JSON object (the timings) and exits 0, or prints what failed and exits 1.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

import websocket  # websocket-client, from PyPI


def fail(message):
    print(message)
    sys.exit(1)


class Page:
    def __init__(self, ws_url):
        self.ws = websocket.create_connection(ws_url, timeout=10)
        self.next_id = 0

    def call(self, method, **params):
        self.next_id += 1
        ident = self.next_id
        self.ws.send(json.dumps({"id": ident, "method": method, "params": params}))
        while True:
            message = json.loads(self.ws.recv())
            if message.get("id") == ident:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        return result.get("result", {}).get("value")

    def wait_for(self, expression, what, seconds=10):
        start = time.monotonic()
        while time.monotonic() - start < seconds:
            try:
                if self.evaluate(expression):
                    return time.monotonic() - start
            except (RuntimeError, websocket.WebSocketException):
                pass  # the page is between two loads
            time.sleep(0.01)
        fail(f"timed out after {seconds} s waiting until {what}; the page shows: {self.evaluate('document.body && document.body.innerText')!r}")


def main():
    page_url, post_file, css_file = sys.argv[1:4]
    browser = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    if not browser:
        fail("no chromium on PATH (apt-get install chromium)")
    profile = tempfile.mkdtemp(prefix="blog-browser-")
    process = subprocess.Popen(
        [browser, "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
         "--remote-debugging-port=0", f"--user-data-dir={profile}", "about:blank"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        port = None
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and port is None:
            line = process.stderr.readline()
            match = re.search(r"DevTools listening on ws://[^:]+:(\d+)/", line)
            if match:
                port = match.group(1)
        if port is None:
            fail("chromium did not start its DevTools server")
        targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list"))
        page = Page(next(t for t in targets if t["type"] == "page")["webSocketDebuggerUrl"])
        page.call("Page.navigate", url=page_url)
        page.wait_for("document.readyState === 'complete' && document.body.innerText.includes('The first body.')", "the page is loaded")
        # The script's socket is open once the page has been told the build number.
        time.sleep(0.5)
        timings = {}

        original = open(post_file, encoding="utf-8").read()
        page.evaluate("window.blogServeMarker = 1")
        with open(post_file, "w", encoding="utf-8") as f:
            f.write(original.replace("The first body.", "A body edited while the page is open."))
        timings["body_edit_to_dom_s"] = page.wait_for(
            "document.body.innerText.includes('A body edited while the page is open.')", "the edited body shows")
        if page.evaluate("window.blogServeMarker === 1"):
            fail("the page changed without being reloaded by the live-reload script")

        with open(post_file, "w", encoding="utf-8") as f:
            f.write(original.replace("Date: 2024-01-02", "Date: 2024-02-31"))
        timings["error_to_overlay_s"] = page.wait_for(
            "(document.getElementById('blog-serve-error') || {}).textContent?.includes('error:')", "the error overlay shows")
        overlay = page.evaluate("document.getElementById('blog-serve-error').textContent")
        if "first.md:2:7: error:" not in overlay:
            fail(f"the overlay does not name the file and place: {overlay!r}")

        with open(post_file, "w", encoding="utf-8") as f:
            f.write(original.replace("The first body.", "Fixed again."))
        timings["fix_to_clean_page_s"] = page.wait_for(
            "!document.getElementById('blog-serve-error') && document.body.innerText.includes('Fixed again.')",
            "the overlay is gone and the fixed body shows")

        page.evaluate("window.blogServeMarker = 2")
        os.makedirs(os.path.dirname(css_file), exist_ok=True)
        with open(css_file, "w", encoding="utf-8") as f:
            f.write("body { color: rgb(102, 51, 153) }\n")
        timings["css_to_style_s"] = page.wait_for(
            "getComputedStyle(document.body).color === 'rgb(102, 51, 153)'", "the new stylesheet applies")
        if not page.evaluate("window.blogServeMarker === 2"):
            fail("a stylesheet change reloaded the page instead of swapping the stylesheet")
        print(json.dumps(timings))
    finally:
        process.kill()
        process.wait()
        shutil.rmtree(profile, ignore_errors=True)


if __name__ == "__main__":
    main()

"""static/js/tournament_clock.js under Node, with a small stand-in page: the countdown is the server's
end instant minus the server's "now" (measured from the fragment), whatever the device's own clock says,
and nothing accumulates between ticks (TDA-23: the clock is the server's)."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from tests.conftest import ROOT

NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="needs node to run the screen's script")

HARNESS = r"""
const fs = require("fs");
let deviceNow = 0;                       // the device's own clock (ms), set by each step
Date.now = () => deviceNow;
const handlers = {}, intervals = [], sent = [];
function element(attrs) {
  return { attrs, textContent: "", children: [],
    getAttribute(name) { return name in this.attrs ? String(this.attrs[name]) : null; },
    hasAttribute(name) { return name in this.attrs; },
    querySelectorAll() { return this.children; } };
}
let root = null;
global.document = {
  querySelectorAll(selector) { return root ? [root] : []; },
  querySelector(selector) { return root; },
  addEventListener(type, fn) { (handlers[type] = handlers[type] || []).push(fn); },
};
global.window = global;
global.setInterval = (fn) => intervals.push(fn);
global.setTimeout = () => 0;
function fire(type, detail) { (handlers[type] || []).forEach((fn) => fn({ detail })); }
function render(serverNow, endsAt) {          // the server sends a fragment (a new element each time)
  root = element({ "data-server-now": serverNow });
  const counter = element({ "data-countdown-to": endsAt, "data-refresh-at-zero": "" });
  root.children = [counter];
  return counter;
}
eval(fs.readFileSync(process.argv[2], "utf8"));
const steps = JSON.parse(process.argv[3]);
const out = [];
let counter = null;
for (const step of steps) {
  deviceNow = step.device;
  if (step.render) { counter = render(step.render.server_now, step.render.ends_at); }
  if (step.event === "load") { fire("DOMContentLoaded"); }
  if (step.event === "open") { fire("htmx:wsOpen", { socketWrapper: { send: (m) => sent.push(m) } }); }
  if (step.event === "message") { fire("htmx:wsAfterMessage", {}); }
  if (step.event === "tick") { intervals.forEach((fn) => fn()); }
  out.push({ text: counter.textContent, sent: sent.slice() });
}
console.log(JSON.stringify(out));
"""

SERVER_NOW = 1_795_000_000_000  # the server's clock at the first render (ms)
SEVEN_MINUTES = 7 * 60 * 1000


def run(steps: list[dict], tmp_path) -> list[dict]:
    harness = tmp_path / "harness.js"
    harness.write_text(HARNESS)
    done = subprocess.run([NODE, str(harness), str(ROOT / "static/js/tournament_clock.js"), json.dumps(steps)],
                          capture_output=True, text=True, timeout=30, check=True)
    return json.loads(done.stdout)


def test_a_device_seven_minutes_fast_shows_the_servers_time_left(tmp_path):
    ends_at = SERVER_NOW + 12 * 60 * 1000 + 300  # 12:00.3 left on the server
    device = SERVER_NOW + SEVEN_MINUTES
    shown = run([
        {"device": device, "render": {"server_now": SERVER_NOW, "ends_at": ends_at}, "event": "load"},
        {"device": device + 5_000, "event": "tick"},
        {"device": device + 65_000, "event": "tick"},
    ], tmp_path)
    assert [s["text"] for s in shown] == ["12:01", "11:56", "10:56"]


def test_the_offset_is_measured_again_at_each_render_and_never_accumulates(tmp_path):
    ends_at = SERVER_NOW + 10 * 60 * 1000
    shown = run([
        {"device": SERVER_NOW, "render": {"server_now": SERVER_NOW, "ends_at": ends_at}, "event": "load"},
        # The device's clock jumps an hour (a sleep, an NTP fix): the next render measures it again.
        {"device": SERVER_NOW + 3_600_000 + 30_000, "render": {"server_now": SERVER_NOW + 30_000, "ends_at": ends_at},
         "event": "message"},
        # Ticks that come late or rarely (a background tab) change nothing: each reads the clocks anew.
        {"device": SERVER_NOW + 3_600_000 + 90_000, "event": "tick"},
    ], tmp_path)
    assert [s["text"] for s in shown] == ["10:00", "9:30", "8:30"]


def test_past_zero_the_screen_asks_its_socket_once_for_the_current_state(tmp_path):
    ends_at = SERVER_NOW + 2_000
    shown = run([
        {"device": SERVER_NOW, "render": {"server_now": SERVER_NOW, "ends_at": ends_at}, "event": "load"},
        {"device": SERVER_NOW, "event": "open"},
        {"device": SERVER_NOW + 2_100, "event": "tick"},   # at zero: not yet (the server may still be on it)
        {"device": SERVER_NOW + 2_800, "event": "tick"},   # 0.4 to 0.7 s past it: asked
        {"device": SERVER_NOW + 3_500, "event": "tick"},   # and only once
    ], tmp_path)
    assert shown[2]["text"] == "0:00" and shown[2]["sent"] == []
    assert shown[3]["sent"] == ['{"refresh":true}'] and shown[4]["sent"] == ['{"refresh":true}']

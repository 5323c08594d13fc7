// What changed in the room, told by the server (/ws/changes, from any of its processes): the
// live pages (the lobby, the floor, the cage, the jackpot page) fetch their part again when it
// does. The message names only which part changed ({"type": "changed", "what": ["table 7",
// "jackpot"]}). A page opens one socket, however many parts listen to it; each part names the
// topics it cares about (none named: every topic), and `room` (anything may have changed)
// reaches every part. Changes that come together are answered by one fetch, and a part fetches
// at most once a second (a busy room changes many times a second); the socket dropped, it
// reconnects by itself and every part fetches once back (what changed meanwhile is not known).
// A session ended (4401) or a foreign page (1008) stops it.
const QUIET_MS = 150;
const GAP_MS = 1000;
const listeners = [];

/** Call `refresh` (throttled) when one of `topics` changes (empty: any change). */
export function onChange(refresh, topics = []) {
  let timer = null, last = 0;
  const wanted = new Set(topics);
  const soon = () => {
    if (timer !== null) return;
    const wait = Math.max(QUIET_MS, last + GAP_MS - Date.now());
    timer = setTimeout(() => { timer = null; last = Date.now(); refresh(); }, wait);
  };
  const cares = (what) => !wanted.size || what.some((t) => t === "room" || wanted.has(t));
  listeners.push({ soon, cares });
  if (listeners.length === 1) open(500, false);
}

function open(delay, dropped) {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws/changes`);
  ws.onopen = () => {
    delay = 500;
    if (dropped) { dropped = false; for (const l of listeners) l.soon(); }
  };
  ws.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.type !== "changed") return;
    for (const l of listeners) if (l.cares(msg.what)) l.soon();
  };
  ws.onclose = (ev) => {
    if (ev.code === 4401 || ev.code === 1008) return;
    setTimeout(() => open(Math.min(delay * 2, 8000), true), delay);
  };
}

/** Whether a part of the page holds a form being filled in (a field with focus or text, a
 *  form opened): such a part is not swapped for a fresh one, so nothing typed is lost. */
export function busy(part) {
  if (part.querySelector("details[open]")) return true;
  return [...part.querySelectorAll("input:not([type=hidden]), textarea, select")].some(
    (i) => i === document.activeElement || (i.tagName !== "SELECT" && i.value.trim() !== ""));
}

// What changed in the room, told by the server (/ws/changes, from any of its processes): the
// live pages (the lobby, the floor) fetch their part again when it does. The message names
// only which part changed ({"type": "changed", "what": ["table 7", "jackpot"]}). Changes that
// come together are answered by one fetch, and a page fetches at most once a second (a busy
// room changes many times a second); the socket dropped, it reconnects by itself and the
// page fetches its part once back (what changed meanwhile is not known). A session ended
// (4401) or a foreign page (1008) stops it.
const QUIET_MS = 150;
const GAP_MS = 1000;

export function onChange(refresh) {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const url = `${proto}://${location.host}/ws/changes`;
  let delay = 500, timer = null, dropped = false, last = 0;
  const soon = () => {
    if (timer !== null) return;
    const wait = Math.max(QUIET_MS, last + GAP_MS - Date.now());
    timer = setTimeout(() => { timer = null; last = Date.now(); refresh(); }, wait);
  };
  function open() {
    const ws = new WebSocket(url);
    ws.onopen = () => { delay = 500; if (dropped) { dropped = false; soon(); } };
    ws.onmessage = (ev) => { if (JSON.parse(ev.data).type === "changed") soon(); };
    ws.onclose = (ev) => {
      if (ev.code === 4401 || ev.code === 1008) return;
      dropped = true;
      setTimeout(open, delay);
      delay = Math.min(delay * 2, 8000);
    };
  }
  open();
}

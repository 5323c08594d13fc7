// The floor's pit screen keeps itself up to date: when the room says something changed
// (changes.js, from any of its processes), and every few seconds besides (the books over the
// shift move with the clock), it fetches the cards again (/floor/pit, drawn by the server like
// the page) and swaps each table's card for the new one.
import { busy, onChange } from "/static/changes.js";

// A card whose form is being filled in (`busy`: a field with focus or text, a form opened) keeps its
// actions: only its live part is redrawn. When the server does not answer, the cards stay as
// they were and the page says so. The turn timers count down here, second by second.
const EVERY_MS = 3000;
const pit = () => document.getElementById("pit");
const updated = () => document.getElementById("floor-updated");

/** Each timer's end, from its seconds left when the card was drawn. */
function arm(root) {
  for (const box of root.querySelectorAll(".turn-left[data-left]")) {
    if (box.dataset.left !== "") box.dataset.until = String(Date.now() + Number(box.dataset.left) * 1000);
  }
}

function tick() {
  for (const box of document.querySelectorAll(".turn-left[data-until]")) {
    const left = Math.max(0, Math.ceil((Number(box.dataset.until) - Date.now()) / 1000));
    const shown = box.querySelector(".left");
    const time = left >= 60 ? `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}` : `${left} s`;
    if (shown) shown.textContent = left ? time : "time is up: the default is being taken,";
    box.classList.toggle("short", left <= 10);
  }
}

function redraw(fresh) {
  const now = pit();
  const old = new Map([...now.querySelectorAll("article[data-table]")].map((a) => [a.dataset.table, a]));
  const cards = [...fresh.querySelectorAll("article[data-table]")];
  const same = cards.length === old.size && cards.every((c) => old.has(c.dataset.table));
  if (!same) {
    if ([...old.values()].some(busy)) return;
    now.replaceWith(fresh);
    return;
  }
  for (const card of cards) {
    const mine = old.get(card.dataset.table);
    if (busy(mine)) mine.querySelector(".pit-live").replaceWith(card.querySelector(".pit-live"));
    else mine.replaceWith(card);
  }
}

async function refresh() {
  let html;
  try {
    const res = await fetch("/floor/pit", { headers: { Accept: "text/html" } });
    if (!res.ok) throw new Error(String(res.status));
    html = await res.text();
  } catch {
    updated().textContent = "(not updated: the server did not answer)";
    return;
  }
  const fresh = new DOMParser().parseFromString(html, "text/html").getElementById("pit");
  if (!fresh) return;
  redraw(document.adoptNode(fresh));
  arm(pit());
  tick();
  updated().textContent = `(updated ${new Date().toLocaleTimeString()})`;
  document.body.dataset.refreshed = String(Number(document.body.dataset.refreshed || 0) + 1);
}

if (pit()) {
  arm(pit());
  setInterval(refresh, EVERY_MS);
  onChange(refresh);
  setInterval(tick, 1000);
}

// The lobby keeps itself up to date: when the room says something changed (changes.js: a table
// opened or added, a seat taken, a jackpot meter moved, chips at the cage), it fetches the page
// again and swaps its live part (the tables, the chips, the meter) for the new one.
import { onChange } from "/static/changes.js";

const live = () => document.getElementById("lobby-live");

async function refresh() {
  let html;
  try {
    const res = await fetch("/lobby", { headers: { Accept: "text/html" } });
    if (!res.ok) return;
    html = await res.text();
  } catch {
    return;
  }
  const fresh = new DOMParser().parseFromString(html, "text/html").getElementById("lobby-live");
  if (!fresh) return;
  live().replaceWith(document.adoptNode(fresh));
  document.body.dataset.refreshed = String(Number(document.body.dataset.refreshed || 0) + 1);
}

if (live()) onChange(refresh);

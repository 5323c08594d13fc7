// The live parts of a page (base.html loads this on every page; a page without one opens
// nothing). A part is an element with an id, `data-live`: the topics it shows (changes.js:
// words such as "cage", "jackpot", "lobby"; empty: any change), and `data-live-from`: the
// address it is drawn on, fetched with GET (never the address shown, which may be a form's
// POST answered with its page). When one of its topics changes, at
// this process or another of the room, the page it is drawn on is fetched again (once for the
// parts that share it) and the part swapped for its fresh copy, drawn by the server for this
// viewer; a part holding a form being filled in keeps what was typed (`busy`) and is left as
// it is until the next change. The server not answering, the parts stay as they were.
import { busy, onChange } from "/static/changes.js";

const parts = () => [...document.querySelectorAll("[data-live][data-live-from][id]")];

async function fetched(address) {
  try {
    const res = await fetch(address, { headers: { Accept: "text/html" } });
    return res.ok ? new DOMParser().parseFromString(await res.text(), "text/html") : null;
  } catch {
    return null;
  }
}

async function refresh() {
  const pages = new Map();
  for (const part of parts()) {
    const address = part.dataset.liveFrom;
    if (!pages.has(address)) pages.set(address, fetched(address));
    const fresh = (await pages.get(address))?.getElementById(part.id);
    if (fresh && !busy(part)) part.replaceWith(document.adoptNode(fresh));
  }
  document.body.dataset.refreshed = String(Number(document.body.dataset.refreshed || 0) + 1);
}

const found = parts();
if (found.length) {
  const topics = found.map((p) => p.dataset.live.split(" ").filter(Boolean));
  onChange(refresh, topics.some((t) => !t.length) ? [] : topics.flat());
}

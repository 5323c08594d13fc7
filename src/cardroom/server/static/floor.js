// The floor page keeps itself up to date: every few seconds it reads /floor/tables.json (each
// table's players, hand in play and last result) and redraws those cells; the void and
// irregularity forms show only while a hand is in play. A form being filled in is left alone.
const ROWS = () => [...document.querySelectorAll("#floor-tables tr[data-table]")];
const EVERY_MS = 3000;

function busy(row) {
  return [...row.querySelectorAll("input[name=reason], input[name=seat]")].some(
    (i) => i.value.trim() !== "" || i === document.activeElement);
}

async function refresh() {
  let tables;
  try {
    const res = await fetch("/floor/tables.json", { headers: { Accept: "application/json" } });
    if (!res.ok) throw new Error(String(res.status));
    tables = await res.json();
  } catch {
    document.getElementById("floor-updated").textContent = "(not updated: the server did not answer)";
    return;
  }
  const byId = new Map(tables.map((t) => [String(t.id), t]));
  for (const row of ROWS()) {
    const t = byId.get(row.dataset.table);
    if (!t) continue;
    row.querySelector(".players").textContent = t.seats ? `${t.players} of ${t.seats}` : String(t.players);
    row.querySelector(".hand").textContent = t.hand_title || "none";
    row.querySelector(".last").textContent = t.last;
    if (!busy(row)) {
      for (const form of row.querySelectorAll("form")) form.hidden = !t.hand;
    }
  }
  const now = new Date();
  document.getElementById("floor-updated").textContent = `(updated ${now.toLocaleTimeString()})`;
  document.body.dataset.refreshed = String(Number(document.body.dataset.refreshed || 0) + 1);
}

if (ROWS().length) setInterval(refresh, EVERY_MS);
refresh();

// The table page: one WebSocket; the server sends this viewer's snapshot after every change.
// Cards are images of /cards/<code>.svg; only cards in the snapshot are ever drawn.
(function () {
  "use strict";
  const felt = document.getElementById("felt");
  const tableId = felt.dataset.table;
  const $ = (id) => document.getElementById(id);
  const money = (c) => (c < 0 ? "-" : "") + "$" +
    Math.floor(Math.abs(c) / 100).toLocaleString("en-US") + "." +
    String(Math.abs(c) % 100).padStart(2, "0");
  const key = () => (crypto.randomUUID ? crypto.randomUUID() : String(Math.random()).slice(2));
  const cents = (text) => {
    const m = /^\s*\$?(\d{1,9})(?:\.(\d{1,2}))?\s*$/.exec(text);
    return m ? parseInt(m[1], 10) * 100 + parseInt((m[2] || "0").padEnd(2, "0"), 10) : null;
  };
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws/tables/${tableId}`);
  window.cardroomSocket = ws;

  function send(msg) { $("error").hidden = true; ws.send(JSON.stringify(msg)); }
  function showError(text) { $("error").textContent = text; $("error").hidden = false; }

  function drawCards(el, cards) {
    el.replaceChildren();
    for (const c of cards || []) {
      const img = document.createElement("img");
      img.src = `/cards/${c.code}.svg`; img.alt = c.text; img.className = "card";
      img.dataset.card = c.text; img.width = 70; img.height = 100;
      el.appendChild(img);
    }
  }

  function render(s) {
    $("jackpot").textContent = s.jackpot ? money(s.jackpot.posted) : "not offered";
    // a top award waits for its verification: the pool takes no progressive wager meanwhile
    $("jackpot-pending").hidden = !(s.jackpot && s.jackpot.pending);
    $("progressive").disabled = !!(s.jackpot && s.jackpot.pending);
    const l = s.limits;
    $("limits").textContent = `Table ${money(l.table_min)}-${money(l.table_max)}, tie ${money(l.tie_min)}-${money(l.tie_max)}`;
    const last = s.last;
    if (last && !last.voided) {
      drawCards($("player-cards"), last.player); drawCards($("banker-cards"), last.banker);
      $("player-total").textContent = last.player_total; $("banker-total").textContent = last.banker_total;
      const mine = last.settlements.filter((x) => s.seats.some((seat) => seat.you && seat.name === x.seat));
      // a top award held for verification: its $1 wager is taken, its share paid later
      const net = mine.reduce((a, x) => a + (x.pending ? -x.stake : x.won - x.commission), 0);
      const held = mine.filter((x) => x.pending).reduce((a, x) => a + x.returned, 0);
      $("result").textContent = `Hand ${last.number}: ${last.winner} wins` +
        (mine.length ? ` - you ${net >= 0 ? "win" : "lose"} ${money(Math.abs(net))}` : "") +
        (held ? `; your jackpot of ${money(held)} is paid once the hand is verified` : "");
    } else {
      drawCards($("player-cards"), []); drawCards($("banker-cards"), []);
      $("player-total").textContent = ""; $("banker-total").textContent = "";
      $("result").textContent = last && last.voided ? `Hand voided by ${last.by}: ${last.reason}; wagers returned` : "";
    }
    const me = s.seats.find((x) => x.you);
    $("sit-box").hidden = s.you.seated || !!document.body.dataset.noplay;
    $("bet-box").hidden = !s.you.seated;
    $("stack").textContent = me ? money(me.stack) : "";
    $("deal").hidden = !s.you.may_deal || !s.hand.open;
    $("seats").replaceChildren(...s.seats.map((x) => {
      const li = document.createElement("li");
      const bets = Object.entries(x.bets).map(([k, v]) => `${k} ${money(v)}`).join(", ");
      li.textContent = `${x.name}: ${money(x.stack)}${bets ? " - bets " + bets : ""}`;
      return li;
    }));
    $("shoe").textContent = s.shoe.remaining === null ? "not yet shuffled" :
      `${s.shoe.remaining} cards left, commitment ${s.shoe.commitment.slice(0, 16)}...`;
    document.body.dataset.state = s.hand.open ? "betting" : (last && !last.voided ? "settled" : "idle");
    document.body.dataset.hand = last ? String(last.hand) : "";
  }

  ws.onmessage = (ev) => {
    const m = JSON.parse(ev.data);
    if (m.type === "state") render(m); else if (m.type === "error") showError(m.message);
  };
  ws.onclose = () => showError("disconnected from the table: reload the page");

  $("sit").onclick = () => {
    const c = cents($("buy-in").value);
    if (c === null) return showError("enter a buy-in in dollars, e.g. 200");
    send({ type: "sit", buy_in: c, key: key() });
  };
  $("bet").onclick = () => {
    const bets = {};
    for (const input of document.querySelectorAll("input.wager")) {
      if (!input.value.trim()) continue;
      const c = cents(input.value);
      if (c === null) return showError(`bad amount for ${input.dataset.kind}`);
      bets[input.dataset.kind] = c;
    }
    if ($("progressive").checked) bets.progressive = 100;
    send({ type: "bet", bets: bets, key: key() });
  };
  $("deal").onclick = () => send({ type: "deal" });
  $("leave").onclick = () => send({ type: "leave", key: key() });
})();

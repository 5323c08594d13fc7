// The Pai Gow table page: wager, bank or play the dragon hand before the deal; then pick the
// two cards of your front hand (click them) and set, or ask for the house way.
(function () {
  "use strict";
  const { $, money, key, cents, showError, drawCards, connect, seatControls } = window.Cardroom;
  let front = [];

  function pick(img, c) {
    if (front.includes(c.text)) { front = front.filter((x) => x !== c.text); img.classList.remove("front"); }
    else if (front.length < 2) { front.push(c.text); img.classList.add("front"); }
    $("front").textContent = front.join(" ");
  }

  function spotBox(sp, mine) {
    const div = document.createElement("div");
    div.className = "hand"; div.dataset.spot = sp.spot;
    const h = document.createElement("h3");
    const bits = [sp.spot === 0 ? "Dealer" : `Spot ${sp.spot}: ${sp.name}`];
    if (sp.banker) bits.push("bank");
    if (sp.outcome) bits.push(`${sp.outcome}${sp.net !== null ? " " + money(sp.net) : ""}`);
    else if (sp.set) bits.push("set");
    if (sp.house_way) bits.push("house way");
    h.textContent = bits.join(" - ");
    div.append(h);
    if (sp.setting) {
      for (const part of ["front", "back"]) {
        const row = document.createElement("div"); row.className = "cards " + part;
        drawCards(row, sp.setting[part]); div.append(row);
      }
    } else {
      const row = document.createElement("div"); row.className = "cards";
      drawCards(row, sp.cards, sp.card_count || 7, mine ? pick : null); div.append(row);
    }
    return div;
  }

  function render(s) {
    const l = s.limits;
    $("limits").textContent = `Wager ${money(l.min)}-${money(l.max)}, commission ${l.commission}, dragon hand: ${l.dragon}`;
    const last = s.last, dealt = s.spots.length > 0;
    const toSet = s.you.to_set || [];
    if (dealt) {
      $("spots").replaceChildren(...s.spots.map((sp) => spotBox(sp, toSet.includes(sp.spot))));
    } else if (last && !last.voided) {
      $("spots").replaceChildren(...last.spots.map((sp) => spotBox(sp, false)));
    } else { $("spots").replaceChildren(); }
    if (!toSet.length) { front = []; $("front").textContent = ""; }
    if (last && last.voided) {
      $("result").textContent = `Hand voided by ${last.by}: ${last.reason}; wagers returned`;
    } else if (last && !dealt) {
      const mine = last.spots.filter((x) => x.name === (s.players.find((p) => p.you) || {}).name);
      $("result").textContent = `Hand ${last.number} settled` +
        mine.map((x) => ` - you ${x.outcome} (${x.net >= 0 ? "+" : ""}${money(x.net)})`).join("");
    } else { $("result").textContent = dealt ? "Set your hands" : ""; }
    const me = s.players.find((x) => x.you);
    $("sit-box").hidden = s.you.seated;
    $("bet-box").hidden = !s.you.seated || s.phase !== "betting";
    $("stack").textContent = me ? money(me.stack) : "";
    $("bank").hidden = !s.you.may_bank;
    $("bank-note").textContent = s.you.seated && s.phase === "betting" && s.you.bank_refusal ?
      `Bank: ${s.you.bank_refusal}` : "";
    $("dragon-box").hidden = !s.you.may_dragon;
    $("set-box").hidden = !toSet.length;
    $("deal").hidden = !s.you.may_deal;
    $("banker").textContent = s.banker.name;
    $("players").replaceChildren(...s.players.map((x) => {
      const li = document.createElement("li");
      li.textContent = `Seat ${x.seat}: ${x.name} ${money(x.stack)}` +
        (x.wager ? ` - wager ${money(x.wager)}` : "") + (x.dragon ? ` - dragon ${money(x.dragon)}` : "") +
        (x.banker ? " - banks" : "");
      return li;
    }));
    document.body.dataset.state = s.hand.open ? s.phase : (last ? (last.voided ? "voided" : "settled") : "idle");
    document.body.dataset.hand = last ? String(last.hand) : "";
  }

  const send = connect(render);
  seatControls(send);
  $("bet").onclick = () => {
    const w = cents($("wager").value);
    if (w === null) return showError("enter a wager in dollars");
    send({ type: "bet", bets: { wager: w }, key: key() });
  };
  $("bank").onclick = () => send({ type: "bank", key: key() });
  $("dragon").onclick = () => {
    const w = cents($("dragon-amount").value);
    if (w === null) return showError("enter the dragon hand's wager in dollars");
    send({ type: "dragon", amount: w, key: key() });
  };
  const spot = () => {
    const mine = document.querySelector("img.front");
    return mine ? parseInt(mine.closest("[data-spot]").dataset.spot, 10) : null;
  };
  $("set").onclick = () => {
    if (front.length !== 2) return showError("click two cards for the front (low) hand");
    send({ type: "set", front: front, spot: spot() });
  };
  $("house-way").onclick = () => {
    const first = document.querySelector("#spots img.card[style]");
    const sp = first ? parseInt(first.closest("[data-spot]").dataset.spot, 10) : null;
    send(sp === null ? { type: "house_way" } : { type: "house_way", spot: sp });
  };
})();

// The Super Pan 9 table page: wager (and tie bet), then draw or stand when it is your turn.
(function () {
  "use strict";
  const { $, money, key, cents, showError, drawCards, connect, seatControls } = window.Cardroom;

  function handBox(s) {
    const div = document.createElement("div");
    div.className = "hand"; div.dataset.seat = s.seat;
    const h = document.createElement("h3");
    const bits = [`Seat ${s.seat}: ${s.name}`, money(s.wager)];
    if (s.tie_wager) bits.push(`tie ${money(s.tie_wager)}`);
    if (s.total !== null && s.total !== undefined) bits.push(`total ${s.total}`);
    if (s.result) bits.push(`${s.result}${s.net !== null ? " " + money(s.net) : ""}`);
    else if (s.acted) bits.push(s.drew ? "drew" : "stands");
    h.textContent = bits.join(" - ");
    const cards = document.createElement("div"); cards.className = "cards";
    drawCards(cards, s.cards, s.card_count);
    div.append(h, cards);
    return div;
  }

  function render(s) {
    const l = s.limits;
    $("limits").textContent = `Wager ${money(l.min)}-${money(l.max)}` +
      (l.tie_min !== null ? `, tie ${money(l.tie_min)}-${money(l.tie_max)} pays ${l.tie_pays} to 1` : "") +
      `, commission ${l.commission} of winnings`;
    const round = s.round, last = s.last;
    const shown = round && round.phase !== "betting" ? round : (last && !last.voided ? last : round);
    if (shown) {
      drawCards($("dealer-cards"), shown.dealer.cards, shown.dealer.card_count);
      $("dealer-total").textContent = shown.dealer.total === null ? "" : shown.dealer.total;
      $("hands").replaceChildren(...shown.seats.map(handBox));
    } else {
      drawCards($("dealer-cards"), null, 0); $("dealer-total").textContent = "";
      $("hands").replaceChildren();
    }
    if (last && last.voided) {
      $("result").textContent = `Hand voided by ${last.by}: ${last.reason}; wagers returned`;
    } else if (last && (!round || round.phase === "betting")) {
      const mine = last.settlements.filter((x) => x.seat === s.you.seat);
      $("result").textContent = `Hand ${last.number}: dealer ${last.dealer_total}` +
        mine.map((x) => ` - you ${x.outcome} (${x.net >= 0 ? "+" : ""}${money(x.net)})`).join("");
    } else {
      $("result").textContent = round && round.to_act ? `Seat ${round.to_act} to act` : "";
    }
    const me = s.players.find((x) => x.you);
    $("sit-box").hidden = s.you.seated;
    $("bet-box").hidden = !s.you.seated;
    $("stack").textContent = me ? money(me.stack) : "";
    $("decide").hidden = !s.you.to_act;
    $("deal").hidden = !(s.you.may_deal && round && round.phase === "betting");
    $("players").replaceChildren(...s.players.map((x) => {
      const li = document.createElement("li");
      li.textContent = `Seat ${x.seat}: ${x.name} ${money(x.stack)}`;
      return li;
    }));
    $("shoe").textContent = s.shoe.remaining === null ? "not yet shuffled" :
      `${s.shoe.remaining} cards left, commitment ${s.shoe.commitment.slice(0, 16)}...`;
    document.body.dataset.state = round ? round.phase :
      (last ? (last.voided ? "voided" : "settled") : "idle");
    document.body.dataset.hand = last ? String(last.hand) : "";
  }

  const send = connect(render);
  seatControls(send);
  $("bet").onclick = () => {
    const w = cents($("wager").value);
    if (w === null) return showError("enter a wager in dollars");
    const bets = { wager: w };
    if ($("tie").value.trim()) {
      const t = cents($("tie").value);
      if (t === null) return showError("bad tie bet amount");
      bets.tie = t;
    }
    send({ type: "bet", bets: bets, key: key() });
  };
  $("draw").onclick = () => send({ type: "draw" });
  $("stand").onclick = () => send({ type: "stand" });
})();

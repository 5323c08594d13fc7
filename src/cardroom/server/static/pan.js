// The Pan table page: seats and bots, the deal, and the player's legal moves as buttons (the
// terminal's command grammar). Only cards in this viewer's snapshot are drawn: their own hand,
// the melds, the drawn card and the top discard; others' hands are card backs.
import { $, money, newKey as key, cents, messages, drawCards, connect, setState } from "./table-client.js";

{
  let state = null;

  function seatBox(s, play) {
    const div = document.createElement("div");
    div.className = "hand"; div.dataset.seat = s.seat;
    const h = document.createElement("h3");
    const bits = [`${s.name}${s.bot ? " (bot)" : ""}`, `${s.chips} chips`, s.status];
    if (s.declared !== null) bits.push(s.declared ? "plays" : "passes");
    if (s.spread_value) bits.push(`spreads ${s.spread_value}`);
    if (play.to_act === s.seat) bits.push("to act");
    h.textContent = bits.join(" - ");
    const hand = document.createElement("div"); hand.className = "cards hand-cards";
    drawCards(hand, s.hand, s.hand_count);
    const melds = document.createElement("div"); melds.className = "melds";
    s.melds.forEach((m, i) => {
      const box = document.createElement("span"); box.className = "cards meld";
      box.title = `meld ${i}`;
      const label = document.createElement("small"); label.textContent = `[${i}]`;
      const cards = document.createElement("span");
      drawCards(cards, m, m.length);
      box.append(label, cards); melds.append(box);
    });
    div.append(h, hand, melds);
    return div;
  }

  function act(command) {
    if (!state) return;
    send({ type: "pan", command: command, seq: state.seq });
  }

  // Foul rule 5: the player left alone offers a settlement (5A) to the foul hands, chips
  // per hand, or plays face up (a legal command button); the foul hands see the offer.
  function renderSettlement(play, settling) {
    const foul = play && settling ? play.seats.filter((x) => x.status.includes("fouled")) : [];
    $("settle-box").hidden = foul.length === 0;
    $("settle-seats").replaceChildren(...foul.map((x) => {
      const label = document.createElement("label");
      const input = document.createElement("input");
      input.type = "number"; input.min = "0"; input.max = String(x.chips); input.value = "0";
      input.dataset.seat = String(x.seat); input.className = "settle-chips";
      label.append(`${x.name} pays `, input, " chips");
      return label;
    }));
    const offer = play ? play.settlement : null;
    $("offer").hidden = !offer;
    $("offer").textContent = offer ? "Settlement offered: " + offer.map((x) =>
      `${x.name} pays ${x.chips} chips${x.agreed ? " (agreed)" : ""}`).join(", ") : "";
  }

  function render(s) {
    state = s;
    const r = s.rules;
    $("rules").textContent = `a chip is ${money(r.chip_cents)}, buy-in ${r.buy_in_chips} chips, outs ${r.outs_chips} chips`;
    const play = s.play, last = s.last;
    if (play) {
      $("stock").textContent = play.stock;
      $("tops").textContent = play.tops + (play.double_tops ? ` + ${play.double_tops}` : "");
      drawCards($("drawn"), play.drawn ? [play.drawn] : [], 0);
      drawCards($("discard"), play.top_discard ? [play.top_discard] : [], 0);
      $("seats-play").replaceChildren(...play.seats.map((x) => seatBox(x, play)));
      const who = play.seats.find((x) => x.seat === play.to_act);
      $("result").textContent = `Hand ${s.hand.number}: ${play.phase}` + (who ? `, ${who.name} to act` : "");
    } else {
      $("stock").textContent = "-"; $("tops").textContent = s.carried_tops || 0;
      drawCards($("drawn"), [], 0); drawCards($("discard"), [], 0);
      $("seats-play").replaceChildren();
      if (last && last.voided) $("result").textContent = `Hand voided by ${last.by}: ${last.reason}`;
      else if (last) {
        const mine = last.net.filter((x) => s.players.some((p) => p.you && p.name === x.name));
        $("result").textContent = `Hand ${last.number} over: ${last.reason}` +
          mine.map((x) => ` - you ${x.chips >= 0 ? "win" : "lose"} ${Math.abs(x.chips)} chips (${money(Math.abs(x.cents))})`).join("");
      } else $("result").textContent = "";
    }
    const legal = play ? play.legal : [];
    $("decide").hidden = legal.length === 0;
    const settling = legal.some((c) => c.startsWith("settle "));
    $("legal").replaceChildren(...legal.filter((c) => !c.startsWith("settle ")).map((c) => {
      const b = document.createElement("button");
      b.textContent = c; b.dataset.command = c; b.className = "legal";
      b.onclick = () => (c.includes("CARDS") ? ($("command").value = c) : act(c));
      return b;
    }));
    renderSettlement(play, settling);
    const me = s.players.find((x) => x.you);
    $("sit-box").hidden = s.you.seated;
    $("doubles-box").hidden = !r.double_condition;
    $("bet-box").hidden = !s.you.seated;
    $("add-bot").hidden = !!play;
    $("stack").textContent = me ? money(me.stack) : "";
    $("deal").hidden = !s.you.may_deal;
    $("players").replaceChildren(...s.players.map((x) => {
      const li = document.createElement("li");
      li.textContent = `Seat ${x.seat}: ${x.name}${x.bot ? " (bot)" : ""}${x.doubles ? " (double condition)" : ""} ${money(x.stack)}`;
      return li;
    }));
    $("log").replaceChildren(...s.log.map((line) => {
      const li = document.createElement("li"); li.textContent = line; return li;
    }));
    setState(play ? play.phase : (last ? (last.voided ? "voided" : "settled") : "idle"), last ? last.hand : null);
    document.body.dataset.seq = String(s.seq);
  }

  const send = connect(render);
  $("sit").onclick = () => {
    const c = cents($("buy-in").value);
    if (c === null) return messages.error("enter a buy-in in dollars, e.g. 20");
    send({ type: "sit", buy_in: c, doubles: $("doubles").checked, key: key() });
  };
  $("leave").onclick = () => send({ type: "leave", key: key() });
  $("deal").onclick = () => send({ type: "deal" });
  $("add-bot").onclick = () => send({ type: "bot", key: key() });
  $("settle").onclick = () => {
    const parts = [...document.querySelectorAll(".settle-chips")].map((i) => {
      const n = Number(i.value);
      return Number.isInteger(n) && n >= 0 ? `${i.dataset.seat} ${n}` : null;
    });
    if (parts.includes(null)) return messages.error("enter whole chips for each foul hand, e.g. 3");
    act(`settle ${parts.join(" ")}`);
  };
  $("send").onclick = () => { if ($("command").value.trim()) act($("command").value.trim()); };
}

// The Pan table page. No typed commands: the snapshot lists the player's legal actions
// (`play.actions`, each a typed action with a button label); actions that need no choice are
// one big button each, and those that need cards (meld, add to a spread, discard, borrow,
// split) are buttons that light up when the cards tapped match a legal choice. Only cards in
// this viewer's snapshot are drawn: their own hand, every spread, the drawn card and the top
// discard; others' hands are card backs.
import { $, el, money, cents, newKey, messages, cardImage, cardBack, cardName, connect, handTitle,
  setState }
  from "./table-client.js";

let state = null;
let picked = [];  // [{where: "hand", index} | {where: "meld", meld, index}]
let pickedFor = "";  // the cards the picks point into: a new hand or spread clears them

const CARD_KINDS = new Set(["meld", "lay_off", "discard", "borrow", "split"]);
// calling a foul, on another hand or one's own: apart from the main row of moves
const RARE = new Set(["call_foul", "foul_self"]);
let foulAction = null;  // the own-foul action the dialog asks about

// foul rule 2: declaring one's own hand foul cannot be taken back, so the page asks first
function askFoul(action) {
  foulAction = action;
  $("foul-dialog").showModal();
}

function mySeat(play) {
  return play ? play.seats.find((x) => x.hand !== null && state.you.hand_seat === x.seat) : null;
}

function pickedCards(play, where, meld = null) {
  const me = mySeat(play);
  if (!me) return [];
  return picked.filter((p) => p.where === where && (meld === null || p.meld === meld))
    .map((p) => (where === "hand" ? me.hand[p.index] : me.melds[p.meld][p.index]).text);
}

function same(a, b) {
  return a.length === b.length && [...a].sort().join(" ") === [...b].sort().join(" ");
}

function toggle(p) {
  const i = picked.findIndex((q) => q.where === p.where && q.index === p.index && q.meld === p.meld);
  if (i >= 0) picked.splice(i, 1); else picked.push(p);
  render(state);
}

function cardButton(card, p) {
  const on = picked.some((q) => q.where === p.where && q.index === p.index && q.meld === p.meld);
  return el("button", { class: "card-button", dataset: { card: card.text }, attrs: { type: "button", "aria-pressed": on ? "true" : "false",
    "aria-label": cardName(card.text) + (p.where === "meld" ? ` on spread ${p.meld + 1}` : " in your hand") },
  on: { click: () => toggle(p) } }, cardImage(card));
}

function seatBox(s, play, mine) {
  const bits = [`${s.chips} chips`];
  if (s.status !== "in") bits.push(s.status.replace(/-/g, " "));
  if (s.declared !== null) bits.push(s.declared ? "plays" : "passes");
  if (s.spread_value) bits.push(`spreads worth ${s.spread_value}`);
  const toAct = play.to_act === s.seat;
  const hand = el("div", { class: "cards hand-cards", attrs: { role: "group", "aria-label": mine ? "Your hand" : `${s.name}'s hand` } });
  if (s.hand) hand.append(...s.hand.map((c, i) => (mine ? cardButton(c, { where: "hand", index: i }) : cardImage(c))));
  else hand.append(...Array.from({ length: s.hand_count }, cardBack));
  const spreads = el("div", { class: "spreads" }, ...s.melds.map((m, mi) => el("div", { class: "spread" },
    el("span", { class: "spread-name", text: `Spread ${mi + 1}` }),
    el("div", { class: "cards small" }, ...m.map((c, i) => (mine ? cardButton(c, { where: "meld", meld: mi, index: i }) : cardImage(c)))))));
  return el("div", { class: "area pan-seat" + (mine ? " you" : "") + (toAct ? " to-act" : ""), dataset: { seat: s.table_seat } },
    el("h3", {}, el("span", { text: `Seat ${s.table_seat}: ${s.name}${s.bot ? " (house player)" : ""}${mine ? " (you)" : ""}` }),
      el("span", { class: "muted", text: bits.join(" · ") })),
    hand, spreads);
}

function send(msg) { sendRaw(msg); }

function act(action) {
  if (!state) return;
  const { label, choose, ...typed } = action;
  picked = [];
  send({ type: "pan", action: typed, seq: state.seq });
}

// the buttons that need cards: enabled when the cards tapped match a legal choice
function cardButtons(play, actions) {
  const hand = pickedCards(play, "hand");
  const melds = [...new Set(picked.filter((p) => p.where === "meld").map((p) => p.meld))];
  const out = [];
  const has = (kind) => actions.some((a) => a.kind === kind);
  const button = (text, id, action, why) => el("button", { class: "big", text, dataset: { act: id },
    attrs: { type: "button", disabled: action ? null : true, title: action ? null : why },
    on: { click: () => action && act(action) } });
  if (has("meld")) {
    const fits = !melds.length && (actions.find((a) => a.kind === "meld" && !a.choose && same(a.cards, hand)) ||
      (hand.length >= 3 && actions.some((a) => a.kind === "meld" && a.choose) ? { kind: "meld", cards: hand } : null));
    out.push(button("Meld", "meld", fits, "choose three or more cards of your hand that make a meld"));
  }
  if (has("discard")) {
    const d = hand.length === 1 && !melds.length && actions.find((a) => a.kind === "discard" && same(a.cards, hand));
    out.push(button(d ? `Discard ${d.label.replace(/^Discard /, "")}` : "Discard", "discard", d || null, "choose one card of your hand"));
  }
  if (has("lay_off")) {
    const lays = hand.length === 1 && !melds.length ? actions.filter((a) => a.kind === "lay_off" && same(a.cards, hand)) : [];
    if (lays.length) lays.forEach((a) => out.push(button(a.label, "lay_off", a)));
    else out.push(button("Add to a spread", "lay_off", null, "choose one card of your hand that fits one of your spreads"));
  }
  if (has("borrow")) {
    const m = melds.length === 1 ? melds[0] : null;
    const borrowed = m === null ? [] : pickedCards(play, "meld", m);
    const b = m !== null && hand.length && actions.some((a) => a.kind === "borrow" && a.meld === m)
      ? { kind: "borrow", meld: m, borrowed, cards: hand } : null;
    out.push(button("Borrow", "borrow", b, "choose cards of one spread and of your hand that make a new meld"));
  }
  if (has("split")) {
    const m = melds.length === 1 && !hand.length ? melds[0] : null;
    const part = m === null ? [] : pickedCards(play, "meld", m);
    const s = m === null ? null : actions.find((a) => a.kind === "split" && a.meld === m && same(a.borrowed, part));
    out.push(button("Split", "split", s || null, "choose the cards of one spread to split off"));
  }
  return out;
}

// foul rule 5A: the player left alone offers a settlement, whole chips per foul hand
function renderSettlement(play, actions) {
  const settling = actions.some((a) => a.kind === "settle");
  $("settle-box").hidden = !settling;
  if (settling && !$("settle-seats").dataset.seq) {
    const foul = play.seats.filter((x) => x.status.includes("foul"));
    $("settle-seats").replaceChildren(...foul.map((x) => {
      const input = el("input", { class: "settle-chips", dataset: { seat: x.seat },
        attrs: { type: "number", min: 0, max: x.chips, value: 0, inputmode: "numeric", id: `settle-${x.seat}` } });
      return el("p", {}, el("label", { attrs: { for: `settle-${x.seat}` }, text: `${x.name} pays (chips) ` }), input);
    }), el("button", { class: "big", text: "Offer a settlement", attrs: { type: "button", id: "settle" },
      on: { click: () => {
        const payments = [...document.querySelectorAll(".settle-chips")].map((i) => [Number(i.dataset.seat), Number(i.value)]);
        if (payments.some(([, n]) => !Number.isInteger(n) || n < 0)) return messages.error("Enter whole chips for each foul hand, for example 3");
        act({ kind: "settle", payments });
      } } }));
    $("settle-seats").dataset.seq = "shown";
  }
  if (!settling) { $("settle-seats").replaceChildren(); delete $("settle-seats").dataset.seq; }
  const offer = play.settlement;
  $("offer").hidden = !offer;
  $("offer").textContent = offer ? "Settlement offered: " + offer.map((x) =>
    `${x.name} pays ${x.chips} chips${x.agreed ? " (agreed)" : ""}`).join(", ") : "";
}

function renderResult(s) {
  const last = s.last;
  if (!last) return $("result").replaceChildren();
  if (last.voided) return $("result").replaceChildren(el("p", { text: `${handTitle(last)} voided by ${last.by}: ${last.reason}. Every chip went back.` }));
  const mine = last.net.filter((x) => s.players.some((p) => p.you && p.name === x.name));
  const head = last.winner ? `${handTitle(last)}: ${last.winner} wins (${last.reason})` : `${handTitle(last)} over: ${last.reason}`;
  $("result").replaceChildren(
    el("h2", { text: head }),
    ...mine.map((x) => el("p", { class: "lead", text: x.chips >= 0 ? `You win ${x.chips} chips (${money(x.cents)})` : `You lose ${-x.chips} chips (${money(-x.cents)})` })),
    last.winner_spreads && last.winner_spreads.length ? el("div", { class: "spreads" },
      el("span", { class: "spread-name", text: `${last.winner}'s spreads` }),
      ...last.winner_spreads.map((m) => el("div", { class: "cards small" }, ...m.map((c) => cardImage(c))))) : null,
    el("details", { attrs: { open: true } }, el("summary", { text: "Every payment of the hand" }),
      el("ul", { class: "results" }, ...(last.payments || []).map((line) => el("li", { text: line })))),
    el("ul", { class: "results" }, ...last.net.map((x) => el("li", { text: `${x.name}: ${x.chips >= 0 ? "+" : ""}${x.chips} chips` }))));
}

function render(s) {
  state = s;
  const r = s.rules, play = s.play;
  $("rules").textContent = `A chip is ${money(r.chip_cents)} · buy-in ${r.buy_in_chips} chips · outs ${r.outs_chips} chips`;
  const mine = mySeat(play);
  const sig = mine ? [mine.hand, ...mine.melds].map((cs) => cs.map((c) => c.text).join(" ")).join("|") : "";
  if (sig !== pickedFor) { picked = []; pickedFor = sig; }
  if (play) {
    $("stock").textContent = `${play.stock} cards`;
    $("tops").textContent = `${play.tops}${play.double_tops ? ` + ${play.double_tops}` : ""} chips`;
    $("drawn").replaceChildren(...(play.drawn ? [cardImage(play.drawn)] : []));
    $("discard").replaceChildren(...(play.top_discard ? [cardImage(play.top_discard)] : []));
    const me = mySeat(play);
    const others = play.seats.filter((x) => !me || x.seat !== me.seat);
    $("my-seat").replaceChildren(...(me ? [seatBox(me, play, true)] : []));
    $("seats-play").replaceChildren(...others.map((x) => seatBox(x, play, false)));
    $("others").hidden = others.length === 0;
    const who = play.seats.find((x) => x.seat === play.to_act);
    $("turn").textContent = who ? (me && who.seat === me.seat ? "Your turn" : `${who.name} to act`) : "";
    $("result").replaceChildren();
  } else {
    $("stock").textContent = "—"; $("tops").textContent = `${s.carried_tops || 0} chips`;
    $("drawn").replaceChildren(); $("discard").replaceChildren();
    $("my-seat").replaceChildren(); $("seats-play").replaceChildren(); $("others").hidden = true;
    $("turn").textContent = "";
    renderResult(s);
  }
  const actions = play ? play.actions : [];
  $("decide").hidden = actions.length === 0;
  const direct = actions.filter((a) => a.kind !== "settle" && !RARE.has(a.kind) && !(CARD_KINDS.has(a.kind) && !a.drawn));
  $("direct").replaceChildren(...direct.map((a) => el("button", { class: "big",
    text: a.label, dataset: { act: a.kind }, attrs: { type: "button" }, on: { click: () => act(a) } })));
  $("rare").replaceChildren(...actions.filter((a) => RARE.has(a.kind)).map((a) => el("button", { class: "secondary",
    text: a.kind === "foul_self" ? `${a.label}…` : a.label, dataset: { act: a.kind }, attrs: { type: "button" },
    on: { click: () => (a.kind === "foul_self" ? askFoul(a) : act(a)) } })));
  if (!actions.some((a) => a.kind === "foul_self") && $("foul-dialog").open) $("foul-dialog").close();
  const needCards = actions.filter((a) => CARD_KINDS.has(a.kind) && !a.drawn);
  $("with-cards").replaceChildren(...(needCards.length ? cardButtons(play, needCards) : []));
  $("pick-hint").hidden = needCards.length === 0;
  if (play) renderSettlement(play, actions); else $("settle-box").hidden = true;
  const me = s.players.find((x) => x.you);
  $("sit-box").hidden = s.you.seated;
  $("doubles-box").hidden = !r.double_condition;
  $("bet-box").hidden = !s.you.seated;
  $("add-bot").hidden = !!play;
  $("stack").textContent = me ? money(me.stack) : "";
  $("deal").hidden = !s.you.may_deal;
  $("players").replaceChildren(...s.players.map((x) => el("li", { class: x.you ? "you" : "",
    text: `Seat ${x.seat}: ${x.name}${x.bot ? " (house player)" : ""}${x.you ? " (you)" : ""}${x.doubles ? ", double condition" : ""} · ${money(x.stack)}` })));
  $("log").replaceChildren(...s.log.map((line) => el("li", { text: line })));
  setState(play ? play.phase : (s.last ? (s.last.voided ? "voided" : "settled") : "idle"), s.last ? s.last.hand : null);
  document.body.dataset.seq = String(s.seq);
}

const sendRaw = connect(render);
$("sit").addEventListener("click", () => {
  const c = cents($("buy-in").value);
  if (c === null || c <= 0) return messages.error("Enter a buy-in in dollars, for example 20");
  send({ type: "sit", buy_in: c, doubles: $("doubles").checked, key: newKey() });
});
$("leave").addEventListener("click", () => send({ type: "leave", key: newKey() }));
$("deal").addEventListener("click", () => send({ type: "deal" }));
$("add-bot").addEventListener("click", () => send({ type: "bot", key: newKey() }));
$("foul-cancel").addEventListener("click", () => { foulAction = null; $("foul-dialog").close(); });
$("foul-confirm").addEventListener("click", () => {
  $("foul-dialog").close();
  if (foulAction) act(foulAction);
  foulAction = null;
});

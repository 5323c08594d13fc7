// The Super Pan 9 table: wager (and tie bet) with chips; after the deal each seat in turn
// draws one card or stands (large buttons for the seat in turn); then the dealer turns up,
// draws on 0 to 5, and every wager settles. Drawn from the table's snapshot only: other
// players' cards and the dealer's stay backs until the rules show them.
import {
  $, tableBetting, cardShort, connect, denominations, drawCards, el, handTitle, messages, money,
  outcomeBadge,
  percent, seatControls, seatList, setState, wagerChanges,
} from "./table-client.js";

let snap = null;

const betting = tableBetting(() => (me() ? me().stack : 0));
betting.spot("wager", document.querySelector('[data-kind="wager"]'), "the wager");
betting.spot("tie", document.querySelector('[data-kind="tie"]'), "the tie bet");

function me() { return snap ? snap.players.find((p) => p.you) : null; }
const nameAt = (seat) => (snap.players.find((p) => p.seat === seat) || { name: `seat ${seat}` }).name;

function handBox(h, round, mySeat) {
  const toAct = round.to_act === h.seat && round.phase === "players";
  let doing = "";
  if (h.voided) doing = "hand void: wagers returned";
  else if (h.acted) doing = h.drew ? "drew a card" : "stands";
  else if (toAct) doing = "to act now";
  const box = el("div", { class: "area" + (toAct ? " to-act" : ""), dataset: { seat: h.seat } },
    el("h3", {}, el("span", { text: `Seat ${h.seat}: ${h.name}${h.seat === mySeat ? " (you)" : ""}` }),
      el("span", { class: "total", text: h.total ?? "" })),
    el("div", { class: "cards" }),
    el("p", { class: "muted", text: [`Wager ${money(h.wager)}`, h.tie_wager ? `tie bet ${money(h.tie_wager)}` : "", doing].filter(Boolean).join(" · ") }));
  drawCards(box.querySelector(".cards"), h.cards, h.card_count);
  return box;
}

/** The dealer's turn in order: the three cards turned up, then the draw on 0 to 5. */
function dealerLog(dealer) {
  if (!dealer.cards) return [];
  const [a, b, c, drawn] = dealer.cards;
  const lines = [`The dealer turns up ${[a, b, c].map((x) => cardShort(x.text)).join(" ")}.`];
  lines.push(drawn ? `The dealer draws ${cardShort(drawn.text)}: total ${dealer.total}.` : `The dealer stands on ${dealer.total}.`);
  return lines.map((t) => el("li", { text: t }));
}

/** One seat's result, the main wager and the tie bet apart (from the settlement's fields). */
function results(x) {
  if (x.voided) return [el("li", {}, `Wager ${money(x.wager)}: `, outcomeBadge(0, { voided: true }))];
  const main = x.outcome === "win" ? x.wager - x.commission : x.outcome === "loss" ? -x.wager : 0;
  const out = [el("li", { dataset: { kind: "wager" } }, `Wager ${money(x.wager)}, your total ${x.total}: `,
    outcomeBadge(main), x.commission ? ` after ${money(x.commission)} commission` : "")];
  if (x.tie_wager) {
    out.push(el("li", { dataset: { kind: "tie" } }, `Tie bet ${money(x.tie_wager)}: `, outcomeBadge(x.net - main),
      x.tie_commission ? ` after ${money(x.tie_commission)} commission` : ""));
  }
  return out;
}

function render(s) {
  snap = s;
  const l = s.limits, round = s.round, last = s.last, my = me();
  $("limits").textContent = `Wager ${money(l.min)} to ${money(l.max)}` +
    (l.tie_min !== null ? ` · Tie bet ${money(l.tie_min)} to ${money(l.tie_max)}` : "");
  $("wager-pays").textContent = `pays 1 to 1 less ${percent(l.commission)} commission`;
  $("tie-pays").textContent = l.tie_min !== null ? `pays ${l.tie_pays} to 1` : "";
  document.querySelector('[data-kind="tie"]').hidden = l.tie_min === null;
  $("shoe").textContent = s.shoe.remaining === null ? "New shoe at the first deal" : `${s.shoe.remaining} cards left in the shoe`;
  betting.setDenominations(denominations(Math.min(l.min, l.tie_min ?? l.min), l.max, l.smallest_chip));
  betting.setMax("wager", l.max); betting.setMax("tie", l.tie_max || 0);

  const dealt = round && round.phase !== "betting";
  const shown = dealt ? round : (last && !last.voided ? last : null);
  drawCards($("dealer-cards"), shown ? shown.dealer.cards : null, shown ? shown.dealer.card_count : 0);
  $("dealer-total").textContent = shown && shown.dealer.total !== null ? shown.dealer.total : "";
  $("dealer-log").replaceChildren(...(shown ? dealerLog(shown.dealer) : []));
  $("hands").replaceChildren(...(shown ? shown.seats.map((h) => handBox(h, dealt ? round : { to_act: null, phase: "complete" }, s.you.seat)) : []));

  if (last && last.voided && !dealt) {
    $("result").textContent = `${handTitle(last)} was voided by the floor (${last.reason}): every wager was returned.`;
  } else if (dealt && round.phase === "players") {
    $("result").textContent = round.to_act === s.you.seat ? "Your turn: draw a card or stand." :
      `Seat ${round.to_act} (${nameAt(round.to_act)}) is to act.`;
  } else if (shown && !dealt) {
    $("result").textContent = `${handTitle(last)}: the dealer has ${last.dealer_total}.`;
  } else $("result").textContent = round ? "Wagers are being placed." : "Place a wager to start a hand.";

  const myHand = dealt ? round.seats.find((h) => h.seat === s.you.seat) : null;
  $("decide").hidden = !s.you.to_act;
  // the player's cards in brief beside the buttons (the bar a phone keeps on its screen)
  $("my-total").textContent = myHand && myHand.total !== null
    ? `You have ${myHand.total}${myHand.cards ? `: ${myHand.cards.map((c) => cardShort(c.text)).join(" ")}` : ""}.` : "Your turn";

  // my wagers: placed ones come from the round (changeable until the deal); until then the
  // chips I put down
  const mine = round && round.phase === "betting" ? round.seats.find((h) => h.seat === s.you.seat) : null;
  const held = mine || myHand;
  const down = !!held;
  const composing = changes.show(held ? { wager: held.wager, tie: held.tie_wager } : {}, !!mine);
  if (!composing || !s.you.seated) betting.set({});  // placed: nothing left to place
  betting.enable(!!my && composing);
  $("compose").hidden = !composing;
  $("bet").hidden = !composing; $("clear").hidden = !composing; $("rebet").hidden = down;
  $("deal").hidden = !(s.you.may_deal && round && round.phase === "betting");
  $("sit-box").hidden = s.you.seated;
  $("bet-box").hidden = !s.you.seated;
  $("seat-box").hidden = !s.you.seated;
  $("leave").hidden = down;
  $("stack").textContent = my ? money(my.stack) : "";

  const settled = !dealt && last && !last.voided ? last.settlements.find((x) => x.seat === s.you.seat) : null;
  $("my-results-head").hidden = !settled;
  $("my-results").replaceChildren(...(settled ? results(settled) : []));
  seatList($("players"), s.players.map((p) => ({ seat: p.seat, name: p.name, stack: p.stack, you: p.you,
    toAct: dealt && round.to_act === p.seat })));
  setState(round ? round.phase : (last ? (last.voided ? "voided" : "settled") : "idle"), last ? last.hand : null);
}

const send = connect(render);
const changes = wagerChanges(betting, send, () => render(snap));
seatControls(send);
$("bet").addEventListener("click", () => {
  if (!betting.wagers.wager) return messages.error("Put at least one chip on the wager first");
  changes.place({ ...betting.wagers });
});
$("clear").addEventListener("click", () => betting.clear());
$("rebet").addEventListener("click", () => betting.rebet());
$("deal").addEventListener("click", () => send({ type: "deal" }));
$("draw").addEventListener("click", () => send({ type: "draw" }));
$("stand").addEventListener("click", () => send({ type: "stand" }));

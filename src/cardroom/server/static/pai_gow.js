// The Pai Gow table: wager with chips (and the dragon hand, or the bank, where the rules allow
// it); after the deal (the dice and the first hand shown) the player arranges the seven cards
// by tapping them between the high and the low hand, the two hands named as they are made and
// a foul setting flagged before it is confirmed; or asks for the house way. At settlement
// every hand is shown as set, the dealer's too, with its result.
import {
  $, tableBetting, capital, connect, denominations, drawCards, el, handTitle, messages, money, newKey,
  outcomeBadge,
  percent, seatControls, seatList, sentence, setState, wagerChanges,
} from "./table-client.js";

const FOUL_RULE = {
  "hand-loses": "At this table a foul hand loses.",
  "reset-house-way": "At this table a foul hand is set the house way for you.",
  refuse: "At this table a foul setting is refused: move the cards again.",
};
const DRAGON_RULE = { "not-allowed": "no dragon hand", "house-way": "dragon hand set the house way",
  "player-sets": "dragon hand set by its player" };
let snap = null;
let arranging = null;  // {key, spot, low: [card texts]} for the hand being set

const betting = tableBetting(() => (me() ? me().stack : 0));
betting.spot("wager", document.querySelector('[data-kind="wager"]'), "the wager");
betting.spot("dragon", document.querySelector('[data-kind="dragon"]'), "the dragon hand");

function me() { return snap ? snap.players.find((p) => p.you) : null; }
function spotName(spot, name) {
  if (spot === 0) return "Dealer";
  return name.startsWith("dragon") ? `Dragon hand (${name.slice(8, -1)})` : `Seat ${spot}: ${name}`;
}

/** A hand as set: the low hand and the high hand, named. */
function settingRows(setting, names) {
  const low = el("div", { class: "cards small" }), high = el("div", { class: "cards small" });
  drawCards(low, setting.front); drawCards(high, setting.back);
  return [el("div", { class: "setting" },
    el("div", {}, el("p", { class: "muted", text: `Low hand${names ? ": " + capital(names.low) : ""}` }), low),
    el("div", {}, el("p", { class: "muted", text: `High hand${names ? ": " + capital(names.high) : ""}` }), high))];
}

function resultWords(x) {
  if (x.outcome === "void") return outcomeBadge(0, { voided: true });
  return outcomeBadge(x.net, { word: x.setting && x.setting.foul ? "foul" : null });
}

/** A spot at settlement: its setting, names and result. */
function settledBox(x, banker) {
  const head = el("h3", {}, el("span", { text: spotName(x.spot, x.name) }),
    x.spot === banker ? el("span", { class: "banker-tag", text: "bank" }) : null);
  const box = el("div", { class: "area", dataset: { spot: x.spot } }, head);
  if (x.setting) box.append(...settingRows(x.setting, x.names));
  else { const c = el("div", { class: "cards small" }); drawCards(c, x.cards); box.append(c); }
  const notes = [x.house_way ? "set the house way" : "", x.setting && x.setting.foul ? "foul" : ""].filter(Boolean);
  if (notes.length) box.append(el("p", { class: "muted", text: sentence(notes.join(", ")) }));
  if (x.outcome && x.spot !== banker) {
    box.append(el("p", {}, resultWords(x), x.commission ? ` after ${money(x.commission)} commission` : ""));
  }
  return box;
}

/** A spot during the hand: its cards (backs unless they are this viewer's) and whether set. */
function liveBox(x, banker) {
  const box = el("div", { class: "area", dataset: { spot: x.spot } },
    el("h3", {}, el("span", { text: spotName(x.spot, x.name) }),
      x.spot === banker ? el("span", { class: "banker-tag", text: "bank" }) : null));
  if (x.setting) box.append(...settingRows(x.setting, null));
  else { const c = el("div", { class: "cards small" }); drawCards(c, x.cards, x.card_count); box.append(c); }
  box.append(el("p", { class: "muted", text: x.set ? "Hand set." : "Setting the hand…" }));
  return box;
}

function arrangeView(spot) {
  const key = `${snap.hand.id}:${spot.spot}`;
  if (!arranging || arranging.key !== key) arranging = { key, spot: spot.spot, low: [] };
  const inLow = (c) => arranging.low.includes(c.text);
  const move = (c) => {
    if (inLow(c)) arranging.low = arranging.low.filter((t) => t !== c.text);
    else if (arranging.low.length < 2) arranging.low.push(c.text);
    else return messages.error("The low hand holds two cards: tap one of them to move it back first");
    messages.clearError();
    arrangeView(spot);
  };
  drawCards($("low-cards"), spot.cards.filter(inLow), 0, move);
  drawCards($("high-cards"), spot.cards.filter((c) => !inLow(c)), 0, move);
  $("arrange-head").textContent = spot.spot === snap.you.seat ? "Set your hand" : `Set the ${spotName(spot.spot, spot.name).toLowerCase()}`;
  const choice = arranging.low.length === 2 && spot.choices ? spot.choices.find((ch) =>
    ch.front.every((t) => arranging.low.includes(t))) : null;
  $("low-name").textContent = choice ? capital(choice.low) : `Choose ${2 - arranging.low.length} more card${arranging.low.length === 1 ? "" : "s"}`;
  $("high-name").textContent = choice ? capital(choice.high) : "";
  const foul = !!(choice && choice.foul);
  $("foul-flag").hidden = !foul;
  $("foul-flag").textContent = foul ? `Foul: the high hand must beat the low hand. ${FOUL_RULE[snap.limits.foul_policy]}` : "";
  $("set").disabled = !choice || (foul && snap.limits.foul_policy === "refuse");
}

function render(s) {
  snap = s;
  const l = s.limits, last = s.last, my = me();
  $("limits").textContent = `Wager ${money(l.min)} to ${money(l.max)} · ${percent(l.commission)} commission on wins · ${DRAGON_RULE[l.dragon] || l.dragon}`;
  $("wager-pays").textContent = `pays 1 to 1 less ${percent(l.commission)}`;
  $("banker").textContent = s.banker.spot === 0 ? "the house" : s.banker.name;
  betting.setDenominations(denominations(l.min, l.max, l.smallest_chip));
  betting.setMax("wager", l.max); betting.setMax("dragon", l.max);

  const dealt = s.spots.length > 0;
  const settled = !dealt && last && !last.voided ? last : null;
  const toSet = s.you.to_set || [];
  const mineNow = dealt ? s.spots.find((x) => x.spot === toSet[0]) : null;
  // the dealer's hand: backs during the hand; set the house way at settlement
  const dealer = dealt ? s.spots.find((x) => x.spot === 0) : settled ? settled.spots.find((x) => x.spot === 0) : null;
  const dealerCards = el("div", { class: "cards" });
  if (dealer && settled) $("dealer-hand").replaceChildren(...settingRows(dealer.setting, dealer.names),
    el("p", { class: "muted", text: "Set the house way." }));
  else { drawCards(dealerCards, dealer ? dealer.cards : null, dealer ? dealer.card_count : 0); $("dealer-hand").replaceChildren(dealerCards); }
  $("dealer-tag").replaceChildren(...((dealt ? s.banker.spot : settled ? settled.banker_spot : s.banker.spot) === 0 ?
    [el("span", { class: "banker-tag", text: "bank" })] : []));
  // the dice and the first hand dealt
  $("dice-line").hidden = !s.deal || !(dealt || settled);
  if (s.deal) {
    $("dice").replaceChildren(...s.deal.dice.map((d) => el("span", { class: "die", text: d,
      attrs: { "aria-label": `die showing ${d}` } })));
    const first = s.deal.first_spot, p = s.players.find((x) => x.seat === first);
    $("first-hand").textContent = (s.deal.dice.length ? `Dice ${s.deal.dice.reduce((a, b) => a + b, 0)}: ` : "") +
      `the first hand went to ${first === 0 ? "the dealer" : p ? `seat ${first} (${p.name})` : `an open seat (${first})`}.`;
  }
  // my hand to arrange
  $("arrange-box").hidden = !mineNow;
  if (mineNow) arrangeView(mineNow);
  else { arranging = null; $("low-cards").replaceChildren(); $("high-cards").replaceChildren(); }
  const others = dealt ? s.spots.filter((x) => x.spot !== 0 && x !== mineNow).map((x) => liveBox(x, s.banker.spot)) :
    settled ? settled.spots.filter((x) => x.spot !== 0).map((x) => settledBox(x, settled.banker_spot)) : [];
  $("spots").replaceChildren(...others);

  if (last && last.voided && !dealt) $("result").textContent = `${handTitle(last)} was voided by the floor (${last.reason}): every wager was returned.`;
  else if (dealt) $("result").textContent = mineNow ? "Arrange your seven cards into a high hand and a low hand." : "Waiting for every hand to be set.";
  else if (settled) {
    const bank = settled.banker_spot === 0 ? "The house banked" : `${settled.spots.find((x) => x.spot === settled.banker_spot).name} banked`;
    $("result").textContent = `${handTitle(settled)} settled. ${bank}.`;
  } else $("result").textContent = s.hand.open ? "Wagers are being placed." : "Place a wager to start a hand.";

  // wagers: the wager first, then the dragon hand where allowed; until the deal the placed
  // ones may be changed (the dragon hand goes back with the wager) or taken back
  const betting_ = s.phase === "betting";
  const placed = my ? { wager: my.wager || 0, dragon: my.dragon || 0 } : {};
  changes.show(placed, betting_);
  const changing = changes.changing;
  const open = [];
  if (my && betting_ && (!placed.wager || changing) && !my.banker) open.push("wager");
  if (s.you.may_dragon || (changing && placed.dragon)) open.push("dragon");
  document.querySelector('[data-kind="dragon"]').hidden = !(s.you.may_dragon || placed.dragon);
  if (Object.keys(betting.wagers).some((k) => !open.includes(k))) {
    betting.set(Object.fromEntries(Object.entries(betting.wagers).filter(([k]) => open.includes(k))));
  }
  betting.enable(open);
  $("compose").hidden = open.length === 0;
  $("bet").hidden = !open.includes("wager");
  $("dragon").hidden = !open.includes("dragon") || changing;  // a change places both at once
  $("clear").hidden = open.length === 0; $("rebet").hidden = !open.includes("wager") || changing;
  $("bank").hidden = !s.you.may_bank;
  $("bank-note").textContent = s.you.seated && betting_ && s.you.bank_refusal ? `You cannot take the bank now: ${s.you.bank_refusal}.` : "";
  $("deal").hidden = !s.you.may_deal;
  $("sit-box").hidden = s.you.seated;
  $("bet-box").hidden = !s.you.seated;
  $("seat-box").hidden = !s.you.seated;
  $("leave").hidden = !!(placed.wager || placed.dragon || (my && my.banker) || dealt);
  $("stack").textContent = my ? money(my.stack) : "";

  // my results: my seat's hand, the dragon hand I played, the bank I held
  const mine = settled && my ? settled.spots.filter((x) => x.spot !== 0 && (x.spot === my.seat || x.name === `dragon (${my.name})`)) : [];
  const items = mine.filter((x) => x.outcome).map((x) => el("li", {}, `${x.spot === my.seat ? "Your hand" : "The dragon hand"}` +
    (x.wager ? ` (${money(x.wager)})` : "") + ": ", resultWords(x), x.commission ? ` after ${money(x.commission)} commission` : ""));
  if (settled && my && settled.banker_spot === my.seat) {
    items.push(el("li", {}, "The bank: ", outcomeBadge(settled.banker_net - settled.banker_commission),
      settled.banker_commission ? ` after ${money(settled.banker_commission)} commission` : ""));
  }
  $("my-results-head").hidden = items.length === 0;
  $("my-results").replaceChildren(...items);
  seatList($("players"), s.players.map((p) => ({ seat: p.seat, name: p.name, stack: p.stack, you: p.you,
    lines: [p.wager ? `Wager ${money(p.wager)}` : "", p.dragon ? `Dragon hand ${money(p.dragon)}` : "", p.banker ? "Banks this hand" : ""].filter(Boolean) })));
  setState(s.hand.open ? s.phase : (last ? (last.voided ? "voided" : "settled") : "idle"), last ? last.hand : null);
}

const send = connect(render);
const changes = wagerChanges(betting, send, () => render(snap));
seatControls(send);
$("bet").addEventListener("click", () => {
  if (!betting.wagers.wager) return messages.error("Put at least one chip on the wager first");
  const dragon = betting.wagers.dragon;
  // a change withdraws the dragon hand with the wager: played again after it
  if (changes.place({ wager: betting.wagers.wager }) && dragon) {
    send({ type: "dragon", amount: dragon, key: newKey() });
  }
});
$("dragon").addEventListener("click", () => {
  if (!betting.wagers.dragon) return messages.error("Put at least one chip on the dragon hand first");
  send({ type: "dragon", amount: betting.wagers.dragon, key: newKey() });
});
$("clear").addEventListener("click", () => betting.clear());
$("rebet").addEventListener("click", () => betting.rebet());
$("bank").addEventListener("click", () => send({ type: "bank", key: newKey() }));
$("deal").addEventListener("click", () => send({ type: "deal" }));
$("set").addEventListener("click", () => {
  if (!arranging || arranging.low.length !== 2) return messages.error("Move two cards to the low hand first");
  send({ type: "set", front: arranging.low, spot: arranging.spot });
});
$("house-way").addEventListener("click", () => send({ type: "house_way", spot: arranging ? arranging.spot : snap.you.seat }));

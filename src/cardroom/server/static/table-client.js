// The shared table client: every game's page is an ES module that imports from here.
//
// - connect(): the table's WebSocket; after a dropped connection it reconnects by itself
//   (the seat is the room's, not the socket's: the server resends this viewer's snapshot).
// - Messages: the message area under the felt, one plain sentence at a time.
// - drawCards()/cardImage(): cards as /cards/{code}.svg, drawn only from what the server's
//   per-viewer snapshot holds; a card the viewer may not see is a card back.
// - Betting: chip buttons (denominations from the table limits), wager spots that take a
//   chip per click, clear, re-bet the last hand's wagers; the stack shown as it changes;
//   placed wagers changed or taken back until the deal (wagerChanges).
// - money(), outcome badges, a small DOM helper.
// Nothing here is game-specific; no inline script or style (the room's CSP forbids both).

export const $ = (id) => document.getElementById(id);

/** Cents as dollars: 12345 -> "$123.45", -500 -> "-$5.00". */
export function money(cents) {
  const c = Math.abs(cents);
  return (cents < 0 ? "-" : "") + "$" + Math.floor(c / 100).toLocaleString("en-US") + "." +
    String(c % 100).padStart(2, "0");
}

/** A chip's face: whole dollars, thousands as K ("$5", "$25", "$1K"). */
export function chipLabel(cents) {
  const d = cents / 100;
  if (d >= 1000 && d % 1000 === 0) return `$${d / 1000}K`;
  return Number.isInteger(d) ? `$${d}` : money(cents);
}

/** A rate the snapshot sends as "1/20" in words: "5%". */
export function percent(rate) {
  const [n, d] = String(rate).split("/").map(Number);
  return d ? `${Math.round((n / d) * 10000) / 100}%` : String(rate);
}

/** "$200", "200", "12.50" -> cents; anything else -> null. */
export function cents(text) {
  const m = /^\s*\$?(\d{1,9})(?:\.(\d{1,2}))?\s*$/.exec(text || "");
  return m ? parseInt(m[1], 10) * 100 + parseInt((m[2] || "0").padEnd(2, "0"), 10) : null;
}

/** A fresh request reference: a retried request is applied once. */
export function newKey() {
  return crypto.randomUUID ? crypto.randomUUID() : String(Math.random()).slice(2);
}

/** el("p", {class: "x", text: "hi", dataset: {seat: 1}, attrs: {"aria-label": ".."},
 *  on: {click: fn}}, ...children) */
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  if (props.class) node.className = props.class;
  if (props.text !== undefined && props.text !== null) node.textContent = String(props.text);
  for (const [k, v] of Object.entries(props.dataset || {})) node.dataset[k] = String(v);
  for (const [k, v] of Object.entries(props.attrs || {})) {
    if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const [k, v] of Object.entries(props.on || {})) node.addEventListener(k, v);
  for (const c of children.flat()) {
    if (c !== null && c !== undefined && c !== false) node.append(c);
  }
  return node;
}

/** "pair (Q Q)" -> "Pair (Q Q)". */
/** A hand as people read it (issue 20): its one number in the room (as in /hands/N) and,
 * labelled, the table's own count; room/hands.py `hand_title` writes the same words. */
export const handTitle = (h) => `Hand ${h.hand}` + (h.number ? ` (table's hand ${h.number})` : "");

export const capital = (text) => (text ? text[0].toUpperCase() + text.slice(1) : "");

/** Sentence case and a full stop: "you are not seated" -> "You are not seated." */
export function sentence(text) {
  const t = String(text || "").trim();
  if (!t) return "";
  const s = t[0].toUpperCase() + t.slice(1);
  return /[.!?)]$/.test(s) ? s : s + ".";
}

// cards ---------------------------------------------------------------------------------------
const RANKS = { A: "ace", K: "king", Q: "queen", J: "jack", T: "ten", 9: "nine", 8: "eight",
  7: "seven", 6: "six", 5: "five", 4: "four", 3: "three", 2: "two" };
const SUITS = { s: "spades", h: "hearts", d: "diamonds", c: "clubs" };

/** "As" -> "ace of spades", "JK" -> "joker" (the card's accessible name). */
export function cardName(text) {
  if (text === "JK") return "joker";
  const rank = text.slice(0, -1) === "10" ? "T" : text.slice(0, -1);
  const name = RANKS[rank], suit = SUITS[text.slice(-1)];
  return name && suit ? `${name} of ${suit}` : text;
}

const PIPS = { s: "\u2660", h: "\u2665", d: "\u2666", c: "\u2663" };

/** "Th" -> "10♥", "JK" -> "joker": a card in a sentence. */
export function cardShort(text) {
  if (text === "JK") return "joker";
  const rank = text.slice(0, -1);
  return (rank === "T" ? "10" : rank) + (PIPS[text.slice(-1)] || "");
}

/** A face-up card the snapshot holds: {code, text}. `data-card` keeps the short text. */
export function cardImage(card, animate = false) {
  return el("img", { class: "card" + (animate ? " dealt" : ""), dataset: { card: card.text },
    attrs: { src: `/cards/${card.code}.svg`, alt: cardName(card.text), width: 70, height: 100 } });
}

export function cardBack() {
  return el("img", { class: "back", attrs: { src: "/cards/back.svg", alt: "face-down card",
    width: 70, height: 100 } });
}

const drawn = new WeakMap();  // container -> the card texts it showed, to animate new ones

/** Fill `box` with `cards` (face up) or, when the snapshot holds none for this viewer, with
 *  `count` card backs. With `pick` each face-up card is a toggle button (`picked`: the texts
 *  pressed) calling pick(card). */
export function drawCards(box, cards, count = 0, pick = null, picked = []) {
  const before = drawn.get(box) || [];
  const nodes = cards ? cards.map((c) => {
    const img = cardImage(c, !before.includes(c.text));
    if (!pick) return img;
    return el("button", { class: "card-button", attrs: { type: "button",
      "aria-pressed": picked.includes(c.text) ? "true" : "false",
      "aria-label": cardName(c.text) }, dataset: { card: c.text },
    on: { click: () => pick(c) } }, img);
  }) : Array.from({ length: count || 0 }, cardBack);
  box.replaceChildren(...nodes);
  drawn.set(box, cards ? cards.map((c) => c.text) : []);
}

// results --------------------------------------------------------------------------------------
/** A result badge for one wager: net > 0 won, < 0 lost, 0 pushed (or "void"). */
export function outcomeBadge(net, { voided = false, word = null } = {}) {
  let cls = "pushed", text = "Push: wager returned";
  if (voided) { cls = "void"; text = "Void: wager returned"; }
  else if (net > 0) { cls = "won"; text = `Won ${money(net)}`; }
  else if (net < 0) { cls = "lost"; text = `Lost ${money(-net)}`; }
  return el("span", { class: `outcome ${cls}`, text: word ? `${text} (${word})` : text });
}

// the message area -------------------------------------------------------------------------------
/** The message area: `#error` (role=alert) for refusals, `#status` (role=status) for news. */
export const messages = {
  error(text) {
    const box = $("error");
    if (!box) return;
    box.textContent = sentence(text);
    box.hidden = false;
  },
  clearError() { const box = $("error"); if (box) box.hidden = true; },
  status(text) { const box = $("status"); if (box) box.textContent = sentence(text); },
};

// the connection ---------------------------------------------------------------------------------
const connectionWords = { connecting: "Connecting…", open: "Connected", lost: "Reconnecting…",
  ended: "Disconnected" };

function showConnection(state) {
  const badge = $("connection");
  if (!badge) return;
  badge.dataset.state = state;
  badge.textContent = connectionWords[state];
}

/** Open the table's socket. `onState(snapshot)` renders each snapshot; refusals go to the
 *  message area. Returns send(msg). A dropped connection is retried (0.5 s, doubling to 8 s);
 *  the server sends the snapshot again on every (re)connection, so the page is whole again.
 *  A closed session (code 4401) is not retried: the player is asked to log in. */
/** A payout of the last hand held for surveillance (WAC 230-15-320(4)): the table says that it
 *  awaits verification, the fact only ("alice's Banker 9 is awaiting verification"). */
function showAwaiting(last) {
  const box = $("awaiting");
  if (!box) return;
  const waiting = (last && last.awaiting_verification) || [];
  box.hidden = !waiting.length;
  box.textContent = waiting.map((w) => `${w.name}'s ${WAGER_WORDS[w.wager] || w.wager.replace(/_/g, " ")} payout is awaiting verification`).join(". ") + (waiting.length ? "." : "");
}
const WAGER_WORDS = { banker: "Banker", player: "Player", tie: "Tie", banker_9: "Banker 9",
  player_9: "Player 9", progressive: "Jackpot" };

export function connect(onState, { tableId = $("felt").dataset.table } = {}) {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const url = `${proto}://${location.host}/ws/tables/${tableId}`;
  let ws = null, delay = 500, dropped = false, seen = 0;

  function open() {
    showConnection(dropped ? "lost" : "connecting");
    ws = new WebSocket(url);
    window.cardroomSocket = ws;  // the browser tests drop it to test the reconnection
    ws.onopen = () => {
      delay = 500;
      showConnection("open");
      if (dropped) { messages.status("Connected again: the table is up to date"); dropped = false; }
    };
    ws.onmessage = (ev) => {
      const m = JSON.parse(ev.data);
      if (m.type === "state") { messages.clearError(); showAwaiting(m.last); showTurn(m); showStaff(m); onState(m); }
      else if (m.type === "error") messages.error(m.message);
      document.body.dataset.messages = String(++seen);
    };
    ws.onclose = (ev) => {
      if (ev.code === 4401 || ev.code === 1008) {
        showConnection("ended");
        messages.error("You are no longer logged in: log in again to come back to the table");
        return;
      }
      dropped = true;
      showConnection("lost");
      messages.status("The connection to the table dropped: reconnecting. Your seat is kept");
      setTimeout(open, delay);
      delay = Math.min(delay * 2, 8000);
    };
  }
  open();
  const send = (msg) => {
    if (!ws || ws.readyState !== WebSocket.OPEN) {
      messages.error("Not connected to the table yet: try again in a moment");
      return;
    }
    messages.clearError();
    ws.send(JSON.stringify(msg));
  };
  const back = $("back");
  if (back) back.addEventListener("click", () => send({ type: "back" }));
  const deal = $("staff-deal"), actFor = $("act-for");
  if (deal) deal.addEventListener("click", () => send({ type: "deal" }));
  if (actFor) actFor.addEventListener("click", () => send({ type: "act_for" }));
  return send;
}

// dealer and floor controls (issue 23) -----------------------------------------------------------
const DEFAULT_WORDS = { "super-pan-9": "Stand for", pan: "Play the default for" };

/** A dealer or the floor who is not seated gets their own controls: deal while no hand is in
 *  play, and act for the player the hand waits for (the timer's default: stand at Super Pan 9,
 *  pass or draw and discard at Pan). */
function showStaff(m) {
  const box = $("staff-box");
  if (!box) return;
  box.hidden = !(m.you.may_deal && !m.you.seated);
  const phase = m.hand.phase;
  $("staff-deal").hidden = !(phase === "idle" || phase === "betting" || (phase === undefined && m.hand.open));
  const turn = m.hand.turn, actFor = $("act-for");
  actFor.hidden = !turn;
  actFor.textContent = turn ? `${DEFAULT_WORDS[m.game] || "Act for"} ${turn.name}` : "";
}

// the turn timer (issue 23) ------------------------------------------------------------------------
let turnEnds = null, turnWho = "", turnTick = null;

function showTurnLeft() {
  const box = $("turn-clock");
  if (!box) return;
  if (turnEnds === null) { box.hidden = true; return; }
  const left = Math.max(0, Math.ceil((turnEnds - Date.now()) / 1000));
  box.hidden = false;
  box.dataset.left = String(left);
  box.classList.toggle("short", left <= 10);
  const time = left >= 60 ? `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}` : `${left} s`;
  box.textContent = `${turnWho} to act: ${time} left` + (left ? "" : " (the default is being taken)");
}

/** At a table with turn timers (Super Pan 9, Pan): who is to act and the time left, counted
 *  down here from the snapshot's `seconds_left` (this page's clock, not the server's); a
 *  player who sits out after missed turns sees the way back. */
function showTurn(m) {
  const turn = m.hand ? m.hand.turn : null;
  turnEnds = turn ? Date.now() + turn.seconds_left * 1000 : null;
  turnWho = turn ? (m.you.seat !== null && m.you.seat === turn.seat ? "You are" : `${turn.name} is`) : "";
  showTurnLeft();
  if (turn && turnTick === null) turnTick = setInterval(showTurnLeft, 1000);
  if (!turn && turnTick !== null) { clearInterval(turnTick); turnTick = null; }
  const out = $("sitting-out");
  if (out) out.hidden = !m.you.sitting_out;
}

/** The seat panel every table shares: #buy-in + #sit, #leave, #deal. */
export function seatControls(send) {
  $("sit").addEventListener("click", () => {
    const c = cents($("buy-in").value);
    if (c === null || c <= 0) return messages.error("Enter a buy-in in dollars, for example 200");
    send({ type: "sit", buy_in: c, key: newKey() });
  });
  $("leave").addEventListener("click", () => send({ type: "leave", key: newKey() }));
}

// chips and wager spots ------------------------------------------------------------------------
const CHIPS = [25, 50, 100, 250, 500, 2500, 10000, 50000, 100000, 500000];

/** The chip denominations for a table whose smallest chip is `chip` (the snapshot's
 *  `limits.smallest_chip`: every wager is a whole number of them): that chip first, so any
 *  wager the table takes can be made, then four standard chips that are multiples of it, from
 *  the largest that is not above the minimum, none above the maximum. */
export function denominations(min, max, chip = 100) {
  const usable = CHIPS.filter((c) => c > chip && c % chip === 0 && c <= max);
  const start = Math.max(0, usable.filter((c) => c <= min).length - 1);
  return [chip, ...usable.slice(start, start + 4)];
}

/** Chip buttons in `rack` and wager spots that take a chip per click. The chips a player puts
 *  down (`wagers`) stay client-side, theirs to change, until they submit them; the wagers the
 *  table holds already (`placed`, from the snapshot) are shown on the same spots.
 *  opts: {denominations, stack: () => cents (chips not in play), onChange(betting),
 *         storageKey: where the last hand's wagers are remembered for re-bet}. */
export class Betting {
  constructor(rack, { denominations: denoms, stack, onChange = () => {}, storageKey }) {
    this.rack = rack;
    this.stack = stack;
    this.onChange = onChange;
    this.storageKey = storageKey;
    this.spots = new Map();  // kind -> {button, label, max}
    this.wagers = {};
    this.placed = {};
    this.setDenominations(denoms);
  }

  setDenominations(denoms) {
    const key = denoms.join(",");
    if (key === this.denomKey) return;
    this.denomKey = key;
    this.chip = this.chip && denoms.includes(this.chip) ? this.chip : denoms[0];
    this.rack.replaceChildren(...denoms.map((c) => el("button", {
      class: `chip c${String(c / 100).replace(".", "_")}`, text: chipLabel(c), dataset: { chip: c },
      attrs: { type: "button", "aria-pressed": c === this.chip ? "true" : "false",
        "aria-label": `${chipLabel(c)} chip` },
      on: { click: () => this.select(c) } })));
  }

  select(chip) {
    this.chip = chip;
    for (const b of this.rack.querySelectorAll("button.chip")) {
      b.setAttribute("aria-pressed", String(Number(b.dataset.chip) === chip));
    }
    this.paint();
  }

  /** A wager spot: `button` takes the selected chip per click; `label` names the wager in
   *  messages; `max` (cents) caps it. The button holds a `.amount` span. */
  spot(kind, button, label, max = Infinity) {
    this.spots.set(kind, { button, label, max });
    button.addEventListener("click", () => this.add(kind));
    this.paint();
  }

  setMax(kind, max) { const s = this.spots.get(kind); if (s) s.max = max; }

  /** The chips put down and not yet submitted. */
  get total() { return Object.values(this.wagers).reduce((a, b) => a + b, 0); }

  /** The chips left in the stack once those are counted. */
  get left() { return this.stack() - this.total; }

  add(kind) {
    const spot = this.spots.get(kind);
    if (!spot || spot.button.disabled) return;
    const now = (this.wagers[kind] || 0) + (this.placed[kind] || 0);
    if (this.chip > this.left) {
      return messages.error(`Your stack has ${money(this.left)} left: not enough for another ${chipLabel(this.chip)} chip`);
    }
    if (now + this.chip > spot.max) {
      return messages.error(`The most you may bet on ${spot.label} is ${money(spot.max)}`);
    }
    messages.clearError();
    this.wagers[kind] = (this.wagers[kind] || 0) + this.chip;
    this.paint();
  }

  /** Put these chips down (kinds without a spot are left out). */
  set(wagers) {
    this.wagers = {};
    for (const [k, v] of Object.entries(wagers || {})) if (v > 0 && this.spots.has(k)) this.wagers[k] = v;
    this.paint();
  }

  /** The wagers the table holds for this player now (from the snapshot). */
  setPlaced(placed) {
    this.placed = {};
    for (const [k, v] of Object.entries(placed || {})) if (v > 0) this.placed[k] = v;
    this.paint();
  }

  clear() { this.wagers = {}; messages.clearError(); this.paint(); }

  /** Remember the wagers just submitted: the next hand's re-bet. */
  remember() {
    if (this.storageKey) sessionStorage.setItem(this.storageKey, JSON.stringify(this.wagers));
  }

  get last() {
    try { return JSON.parse(sessionStorage.getItem(this.storageKey) || "null"); }
    catch { return null; }
  }

  /** Put the last hand's wagers back on the layout, if the stack covers them. */
  rebet() {
    const last = this.last;
    if (!last || !Object.keys(last).length) return messages.error("There is no last bet to repeat yet");
    const total = Object.values(last).reduce((a, b) => a + b, 0);
    if (total > this.stack()) return messages.error(`Your stack has ${money(this.stack())}: the last bet was ${money(total)}`);
    this.set(last);
    messages.clearError();
  }

  /** Which spots take chips now (`kinds`: all of them when true, none when false). */
  enable(kinds) {
    for (const [kind, { button }] of this.spots) {
      button.disabled = !(kinds === true || (Array.isArray(kinds) && kinds.includes(kind)));
    }
    const any = [...this.spots.values()].some(({ button }) => !button.disabled);
    for (const b of this.rack.querySelectorAll("button")) b.disabled = !any;
    this.paint();
  }

  /** The layout in words, for beside the stack. */
  get summary() {
    const placed = Object.values(this.placed).reduce((a, b) => a + b, 0);
    if (this.total) return `${money(this.total)} on the layout, not placed yet · ${money(this.left)} left`;
    return placed ? `${money(placed)} placed on this hand` : "";
  }

  paint() {
    for (const [kind, { button, label }] of this.spots) {
      const placed = this.placed[kind] || 0, down = this.wagers[kind] || 0;
      const span = button.querySelector(".amount");
      if (span) span.textContent = placed + down ? money(placed + down) : "";
      button.classList.toggle("has-chips", placed + down > 0);
      const words = [placed ? `${money(placed)} placed` : "", down ? `${money(down)} to place` : ""]
        .filter(Boolean).join(", ") || "no bet";
      button.setAttribute("aria-label", `${label}: ${words}` +
        (button.disabled ? "" : `; add a ${chipLabel(this.chip)} chip`));
    }
    this.onChange(this);
  }
}

/** The chip rack of a table page (`#chips`, the on-layout line `#on-layout`, last wagers
 *  remembered per table): `stack` says the chips the player may still put down. */
export function tableBetting(stack) {
  return new Betting($("chips"), {
    denominations: [100],
    stack,
    storageKey: `cardroom.bets.${$("felt").dataset.table}`,
    onChange: (b) => { $("on-layout").textContent = b.summary; },
  });
}

/** Placed wagers changed or taken back until the deal (the room's `change_bets`), one flow for
 *  every house-banked table: **Change my wagers** (`#change`) takes them back onto the rack to
 *  rearrange (the stack shown counts them again) and `place()` then sends the new set; **Take my
 *  wagers back** (`#withdraw`) withdraws them. `redraw()` draws the page again from its last
 *  snapshot. Each render calls `show(held, open)`: the wagers the table holds for this player,
 *  and whether they may still change (the hand not dealt); it answers whether the rack takes
 *  chips now (nothing placed yet, or the placed wagers being changed). */
export function wagerChanges(betting, send, redraw) {
  let held = {}, changing = false;
  const sum = (bets) => Object.values(bets).reduce((a, b) => a + b, 0);
  const stack = betting.stack;
  betting.stack = () => stack() + (changing ? sum(held) : 0);
  $("change").addEventListener("click", () => {
    changing = true;
    redraw();
    betting.set({ ...held });
  });
  $("withdraw").addEventListener("click", () => send({ type: "change_bets", bets: {}, key: newKey() }));
  return {
    get changing() { return changing; },
    show(wagers, open) {
      held = Object.fromEntries(Object.entries(wagers || {}).filter(([, v]) => v > 0));
      const down = Object.keys(held).length > 0;
      if (!down || !open) changing = false;
      betting.setPlaced(changing ? {} : held);
      $("change").hidden = $("withdraw").hidden = !down || !open || changing;
      return !down || changing;
    },
    /** Send the wagers on the rack: a `bet`, or while changing the `change_bets` that replaces
     *  the placed ones. Answers whether it was a change. */
    place(bets) {
      const change = changing;
      betting.remember();
      send({ type: change ? "change_bets" : "bet", bets, key: newKey() });
      if (change) { changing = false; redraw(); }
      return change;
    },
  };
}

/** The seat list every table shows: name, stack, and what the game adds per seat. */
export function seatList(box, seats) {
  box.replaceChildren(...seats.map((s) => el("li", {
    class: "seat" + (s.you ? " you" : "") + (s.toAct ? " to-act" : ""), dataset: { seat: s.seat ?? "" } },
  el("span", { class: "name", text: (s.seat ? `Seat ${s.seat}: ` : "") + s.name + (s.you ? " (you)" : "") }),
  el("span", { class: "stack", text: money(s.stack) }),
  ...(s.lines || []).map((line) => el("span", { class: "line", text: line })))));
}

/** The body's data-state, which the browser tests wait on. */
export function setState(state, hand) {
  document.body.dataset.state = state;
  document.body.dataset.hand = hand === null || hand === undefined ? "" : String(hand);
}

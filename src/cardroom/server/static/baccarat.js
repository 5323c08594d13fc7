// The Mini-Baccarat table: the coup's cards and totals, the wagers on the layout by name, the
// jackpot meter and the shoe's scoreboard, all drawn from the table's snapshot. Wagers are
// made with chips on the layout and placed together ("Place bets"); until then they are the
// player's to change. After the coup every wager's result stays on the table until the next.
import {
  $, tableBetting, connect, denominations, drawCards, el, handTitle, messages, money, outcomeBadge,
  percent, seatControls, seatList, sentence, setState, wagerChanges,
} from "./table-client.js";

const NAMES = { player: "Player", banker: "Banker", tie: "Tie", player_9: "Player 9",
  banker_9: "Banker 9", progressive: "Jackpot" };
const WINNER = { player: "P", banker: "B", tie: "T" };
let snap = null;

const betting = tableBetting(() => (mySeat() ? mySeat().stack : 0));
for (const button of document.querySelectorAll("#spots button.spot")) {
  betting.spot(button.dataset.kind, button, NAMES[button.dataset.kind]);
}

function mySeat() { return snap ? snap.seats.find((s) => s.you) : null; }

/** One wager's result in words: "Banker $10.00: Won $9.50 ($0.50 commission)". */
function wagerResult(x) {
  // a top award held for verification: its wager is taken, its share paid once verified
  if (x.pending) return el("li", { dataset: { kind: x.kind } },
    `${NAMES[x.kind]} ${money(x.stake)}: jackpot of ${money(x.returned)}, paid once the hand is verified`);
  const net = x.won - x.commission;
  const word = ["win", "lose", "push"].includes(x.outcome) ? null : x.outcome;
  return el("li", { dataset: { kind: x.kind } },
    `${NAMES[x.kind]} ${money(x.stake)}: `, outcomeBadge(net, { word }),
    x.commission ? ` after ${money(x.commission)} commission` : "");
}

function renderRoad(road) {
  const bead = road.map((r, i) => {
    const cell = el("span", { class: WINNER[r.winner], text: WINNER[r.winner],
      attrs: { title: `Hand ${i + 1}: ${r.winner} ${r.player} to ${r.banker}` } });
    cell.style.gridRow = String((i % 6) + 1);  // CSSOM, allowed by the CSP
    cell.style.gridColumn = String(Math.floor(i / 6) + 1);
    return cell;
  });
  $("bead-plate").replaceChildren(...bead);
  $("bead-plate").setAttribute("aria-label", road.length ?
    "Winners in order: " + road.map((r) => r.winner).join(", ") : "No hand dealt from this shoe yet");
  // the big road: a column per run of Player or Banker wins; a tie is counted on the last mark
  const marks = [];
  let col = 0, row = 0, prev = null;
  for (const r of road) {
    if (r.winner === "tie") {
      if (marks.length) marks[marks.length - 1].ties += 1;
      continue;
    }
    if (prev === null) { col = 1; row = 1; } else if (r.winner === prev) {
      if (row < 6) row += 1; else col += 1;  // past the sixth row the run turns right
    } else { col = marks.filter((m) => m.row === 1).length + 1; row = 1; }
    prev = r.winner;
    marks.push({ winner: r.winner, col, row, ties: 0 });
  }
  $("big-road").replaceChildren(...marks.map((m) => {
    const cell = el("span", { class: WINNER[m.winner], text: m.ties ? String(m.ties) : "",
      attrs: { title: `${m.winner}${m.ties ? `, then ${m.ties} tie${m.ties > 1 ? "s" : ""}` : ""}` } });
    cell.style.gridRow = String(m.row);
    cell.style.gridColumn = String(m.col);
    return cell;
  }));
  $("big-road").setAttribute("aria-label", `Big road: ${marks.length} Player or Banker wins`);
  const count = (w) => road.filter((r) => r.winner === w).length;
  $("road-counts").textContent = road.length ?
    `This shoe: Player ${count("player")}, Banker ${count("banker")}, Tie ${count("tie")}` :
    "No hand dealt from this shoe yet.";
}

function render(s) {
  snap = s;
  const l = s.limits, me = mySeat(), last = s.last;
  $("limits").textContent = `Player or Banker ${money(l.table_min)} to ${money(l.table_max)} · ` +
    `Tie ${money(l.tie_min)} to ${money(l.tie_max)} · Player 9 and Banker 9 ${money(l.bonus_min)} to ${money(l.bonus_max)}`;
  $("tie-pays").textContent = `pays ${l.tie_pays} to 1`;
  $("banker-pays").textContent = `pays 1 to 1 less ${percent(l.commission)} commission`;
  $("shoe").textContent = s.shoe.remaining === null ? "New shoe at the first deal" :
    `${s.shoe.remaining} cards left in the shoe`;
  $("meter").hidden = !s.jackpot;
  $("jackpot").textContent = s.jackpot ? money(s.jackpot.posted) : "";
  // the posted maximum prize (WAC 230-15-685), when the pool has one
  const maximum = s.jackpot && s.jackpot.maximum;
  $("jackpot-maximum").hidden = !maximum;
  $("jackpot-maximum").textContent = maximum ? `maximum prize ${money(maximum)}` : "";
  document.querySelector('[data-kind="progressive"]').hidden = !l.jackpot_wager;
  // a top award waits for its verification: the pool takes no jackpot wager meanwhile
  const pending = !!(s.jackpot && s.jackpot.pending);
  $("jackpot-pending").hidden = !pending;
  // the viewer's own share waits for the cage to record their identity (Form W-2G)
  $("see-the-cage").hidden = !s.you.see_the_cage;
  betting.setDenominations(denominations(l.bonus_min, l.table_max, l.smallest_chip));
  betting.setMax("player", l.table_max); betting.setMax("banker", l.table_max);
  betting.setMax("tie", l.tie_max); betting.setMax("player_9", l.bonus_max);
  betting.setMax("banker_9", l.bonus_max); betting.setMax("progressive", l.jackpot_wager || 0);

  // the last coup stays on the felt until the next is dealt
  const shown = last && !last.voided ? last : null;
  drawCards($("player-cards"), shown ? shown.player : []);
  drawCards($("banker-cards"), shown ? shown.banker : []);
  $("player-total").textContent = shown ? shown.player_total : "";
  $("banker-total").textContent = shown ? shown.banker_total : "";
  if (last && last.voided) {
    $("result").textContent = `${handTitle(last)} was voided by the floor (${last.reason}): every wager was returned.`;
  } else if (shown) {
    $("result").textContent = shown.winner === "tie" ?
      `${handTitle(shown)}: a tie, ${shown.player_total} to ${shown.banker_total}` :
      `${handTitle(shown)}: ${NAMES[shown.winner]} wins, ${Math.max(shown.player_total, shown.banker_total)} to ${Math.min(shown.player_total, shown.banker_total)}` +
      (shown.jackpot_award !== "none" && shown.jackpot_award ? ` · ${sentence(shown.jackpot_award.replaceAll("_", " "))}` : "");
  } else $("result").textContent = s.hand.open ? "Wagers are being placed." : "Place your wagers to start a hand.";

  // my wagers: placed ones come from the snapshot; until then the chips I put down
  const placed = me ? me.bets : {};
  const down = Object.keys(placed).length > 0;
  const composing = changes.show(placed, s.hand.open);  // wagers may change until the deal
  if (!composing || !s.you.seated) betting.set({});  // placed: nothing left to place
  betting.enable(!!me && composing);
  if (pending) document.querySelector('[data-kind="progressive"]').disabled = true;
  $("compose").hidden = !composing;
  $("bet").hidden = !composing; $("clear").hidden = !composing; $("rebet").hidden = down;
  $("deal").hidden = !s.you.may_deal || !s.hand.open;
  $("sit-box").hidden = s.you.seated || !!document.body.dataset.noplay;
  $("bet-box").hidden = !s.you.seated;
  $("seat-box").hidden = !s.you.seated;
  $("stack").textContent = me ? money(me.stack) : "";

  // results per wager, on the spots and listed
  const mine = shown && me ? shown.settlements.filter((x) => x.seat === me.name) : [];
  $("my-results-head").hidden = mine.length === 0;
  // a payout held for surveillance (WAC 230-15-320(4)): said beside its wager, the fact only
  const awaiting = new Set(((shown && shown.awaiting_verification) || [])
    .filter((a) => me && a.name === me.name).map((a) => a.wager));
  $("my-results").replaceChildren(...mine.map((x) => {
    const line = wagerResult(x);
    if (awaiting.has(x.kind)) line.append(" — awaiting verification");
    return line;
  }));
  for (const button of document.querySelectorAll("#spots button.spot")) {
    const x = mine.find((m) => m.kind === button.dataset.kind);
    button.querySelector(".spot-result").replaceChildren(
      ...(x && !down && !x.pending ? [outcomeBadge(x.won - x.commission)] : []));
  }
  seatList($("seats"), s.seats.map((x) => ({ name: x.name, stack: x.stack, you: x.you,
    lines: Object.entries(x.bets).map(([k, v]) => `${NAMES[k] || k} ${money(v)}`) })));
  renderRoad(s.road || []);
  setState(s.hand.open ? "betting" : (last ? (last.voided ? "voided" : "settled") : "idle"),
    last ? last.hand : null);
}

const send = connect(render);
const changes = wagerChanges(betting, send, () => render(snap));
seatControls(send);
$("bet").addEventListener("click", () => {
  if (!betting.total) return messages.error("Put at least one chip on a wager spot first");
  changes.place({ ...betting.wagers });
});
$("clear").addEventListener("click", () => betting.clear());
$("rebet").addEventListener("click", () => betting.rebet());
$("deal").addEventListener("click", () => send({ type: "deal" }));

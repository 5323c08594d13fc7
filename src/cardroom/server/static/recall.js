// The recall page's stepper: back, forward, to the start, to the end through the hand's
// actions. Every step is on the page already (server-rendered, readable without scripts);
// this module shows one at a time, dims the ones still to come, and for Pan draws the whole
// table after the step from the page's own data (the hand's history, nothing more): a
// player's recall names only the hands he saw at the table, the others are card backs.
import { $, el, cardBack, cardImage } from "./table-client.js";

const list = $("steps");
if (list) {
  const steps = [...list.querySelectorAll("li.step")];
  const boards = JSON.parse($("steps-data").textContent || "[]");
  const names = JSON.parse($("seat-names").textContent || "[]");
  let at = steps.length - 1;

  const drawBoard = (b) => {
    const board = $("board");
    board.hidden = !b;
    if (!b) return;
    board.replaceChildren(
      el("div", { class: "zone" },
        el("div", { class: "area" }, el("h3", { text: "Stock" }), el("p", { text: `${b.stock} cards` })),
        el("div", { class: "area" }, el("h3", { text: "Drawn card" }), el("div", { class: "cards small" }, ...(b.drawn ? [cardImage(b.drawn)] : []))),
        el("div", { class: "area" }, el("h3", { text: "Discard" }), el("div", { class: "cards small" }, ...(b.discard ? [cardImage(b.discard)] : [])))),
      el("div", { class: "recall-seats" }, ...b.seats.map((s, i) => el("div", { class: "area" },
        el("h3", {}, el("span", { text: names[i] || "" }), el("span", { class: "muted", text: `${s.chips} chips · ${s.status.replace(/-/g, " ")}` })),
        el("div", { class: "cards small", attrs: { role: "group", "aria-label": `${names[i]}'s hand` } }, ...(s.hand ? s.hand.map((c) => cardImage(c)) : Array.from({ length: s.hand_count }, () => cardBack()))),
        el("div", { class: "spreads" }, ...s.melds.map((m, mi) => el("div", { class: "spread" },
          el("span", { class: "spread-name", text: `Spread ${mi + 1}` }),
          el("div", { class: "cards small" }, ...m.map((c) => cardImage(c))))))))));
  };

  const show = (i) => {
    at = Math.max(0, Math.min(steps.length - 1, i));
    steps.forEach((li, k) => {
      li.classList.toggle("current", k === at);
      li.classList.toggle("later", k > at);
      if (k === at) li.setAttribute("aria-current", "step"); else li.removeAttribute("aria-current");
    });
    $("step-at").textContent = `Step ${at + 1} of ${steps.length}`;
    $("step-back").disabled = at === 0; $("step-first").disabled = at === 0;
    $("step-forward").disabled = at === steps.length - 1; $("step-end").disabled = at === steps.length - 1;
    drawBoard(boards[at] || null);
    document.body.dataset.step = String(at + 1);
  };

  $("step-controls").hidden = false;
  $("step-first").addEventListener("click", () => show(0));
  $("step-back").addEventListener("click", () => show(at - 1));
  $("step-forward").addEventListener("click", () => show(at + 1));
  $("step-end").addEventListener("click", () => show(steps.length - 1));
  show(at);
}

// Shared by the Super Pan 9 and Pai Gow table pages: the table's WebSocket, money in cents,
// cards drawn only from what the server's per-viewer snapshot holds (face down: a card back).
window.Cardroom = (function () {
  "use strict";
  const $ = (id) => document.getElementById(id);
  const money = (c) => (c < 0 ? "-" : "") + "$" +
    Math.floor(Math.abs(c) / 100).toLocaleString("en-US") + "." +
    String(Math.abs(c) % 100).padStart(2, "0");
  const key = () => (crypto.randomUUID ? crypto.randomUUID() : String(Math.random()).slice(2));
  const cents = (text) => {
    const m = /^\s*\$?(\d{1,9})(?:\.(\d{1,2}))?\s*$/.exec(text || "");
    return m ? parseInt(m[1], 10) * 100 + parseInt((m[2] || "0").padEnd(2, "0"), 10) : null;
  };
  function showError(text) { $("error").textContent = text; $("error").hidden = false; }
  function cardImg(c, onClick) {
    const img = document.createElement("img");
    img.src = `/cards/${c.code}.svg`; img.alt = c.text; img.className = "card";
    img.dataset.card = c.text; img.width = 56; img.height = 80;
    if (onClick) { img.onclick = () => onClick(img, c); img.style.cursor = "pointer"; }
    return img;
  }
  function backs(n) {
    const out = [];
    for (let i = 0; i < n; i++) {
      const img = document.createElement("img");
      img.src = "/cards/back.svg"; img.alt = "face down"; img.className = "back";
      img.width = 56; img.height = 80; out.push(img);
    }
    return out;
  }
  function drawCards(el, cards, count, onClick) {
    el.replaceChildren(...(cards ? cards.map((c) => cardImg(c, onClick)) : backs(count || 0)));
  }
  function connect(render) {
    const tableId = $("felt").dataset.table;
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${proto}://${location.host}/ws/tables/${tableId}`);
    window.cardroomSocket = ws;
    ws.onmessage = (ev) => {
      const m = JSON.parse(ev.data);
      if (m.type === "state") render(m); else if (m.type === "error") showError(m.message);
    };
    ws.onclose = () => showError("disconnected from the table: reload the page");
    return (msg) => { $("error").hidden = true; ws.send(JSON.stringify(msg)); };
  }
  function seatControls(send) {
    $("sit").onclick = () => {
      const c = cents($("buy-in").value);
      if (c === null) return showError("enter a buy-in in dollars, e.g. 200");
      send({ type: "sit", buy_in: c, key: key() });
    };
    $("leave").onclick = () => send({ type: "leave", key: key() });
    $("deal").onclick = () => send({ type: "deal" });
  }
  return { $, money, key, cents, showError, drawCards, connect, seatControls };
})();

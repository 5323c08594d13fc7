// In-page parts of page_checks.py: evaluated by Playwright (outside the page's CSP).
({
  // Visible controls with no accessible name: aria-label(ledby), a label, text, an image's alt.
  unnamedControls() {
    const bad = [];
    const controls = "button, a[href], input:not([type=hidden]), select, textarea";
    for (const e of document.querySelectorAll(controls)) {
      if (e.closest("[hidden]") || e.getClientRects().length === 0) continue;
      const labelled = (e.getAttribute("aria-labelledby") || "").split(/\s+/).filter(Boolean)
        .map((id) => (document.getElementById(id) || {}).textContent || "").join(" ");
      const label = e.labels ? [...e.labels].map((l) => l.textContent).join(" ") : "";
      const img = [...e.querySelectorAll("img[alt]")].map((i) => i.alt).join(" ");
      const name = [e.getAttribute("aria-label"), labelled, label, e.textContent, img,
        e.getAttribute("title")].join(" ").trim();
      if (!name) bad.push(e.outerHTML.slice(0, 120));
    }
    return bad;
  },
  // Text in table cells drawn one word per line (a column squeezed too narrow): each run of
  // text of two words or more whose words each took a line of their own. Runs, not whole cells,
  // so that a cell holding a list (a line per item, by design) is not taken for one.
  wordPerLine() {
    const bad = [];
    for (const cell of document.querySelectorAll("table td, table th")) {
      if (cell.getClientRects().length === 0) continue;
      const texts = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let node = texts.nextNode(); node; node = texts.nextNode()) {
        const words = node.textContent.trim().split(/\s+/).filter(Boolean);
        if (words.length < 2) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        const tops = new Set();
        for (const r of range.getClientRects()) if (r.width > 0) tops.add(Math.round(r.top));
        if (tops.size >= words.length) bad.push(node.textContent.trim().slice(0, 60));
      }
    }
    return bad;
  },
  // The page's width against the viewport's, and the first elements that stick out.
  overflow() {
    const wide = [...document.querySelectorAll("body *")].filter((e) =>
      e.getBoundingClientRect().right > window.innerWidth + 1 && !e.closest(".scroll-x, .road"));
    return [document.documentElement.scrollWidth, window.innerWidth,
      wide.slice(0, 3).map((e) => e.outerHTML.slice(0, 100))];
  },
})

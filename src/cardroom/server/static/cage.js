// The cage's receipt: the print button prints the page (the print stylesheet keeps the receipt only).
"use strict";
document.getElementById("print-receipt")?.addEventListener("click", () => window.print());

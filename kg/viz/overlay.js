// paperkg map overlay: community names drawn on the canvas at each community's centre (after
// vis-network has drawn the nodes), and the colouring of the nodes (community, type or year).
var kgMap = window.kgMap || {};
window.kgMap = kgMap;
(function (kg) {
  "use strict";

  // a darker shade of a #rrggbb colour, so a community's name reads on white
  function darker(hex) {
    var m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex || "");
    if (!m) { return "#333333"; }
    var rgb = [m[1], m[2], m[3]].map(function (h) { return Math.round(parseInt(h, 16) * 0.62); });
    return "rgb(" + rgb.join(",") + ")";
  }
  kg.darker = darker;

  // afterDrawing hook: ctx is already in canvas coordinates
  kg.drawNames = function (v, ctx) {
    if (!v || !kg.namesVisible(v)) { return; }
    var s = v.network.getScale(), px = v.settings.communityPx / s;
    ctx.save();
    ctx.font = "bold " + px + "px " + kg.FACE;
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.lineJoin = "round";
    ctx.lineWidth = 5 / s;
    ctx.strokeStyle = "rgba(255,255,255,0.92)";
    v.names.forEach(function (name) {
      if (!name.shown) { return; }
      ctx.strokeText(name.label, name.x, name.y);
      ctx.fillStyle = v.colorBy === "community" ? darker(name.color) : "#444444";
      ctx.fillText(name.label, name.x, name.y);
    });
    ctx.restore();
  };

  // colour the nodes by `mode` (one of v.data.colorings); page.js repaints (keeping a highlight)
  kg.setColouring = function (v, mode) {
    var modes = v.data.colorings || ["type"];
    if (modes.indexOf(mode) < 0) { mode = modes[0] || "type"; }
    v.colorBy = mode;
    v.data.nodes.forEach(function (n) {
      v.baseColor[n.id] = (n.colors && n.colors[mode]) || n.color;
    });
    Array.prototype.forEach.call(document.querySelectorAll(".kg-swatch"), function (sw) {
      sw.style.color = mode === "type" ? sw.getAttribute("data-color") : "#777777";
    });
    var years = document.getElementById("kg-years");
    if (years) { years.hidden = mode !== "year"; }
    var select = document.getElementById("kg-colour");
    if (select) {
      select.value = mode;
      select.hidden = modes.length < 2;
    }
    document.body.setAttribute("data-colour", mode);
  };
})(kgMap);

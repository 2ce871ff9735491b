// paperkg map labels. Like a printed map: the labels of the most central nodes (settings.top) are
// always shown, every other label only where it fits without covering a shown one, and all keep
// their size on screen, so more of them appear as the reader zooms in. Also fits the map to the
// window, labels included. A view `v` is the object page.js builds (network, nodes, byId, order...).
var kgMap = window.kgMap || {};
window.kgMap = kgMap;
(function (kg) {
  "use strict";
  var HIDDEN_PX = 0.5;  // on-screen size given to a hidden label: below vis-network's drawThreshold
  var FACE = "arial";   // vis-network's default font face
  var VIS_GAP = 4;      // vis-network hangs a label 4 canvas units under its shape, plus half a font
  var MARGIN = 12;      // pixels kept free around the map by fitMap
  var measure = document.createElement("canvas").getContext("2d");
  var widths = {};

  function textWidth(text, px, weight) {
    var font = (weight ? weight + " " : "") + px + "px " + FACE;
    var key = font + "|" + text;
    if (widths[key] === undefined) {
      measure.font = font;
      widths[key] = measure.measureText(text).width;
    }
    return widths[key];
  }
  kg.textWidth = textWidth;
  kg.FACE = FACE;

  // boxes already placed, bucketed in square cells for quick collision tests
  function Grid(cell) { this.cell = cell; this.cells = {}; }
  Grid.prototype.each = function (b, fn) {
    var c = this.cell;
    for (var gx = Math.floor(b.l / c); gx <= Math.floor(b.r / c); gx++) {
      for (var gy = Math.floor(b.t / c); gy <= Math.floor(b.b / c); gy++) {
        if (fn(gx + "," + gy) === true) { return true; }
      }
    }
    return false;
  };
  Grid.prototype.hits = function (b, pad) {
    var cells = this.cells;
    return this.each({l: b.l - pad, t: b.t - pad, r: b.r + pad, b: b.b + pad}, function (key) {
      var list = cells[key] || [];
      for (var i = 0; i < list.length; i++) {
        var o = list[i];
        if (b.l - pad < o.r && o.l < b.r + pad && b.t - pad < o.b && o.t < b.b + pad) { return true; }
      }
      return false;
    });
  };
  Grid.prototype.add = function (b) {
    var cells = this.cells;
    this.each(b, function (key) { (cells[key] = cells[key] || []).push(b); });
  };

  // the screen box of node n's label at zoom s, its centre drawn at DOM point c
  function nodeBox(n, c, s) {
    var w = textWidth(n.label, n.labelPx);
    var top = c.y + (n.size + VIS_GAP) * s + 0.5 * n.labelPx;
    return {l: c.x - w / 2, t: top, r: c.x + w / 2, b: top + n.labelPx};
  }
  kg.nodeBox = nodeBox;

  // the screen box of node n's shape
  function discBox(n, c, s) {
    var r = n.size * s;
    return {l: c.x - r, t: c.y - r, r: c.x + r, b: c.y + r};
  }

  function nameBox(v, name, s) {
    var px = v.settings.communityPx;
    var c = v.network.canvasToDOM({x: name.x, y: name.y});
    var w = textWidth(name.label, px, "bold");
    return {l: c.x - w / 2, t: c.y - px / 2, r: c.x + w / 2, b: c.y + px / 2};
  }
  kg.nameBox = nameBox;

  // community names show until the reader has zoomed in this much past the first view
  kg.namesVisible = function (v) {
    return v.names.length > 0 && (!v.fitScale || v.network.getScale() < 3 * v.fitScale);
  };

  kg.refreshLabels = function (v) {
    var net = v.network, s = net.getScale();
    var W = v.container.clientWidth, H = v.container.clientHeight;
    var pos = net.getPositions();
    var grid = new Grid(96), pad = v.settings.pad, top = v.settings.top;
    var shown = {};
    function inside(b) { return b.l >= 0 && b.t >= 0 && b.r <= W && b.b <= H; }
    v.order.forEach(function (id) {  // the top labels, whatever happens
      var n = v.byId[id];
      if (n.rank >= top || v.hidden[id] || !n.label) { return; }
      var c = net.canvasToDOM(pos[id]);
      grid.add(nodeBox(n, c, s));
      grid.add(discBox(n, c, s));
      shown[id] = true;
    });
    var names = kg.namesVisible(v);
    v.names.forEach(function (name) {
      name.shown = false;
      if (!names) { return; }
      var b = nameBox(v, name, s);
      if (inside(b) && !grid.hits(b, pad)) { grid.add(b); name.shown = true; }
    });
    v.order.forEach(function (id) {  // the others, most central first, where they fit
      var n = v.byId[id];
      if (n.rank < top || v.hidden[id] || !n.label) { return; }
      var c = net.canvasToDOM(pos[id]);
      if (c.x < -200 || c.y < -50 || c.x > W + 200 || c.y > H + 50) { return; }
      var b = nodeBox(n, c, s);
      if (inside(b) && !grid.hits(b, pad)) { grid.add(b); grid.add(discBox(n, c, s)); shown[id] = true; }
    });
    var updates = [];
    v.order.forEach(function (id) {
      var n = v.byId[id], old = v.state[id];
      if (shown[id]) {
        var size = n.labelPx / s;
        if (old !== size) { updates.push({id: id, font: {size: size}}); v.state[id] = size; }
      } else if (old === undefined || old * s > 2 * HIDDEN_PX) {
        var hidden = HIDDEN_PX / s;
        updates.push({id: id, font: {size: hidden}});
        v.state[id] = hidden;
      }
    });
    if (updates.length) { v.nodes.update(updates); }
    v.labelScale = s;
    return shown;
  };

  // fit the map to the window: every shown node, the top labels and the community names inside
  kg.fitMap = function (v) {
    var net = v.network;
    var W = v.container.clientWidth, H = v.container.clientHeight;
    var pos = net.getPositions();
    var ids = v.order.filter(function (id) { return !v.hidden[id] && pos[id]; });
    if (!ids.length || !W || !H) { return; }
    var top = v.settings.top, s = null, cx = 0, cy = 0;
    function bounds(scale) {
      var b = {l: Infinity, t: Infinity, r: -Infinity, b: -Infinity};
      function grow(l, t, r, bt) { b.l = Math.min(b.l, l); b.t = Math.min(b.t, t); b.r = Math.max(b.r, r); b.b = Math.max(b.b, bt); }
      ids.forEach(function (id) {
        var n = v.byId[id], p = pos[id], r = n.size;
        grow(p.x - r, p.y - r, p.x + r, p.y + r);
        if (scale !== null && n.rank < top && n.label) {
          var w = textWidth(n.label, n.labelPx) / scale, t = p.y + r + VIS_GAP + 0.5 * n.labelPx / scale;
          grow(p.x - w / 2, t, p.x + w / 2, t + n.labelPx / scale);
        }
      });
      if (scale !== null) {
        v.names.forEach(function (name) {
          var w = textWidth(name.label, v.settings.communityPx, "bold") / scale, h = v.settings.communityPx / scale;
          grow(name.x - w / 2, name.y - h / 2, name.x + w / 2, name.y + h / 2);
        });
      }
      return b;
    }
    for (var i = 0; i < 12; i++) {
      var b = bounds(s);
      var bw = Math.max(b.r - b.l, 1e-6), bh = Math.max(b.b - b.t, 1e-6);
      var next = Math.min((W - 2 * MARGIN) / bw, (H - 2 * MARGIN) / bh);
      if (ids.length === 1) { next = Math.min(next, 1.5); }
      cx = (b.l + b.r) / 2;
      cy = (b.t + b.b) / 2;
      if (s !== null && Math.abs(next - s) < 1e-4 * s) { s = Math.min(s, next); break; }
      s = s === null ? next : Math.min(s, next);
    }
    s = Math.max(1e-4, Math.min(s * 0.995, 40));
    net.moveTo({position: {x: cx, y: cy}, scale: s, animation: false});
    v.fitScale = s;
  };
})(kgMap);

// paperkg community map (big graphs): one node per community; a click opens that community's own
// view, read from its JSON block only then, in the same page; the breadcrumb (and the browser's
// back button: the view is in the URL's #fragment) leads back to all communities.
var kgMap = window.kgMap || {};
window.kgMap = kgMap;
(function (kg) {
  "use strict";
  var parsed = {};

  function readBlock(key, group) {
    if (!parsed[key]) {
      parsed[key] = JSON.parse(document.getElementById(group.block).textContent);
    }
    return parsed[key];
  }

  function labelPx(settings, rank) {
    if (rank >= settings.top) { return settings.smallPx; }
    var hi = settings.topPx[0], lo = settings.topPx[1];
    return Math.round((hi - (hi - lo) * rank / Math.max(1, settings.top - 1)) * 100) / 100;
  }

  // the view (as page.js shows it) of a compact community block
  function expand(data, b) {
    var ids = b.n.map(function (r) { return b.prefix + r[0]; });
    var viewNodes = b.n.map(function (r, i) {
      var t = b.types[r[3]], px = labelPx(data.labels, i);
      return {id: ids[i], label: r[1] === 0 ? r[2] : r[1], fullLabel: r[2], title: r[7] + "\n\n" + ids[i],
              type: t[0], color: t[1], shape: t[2], size: r[6], rank: i,
              labelPx: px, x: r[4], y: r[5]};
    });
    var viewEdges = b.e.map(function (r) {
      return {from: ids[r[0]], to: ids[r[1]], title: b.props[r[2]], color: {color: b.edgeColor}};
    });
    return {kind: "nodes", nodes: viewNodes, edges: viewEdges, options: b.options, focus: null,
            edgeColor: b.edgeColor, colorings: ["type"], colorBy: "type", communities: [], labels: data.labels};
  }

  function setCrumb(text) {
    var here = document.getElementById("kg-crumb-here");
    var top = document.getElementById("kg-crumb-top");
    if (here) { here.textContent = text ? " › " + text : ""; }
    if (top) {
      if (text) { top.removeAttribute("aria-current"); } else { top.setAttribute("aria-current", "page"); }
    }
  }

  kg.startCommunities = function (data) {
    var counts = document.getElementById("kg-counts");
    var legend = document.getElementById("kg-legend");
    var mainCounts = counts.textContent;

    function showMap() {
      var v = kg.show(data, "map");
      v.onClick = function (id) { window.location.hash = "community-" + id; };
      counts.textContent = mainCounts;
      if (legend) { legend.hidden = true; }
      setCrumb("");
      return v;
    }

    function open(key) {
      var group = data.groups[key];
      if (!group) { return showMap(); }
      var v = kg.show(expand(data, readBlock(key, group)), "community-" + key);
      var more = group.shown < group.size ? " · top " + group.shown + " of " + group.size + " by PageRank" : "";
      counts.textContent = group.shown + " nodes · " + group.links + " links · " + group.papers + " papers" + more;
      if (legend) { legend.hidden = false; }
      setCrumb(group.title);
      return v;
    }
    kg.openCommunity = function (key) { window.location.hash = "community-" + key; };

    function route() {
      var m = /^#community-(.+)$/.exec(window.location.hash);
      var key = m && data.groups[decodeURIComponent(m[1])] ? decodeURIComponent(m[1]) : null;
      if (kg.current && kg.current.key === (key === null ? "map" : "community-" + key)) { return kg.current; }
      return key === null ? showMap() : open(key);
    }
    window.addEventListener("hashchange", route);
    var top = document.getElementById("kg-crumb-top");
    if (top) {
      top.addEventListener("click", function (ev) {
        ev.preventDefault();
        if (window.location.hash) { window.location.hash = ""; } else { showMap(); }
      });
    }

    // search every community (blocks are parsed on the first search): exact label first
    kg.findElsewhere = function (text) {
      var key = text.trim().toLowerCase();
      if (!key) { return false; }
      var keys = Object.keys(data.groups), hit = null;
      [true, false].forEach(function (exact) {
        keys.forEach(function (g) {
          if (hit !== null) { return; }
          var b = readBlock(g, data.groups[g]);
          for (var i = 0; i < b.n.length; i++) {
            var label = String(b.n[i][2]).toLowerCase();
            if (exact ? label === key : label.indexOf(key) >= 0) { hit = {group: g, id: b.prefix + b.n[i][0]}; return; }
          }
        });
      });
      if (hit === null) { return false; }
      if (kg.current.key !== "community-" + hit.group) {
        open(hit.group);
        window.location.hash = "community-" + hit.group;  // route() then finds it open
      }
      kg.focusNode(hit.id);
      return true;
    };
    route();
  };
})(kgMap);

// paperkg interactive view. Every text comes from the JSON data blocks and is shown with
// textContent (never parsed as HTML), so labels and abstracts are displayed literally.
// kgMap.show(view) draws one view (the page's own, or a community of a community map).
var network, nodes, edges;
var kgMap = window.kgMap || {};
window.kgMap = kgMap;
(function (kg) {
  "use strict";
  var data = JSON.parse(document.getElementById("kg-data").textContent);
  var DIM_NODE = "rgba(200,200,200,0.35)";
  var FONT = "#222222", DIM_FONT = "rgba(0,0,0,0.2)";
  var EDGE_ON = "rgba(40,40,40,0.85)", EDGE_DIM = "rgba(200,200,200,0.12)";
  var container = document.getElementById("mynetwork");
  var info = document.getElementById("kg-info");
  var v = null;  // the view shown
  kg.data = data;

  function tip(text) {
    var div = document.createElement("div");
    div.className = "kg-tip";
    div.textContent = text;
    return div;
  }

  function showInfo(id) {
    if (id === null || !v.byId[id]) { info.textContent = ""; info.classList.remove("kg-visible"); return; }
    info.textContent = v.byId[id].title;
    info.classList.add("kg-visible");
  }

  function highlight(id) {
    v.highlighted = id;
    var near = {};
    if (id !== null) {
      near[id] = true;
      network.getConnectedNodes(id).forEach(function (n) { near[n] = true; });
    }
    nodes.update(nodes.getIds().map(function (n) {
      var on = id === null || near[n];
      return {id: n, color: on ? v.baseColor[n] : DIM_NODE, font: {color: on ? FONT : DIM_FONT, size: v.state[n]}};
    }));
    var edgeColor = v.data.edgeColor;
    edges.update(edges.get().map(function (e) {
      var color = id === null ? edgeColor : (e.from === id || e.to === id ? EDGE_ON : EDGE_DIM);
      return {id: e.id, color: {color: color}};
    }));
    document.body.setAttribute("data-highlight", id === null ? "" : id);
    showInfo(id);
  }
  window.kgHighlight = function (id) { highlight(id); };

  var pending = null;
  function scheduleLabels() {
    if (pending !== null) { return; }
    pending = window.setTimeout(function () {
      pending = null;
      kg.refreshLabels(v);
    }, 60);
  }

  function fillSearch() {
    var list = document.getElementById("kg-labels");
    list.textContent = "";
    var seen = {};
    v.data.nodes.slice().sort(function (a, b) { return a.fullLabel.localeCompare(b.fullLabel); }).forEach(function (n) {
      if (seen[n.fullLabel]) { return; }
      seen[n.fullLabel] = true;
      var opt = document.createElement("option");
      opt.value = n.fullLabel;
      list.appendChild(opt);
    });
  }

  // the legend counts the nodes of each type of the view shown (types it lacks are left out)
  function countTypes(list) {
    var count = {};
    list.forEach(function (n) { count[n.type] = (count[n.type] || 0) + 1; });
    Array.prototype.forEach.call(document.querySelectorAll(".kg-legend-item"), function (item) {
      var type = item.querySelector(".kg-type-filter").getAttribute("data-type");
      item.querySelector(".kg-count").textContent = "(" + (count[type] || 0) + ")";
      item.hidden = !count[type];
    });
  }

  // show a view: {nodes, edges, options, focus, colorings, colorBy, communities, labels, edgeColor}
  kg.show = function (view, key) {
    v = kg.current = {data: view, key: key || "main", byId: {}, baseColor: {}, hidden: {}, state: {},
                      order: [], highlighted: null, container: container, settings: view.labels,
                      names: (view.communities || []).map(function (c) { return Object.assign({shown: false}, c); })};
    var nodeItems = view.nodes.map(function (n) {
      v.byId[n.id] = n;
      var item = Object.assign({}, n);
      delete item.colors;
      item.title = tip(n.title);
      return item;
    });
    v.order = view.nodes.slice().sort(function (a, b) { return a.rank - b.rank; }).map(function (n) { return n.id; });
    var edgeItems = view.edges.map(function (e, i) {
      var item = Object.assign({id: "e" + i}, e);
      if (e.title) { item.title = tip(e.title); }
      return item;
    });
    nodes = new vis.DataSet(nodeItems);
    edges = new vis.DataSet(edgeItems);
    if (!network) {
      network = new vis.Network(container, {nodes: nodes, edges: edges}, view.options);
      window.network = network;
      network.on("afterDrawing", function (ctx) { kg.drawNames(kg.current, ctx); });
      network.on("zoom", function () { v.moved = true; scheduleLabels(); });
      network.on("dragEnd", function () { v.moved = true; scheduleLabels(); });
      network.on("resize", function () {  // a new window size: fit again, unless the reader has moved the map
        window.setTimeout(function () { if (!v.moved) { kg.fitMap(v); } kg.refreshLabels(v); }, 0);
      });
      network.on("click", function (params) {
        var id = params.nodes.length ? params.nodes[0] : null;
        if (v.onClick && id !== null) { v.onClick(id); return; }
        highlight(id);
      });
    } else {
      network.setOptions(view.options);
      network.setData({nodes: nodes, edges: edges});
    }
    v.network = network;
    v.nodes = nodes;
    v.edges = edges;
    countTypes(view.nodes);
    kg.setColouring(v, view.colorBy);
    kg.fitMap(v);
    kg.refreshLabels(v);
    highlight(null);
    resetFilters();
    fillSearch();
    if (view.focus) {
      network.selectNodes([view.focus]);
      showInfo(view.focus);
    }
    window.kgReady = false;
    network.once("afterDrawing", function () {
      window.kgReady = true;
      window.kgReadyTime = performance.now();
      document.body.setAttribute("data-view", v.key);
    });
    network.redraw();
    return v;
  };

  // search: the view shown first, then (community maps) the other communities
  function find(text) {
    var key = text.trim().toLowerCase();
    if (!key) { return null; }
    var hit = null;
    v.data.nodes.forEach(function (n) {
      if (hit === null && n.fullLabel.toLowerCase() === key) { hit = n.id; }
    });
    if (hit === null) {
      v.data.nodes.forEach(function (n) {
        if (hit === null && (n.fullLabel.toLowerCase().indexOf(key) >= 0 || n.id.toLowerCase() === key)) { hit = n.id; }
      });
    }
    return hit;
  }
  kg.find = find;
  kg.focusNode = function (id) {
    network.selectNodes([id]);
    network.focus(id, {scale: Math.max(1.2, network.getScale()), animation: false});
    kg.refreshLabels(v);
    highlight(id);
  };
  var search = document.getElementById("kg-search");
  function doSearch() {
    var text = search.value, id = v.onClick ? null : find(text);
    if (id === null && kg.findElsewhere && kg.findElsewhere(text)) { search.setCustomValidity(""); return; }
    if (id === null) { id = find(text); }
    if (id === null) { search.setCustomValidity("not found"); search.reportValidity(); return; }
    search.setCustomValidity("");
    if (v.onClick) { v.onClick(id); return; }
    kg.focusNode(id);
  }
  search.addEventListener("change", doSearch);
  search.addEventListener("keydown", function (ev) { if (ev.key === "Enter") { doSearch(); } });

  // filters: node types (legend check boxes) and communities
  var hiddenTypes = {};
  var community = document.getElementById("kg-community");
  function applyFilters() {
    var wanted = community && community.value !== "" ? Number(community.value) : null;
    var changes = v.data.nodes.map(function (n) {
      var hide = !!hiddenTypes[n.type] || (wanted !== null && n.community !== wanted);
      v.hidden[n.id] = hide;
      return {id: n.id, hidden: hide};
    });
    nodes.update(changes);
    kg.refreshLabels(v);
  }
  function resetFilters() {
    hiddenTypes = {};
    Array.prototype.forEach.call(document.querySelectorAll(".kg-type-filter"), function (b) { b.checked = true; });
    if (community) { community.value = ""; }
    v.hidden = {};
  }
  Array.prototype.forEach.call(document.querySelectorAll(".kg-type-filter"), function (box) {
    box.addEventListener("change", function () {
      hiddenTypes[box.getAttribute("data-type")] = !box.checked;
      applyFilters();
    });
  });
  if (community) { community.addEventListener("change", applyFilters); }
  var colour = document.getElementById("kg-colour");
  if (colour) {
    colour.addEventListener("change", function () {
      kg.setColouring(v, colour.value);
      highlight(v.highlighted);
    });
  }
  document.getElementById("kg-reset").addEventListener("click", function () {
    resetFilters();
    search.value = "";
    nodes.update(v.data.nodes.map(function (n) { return {id: n.id, hidden: false}; }));
    highlight(null);
    network.unselectAll();
    v.moved = false;
    kg.fitMap(v);
    kg.refreshLabels(v);
  });

  if (data.kind === "communities" && kg.startCommunities) {
    kg.startCommunities(data);
  } else {
    kg.show(data);
  }
})(kgMap);

// paperkg interactive view. Every text comes from the JSON data block and is shown with
// textContent (never parsed as HTML), so labels and abstracts are displayed literally.
var network, nodes, edges;
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("kg-data").textContent);
  var DIM_NODE = "rgba(200,200,200,0.35)";
  var DIM_FONT = "rgba(0,0,0,0.2)";
  var EDGE = data.edgeColor, EDGE_ON = "rgba(40,40,40,0.85)", EDGE_DIM = "rgba(200,200,200,0.12)";

  function tip(text) {
    var div = document.createElement("div");
    div.className = "kg-tip";
    div.textContent = text;
    return div;
  }

  var baseColor = {}, byId = {};
  var nodeItems = data.nodes.map(function (n) {
    baseColor[n.id] = n.color;
    byId[n.id] = n;
    var item = Object.assign({}, n);
    item.title = tip(n.title);
    return item;
  });
  var edgeItems = data.edges.map(function (e, i) {
    var item = Object.assign({id: "e" + i}, e);
    if (e.title) { item.title = tip(e.title); }
    return item;
  });
  nodes = new vis.DataSet(nodeItems);
  edges = new vis.DataSet(edgeItems);
  var container = document.getElementById("mynetwork");
  network = new vis.Network(container, {nodes: nodes, edges: edges}, data.options);
  window.network = network;
  window.kgReady = false;
  network.once("afterDrawing", function () {
    window.kgReady = true;
    window.kgReadyTime = performance.now();
  });

  var info = document.getElementById("kg-info");
  function showInfo(id) {
    if (id === null || !byId[id]) { info.textContent = ""; info.classList.remove("kg-visible"); return; }
    info.textContent = byId[id].title;
    info.classList.add("kg-visible");
  }

  var highlighted = null;
  function highlight(id) {
    highlighted = id;
    var near = {};
    if (id !== null) {
      near[id] = true;
      network.getConnectedNodes(id).forEach(function (n) { near[n] = true; });
    }
    nodes.update(nodes.getIds().map(function (n) {
      var on = id === null || near[n];
      return {id: n, color: on ? baseColor[n] : DIM_NODE, font: {color: on ? "#222222" : DIM_FONT}};
    }));
    edges.update(edges.get().map(function (e) {
      var color = id === null ? EDGE : (e.from === id || e.to === id ? EDGE_ON : EDGE_DIM);
      return {id: e.id, color: {color: color}};
    }));
    document.body.setAttribute("data-highlight", id === null ? "" : id);
    showInfo(id);
  }
  window.kgHighlight = highlight;
  network.on("click", function (params) {
    highlight(params.nodes.length ? params.nodes[0] : null);
  });

  // search
  var list = document.getElementById("kg-labels");
  var seen = {};
  data.nodes.slice().sort(function (a, b) { return a.label.localeCompare(b.label); }).forEach(function (n) {
    if (seen[n.fullLabel]) { return; }
    seen[n.fullLabel] = true;
    var opt = document.createElement("option");
    opt.value = n.fullLabel;
    list.appendChild(opt);
  });
  function find(text) {
    var key = text.trim().toLowerCase();
    if (!key) { return null; }
    var hit = null;
    data.nodes.forEach(function (n) {
      var label = n.fullLabel.toLowerCase();
      if (hit === null && label === key) { hit = n.id; }
    });
    if (hit === null) {
      data.nodes.forEach(function (n) {
        if (hit === null && (n.fullLabel.toLowerCase().indexOf(key) >= 0 || n.id.toLowerCase() === key)) { hit = n.id; }
      });
    }
    return hit;
  }
  var search = document.getElementById("kg-search");
  function doSearch() {
    var id = find(search.value);
    if (id === null) { search.setCustomValidity("not found"); search.reportValidity(); return; }
    search.setCustomValidity("");
    network.selectNodes([id]);
    network.focus(id, {scale: 1.2, animation: false});
    highlight(id);
  }
  search.addEventListener("change", doSearch);
  search.addEventListener("keydown", function (ev) { if (ev.key === "Enter") { doSearch(); } });

  // filters: node types (legend check boxes) and communities
  var hiddenTypes = {};
  var community = document.getElementById("kg-community");
  function applyFilters() {
    var wanted = community && community.value !== "" ? Number(community.value) : null;
    nodes.update(data.nodes.map(function (n) {
      var hide = !!hiddenTypes[n.type] || (wanted !== null && n.community !== wanted);
      return {id: n.id, hidden: hide};
    }));
  }
  Array.prototype.forEach.call(document.querySelectorAll(".kg-type-filter"), function (box) {
    box.addEventListener("change", function () {
      hiddenTypes[box.getAttribute("data-type")] = !box.checked;
      applyFilters();
    });
  });
  if (community) { community.addEventListener("change", applyFilters); }
  document.getElementById("kg-reset").addEventListener("click", function () {
    hiddenTypes = {};
    Array.prototype.forEach.call(document.querySelectorAll(".kg-type-filter"), function (b) { b.checked = true; });
    if (community) { community.value = ""; }
    search.value = "";
    applyFilters();
    highlight(null);
    network.unselectAll();
    network.fit({animation: false});
  });
  if (data.focus) {
    network.selectNodes([data.focus]);
    showInfo(data.focus);
  }
})();

// paperkg explorer: YASGUI (vendored under /static/vendor/yasgui) against this server's /sparql.
// The saved queries open in tabs (with their parameters bound, never pasted), paperkg IRIs in the
// results open the explorer's own pages, a "Graph" result view draws the result with vis-network, and
// the editor completes the graph's own prefixes, properties and classes (nothing is fetched elsewhere).
// Values are put in the page with textContent, or serialised by the DOM (outerHTML): never pasted as HTML.
(function () {
  "use strict";
  function data(id) { return JSON.parse(document.getElementById(id).textContent); }
  var PREFIXES = data("kg-prefixes-data");  // kg.namespaces.PREFIXES
  var SAVED = data("kg-saved-data");
  var DEFAULT_QUERY = data("kg-default-query");
  var ID = PREFIXES.id;
  var KINDS = ["paper", "method", "dataset", "task", "metric", "modality"];
  var ENDPOINT = window.location.origin + "/sparql";
  var Yasqe = Yasgui.Yasqe, Yasr = Yasgui.Yasr;
  var byName = {};
  SAVED.forEach(function (q) { byName[q.name] = q; });
  var paramValues = {};  // tab id -> {parameter: value}
  var lastRun = {};  // tab id -> {query, params} of the tab's last request

  function pagePath(iri) {
    if (iri.indexOf(ID) === 0) {
      var rest = iri.slice(ID.length).split("/");
      if (rest.length === 2 && KINDS.indexOf(rest[0]) >= 0 && /^[A-Za-z0-9][A-Za-z0-9._~-]*$/.test(rest[1])) {
        return "/" + rest[0] + "/" + rest[1];
      }
    }
    return "/entity?iri=" + encodeURIComponent(iri);
  }
  function compact(iri, extra) {  // the longest namespace wins: method:biot rather than id:method/biot
    var best = null, bestNs = "";
    [PREFIXES, extra || {}].forEach(function (table) {
      Object.keys(table).forEach(function (p) {
        var ns = table[p];
        if (typeof ns === "string" && iri.indexOf(ns) === 0 && iri.length > ns.length && ns.length > bestNs.length) {
          best = p; bestNs = ns;
        }
      });
    });
    return best === null ? null : best + ":" + iri.slice(bestNs.length);
  }
  function escapeText(text) {
    return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
  }
  function setState(state) { document.body.setAttribute("data-state", state); }

  // ---------------------------------------------------------------- result table: IRIs link to local pages
  var BaseTable = Yasr.plugins.table;
  class Table extends BaseTable {
    getUriLinkFromBinding(binding, prefixes) {
      var iri = String(binding.value), name = compact(iri, prefixes);
      var a = document.createElement("a");
      a.className = "iri";
      a.title = iri;
      a.textContent = name || iri;
      if (iri.indexOf(ID) === 0) {
        a.href = pagePath(iri);
      } else if (/^https?:\/\//i.test(iri)) {
        a.href = iri;
        a.target = "_blank";
        a.rel = "noopener noreferrer";
      }
      return name || this.persistentConfig.compact ? a.outerHTML : "&lt;" + a.outerHTML + "&gt;";
    }
    getColumns() {  // the text searched and sorted on is the value escaped, not parsed as HTML and cleaned
      var columns = super.getColumns();
      columns.slice(1).forEach(function (column) {
        var render = column.render;
        column.render = function (cell, type, row, meta) {
          if (cell && cell !== "" && (type === "filter" || type === "sort" || !type)) { return escapeText(String(cell.value)); }
          return render(cell, type, row, meta);
        };
      });
      return columns;
    }
  }
  Yasr.registerPlugin("table", Table);

  // ---------------------------------------------------------------- graph view of a result
  function tabOf(yasr) {
    var tabs = yasgui._tabs;
    for (var id in tabs) { if (tabs[id].getYasr && tabs[id].getYasr() === yasr) { return tabs[id]; } }
    return null;
  }
  function requestBody(run) {
    var form = new URLSearchParams();
    form.set("query", run.query);
    Object.keys(run.params).forEach(function (name) { form.set("param." + name, run.params[name]); });
    return form;
  }
  function tip(text) {
    var div = document.createElement("div");
    div.className = "kg-tip";
    div.textContent = text;
    return div;
  }
  class GraphView {
    constructor(yasr) {
      this.yasr = yasr;
      this.priority = 5;
      this.label = "Graph";
      this.network = null;
    }
    canHandleResults() {  // rows or triples (not an ASK answer)
      var results = this.yasr.results;
      return !!results && !results.getError() && (results.getVariables() || []).length > 0;
    }
    getIcon() {
      var icon = document.createElement("span");
      icon.className = "kg-graph-icon";
      icon.textContent = "\u25C9";
      return icon;
    }
    draw() {
      var self = this;
      var box = document.createElement("div");
      box.className = "kg-graph-view";
      var note = document.createElement("div");
      note.id = "kg-graph-message";
      note.className = "kg-muted";
      var canvas = document.createElement("div");
      canvas.id = "kg-graph";
      box.appendChild(note);
      box.appendChild(canvas);
      this.yasr.resultsEl.appendChild(box);
      var tab = tabOf(this.yasr);
      if (!tab) { note.textContent = "run the query to draw its graph"; return Promise.resolve(); }
      var run = lastRun[tab.getId()] || {query: tab.getQuery(), params: paramValues[tab.getId()] || {}};
      note.textContent = "drawing…";
      return fetch("/api/graph", {method: "POST", headers: {"Content-Type": "application/x-www-form-urlencoded"},
                                  body: requestBody(run)})
        .then(function (response) {
          return response.ok ? response.json() : response.text().then(function (t) { return {nodes: [], edges: [], message: t}; });
        })
        .then(function (graph) {
          note.textContent = graph.message || (graph.nodes.length + " nodes; double-click one to open its page");
          self.destroy();
          if (!graph.nodes.length) { return; }
          var hrefs = {};
          var nodes = graph.nodes.map(function (n) {
            hrefs[n.id] = n.href;
            var item = Object.assign({}, n);
            item.title = tip(n.title);
            delete item.href;
            return item;
          });
          var edges = graph.edges.map(function (e, i) {
            var item = Object.assign({id: "e" + i}, e);
            if (e.title) { item.title = tip(e.title); }
            return item;
          });
          self.network = new vis.Network(canvas, {nodes: new vis.DataSet(nodes), edges: new vis.DataSet(edges)}, graph.options);
          window.kgNetwork = self.network;
          self.network.on("doubleClick", function (params) {
            if (params.nodes.length && hrefs[params.nodes[0]]) { window.location.href = hrefs[params.nodes[0]]; }
          });
        });
    }
    destroy() {
      if (this.network) { this.network.destroy(); this.network = null; }
    }
  }
  Yasr.registerPlugin("graph", GraphView);

  // ---------------------------------------------------------------- completion from this graph only
  var bundledPrefixes = Yasqe.Autocompleters.prefixes;
  Yasqe.registerAutocompleter(Object.assign({}, bundledPrefixes, {
    get: function (yasqe) {  // the graph's prefixes first; the bundled list (no fetch) for the rest
      return Promise.resolve(bundledPrefixes.get(yasqe)).then(function (bundled) {
        var ours = Object.keys(PREFIXES).map(function (p) { return p + ": <" + PREFIXES[p] + ">"; });
        return ours.concat((bundled || []).filter(function (line) {
          return !Object.prototype.hasOwnProperty.call(PREFIXES, line.split(":")[0]);
        })).sort();
      });
    }
  }));
  var vocabulary = null;
  function vocab() {
    if (!vocabulary) {
      vocabulary = fetch("/api/vocabulary").then(function (r) { return r.ok ? r.json() : {}; })
        .catch(function () { return {}; });
    }
    return vocabulary;
  }
  [["property", "properties"], ["class", "classes"]].forEach(function (pair) {
    var bundled = Yasqe.Autocompleters[pair[0]];  // asks a vocabulary service on the web: replaced
    Yasqe.registerAutocompleter(Object.assign({}, bundled, {
      get: function (yasqe, token) {
        var wanted = (token && token.autocompletionString) || "";
        return vocab().then(function (v) {
          return (v[pair[1]] || []).filter(function (iri) { return iri.indexOf(wanted) === 0; });
        });
      }
    }));
  });

  // ---------------------------------------------------------------- YASGUI
  var yasgui = new Yasgui(document.getElementById("kg-yasgui"), {
    requestConfig: {endpoint: ENDPOINT, method: "POST",
                    acceptHeaderSelect: "application/sparql-results+json,*/*;q=0.9",
                    acceptHeaderGraph: "text/turtle,*/*;q=0.9"},
    copyEndpointOnNewTab: false,
    endpointCatalogueOptions: {getData: function () { return [{endpoint: ENDPOINT}]; }},
    persistenceId: "paperkg-explorer",
    tabName: "Query",
    yasqe: {value: DEFAULT_QUERY},
    yasr: {prefixes: PREFIXES, defaultPlugin: "table", pluginOrder: ["table", "graph", "response"]}
  });
  window.kgExplorer = {yasgui: yasgui};

  // The editor's checker knows SPARQL 1.1, not Oxigraph's LATERAL (the saved queries with parameters use
  // it): it flags nothing in a query that has one, and the server's parser still reports real errors.
  function tuneEditor(tab) {
    var yasqe = tab && tab.getYasqe();
    if (!yasqe || yasqe.kgTuned) { return; }
    yasqe.kgTuned = true;
    function check() {
      var lateral = /\bLATERAL\s*\{/i.test(yasqe.getValue());
      if (yasqe.config.syntaxErrorCheck === lateral) { yasqe.config.syntaxErrorCheck = !lateral; yasqe.checkSyntax(); }
    }
    yasqe.on("change", check);
    check();
    Array.prototype.forEach.call(document.querySelectorAll("#kg-yasgui .autocompleteWrapper input"), function (input) {
      input.readOnly = true;  // one endpoint: this server's
      input.title = "this server's SPARQL endpoint";
    });
  }

  yasgui.on("queryBefore", function (instance, tab) {
    var values = paramValues[tab.getId()] || {};
    var given = {};
    Object.keys(values).forEach(function (name) { if (values[name].trim()) { given[name] = values[name].trim(); } });
    lastRun[tab.getId()] = {query: tab.getQuery(), params: given};
    // this server, whatever an older session stored; the saved query's parameters as param.NAME, after
    // the arguments set in the tab's settings (less the parameters' previous values)
    var q = byName[tab.getName()], own = q ? Object.keys(q.params).map(function (n) { return "param." + n; }) : [];
    var current = tab.getRequestConfig().args;
    var args = (Array.isArray(current) ? current : []).filter(function (a) { return a && own.indexOf(a.name) < 0; });
    tab.setRequestConfig({endpoint: ENDPOINT, args: args.concat(Object.keys(given).map(function (name) {
      return {name: "param." + name, value: given[name]};
    }))});
    setState("running");
  });
  yasgui.on("queryResponse", function (instance, tab) {
    var yasr = tab.getYasr();
    yasr.once("drawn", function () { setState(yasr.results && yasr.results.hasError() ? "error" : "done"); });
  });

  // ---------------------------------------------------------------- saved queries and their parameters
  var menu = document.getElementById("kg-saved");
  var paramsBox = document.getElementById("kg-params");
  var description = document.getElementById("kg-description");

  function tabNamed(name) {
    for (var id in yasgui._tabs) { if (yasgui._tabs[id].getName() === name) { return yasgui._tabs[id]; } }
    return null;
  }
  function showParams(tab) {
    paramsBox.textContent = "";
    var q = tab ? byName[tab.getName()] : null;
    description.textContent = q ? q.description : "";
    menu.value = q ? q.name : "";
    if (!q) { return; }
    var values = paramValues[tab.getId()] = paramValues[tab.getId()] || {};
    Object.keys(q.params).forEach(function (name) {
      var label = document.createElement("label");
      label.textContent = name + " ";
      var input = document.createElement("input");
      input.className = "kg-param";
      input.setAttribute("data-param", name);
      input.placeholder = q.params[name];
      input.title = q.params[name];
      input.size = 50;
      input.value = values[name] || "";
      input.addEventListener("input", function () { values[name] = input.value; });
      input.addEventListener("keydown", function (ev) {
        if (ev.key === "Enter") { ev.preventDefault(); tab.query().catch(function () {}); }
      });
      label.appendChild(input);
      paramsBox.appendChild(label);
    });
  }
  menu.addEventListener("change", function () {
    var q = byName[menu.value];
    if (!q) { return; }
    var tab = tabNamed(q.name);
    if (tab) { yasgui.selectTabId(tab.getId()); } else { tab = yasgui.addTab(true, {name: q.name, yasqe: {value: q.text}}); }
    tuneEditor(tab);
    showParams(tab);
  });
  yasgui.on("tabSelect", function (instance, id) {
    setTimeout(function () { tuneEditor(yasgui.getTab(id)); showParams(yasgui.getTab(id)); }, 0);
  });
  tuneEditor(yasgui.getTab());
  showParams(yasgui.getTab());
})();

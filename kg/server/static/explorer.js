// paperkg explorer: runs the editor's query against /sparql and shows the rows and a graph.
// Every value is put in the page with textContent or as an attribute of a created element: never as HTML.
(function () {
  "use strict";
  var PREFIXES = JSON.parse(document.getElementById("kg-prefixes-data").textContent);  // kg.namespaces.PREFIXES
  var ID = PREFIXES.id;
  var KINDS = ["paper", "method", "dataset", "task", "metric", "modality"];
  var saved = JSON.parse(document.getElementById("kg-saved-data").textContent);
  var byName = {};
  saved.forEach(function (q) { byName[q.name] = q; });
  var editor = document.getElementById("kg-query");
  var menu = document.getElementById("kg-saved");
  var paramsBox = document.getElementById("kg-params");
  var statusLine = document.getElementById("kg-status");
  var table = document.getElementById("kg-results");
  var network = null;

  function pagePath(iri) {
    if (iri.indexOf(ID) === 0) {
      var rest = iri.slice(ID.length).split("/");
      if (rest.length === 2 && KINDS.indexOf(rest[0]) >= 0 && /^[A-Za-z0-9][A-Za-z0-9._~-]*$/.test(rest[1])) {
        return "/" + rest[0] + "/" + rest[1];
      }
    }
    return "/entity?iri=" + encodeURIComponent(iri);
  }
  function compact(iri) {  // the longest namespace wins, as in the command line's tables: dataset:imagenet
    var best = null;
    for (var p in PREFIXES) {
      var ns = PREFIXES[p];
      if (iri.indexOf(ns) === 0 && iri.length > ns.length && (best === null || ns.length > PREFIXES[best].length)) { best = p; }
    }
    return best === null ? iri : best + ":" + iri.slice(PREFIXES[best].length);
  }

  menu.addEventListener("change", function () {
    var q = byName[menu.value];
    paramsBox.textContent = "";
    document.getElementById("kg-description").textContent = q ? q.description : "";
    if (!q) { return; }
    editor.value = q.text;
    Object.keys(q.params).forEach(function (name) {
      var label = document.createElement("label");
      label.textContent = name + " ";
      var input = document.createElement("input");
      input.className = "kg-param";
      input.setAttribute("data-param", name);
      input.placeholder = q.params[name];
      input.size = 40;
      label.appendChild(input);
      paramsBox.appendChild(label);
    });
  });

  function body() {
    var form = new URLSearchParams();
    form.set("query", editor.value);
    Array.prototype.forEach.call(document.querySelectorAll(".kg-param"), function (input) {
      if (input.value.trim() !== "") { form.set("param." + input.getAttribute("data-param"), input.value.trim()); }
    });
    return form;
  }

  function cell(term) {
    var td = document.createElement("td");
    if (!term) { return td; }
    if (term.type === "uri") {
      var a = document.createElement("a");
      a.href = pagePath(term.value);
      a.textContent = compact(term.value);
      a.title = term.value;
      td.appendChild(a);
    } else {
      td.textContent = term.type === "bnode" ? "_:" + term.value : term.value;
      if (term.datatype && /#(integer|decimal|double|float|int|long)$/.test(term.datatype)) { td.className = "kg-num"; }
    }
    return td;
  }

  function showTable(columns, rows) {
    var head = table.tHead, tbody = table.tBodies[0];
    head.textContent = ""; tbody.textContent = "";
    var tr = document.createElement("tr");
    columns.forEach(function (c) { var th = document.createElement("th"); th.textContent = c; tr.appendChild(th); });
    head.appendChild(tr);
    rows.forEach(function (row) {
      var r = document.createElement("tr");
      columns.forEach(function (c) { r.appendChild(cell(row[c])); });
      tbody.appendChild(r);
    });
  }

  // N-Triples of a CONSTRUCT/DESCRIBE result, one triple a line: IRIs, blank nodes, literals
  var TERM = /^(<[^>]*>|_:\S+|"(?:[^"\\]|\\.)*"(?:@[A-Za-z0-9-]+|\^\^<[^>]*>)?)\s*/;
  function ntTerm(text) {
    if (text.charAt(0) === "<") { return {type: "uri", value: text.slice(1, -1)}; }
    if (text.indexOf("_:") === 0) { return {type: "bnode", value: text.slice(2)}; }
    var end = text.lastIndexOf('"');
    var value = JSON.parse(text.slice(0, end + 1).replace(/\\U([0-9A-Fa-f]{8})/g, function (m, h) {
      return String.fromCodePoint(parseInt(h, 16)).replace(/[\s\S]/g, function (c) { return "\\u" + ("000" + c.charCodeAt(0).toString(16)).slice(-4); });
    }));
    return {type: "literal", value: value};
  }
  function parseNTriples(text) {
    var rows = [];
    text.split("\n").forEach(function (line) {
      var rest = line.trim(), terms = [];
      while (rest && rest !== "." && terms.length < 3) {
        var m = TERM.exec(rest);
        if (!m) { return; }
        terms.push(ntTerm(m[1]));
        rest = rest.slice(m[0].length);
      }
      if (terms.length === 3) { rows.push({subject: terms[0], predicate: terms[1], object: terms[2]}); }
    });
    return rows;
  }

  function setStatus(text, isError) {
    statusLine.textContent = text;
    statusLine.className = isError ? "kg-error" : "kg-muted";
  }

  function run() {
    setStatus("running…", false);
    var started = performance.now();
    document.body.setAttribute("data-state", "running");
    fetch("/sparql", {
      method: "POST",
      headers: {"Content-Type": "application/x-www-form-urlencoded",
                "Accept": "application/sparql-results+json, application/n-triples;q=0.9"},
      body: body()
    }).then(function (response) {
      return response.text().then(function (text) { return {response: response, text: text}; });
    }).then(function (r) {
      var ms = Math.round(performance.now() - started);
      if (!r.response.ok) {
        showTable([], []);
        setStatus(r.response.status + ": " + r.text, true);
        document.body.setAttribute("data-state", "error");
        return;
      }
      var type = r.response.headers.get("Content-Type") || "";
      var count;
      if (type.indexOf("n-triples") >= 0) {
        var triples = parseNTriples(r.text);
        showTable(["subject", "predicate", "object"], triples);
        count = triples.length + " triples";
      } else {
        var data = JSON.parse(r.text);
        if (typeof data.boolean === "boolean") {
          showTable(["boolean"], [{boolean: {type: "literal", value: String(data.boolean)}}]);
          count = "answer: " + data.boolean;
        } else {
          showTable(data.head.vars, data.results.bindings);
          count = data.results.bindings.length + " rows";
        }
      }
      setStatus(count + " in " + ms + " ms", false);
      document.body.setAttribute("data-state", "done");
      drawGraph();
    }).catch(function (err) {
      setStatus("request failed: " + err, true);
      document.body.setAttribute("data-state", "error");
    });
  }

  function tip(text) {
    var div = document.createElement("div");
    div.className = "kg-tip";
    div.textContent = text;
    return div;
  }

  function drawGraph() {
    fetch("/api/graph", {method: "POST", headers: {"Content-Type": "application/x-www-form-urlencoded"}, body: body()})
      .then(function (response) { return response.ok ? response.json() : {nodes: [], edges: [], message: "no graph"}; })
      .then(function (data) {
        document.getElementById("kg-graph-message").textContent = data.message || (data.nodes.length + " nodes");
        var hrefs = {};
        var nodes = data.nodes.map(function (n) {
          hrefs[n.id] = n.href;
          var item = Object.assign({}, n);
          item.title = tip(n.title);
          delete item.href;
          return item;
        });
        var edges = data.edges.map(function (e, i) {
          var item = Object.assign({id: "e" + i}, e);
          if (e.title) { item.title = tip(e.title); }
          return item;
        });
        if (network) { network.destroy(); network = null; }
        if (!nodes.length) { return; }
        var container = document.getElementById("kg-graph");
        network = new vis.Network(container, {nodes: new vis.DataSet(nodes), edges: new vis.DataSet(edges)}, data.options);
        window.kgNetwork = network;
        network.on("doubleClick", function (params) {
          if (params.nodes.length && hrefs[params.nodes[0]]) { window.location.href = hrefs[params.nodes[0]]; }
        });
      });
  }

  Array.prototype.forEach.call(document.querySelectorAll(".kg-tab"), function (tab) {
    tab.addEventListener("click", function () {
      var which = tab.getAttribute("data-tab");
      Array.prototype.forEach.call(document.querySelectorAll(".kg-tab"), function (t) {
        t.classList.toggle("kg-active", t === tab);
      });
      document.getElementById("kg-table-pane").hidden = which !== "table";
      document.getElementById("kg-graph-pane").hidden = which !== "graph";
      if (which === "graph" && network) { network.fit({animation: false}); }
    });
  });
  document.getElementById("kg-run").addEventListener("click", run);
  editor.addEventListener("keydown", function (ev) {
    if (ev.key === "Enter" && (ev.ctrlKey || ev.metaKey)) { ev.preventDefault(); run(); }
  });
})();

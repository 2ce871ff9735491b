// paperkg explorer: the header's search box. As you type it asks /api/search for the papers and
// entities one of whose names has a word starting with the text, and lists them; Enter or a click opens
// the highlighted one. Every value is put in the page with textContent or as a property: never as HTML.
(function () {
  "use strict";
  var input = document.getElementById("kg-search");
  var list = document.getElementById("kg-search-results");
  if (!input || !list) { return; }
  var LIMIT = 10, DELAY = 120, MAX = 200;
  var hits = [], active = -1, timer = null, asked = 0;

  function close() {
    list.hidden = true;
    list.textContent = "";
    input.setAttribute("aria-expanded", "false");
    input.removeAttribute("aria-activedescendant");
    hits = []; active = -1;
  }

  function highlight(index) {
    active = index;
    Array.prototype.forEach.call(list.children, function (li, i) {
      li.classList.toggle("kg-active", i === index);
      li.setAttribute("aria-selected", i === index ? "true" : "false");
    });
    if (index >= 0) { input.setAttribute("aria-activedescendant", "kg-search-hit-" + index); }
  }

  function local(url) { return typeof url === "string" && /^\/(?![\/\\])/.test(url); }  // this server's pages only

  function show(results, text) {
    list.textContent = "";
    results = results.filter(function (hit) { return local(hit.url); });
    hits = results; active = -1;
    if (!results.length) {
      var none = document.createElement("li");
      none.className = "kg-search-none";
      none.textContent = "nothing named “" + text + "”";
      list.appendChild(none);
    }
    results.forEach(function (hit, i) {
      var li = document.createElement("li");
      li.id = "kg-search-hit-" + i;
      li.setAttribute("role", "option");
      var a = document.createElement("a");
      a.href = hit.url;
      a.className = "kg-search-hit";
      var type = document.createElement("span");
      type.className = "kg-type kg-type-" + hit.type.replace(/[^A-Za-z0-9_-]/g, "");
      type.textContent = hit.type;
      var label = document.createElement("span");
      label.className = "kg-search-label";
      label.textContent = hit.label;
      a.appendChild(type);
      a.appendChild(document.createTextNode(" "));
      a.appendChild(label);
      if (hit.match && hit.match !== hit.label) {
        var alias = document.createElement("span");
        alias.className = "kg-muted kg-search-alias";
        alias.textContent = " (" + hit.match + ")";
        a.appendChild(alias);
      }
      li.appendChild(a);
      li.addEventListener("mousemove", function () { highlight(i); });
      list.appendChild(li);
    });
    list.setAttribute("data-for", text);  // which text these hits answer
    list.hidden = false;
    input.setAttribute("aria-expanded", "true");
    if (results.length) { highlight(0); }
  }

  function ask() {
    var text = input.value.trim().slice(0, MAX);
    if (!text) { close(); return; }
    var mine = ++asked;
    fetch("/api/search?" + new URLSearchParams({q: text, limit: String(LIMIT)}), {headers: {Accept: "application/json"}})
      .then(function (response) { return response.ok ? response.json() : []; })
      .then(function (results) { if (mine === asked && input.value.trim().slice(0, MAX) === text) { show(results, text); } })
      .catch(function () { if (mine === asked) { close(); } });
  }

  input.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(ask, DELAY);
  });
  input.addEventListener("keydown", function (ev) {
    if (ev.key === "ArrowDown" && hits.length) {
      ev.preventDefault(); highlight((active + 1) % hits.length);
    } else if (ev.key === "ArrowUp" && hits.length) {
      ev.preventDefault(); highlight((active - 1 + hits.length) % hits.length);
    } else if (ev.key === "Enter") {
      ev.preventDefault();
      if (hits.length) { window.location.href = hits[Math.max(active, 0)].url; }
      else { clearTimeout(timer); ask(); }
    } else if (ev.key === "Escape") {
      close();
    }
  });
  input.addEventListener("blur", function () { setTimeout(close, 200); });  // after a click on a hit
  input.addEventListener("focus", function () { if (input.value.trim()) { ask(); } });
})();

// Compare any two revisions of an article in the browser, from the static JSON API.
// No third-party code: paragraphs are aligned, then words diffed, with a longest common
// subsequence. Text is inserted with textContent only, never as markup.
(function () {
  "use strict";
  var app = document.getElementById("compare-app");
  if (!app) { return; }
  var status = document.getElementById("compare-status");
  var result = document.getElementById("compare-result");
  var params = new URLSearchParams(window.location.search);
  var doc = params.get("doc") || "";
  var from = parseInt(params.get("from") || "", 10);
  var to = parseInt(params.get("to") || "", 10);
  if (!/^[a-z0-9][a-z0-9-]{0,80}$/.test(doc) || !(from > 0) || !(to > 0)) { return; }

  function say(text) { status.textContent = text; }

  function lcs(a, b) {
    // operations [op, aIndex, bIndex] from a classic dynamic programme; fine for articles
    var n = a.length, m = b.length, i, j;
    if (n * m > 4000000) { return null; }
    var table = [];
    for (i = 0; i <= n; i++) { table.push(new Uint32Array(m + 1)); }
    for (i = n - 1; i >= 0; i--) {
      for (j = m - 1; j >= 0; j--) {
        table[i][j] = a[i] === b[j] ? table[i + 1][j + 1] + 1 : Math.max(table[i + 1][j], table[i][j + 1]);
      }
    }
    var ops = [];
    i = 0; j = 0;
    while (i < n && j < m) {
      if (a[i] === b[j]) { ops.push(["=", i, j]); i++; j++; }
      else if (table[i + 1][j] >= table[i][j + 1]) { ops.push(["-", i, -1]); i++; }
      else { ops.push(["+", -1, j]); j++; }
    }
    for (; i < n; i++) { ops.push(["-", i, -1]); }
    for (; j < m; j++) { ops.push(["+", -1, j]); }
    return ops;
  }

  function words(text) { return text.match(/\S+\s*/g) || []; }

  // the stylesheet gives <ins> and <del> the labels a screen reader says ("[added: …]")
  function marked(tag, text) {
    var el = document.createElement(tag);
    el.textContent = text;
    return el;
  }

  function wordDiff(target, oldText, newText) {
    var a = words(oldText), b = words(newText);
    var ops = lcs(a.map(function (w) { return w.trim(); }), b.map(function (w) { return w.trim(); }));
    if (!ops) {
      target.appendChild(marked("del", oldText));
      target.appendChild(marked("ins", newText));
      return;
    }
    ops.forEach(function (op) {
      if (op[0] === "=") { target.appendChild(document.createTextNode(b[op[2]])); }
      else if (op[0] === "-") { target.appendChild(marked("del", a[op[1]])); }
      else { target.appendChild(marked("ins", b[op[2]])); }
    });
  }

  function row(kind, label) {
    var p = document.createElement("p");
    p.className = "row row-" + kind;
    if (label) {
      var tag = document.createElement("span");
      tag.className = "tag";
      tag.textContent = label;
      p.appendChild(tag);
      p.appendChild(document.createTextNode(" "));
    }
    result.appendChild(p);
    return p;
  }

  function chooser(data) {
    // the two revisions to compare, chosen here (the article page only links to this one)
    var form = document.createElement("form");
    form.className = "compare-form";
    form.method = "get";
    var hidden = document.createElement("input");
    hidden.type = "hidden";
    hidden.name = "doc";
    hidden.value = doc;
    form.appendChild(hidden);
    [["from", "From", from], ["to", "to", to]].forEach(function (field) {
      var label = document.createElement("label");
      label.appendChild(document.createTextNode(field[1] + " "));
      var select = document.createElement("select");
      select.name = field[0];
      data.revisions.forEach(function (r) {
        var option = document.createElement("option");
        option.value = String(r.number);
        option.textContent = "revision " + r.number;
        option.selected = r.number === field[2];
        select.appendChild(option);
      });
      label.appendChild(select);
      form.appendChild(label);
      form.appendChild(document.createTextNode(" "));
    });
    var button = document.createElement("button");
    button.type = "submit";
    button.textContent = "Compare";
    form.appendChild(button);
    result.appendChild(form);
  }

  function render(data) {
    var revs = {};
    var title = "";
    data.revisions.forEach(function (r) {
      // a revision names its headline only where it changed: the one before holds
      if (typeof r.title === "string") { title = r.title; } else { r.title = title; }
      revs[r.number] = r;
    });
    chooser(data);
    var a = revs[from], b = revs[to];
    if (!a || !b) { say("This article has no revision " + (!a ? from : to) + "."); return; }
    say("Revision " + from + " (" + a.observed_at + ") compared with revision " + to + " (" + b.observed_at + ").");
    var heading = document.createElement("h2");
    heading.textContent = b.title;
    result.appendChild(heading);
    if (a.title !== b.title) { wordDiff(row("changed", "headline"), a.title, b.title); }
    // a revision lists indexes into the file's table of [kind, text] blocks: equal
    // indexes are equal blocks. A block no edit touched is null (the archive
    // holds it): such runs show as a count, as on the edit pages.
    var text = function (i) { return data.blocks[i] === null ? null : data.blocks[i][1]; };
    var ops = lcs(a.blocks, b.blocks) || [];
    var unchanged = 0;
    var flush = function () {
      if (unchanged) {
        row("unchanged", "").textContent = unchanged + " unchanged paragraph" + (unchanged === 1 ? "" : "s");
        unchanged = 0;
      }
    };
    var shown = function (i) {
      var t = text(i);
      return t === null ? "(a paragraph of the article; its text is in the archive)" : t;
    };
    for (var k = 0; k < ops.length; k++) {
      var op = ops[k];
      var next = ops[k + 1];
      if (op[0] === "=" && text(b.blocks[op[2]]) === null) { unchanged++; continue; }
      flush();
      if (op[0] === "-" && next && next[0] === "+") {
        wordDiff(row("changed", "changed"), shown(a.blocks[op[1]]), shown(b.blocks[next[2]]));
        k++;
      } else if (op[0] === "=") {
        row("kept", "").textContent = text(b.blocks[op[2]]);
      } else if (op[0] === "-") {
        row("removed", "removed").appendChild(marked("del", shown(a.blocks[op[1]])));
      } else {
        row("added", "added").appendChild(marked("ins", shown(b.blocks[op[2]])));
      }
    }
    flush();
    var back = document.createElement("p");
    var link = document.createElement("a");
    link.href = app.getAttribute("data-articles") + doc + "/";
    link.textContent = "All revisions of this article";
    back.appendChild(link);
    result.appendChild(back);
  }

  say("Loading revisions…");
  fetch(app.getAttribute("data-api") + doc + ".json", { credentials: "omit" })
    .then(function (response) {
      if (!response.ok) { throw new Error("HTTP " + response.status); }
      return response.json();
    })
    .then(render)
    .catch(function (error) { say("Could not load this article's revisions (" + error.message + ")."); });
})();

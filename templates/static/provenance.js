// Where each paragraph of an article's newest revision comes from, on demand: a button
// beside the article's JSON link fetches that file and lists the blocks with the revision
// each first appeared in or last changed in. The page carries none of it until asked.
// Text is inserted with textContent only, never as markup.
(function () {
  "use strict";
  var link = document.querySelector("p.feeds a[href*='api/documents/']");
  if (!link || !window.fetch) { return; }
  var button = document.createElement("button");
  button.type = "button";
  button.textContent = "Where each paragraph comes from";
  var out = document.createElement("section");
  out.setAttribute("aria-live", "polite");
  out.className = "provenance";
  link.parentNode.appendChild(document.createTextNode(" · "));
  link.parentNode.appendChild(button);
  link.parentNode.parentNode.insertBefore(out, link.parentNode.nextSibling);

  function line(block, origin, texts) {
    var item = document.createElement("li");
    var first = origin[0], changed = origin[1];
    var since = changed === null ? first : changed;
    var label = document.createElement("span");
    label.className = "meta";
    label.textContent = (changed === null ? "first appeared in revision " : "last changed in revision ") +
      since + (changed === null || first === changed ? "" : " (first appeared in revision " + first + ")");
    var text = texts[block] ? texts[block][1] : null;
    var body = document.createElement("span");
    body.textContent = text === null ? "Unchanged in every revision (its text is in the archive). " : text + " ";
    item.appendChild(body);
    if (since > 1) {
      var diff = document.createElement("a");
      diff.href = "#r" + since;
      diff.appendChild(label);
      item.appendChild(diff);
    } else {
      item.appendChild(label);
    }
    return item;
  }

  button.addEventListener("click", function () {
    button.disabled = true;
    out.textContent = "Loading…";
    fetch(link.href).then(function (response) {
      if (!response.ok) { throw new Error("HTTP " + response.status); }
      return response.json();
    }).then(function (data) {
      var newest = data.revisions[data.revisions.length - 1];
      // [position, first, changed] for the blocks that did not come from the first
      // revision unchanged; every other block is [first revision, null]
      var first = data.revisions[0].number;
      var origins = newest.blocks.map(function () { return [first, null]; });
      (data.provenance || []).forEach(function (entry) {
        origins[entry[0]] = [entry[1], entry[2]];
      });
      var heading = document.createElement("h2");
      heading.textContent = "Where each paragraph of revision " + newest.number + " comes from";
      var list = document.createElement("ol");
      newest.blocks.forEach(function (block, position) {
        list.appendChild(line(block, origins[position], data.blocks));
      });
      out.textContent = "";
      out.appendChild(heading);
      out.appendChild(list);
    }).catch(function (error) {
      out.textContent = "Could not load the article's data: " + error.message;
      button.disabled = false;
    });
  });
}());

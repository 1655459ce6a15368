// Starts Pagefind's default search UI over every index shard the build wrote.
// The bundles come from the page's #search-bundles list, so no inline script is needed.
(function () {
  "use strict";
  var list = document.getElementById("search-bundles");
  if (!list || typeof window.PagefindUI !== "function") { return; }
  // one bundle per source (or part of one); mergeFilter tags each result with its source
  // results link under the site's base path (a project site lives at /repo/, not /)
  var baseUrl = list.getAttribute("data-base-url") || "/";
  var bundles = Array.prototype.map.call(list.querySelectorAll("li[data-bundle]"), function (li) {
    return {
      bundlePath: li.getAttribute("data-bundle"),
      baseUrl: baseUrl,
      mergeFilter: { source: li.getAttribute("data-source") }
    };
  });
  if (!bundles.length) { return; }
  new window.PagefindUI({
    element: "#search",
    bundlePath: bundles[0].bundlePath,
    baseUrl: baseUrl,
    mergeFilter: bundles[0].mergeFilter,
    mergeIndex: bundles.slice(1),
    showImages: false,
    showSubResults: false,
    resetStyles: false
  });
})();

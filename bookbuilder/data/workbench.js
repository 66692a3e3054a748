// serve's workbench (bookbuilder/serve/workbench.py): the two corrections that start from a click or a
// selection rather than from a button per line, so that a source of 100,000 lines stays one page.
(function () {
  "use strict";
  var line = document.getElementById("bb-line");
  var list = document.querySelector("ol.source");
  if (line && list) {
    // A click on a source line: "a heading starts here" for that line, below the page.
    list.addEventListener("click", function (event) {
      var item = event.target.closest("li[id^='L']");
      if (!item) return;
      var chosen = list.querySelector("li.bb-chosen");
      if (chosen) chosen.classList.remove("bb-chosen");
      item.classList.add("bb-chosen");
      line.elements.line.value = item.id.slice(1);
      line.elements.expect.value = item.textContent;  // the server checks the line still reads so
      line.querySelector(".bb-line-no").textContent = item.id.slice(1);
      line.hidden = false;
    });
  }
  var remove = document.getElementById("bb-remove");
  var section = document.querySelector("section[role]");
  if (remove && section) {
    // Text selected in the chapter: "remove this everywhere", editable before it is sent.
    document.addEventListener("selectionchange", function () {
      var selection = window.getSelection();
      var chosen = selection.toString().trim();
      if (!chosen || !section.contains(selection.anchorNode)) return;  // a click in the form keeps it
      remove.elements.text.value = chosen;
      remove.hidden = false;
    });
  }
})();

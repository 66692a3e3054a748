// serve's workbench (bookbuilder/serve/workbench.py): the corrections that start from a click or a
// selection rather than from a form per line, so that a source of 100,000 lines and a contents of
// 2,000 chapters stay light pages; and each correction's answer shown beside the control used.
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
      var n = item.id.slice(1);
      line.elements.line.value = n;
      line.elements.expect.value = item.textContent;  // the server checks the line still reads so
      line.elements.back.value = location.pathname + "?line=" + n;  // back to this line's page
      line.elements.near.value = item.id;
      line.querySelector(".bb-line-no").textContent = n;
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

  // A contents entry's corrections, made from the page's template when the entry is opened (a
  // click on its summary, by mouse or keyboard, comes before the box opens).
  document.addEventListener("click", function (event) {
    var summary = event.target.closest && event.target.closest("details.bb-fix[data-kind] > summary");
    if (!summary || summary.parentNode.querySelector("form")) return;
    var entry = summary.parentNode;
    var template = document.getElementById("bb-fix-" + entry.dataset.kind);
    if (!template) return;
    var made = template.content.cloneNode(true);
    made.querySelectorAll("input[name=at]").forEach(function (input) { input.value = entry.dataset.at; });
    made.querySelectorAll("input[name=expect]").forEach(function (input) { input.value = entry.dataset.expect; });
    made.querySelectorAll("input[name=rename]").forEach(function (input) { input.value = entry.dataset.expect; });
    entry.appendChild(made);
  });

  // A correction sent: the page waits for its answer (no reload on the build it starts), and the
  // answer is placed beside the element the control stood in, or where the page was scrolled to.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.elements.near) return;
    var holder = form.parentElement && form.parentElement.closest("[id]");
    if (!form.elements.near.value && holder) form.elements.near.value = holder.id;
    window.bbBusy = true;
    // The entry's source place, which outlives its id (a volume added renames every chapter's id).
    var fix = holder && holder.querySelector(":scope > details.bb-fix[data-at]");
    try {
      sessionStorage.setItem("bb-scrolled", JSON.stringify({
        path: location.pathname, y: window.scrollY, at: fix ? fix.dataset.at : null,
      }));
    } catch (e) { /* no storage: the answer shows at the top */ }
  });
  var notice = document.querySelector(".bb-notice[data-near]");
  if (notice) {
    var url = new URL(location.href);
    url.searchParams.delete("said");  // shown once: a later reload or another page shows none
    history.replaceState(null, "", url.pathname + url.search + url.hash);
    var near = notice.dataset.near && document.getElementById(notice.dataset.near);
    var scrolled = null;
    try {
      scrolled = JSON.parse(sessionStorage.getItem("bb-scrolled") || "null");
      sessionStorage.removeItem("bb-scrolled");
    } catch (e) { scrolled = null; }
    if (!near && scrolled && scrolled.path === location.pathname && scrolled.at) {
      var same = document.querySelector('details.bb-fix[data-at="' + CSS.escape(scrolled.at) + '"]');
      near = same && same.parentElement.closest("[id]");
    }
    if (near) {
      near.after(notice);
      notice.scrollIntoView({ block: "center" });
    } else if (scrolled && scrolled.path === location.pathname && scrolled.y > 0) {
      window.scrollTo(0, scrolled.y);  // the control's element is gone (a heading undone): where it was
      notice.classList.add("bb-toast");
      notice.addEventListener("click", function () { notice.remove(); });
    }
  }
})();

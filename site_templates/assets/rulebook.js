// Term previews: hovering or focusing a term link shows its definition.
// The previews of the terms a page uses are in the page itself (a JSON script
// block), so this works offline and from a file system.
(function () {
  "use strict";
  var previews = {};
  document.querySelectorAll("script.rb-previews").forEach(function (block) {
    try { Object.assign(previews, JSON.parse(block.textContent)); } catch (error) { /* keep the links */ }
  });
  var box = null;

  function hide() {
    if (box) { box.remove(); box = null; }
  }

  function show(link) {
    var preview = previews[link.getAttribute("data-term")];
    if (!preview) { return; }
    hide();
    box = document.createElement("div");
    box.className = "rb-preview";
    box.setAttribute("role", "tooltip");
    var title = document.createElement("strong");
    title.textContent = preview.title;
    var text = document.createElement("span");
    text.textContent = preview.text;
    box.appendChild(title);
    box.appendChild(text);
    document.body.appendChild(box);
    var place = link.getBoundingClientRect();
    var left = Math.min(window.scrollX + place.left, window.scrollX + document.documentElement.clientWidth - box.offsetWidth - 8);
    box.style.left = Math.max(8, left) + "px";
    box.style.top = (window.scrollY + place.bottom + 6) + "px";
  }

  document.addEventListener("mouseover", function (event) {
    var link = event.target.closest && event.target.closest("a.rb-term");
    if (link) { show(link); } else if (box && !event.target.closest(".rb-preview")) { hide(); }
  });
  document.addEventListener("focusin", function (event) {
    var link = event.target.closest && event.target.closest("a.rb-term");
    if (link) { show(link); } else { hide(); }
  });
  document.addEventListener("keydown", function (event) { if (event.key === "Escape") { hide(); } });
})();

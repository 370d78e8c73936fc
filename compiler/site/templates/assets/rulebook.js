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

// Language switcher: each chapter page says where it and each of its sections are in the other
// languages (a JSON script block). The header's language links then lead to the aligned page, and
// a click lands on the section being read.
(function () {
  "use strict";
  var alternates = {};
  document.querySelectorAll("script.rb-alternate").forEach(function (block) {
    try { Object.assign(alternates, JSON.parse(block.textContent)); } catch (error) { /* keep the links */ }
  });

  function sectionInView() {
    var current = null;
    document.querySelectorAll(".md-content h1[id], .md-content h2[id], .md-content h3[id], .md-content h4[id], .md-content h5[id], .md-content h6[id]").forEach(function (heading) {
      if (heading.getBoundingClientRect().top <= 120) { current = heading.id; }
    });
    return current;
  }

  document.querySelectorAll("a.md-select__link[hreflang]").forEach(function (link) {
    var alternate = alternates[link.getAttribute("hreflang")];
    if (alternate && alternate.page) { link.setAttribute("href", alternate.page); }
  });
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a.md-select__link[hreflang]");
    var alternate = link && alternates[link.getAttribute("hreflang")];
    if (!alternate) { return; }
    var section = sectionInView();
    var target = section && alternate.sections[section];
    if (target) {
      event.preventDefault();
      window.location.href = target;
    }
  });
})();

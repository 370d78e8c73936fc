// Term previews. Hovering or focusing a term shows its definition (a tooltip the link is described
// by); on a touch screen the first tap opens the card, with "Go to the rule" and a close button, and a
// second tap follows the link. Cards open below the term, above it when there is no room, and stay
// inside the screen. The previews of the terms a page uses are in the page itself (a JSON block),
// so this works offline and from a file system.
(function () {
  "use strict";
  var TERMS = "a.rb-term[data-term], .rb-unpublished";
  var MARGIN = 8;
  var GAP = 6;
  var previews = read("script.rb-previews");
  var words = read("script.rb-words");
  var card = null;
  var owner = null;
  var pointer = "mouse";
  var returning = false;

  function read(selector) {
    var found = {};
    document.querySelectorAll(selector).forEach(function (block) {
      try { Object.assign(found, JSON.parse(block.textContent)); } catch (error) { /* keep the links */ }
    });
    return found;
  }

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) { node.className = className; }
    if (text) { node.textContent = text; }
    return node;
  }

  function previewOf(link) {
    if (link.classList.contains("rb-unpublished")) {
      return words.unpublished ? { title: link.textContent, text: words.unpublished } : null;
    }
    return previews[link.getAttribute("data-term")] || null;
  }

  function table(preview) {
    var grid = element("table", "rb-preview-table");
    if (preview.head && preview.head.length) {
      var head = grid.appendChild(element("thead")).appendChild(element("tr"));
      preview.head.forEach(function (name) { head.appendChild(element("th", "", name)).setAttribute("scope", "col"); });
    }
    var body = grid.appendChild(element("tbody"));
    preview.rows.forEach(function (cells) {
      var row = body.appendChild(element("tr"));
      cells.forEach(function (cell) { row.appendChild(element("td", "", cell)); });
    });
    return grid;
  }

  function build(link, preview, interactive) {
    var box = element("div", "rb-preview");
    box.id = "rb-preview";
    box.appendChild(element("strong", "rb-preview-title", preview.title));
    if (preview.text) { box.appendChild(element("p", "rb-preview-text", preview.text)); }
    if (preview.table) {
      box.appendChild(table(preview.table));
      if (preview.table.more) { box.appendChild(element("p", "rb-preview-more", preview.table.more)); }
    }
    if (!interactive) {
      box.setAttribute("role", "tooltip");
      return box;
    }
    box.setAttribute("role", "dialog");
    box.setAttribute("aria-label", preview.title);
    box.tabIndex = -1;
    if (link.hasAttribute("href")) {
      var go = element("a", "rb-preview-go", words.go_to_rule || "Go to the rule");
      go.href = link.getAttribute("href");
      box.appendChild(element("p", "rb-preview-actions")).appendChild(go);
    }
    var close = box.appendChild(element("button", "rb-preview-close", "×"));
    close.type = "button";
    close.setAttribute("aria-label", words.close || "Close");
    return box;
  }

  // Below the term when the card fits there, else above it, else as low as the screen allows.
  function place(box, link) {
    var width = document.documentElement.clientWidth;
    var height = window.innerHeight;
    box.style.maxHeight = (height - 2 * MARGIN) + "px";
    var around = link.getBoundingClientRect();
    var first = link.getClientRects()[0] || around;
    var left = Math.max(MARGIN, Math.min(first.left, width - box.offsetWidth - MARGIN));
    var top = around.bottom + GAP;
    if (top + box.offsetHeight > height - MARGIN) {
      top = around.top - GAP - box.offsetHeight;
      if (top < MARGIN) { top = Math.max(MARGIN, height - MARGIN - box.offsetHeight); }
    }
    box.style.left = (window.scrollX + left) + "px";
    box.style.top = (window.scrollY + top) + "px";
  }

  function show(link, interactive) {
    if (card && owner === link && (card.getAttribute("role") === "dialog") === interactive) { return; }
    var preview = previewOf(link);
    hide(false);
    if (!preview) { return; }
    card = build(link, preview, interactive);
    owner = link;
    document.body.appendChild(card);
    place(card, link);
    if (interactive) {
      card.focus({ preventScroll: true });
    } else {
      link.setAttribute("aria-describedby", card.id);
    }
  }

  function hide(giveFocusBack) {
    if (!card) { return; }
    var link = owner;
    var wasDialog = card.getAttribute("role") === "dialog";
    card.remove();
    card = null;
    owner = null;
    link.removeAttribute("aria-describedby");
    if (giveFocusBack && wasDialog && link.focus) {
      returning = true;
      link.focus({ preventScroll: true });
      returning = false;
    }
  }

  function termAt(target) {
    return target && target.closest ? target.closest(TERMS) : null;
  }

  document.addEventListener("pointerdown", function (event) { pointer = event.pointerType || "mouse"; }, true);
  document.addEventListener("mouseover", function (event) {
    if (pointer === "touch" || (card && card.getAttribute("role") === "dialog")) { return; }
    var link = termAt(event.target);
    if (link) {
      show(link, false);
    } else if (card && !card.contains(event.target)) {
      hide(false);
    }
  });
  document.addEventListener("focusin", function (event) {
    if (returning || (card && card.contains(event.target))) { return; }
    var link = event.target.closest && event.target.closest("a.rb-term[data-term]");
    if (link && pointer !== "touch") {
      show(link, false);
    } else if (card && owner !== link) {
      hide(false);
    }
  });
  document.addEventListener("click", function (event) {
    if (card && event.target.closest(".rb-preview-close")) {
      hide(true);
      return;
    }
    if (card && card.contains(event.target)) {
      if (event.target.closest(".rb-preview-go")) { hide(false); }
      return;
    }
    var link = termAt(event.target);
    var touch = (event.pointerType !== undefined ? event.pointerType : pointer) === "touch";
    if (!link) {
      hide(false);
    } else if (touch && !(card && owner === link && card.getAttribute("role") === "dialog")) {
      event.preventDefault(); // the first tap shows the card; the second follows the link
      show(link, true);
    } else {
      hide(false);
    }
  });
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && card) { hide(true); }
  });
  window.addEventListener("hashchange", function () { hide(false); });
  window.addEventListener("resize", function () { if (card && card.getAttribute("role") === "tooltip") { hide(false); } });
})();

// Material's search is a dialog without a name: it takes its search box's (in the page's language).
(function () {
  "use strict";
  document.querySelectorAll(".md-search[role='dialog']:not([aria-label])").forEach(function (dialog) {
    var box = dialog.querySelector("input[aria-label]");
    if (box) { dialog.setAttribute("aria-label", box.getAttribute("aria-label")); }
  });
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

  var HEADINGS = ".md-content h1[id], .md-content h2[id], .md-content h3[id], .md-content h4[id], .md-content h5[id], .md-content h6[id]";
  var SCROLL_KEYS = ["ArrowDown", "ArrowUp", "PageDown", "PageUp", "Home", "End", " "];
  var scrolled = false;
  window.addEventListener("wheel", function () { scrolled = true; }, { passive: true });
  window.addEventListener("touchmove", function () { scrolled = true; }, { passive: true });
  window.addEventListener("keydown", function (event) { if (SCROLL_KEYS.indexOf(event.key) >= 0) { scrolled = true; } });

  // The section being read: the one the address leads to until the reader scrolls (the page may still
  // shift as it settles), then the last heading at the top of the screen.
  function sectionInView() {
    var current = null;
    var target = !scrolled && location.hash ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
    document.querySelectorAll(HEADINGS).forEach(function (heading) {
      var before = target && (heading === target || (heading.compareDocumentPosition(target) & Node.DOCUMENT_POSITION_FOLLOWING));
      if (target ? before : heading.getBoundingClientRect().top <= 120) { current = heading.id; }
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

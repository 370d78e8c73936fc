// Term cards. Hovering or focusing a term shows its card: the definition's sentence, with the other terms
// it uses as links (each opens a card of its own), "Go to the rule" and "Copy link". The pointer may move
// onto the card; a click in it, or the focus moving into it (Down arrow from the term; Tab past its last
// control goes on after the term), keeps it open until Esc, the close button or a click elsewhere. On a
// touch screen the first tap opens the card, kept open, and a second tap follows the link. Cards open below
// the term, above it when there is no room, and stay inside the screen. The cards of the terms a page uses
// are in the page itself (a JSON block), so this works offline and from a file system.
(function () {
  "use strict";
  var TERMS = "a.rb-term[data-term], .rb-unpublished";
  var FOCUSABLE = "a[href], button, input, select, textarea, [tabindex]:not([tabindex='-1'])";
  var MARGIN = 8;
  var GAP = 6;
  var MIN_ROOM = 120;
  var OPEN_DELAY = 80;
  var CLOSE_DELAY = 350;
  var previews = read("script.rb-previews");
  var words = read("script.rb-words");
  var stack = []; // the open cards, each {card, owner, pinned}; a card's owner is in the card below it, or the page
  var pointer = "mouse";
  var returning = false;
  var opening = null;
  var closing = null;

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

  // The card's text, each term it uses a link to that term (with its own card).
  function text(preview, id) {
    var paragraph = element("p", "rb-preview-text");
    paragraph.id = id;
    var at = 0;
    (preview.links || []).forEach(function (span) {
      var target = previews[span[2]];
      if (!target || !target.href || span[0] < at) { return; }
      paragraph.appendChild(document.createTextNode(preview.text.slice(at, span[0])));
      var link = paragraph.appendChild(element("a", "rb-term", preview.text.slice(span[0], span[1])));
      link.href = target.href;
      link.setAttribute("data-term", span[2]);
      at = span[1];
    });
    paragraph.appendChild(document.createTextNode(preview.text.slice(at)));
    return paragraph;
  }

  function build(link, preview, level) {
    var box = element("div", "rb-preview");
    box.id = "rb-preview-" + level;
    box.setAttribute("role", "dialog");
    box.setAttribute("aria-label", preview.title);
    box.tabIndex = -1;
    box.appendChild(element("strong", "rb-preview-title", preview.title));
    if (preview.text) { box.appendChild(text(preview, box.id + "-text")); }
    if (preview.table) {
      box.appendChild(table(preview.table));
      if (preview.table.more) { box.appendChild(element("p", "rb-preview-more", preview.table.more)); }
    }
    if (link.hasAttribute("href")) {
      var actions = box.appendChild(element("p", "rb-preview-actions"));
      var go = actions.appendChild(element("a", "rb-preview-go", words.go_to_rule || "Go to the rule"));
      go.href = link.getAttribute("href");
      var copy = actions.appendChild(element("button", "rb-preview-copy", words.copy_link || "Copy link"));
      copy.type = "button";
    }
    var close = box.appendChild(element("button", "rb-preview-close", "×"));
    close.type = "button";
    close.setAttribute("aria-label", words.close || "Close");
    return box;
  }

  // Below the term when the card fits there, else above it; a card that fits neither takes the larger side and
  // scrolls, so that it never covers its term (a second tap must reach it). Always inside the screen.
  function place(box, link) {
    var width = document.documentElement.clientWidth;
    var height = window.innerHeight;
    var around = link.getBoundingClientRect();
    var first = link.getClientRects()[0] || around;
    var below = height - MARGIN - around.bottom - GAP;
    var above = around.top - GAP - MARGIN;
    var room = Math.max(below, above);
    box.style.maxHeight = (room >= MIN_ROOM ? room : height - 2 * MARGIN) + "px";
    var left = Math.max(MARGIN, Math.min(first.left, width - box.offsetWidth - MARGIN));
    var top;
    if (box.offsetHeight <= below || (room >= MIN_ROOM && below >= above)) {
      top = around.bottom + GAP;
    } else if (room >= MIN_ROOM) {
      top = around.top - GAP - box.offsetHeight;
    } else {
      top = Math.max(MARGIN, height - MARGIN - box.offsetHeight); // no room beside the term: the card covers it
    }
    box.style.left = (window.scrollX + left) + "px";
    box.style.top = (window.scrollY + top) + "px";
  }

  // The deepest open card the node is in, or whose term it is (-1: the page).
  function zoneOf(node) {
    for (var i = stack.length - 1; i >= 0; i--) {
      if (stack[i].card.contains(node) || stack[i].owner === node || stack[i].owner.contains(node)) { return i; }
    }
    return -1;
  }

  function levelFor(link) {
    for (var i = stack.length - 1; i >= 0; i--) {
      if (stack[i].card.contains(link)) { return i + 1; }
    }
    return 0;
  }

  function show(link, how) {
    var level = levelFor(link);
    var open = stack[level];
    if (open && open.owner === link) {
      if (how === "tap") { pin(level); }
      return true;
    }
    var preview = previewOf(link);
    if (!preview) { return false; }
    hide(level, false);
    var card = build(link, preview, level);
    document.body.appendChild(card);
    place(card, link);
    stack.push({ card: card, owner: link, pinned: false });
    var described = card.querySelector(".rb-preview-text");
    if (described) { link.setAttribute("aria-describedby", described.id); }
    if (how === "tap") {
      pin(level);
      card.focus({ preventScroll: true });
    }
    return true;
  }

  function pin(level) {
    for (var i = 0; i <= level && i < stack.length; i++) { stack[i].pinned = true; }
  }

  // Close the cards from ``level`` up; the focus goes back to the lowest one's term if it was in a card.
  function hide(level, giveFocusBack) {
    if (level >= stack.length) { return; }
    var removed = stack.splice(level);
    var focusWasIn = removed.some(function (open) { return open.card.contains(document.activeElement); });
    removed.forEach(function (open) {
      open.card.remove();
      open.owner.removeAttribute("aria-describedby");
    });
    if (giveFocusBack && focusWasIn && removed[0].owner.focus) {
      returning = true;
      removed[0].owner.focus({ preventScroll: true });
      returning = false;
    }
  }

  // Cards the pointer has left close after a moment, unless kept open.
  function settle(zone) {
    var keep = zone;
    stack.forEach(function (open, i) { if (open.pinned) { keep = Math.max(keep, i); } });
    hide(keep + 1, false);
  }

  function wait(timer) { if (timer) { clearTimeout(timer); } return null; }

  function termAt(target) {
    return target && target.closest ? target.closest(TERMS) : null;
  }

  function visible(node) { return node.getClientRects().length > 0; }

  function focusables(card) {
    return Array.prototype.filter.call(card.querySelectorAll(FOCUSABLE), visible);
  }

  // The element after ``owner`` in the tab order of what holds it (a card, or the page outside the cards).
  function after(owner) {
    var level = levelFor(owner);
    var all = level > 0 ? focusables(stack[level - 1].card) : Array.prototype.filter.call(
      document.querySelectorAll(FOCUSABLE),
      function (node) { return visible(node) && !node.closest(".rb-preview"); }
    );
    return all[all.indexOf(owner) + 1] || null;
  }

  document.addEventListener("pointerdown", function (event) { pointer = event.pointerType || "mouse"; }, true);
  document.addEventListener("mouseover", function (event) {
    if (pointer === "touch") { return; }
    var zone = zoneOf(event.target);
    var link = termAt(event.target);
    opening = wait(opening);
    closing = wait(closing);
    if (link && !(stack[zone] && stack[zone].owner === link)) {
      opening = setTimeout(function () { opening = null; show(link, "hover"); }, OPEN_DELAY);
    } else if (zone < stack.length - 1) {
      closing = setTimeout(function () { closing = null; settle(zone); }, CLOSE_DELAY);
    }
  });
  document.documentElement.addEventListener("mouseleave", function () {
    opening = wait(opening);
    closing = wait(closing);
    closing = setTimeout(function () { closing = null; settle(-1); }, CLOSE_DELAY);
  });
  document.addEventListener("focusin", function (event) {
    if (returning) { return; }
    var zone = zoneOf(event.target);
    var inCard = zone >= 0 && stack[zone].card.contains(event.target);
    if (inCard) { pin(zone); }
    var link = event.target.closest && event.target.closest(TERMS);
    if (link && pointer !== "touch" && !(stack[zone] && stack[zone].owner === link)) {
      show(link, "focus");
    } else if (!link || pointer === "touch") {
      hide(inCard ? zone + 1 : (zone >= 0 ? zone + 1 : 0), false);
    }
  });
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && stack.length) {
      hide(stack.length - 1, true);
      return;
    }
    if (!stack.length) { return; }
    var top = stack[stack.length - 1];
    var active = document.activeElement;
    var inside = focusables(top.card);
    if (event.key === "ArrowDown" && active === top.owner && inside.length) {
      event.preventDefault(); // Down from a term goes into its card (Tab goes on through the page)
      inside[0].focus();
    } else if (event.key === "Tab" && top.card.contains(active) && inside.length) {
      var last = active === inside[inside.length - 1] || active === top.card;
      var first = active === inside[0];
      if (event.shiftKey && first) {
        event.preventDefault();
        top.owner.focus();
      } else if (!event.shiftKey && last) {
        event.preventDefault(); // past the card's last control: on to what follows its term
        var next = after(top.owner);
        hide(stack.length - 1, false);
        if (next) { next.focus(); }
      }
    }
  });
  document.addEventListener("click", function (event) {
    var zone = zoneOf(event.target);
    var open = zone >= 0 && stack[zone].card.contains(event.target) ? stack[zone] : null;
    if (open && event.target.closest(".rb-preview-close")) {
      hide(zone, true);
      return;
    }
    if (open && event.target.closest(".rb-preview-copy")) {
      copy(event.target.closest(".rb-preview-copy"), open.card.querySelector(".rb-preview-go").href);
      pin(zone);
      return;
    }
    if (open && event.target.closest(".rb-preview-go")) {
      hide(0, false);
      return;
    }
    var link = termAt(event.target);
    var touch = (event.pointerType !== undefined && event.pointerType !== "" ? event.pointerType : pointer) === "touch";
    if (link && touch) {
      var shown = stack[levelFor(link)];
      if (shown && shown.owner === link && shown.pinned) {
        hide(0, false); // the second tap follows the link
      } else if (show(link, "tap")) {
        event.preventDefault(); // the first tap shows the card
      }
      return;
    }
    if (open) {
      pin(zone); // a click in a card keeps it open
      if (link) { hide(0, false); }
      return;
    }
    hide(link ? 0 : zone + 1, false);
  });
  window.addEventListener("hashchange", function () { hide(0, false); });
  window.addEventListener("resize", function () { settle(-1); });

  // Copy the rule's address; where the clipboard is not allowed (a page from disk), show it selected.
  function copy(button, href) {
    function copied() {
      button.textContent = words.link_copied || "Link copied";
    }
    function shown() {
      var field = element("input", "rb-preview-address");
      field.readOnly = true;
      field.value = href;
      field.setAttribute("aria-label", words.copy_link || "Copy link");
      button.replaceWith(field);
      field.focus();
      field.select();
    }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(href).then(copied, shown);
    } else {
      shown();
    }
  }
})();

// Material's search is a dialog without a name: it takes its search box's (in the page's language).
(function () {
  "use strict";
  document.querySelectorAll(".md-search[role='dialog']:not([aria-label])").forEach(function (dialog) {
    var box = dialog.querySelector("input[aria-label]");
    if (box) { dialog.setAttribute("aria-label", box.getAttribute("aria-label")); }
  });
})();

// Zensical's search (in a shadow root, out of the page's styles): its results' paths readable (its 0.45 grey is
// 3.4:1), and each result named by its whole text, as Material's are (a name from the title alone leaves the
// result's other visible text out of it: WCAG 2.5.3). Nothing here touches MkDocs' pages.
(function () {
  "use strict";
  var READABLE = "[role='option'] menu { color: rgb(var(--color-foreground) / 0.72); }";

  function fix(root) {
    if (root.rbFixed) { return; }
    root.rbFixed = true;
    try {
      var sheet = new CSSStyleSheet();
      sheet.replaceSync(READABLE);
      root.adoptedStyleSheets = root.adoptedStyleSheets.concat([sheet]);
    } catch (error) { /* an older browser: the search works as it is */ }
    function named() {
      root.querySelectorAll("[role='option'][aria-labelledby]").forEach(function (option) {
        option.removeAttribute("aria-labelledby");
        option.removeAttribute("aria-describedby");
      });
    }
    new MutationObserver(named).observe(root, { childList: true, subtree: true });
    named();
  }

  function look() {
    Array.prototype.forEach.call(document.body.children, function (node) {
      if (node.shadowRoot && node.shadowRoot.querySelector("[role='listbox'], input")) { fix(node.shadowRoot); }
    });
  }
  look();
  new MutationObserver(look).observe(document.body, { childList: true });
  document.addEventListener("click", look, true);
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

  var NEAREST = "#rb-nearest";
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
    if (alternate && alternate.page) {
      link.setAttribute("href", alternate.page + (alternate.nearest ? NEAREST : ""));
    } else if (link.getAttribute("hreflang") === document.documentElement.lang) {
      link.setAttribute("href", location.pathname.split("/").pop() || "./"); // this language: stay on this page
    }
  });

  // Landed here from a page this language has no version of: say so, once.
  if (location.hash === NEAREST) {
    var words = {};
    document.querySelectorAll("script.rb-words").forEach(function (block) {
      try { Object.assign(words, JSON.parse(block.textContent)); } catch (error) { /* no note */ }
    });
    var title = document.querySelector(".md-content h1");
    if (words.nearest_page && title) {
      var note = document.createElement("p");
      note.className = "rb-nearest";
      note.setAttribute("role", "status");
      note.textContent = words.nearest_page;
      title.insertAdjacentElement("afterend", note);
    }
    history.replaceState(null, "", location.pathname + location.search);
  }
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

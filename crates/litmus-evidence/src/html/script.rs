//! The page's script: the search box and the filters over the test lines,
//! a summary cell that lists its tests, and an anchor that opens the line
//! it points at. Inline, so that the page is one file; it reads only the
//! page's own `data-` attributes and writes only text, never markup.

/// The JavaScript.
pub(super) const JS: &str = r##"(function () {
  const $ = (id) => document.getElementById(id);
  const q = $("q"), ff = $("ff"), fs = $("fs"), fd = $("fd"), fg = $("fg"), n = $("n");
  const lines = Array.from(document.querySelectorAll("#tests details"));
  // Lines carry no name or family attribute (a thousand of each would
  // weigh on the page): the name is the line's bold cell, the family the
  // one of the summary grid that holds the line's group.
  const familyOf = {};
  for (const c of document.querySelectorAll("table.family td[data-g]")) {
    familyOf[c.dataset.g] = c.closest("table").dataset.family;
  }
  const names = lines.map((d) => d.querySelector("summary b").textContent.toLowerCase());
  // The status is the first cell's class: s seen, f seen though
  // forbidden, u not seen, q unknown.
  const status = lines.map((d) => ({ s: "s", f: "s", u: "u", q: "?" })[d.querySelector("summary i").className]);
  let group = null;
  function show() {
    const s = q.value.trim().toLowerCase();
    let k = 0;
    lines.forEach((d, i) => {
      const ok = (!s || names[i].includes(s))
        && (!ff.value || familyOf[d.dataset.g] === ff.value)
        && (!fs.value || (fs.value === "bad" ? d.classList.contains("bad") : status[i] === fs.value))
        && (!fd.value || d.dataset.d.split(" ").includes(fd.value))
        && (group === null || d.dataset.g === group);
      d.hidden = !ok;
      if (ok) k++;
    });
    n.textContent = k + " of " + lines.length + " tests";
    fg.hidden = group === null;
  }
  for (const e of [q, ff, fs, fd]) e.addEventListener("input", show);
  for (const c of document.querySelectorAll("td[data-g]")) {
    c.addEventListener("click", () => {
      group = c.dataset.g;
      fg.textContent = c.title + "  \u2715";
      show();
      $("tests").scrollIntoView();
    });
  }
  fg.addEventListener("click", () => { group = null; show(); });
  function openTarget() {
    const t = location.hash && document.getElementById(location.hash.slice(1));
    if (t && t.tagName === "DETAILS") t.open = true;
  }
  addEventListener("hashchange", openTarget);
  openTarget();
  show();
})();
"##;

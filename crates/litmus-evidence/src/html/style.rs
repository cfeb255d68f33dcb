//! The page's style sheet, inline so that the page is one file.

/// The CSS. The summary comes first and must read at a glance: the
/// forbidden table in a red frame, the grids side by side, each test's
/// line a fixed grid of columns so that the lines line up like a table.
pub(super) const CSS: &str = r#"body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em 2em; color: #222; }
h1 { margin: 0 0 0.2em; font-size: 1.6em; }
h2 { margin: 1.2em 0 0.4em; border-bottom: 1px solid #ccc; font-size: 1.2em; }
code { font-size: 12.5px; }
table { border-collapse: collapse; }
th, td { border: 1px solid #ddd; padding: 2px 6px; text-align: left; vertical-align: top; }
th { background: #f3f3f3; font-weight: 600; }
[hidden] { display: none !important; }
p.totals { margin: 0.2em 0 0.8em; }
b.bad { color: #b00; }
b.good { color: #070; }
p.ok { color: #070; font-weight: 600; }
#forbidden { border: 2px solid #b00; background: #fff5f5; padding: 0 1em 0.8em; margin-bottom: 1em; }
#forbidden h2 { color: #b00; border-color: #b00; margin-top: 0.6em; }
#forbidden table { width: 100%; }
#forbidden td { color: #a00; font-weight: 600; background: #fde2e2; }
#forbidden a { color: #a00; }
#problems { background: #fffbe6; padding: 0.3em 1em; border: 1px solid #e6d27a; }
p.legend { margin: 0.2em 0 0.6em; color: #444; }
.scale { display: inline-flex; justify-content: space-between; width: 110px; padding: 0 4px; margin: 0 4px; vertical-align: middle;
  font-size: 11px; background: linear-gradient(to right, hsl(212,70%,96%), hsl(212,70%,44%)); border: 1px solid #ccc; }
.scale span:last-child { color: #fff; }
.grids { display: flex; flex-wrap: wrap; gap: 12px; align-items: flex-start; }
table.family caption { text-align: left; font-weight: 700; padding: 2px 0; }
table.family caption small { font-weight: 400; color: #555; }
table.family th { font-size: 12px; font-weight: 500; white-space: nowrap; }
td.cell { text-align: center; cursor: pointer; min-width: 3.2em; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.cell:hover { outline: 2px solid #333; }
td.cell.dk { color: #fff; }
td.cell.q { background: #eee; color: #777; }
.cell.bad { outline: 2px solid #c00; outline-offset: -2px; }
td.e { background: repeating-linear-gradient(45deg, #fafafa, #fafafa 3px, #f0f0f0 3px, #f0f0f0 6px); }
#filters { position: sticky; top: 0; background: #fff; padding: 6px 0; z-index: 1; border-bottom: 1px solid #ddd; }
#filters input { width: 22em; }
#fg { cursor: pointer; }
#n { color: #555; margin-left: 0.5em; }
.line, #tests summary { display: grid; grid-template-columns: 5em minmax(12em, 3fr) minmax(10em, 2fr) 6em 13em 5.5em minmax(10em, 1.8fr);
  gap: 0 8px; padding: 1px 4px; align-items: baseline; }
.line > *, #tests summary > * { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; font-style: normal; }
.line.head { font-weight: 600; color: #555; border-bottom: 1px solid #ccc; }
#tests summary { cursor: pointer; list-style: none; border-bottom: 1px solid #f0f0f0; }
#tests summary::-webkit-details-marker { display: none; }
#tests summary:hover { background: #f6f9ff; }
#tests details[open] > summary { background: #eef3fb; }
#tests details.bad > summary { background: #fde2e2; }
#tests summary > :nth-child(5), #tests summary > :nth-child(6) { font-variant-numeric: tabular-nums; }
#tests summary > :nth-child(7) { color: #555; }
#tests summary > :first-child { border-radius: 3px; text-align: center; font-size: 12px; }
#tests summary > .s { background: #3a7bd5; color: #fff; }
#tests summary > :first-child.f { background: #c00; color: #fff; }
#tests summary > .u { background: #eee; color: #666; }
#tests summary > .q { background: #fff2b3; color: #665; }
#tests summary > .f { color: #b00; font-weight: 600; }
#tests details > p { margin: 2px 0 4px 6em; }
#tests details > table { margin: 0 0 10px 6em; }
#tests details td { font-size: 12.5px; font-variant-numeric: tabular-nums; }
#tests details th { font-size: 12px; }
#tests tr.c td:first-child::before { content: "★ "; }
#tests tr.c td { font-weight: 600; }
#tests tr.f td { background: #fde2e2; color: #a00; }
p.note { font-style: italic; color: #555; }
"#;

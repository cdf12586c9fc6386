/**
 * The report's one stylesheet: readable on screen, printable to PDF (figures
 * and flagged items never split across pages), and with meaning carried by
 * line style, marks and labels as well as colour.
 */
export const REPORT_CSS = `
:root { color-scheme: light; }
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1a1a1a; background: #fff; max-width: 980px; margin: 0 auto; padding: 24px; }
h1 { font-size: 1.7em; margin: 0 0 .2em; }
h2 { font-size: 1.35em; margin: 1.6em 0 .4em; border-bottom: 2px solid #2b5797; padding-bottom: .15em; }
h3 { font-size: 1.08em; margin: 1.2em 0 .3em; }
p.reading { background: #f3f6fb; border-left: 4px solid #2b5797; padding: .5em .8em; }
.muted { color: #555; }
.date { color: #555; font-size: .9em; }
table { border-collapse: collapse; margin: .6em 0 1em; font-size: .88em; }
caption { text-align: left; font-weight: 600; padding-bottom: .25em; }
th, td { border: 1px solid #c8ccd2; padding: 2px 6px; vertical-align: top; text-align: left; }
thead th { background: #e8ecf2; }
tbody th { font-weight: 500; }
.num { text-align: right; font-variant-numeric: tabular-nums; }
table.facts td { max-width: 700px; }
.pair { display: flex; gap: 24px; flex-wrap: wrap; }
.more { font-size: .85em; color: #555; margin-top: -.6em; }
pre { background: #f5f5f5; padding: .5em; white-space: pre-wrap; word-break: break-word; font-size: .85em; }
dl.symbols { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; font-size: .92em; }
dl.symbols dt { font-weight: 600; }
dl.symbols dd { margin: 0; }
nav ol { columns: 2; }
figure { margin: .8em 0; break-inside: avoid; page-break-inside: avoid; }
figcaption { font-size: .85em; color: #444; }
article.flagged { border-top: 1px solid #c8ccd2; padding-top: .3em; break-inside: avoid; page-break-inside: avoid; }
.item-body { display: flex; gap: 16px; align-items: flex-start; flex-wrap: wrap; }
.item-text { flex: 1 1 320px; font-size: .9em; }
.question { margin: .2em 0; }
ol.options { list-style: none; padding-left: .5em; margin: .2em 0; }
ul.flags { margin: .2em 0; padding-left: 1.2em; font-size: .92em; }
.evidence { color: #444; font-size: .92em; }
svg { max-width: 100%; height: auto; font: 11px system-ui, sans-serif; }
svg text { fill: #222; }
svg .axis line, svg .axis path { stroke: #444; }
svg .axis .grid { stroke: #e3e3e3; }
svg .tick { stroke: #444; }
svg .axis-label { font-size: 11px; fill: #333; }
svg .ci { stroke: #2b5797; stroke-width: 2; }
svg .pt { fill: #2b5797; }
svg .pt.chosen { fill: #b3261e; }
svg .ref { stroke: #777; }
svg .series { stroke: #2b5797; stroke-width: 2; }
svg .series.alt { stroke: #b3261e; }
svg .curve { stroke-width: 1.6; }
svg .curve.key { stroke: #111; stroke-width: 3; }
svg .c1 { stroke: #b3261e; } svg .c2 { stroke: #2b7a3d; } svg .c3 { stroke: #8a5a00; }
svg .c4 { stroke: #6a3d9a; } svg .c5 { stroke: #00707a; } svg .c0 { stroke: #555; }
svg .end-label { font-size: 10px; }
svg .rug { stroke: #555; }
svg .bar { fill: #2b5797; }
svg .bar.hatched { fill: url(#hatch); stroke: #2b5797; }
svg .hatch-bg { fill: #fff; }
svg .hatch-line { stroke: #2b5797; stroke-width: 2; }
@media print {
  body { max-width: none; padding: 0; font-size: 11pt; }
  h2 { break-after: avoid; page-break-after: avoid; }
  h3 { break-after: avoid; page-break-after: avoid; }
  figure, article.flagged, table.facts { break-inside: avoid; page-break-inside: avoid; }
  thead { display: table-header-group; }
  tr { break-inside: avoid; page-break-inside: avoid; }
  p.reading { background: none; }
  nav { display: none; }
}
`;

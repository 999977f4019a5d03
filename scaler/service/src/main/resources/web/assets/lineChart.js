// A small SVG line chart, hand-drawn: the page needs two (per-task throughput, predicted tasks), each
// a few lines on linear axes, which is less code than vendoring and wiring a charting library.
import {el, svg} from './dom.js';
import {number} from './format.js';

const WIDTH = 640;
const HEIGHT = 270;
const LEFT = 60;
const RIGHT = 18;
const TOP = 16;
const BOTTOM = 44;

/** An axis from 0 to a round maximum, ticks at 1, 2 or 5 × 10^k; whole steps for counts. */
export function axis(dataMax, whole) {
  const top = dataMax > 0 ? dataMax : 1;
  const raw = top / 5;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const fraction = raw / magnitude;
  let step = (fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10) * magnitude;
  step = whole ? Math.max(1, Math.round(step)) : step;
  const count = Math.ceil(top / step);
  return {max: count * step, ticks: Array.from({length: count + 1}, (_, i) => i * step)};
}

/** The path of one series; a null point or y leaves a gap. Steps hold a value until the next point (counts). */
function path(points, px, py, steps) {
  let d = '';
  let drawing = false;
  for (const p of points) {
    if (!p || p.y === null || p.y === undefined) {
      drawing = false;
      continue;
    }
    const x = px(p.x).toFixed(1);
    const y = py(p.y).toFixed(1);
    d += drawing ? (steps ? `H${x} V${y} ` : `L${x} ${y} `) : `M${x} ${y} `;
    drawing = true;
  }
  return d.trim();
}

/**
 * Draws into an <svg> element.
 * @param chart {x: {min, max, title, ticks: [{value, label}]}, y: {title, whole}, steps,
 *              series: [{key, color, dash, width, points: [{x, y}]}], markers: [{x, label}]}
 */
export function drawLineChart(target, chart) {
  const {x, y} = chart;
  const values = chart.series.flatMap(s => s.points).filter(p => p && p.y !== null && p.y !== undefined).map(p => p.y);
  const scale = axis(Math.max(0, ...values), y.whole);
  const px = v => LEFT + (v - x.min) / (x.max - x.min) * (WIDTH - LEFT - RIGHT);
  const py = v => HEIGHT - BOTTOM - v / scale.max * (HEIGHT - TOP - BOTTOM);
  const nodes = [];
  for (const v of scale.ticks) {
    nodes.push(svg('line', {x1: LEFT, x2: WIDTH - RIGHT, y1: py(v), y2: py(v), class: 'grid'}),
      svg('text', {x: LEFT - 8, y: py(v) + 4, 'text-anchor': 'end'}, number(v)));
  }
  for (const tick of x.ticks) {
    nodes.push(svg('line', {x1: px(tick.value), x2: px(tick.value), y1: TOP, y2: HEIGHT - BOTTOM, class: 'grid'}),
      svg('text', {x: px(tick.value), y: HEIGHT - BOTTOM + 18, 'text-anchor': 'middle'}, tick.label));
  }
  nodes.push(svg('path', {d: `M${LEFT} ${TOP} V${HEIGHT - BOTTOM} H${WIDTH - RIGHT}`, class: 'axis'}),
    svg('text', {x: LEFT + (WIDTH - LEFT - RIGHT) / 2, y: HEIGHT - 6, 'text-anchor': 'middle', class: 'title'}, x.title),
    svg('text', {x: 14, y: TOP + (HEIGHT - TOP - BOTTOM) / 2, 'text-anchor': 'middle', class: 'title',
      transform: `rotate(-90 14 ${TOP + (HEIGHT - TOP - BOTTOM) / 2})`}, y.title));
  for (const marker of chart.markers ?? []) {
    const mx = px(marker.x);
    nodes.push(svg('line', {x1: mx, x2: mx, y1: TOP, y2: HEIGHT - BOTTOM, class: 'marker'}),
      svg('text', {x: mx - 4, y: TOP + 12, 'text-anchor': 'end'}, marker.label));
  }
  for (const s of chart.series) {
    nodes.push(svg('path', {d: path(s.points, px, py, chart.steps), 'data-series': s.key, fill: 'none',
      stroke: s.color, 'stroke-width': s.width ?? 2, 'stroke-dasharray': s.dash || null}));
  }
  target.setAttribute('viewBox', `0 0 ${WIDTH} ${HEIGHT}`);
  target.replaceChildren(...nodes);
}

/** The legend as an HTML list: each series' line sample (colour and dash) and its words. */
export function drawLegend(list, series) {
  list.replaceChildren(...series.map(s => el('li', {},
    svg('svg', {width: 34, height: 10, 'aria-hidden': 'true'},
      svg('line', {x1: 1, x2: 33, y1: 5, y2: 5, stroke: s.color, 'stroke-width': s.width ?? 2,
        'stroke-dasharray': s.dash || null})),
    ' ', s.label)));
}

/** Line styles told apart by dash as well as by colour (Okabe–Ito colours, safe for colour-blind readers). */
export const STYLES = [
  {color: '#0072B2', dash: ''},
  {color: '#D55E00', dash: '7 4'},
  {color: '#009E73', dash: '2 3'},
  {color: '#CC79A7', dash: '10 3 2 3'},
  {color: '#E69F00', dash: ''},
  {color: '#56B4E9', dash: '7 4'},
  {color: '#000000', dash: '2 3'},
];

// The partition map: a cell per partition, shaded by the records/s appended to it and labelled with
// the task that owns it. An empty partition (nothing appended over the window) is hatched and says so.
import {el} from './dom.js';
import {number, perSecond} from './format.js';
import {taskStyle} from './taskChart.js';

/** Lightness from 95% (nothing) down to 30% (the busiest partition): darker is busier. */
function shade(rate, max) {
  const share = max > 0 ? rate / max : 0;
  return {background: `hsl(210 70% ${95 - share * 65}%)`, dark: share > 0.55};
}

export function renderPartitionMap({map, summary}, snapshot) {
  const owners = new Map();
  for (const task of snapshot.tasks ?? []) {
    for (const p of task.partitions ?? []) {
      owners.set(p, task.id);
    }
  }
  const rates = snapshot.rates?.appendPerPartition ?? {};
  const lags = snapshot.lag?.perPartition ?? {};
  const max = Math.max(0, ...Object.values(rates));
  const cells = [];
  const empty = [];
  for (let p = 0; p < (snapshot.partitions ?? 0); p++) {
    const rate = rates[p];
    const owner = owners.has(p) ? `task ${owners.get(p)}` : 'unassigned';
    const isEmpty = rate === 0;
    if (isEmpty) {
      empty.push(p);
    }
    const figure = rate === undefined ? 'rate unknown' : isEmpty ? 'empty' : perSecond(rate);
    const lag = lags[p] === undefined ? '' : `, lag ${number(lags[p])}`;
    const look = isEmpty || rate === undefined ? null : shade(rate, max);
    cells.push(el('li', {
      class: ['cell', isEmpty ? 'empty' : '', look?.dark ? 'dark' : ''].join(' ').trim(),
      'data-partition': p,
      'data-task': owners.get(p) ?? null,
      'data-empty': String(isEmpty),
      style: [look ? `background: ${look.background}` : '',
        owners.has(p) ? `border-left-color: ${taskStyle(owners.get(p)).color}` : ''].filter(Boolean).join('; '),
      'aria-label': `partition ${p}, ${owner}, ${isEmpty ? 'empty: nothing appended over the window' : figure}${lag}`,
    }, el('span', {class: 'p'}, `P${p}`), el('span', {}, owner), el('span', {class: 'rate'}, figure)));
  }
  map.replaceChildren(...cells);
  summary.textContent = empty.length
    ? `${empty.length} of ${cells.length} partitions are empty: ${empty.join(', ')}.`
    : `${cells.length} partitions, none empty.`;
}

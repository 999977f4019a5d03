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
  // every reading is keyed by topic and partition; a sink of several topics gets a heading per topic
  const counts = snapshot.partitionsPerTopic ?? {};
  const topics = Object.keys(counts);
  const several = topics.length > 1;
  const owners = new Map();
  for (const task of snapshot.tasks ?? []) {
    for (const [topic, partitions] of Object.entries(task.partitionsByTopic ?? {})) {
      for (const p of partitions) {
        owners.set(`${topic}/${p}`, task.id);
      }
    }
  }
  const allRates = Object.values(snapshot.rates?.appendPerTopic ?? {}).flatMap(r => Object.values(r));
  const max = Math.max(0, ...allRates);
  const cells = [];
  const empty = [];
  let count = 0;
  for (const topic of topics) {
    const rates = snapshot.rates?.appendPerTopic?.[topic] ?? {};
    const lags = snapshot.lag?.perTopic?.[topic] ?? {};
    if (several) {
      cells.push(el('li', {class: 'topic', 'data-topic': topic}, el('span', {}, `${topic} (${counts[topic]})`)));
    }
    for (let p = 0; p < counts[topic]; p++) {
      count++;
      const key = `${topic}/${p}`;
      const name = several ? `${topic}-${p}` : `${p}`;
      const rate = rates[p];
      const owner = owners.has(key) ? `task ${owners.get(key)}` : 'unassigned';
      const isEmpty = rate === 0;
      if (isEmpty) {
        empty.push(name);
      }
      const figure = rate === undefined ? 'rate unknown' : isEmpty ? 'empty' : perSecond(rate);
      const lag = lags[p] === undefined ? '' : `, lag ${number(lags[p])}`;
      const look = isEmpty || rate === undefined ? null : shade(rate, max);
      cells.push(el('li', {
        class: ['cell', isEmpty ? 'empty' : '', look?.dark ? 'dark' : ''].join(' ').trim(),
        'data-topic': topic,
        'data-partition': p,
        'data-task': owners.get(key) ?? null,
        'data-empty': String(isEmpty),
        style: [look ? `background: ${look.background}` : '',
          owners.has(key) ? `border-left-color: ${taskStyle(owners.get(key)).color}` : ''].filter(Boolean).join('; '),
        'aria-label': `partition ${name}, ${owner}, ${isEmpty ? 'empty: nothing appended over the window' : figure}${lag}`,
      }, el('span', {class: 'p'}, `P${p}`), el('span', {}, owner), el('span', {class: 'rate'}, figure)));
    }
  }
  map.replaceChildren(...cells);
  const of = several ? ` in ${topics.length} topics` : '';
  summary.textContent = empty.length
    ? `${empty.length} of ${count} partitions${of} are empty: ${empty.join(', ')}.`
    : `${count} partitions${of}, none empty.`;
}

// Per-task sink throughput over the last 10 minutes: one line per RUNNING task and the total, so a
// task stuck at zero next to busy ones shows at once.
import {drawLegend, drawLineChart, STYLES} from './lineChart.js';
import {SPAN_MILLIS} from './history.js';
import {number, perSecond} from './format.js';

const TOTAL = {color: '#222222', dash: '', width: 3.5};

/** The style of a task id, the same in this chart and in the partition map. */
export function taskStyle(id) {
  return STYLES[id % STYLES.length];
}

/** ", 73% busy, can do 28.6/s": what the task's worker says of its busy time and what that makes its limit. */
function busy(task) {
  const parts = [];
  if (task.busyFraction !== undefined) {
    parts.push(`${Math.round(task.busyFraction * 100)}% busy`);
  }
  if (task.capacity?.recordsPerSecond !== undefined) {
    parts.push(`can do ${perSecond(task.capacity.recordsPerSecond)}`);
  }
  return parts.length ? `, ${parts.join(', ')}` : '';
}

/** One task's capacity from all of them, with its spread; or why it is unknown. */
function capacity(snapshot) {
  const c = snapshot.capacity;
  if (!c) {
    return '';
  }
  return c.recordsPerSecond !== undefined
    ? `One task can do ${perSecond(c.recordsPerSecond)} (${number(c.low)} to ${number(c.high)} over the window,`
      + ` its read rate over its busy time).`
    : `What one task can do is unknown: ${c.unknown}.`;
}

export function renderTaskChart({chart, legend, summary}, history, snapshot) {
  const latest = snapshot.observedAtMillis;
  const at = point => (point.at - latest) / 1000;
  const running = (snapshot.tasks ?? []).filter(t => t.state === 'RUNNING');
  const series = running.map(task => ({
    key: `task-${task.id}`,
    label: `task ${task.id}: ${perSecond(task.recordsPerSecond)}${busy(task)}`,
    ...taskStyle(task.id),
    points: history.points.map(p => p.tasks.has(task.id) ? {x: at(p), y: p.tasks.get(task.id)} : null),
  }));
  const total = {key: 'total', label: `total: ${perSecond(snapshot.rates?.sinkPerSecond)}`, ...TOTAL,
    points: history.points.map(p => ({x: at(p), y: p.total}))};
  const ticks = [];
  for (let minutes = SPAN_MILLIS / 60000; minutes >= 0; minutes -= 2) {
    ticks.push({value: -minutes * 60, label: minutes === 0 ? 'now' : `−${minutes} min`});
  }
  drawLineChart(chart, {x: {min: -SPAN_MILLIS / 1000, max: 0, title: 'time', ticks},
    y: {title: 'records/s'}, series: [total, ...series]});  // the total underneath: one task alone runs along it
  drawLegend(legend, [...series, total]);
  const idle = running.filter(t => !(t.recordsPerSecond > 0)).map(t => t.id);
  const others = (snapshot.tasks ?? []).filter(t => t.state !== 'RUNNING').map(t => `task ${t.id} is ${t.state}`);
  summary.textContent = [`${running.length} of ${(snapshot.tasks ?? []).length} tasks RUNNING.`,
    idle.length ? `${idle.length === 1 ? 'Task' : 'Tasks'} ${idle.join(', ')} committed nothing over the window.` : '',
    ...others, capacity(snapshot)].filter(Boolean).join(' ');
}

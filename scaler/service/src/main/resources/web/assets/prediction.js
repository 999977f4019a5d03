// The prediction chart: tasks needed against target rate, for the rate typed in. The curve is the
// server's own model, asked at rates up to a quarter beyond the target: the page has no model of its own.
import {ApiError, postJson} from './api.js';
import {el} from './dom.js';
import {number, perSecond} from './format.js';
import {axis, drawLegend, drawLineChart} from './lineChart.js';

const PREDICT = '/api/v1/predict/tasks';
const SAMPLES = 40;

function summarize(r) {
  return el('p', {}, `At ${perSecond(r.targetRate)} with ${perSecond(r.perTaskRate)} per task: at least `,
    el('strong', {}, `${r.minimumTasks ?? 'no number of'} tasks`), ', ',
    el('strong', {}, `${r.recommendedTasks ?? 'no number of'} recommended`),
    ` (${number(r.utilization * 100)}% utilization), ${r.partitions ?? '?'} partitions or more.`);
}

export function setupPrediction({form, target, perTask, chart, legend, summary}) {
  async function predict() {
    const request = {targetRate: Number(target.value), perTaskRate: Number(perTask.value)};
    const fields = {targetRate: target, perTaskRate: perTask};
    Object.values(fields).forEach(f => f.removeAttribute('aria-invalid'));
    try {
      const atTarget = await postJson(PREDICT, request);
      const x = axis(request.targetRate * 1.25, false);
      const rates = Array.from({length: SAMPLES}, (_, i) => x.max * (i + 1) / SAMPLES);
      // one at a time: the scaler runs at most two predictions at once and answers 503 to more
      const answers = [];
      for (const rate of rates) {
        answers.push(await postJson(PREDICT, {...request, targetRate: rate}));
      }
      const curve = field => answers.map((a, i) => ({x: rates[i], y: a[field] ?? null}));
      const series = [
        {key: 'minimum', label: `minimum: rate ÷ ${perSecond(request.perTaskRate)} per task`, color: '#0072B2', dash: '',
          points: curve('minimumTasks')},
        {key: 'recommended', label: `recommended: at ${number(atTarget.utilization * 100)}% utilization`,
          color: '#D55E00', dash: '7 4', points: curve('recommendedTasks')},
      ];
      const ticks = x.ticks.map(v => ({value: v, label: number(v)}));
      drawLineChart(chart, {x: {min: 0, max: x.max, title: 'target rate (records/s)', ticks},
        y: {title: 'tasks', whole: true}, steps: true, series,
        markers: [{x: request.targetRate, label: `target ${perSecond(request.targetRate)}`}]});
      drawLegend(legend, series);
      summary.replaceChildren(summarize(atTarget), ...(atTarget.advice ?? []).map(a => el('p', {}, a)));
    } catch (e) {
      fields[e.field]?.setAttribute('aria-invalid', 'true');
      summary.replaceChildren(el('p', {class: 'refused', role: 'alert'},
        e instanceof ApiError ? `Cannot predict (${e.status}): ${e.message}` : `The scaler did not answer: ${e.message}`));
    }
  }

  form.addEventListener('submit', event => {
    event.preventDefault();
    predict();
  });
  predict();
}

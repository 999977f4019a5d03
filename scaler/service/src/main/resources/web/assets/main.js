// Wires the page: polls the scaler every 2 s (no reload) and hands each part of the page its data.
import {connectorPath, getJson} from './api.js';
import {renderDecisions} from './decisions.js';
import {el} from './dom.js';
import {renderFindings} from './findings.js';
import {clock} from './format.js';
import {RateHistory} from './history.js';
import {renderPartitionMap} from './partitionMap.js';
import {renderStrip} from './pipelineStrip.js';
import {setupPrediction} from './prediction.js';
import {setupScaleControl} from './scaleControl.js';
import {renderTaskChart} from './taskChart.js';

const POLL_MILLIS = 2000;
// the checks read a sample of keys from Kafka: a small sample every 5th poll keeps that load light
const CHECKS_EVERY = 5;
const CHECKS_QUERY = '?sampleRecords=2000&sampleSeconds=1';

const $ = id => document.getElementById(id);
const page = {
  strip: {strip: $('strip'), stability: $('stability')},
  tasks: {chart: $('task-chart'), legend: $('task-legend'), summary: $('task-summary')},
  partitions: {map: $('partition-map'), summary: $('partition-summary')},
  decisions: {policy: $('policy'), list: $('decision-list')},
};
let selected = new URLSearchParams(location.search).get('connector');
let history = new RateHistory();
// the connector whose history the scaler served: loaded once per pick, so the charts start full
let historyOf = null;
let polls = 0;

/** Keeps the connector list current and returns the chosen connector's snapshot (the first, unless one was picked). */
function choose(snapshots) {
  const names = snapshots.map(s => s.name);
  const select = $('connector');
  if (names.join('\n') !== [...select.options].map(o => o.value).join('\n')) {
    select.replaceChildren(...names.map(name => el('option', {value: name}, name)));
  }
  if (!names.includes(selected)) {
    pick(names[0] ?? null);
  }
  select.value = selected ?? '';
  return snapshots.find(s => s.name === selected);
}

function pick(name) {
  selected = name;
  history = new RateHistory();
  historyOf = null;
  polls = 0;
}

/** The connector's autoscale state, null when it has no policy; read from the list, which has no 404 to log. */
function autoscale(name) {
  return getJson('/api/v1/autoscale').then(states => states.find(s => s.connector === name) ?? null, e => e);
}

async function poll() {
  try {
    const snapshot = choose(await getJson('/api/v1/connectors'));
    if (!snapshot) {
      $('status').textContent = 'The scaler observes no sink connector yet.';
      return;
    }
    if (historyOf !== snapshot.name) {
      const served = await getJson(connectorPath(snapshot.name, '/history')).catch(() => null);
      if (served && selected === snapshot.name) {
        history.load(served);
      }
      historyOf = snapshot.name;
    }
    history.add(snapshot);
    renderStrip(page.strip, snapshot);
    renderTaskChart(page.tasks, history, snapshot);
    renderPartitionMap(page.partitions, snapshot);
    if ($('scale-tasks').value === '') {
      $('scale-tasks').value = snapshot.tasksMax ?? '';
    }
    if (polls % CHECKS_EVERY === 0) {
      getJson(connectorPath(snapshot.name, '/checks' + CHECKS_QUERY)).catch(e => e)
        .then(report => renderFindings($('finding-list'), report));
    }
    renderDecisions(page.decisions, await autoscale(snapshot.name));
    $('status').textContent = `${snapshot.name} as observed at ${clock(snapshot.observedAtMillis)}; refreshed every 2 s.`;
  } catch (e) {
    $('status').textContent = `The scaler does not answer (${e.message}); retrying every 2 s.`;
  } finally {
    polls++;
    setTimeout(poll, POLL_MILLIS);
  }
}

$('connector').addEventListener('change', event => pick(event.target.value));
setupScaleControl({form: $('scale-form'), tasks: $('scale-tasks'), force: $('scale-force'), button: $('scale-button'),
  tokenForm: $('token-form'), token: $('token'), result: $('scale-result')}, () => selected);
setupPrediction({form: $('predict-form'), target: $('target-rate'), perTask: $('per-task-rate'),
  chart: $('prediction-chart'), legend: $('prediction-legend'), summary: $('prediction-summary')});
poll();

// The pipeline as a strip, left to right as records flow: appended to the topic, waiting as lag,
// committed by the sink, indexed by Elasticsearch. The lag stage says how old its oldest record is and
// where the lag is heading (the scaler's verdict), and turns red when it is growing, stalled or stopped;
// the sink stage when it dead-letters records (they never reach the index).
import {el} from './dom.js';
import {number, perSecond, seconds} from './format.js';

const ALARMING = ['growing', 'stalled', 'stopped'];

/** The verdict in words; the worst partition's, as the scaler rolls it up. */
function verdictText(lag) {
  if (!lag?.verdict) {
    return 'trend unknown';
  }
  const behind = (lag.partitions ?? []).filter(p => p.verdict === lag.verdict).length;
  const text = lag.verdict.replace('-', ' ');
  return ALARMING.includes(lag.verdict) ? `▲ ${text} (${behind} of ${(lag.partitions ?? []).length} partitions)` : text;
}

function age(lag) {
  if (lag?.seconds === undefined) {
    return 'oldest record: age unknown';
  }
  return `oldest record ${lag.lowerBound ? 'at least ' : ''}${seconds(lag.seconds)} old`;
}

function stage(name, figure, details, alarm) {
  return el('li', {class: alarm ? 'stage alarm' : 'stage'},
    el('span', {class: 'name'}, name), el('span', {class: 'figure'}, figure),
    ...details.filter(Boolean).map(d => el('span', {class: 'detail'}, d)));
}

export function renderStrip({strip, stability}, s) {
  const running = (s.tasks ?? []).filter(t => t.state === 'RUNNING').length;
  const es = s.elasticsearch ?? {};
  const rejecting = es.writeRejectionsPerSecond > 0;
  const dead = s.deadLetters;
  const indexes = es.indexes ?? [];
  // an alias or a data stream shows the index its writes land in
  const named = i => (i.writeIndex && i.writeIndex !== i.name ? `${i.name} → ${i.writeIndex}` : i.name);
  const deadLettering = dead?.appendPerSecond > 0;
  strip.replaceChildren(
    stage(`source → topic ${(s.topics ?? []).join(', ')}`, `appended ${perSecond(s.rates?.appendPerSecond)}`,
      [`${s.partitions ?? '?'} partitions`]),
    stage('lag', `${number(s.lag?.total)} records`,
      [age(s.lag), `latency ${seconds(s.latencySeconds)} (Little's law)`, verdictText(s.lag)],
      ALARMING.includes(s.lag?.verdict)),
    stage(`sink ${s.name}`, `committed ${perSecond(s.rates?.sinkPerSecond)}`,
      [`${running}/${(s.tasks ?? []).length} tasks RUNNING (tasks.max ${s.tasksMax ?? '?'})`,
        dead ? `dead-lettered ${perSecond(dead.appendPerSecond)} to ${dead.topic}` : null,
        deadLettering && dead.latestReason ? `latest: ${dead.latestReason}` : null],
      deadLettering),
    stage(`Elasticsearch ${indexes.length > 1 ? 'indexes' : 'index'} ${indexes.length ? indexes.map(named).join(', ') : '?'}`,
      `indexed ${perSecond(s.rates?.indexPerSecond)}`,
      [...indexes.map(i => `${indexes.length > 1 ? `${i.name}: ` : ''}${i.problem ?? `${i.primaryShards ?? '?'} primary shards, ${i.replicas ?? '?'} replicas`}`),
        `${es.dataNodes ?? '?'} data nodes`,
        rejecting ? `▲ rejecting ${perSecond(es.writeRejectionsPerSecond)} writes` : null],
      rejecting));
  const window = `over the last ${number(s.windowSeconds)} s`;
  stability.className = s.stable ? 'ok' : 'warn';
  stability.textContent = s.stable ? `Stable ${window}.` : `Not stable ${window}: ${(s.reasons ?? []).join('; ')}.`;
}

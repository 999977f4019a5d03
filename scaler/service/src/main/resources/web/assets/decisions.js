// The autoscaler's policy and its recent decisions (the API lists them newest first), each with its reason and outcome.
import {el} from './dom.js';
import {clock} from './format.js';

const SHOWN = 8;

/** "2 → 3 tasks", "at 3 tasks", or nothing for a decision made without an observation (no tasks known). */
function tasks(d) {
  if (d.fromTasks === undefined) {
    return '';
  }
  return d.fromTasks !== d.toTasks ? ` ${d.fromTasks} → ${d.toTasks} tasks` : ` at ${d.fromTasks} tasks`;
}

/** @param state the autoscale state, null when the connector has no policy, or an Error */
export function renderDecisions({policy, list}, state) {
  if (state === null || state instanceof Error) {
    policy.textContent = state === null
      ? 'No autoscale policy: PUT one to /api/v1/connectors/{name}/autoscale (or kcscale autoscale) to start.'
      : `Autoscaler unavailable: ${state.message}`;
    list.replaceChildren();
    return;
  }
  const p = state.policy;
  const target = p.targetLag !== undefined ? `lag ${p.targetLag}` : `latency ${p.targetLatencySeconds} s`;
  policy.textContent = `Policy: ${p.minTasks}–${p.maxTasks} tasks, target ${target}${p.dryRun ? ', dry run' : ''}.`;
  list.replaceChildren(...state.decisions.slice(0, SHOWN).map(({decision: d, outcome}) =>
    el('li', {class: `decision ${d.action.toLowerCase()}`},
      el('p', {class: 'headline'}, el('time', {datetime: new Date(d.atMillis).toISOString()}, clock(d.atMillis)), ' ',
        el('strong', {}, d.action), tasks(d), ' ', el('code', {}, d.code)),
      el('p', {}, d.reason),
      el('p', {class: 'outcome'}, `outcome: ${outcome}`))));
}

// "Scale to N tasks" through POST /api/v1/connectors/{name}/scale: the answer or the refusal as the
// scaler words it; on a 401 it asks for the bearer token and retries the same request with it.
import {ApiError, connectorPath, postJson, setToken} from './api.js';
import {el} from './dom.js';
import {seconds} from './format.js';

function done(r) {
  const pause = r.rebalancePauseSeconds === undefined ? '' : `, rebalance pause ${seconds(r.rebalancePauseSeconds)}`;
  return [el('p', {class: 'ok'},
    `${r.connector}: tasks.max ${r.before} → ${r.after}, ${r.tasksRunning} tasks RUNNING${pause}.`),
    ...(r.autoscale === undefined ? [] : [el('p', {class: 'warn'}, `Autoscale: ${r.autoscale}`)]),
    ...(r.warnings ?? []).map(w => el('p', {class: 'warn'}, `Warning: ${w}`))];
}

function refused(message) {
  return el('p', {class: 'refused', role: 'alert'}, message);
}

export function setupScaleControl({form, tasks, force, button, tokenForm, token, result}, connector) {
  let awaitingToken = null;

  async function scale(request) {
    button.disabled = true;
    result.dataset.outcome = 'pending';
    result.replaceChildren(el('p', {},
      `Scaling ${request.name} to ${request.body.tasks} tasks; the scaler answers once they are RUNNING…`));
    try {
      result.replaceChildren(...done(await postJson(connectorPath(request.name, '/scale'), request.body)));
      result.dataset.outcome = 'done';
    } catch (e) {
      result.dataset.outcome = 'refused';
      if (!(e instanceof ApiError)) {
        result.replaceChildren(refused(`The scaler did not answer: ${e.message}`));
        return;
      }
      result.replaceChildren(refused(`Refused (${e.status}): ${e.message}`));
      if (e.status === 401) {
        awaitingToken = request;
        tokenForm.hidden = false;
        token.focus();
      }
    } finally {
      button.disabled = false;
    }
  }

  form.addEventListener('submit', event => {
    event.preventDefault();
    scale({name: connector(), body: {tasks: Number(tasks.value), force: force.checked}});
  });
  tokenForm.addEventListener('submit', event => {
    event.preventDefault();
    setToken(token.value);
    token.value = '';
    tokenForm.hidden = true;
    const retry = awaitingToken;
    awaitingToken = null;
    if (retry) {
      scale(retry);
    }
  });
}

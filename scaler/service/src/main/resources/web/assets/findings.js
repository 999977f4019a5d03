// The scaling checks' findings, worst first, each with the figures it judged by and what to do.
import {el} from './dom.js';

const ORDER = ['critical', 'warning', 'info', 'ok', 'not-applicable'];
const MARK = {critical: '✖', warning: '▲', info: 'ℹ', ok: '✔', 'not-applicable': '–'};

function evidence(figures) {
  return el('dl', {class: 'evidence'}, ...Object.entries(figures ?? {}).flatMap(([name, value]) =>
    [el('dt', {}, name), el('dd', {}, typeof value === 'object' ? JSON.stringify(value) : String(value))]));
}

/** @param report the checks' answer, or an Error when there is none to show */
export function renderFindings(list, report) {
  if (report instanceof Error) {
    list.replaceChildren(el('li', {class: 'unavailable'}, `Checks unavailable: ${report.message}`));
    return;
  }
  const findings = [...report.findings].sort((a, b) => ORDER.indexOf(a.severity) - ORDER.indexOf(b.severity));
  list.replaceChildren(...findings.map(f => el('li', {class: `finding ${f.severity}`, 'data-check': f.id},
    el('p', {class: 'headline'},
      el('span', {class: 'severity'}, `${MARK[f.severity] ?? ''} ${f.severity}`), ' ',
      el('strong', {}, f.title), ' ', el('code', {}, f.id)),
    evidence(f.evidence),
    el('p', {class: 'advice'}, f.advice))));
}

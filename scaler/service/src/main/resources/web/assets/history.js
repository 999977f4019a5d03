// The page's memory of per-task sink rates over the last 10 minutes: seeded when the page opens (or a
// connector is picked) from the scaler's own history, a point per sample it took, then one point per new
// snapshot the 2 s polling brings.

export const SPAN_MILLIS = 10 * 60 * 1000;

export class RateHistory {
  constructor() {
    this.points = [];
  }

  /** Adds the points of GET .../history (oldest first), as the scaler sampled them. */
  load(history) {
    for (const p of history.points ?? []) {
      const tasks = new Map(Object.entries(p.recordsPerSecondByTask ?? {}).map(([id, rate]) => [Number(id), rate]));
      this.push(p.atMillis, p.sinkPerSecond ?? null, tasks);
    }
  }

  /** Adds the snapshot's rates unless it is the same observation as the last one. */
  add(snapshot) {
    const tasks = new Map();
    for (const task of snapshot.tasks ?? []) {
      if (task.state === 'RUNNING' && task.recordsPerSecond !== undefined) {
        tasks.set(task.id, task.recordsPerSecond);
      }
    }
    this.push(snapshot.observedAtMillis, snapshot.rates?.sinkPerSecond ?? null, tasks);
  }

  push(at, total, tasks) {
    if (this.points.length && this.points[this.points.length - 1].at >= at) {
      return;
    }
    this.points.push({at, total, tasks});
    while (this.points[0].at < at - SPAN_MILLIS) {
      this.points.shift();
    }
  }
}

// The page's memory of per-task sink rates: the scaler keeps only its sliding window (30 s), so the
// last 10 minutes are kept here, one point per new snapshot the 2 s polling brings.

export const SPAN_MILLIS = 10 * 60 * 1000;

export class RateHistory {
  constructor() {
    this.points = [];
  }

  /** Adds the snapshot's rates unless it is the same observation as the last one. */
  add(snapshot) {
    const at = snapshot.observedAtMillis;
    if (this.points.length && this.points[this.points.length - 1].at >= at) {
      return;
    }
    const tasks = new Map();
    for (const task of snapshot.tasks ?? []) {
      if (task.state === 'RUNNING' && task.recordsPerSecond !== undefined) {
        tasks.set(task.id, task.recordsPerSecond);
      }
    }
    this.points.push({at, total: snapshot.rates?.sinkPerSecond ?? null, tasks});
    while (this.points[0].at < at - SPAN_MILLIS) {
      this.points.shift();
    }
  }
}

package io.kcscale.local;

import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.OptionalLong;

/**
 * The counters behind {@code up}'s status line, read at {@code nanos}: two readings make the line
 * it prints every 2 s; a system that did not answer shows as "?". Only a status line: the scaler's
 * observations are {@code io.kcscale.scaler.model.PipelineSample}.
 *
 * @param produced     records in the topic (sum of end offsets)
 * @param indexed      index operations Elasticsearch counted on the index
 * @param documents    documents in the index: one per record the sink wrote (its ids are the records' coordinates)
 * @param lag          records the sink group has not committed yet, over all partitions
 * @param tasksRunning sink tasks RUNNING, or -1 when Connect did not answer
 * @param tasks        sink tasks Connect reports
 */
public record StatusLineCounters(
        long nanos,
        LocalTime clock,
        OptionalLong produced,
        OptionalLong indexed,
        OptionalLong documents,
        OptionalLong lag,
        int tasksRunning,
        int tasks) {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss");

    /** The status line for the interval from {@code before} to this reading. */
    public String statusLine(StatusLineCounters before) {
        double seconds = (nanos - before.nanos) / 1e9;
        return String.format(
                Locale.ROOT,
                "%s  produced %s  indexed %s  lag %s  sink tasks %s",
                clock.format(TIME),
                rate(before.produced, produced, seconds),
                rate(before.indexed, indexed, seconds),
                lag.isPresent() ? String.valueOf(lag.getAsLong()) : "?",
                tasksRunning < 0 ? "?" : tasksRunning + "/" + tasks + " RUNNING");
    }

    /**
     * Whether the sink kept up with the source from {@code before} to this reading: it indexed at least
     * 95% of what was produced meanwhile, and the records not in Elasticsearch yet are at most 2 s of that
     * production plus 100 records (the sweep's bound). A cold sink falling behind fails the first; one still
     * draining the backlog it built fails the second. Records, not the committed lag: with Connect's 60 s
     * commits that rises by a minute of records between two commits of a sink that keeps up.
     */
    public boolean sinkKeptUp(StatusLineCounters before) {
        double seconds = (nanos - before.nanos) / 1e9;
        if (seconds <= 0
                || before.produced.isEmpty()
                || produced.isEmpty()
                || before.indexed.isEmpty()
                || indexed.isEmpty()
                || documents.isEmpty()) {
            return false;
        }
        long producedMeanwhile = produced.getAsLong() - before.produced.getAsLong();
        long indexedMeanwhile = indexed.getAsLong() - before.indexed.getAsLong();
        long notIndexed = produced.getAsLong() - documents.getAsLong();
        return indexedMeanwhile >= 0.95 * producedMeanwhile && notIndexed <= 2 * producedMeanwhile / seconds + 100;
    }

    private static String rate(OptionalLong from, OptionalLong to, double seconds) {
        if (from.isEmpty() || to.isEmpty() || seconds <= 0) {
            return "?/s";
        }
        return String.format(Locale.ROOT, "%.1f/s", Math.max(0, to.getAsLong() - from.getAsLong()) / seconds);
    }
}

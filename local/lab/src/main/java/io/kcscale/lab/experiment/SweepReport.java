package io.kcscale.lab.experiment;

import io.kcscale.local.SinkMode;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** {@code report.md} of a sweep, and the table the command prints. */
final class SweepReport {

    private SweepReport() {}

    /** The results as a Markdown table: readable in a terminal as in a rendered page. */
    static String table(Sweep.Result result) {
        StringBuilder t = new StringBuilder("| tasks | sustained rate (records/s) | per task | full speed (records/s) "
                + "| p50 latency | p99 latency | Little's law | per-task throughput at the sustained rate | load average "
                + "| worker-capacity for one task more (busiest worker at full speed) |\n"
                + "|---:|---:|---:|---:|---:|---:|---:|---|---:|---|\n");
        for (Sweep.Row r : result.rows()) {
            Optional<TrialResult> s = r.sustained();
            Optional<Latency> latency = s.flatMap(TrialResult::latency);
            // every trial held: the sink may sustain more than the highest rate tried
            String atLeast = r.search().lowerBound() ? "≥ " : "";
            t.append(String.format(
                    Locale.ROOT,
                    "| %d | %s%.0f | %s%.0f | %.0f%s | %s | %s | %s | %s | %.1f | %s |%n",
                    r.tasks(),
                    atLeast,
                    r.sustainedRate(),
                    atLeast,
                    r.sustainedRate() / r.tasks(),
                    r.fullSpeed().throughput().total(),
                    r.fullSpeed().ranDry() ? " (lower bound)" : "",
                    latency.map(l -> millis(l.p50Millis())).orElse("–"),
                    latency.map(l -> millis(l.p99Millis())).orElse("–"),
                    s.map(x -> millis(1000 * x.littleSeconds())).orElse("–"),
                    s.map(x -> x.throughput().perTask().stream()
                                    .map(v -> String.format(Locale.ROOT, "%.0f", v))
                                    .reduce((a, b) -> a + ", " + b)
                                    .orElse(""))
                            .orElse("–"),
                    r.loadAverage(),
                    r.fullSpeed().workerCapacity() == null
                            ? "–"
                            : r.fullSpeed().workerCapacity().summary()));
        }
        return t.toString();
    }

    static String markdown(Sweep.Result result, String command) {
        Sweep.Plan plan = result.plan();
        StringBuilder md = new StringBuilder();
        md.append("# Sweep: sustained sink throughput per task count\n\n");
        md.append("`")
                .append(command)
                .append("`; seed ")
                .append(plan.seed())
                .append("; full configuration in `config.json`.\n\n");
        md.append(String.format(
                Locale.ROOT,
                "Topic `%s`, %d partitions, keyed by `price`; index of 1 primary shard; the `%s` sink;"
                        + " one Connect worker; one datagen task, steady arrivals.%n%n",
                Sweep.TOPIC,
                plan.partitions(),
                plan.sinkMode().flagValue()));
        md.append(table(result)).append('\n');
        md.append("## Method\n\n");
        md.append(String.format(
                Locale.ROOT,
                "- **Full speed**: after one uncounted window (the worker's JVM compiles the sink's path), the tasks drain a backlog with the source stopped; after a %.0f s warm-up,"
                        + " each task's committed offsets are read every %.2f s for at least %.0f s, and its rate runs from its first commit"
                        + " in that window to its last (sink tasks commit between batches, so a fixed window would be off by up to a batch).%s%n",
                seconds(plan.timing().warmup()),
                Trial.SAMPLE_SECONDS,
                seconds(plan.timing().window()),
                plan.sinkMode() == SinkMode.INDEX
                        ? " The per-record sink polls " + ExperimentPipeline.INDEX_MODE_POLL_RECORDS
                                + " records at a time here, so that it commits every second or two."
                        : ""));
        md.append(String.format(
                Locale.ROOT,
                "- **Sustained rate**: bisection on the source rate between %.0f%% and %.0f%% of full speed,"
                        + " at most %d trials (stopping when the bracket is under %.0f%% wide); when no trial holds, more at the bracket's"
                        + " bottom and then halving, when every trial holds, more at its top and then 1.5× (a sustained rate marked ≥ held at"
                        + " every rate tried). Each trial sets the rate, waits for the restarted source to append, settles %.0f s, then holds"
                        + " %.0f s; afterwards the source stops and the sink drains.%n",
                100 * Sweep.BRACKET_LOW,
                100 * Sweep.BRACKET_HIGH,
                plan.timing().trials(),
                100 * Sweep.RESOLUTION,
                seconds(plan.timing().settle()),
                seconds(plan.timing().hold())));
        md.append("- **Bounded**: ")
                .append(plan.bound().describe())
                .append(String.format(
                        Locale.ROOT,
                        ". A trial whose lag passes %d × that cap ends early as not sustained.%n",
                        Trial.ABORT_FACTOR));
        md.append(
                        "- **p50/p99 latency**: for a sample of the documents indexed during the sustained hold (seeded random, up to ")
                .append(plan.timing().latencySamples())
                .append(" per shard), the time the primary shard indexed it minus the")
                .append(
                        " `produced_at_ms` the datagen stamped in it. The index time comes from the shard's `max_seq_no`, read")
                .append(" every ")
                .append(IndexClock.INTERVAL_MILLIS)
                .append(" ms, interpolated at the document's `_seq_no`. Not")
                .append(" included: the refresh (1 s by default) before a document shows in searches.\n");
        md.append(
                        "- **Little's law**: the hold's mean lag ÷ its throughput. The lag counts committed offsets, which the sink")
                .append(
                        " commits once a second, so this average includes up to a second of commit delay the measured latency does not.\n\n");
        md.append("## Findings the scaler's checks raised before the run\n\n");
        if (!plan.preRunChecks()) {
            md.append("Not run: this experiment skips them to keep to its time.\n");
        } else {
            md.append("Judged for ")
                    .append(plan.tasks().stream()
                            .mapToInt(Integer::intValue)
                            .max()
                            .orElseThrow())
                    .append(" tasks under ")
                    .append((int) PreRunChecks.LOAD)
                    .append(" records/s:\n\n");
            md.append(FindingsText.lines(result.findings(), "- "));
        }
        md.append("\n## Worker capacity at each task count\n\n");
        md.append(
                        "The scaler's `worker-capacity` check over each count's full-speed window (the worker's process CPU and the share of")
                .append(
                        " the host's time in use, read as the scaler reads them on this host), judged for one task more, as the autoscaler")
                .append(" asks before adding one:\n\n");
        for (Sweep.Row r : result.rows()) {
            if (r.fullSpeed().workerCapacity() != null) {
                md.append("- ")
                        .append(r.tasks())
                        .append(" task(s): ")
                        .append(FindingsText.lines(
                                        List.of(r.fullSpeed().workerCapacity().finding()), "")
                                .strip())
                        .append('\n');
            }
        }
        md.append(
                "\n## Trials\n\n| tasks | rate (records/s) | delivered | throughput | verdict |\n|---:|---:|---:|---:|---|\n");
        for (Sweep.Row r : result.rows()) {
            for (RateSearch.Tried<TrialResult> tried : r.search().tried()) {
                TrialResult t = tried.outcome();
                md.append(String.format(
                        Locale.ROOT,
                        "| %d | %.0f | %.0f | %.0f | %s: %s |%n",
                        r.tasks(),
                        t.rate(),
                        t.delivered(),
                        t.throughput().total(),
                        t.sustained() ? "sustained" : "not sustained",
                        t.verdict().reason()));
            }
        }
        md.append("\n## Charts\n\n");
        for (String chart : new String[] {SweepCharts.THROUGHPUT, SweepCharts.PER_TASK, SweepCharts.LAG}) {
            md.append("- [`").append(chart).append("`](").append(chart).append(")\n");
        }
        md.append("\n## Next\n\n`./kcscale predict tasks --measurements results.csv --target-rate N` fits these points"
                + " (columns `tasks` and `sustainedRate`).\n\n");
        md.append(Machine.note());
        return md.toString();
    }

    private static String millis(double ms) {
        return ms >= 1000 ? String.format(Locale.ROOT, "%.2f s", ms / 1000) : String.format(Locale.ROOT, "%.0f ms", ms);
    }

    private static double seconds(Duration d) {
        return d.toMillis() / 1000.0;
    }
}

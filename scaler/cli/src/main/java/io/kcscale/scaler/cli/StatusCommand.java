package io.kcscale.scaler.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code kcscale status NAME}: what the scaler sees of one sink pipeline, as a table or JSON. */
@Command(
        name = "status",
        mixinStandardHelpOptions = true,
        description = "Show a sink connector's tasks, rates, lag and stability as the scaler observes them.")
public final class StatusCommand implements Callable<Integer> {

    private static final int PARTITION_ROWS = 10;

    @Mixin
    ConnectorVerbOptions connector = new ConnectorVerbOptions();

    @Override
    public Integer call() {
        try {
            connector.print(connector.client().get(connector.path("")), StatusCommand::table);
            return 0;
        } catch (ScalerApiClient.Failure e) {
            return connector.failed(e);
        }
    }

    /** The readable form: a header, rates and lag, one row per task, then why it is not stable. */
    static String table(JsonNode s) {
        StringBuilder b = new StringBuilder();
        long running = 0;
        for (JsonNode t : s.path("tasks")) {
            running += "RUNNING".equals(t.path("state").asText()) ? 1 : 0;
        }
        boolean severalTopics = s.path("topics").size() > 1;
        b.append(String.format(
                Locale.ROOT,
                "%s  topics %s  tasks %d/%d RUNNING (tasks.max %s)  partitions %s%s  %s%n",
                s.path("name").asText(),
                join(s.path("topics")),
                running,
                s.path("tasks").size(),
                text(s.path("tasksMax")),
                text(s.path("partitions")),
                severalTopics ? perTopic(s.path("partitionsPerTopic")) : "",
                s.path("stable").asBoolean() ? "stable" : "NOT STABLE"));
        JsonNode r = s.path("rates");
        JsonNode es = s.path("elasticsearch");
        boolean indexed = es.path("indexes").size() > 0;
        b.append(String.format(
                Locale.ROOT,
                "rates/s  append %s  sink %s  index %s   (over %s s)%n",
                rate(r.path("appendPerSecond")),
                rate(r.path("sinkPerSecond")),
                indexed ? rate(r.path("indexPerSecond")) : "not applicable",
                text(s.path("windowSeconds"))));
        JsonNode lag = s.path("lag");
        b.append(String.format(
                Locale.ROOT,
                "lag %s  age %s  %s  latency %s (Little's law)%s%n",
                text(lag.path("unconsumed")),
                age(lag.path("unconsumedSeconds"), lag.path("lowerBound")),
                lag.path("verdict").isTextual() ? lag.path("verdict").asText() : "verdict ?",
                s.path("latencySeconds").isNumber()
                        ? String.format(
                                Locale.ROOT, "%.2f s", s.path("latencySeconds").asDouble())
                        : "?",
                lag.path("unconsumedFrom").isTextual()
                        ? "  from " + lag.path("unconsumedFrom").asText()
                        : ""));
        b.append(String.format(
                Locale.ROOT,
                "committed: lag %s  age %s  commits every %s%n",
                text(lag.path("total")),
                age(lag.path("seconds"), lag.path("lowerBound")),
                s.path("commitIntervalSeconds").isNumber()
                        ? String.format(
                                Locale.ROOT,
                                "%.0f s",
                                s.path("commitIntervalSeconds").asDouble())
                        : "? (not two commits seen yet)"));
        if (es.path("indexes").size() == 1) {
            JsonNode i = es.path("indexes").get(0);
            b.append(String.format(
                    Locale.ROOT,
                    "index %s%s  primary shards %s  replicas %s  data nodes %s%n",
                    i.path("name").asText(),
                    writeIndex(i),
                    text(i.path("primaryShards")),
                    text(i.path("replicas")),
                    text(es.path("dataNodes"))));
            problem(b, i);
        } else if (indexed) {
            b.append(String.format(
                    Locale.ROOT,
                    "indexes %d  data nodes %s%n",
                    es.path("indexes").size(),
                    text(es.path("dataNodes"))));
            b.append(String.format(
                    Locale.ROOT,
                    "%-30s %-30s %-7s %-9s %s%n",
                    "INDEX",
                    "WRITE INDEX",
                    "SHARDS",
                    "REPLICAS",
                    "INDEX/S"));
            for (JsonNode i : es.path("indexes")) {
                b.append(String.format(
                        Locale.ROOT,
                        "%-30s %-30s %-7s %-9s %s%n",
                        i.path("name").asText(),
                        text(i.path("writeIndex")),
                        text(i.path("primaryShards")),
                        text(i.path("replicas")),
                        rate(i.path("indexPerSecond"))));
                problem(b, i);
            }
        } else {
            b.append(
                            "index: none (the sink's config names no Elasticsearch index; serve --index CONNECTOR=INDEX names one)")
                    .append(System.lineSeparator());
        }
        JsonNode dead = s.path("deadLetters");
        if (dead.isObject()) {
            JsonNode perSecond = dead.path("appendPerSecond");
            b.append(String.format(
                    Locale.ROOT,
                    "dead letters/s %s to %s (%s in all)%s%n",
                    perSecond.isNumber() ? String.format(Locale.ROOT, "%.2f", perSecond.asDouble()) : "?",
                    dead.path("topic").asText(),
                    text(dead.path("total")),
                    dead.path("latestReason").isTextual()
                            ? "  latest: " + dead.path("latestReason").asText()
                            : ""));
        }
        capacity(b, s);
        b.append(String.format(
                Locale.ROOT,
                "%-5s %-18s %-22s %-10s %-5s %-22s %s%n",
                "TASK",
                "STATE",
                "WORKER",
                "RECORDS/S",
                "BUSY",
                "CAPACITY/S",
                "PARTITIONS"));
        for (JsonNode t : s.path("tasks")) {
            b.append(String.format(
                    Locale.ROOT,
                    "%-5s %-18s %-22s %-10s %-5s %-22s %s%n",
                    t.path("id").asText(),
                    t.path("state").asText(),
                    t.path("workerId").asText(),
                    rate(t.path("recordsPerSecond")),
                    share(t.path("busyFraction")),
                    range(t.path("capacity")),
                    severalTopics ? byTopic(t.path("partitionsByTopic")) : join(t.path("partitions"))));
        }
        partitions(b, lag.path("partitions"), severalTopics);
        for (JsonNode reason : s.path("reasons")) {
            b.append("not stable: ").append(reason.asText()).append(System.lineSeparator());
        }
        return b.toString();
    }

    /** One task's capacity from all of them, and the busy time behind it; or why it is unknown. */
    private static void capacity(StringBuilder b, JsonNode s) {
        JsonNode c = s.path("capacity");
        if (!c.isObject()) {
            return;
        }
        if (c.path("recordsPerSecond").isNumber()) {
            b.append(String.format(
                    Locale.ROOT,
                    "capacity per task %s records/s (%s over the window, %s readings; busy from %s, %s)  busy %s%n",
                    rate(c.path("recordsPerSecond")),
                    rate(c.path("low")) + " to " + rate(c.path("high")),
                    c.path("samples").asText(),
                    c.path("busyFrom").asText(),
                    c.path("source").asText(),
                    share(s.path("busyFraction"))));
            if (c.path("rising").asBoolean(false)) {
                b.append("  rising: a task is still speeding up (a recent start); read it again in a few minutes")
                        .append(System.lineSeparator());
            }
        } else {
            b.append("capacity per task unknown: ")
                    .append(c.path("unknown").asText("?"))
                    .append(System.lineSeparator());
        }
    }

    /** "28.6 (27.9-29.4)": a task's capacity and its spread over the window; "?" when unknown. */
    private static String range(JsonNode capacity) {
        if (!capacity.path("recordsPerSecond").isNumber()) {
            return "?";
        }
        return rate(capacity.path("recordsPerSecond")) + " (" + rate(capacity.path("low")) + "-"
                + rate(capacity.path("high")) + ")";
    }

    /** A fraction as a whole percentage; "?" when unknown. */
    private static String share(JsonNode fraction) {
        return fraction.isNumber() ? String.format(Locale.ROOT, "%.0f%%", fraction.asDouble() * 100) : "?";
    }

    /** " (write index W)" when writes to the index land in another (an alias's, a data stream's). */
    private static String writeIndex(JsonNode index) {
        String write = index.path("writeIndex").asText(index.path("name").asText());
        return write.equals(index.path("name").asText()) ? "" : " (write index " + write + ")";
    }

    private static void problem(StringBuilder b, JsonNode index) {
        if (index.path("problem").isTextual()) {
            b.append("index ")
                    .append(index.path("name").asText())
                    .append(": ")
                    .append(index.path("problem").asText())
                    .append(System.lineSeparator());
        }
    }

    /** The partitions not caught up, oldest record first, at most {@value #PARTITION_ROWS} rows: the ones to look at. */
    private static void partitions(StringBuilder b, JsonNode partitions, boolean severalTopics) {
        List<JsonNode> behind = new ArrayList<>();
        partitions.forEach(p -> {
            if (!"caught-up".equals(p.path("verdict").asText())) {
                behind.add(p);
            }
        });
        if (behind.isEmpty()) {
            return;
        }
        behind.sort(Comparator.comparingDouble((JsonNode p) -> p.path("seconds").asDouble(0))
                .reversed());
        b.append(String.format(Locale.ROOT, "%-24s %-10s %-14s %s%n", "PARTITION", "LAG", "AGE", "VERDICT"));
        for (JsonNode p : behind.subList(0, Math.min(PARTITION_ROWS, behind.size()))) {
            b.append(String.format(
                    Locale.ROOT,
                    "%-24s %-10s %-14s %s%n",
                    severalTopics
                            ? p.path("topic").asText() + "-"
                                    + p.path("partition").asText()
                            : p.path("partition").asText(),
                    text(p.path("records")),
                    age(p.path("seconds"), p.path("lowerBound")),
                    text(p.path("verdict"))));
        }
        if (behind.size() > PARTITION_ROWS) {
            b.append(String.format(
                    Locale.ROOT,
                    "... and %d more partitions not caught up (--json lists every partition)%n",
                    behind.size() - PARTITION_ROWS));
        }
    }

    /** An age in seconds, {@code >=} before it when it is a lower bound. */
    private static String age(JsonNode seconds, JsonNode lowerBound) {
        if (!seconds.isNumber()) {
            return "?";
        }
        return (lowerBound.asBoolean() ? ">=" : "") + String.format(Locale.ROOT, "%.1f s", seconds.asDouble());
    }

    private static String rate(JsonNode n) {
        return n.isNumber() ? String.format(Locale.ROOT, "%.1f", n.asDouble()) : "?";
    }

    private static String text(JsonNode n) {
        return n.isMissingNode() || n.isNull() ? "?" : n.asText();
    }

    /** Each topic's partition count, as {@code " (a 3, b 8)"}. */
    private static String perTopic(JsonNode counts) {
        List<String> items = new ArrayList<>();
        counts.fields()
                .forEachRemaining(c -> items.add(c.getKey() + " " + c.getValue().asText()));
        return items.isEmpty() ? "" : " (" + String.join(", ", items) + ")";
    }

    /** A task's partitions grouped by topic, as {@code "a:0 b:0,1,2"}. */
    private static String byTopic(JsonNode partitionsByTopic) {
        List<String> items = new ArrayList<>();
        partitionsByTopic.fields().forEachRemaining(t -> items.add(t.getKey() + ":" + join(t.getValue())));
        return items.isEmpty() ? "-" : String.join(" ", items);
    }

    private static String join(JsonNode array) {
        List<String> items = new ArrayList<>();
        array.forEach(i -> items.add(i.asText()));
        return items.isEmpty() ? "-" : String.join(",", items);
    }
}

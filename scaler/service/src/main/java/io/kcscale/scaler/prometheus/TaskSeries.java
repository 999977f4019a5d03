package io.kcscale.scaler.prometheus;

import io.kcscale.scaler.model.PipelineSample;
import io.kcscale.scaler.model.TopicPartition;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The series a sink task's busy time, capacity and consumer positions are read from, as
 * configs/jmx-exporter/connect-worker.yml names them (and so as a Prometheus scraping the exporters holds them),
 * gathered into each task's {@link PipelineSample.TaskMetrics}. Only the connectors asked for are kept, and at most
 * {@link #MAX_SERIES} series of a worker: a label set that grows with what a worker runs stays bounded here.
 */
final class TaskSeries {

    static final String POLL_IDLE = "kafka_consumer_poll_idle_ratio_avg";
    static final String LAST_POLL = "kafka_consumer_last_poll_seconds_ago";
    static final String TIME_BETWEEN_POLLS = "kafka_consumer_time_between_poll_avg";
    static final String READ_RATE = "kafka_connect_sink_task_sink_record_read_rate";
    static final String PUT_TIME = "kafka_connect_sink_task_put_batch_avg_time_ms";
    static final String BATCH_SIZE = "kafka_connect_connector_task_batch_size_avg";
    static final String RECORDS_LAG = "kafka_consumer_records_lag";

    static final Set<String> NAMES =
            Set.of(POLL_IDLE, LAST_POLL, TIME_BETWEEN_POLLS, READ_RATE, PUT_TIME, BATCH_SIZE, RECORDS_LAG);

    /** Series kept from one worker: a hundred tasks of a thousand partitions each. */
    static final int MAX_SERIES = 100_000;

    /** A task's figures as they arrive, any order. */
    private static final class Figures {
        final Map<String, Double> values = new HashMap<>();
        final Map<TopicPartition, Long> lag = new TreeMap<>();
    }

    private final Map<String, Map<String, String>> topicByLabel;
    private final Map<String, Map<Integer, Figures>> tasks = new TreeMap<>();
    private int kept;

    /**
     * @param topics each connector's topics: a consumer's metrics name a topic with its dots made underscores, so the
     *               label is matched back to the topic (a label two topics share, say {@code a.b} and {@code a_b}, to
     *               neither)
     */
    TaskSeries(Map<String, List<String>> topics) {
        this.topicByLabel = new HashMap<>();
        topics.forEach((connector, own) -> {
            Map<String, String> byLabel = new HashMap<>();
            Map<String, Integer> seen = new HashMap<>();
            own.forEach(t -> seen.merge(t.replace('.', '_'), 1, Integer::sum));
            own.forEach(t -> {
                if (seen.get(t.replace('.', '_')) == 1) {
                    byLabel.put(t.replace('.', '_'), t);
                }
            });
            topicByLabel.put(connector, byLabel);
        });
    }

    /** Keeps one sample if it is a wanted series of a connector asked for; false once the bound is reached. */
    boolean add(String name, Map<String, String> labels, double value) {
        String connector = labels.get("connector");
        Map<String, String> byLabel = connector == null ? null : topicByLabel.get(connector);
        Integer task = integer(labels.get("task"));
        if (byLabel == null || task == null || !NAMES.contains(name)) {
            return true;
        }
        if (kept >= MAX_SERIES) {
            return false;
        }
        Figures f = tasks.computeIfAbsent(connector, c -> new TreeMap<>()).computeIfAbsent(task, t -> new Figures());
        if (name.equals(RECORDS_LAG)) {
            String topic = byLabel.get(labels.getOrDefault("topic", ""));
            Integer partition = integer(labels.get("partition"));
            if (topic != null && partition != null && Double.isFinite(value)) {
                f.lag.put(new TopicPartition(topic, partition), (long) Math.max(0, value));
                kept++;
            }
        } else {
            f.values.put(name, value);
            kept++;
        }
        return true;
    }

    /** Each connector's tasks as read, by connector then task id. */
    Map<String, Map<Integer, PipelineSample.TaskMetrics>> tasks(String source) {
        Map<String, Map<Integer, PipelineSample.TaskMetrics>> read = new TreeMap<>();
        tasks.forEach((connector, byTask) ->
                byTask.forEach((task, f) -> read.computeIfAbsent(connector, c -> new TreeMap<>())
                        .put(
                                task,
                                new PipelineSample.TaskMetrics(
                                        source,
                                        finite(f.values.get(POLL_IDLE)),
                                        finite(f.values.get(LAST_POLL)),
                                        finite(f.values.get(TIME_BETWEEN_POLLS)),
                                        finite(f.values.get(READ_RATE)),
                                        finite(f.values.get(PUT_TIME)),
                                        finite(f.values.get(BATCH_SIZE)),
                                        f.lag.isEmpty() ? null : Map.copyOf(f.lag)))));
        return read;
    }

    /** Kafka's averages are NaN before their first reading: no figure, not a number to divide by. */
    private static Double finite(Double d) {
        return d == null || !Double.isFinite(d) ? null : d;
    }

    private static Integer integer(String s) {
        if (s == null || s.isEmpty() || s.length() > 9) {
            return null;
        }
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return null;
            }
        }
        return Integer.valueOf(s);
    }
}

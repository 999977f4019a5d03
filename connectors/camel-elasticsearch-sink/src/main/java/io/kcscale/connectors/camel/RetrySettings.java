package io.kcscale.connectors.camel;

import java.time.Duration;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/**
 * Our settings for documents Elasticsearch refuses for now (429, 5xx, unreachable): how many sends,
 * and the back-off between them ({@link RetrySchedule}).
 */
final class RetrySettings {

    static final String MAX_ATTEMPTS = "kcscale.retry.max.attempts";
    static final String BACKOFF_INITIAL_MS = "kcscale.retry.backoff.initial.ms";
    static final String BACKOFF_MAX_MS = "kcscale.retry.backoff.max.ms";
    /** What to change when documents used up their sends against a cluster that is overloaded or failing. */
    private static final String HOW_TO_CARRY_ON = "raise " + MAX_ATTEMPTS + ", lower tasks.max or grow the cluster";
    /**
     * A task may wait out a back-off inside put(): well under the consumer's max.poll.interval.ms (5
     * minutes by default), past which Kafka would take the task's partitions away.
     */
    private static final long LONGEST_BACKOFF_MS = 60_000;

    private RetrySettings() {}

    /**
     * What to change when documents used up their sends, Elasticsearch's {@code reason} given: a block on the index or a
     * closed index ends only once someone lifts it, which neither more sends nor fewer tasks do. Elasticsearch names
     * the flood-stage block "read-only-allow-delete" (7.x and later) or "read-only / allow delete" (6.x).
     */
    static String howToCarryOn(String reason) {
        String r = reason == null ? "" : reason;
        if (r.contains("read-only-allow-delete") || r.contains("read-only / allow delete")) {
            return "free disk space on the data nodes past their flood-stage watermark"
                    + " (cluster.routing.allocation.disk.watermark.flood_stage), lift the index's"
                    + " index.blocks.read_only_allow_delete and restart the task";
        }
        if (r.contains("cluster_block_exception") || r.contains("blocked by: [")) {
            return "lift the index's block (index.blocks.write or index.blocks.read_only) and restart the task";
        }
        if (r.contains("index_closed_exception")) {
            return "open the index and restart the task";
        }
        return HOW_TO_CARRY_ON;
    }

    /** {@code definitions} with these settings added, so Connect checks each value and names its key. */
    static ConfigDef define(ConfigDef definitions) {
        return definitions
                .define(
                        MAX_ATTEMPTS,
                        ConfigDef.Type.INT,
                        10,
                        ConfigDef.Range.between(1, 1000),
                        ConfigDef.Importance.MEDIUM,
                        "Sends of a document Elasticsearch refuses for now (429 Too Many Requests, 5xx, unreachable), the "
                                + "first one included, before the task fails naming the documents and what to change.")
                .define(
                        BACKOFF_INITIAL_MS,
                        ConfigDef.Type.LONG,
                        500L,
                        ConfigDef.Range.between(1, LONGEST_BACKOFF_MS),
                        ConfigDef.Importance.LOW,
                        "The pause before the first resend; it doubles with each failure, "
                                + "each pause drawn between half and all of it.")
                .define(
                        BACKOFF_MAX_MS,
                        ConfigDef.Type.LONG,
                        30_000L,
                        ConfigDef.Range.between(1, LONGEST_BACKOFF_MS),
                        ConfigDef.Importance.LOW,
                        "The longest pause between two sends of a document, at least " + BACKOFF_INITIAL_MS + ".");
    }

    /** The one problem the definitions cannot see alone, by key; empty when all is well. */
    static Map<String, String> problems(Map<String, String> config) {
        RetrySchedule schedule;
        try {
            schedule = schedule(config);
        } catch (ConfigException e) {
            // a value the definitions refuse is said by them, on its key
            return Map.of();
        }
        return schedule.max().compareTo(schedule.initial()) >= 0
                ? Map.of()
                : Map.of(
                        BACKOFF_MAX_MS,
                        "must be at least " + BACKOFF_INITIAL_MS + " ("
                                + schedule.initial().toMillis() + "), got "
                                + schedule.max().toMillis());
    }

    /** Why a task stops: {@code documents} of {@code partition} were refused for now {@code attempts} times. */
    static String usedUp(int documents, TopicPartition partition, int attempts, String reason) {
        return "Elasticsearch rejected " + documents + (documents == 1 ? " document" : " documents")
                + " of topic-partition " + partition + " " + attempts + " times (" + reason + ")";
    }

    static RetrySchedule schedule(Map<String, String> config) {
        AbstractConfig values = new AbstractConfig(define(new ConfigDef()), config, false);
        return new RetrySchedule(
                values.getInt(MAX_ATTEMPTS),
                Duration.ofMillis(values.getLong(BACKOFF_INITIAL_MS)),
                Duration.ofMillis(values.getLong(BACKOFF_MAX_MS)));
    }
}

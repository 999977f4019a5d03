package io.kcscale.connectors.camel;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * The records one sink task has handed to Camel and that are not settled yet: not indexed, not
 * reported as rejected. Camel holds them in its aggregator until a batch completes, so the offsets
 * Connect would commit run ahead of what Elasticsearch holds; {@link #committable} keeps each
 * partition's commit below its oldest unsettled record. Outcomes arrive on Camel threads, the rest
 * on the task's thread: every method is synchronized.
 *
 * <p>The records of a failed request stay pending (their partitions' commits wait for them) and are
 * handed out once to be sent again: a failure holds back its own partitions only, and a revocation
 * takes a partition's records, failed or not, along with it.
 */
final class PendingRecords implements BulkOutcomes {

    /** A record Elasticsearch refused for good, waiting for the task to report it. */
    record Rejection(SinkRecord record, String reason) {
    }

    /** Records of failed requests to send again, and why the latest request failed. */
    record Retry(List<SinkRecord> records, String reason) {
    }

    private final Map<TopicPartition, NavigableMap<Long, SinkRecord>> pending = new HashMap<>();
    private final List<Rejection> rejections = new ArrayList<>();
    private final Set<RecordCoordinates> failed = new LinkedHashSet<>();
    private String failure;

    /** The task hands {@code records} to Camel. */
    synchronized void handedOver(List<SinkRecord> records) {
        for (SinkRecord record : records) {
            RecordCoordinates at = RecordCoordinates.of(record);
            pending.computeIfAbsent(at.topicPartition(), tp -> new TreeMap<>()).put(at.offset(), record);
        }
    }

    @Override
    public synchronized void indexed(List<RecordCoordinates> records) {
        records.forEach(this::settle);
        notifyAll();
    }

    /** Kept pending until the task has reported it ({@link #settled}). */
    @Override
    public synchronized void rejected(RecordCoordinates record, String reason) {
        SinkRecord held = held(record);
        if (held != null) {
            rejections.add(new Rejection(held, "Elasticsearch rejected document " + record.documentId() + ": " + reason));
            notifyAll();
        }
    }

    /** Records no longer pending (a revocation let them go) are another task's business now. */
    @Override
    public synchronized void failed(List<RecordCoordinates> records, String reason) {
        boolean any = false;
        for (RecordCoordinates record : records) {
            if (held(record) != null) {
                any |= failed.add(record);
            }
        }
        if (any) {
            failure = "a bulk request of " + records.size() + " documents failed: " + reason;
            notifyAll();
        }
    }

    /**
     * Waits until fewer than {@code limit} records wait for Elasticsearch's answer, or a request has
     * failed (the records of a failed request wait to be sent again, not for an answer).
     *
     * @return false when {@code maxWait} passed first
     */
    synchronized boolean awaitAnswersBelow(int limit, Duration maxWait) throws InterruptedException {
        long deadline = System.nanoTime() + maxWait.toNanos();
        while (awaitingAnswer() >= limit && failed.isEmpty()) {
            long remaining = deadline - System.nanoTime();
            if (remaining <= 0) {
                return false;
            }
            TimeUnit.NANOSECONDS.timedWait(this, remaining);
        }
        return true;
    }

    private int awaitingAnswer() {
        return pending.values().stream().mapToInt(Map::size).sum() - rejections.size() - failed.size();
    }

    synchronized List<Rejection> takeRejections() {
        List<Rejection> taken = List.copyOf(rejections);
        rejections.clear();
        return taken;
    }

    /** The task has reported a rejected record to the dead-letter topic. */
    synchronized void settled(SinkRecord record) {
        settle(RecordCoordinates.of(record));
    }

    synchronized boolean hasRetry() {
        return !failed.isEmpty();
    }

    /** The records of failed requests, still pending, to send again (each handed out once per failure). */
    synchronized Optional<Retry> takeRetry() {
        if (failed.isEmpty()) {
            return Optional.empty();
        }
        List<SinkRecord> records = failed.stream().map(this::held).toList();
        failed.clear();
        return Optional.of(new Retry(records, failure));
    }

    /** Per partition, {@code current} held back to the oldest record still pending. */
    synchronized Map<TopicPartition, OffsetAndMetadata> committable(Map<TopicPartition, OffsetAndMetadata> current) {
        Map<TopicPartition, OffsetAndMetadata> safe = new HashMap<>();
        current.forEach((tp, offset) -> {
            NavigableMap<Long, SinkRecord> held = pending.get(tp);
            safe.put(tp, held == null || held.isEmpty() ? offset : new OffsetAndMetadata(held.firstKey()));
        });
        return safe;
    }

    /** The partitions left this task: whoever gets them next starts from their committed offsets. */
    synchronized void forget(Collection<TopicPartition> partitions) {
        partitions.forEach(pending::remove);
        failed.removeIf(r -> partitions.contains(r.topicPartition()));
        rejections.removeIf(r -> partitions.contains(RecordCoordinates.of(r.record()).topicPartition()));
    }

    private SinkRecord held(RecordCoordinates record) {
        NavigableMap<Long, SinkRecord> held = pending.get(record.topicPartition());
        return held == null ? null : held.get(record.offset());
    }

    private void settle(RecordCoordinates record) {
        NavigableMap<Long, SinkRecord> held = pending.get(record.topicPartition());
        if (held != null) {
            held.remove(record.offset());
        }
        failed.remove(record);
    }
}

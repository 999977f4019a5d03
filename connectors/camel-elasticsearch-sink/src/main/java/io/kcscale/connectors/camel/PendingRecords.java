package io.kcscale.connectors.camel;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
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
 */
final class PendingRecords implements BulkOutcomes {

    /** A record Elasticsearch refused for good, waiting for the task to report it. */
    record Rejection(SinkRecord record, String reason) {
    }

    private final Map<TopicPartition, NavigableMap<Long, SinkRecord>> pending = new HashMap<>();
    private final List<Rejection> rejections = new ArrayList<>();
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

    /** Records no longer pending (a rewind or a revocation let them go) are another task's business now. */
    @Override
    public synchronized void failed(List<RecordCoordinates> records, String reason) {
        if (failure == null && records.stream().anyMatch(r -> held(r) != null)) {
            failure = "a bulk request of " + records.size() + " documents failed: " + reason;
            notifyAll();
        }
    }

    /**
     * Waits until fewer than {@code limit} records wait for Elasticsearch's answer, or a request has
     * failed (the records of a failed request wait for the task's next commit, not for an answer).
     *
     * @return false when {@code maxWait} passed first
     */
    synchronized boolean awaitAnswersBelow(int limit, Duration maxWait) throws InterruptedException {
        long deadline = System.nanoTime() + maxWait.toNanos();
        while (awaitingAnswer() >= limit && failure == null) {
            long remaining = deadline - System.nanoTime();
            if (remaining <= 0) {
                return false;
            }
            TimeUnit.NANOSECONDS.timedWait(this, remaining);
        }
        return true;
    }

    private int awaitingAnswer() {
        return pending.values().stream().mapToInt(Map::size).sum() - rejections.size();
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

    /**
     * The first failure since the last call, if any. Connect answers a failing {@code preCommit} by
     * rewinding every partition to its last committed offset, which is never past a pending record:
     * so everything pending is delivered again and forgotten here.
     */
    synchronized Optional<String> takeFailure() {
        if (failure == null) {
            return Optional.empty();
        }
        String taken = failure;
        failure = null;
        pending.clear();
        rejections.clear();
        return Optional.of(taken);
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
    }
}

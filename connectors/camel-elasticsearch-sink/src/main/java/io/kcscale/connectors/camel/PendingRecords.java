package io.kcscale.connectors.camel;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.SinkRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The records one sink task has handed to Camel and that are not settled yet: not indexed, not
 * reported as rejected. Camel holds them in its aggregator until a batch completes, so the offsets
 * Connect would commit run ahead of what Elasticsearch holds; {@link #committable} keeps each
 * partition's commit below its oldest unsettled record. Outcomes arrive on Camel threads, the rest
 * on the task's thread: every method is synchronized.
 *
 * <p>A record refused for now stays pending (its partition's commit waits for it) and is handed out
 * to be sent again once its back-off ({@link RetrySchedule}) has passed; one refused as often as the
 * schedule allows, or a request refused for good as a whole, stops the task ({@link #failure}). A
 * revocation takes a partition's records, failed or not, along with it.
 *
 * <p>A record sent again because it had no outcome in time may be answered twice, once per request. Its first
 * refusal for good is the one the task reports: later ones are ignored, and so is any resend it was waiting for;
 * answered as indexed before the task has taken its rejection, it is indexed and not reported.
 */
final class PendingRecords implements BulkOutcomes {

    /** A record Elasticsearch refused for good, waiting for the task to report it. */
    record Rejection(SinkRecord record, String reason) {}

    private static final Logger LOG = LoggerFactory.getLogger(PendingRecords.class);

    private final RetrySchedule schedule;
    private final LongSupplier nanoClock;
    private final Map<TopicPartition, NavigableMap<Long, Document>> pending = new HashMap<>();
    /** Records awaiting an answer, oldest hand-over first: when each was handed to Camel, on {@link #nanoClock}. */
    private final Map<RecordCoordinates, Long> handedOverAt = new LinkedHashMap<>();
    /** The bytes of the pending documents. */
    private long bytes;

    /** Rejections for the task to take, by record. */
    private final Map<RecordCoordinates, Rejection> rejections = new LinkedHashMap<>();
    /** Records refused for good whose report is not written yet, taken by the task or not: each is reported once. */
    private final Set<RecordCoordinates> rejected = new HashSet<>();
    /** Failed sends so far, of records still pending. */
    private final Map<RecordCoordinates, Integer> failures = new HashMap<>();
    /** Failed records waiting for their back-off: when each may be sent again, on {@link #nanoClock}. */
    private final Map<RecordCoordinates, Long> waiting = new LinkedHashMap<>();

    private String failure;

    PendingRecords(RetrySchedule schedule, LongSupplier nanoClock) {
        this.schedule = schedule;
        this.nanoClock = nanoClock;
    }

    /** The task hands {@code documents} to Camel. */
    synchronized void handedOver(List<Document> documents) {
        long now = nanoClock.getAsLong();
        for (Document document : documents) {
            RecordCoordinates at = document.at();
            Document before = pending.computeIfAbsent(at.topicPartition(), tp -> new TreeMap<>())
                    .put(at.offset(), document);
            bytes += document.size() - (before == null ? 0 : before.size());
            handedOverAt.remove(at);
            handedOverAt.put(at, now);
        }
    }

    @Override
    public synchronized void indexed(List<RecordCoordinates> records) {
        records.forEach(this::settle);
        notifyAll();
    }

    /** Kept pending until the task has reported it ({@link #settled}); a record already rejected is reported once. */
    @Override
    public synchronized void rejected(RecordCoordinates record, String reason) {
        Document held = held(record);
        if (held != null && rejected.add(record)) {
            handedOverAt.remove(record);
            waiting.remove(record);
            rejections.put(
                    record,
                    new Rejection(
                            held.record(), "Elasticsearch rejected document " + record.documentId() + ": " + reason));
            notifyAll();
        }
    }

    /**
     * Each record still pending waits for one back-off, drawn once for the request; records no longer
     * pending (a revocation let them go) are another task's business now.
     */
    @Override
    public synchronized void failed(List<RecordCoordinates> records, String reason) {
        Map<TopicPartition, Integer> usedUp = new LinkedHashMap<>();
        List<RecordCoordinates> again = new ArrayList<>();
        int mostFailures = 0;
        for (RecordCoordinates record : records) {
            if (held(record) == null || rejected.contains(record)) {
                continue;
            }
            int failed = failures.merge(record, 1, Integer::sum);
            if (schedule.allowsAnother(failed)) {
                again.add(record);
                mostFailures = Math.max(mostFailures, failed);
            } else {
                usedUp.merge(record.topicPartition(), 1, Integer::sum);
            }
        }
        if (!again.isEmpty()) {
            Duration delay = schedule.delayAfter(mostFailures);
            LOG.warn("{} documents refused for now ({}), sent again in {} ms", again.size(), reason, delay.toMillis());
            long due = nanoClock.getAsLong() + delay.toNanos();
            again.forEach(record -> {
                handedOverAt.remove(record);
                waiting.put(record, due);
            });
        }
        if (!usedUp.isEmpty()) {
            stop(usedUp.entrySet().stream()
                            .map(e -> RetrySettings.usedUp(e.getValue(), e.getKey(), schedule.maxAttempts(), reason))
                            .collect(Collectors.joining("; "))
                    + ": " + RetrySettings.howToCarryOn(reason));
        }
        notifyAll();
    }

    @Override
    public synchronized void refused(List<RecordCoordinates> records, String reason) {
        List<RecordCoordinates> held =
                records.stream().filter(r -> held(r) != null).toList();
        if (!held.isEmpty()) {
            stop("Elasticsearch refused " + records.size() + (records.size() == 1 ? " document" : " documents")
                    + ", from "
                    + held.get(0).described() + ", for a reason no document is to blame for: " + reason
                    + ". Sending again cannot help and the dead-letter topic is for bad documents, so the task stops "
                    + "before committing past them; restart it once the cause is fixed");
            notifyAll();
        }
    }

    /** Why the task must stop, once a record has used up its sends or a request was refused for good. */
    synchronized Optional<String> failure() {
        return Optional.ofNullable(failure);
    }

    synchronized List<Rejection> takeRejections() {
        List<Rejection> taken = List.copyOf(rejections.values());
        rejections.clear();
        return taken;
    }

    /** The task has reported a rejected record to the dead-letter topic. */
    synchronized void settled(SinkRecord record) {
        settle(RecordCoordinates.of(record));
    }

    /** The failed records whose back-off has passed, to send again; each is handed out once per failure. */
    synchronized List<Document> takeDueRetries() {
        long now = nanoClock.getAsLong();
        List<Document> due = new ArrayList<>();
        for (Iterator<Map.Entry<RecordCoordinates, Long>> it =
                        waiting.entrySet().iterator();
                it.hasNext(); ) {
            Map.Entry<RecordCoordinates, Long> entry = it.next();
            if (entry.getValue() - now <= 0) {
                due.add(held(entry.getKey()));
                handedOverAt.put(entry.getKey(), now);
                it.remove();
            }
        }
        return due;
    }

    /**
     * Records handed to Camel longer than {@code bound} ago with no outcome yet: nothing will ever name
     * them (Camel dropped them, say), so they are logged with their coordinates and count as failed
     * sends: sent again after a back-off, and the task stops once they have used up their sends.
     */
    synchronized void expireOverdue(Duration bound) {
        long now = nanoClock.getAsLong();
        List<RecordCoordinates> overdue = new ArrayList<>();
        for (Map.Entry<RecordCoordinates, Long> entry : handedOverAt.entrySet()) {
            if (now - entry.getValue() <= bound.toNanos()) {
                break;
            }
            overdue.add(entry.getKey());
        }
        if (!overdue.isEmpty()) {
            LOG.error(
                    "{} documents handed to Camel have had no outcome for {} ms, from {} to {}: sending them again",
                    overdue.size(),
                    bound.toMillis(),
                    overdue.get(0).described(),
                    overdue.get(overdue.size() - 1).described());
            failed(
                    overdue,
                    "no outcome within " + bound.toMillis() + " ms (" + InFlightSettings.OUTCOME_TIMEOUT_MS + ")");
        }
    }

    /** How long until the next failed record may be sent again; empty when none waits. */
    synchronized Optional<Duration> untilNextRetry() {
        long now = nanoClock.getAsLong();
        OptionalLong next = waiting.values().stream()
                .mapToLong(due -> Math.max(0, due - now))
                .min();
        return next.isPresent() ? Optional.of(Duration.ofNanos(next.getAsLong())) : Optional.empty();
    }

    /** Records handed over and not settled: awaiting an answer, a resend or the task's report. */
    synchronized int inFlight() {
        return pending.values().stream().mapToInt(Map::size).sum();
    }

    /** The bytes of the documents {@link #inFlight()} counts. */
    synchronized long inFlightBytes() {
        return bytes;
    }

    /** Records awaiting Elasticsearch's answer: sent, not rejected, not waiting to be sent again. */
    synchronized int awaitingAnswer() {
        return inFlight() - rejected.size() - waiting.size();
    }

    /**
     * Waits at most {@code maxWait}, and no longer than until the next resend is due, for an outcome;
     * returns at once when one waits for the task (a rejection, a due resend, a failure).
     */
    synchronized void awaitNews(Duration maxWait) throws InterruptedException {
        if (failure != null || !rejections.isEmpty()) {
            return;
        }
        long wait = untilNextRetry()
                .map(until -> Math.min(until.toNanos(), maxWait.toNanos()))
                .orElse(maxWait.toNanos());
        if (wait > 0) {
            TimeUnit.NANOSECONDS.timedWait(this, wait);
        }
    }

    /** Per partition, {@code current} held back to the oldest record still pending. */
    synchronized Map<TopicPartition, OffsetAndMetadata> committable(Map<TopicPartition, OffsetAndMetadata> current) {
        Map<TopicPartition, OffsetAndMetadata> safe = new HashMap<>();
        current.forEach((tp, offset) -> {
            NavigableMap<Long, Document> held = pending.get(tp);
            safe.put(tp, held == null || held.isEmpty() ? offset : new OffsetAndMetadata(held.firstKey()));
        });
        return safe;
    }

    /** The partitions left this task: whoever gets them next starts from their committed offsets. */
    synchronized void forget(Collection<TopicPartition> partitions) {
        for (TopicPartition partition : partitions) {
            NavigableMap<Long, Document> gone = pending.remove(partition);
            if (gone != null) {
                bytes -= gone.values().stream().mapToLong(Document::size).sum();
            }
        }
        handedOverAt.keySet().removeIf(r -> partitions.contains(r.topicPartition()));
        failures.keySet().removeIf(r -> partitions.contains(r.topicPartition()));
        waiting.keySet().removeIf(r -> partitions.contains(r.topicPartition()));
        rejections.keySet().removeIf(r -> partitions.contains(r.topicPartition()));
        rejected.removeIf(r -> partitions.contains(r.topicPartition()));
    }

    private void stop(String why) {
        if (failure == null) {
            failure = why;
        }
    }

    private Document held(RecordCoordinates record) {
        NavigableMap<Long, Document> held = pending.get(record.topicPartition());
        return held == null ? null : held.get(record.offset());
    }

    private void settle(RecordCoordinates record) {
        NavigableMap<Long, Document> held = pending.get(record.topicPartition());
        Document settled = held == null ? null : held.remove(record.offset());
        if (settled != null) {
            bytes -= settled.size();
        }
        handedOverAt.remove(record);
        failures.remove(record);
        waiting.remove(record);
        rejections.remove(record);
        rejected.remove(record);
    }
}

package io.kcscale.scaler.kafka;

import io.kcscale.scaler.autoscale.AutoscalePolicy;
import io.kcscale.scaler.autoscale.DecisionRecord;
import io.kcscale.scaler.autoscale.Lease;
import io.kcscale.scaler.autoscale.LeaseTerm;
import io.kcscale.scaler.autoscale.PolicyView;
import io.kcscale.scaler.autoscale.StateRecord;
import io.kcscale.scaler.autoscale.StoredPolicy;
import io.kcscale.scaler.ports.PolicyStore;
import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The autoscaler's state in a compacted one-partition topic, as Connect keeps its connector configs: one thread
 * reads it from the beginning into a {@link PolicyView} and keeps reading; a write is produced, then read back,
 * so that its caller learns whether it counted. One partition, so every replica applies the same order.
 */
public final class KafkaPolicyStore implements PolicyStore, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaPolicyStore.class);
    private static final Duration POLL = Duration.ofMillis(200);

    private final String topic;
    private final String bootstrapServers;
    private final TopicPartition partition;
    private final Duration timeout;
    private final Admin admin;
    private final KafkaProducer<String, byte[]> producer;
    private final KafkaConsumer<String, byte[]> consumer;
    private final Thread reader;
    private final PolicyView view = new PolicyView();
    /** The next offset to read; guarded by {@code view}. */
    private long position;

    private volatile boolean running = true;
    /** Whether {@link #start} got as far as the reader; guarded by this. */
    private boolean readerStarted;
    /** Whether {@link #start} read the topic to its end: before that nothing is written, as nothing could be read back. */
    private volatile boolean open;

    private volatile StateTopic stateTopic;

    /** @param timeout for each call to Kafka, and for a write to be read back */
    public KafkaPolicyStore(
            String bootstrapServers, Map<String, Object> clientProperties, String topic, Duration timeout) {
        this.topic = topic;
        this.bootstrapServers = bootstrapServers;
        this.partition = new TopicPartition(topic, 0);
        this.timeout = timeout;
        int ms = (int) timeout.toMillis();
        Map<String, Object> common = new HashMap<>(clientProperties);
        common.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        common.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, ms);
        Map<String, Object> admin = new HashMap<>(common);
        admin.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, ms);
        this.admin = Admin.create(admin);
        Map<String, Object> producer = new HashMap<>(common);
        producer.put(ProducerConfig.ACKS_CONFIG, "all");
        producer.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        producer.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, ms);
        producer.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, ms);
        producer.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, ms);
        producer.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        this.producer = new KafkaProducer<>(producer, new StringSerializer(), new ByteArraySerializer());
        Map<String, Object> consumer = new HashMap<>(common);
        consumer.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        consumer.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, ms);
        consumer.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        this.consumer = new KafkaConsumer<>(consumer, new StringDeserializer(), new ByteArrayDeserializer());
        this.reader = new Thread(this::read, "kcscale-state-reader");
        this.reader.setDaemon(true);
    }

    /**
     * Creates the topic when missing (compacted, one partition), then reads it to its end before answering.
     * Called again after it threw, it goes on from where it stopped (the reader, once started, keeps reading).
     *
     * @throws KafkaUnavailableException when Kafka does not answer, or the topic has more than one partition or is not
     *                                   compacted
     */
    public synchronized void start() {
        if (!readerStarted) {
            ensureTopic();
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            reader.start();
            readerStarted = true;
        }
        long end = call(
                "read the end of " + topic,
                () -> admin.listOffsets(Map.of(partition, OffsetSpec.latest()))
                        .partitionResult(partition)
                        .get(timeout.toMillis(), TimeUnit.MILLISECONDS)
                        .offset());
        awaitRead(end);
        open = true;
    }

    /**
     * Creates the topic when missing (compacted, one partition, its segments rolled hourly so that compaction keeps
     * the lease's renewals few), then checks what it found: exactly one partition, and compacted, or its policies
     * would go after {@code retention.ms}.
     */
    private void ensureTopic() {
        try {
            admin.createTopics(List.of(new NewTopic(topic, Optional.of(1), Optional.empty())
                            .configs(Map.of(
                                    TopicConfig.CLEANUP_POLICY_CONFIG,
                                    TopicConfig.CLEANUP_POLICY_COMPACT,
                                    TopicConfig.SEGMENT_MS_CONFIG,
                                    String.valueOf(Duration.ofHours(1).toMillis())))))
                    .all()
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            LOG.info("created the state topic {}", topic);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new KafkaUnavailableException(
                        "cannot create the state topic " + topic + ": "
                                + e.getCause().getMessage(),
                        e);
            }
        } catch (InterruptedException | TimeoutException e) {
            throw unavailable("create the state topic " + topic, e);
        }
        TopicDescription d = call(
                "describe " + topic,
                () -> admin.describeTopics(List.of(topic))
                        .allTopicNames()
                        .get(timeout.toMillis(), TimeUnit.MILLISECONDS)
                        .get(topic));
        if (d.partitions().size() != 1) {
            throw new KafkaUnavailableException(
                    "the state topic " + topic + " has " + d.partitions().size()
                            + " partitions; it needs exactly one (an order every replica shares)",
                    null);
        }
        Config config = topicConfig();
        String cleanup = config.get(TopicConfig.CLEANUP_POLICY_CONFIG).value();
        if (!TopicConfig.CLEANUP_POLICY_COMPACT.equals(cleanup.strip())) {
            throw new KafkaUnavailableException(
                    "the state topic " + topic + " has cleanup.policy=" + cleanup
                            + ", so Kafka would delete its policies after retention.ms; make it compacted: "
                            + "kafka-configs.sh --bootstrap-server " + bootstrapServers
                            + " --alter --entity-type topics --entity-name " + topic
                            + " --add-config cleanup.policy=compact",
                    null);
        }
        StateTopic found = new StateTopic(
                topic,
                1,
                d.partitions().get(0).replicas().size(),
                Integer.parseInt(config.get(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG)
                        .value()
                        .strip()));
        if (found.fragile()) {
            LOG.warn(
                    "the state topic {} has replication factor {} and min.insync.replicas {}: one broker's loss can"
                            + " lose an acknowledged policy or stop the autoscaler's writes (3 and 2 keep both)",
                    topic,
                    found.replicationFactor(),
                    found.minInsyncReplicas());
        }
        stateTopic = found;
    }

    private Config topicConfig() {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        try {
            return admin.describeConfigs(List.of(resource))
                    .all()
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS)
                    .get(resource);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof TopicAuthorizationException) {
                throw new KafkaUnavailableException(
                        "the scaler may not read the config of its state topic " + topic
                                + " (to check that it is compacted): give its principal DescribeConfigs on it",
                        e.getCause());
            }
            throw new KafkaUnavailableException(
                    "cannot describe the config of " + topic + ": "
                            + e.getCause().getMessage(),
                    e.getCause());
        } catch (InterruptedException | TimeoutException e) {
            throw unavailable("describe the config of " + topic, e);
        }
    }

    /** The state topic as {@link #start} found it; empty until then. */
    public Optional<StateTopic> stateTopic() {
        return Optional.ofNullable(stateTopic);
    }

    private void read() {
        while (running) {
            try {
                var records = consumer.poll(POLL);
                synchronized (view) {
                    for (ConsumerRecord<String, byte[]> r : records) {
                        apply(r);
                    }
                    position = consumer.position(partition);
                    view.notifyAll();
                }
            } catch (WakeupException e) {
                return;
            } catch (KafkaException e) {
                // the next poll retries; its own timeout paces the retries
                LOG.warn("reading the state topic {} failed: {}", topic, e.getMessage());
            }
        }
    }

    private void apply(ConsumerRecord<String, byte[]> r) {
        try {
            Header header = r.headers().lastHeader(StateRecordCodec.FORMAT_HEADER);
            int format = StateRecordCodec.format(header == null ? null : header.value());
            StateRecordCodec.decode(r.key(), r.value(), format)
                    .ifPresentOrElse(
                            s -> view.apply(r.offset(), s),
                            () -> LOG.warn(
                                    "skipped record {} of {}: key {} in format {} is of no kind this version knows"
                                            + " (it reads formats 1 to {})",
                                    r.offset(),
                                    topic,
                                    r.key(),
                                    format,
                                    StateRecordCodec.FORMAT));
        } catch (IOException e) {
            LOG.warn("skipped record {} of {} (key {}): {}", r.offset(), topic, r.key(), e.getMessage());
        }
    }

    /** Waits until the reader has applied every record before {@code end}, within the timeout. */
    private void awaitRead(long end) {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (view) {
            while (position < end) {
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (left <= 0) {
                    throw new KafkaUnavailableException(
                            "the state topic " + topic + " was not read to offset " + end + " within "
                                    + timeout.toSeconds() + " s (read to " + position + ")",
                            null);
                }
                try {
                    view.wait(left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw unavailable("read " + topic, e);
                }
            }
        }
    }

    /** Produces the record and reads the topic back past it; its offset. */
    private long write(StateRecord r) {
        if (!open) {
            throw new KafkaUnavailableException("the state topic " + topic + " is not read yet; nothing written", null);
        }
        long offset = call(
                "write to " + topic,
                () -> producer.send(new ProducerRecord<>(
                                topic,
                                0,
                                StateRecordCodec.key(r),
                                StateRecordCodec.value(r),
                                List.of(new RecordHeader(
                                        StateRecordCodec.FORMAT_HEADER, StateRecordCodec.formatHeader(r)))))
                        .get(2 * timeout.toMillis(), TimeUnit.MILLISECONDS)
                        .offset());
        awaitRead(offset + 1);
        return offset;
    }

    @Override
    public List<StoredPolicy> policies() {
        synchronized (view) {
            return view.policies();
        }
    }

    @Override
    public Optional<StoredPolicy> policy(String connector) {
        synchronized (view) {
            return view.policy(connector);
        }
    }

    @Override
    public Optional<Lease> leader() {
        synchronized (view) {
            return view.leader();
        }
    }

    @Override
    public StoredPolicy put(String connector, AutoscalePolicy policy) {
        return new StoredPolicy(connector, policy, write(new StateRecord.PolicySet(connector, policy)), List.of());
    }

    @Override
    public boolean remove(String connector) {
        if (policy(connector).isEmpty()) {
            return false;
        }
        write(new StateRecord.PolicyDeleted(connector));
        return true;
    }

    @Override
    public void pause(String connector, long version) {
        write(new StateRecord.Paused(connector, version));
    }

    @Override
    public Optional<LeaseTerm> leaseTerm() {
        synchronized (view) {
            return view.leaseTerm();
        }
    }

    @Override
    public boolean claim(Lease lease, long durationMillis) {
        return writeLease(new StateRecord.Claim(lease, durationMillis));
    }

    @Override
    public boolean renew(Lease lease, long durationMillis) {
        return writeLease(new StateRecord.Renewal(lease, durationMillis));
    }

    @Override
    public boolean release(Lease lease) {
        return writeLease(new StateRecord.Release(lease));
    }

    private boolean writeLease(StateRecord r) {
        long offset = write(r);
        synchronized (view) {
            return view.leaseWrittenAt(offset);
        }
    }

    @Override
    public boolean recordDecisions(String connector, long policyVersion, Lease lease, List<DecisionRecord> decisions) {
        long offset = write(new StateRecord.Decisions(connector, policyVersion, lease, decisions));
        synchronized (view) {
            return view.decisionsAt(connector, offset);
        }
    }

    private interface Call<T> {
        T get() throws InterruptedException, ExecutionException, TimeoutException;
    }

    private <T> T call(String what, Call<T> call) {
        try {
            return call.get();
        } catch (ExecutionException e) {
            throw new KafkaUnavailableException(
                    "cannot " + what + ": " + e.getCause().getMessage(), e.getCause());
        } catch (InterruptedException | TimeoutException e) {
            throw unavailable(what, e);
        }
    }

    private KafkaUnavailableException unavailable(String what, Exception e) {
        if (e instanceof InterruptedException) {
            Thread.currentThread().interrupt();
        }
        return new KafkaUnavailableException("cannot " + what + " within " + timeout.toSeconds() + " s", e);
    }

    @Override
    public void close() {
        running = false;
        consumer.wakeup();
        try {
            reader.join(timeout.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (!reader.isAlive()) {
            consumer.close(timeout);
        }
        producer.close(timeout);
        admin.close(timeout);
    }
}

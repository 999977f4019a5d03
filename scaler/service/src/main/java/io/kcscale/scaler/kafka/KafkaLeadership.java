package io.kcscale.scaler.kafka;

import io.kcscale.scaler.autoscale.Leadership;
import io.kcscale.scaler.autoscale.Lease;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Leadership through Kafka's group membership: every replica joins one consumer group subscribed to the
 * one-partition state topic, and the member the group assigns partition 0 leads, with the group's generation as
 * its lease. It reads nothing (the partition stays paused); polling keeps it a member. A replica that stops
 * without leaving is dropped after the session timeout, and the group gives the partition to another. The
 * cooperative-sticky assignor keeps the partition with its owner while replicas join, so leadership moves only
 * when the leader goes.
 */
public final class KafkaLeadership implements Leadership, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaLeadership.class);
    /** Short enough that another replica leads within ~15 s of a leader's crash; the broker allows 6 s at least. */
    public static final Duration SESSION_TIMEOUT = Duration.ofSeconds(10);

    private static final Duration POLL = Duration.ofMillis(500);

    private final String instanceId;
    private final TopicPartition partition;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Thread member;
    private final Duration timeout;
    private volatile Lease lease;
    private volatile boolean running = true;
    private volatile boolean started;

    /** @param timeout for each call to Kafka */
    public KafkaLeadership(
            String bootstrapServers,
            Map<String, Object> clientProperties,
            String topic,
            String group,
            String instanceId,
            Duration timeout) {
        this.instanceId = instanceId;
        this.partition = new TopicPartition(topic, 0);
        this.timeout = timeout;
        Map<String, Object> props = new HashMap<>(clientProperties);
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        // the classic protocol: its session timeout is the client's to set (the consumer protocol's is the broker's, 45
        // s)
        props.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "classic");
        props.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, CooperativeStickyAssignor.class.getName());
        props.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, (int) SESSION_TIMEOUT.toMillis());
        props.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, (int) SESSION_TIMEOUT.toMillis() / 10);
        props.put(ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG, (int) (3 * SESSION_TIMEOUT.toMillis()));
        props.put(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        props.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, "kcscale-leadership-" + instanceId);
        this.consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        this.member = new Thread(this::run, "kcscale-leadership");
        this.member.setDaemon(true);
    }

    public void start() {
        started = true;
        member.start();
    }

    @Override
    public String instanceId() {
        return instanceId;
    }

    @Override
    public Optional<Lease> lease() {
        return Optional.ofNullable(lease);
    }

    private void run() {
        try {
            consumer.subscribe(List.of(partition.topic()), new Listener());
            while (running) {
                try {
                    consumer.poll(POLL);
                } catch (WakeupException e) {
                    return;
                } catch (KafkaException e) {
                    // the next poll rejoins; its own timeout paces the attempts
                    LOG.warn("the leadership group's member {} failed: {}", instanceId, e.getMessage());
                }
            }
        } finally {
            lease = null;
            // leaves the group, so that another replica leads at once
            consumer.close(timeout);
        }
    }

    private final class Listener implements ConsumerRebalanceListener {
        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            consumer.pause(partitions);
            if (partitions.contains(partition)) {
                lease = new Lease(instanceId, consumer.groupMetadata().generationId());
                LOG.info("{} was given leadership (generation {})", instanceId, lease.generation());
            }
        }

        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            lose(partitions);
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> partitions) {
            lose(partitions);
        }

        private void lose(Collection<TopicPartition> partitions) {
            if (partitions.contains(partition) && lease != null) {
                LOG.info("{} lost leadership (generation {})", instanceId, lease.generation());
                lease = null;
            }
        }
    }

    @Override
    public void close() {
        running = false;
        if (!started) {
            consumer.close(timeout);
            return;
        }
        consumer.wakeup();
        try {
            member.join(2 * timeout.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

package io.kcscale.scaler.kafka;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
 * Which replica should lead, through Kafka's group membership: every replica joins one consumer group subscribed to
 * the one-partition state topic, and the member the group assigns partition 0 is nominated; it then claims the lease
 * in the state topic ({@code autoscale.LeaderLease}), which alone decides. It reads nothing (the partition stays
 * paused); polling keeps it a member. A replica that stops without leaving is dropped after the session timeout, and
 * the group nominates another. The cooperative-sticky assignor keeps the partition with its owner while replicas
 * join, so the nomination moves only when the leader goes.
 */
public final class KafkaLeadership implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaLeadership.class);
    /** Short enough that another replica leads within ~15 s of a leader's crash; the broker allows 6 s at least. */
    public static final Duration SESSION_TIMEOUT = Duration.ofSeconds(10);

    private static final Duration POLL = Duration.ofMillis(500);

    private final String instanceId;
    private final TopicPartition partition;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Thread member;
    private final Duration timeout;
    private volatile boolean nominated;
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

    public String instanceId() {
        return instanceId;
    }

    /** Whether the group nominates this replica now: it holds the state topic's partition. */
    public boolean nominated() {
        return nominated;
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
            nominated = false;
            // leaves the group, so that another replica leads at once
            consumer.close(timeout);
        }
    }

    private final class Listener implements ConsumerRebalanceListener {
        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            consumer.pause(partitions);
            if (partitions.contains(partition)) {
                nominated = true;
                LOG.info(
                        "the group nominates {} to lead (generation {})",
                        instanceId,
                        consumer.groupMetadata().generationId());
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
            if (partitions.contains(partition) && nominated) {
                LOG.info("the group no longer nominates {}", instanceId);
                nominated = false;
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

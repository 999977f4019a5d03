package io.kcscale.lab.bench;

import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * A low steady load over many partitions, so every sink group's offsets move: {@code ratePerSecond} small
 * records a second, each to the next partition in turn, sent ten times a second.
 */
final class SteadyLoad implements AutoCloseable {

    private static final int TICKS_PER_SECOND = 10;

    private final KafkaProducer<String, String> producer;
    private final double perTick;
    private final ScheduledExecutorService ticks = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "bench-scaler-load");
        t.setDaemon(true);
        return t;
    });
    private volatile List<TopicPartition> partitions = List.of();
    private double owed;
    private long next;
    private long sent;

    SteadyLoad(String bootstrapServers, double ratePerSecond) {
        this.producer = new KafkaProducer<>(
                Map.of(
                        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        bootstrapServers,
                        ProducerConfig.LINGER_MS_CONFIG,
                        20,
                        ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG,
                        30_000,
                        ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG,
                        10_000,
                        ProducerConfig.MAX_BLOCK_MS_CONFIG,
                        10_000),
                new StringSerializer(),
                new StringSerializer());
        this.perTick = ratePerSecond / TICKS_PER_SECOND;
        ticks.scheduleAtFixedRate(this::tick, 0, 1000 / TICKS_PER_SECOND, TimeUnit.MILLISECONDS);
    }

    /** From now on the load goes round these partitions. */
    void spread(List<TopicPartition> over) {
        partitions = List.copyOf(over);
    }

    private void tick() {
        List<TopicPartition> over = partitions;
        if (over.isEmpty()) {
            return;
        }
        owed += perTick;
        try {
            for (; owed >= 1; owed--) {
                TopicPartition tp = over.get((int) (next++ % over.size()));
                producer.send(new ProducerRecord<>(tp.topic(), tp.partition(), null, "record " + sent++));
            }
        } catch (RuntimeException e) {
            // a send that cannot even be queued (the broker gone) loses this tick's records, not the load
            owed = 0;
        }
    }

    @Override
    public void close() {
        ticks.shutdownNow();
        producer.close(java.time.Duration.ofSeconds(5));
    }
}

package io.kcscale.connectors.camel;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Test;

class DeadLettersTest {

    /**
     * A task waits for each dead-letter write past the time Connect's dead-letter producer gives it (its own failure
     * names the cause), and no longer than Kafka lets a consumer go between polls before it takes the task's
     * partitions away. Kafka's defaults, as the worker applies them unless a connector overrides them.
     */
    @Test
    void theWaitForAWriteOutlastsTheDeadLetterProducerAndEndsBeforeTheConsumerIsDropped() {
        Duration producerGivesUp = Duration.ofMillis(
                (Integer) ProducerConfig.configDef().defaultValues().get(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG));
        Duration consumerDropped = Duration.ofMillis(
                (Integer) ConsumerConfig.configDef().defaultValues().get(ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG));

        assertTrue(
                DeadLetters.MAX_WAIT_FOR_WRITES.compareTo(producerGivesUp) > 0
                        && DeadLetters.MAX_WAIT_FOR_WRITES.compareTo(consumerDropped) < 0,
                DeadLetters.MAX_WAIT_FOR_WRITES + " between " + producerGivesUp + " and " + consumerDropped);
    }
}

package io.kcscale.scaler.kafka;

/** Kafka did not answer, or answered with an error, within the request timeout. */
public class KafkaUnavailableException extends RuntimeException {
    public KafkaUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}

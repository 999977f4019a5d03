package io.kcscale.scaler.elasticsearch;

/** Elasticsearch did not answer, or answered with an error. */
public class ElasticsearchUnavailableException extends RuntimeException {
    public ElasticsearchUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}

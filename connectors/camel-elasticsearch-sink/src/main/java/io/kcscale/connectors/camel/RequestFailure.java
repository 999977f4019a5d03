package io.kcscale.connectors.camel;

import java.io.IOException;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

import org.elasticsearch.ElasticsearchException;
import org.elasticsearch.client.ResponseException;
import org.elasticsearch.rest.RestStatus;

/**
 * Why Elasticsearch's client failed a request, and whether sending it again can help: it can when
 * Elasticsearch was overloaded (429), failing (5xx), too slow (408) or unreachable (an I/O error with
 * no answer); any other answer (400, 401, 413 ...) would come again.
 */
record RequestFailure(String reason, boolean retriable) {

    static RequestFailure of(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof ElasticsearchException && ((ElasticsearchException) cause).status() != null) {
                return answered(((ElasticsearchException) cause).status().getStatus(), cause.getMessage());
            }
            if (cause instanceof ResponseException) {
                return answered(((ResponseException) cause).getResponse().getStatusLine().getStatusCode(), cause.getMessage());
            }
        }
        String reason = failure == null ? "unknown failure" : failure.getClass().getSimpleName() + ": " + failure.getMessage();
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof IOException) {
                return new RequestFailure(reason, true);
            }
        }
        return new RequestFailure(reason, false);
    }

    /** Whether an answer with this HTTP status may go otherwise next time. */
    static boolean retriable(int status) {
        return status == 408 || status == 429 || status >= 500;
    }

    /** {@code 429 Too Many Requests}. */
    static String described(int status) {
        RestStatus known = RestStatus.fromCode(status);
        return known == null ? String.valueOf(status) : status + " " + Arrays.stream(known.name().split("_"))
                .map(word -> word.charAt(0) + word.substring(1).toLowerCase(Locale.ROOT)).collect(Collectors.joining(" "));
    }

    private static RequestFailure answered(int status, String message) {
        return new RequestFailure(described(status) + ": " + message, retriable(status));
    }
}

package io.kcscale.connectors.camel;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.elasticsearch.ElasticsearchException;
import org.elasticsearch.client.Response;
import org.elasticsearch.client.ResponseException;
import org.elasticsearch.rest.RestStatus;

/**
 * Why Elasticsearch (or its client) failed a write, and what {@link Kind} of failure it is: only an
 * answer about one document's content is that document's fault and sends it to the dead-letter topic;
 * a failure of the index, the cluster or the sink's access would befall every document alike, so no
 * document is dead-lettered for it.
 */
record RequestFailure(String reason, Kind kind) {

    enum Kind {
        /** Elasticsearch refused this document's content (a mapping conflict, a field it cannot parse): to the dead-letter topic. */
        DOCUMENT,
        /** Elasticsearch cannot take it now (overloaded, failing, unreachable, the index closed or blocked): sent again after a back-off. */
        FOR_NOW,
        /** The sink cannot write at all (credentials, privileges, a missing index, a request too large): the task stops. */
        OPERATIONAL
    }

    /** Error types that end once someone acts (reopens the index, frees disk), which the back-off waits for. */
    private static final Set<String> FOR_NOW_TYPES = Set.of(
            "index_closed_exception",
            "cluster_block_exception",
            "unavailable_shards_exception",
            "no_shard_available_action_exception",
            "es_rejected_execution_exception");

    private static final Set<String> OPERATIONAL_TYPES =
            Set.of("index_not_found_exception", "security_exception", "invalid_index_name_exception");
    /** {@code type=x} as the high-level client writes Elasticsearch's error, {@code "type":"x"} as the low-level client quotes the answer. */
    private static final Pattern ERROR_TYPE = Pattern.compile("type[=\"]+:?\"?([a-z_]+)");

    static RequestFailure of(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof ElasticsearchException && ((ElasticsearchException) cause).status() != null) {
                return answered(
                        ((ElasticsearchException) cause).status().getStatus(),
                        errorType(cause.getMessage()),
                        cause.getMessage());
            }
            if (cause instanceof ResponseException) {
                Response response = ((ResponseException) cause).getResponse();
                BulkAnswer.Error error = refusal(response);
                return error == null
                        ? answered(
                                response.getStatusLine().getStatusCode(),
                                errorType(cause.getMessage()),
                                cause.getMessage())
                        : answered(response.getStatusLine().getStatusCode(), error.type(), error.text());
            }
        }
        String reason =
                failure == null ? "unknown failure" : failure.getClass().getSimpleName() + ": " + failure.getMessage();
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof IOException) {
                return new RequestFailure(reason, Kind.FOR_NOW);
            }
        }
        // no answer from Elasticsearch blames the document: the client or the route failed
        return new RequestFailure(reason, Kind.OPERATIONAL);
    }

    /** What an answer with this HTTP status and Elasticsearch error type ({@code null} when unknown) is. */
    static Kind kind(int status, String errorType) {
        String type = errorType == null ? "" : errorType;
        if (status == 408 || status == 429 || status >= 500 || FOR_NOW_TYPES.contains(type)) {
            return Kind.FOR_NOW;
        }
        if (status == 401 || status == 403 || status == 404 || status == 413 || OPERATIONAL_TYPES.contains(type)) {
            return Kind.OPERATIONAL;
        }
        return Kind.DOCUMENT;
    }

    /** The first Elasticsearch error type an error message names, or {@code null}. */
    static String errorType(String message) {
        if (message == null) {
            return null;
        }
        Matcher type = ERROR_TYPE.matcher(message);
        return type.find() ? type.group(1) : null;
    }

    /** What to change after an operational failure with this status and error type. */
    static String whatToChange(int status, String errorType) {
        if (status == 401 || status == 403 || "security_exception".equals(errorType)) {
            return "check the credentials in camel.sink.url and that its user may write to the index";
        }
        if (status == 404 || "index_not_found_exception".equals(errorType)) {
            return "create the index, or let Elasticsearch create it (action.auto_create_index)";
        }
        if (status == 413) {
            return "lower " + InFlightSettings.MAX_BYTES + " below Elasticsearch's http.max_content_length";
        }
        return "fix the cause";
    }

    /** {@code 429 Too Many Requests}. */
    static String described(int status) {
        RestStatus known = RestStatus.fromCode(status);
        return known == null
                ? String.valueOf(status)
                : status + " "
                        + Arrays.stream(known.name().split("_"))
                                .map(word -> word.charAt(0) + word.substring(1).toLowerCase(Locale.ROOT))
                                .collect(Collectors.joining(" "));
    }

    /**
     * Elasticsearch's error in the answer ({@code type: reason}), which the client's message quotes whole after
     * the request's method, host and URL; {@code null} when the answer holds none.
     */
    private static BulkAnswer.Error refusal(Response response) {
        if (response.getEntity() == null) {
            return null;
        }
        // the client buffered the answer of a refused request, so it reads again
        try (InputStream answer = response.getEntity().getContent()) {
            return BulkAnswer.refusal(answer);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static RequestFailure answered(int status, String type, String message) {
        Kind kind = kind(status, type);
        String reason = described(status) + ": " + message;
        return new RequestFailure(kind == Kind.OPERATIONAL ? reason + "; " + whatToChange(status, type) : reason, kind);
    }
}

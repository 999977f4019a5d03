package io.kcscale.connectors.camel;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Elasticsearch's answer to a {@code _bulk} request, item by item: each item's HTTP status and, when
 * it failed, the reason. Read as a stream, keeping nothing else of the answer (ids, versions, shards),
 * which the high-level client built into objects for every item.
 */
final class BulkAnswer {

    private static final JsonFactory JSON = JsonFactory.builder()
            .disable(JsonFactory.Feature.INTERN_FIELD_NAMES)
            .build();

    /** A failed item's error: its type ({@code mapper_parsing_exception}) and {@code type: reason} to tell people. */
    record Error(String type, String text) {}

    private final int[] statuses;
    private final Error[] errors;

    private BulkAnswer(int[] statuses, Error[] errors) {
        this.statuses = statuses;
        this.errors = errors;
    }

    /**
     * Reads the answer to a request of {@code documents} documents.
     *
     * @throws IOException when it is not a bulk answer with that many items
     */
    static BulkAnswer read(InputStream answer, int documents) throws IOException {
        int[] statuses = new int[documents];
        Error[] errors = new Error[documents];
        int items = 0;
        try (JsonParser parser = JSON.createParser(answer)) {
            expect(parser.nextToken(), JsonToken.START_OBJECT, "a JSON object");
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.getCurrentName();
                JsonToken value = parser.nextToken();
                if (!"items".equals(field)) {
                    parser.skipChildren();
                    continue;
                }
                expect(value, JsonToken.START_ARRAY, "items as an array");
                while (parser.nextToken() == JsonToken.START_OBJECT) {
                    if (items == documents) {
                        throw new IOException(
                                "Elasticsearch answered a bulk request of " + documents + " documents with more items");
                    }
                    readItem(parser, statuses, errors, items++);
                }
            }
        }
        if (items != documents) {
            throw new IOException(
                    "Elasticsearch answered a bulk request of " + documents + " documents with " + items + " items");
        }
        return new BulkAnswer(statuses, errors);
    }

    /**
     * The error of an answer that refused a whole request ({@code {"error":{"type":..., "reason":...}, "status":400}}),
     * bulk or not; {@code null} when it holds none.
     */
    static Error refusal(InputStream answer) throws IOException {
        try (JsonParser parser = JSON.createParser(answer)) {
            expect(parser.nextToken(), JsonToken.START_OBJECT, "a JSON object");
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.getCurrentName();
                parser.nextToken();
                if ("error".equals(field)) {
                    return error(parser);
                }
                parser.skipChildren();
            }
        }
        return null;
    }

    /** An answer as Elasticsearch would give it, for tests: each item's status and, when it failed, the error. */
    static BulkAnswer of(int[] statuses, Error[] errors) {
        return new BulkAnswer(statuses.clone(), Arrays.copyOf(errors, statuses.length));
    }

    int items() {
        return statuses.length;
    }

    int status(int item) {
        return statuses[item];
    }

    boolean failed(int item) {
        return statuses[item] < 200 || statuses[item] >= 300;
    }

    /** {@code type: reason} of a failed item, as Elasticsearch said it. */
    String reason(int item) {
        return errors[item] == null ? "status " + statuses[item] : errors[item].text();
    }

    /** What kind of failure a failed item is, from its status and error type. */
    RequestFailure.Kind kind(int item) {
        return RequestFailure.kind(statuses[item], type(item));
    }

    /** A failed item's error type ({@code mapper_parsing_exception}), or {@code null} when Elasticsearch named none. */
    String type(int item) {
        return errors[item] == null ? null : errors[item].type();
    }

    /** {@code {"index":{..., "status":201}}} or {@code {"index":{..., "status":400, "error":{"type":..., "reason":...}}}}. */
    private static void readItem(JsonParser parser, int[] statuses, Error[] errors, int item) throws IOException {
        expect(parser.nextToken(), JsonToken.FIELD_NAME, "an item naming its operation");
        expect(parser.nextToken(), JsonToken.START_OBJECT, "an item as an object");
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String field = parser.getCurrentName();
            parser.nextToken();
            if ("status".equals(field)) {
                statuses[item] = parser.getIntValue();
            } else if ("error".equals(field)) {
                errors[item] = error(parser);
            } else {
                parser.skipChildren();
            }
        }
        expect(parser.nextToken(), JsonToken.END_OBJECT, "one operation per item");
    }

    /** The error's type and {@code type: reason}, with the cause's when there is one; the parser is on the error's value. */
    private static Error error(JsonParser parser) throws IOException {
        if (parser.currentToken() != JsonToken.START_OBJECT) {
            return new Error(null, parser.getValueAsString());
        }
        String type = null;
        String reason = null;
        String cause = null;
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String field = parser.getCurrentName();
            parser.nextToken();
            switch (field) {
                case "type" -> type = parser.getValueAsString();
                case "reason" -> reason = parser.getValueAsString();
                case "caused_by" -> cause = error(parser).text();
                default -> parser.skipChildren();
            }
        }
        return new Error(type, type + ": " + reason + (cause == null ? "" : " (caused by " + cause + ")"));
    }

    private static void expect(JsonToken token, JsonToken expected, String what) throws IOException {
        if (token != expected) {
            throw new IOException("Elasticsearch's bulk answer is not as expected: wanted " + what + ", got " + token);
        }
    }
}

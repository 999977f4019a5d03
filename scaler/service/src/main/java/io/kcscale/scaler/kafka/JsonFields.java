package io.kcscale.scaler.kafka;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.kcscale.scaler.checks.keys.KeyTally;
import java.io.IOException;

/**
 * Passes the top-level scalar fields of a record value that is a JSON object (what Connect's
 * JsonConverter writes) to a {@link KeyTally}. Streams the tokens rather than building a tree:
 * sampling must keep up with a plain consumer. Other values (Avro, plain strings) give no fields.
 */
final class JsonFields {

    private static final JsonFactory FACTORY = new JsonFactory();

    private JsonFields() {}

    static void read(byte[] value, KeyTally tally) {
        if (value == null || value.length == 0 || value[0] != '{') {
            return;
        }
        try (JsonParser parser = FACTORY.createParser(value)) {
            parser.nextToken();
            for (JsonToken token = parser.nextToken(); token == JsonToken.FIELD_NAME; token = parser.nextToken()) {
                String name = parser.currentName();
                JsonToken field = parser.nextToken();
                if (field == JsonToken.START_OBJECT || field == JsonToken.START_ARRAY) {
                    parser.skipChildren();
                } else if (field != null && field.isScalarValue() && field != JsonToken.VALUE_NULL) {
                    tally.field(name, parser.getText());
                }
            }
        } catch (IOException malformed) {
            // not JSON after all: the fields read before the error still count
        }
    }
}

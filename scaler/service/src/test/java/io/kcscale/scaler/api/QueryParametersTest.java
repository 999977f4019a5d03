package io.kcscale.scaler.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class QueryParametersTest {

    private static final List<String> KNOWN = List.of("sampleRecords", "sampleSeconds");

    @Test
    void namesAndDecodedValues() {
        assertEquals(Map.of(), QueryParameters.parse(null, KNOWN));
        assertEquals(
                Map.of("sampleRecords", "10", "sampleSeconds", "1.5"),
                QueryParameters.parse("sampleRecords=10&sampleSeconds=1%2E5&", KNOWN));
        assertEquals(Map.of("sampleRecords", ""), QueryParameters.parse("sampleRecords", KNOWN));
    }

    @Test
    void unknownRepeatedOrMalformedAre400NamingTheParameter() {
        ApiError unknown = assertThrows(ApiError.class, () -> QueryParameters.parse("tasks=3", KNOWN));
        assertEquals(400, unknown.status());
        assertEquals("tasks", unknown.field());
        ApiError twice =
                assertThrows(ApiError.class, () -> QueryParameters.parse("sampleRecords=1&sampleRecords=2", KNOWN));
        assertEquals("sampleRecords", twice.field());
        assertEquals(
                400,
                assertThrows(ApiError.class, () -> QueryParameters.parse("sampleRecords=%zz", KNOWN))
                        .status());
    }
}

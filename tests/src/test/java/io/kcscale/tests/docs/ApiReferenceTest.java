package io.kcscale.tests.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import io.kcscale.tests.fixtures.RepositoryFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * docs/api.md is what the scaler's openapi.json renders to ({@link ApiReference}). After a change to the API,
 * regenerate it with {@code -Dkcscale.docs.write=true}.
 */
class ApiReferenceTest {

    private static final Path API_MD = RepositoryFiles.home().resolve("docs/api.md");
    private static final String REGENERATE = "mvn -B -o -pl tests -am verify -Dtest=ApiReferenceTest"
            + " -Dsurefire.failIfNoSpecifiedTests=false -Dkcscale.docs.write=true";

    @Test
    void docsApiMdIsWhatOpenApiJsonRendersTo() throws IOException {
        Path source = ApiReference.openApiFile();
        String rendered = ApiReference.render(
                RepositoryFiles.json(source),
                RepositoryFiles.home().relativize(source).toString());
        if (Boolean.getBoolean("kcscale.docs.write")) {
            Files.writeString(API_MD, rendered);
        }
        if (!Files.exists(API_MD)) {
            fail("docs/api.md is missing; render it from " + source + " with: " + REGENERATE);
        }
        String written = Files.readString(API_MD);
        if (!written.equals(rendered)) {
            fail("docs/api.md differs from what " + RepositoryFiles.home().relativize(source)
                    + " renders to (first difference at line " + firstDifferentLine(written, rendered)
                    + "); regenerate it with: " + REGENERATE);
        }
    }

    /** The reference leaves nothing out: every operation and every schema of the document has its heading. */
    @Test
    void everyOperationAndSchemaHasItsHeading() {
        JsonNode api = RepositoryFiles.json(ApiReference.openApiFile());
        String md = ApiReference.render(api, "openapi.json");
        int operations = 0;
        for (Iterator<Map.Entry<String, JsonNode>> paths = api.path("paths").fields(); paths.hasNext(); ) {
            Map.Entry<String, JsonNode> path = paths.next();
            for (Iterator<String> methods = path.getValue().fieldNames(); methods.hasNext(); ) {
                String method = methods.next();
                if (method.equals("parameters") || method.equals("summary") || method.equals("description")) {
                    continue;
                }
                assertTrue(
                        md.contains("### `" + method.toUpperCase(Locale.ROOT) + " " + path.getKey() + "`\n"),
                        method + " " + path.getKey());
                operations++;
            }
        }
        assertTrue(operations >= 17, operations + " operations");
        api.path("components")
                .path("schemas")
                .fieldNames()
                .forEachRemaining(n -> assertTrue(md.contains("\n### " + n + "\n"), n));
        assertEquals(
                "[Task](#task)", ApiReference.type(RepositoryFiles.json("{\"$ref\": \"#/components/schemas/Task\"}")));
        assertEquals(
                "array of integer",
                ApiReference.type(RepositoryFiles.json("{\"type\": \"array\", \"items\": {\"type\": \"integer\"}}")));
    }

    private static int firstDifferentLine(String a, String b) {
        List<String> x = a.lines().toList();
        List<String> y = b.lines().toList();
        for (int i = 0; i < Math.min(x.size(), y.size()); i++) {
            if (!x.get(i).equals(y.get(i))) {
                return i + 1;
            }
        }
        return Math.min(x.size(), y.size()) + 1;
    }
}

package io.kcscale.tests.docs;

import com.fasterxml.jackson.databind.JsonNode;
import io.kcscale.tests.fixtures.RepositoryFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Renders the scaler's OpenAPI document to docs/api.md: every path and method with its parameters, request
 * body, responses and authentication, then every schema with its fields. Deterministic: the document's own
 * order, no dates.
 */
final class ApiReference {

    private static final List<String> METHODS = List.of("get", "put", "post", "delete", "patch", "head", "options");

    private ApiReference() {}

    /** The service's OpenAPI document: the one file under scaler/ whose path ends in src/main/resources/api/openapi.json. */
    static Path openApiFile() {
        Path scaler = RepositoryFiles.home().resolve("scaler");
        try (Stream<Path> s = Files.walk(scaler)) {
            List<Path> found = s.filter(
                            p -> p.toString().replace('\\', '/').endsWith("src/main/resources/api/openapi.json"))
                    .filter(p -> !p.toString().contains("/target/"))
                    .toList();
            if (found.size() != 1) {
                throw new AssertionError("expected one api/openapi.json under scaler/, found " + found);
            }
            return found.get(0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String render(JsonNode api, String source) {
        StringBuilder md = new StringBuilder();
        JsonNode info = api.path("info");
        md.append("# API reference\n\n");
        md.append("<!-- Generated from ").append(source).append(" by ApiReferenceTest; do not edit by hand. -->\n\n");
        md.append("**")
                .append(info.path("title").asText())
                .append("**, version ")
                .append(info.path("version").asText())
                .append(" (OpenAPI ")
                .append(api.path("openapi").asText())
                .append("). The service serves this document at ")
                .append("`GET /openapi.json`; [The scaler service](scaler-api.md) explains how to use it.\n\n");
        md.append(oneLine(info.path("description").asText())).append("\n\n");
        md.append("## Authentication\n\n");
        JsonNode schemes = api.path("components").path("securitySchemes");
        if (schemes.isEmpty()) {
            md.append("None.\n\n");
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = schemes.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode s = e.getValue();
            md.append("- `")
                    .append(e.getKey())
                    .append("`: ")
                    .append(s.path("type").asText());
            if (s.has("scheme")) {
                md.append(", scheme `").append(s.path("scheme").asText()).append('`');
            }
            if (s.has("description")) {
                md.append(". ").append(oneLine(s.path("description").asText()));
            }
            md.append('\n');
        }
        md.append(
                "\nEach operation below says which scheme it takes; one without is open to any caller the service admits.\n\n");
        md.append("## Endpoints\n\n");
        for (Iterator<Map.Entry<String, JsonNode>> paths = api.path("paths").fields(); paths.hasNext(); ) {
            Map.Entry<String, JsonNode> path = paths.next();
            for (String method : METHODS) {
                JsonNode op = path.getValue().path(method);
                if (!op.isMissingNode()) {
                    operation(md, api, method, path.getKey(), path.getValue(), op);
                }
            }
        }
        md.append("## Schemas\n\n");
        for (Iterator<Map.Entry<String, JsonNode>> it =
                        api.path("components").path("schemas").fields();
                it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            schema(md, api, e.getKey(), e.getValue());
        }
        return md.toString();
    }

    private static void operation(
            StringBuilder md, JsonNode api, String method, String path, JsonNode pathItem, JsonNode op) {
        md.append("### `")
                .append(method.toUpperCase(Locale.ROOT))
                .append(' ')
                .append(path)
                .append("`\n\n");
        if (op.has("summary")) {
            md.append("**").append(oneLine(op.path("summary").asText())).append("**\n\n");
        }
        if (op.has("description")) {
            md.append(oneLine(op.path("description").asText())).append("\n\n");
        }
        JsonNode security = op.has("security") ? op.path("security") : api.path("security");
        List<String> auth = new ArrayList<>();
        for (JsonNode requirement : security) {
            requirement.fieldNames().forEachRemaining(n -> auth.add("`" + n + "`"));
        }
        md.append("Authentication: ")
                .append(auth.isEmpty() ? "none" : String.join(", ", auth))
                .append(".\n\n");
        List<JsonNode> parameters = new ArrayList<>();
        pathItem.path("parameters").forEach(p -> parameters.add(resolve(api, p)));
        op.path("parameters").forEach(p -> parameters.add(resolve(api, p)));
        if (!parameters.isEmpty()) {
            md.append("| parameter | in | required | type | description |\n|---|---|---|---|---|\n");
            for (JsonNode p : parameters) {
                md.append("| `")
                        .append(p.path("name").asText())
                        .append("` | ")
                        .append(p.path("in").asText())
                        .append(" | ")
                        .append(p.path("required").asBoolean(false) ? "yes" : "no")
                        .append(" | ")
                        .append(type(p.path("schema")))
                        .append(" | ")
                        .append(cell(p.path("description").asText()))
                        .append(" |\n");
            }
            md.append('\n');
        }
        JsonNode body = resolve(api, op.path("requestBody"));
        if (!body.isMissingNode()) {
            md.append("Request body")
                    .append(body.path("required").asBoolean(false) ? " (required)" : " (optional)")
                    .append(": ");
            md.append(content(body.path("content")));
            if (body.has("description")) {
                md.append(". ").append(oneLine(body.path("description").asText()));
            }
            md.append(".\n\n");
        }
        md.append("| status | description | body |\n|---|---|---|\n");
        for (Iterator<Map.Entry<String, JsonNode>> it = op.path("responses").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode r = resolve(api, e.getValue());
            md.append("| ")
                    .append(e.getKey())
                    .append(" | ")
                    .append(cell(r.path("description").asText()))
                    .append(" | ")
                    .append(r.has("content") ? content(r.path("content")) : "—")
                    .append(" |\n");
        }
        md.append('\n');
    }

    private static void schema(StringBuilder md, JsonNode api, String name, JsonNode s) {
        md.append("### ").append(name).append("\n\n");
        if (s.has("description")) {
            md.append(oneLine(s.path("description").asText())).append("\n\n");
        }
        if (!s.has("properties")) {
            md.append("Type: ").append(type(s)).append(".\n\n");
            return;
        }
        List<String> required = new ArrayList<>();
        s.path("required").forEach(r -> required.add(r.asText()));
        md.append("| field | type | required | description |\n|---|---|---|---|\n");
        for (Iterator<Map.Entry<String, JsonNode>> it = s.path("properties").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            md.append("| `")
                    .append(e.getKey())
                    .append("` | ")
                    .append(type(e.getValue()))
                    .append(" | ")
                    .append(required.contains(e.getKey()) ? "yes" : "no")
                    .append(" | ")
                    .append(cell(e.getValue().path("description").asText()))
                    .append(" |\n");
        }
        md.append('\n');
    }

    private static String content(JsonNode content) {
        List<String> parts = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = content.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            parts.add("`" + e.getKey() + "` " + type(e.getValue().path("schema")));
        }
        return String.join(", ", parts);
    }

    /** A schema as a short type: a link to a named schema, arrays and maps of it, enums, bounds and formats. */
    static String type(JsonNode s) {
        if (s.isMissingNode() || s.isNull()) {
            return "any";
        }
        if (s.has("$ref")) {
            String name = s.path("$ref").asText().replaceAll(".*/", "");
            return "[" + name + "](#" + DocsPages.slug(name) + ")";
        }
        for (String combinator : List.of("oneOf", "anyOf", "allOf")) {
            if (s.has(combinator)) {
                List<String> parts = new ArrayList<>();
                s.path(combinator).forEach(x -> parts.add(type(x)));
                return (combinator.equals("allOf") ? "all of " : "one of ") + String.join(", ", parts);
            }
        }
        String t =
                s.path("type").isArray() ? join(s.path("type")) : s.path("type").asText("any");
        String out;
        if (t.equals("array")) {
            out = "array of " + type(s.path("items"));
        } else if (t.equals("object")
                && s.has("additionalProperties")
                && s.path("additionalProperties").isObject()) {
            out = "map of " + type(s.path("additionalProperties"));
        } else {
            out = t;
        }
        if (s.has("enum")) {
            List<String> values = new ArrayList<>();
            s.path("enum").forEach(v -> values.add("`" + v.asText() + "`"));
            out += ": " + String.join(" \\| ", values);
        }
        if (s.has("format")) {
            out += " (" + s.path("format").asText() + ")";
        }
        List<String> bounds = new ArrayList<>();
        for (String b : List.of(
                "minimum",
                "exclusiveMinimum",
                "maximum",
                "exclusiveMaximum",
                "minLength",
                "maxLength",
                "minItems",
                "maxItems")) {
            if (s.has(b) && !s.path(b).isBoolean()) {
                bounds.add(b + " " + s.path(b).asText());
            }
        }
        if (s.has("default")) {
            bounds.add("default " + s.path("default").toString());
        }
        if (!bounds.isEmpty()) {
            out += " (" + String.join(", ", bounds) + ")";
        }
        return out;
    }

    private static String join(JsonNode types) {
        List<String> parts = new ArrayList<>();
        types.forEach(t -> parts.add(t.asText()));
        return String.join(" or ", parts);
    }

    private static JsonNode resolve(JsonNode api, JsonNode node) {
        JsonNode n = node;
        for (int i = 0; i < 8 && n.has("$ref"); i++) {
            String ref = n.path("$ref").asText();
            if (!ref.startsWith("#/")) {
                throw new AssertionError("only local references are rendered: " + ref);
            }
            n = api.at(ref.substring(1));
        }
        return n;
    }

    private static String oneLine(String text) {
        return text.replaceAll("\\s*\\n\\s*", " ").trim();
    }

    private static String cell(String text) {
        String t = oneLine(text).replace("|", "\\|");
        return t.isEmpty() ? "—" : t;
    }
}

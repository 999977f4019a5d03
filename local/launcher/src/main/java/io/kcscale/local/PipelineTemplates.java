package io.kcscale.local;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.Map;

/** The pipeline's index definition and connector configurations from {@code configs/}, filled in. */
public final class PipelineTemplates {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final InstallLayout layout;

    public PipelineTemplates(InstallLayout layout) {
        this.layout = layout;
    }

    /** The stock trades' index definition ({@code configs/elasticsearch/stocks-index.json}) with {@code shards} primaries, no replicas. */
    public String indexDefinition(int shards) {
        return ConfigTemplate.load(layout.configs().resolve("elasticsearch/stocks-index.json"))
                .render(Map.of("SHARDS", String.valueOf(shards), "REPLICAS", "0"));
    }

    /** A connector configuration from {@code configs/connectors/}, filled in. */
    public Map<String, String> connectorConfig(String file, Map<String, String> values) {
        String json = ConfigTemplate.load(layout.configs().resolve("connectors/" + file))
                .render(values);
        try {
            return JSON.readValue(json, new TypeReference<Map<String, String>>() {});
        } catch (IOException e) {
            throw new IllegalStateException("configs/connectors/" + file + " is not a JSON object of strings", e);
        }
    }
}

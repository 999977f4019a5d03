package io.kcscale.local;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** How the sink connector writes to Elasticsearch ({@code up --sink-mode}): each mode is one template in configs/connectors/. */
public enum SinkMode {
    /** One index request per record, waiting for each answer: the per-record sink the lab studies. */
    INDEX("stocks-es-sink.json"),
    /** One bulk request per batch, offsets committed only once Elasticsearch holds the documents. */
    BULK("stocks-es-sink-bulk.json");

    private final String template;

    SinkMode(String template) {
        this.template = template;
    }

    /** The connector template, in {@code configs/connectors/}. */
    public String template() {
        return template;
    }

    /** @throws IllegalArgumentException naming the flag and the modes there are */
    public static SinkMode parse(String name) {
        return Arrays.stream(values())
                .filter(m -> m.flagValue().equals(name))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("--sink-mode must be one of "
                        + Arrays.stream(values()).map(SinkMode::flagValue).collect(Collectors.joining(", ")) + ", got "
                        + name));
    }

    /** As written on the command line: {@code index}, {@code bulk}. */
    public String flagValue() {
        return name().toLowerCase(Locale.ROOT);
    }
}

package io.kcscale.connectors.datagen;

import org.apache.kafka.common.config.ConfigException;

/**
 * A {@link ConfigException} that remembers which key it is about, so {@link DatagenConnector#validate}
 * can attach a cross-field error to that key for the REST API.
 */
final class InvalidConfigException extends ConfigException {

    private final String key;

    InvalidConfigException(String key, Object value, String allowed) {
        super(key, value, allowed);
        this.key = key;
    }

    String key() {
        return key;
    }
}

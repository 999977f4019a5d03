package io.kcscale.scaler.ports;

import java.util.List;

/**
 * The index operations Elasticsearch has counted so far on some indexes, aliases and data streams (every index behind
 * each); throws when it does not answer.
 */
@FunctionalInterface
public interface IndexCounter {

    long indexTotal(List<String> indexes);
}

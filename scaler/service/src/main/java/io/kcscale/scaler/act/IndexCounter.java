package io.kcscale.scaler.act;

/** The index operations Elasticsearch has counted on an index so far; throws when it does not answer. */
@FunctionalInterface
public interface IndexCounter {

    long indexTotal(String index);
}

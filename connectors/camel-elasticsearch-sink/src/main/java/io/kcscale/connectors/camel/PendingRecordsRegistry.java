package io.kcscale.connectors.camel;

import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Connects each {@link SafeCommitSinkTask} with the {@link BulkIndexAggregation} that Camel creates
 * for it from configuration: the task registers its {@link PendingRecords} under an id and passes
 * the id to the strategy as a bean property. Both live in the plugin's one class loader.
 */
final class PendingRecordsRegistry {

    private static final Map<String, PendingRecords> REGISTERED = new ConcurrentHashMap<>();

    private PendingRecordsRegistry() {}

    static String register(PendingRecords records) {
        String id = UUID.randomUUID().toString();
        REGISTERED.put(id, records);
        return id;
    }

    static PendingRecords lookup(String id) {
        PendingRecords records = REGISTERED.get(id);
        if (records == null) {
            throw new IllegalArgumentException(
                    "no running " + SafeCommitSinkTask.class.getSimpleName() + " has id " + id
                            + ": " + BulkModeConfig.STRATEGY_BEAN + "." + SafeCommitSinkTask.PENDING_RECORDS_PROPERTY
                            + " is set by the task itself, never by hand");
        }
        return records;
    }

    static void unregister(String id) {
        REGISTERED.remove(id);
    }
}

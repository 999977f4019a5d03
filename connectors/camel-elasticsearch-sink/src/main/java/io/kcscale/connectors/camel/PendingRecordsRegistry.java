package io.kcscale.connectors.camel;

import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Connects each {@link SafeCommitSinkTask} with the {@link BulkIndexAggregation} that Camel creates
 * for it from configuration: the task registers its {@link PendingRecords} (and its {@link BulkRequestTrace})
 * under an id and passes the id to the strategy as a bean property. Both live in the plugin's one class loader.
 */
final class PendingRecordsRegistry {

    private record Registered(PendingRecords records, BulkRequestTrace trace) {}

    private static final Map<String, Registered> REGISTERED = new ConcurrentHashMap<>();

    private PendingRecordsRegistry() {}

    static String register(PendingRecords records, BulkRequestTrace trace) {
        String id = UUID.randomUUID().toString();
        REGISTERED.put(id, new Registered(records, trace));
        return id;
    }

    static PendingRecords lookup(String id) {
        return registered(id).records();
    }

    static BulkRequestTrace trace(String id) {
        return registered(id).trace();
    }

    private static Registered registered(String id) {
        Registered records = REGISTERED.get(id);
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

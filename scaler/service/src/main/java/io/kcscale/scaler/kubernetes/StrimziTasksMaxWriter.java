package io.kcscale.scaler.kubernetes;

import io.kcscale.scaler.act.WriteFence;
import io.kcscale.scaler.connect.Backoff;
import io.kcscale.scaler.ports.ConnectorResource;
import io.kcscale.scaler.ports.ConnectorResources;
import io.kcscale.scaler.ports.ScalerException;
import io.kcscale.scaler.ports.TasksMaxWriter;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Writes the task count of a connector that a KafkaConnector resource manages to that resource's
 * {@code spec.tasksMax}, which Strimzi reconciles into Connect: a tasks.max written through Connect's
 * REST API would be reverted at its next reconciliation. Connectors no resource manages are written
 * through {@code connect}. A managed connector is never written through Connect's REST API, not even
 * when the resource cannot be written, nor when Kubernetes cannot say whether one manages it.
 *
 * <p>The resource's {@code spec.tasksMax} must still be the tasks.max the scale's checks saw: a count set
 * meanwhile (by {@code kubectl edit}, KEDA or another scaler, perhaps not yet reconciled into Connect) is
 * a concurrent scale, reported rather than overwritten.
 *
 * <p>The patch carries the resourceVersion read. When another actor changed the resource meanwhile
 * (a 409), it is read again and patched again, with a bounded back-off, unless that actor changed the
 * tasks themselves: that is a concurrent scale, reported rather than overwritten.
 */
public final class StrimziTasksMaxWriter implements TasksMaxWriter {

    private static final String TASKS_MAX = "tasks.max";
    /** Strimzi leaves tasks.max out of the connector's config when spec.tasksMax is unset, so Connect's default holds. */
    private static final int CONNECT_DEFAULT_TASKS_MAX = 1;

    private final ConnectorResources resources;
    private final TasksMaxWriter connect;
    private final Backoff backoff;

    public StrimziTasksMaxWriter(ConnectorResources resources, TasksMaxWriter connect, Backoff backoff) {
        this.resources = resources;
        this.connect = connect;
        this.backoff = backoff;
    }

    @Override
    public void write(String connector, Map<String, String> seen, int tasks, WriteFence fence) {
        Optional<ConnectorResource> managed = managing(connector);
        if (managed.isEmpty()) {
            connect.write(connector, seen, tasks, fence);
            return;
        }
        ConnectorResource first = managed.get();
        String standing = String.valueOf(first.tasksMax() == null ? CONNECT_DEFAULT_TASKS_MAX : first.tasksMax());
        if (!standing.equals(seen.get(TASKS_MAX))) {
            throw new ScalerException(
                    ScalerException.Problem.CONFLICT,
                    "spec.tasksMax of " + first.describe() + " is " + standing
                            + ", not the " + seen.get(TASKS_MAX)
                            + " the scale's checks saw (another actor set it, or Strimzi has not yet"
                            + " applied it to Kafka Connect): nothing written; scale again from " + standing
                            + " if still needed");
        }
        ConnectorResource read = first;
        for (int attempt = 1; ; attempt++) {
            try {
                resources.patchTasksMax(read, tasks, fence);
                return;
            } catch (KubernetesException.Conflict e) {
                if (attempt >= backoff.maxAttempts()) {
                    throw new ScalerException(
                            ScalerException.Problem.CONFLICT,
                            first.describe() + " changed under each of " + attempt
                                    + " patches of spec.tasksMax; it is unchanged: retry when others have finished editing it");
                }
                pause(attempt);
                read = managing(connector).orElseThrow(() -> gone(first));
                if (!Objects.equals(read.tasksMax(), first.tasksMax())) {
                    throw new ScalerException(
                            ScalerException.Problem.CONFLICT,
                            "another actor set spec.tasksMax of " + first.describe()
                                    + " from " + first.tasksMax() + " to " + read.tasksMax()
                                    + " during this scale; not overwritten: "
                                    + "look at the connector again before scaling");
                }
            } catch (KubernetesException.Gone e) {
                throw gone(first);
            } catch (KubernetesException.AccessDenied e) {
                throw new ScalerException(ScalerException.Problem.REFUSED, e.getMessage() + notThroughConnect(first));
            } catch (KubernetesException.Unavailable e) {
                throw new ScalerException(
                        ScalerException.Problem.UNAVAILABLE, e.getMessage() + notThroughConnect(first));
            }
        }
    }

    @Override
    public String describe(String connector) {
        return managing(connector)
                .map(r -> "a merge patch of spec.tasksMax on " + r.describe() + " with resourceVersion "
                        + r.resourceVersion() + " as its precondition, which Strimzi applies to Kafka Connect")
                .orElseGet(() -> connect.describe(connector));
    }

    /** The resource managing the connector; a lookup that fails refuses the scale, as it might be managed. */
    private Optional<ConnectorResource> managing(String connector) {
        try {
            return resources.find(connector);
        } catch (KubernetesException e) {
            ScalerException.Problem reason = e instanceof KubernetesException.AccessDenied
                    ? ScalerException.Problem.REFUSED
                    : ScalerException.Problem.UNAVAILABLE;
            throw new ScalerException(
                    reason,
                    e.getMessage() + "; cannot tell whether a KafkaConnector in namespace "
                            + resources.namespace() + " manages " + connector
                            + ", so it is not written through Kafka Connect's REST API "
                            + "either (Strimzi would revert that)");
        }
    }

    private static ScalerException gone(ConnectorResource first) {
        return new ScalerException(
                ScalerException.Problem.GONE,
                first.describe() + " was deleted during this scale; "
                        + "the scaler does not re-create it, nor write its connector through Kafka Connect's REST API");
    }

    private static String notThroughConnect(ConnectorResource resource) {
        return "; " + resource.describe()
                + " manages this connector, so it is not written through Kafka Connect's REST API "
                + "either (Strimzi would revert that at its next reconciliation)";
    }

    private void pause(int attempt) {
        try {
            Thread.sleep(backoff.delayAfter(attempt).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ScalerException(
                    ScalerException.Problem.UNAVAILABLE,
                    "interrupted while retrying a conflicting patch; nothing was written");
        }
    }
}

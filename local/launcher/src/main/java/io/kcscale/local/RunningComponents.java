package io.kcscale.local;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.function.Consumer;

/** The components a stack has started, by name, and the order they stop in. */
public final class RunningComponents {

    private static final Duration STOP_GRACE = Duration.ofSeconds(30);

    // a shutdown hook stops the stack while the launcher's thread may still be starting it
    private final List<ChildJvm> children = Collections.synchronizedList(new ArrayList<>());

    public void add(ChildJvm child) {
        children.add(child);
    }

    /** @throws IllegalArgumentException when no component has that name */
    public ChildJvm named(String name) {
        synchronized (children) {
            return children.stream()
                    .filter(c -> c.name().equals(name))
                    .findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("no component " + name));
        }
    }

    /** Stops one component and forgets it, to start it again. */
    void stopAndForget(ChildJvm child) {
        child.stop(STOP_GRACE);
        children.remove(child);
    }

    public List<ChildJvm> list() {
        synchronized (children) {
            return List.copyOf(children);
        }
    }

    /** Stops and forgets every component, in {@link #stopInOrder} order. */
    public void stopAll(Consumer<String> progress) {
        List<ChildJvm> all;
        synchronized (children) {
            all = new ArrayList<>(children);
            children.clear();
        }
        stopInOrder(all, progress);
    }

    /**
     * The scalers (the stack's and any a caller started beside it) and then the workers first (they commit to the
     * broker and write through the sink proxy), Kafka last.
     */
    static void stopInOrder(List<ChildJvm> components, Consumer<String> progress) {
        List<ChildJvm> ordered = new ArrayList<>(components);
        // observers first: Prometheus and the scaler would only log the others going away
        ordered.sort(Comparator.comparingInt(c -> c.name().equals("scaler")
                        || c.name().startsWith("scaler-")
                        || c.name().equals(LocalPrometheus.NAME)
                ? 0
                : c.name().startsWith("connect")
                        ? 1
                        : c.name().equals("elasticsearch") || c.name().equals(SinkDelayProxy.NAME) ? 2 : 3));
        for (ChildJvm c : ordered) {
            if (c.isAlive()) {
                progress.accept("stopping " + c.name() + " (pid " + c.pid() + ")");
                c.stop(STOP_GRACE);
            }
        }
    }
}

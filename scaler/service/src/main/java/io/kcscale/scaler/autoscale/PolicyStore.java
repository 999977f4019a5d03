package io.kcscale.scaler.autoscale;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The autoscaler's policies on disk, so they survive a scaler restart. Written whole to a temporary
 * file and moved into place, so a crash leaves either the old file or the new one, never half.
 */
public final class PolicyStore {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String FILE = "autoscale-policies.json";

    private final Path file;

    public PolicyStore(Path stateDir) {
        this.file = stateDir.resolve(FILE);
    }

    public synchronized Map<String, AutoscaleSettings> load() {
        if (!Files.exists(file)) {
            return new TreeMap<>();
        }
        try {
            return JSON.readValue(file.toFile(), new TypeReference<TreeMap<String, AutoscaleSettings>>() { });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the autoscaler's policies from " + file
                    + " (fix or delete it; the connectors are not affected)", e);
        }
    }

    public synchronized void put(String connector, AutoscaleSettings policy) {
        Map<String, AutoscaleSettings> all = load();
        all.put(connector, policy);
        write(all);
    }

    public synchronized boolean remove(String connector) {
        Map<String, AutoscaleSettings> all = load();
        boolean removed = all.remove(connector) != null;
        if (removed) {
            write(all);
        }
        return removed;
    }

    private void write(Map<String, AutoscaleSettings> all) {
        try {
            Files.createDirectories(file.getParent());
            Path tmp = file.resolveSibling(FILE + ".tmp");
            JSON.writerWithDefaultPrettyPrinter().writeValue(tmp.toFile(), all);
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the autoscaler's policies to " + file, e);
        }
    }
}

package io.kcscale.scaler.service;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kcscale.scaler.autoscale.AutoscalePolicy;
import io.kcscale.scaler.ports.PolicyStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * The policies file a scaler kept in its state directory before policies moved to the state topic: moved into
 * the topic once (a connector whose policy the topic already holds keeps that one), then renamed, so that a
 * policy deleted later is not brought back by the next start.
 */
final class LegacyPolicyFile {

    static final String FILE = "autoscale-policies.json";
    static final String MOVED = FILE + ".moved-to-topic";

    private LegacyPolicyFile() {}

    /** @return how many policies were moved */
    static int moveInto(Path stateDir, PolicyStore store) {
        Path file = stateDir.resolve(FILE);
        if (!Files.exists(file)) {
            return 0;
        }
        Map<String, AutoscalePolicy> policies;
        try {
            policies = new ObjectMapper()
                    .readValue(file.toFile(), new TypeReference<TreeMap<String, AutoscalePolicy>>() {});
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot read the earlier scaler's policies from " + file + " (fix or delete it)", e);
        }
        int moved = 0;
        for (Map.Entry<String, AutoscalePolicy> p : policies.entrySet()) {
            if (store.policy(p.getKey()).isEmpty()) {
                store.put(p.getKey(), p.getValue().validated());
                moved++;
            }
        }
        try {
            Files.move(file, file.resolveSibling(MOVED));
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "moved the policies of " + file + " into the state topic, but cannot rename it", e);
        }
        return moved;
    }
}

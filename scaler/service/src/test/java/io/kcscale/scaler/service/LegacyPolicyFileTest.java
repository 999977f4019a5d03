package io.kcscale.scaler.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kcscale.scaler.autoscale.AutoscalePolicy;
import io.kcscale.scaler.loop.InMemoryPolicyStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An earlier scaler's policies file: moved into the shared store once, never over a policy the store holds. */
class LegacyPolicyFileTest {

    @Test
    void movesEachPolicyTheStoreLacksThenRenamesTheFile(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve(LegacyPolicyFile.FILE), """
                {"old-sink": {"maxTasks": 4, "targetLag": 500},
                 "kept-sink": {"maxTasks": 9, "targetLag": 500}}""");
        InMemoryPolicyStore store = new InMemoryPolicyStore();
        AutoscalePolicy kept = new AutoscalePolicy(1, 2, null, 100L, null, null, null, null, null, null).validated();
        store.put("kept-sink", kept);

        assertEquals(1, LegacyPolicyFile.moveInto(dir, store));
        assertEquals(4, store.policy("old-sink").orElseThrow().policy().maxTasks());
        assertEquals(kept, store.policy("kept-sink").orElseThrow().policy(), "the store's policy wins");
        assertFalse(Files.exists(dir.resolve(LegacyPolicyFile.FILE)));
        assertTrue(Files.exists(dir.resolve(LegacyPolicyFile.MOVED)));

        store.remove("old-sink");
        assertEquals(0, LegacyPolicyFile.moveInto(dir, store), "a later start brings back nothing deleted since");
        assertTrue(store.policy("old-sink").isEmpty());
    }

    @Test
    void anUnreadableFileIsNamedAndLeftInPlace(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve(LegacyPolicyFile.FILE), "{\"half");
        UncheckedIOException e = assertThrows(
                UncheckedIOException.class, () -> LegacyPolicyFile.moveInto(dir, new InMemoryPolicyStore()));
        assertTrue(e.getMessage().contains(LegacyPolicyFile.FILE), e.getMessage());
        assertTrue(Files.exists(dir.resolve(LegacyPolicyFile.FILE)));
    }
}

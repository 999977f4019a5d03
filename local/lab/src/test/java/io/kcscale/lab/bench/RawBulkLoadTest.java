package io.kcscale.lab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;

import org.junit.jupiter.api.Test;

class RawBulkLoadTest {

    @Test
    void idsAreShapedAsTheSinksAndNeverRepeat() {
        assertEquals("raw-0-0", RawBulkLoad.documentId(0));
        assertEquals("raw-0-499", RawBulkLoad.documentId(499));
        assertEquals("raw-1-0", RawBulkLoad.documentId(500), "the next run: the next partition");
        assertEquals("raw-0-500", RawBulkLoad.documentId(10_000), "every partition had a run: the first goes on");
        Set<String> ids = new HashSet<>();
        for (long n = 0; n < 200_000; n++) {
            assertTrue(ids.add(RawBulkLoad.documentId(n)), "id " + n + " repeats");
        }
    }
}

package io.kcscale.connectors.camel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class RetrySettingsTest {

    private static final String FLOOD = "free disk space on the data nodes past their flood-stage watermark"
            + " (cluster.routing.allocation.disk.watermark.flood_stage), lift the index's"
            + " index.blocks.read_only_allow_delete and restart the task";
    private static final String BLOCK =
            "lift the index's block (index.blocks.write or index.blocks.read_only) and restart the task";
    private static final String MORE = "raise kcscale.retry.max.attempts, lower tasks.max or grow the cluster";

    /** Reasons as the sink words them, Elasticsearch's answers quoted from 7.17, 8 and 6.x. */
    @Test
    void aBlockedOrClosedIndexIsToBeLiftedNotOutwaited() {
        String[][] cases = {
            {
                "429 Too Many Requests: cluster_block_exception: index [logs] blocked by: [TOO_MANY_REQUESTS/12/disk usage"
                        + " exceeded flood-stage watermark, index has read-only-allow-delete block];",
                FLOOD
            },
            {
                "cluster_block_exception: index [logs] blocked by: [FORBIDDEN/12/index read-only / allow delete (api)];",
                FLOOD
            },
            {"403 Forbidden: cluster_block_exception: index [logs] blocked by: [FORBIDDEN/8/index write (api)];", BLOCK
            },
            {"cluster_block_exception: index [logs] blocked by: [FORBIDDEN/5/index read-only (api)];", BLOCK},
            {"400 Bad Request: index_closed_exception: closed", "open the index and restart the task"},
            {
                "429 Too Many Requests: es_rejected_execution_exception: rejected execution of coordinating operation",
                MORE
            },
            {"503 Service Unavailable: unavailable_shards_exception: primary shard is not active", MORE},
            {"IOException: Connection refused", MORE},
            {null, MORE},
        };
        for (String[] c : cases) {
            assertEquals(c[1], RetrySettings.howToCarryOn(c[0]), c[0]);
        }
    }
}

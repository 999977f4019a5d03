package io.kcscale.lab.experiment;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.elasticsearch.client.Request;
import org.elasticsearch.client.RestClient;

/**
 * Reads each primary shard's highest sequence number every {@link #INTERVAL_MILLIS} ms while it runs,
 * into a {@link SeqNoTimeline}: the clock that tells when a document was indexed. A read costs a few
 * milliseconds ({@code _stats} answers from memory); a failed read leaves a gap, which only widens the
 * interpolation.
 */
final class IndexClock implements AutoCloseable {

    static final long INTERVAL_MILLIS = 100;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final RestClient elasticsearch;
    private final String index;
    private final SeqNoTimeline timeline = new SeqNoTimeline();
    private final ScheduledExecutorService loop = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "kcscale-index-clock");
        t.setDaemon(true);
        return t;
    });

    private IndexClock(RestClient elasticsearch, String index) {
        this.elasticsearch = elasticsearch;
        this.index = index;
    }

    static IndexClock start(RestClient elasticsearch, String index) {
        IndexClock clock = new IndexClock(elasticsearch, index);
        clock.loop.scheduleAtFixedRate(clock::mark, 0, INTERVAL_MILLIS, TimeUnit.MILLISECONDS);
        return clock;
    }

    SeqNoTimeline timeline() {
        return timeline;
    }

    private void mark() {
        Request request = new Request("GET", "/" + index + "/_stats/indexing");
        request.addParameter("level", "shards");
        request.addParameter("filter_path", "indices.*.shards.*.seq_no.max_seq_no,indices.*.shards.*.routing.primary");
        long sent = System.currentTimeMillis();
        JsonNode shards;
        try (InputStream body =
                elasticsearch.performRequest(request).getEntity().getContent()) {
            shards = JSON.readTree(body).path("indices").path(index).path("shards");
        } catch (IOException | RuntimeException e) {
            return;
        }
        // the shard read its number somewhere inside the request: its middle is the best guess
        double at = (sent + System.currentTimeMillis()) / 2.0;
        for (Iterator<Map.Entry<String, JsonNode>> it = shards.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> shard = it.next();
            for (JsonNode copy : shard.getValue()) {
                if (copy.path("routing").path("primary").asBoolean()) {
                    timeline.add(
                            Integer.parseInt(shard.getKey()),
                            at,
                            copy.path("seq_no").path("max_seq_no").asLong());
                }
            }
        }
    }

    @Override
    public void close() {
        loop.shutdownNow();
    }
}

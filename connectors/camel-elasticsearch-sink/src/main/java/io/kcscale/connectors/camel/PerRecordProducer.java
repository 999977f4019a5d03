package io.kcscale.connectors.camel;

import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.component.elasticsearch.ElasticsearchConfiguration;
import org.apache.camel.component.elasticsearch.ElasticsearchConstants;
import org.apache.camel.component.elasticsearch.ElasticsearchEndpoint;
import org.apache.camel.support.DefaultProducer;
import org.apache.http.entity.ByteArrayEntity;
import org.apache.http.entity.ContentType;
import org.elasticsearch.client.Request;

/**
 * Indexes each exchange's document (its bytes as the body, its id in header {@code indexId}) with one
 * {@code PUT /index/_doc/id} and waits for the answer, through one low-level client kept for the
 * producer's life. The stock producer builds a new high-level client, with its registry of every
 * response parser, for each document, turns the bytes into an {@code IndexRequest} and the answer into
 * an {@code IndexResponse}: most of the per-record task's CPU. A refusal fails the exchange with the
 * client's {@code ResponseException} (status and Elasticsearch's error), no answer with its
 * {@code IOException}, after at most the connect and socket timeouts of the URL.
 */
final class PerRecordProducer extends DefaultProducer {

    private final ElasticsearchConfiguration configuration;
    /** {@code /index/_doc/}: the URL names the index (the connector checks that it does). */
    private final String documentsPath;

    private SinkRestClient client;

    PerRecordProducer(ElasticsearchEndpoint endpoint, ElasticsearchConfiguration configuration) {
        super(endpoint);
        this.configuration = configuration;
        this.documentsPath = "/" + pathSegment(configuration.getIndexName()) + "/_doc/";
    }

    @Override
    public void process(Exchange exchange) throws IOException {
        Message message = exchange.getMessage();
        Object body = message.getBody();
        String id = message.getHeader(ElasticsearchConstants.PARAM_INDEX_ID, String.class);
        if (!(body instanceof byte[]) || id == null) {
            throw new IllegalArgumentException(
                    "the per-record producer indexes a document's bytes with its id in header "
                            + ElasticsearchConstants.PARAM_INDEX_ID + ", got "
                            + (body == null ? "no body" : body.getClass().getName())
                            + (id == null ? " and no id" : ""));
        }
        Request request = new Request("PUT", documentsPath + pathSegment(id));
        request.addParameter("wait_for_active_shards", String.valueOf(configuration.getWaitForActiveShards()));
        request.setEntity(new ByteArrayEntity((byte[]) body, ContentType.APPLICATION_JSON));
        // the synchronous call reads the whole answer, so the connection goes back to the pool
        client.client().performRequest(request);
    }

    /** {@code value} as one segment of a URL's path. */
    private static String pathSegment(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }

    @Override
    protected void doStart() throws Exception {
        super.doStart();
        client = SinkRestClient.of(configuration, 1);
    }

    @Override
    protected void doStop() throws Exception {
        try {
            if (client != null) {
                client.close();
            }
        } finally {
            super.doStop();
        }
    }
}

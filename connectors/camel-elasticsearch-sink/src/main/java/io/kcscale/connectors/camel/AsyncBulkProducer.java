package io.kcscale.connectors.camel;

import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.apache.camel.AsyncCallback;
import org.apache.camel.Exchange;
import org.apache.camel.component.elasticsearch.ElasticsearchConfiguration;
import org.apache.camel.component.elasticsearch.ElasticsearchEndpoint;
import org.apache.camel.support.DefaultAsyncProducer;
import org.apache.http.entity.ByteArrayEntity;
import org.apache.http.entity.ContentType;
import org.elasticsearch.client.Request;
import org.elasticsearch.client.Response;
import org.elasticsearch.client.ResponseListener;

/**
 * Sends each batch's {@link BulkBody} as one {@code _bulk} request without waiting for its answer, up
 * to a number of requests in flight, through one low-level client kept for the producer's life. The
 * stock producer waits for every answer on the aggregator's one thread (one request in flight) and
 * builds a new high-level client, with its registry of every parser, for each request; the
 * high-level client also parses every document again to write the body, and builds every item of the
 * answer into objects ({@link BulkAnswer} reads only what the task needs).
 *
 * <p>The answer ({@link BulkAnswer}, or the failure) is set on the exchange and Camel carries on from the
 * client's I/O thread, where {@link BulkCompletion} tells the task. When all requests are in flight
 * the aggregator's thread waits for one to end: at most the client's connect and socket timeouts,
 * after which the batch fails as unreachable and is sent again after a back-off.
 */
final class AsyncBulkProducer extends DefaultAsyncProducer {

    private final ElasticsearchConfiguration configuration;
    private final int maxInFlightRequests;
    private final Semaphore inFlight;
    private SinkRestClient client;

    AsyncBulkProducer(
            ElasticsearchEndpoint endpoint, ElasticsearchConfiguration configuration, int maxInFlightRequests) {
        super(endpoint);
        this.configuration = configuration;
        this.maxInFlightRequests = maxInFlightRequests;
        this.inFlight = new Semaphore(maxInFlightRequests);
    }

    @Override
    public boolean process(Exchange exchange, AsyncCallback callback) {
        Object body = exchange.getMessage().getBody();
        if (!(body instanceof BulkBody)) {
            exchange.setException(new IllegalArgumentException("the bulk producer sends bulk bodies, got "
                    + (body == null ? "nothing" : body.getClass().getName()) + ": is " + BulkModeConfig.STRATEGY_BEAN
                    + " set?"));
            callback.done(true);
            return true;
        }
        BulkRequestTrace.Request traced = BulkRequestTrace.Request.of(exchange);
        try {
            long wait = (long) configuration.getConnectionTimeout() + configuration.getSocketTimeout();
            long before = System.nanoTime();
            boolean acquired = inFlight.tryAcquire(wait, TimeUnit.MILLISECONDS);
            long slot = System.nanoTime();
            traced.slot(slot, slot - before);
            if (!acquired) {
                exchange.setException(
                        new IOException(maxInFlightRequests + " bulk requests have had no answer for " + wait + " ms"));
                callback.done(true);
                return true;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            exchange.setException(e);
            callback.done(true);
            return true;
        }
        BulkBody bulk = (BulkBody) body;
        Request request = new Request("POST", "/_bulk");
        request.setEntity(new ByteArrayEntity(bulk.bytes(), 0, bulk.length(), ContentType.APPLICATION_JSON));
        try {
            client.client().performRequestAsync(request, new ResponseListener() {
                @Override
                public void onSuccess(Response response) {
                    traced.answered(System.nanoTime());
                    try (InputStream answer = response.getEntity().getContent()) {
                        exchange.getMessage().setBody(BulkAnswer.read(answer, bulk.documents()));
                    } catch (IOException | RuntimeException e) {
                        exchange.setException(e);
                    }
                    answered();
                }

                @Override
                public void onFailure(Exception e) {
                    traced.answered(System.nanoTime());
                    exchange.setException(e);
                    answered();
                }

                private void answered() {
                    inFlight.release();
                    callback.done(false);
                }
            });
        } catch (RuntimeException e) {
            inFlight.release();
            exchange.setException(e);
            callback.done(true);
            return true;
        }
        traced.sent(System.nanoTime());
        return false;
    }

    @Override
    protected void doStart() throws Exception {
        super.doStart();
        client = SinkRestClient.of(configuration, maxInFlightRequests);
    }

    /** Closing the client ends the requests still in flight: they fail, and their records are not committed. */
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

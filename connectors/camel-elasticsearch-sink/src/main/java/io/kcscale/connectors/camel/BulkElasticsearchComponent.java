package io.kcscale.connectors.camel;

import java.util.Map;
import org.apache.camel.Endpoint;
import org.apache.camel.Producer;
import org.apache.camel.component.elasticsearch.ElasticsearchComponent;
import org.apache.camel.component.elasticsearch.ElasticsearchConfiguration;
import org.apache.camel.component.elasticsearch.ElasticsearchEndpoint;
import org.apache.camel.spi.annotations.Component;

/**
 * Camel's {@code elasticsearch-rest} component with a producer for bulk mode: endpoints are configured
 * by the stock component from the same URL ({@code hostAddresses}, timeouts, credentials, SSL), and
 * send through {@link AsyncBulkProducer}. {@link SafeCommitSinkTask} binds it as a bean named
 * {@value #NAME} and sends to its {@code elasticsearch-rest://} URL under that scheme. (Bound under the
 * stock name it would never be found: Camel's main turns bean names with a dash into camel case.)
 */
// the stock name finds the stock component's and endpoint's configurers, which read the URL's parameters
@Component(SinkOperation.STOCK_SCHEME)
public class BulkElasticsearchComponent extends ElasticsearchComponent {

    /** The bean name, and the scheme Camel looks it up by. */
    static final String NAME = "kcscaleBulkElasticsearch";

    private int maxInFlightRequests = 1;

    /** {@code camel.beans.elasticsearch-rest.maxInFlightRequests}, set by the task from {@link InFlightSettings}. */
    public void setMaxInFlightRequests(int maxInFlightRequests) {
        if (maxInFlightRequests < 1) {
            throw new IllegalArgumentException(
                    InFlightSettings.MAX_IN_FLIGHT_REQUESTS + " must be at least 1, got " + maxInFlightRequests);
        }
        this.maxInFlightRequests = maxInFlightRequests;
    }

    @Override
    protected Endpoint createEndpoint(String uri, String remaining, Map<String, Object> parameters) throws Exception {
        ElasticsearchEndpoint configured = (ElasticsearchEndpoint) super.createEndpoint(uri, remaining, parameters);
        return new BulkEndpoint(uri, this, configured.getConfiguration(), maxInFlightRequests);
    }

    /** The stock endpoint, configured alike, with our producer. */
    static final class BulkEndpoint extends ElasticsearchEndpoint {

        private final int maxInFlightRequests;

        BulkEndpoint(
                String uri,
                ElasticsearchComponent component,
                ElasticsearchConfiguration configuration,
                int maxInFlightRequests) {
            super(uri, component, configuration, null);
            this.maxInFlightRequests = maxInFlightRequests;
        }

        @Override
        public Producer createProducer() {
            return new AsyncBulkProducer(this, getConfiguration(), maxInFlightRequests);
        }
    }
}

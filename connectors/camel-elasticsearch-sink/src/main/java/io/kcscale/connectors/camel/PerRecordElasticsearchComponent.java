package io.kcscale.connectors.camel;

import java.util.Map;
import org.apache.camel.Endpoint;
import org.apache.camel.Producer;
import org.apache.camel.component.elasticsearch.ElasticsearchComponent;
import org.apache.camel.component.elasticsearch.ElasticsearchConfiguration;
import org.apache.camel.component.elasticsearch.ElasticsearchEndpoint;
import org.apache.camel.spi.annotations.Component;

/**
 * Camel's {@code elasticsearch-rest} component with a producer for per-record mode: endpoints are
 * configured by the stock component from the same URL ({@code hostAddresses}, {@code indexName},
 * timeouts, credentials, SSL), and send through {@link PerRecordProducer}. {@link PerRecordSinkTask}
 * binds it as a bean named {@value #NAME} and sends to its URL under that scheme.
 */
// the stock name finds the stock component's and endpoint's configurers, which read the URL's parameters
@Component(SinkOperation.STOCK_SCHEME)
public class PerRecordElasticsearchComponent extends ElasticsearchComponent {

    /** The bean name, and the scheme Camel looks it up by (no dash: Camel's main turns those into camel case). */
    static final String NAME = "kcscalePerRecordElasticsearch";

    @Override
    protected Endpoint createEndpoint(String uri, String remaining, Map<String, Object> parameters) throws Exception {
        ElasticsearchEndpoint configured = (ElasticsearchEndpoint) super.createEndpoint(uri, remaining, parameters);
        return new PerRecordEndpoint(uri, this, configured.getConfiguration());
    }

    /** The stock endpoint, configured alike, with our producer. */
    static final class PerRecordEndpoint extends ElasticsearchEndpoint {

        PerRecordEndpoint(String uri, ElasticsearchComponent component, ElasticsearchConfiguration configuration) {
            super(uri, component, configuration, null);
        }

        @Override
        public Producer createProducer() {
            return new PerRecordProducer(this, getConfiguration());
        }
    }
}

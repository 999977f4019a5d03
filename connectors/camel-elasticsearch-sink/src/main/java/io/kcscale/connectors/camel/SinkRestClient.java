package io.kcscale.connectors.camel;

import java.io.IOException;
import org.apache.camel.component.elasticsearch.ElasticsearchConfiguration;
import org.apache.http.HttpHost;
import org.apache.http.auth.AuthScope;
import org.apache.http.auth.UsernamePasswordCredentials;
import org.apache.http.impl.client.BasicCredentialsProvider;
import org.elasticsearch.client.RestClient;
import org.elasticsearch.client.RestClientBuilder;
import org.elasticsearch.client.sniff.Sniffer;

/**
 * The low-level client a producer of ours keeps for its life, made as Camel's producer makes it from the
 * endpoint's configuration (hosts, connect and socket timeouts, credentials, the sniffer), with a
 * connection for each request in flight. Closing it ends the requests still in flight.
 */
final class SinkRestClient implements AutoCloseable {

    private final RestClient client;
    private final Sniffer sniffer;

    private SinkRestClient(RestClient client, Sniffer sniffer) {
        this.client = client;
        this.sniffer = sniffer;
    }

    static SinkRestClient of(ElasticsearchConfiguration configuration, int maxInFlightRequests) {
        RestClientBuilder builder =
                RestClient.builder(configuration.getHostAddressesList().toArray(new HttpHost[0]));
        builder.setRequestConfigCallback(request -> request.setConnectTimeout(configuration.getConnectionTimeout())
                .setSocketTimeout(configuration.getSocketTimeout()));
        builder.setHttpClientConfigCallback(http -> {
            if (configuration.getUser() != null && configuration.getPassword() != null) {
                BasicCredentialsProvider credentials = new BasicCredentialsProvider();
                credentials.setCredentials(
                        AuthScope.ANY,
                        new UsernamePasswordCredentials(configuration.getUser(), configuration.getPassword()));
                http.setDefaultCredentialsProvider(credentials);
            }
            int connections = Math.max(maxInFlightRequests, 10);
            return http.setMaxConnPerRoute(connections)
                    .setMaxConnTotal(
                            connections * configuration.getHostAddressesList().size());
        });
        RestClient client = builder.build();
        Sniffer sniffer = configuration.isEnableSniffer()
                ? Sniffer.builder(client)
                        .setSniffIntervalMillis(configuration.getSnifferInterval())
                        .setSniffAfterFailureDelayMillis(configuration.getSniffAfterFailureDelay())
                        .build()
                : null;
        return new SinkRestClient(client, sniffer);
    }

    RestClient client() {
        return client;
    }

    @Override
    public void close() throws IOException {
        try {
            if (sniffer != null) {
                sniffer.close();
            }
        } finally {
            client.close();
        }
    }
}

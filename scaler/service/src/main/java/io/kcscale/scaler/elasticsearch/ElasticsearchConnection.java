package io.kcscale.scaler.elasticsearch;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.json.jackson.JacksonJsonpMapper;
import co.elastic.clients.transport.rest_client.RestClientTransport;
import java.io.IOException;
import java.net.URI;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import org.apache.http.Header;
import org.apache.http.HttpHost;
import org.apache.http.message.BasicHeader;
import org.elasticsearch.client.RestClient;
import org.elasticsearch.client.RestClientBuilder;

/** Opens an {@link ElasticsearchClient} on one URL, with timeouts, and closes its transport. */
public final class ElasticsearchConnection implements AutoCloseable {

    private final URI url;
    private final RestClient rest;
    private final RestClientTransport transport;
    private final ElasticsearchClient client;

    public ElasticsearchConnection(URI url, int timeoutMillis) {
        this(url, timeoutMillis, Optional.empty(), null);
    }

    /**
     * @param authorization an {@code Authorization} header value (basic auth or {@code ApiKey ...}), if any
     * @param tls           the TLS context for an https URL, or null for the JVM's default
     */
    public ElasticsearchConnection(URI url, int timeoutMillis, Optional<String> authorization, SSLContext tls) {
        this.url = url;
        RestClientBuilder builder = RestClient.builder(new HttpHost(url.getHost(), url.getPort(), url.getScheme()))
                .setRequestConfigCallback(
                        c -> c.setConnectTimeout(timeoutMillis).setSocketTimeout(timeoutMillis));
        authorization.ifPresent(a -> builder.setDefaultHeaders(new Header[] {new BasicHeader("Authorization", a)}));
        if (tls != null) {
            builder.setHttpClientConfigCallback(http -> http.setSSLContext(tls));
        }
        this.rest = builder.build();
        this.transport = new RestClientTransport(rest, new JacksonJsonpMapper());
        this.client = new ElasticsearchClient(transport);
    }

    public URI url() {
        return url;
    }

    public ElasticsearchClient client() {
        return client;
    }

    /**
     * The low-level client under {@link #client()}, for the calls whose typed responses do not parse
     * against Elasticsearch 7.17 (cluster health, index stats: fields 8.x made required are absent).
     */
    public RestClient restClient() {
        return rest;
    }

    @Override
    public void close() throws IOException {
        transport.close();
    }
}

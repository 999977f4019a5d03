package io.kcscale.connectors.camel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kcscale.connectors.camel.RequestFailure.Kind;
import java.net.ConnectException;
import org.elasticsearch.ElasticsearchStatusException;
import org.elasticsearch.rest.RestStatus;
import org.junit.jupiter.api.Test;

class RequestFailureTest {

    @Test
    void overloadFailuresAndNoAnswerAreWorthAnotherSend() {
        assertEquals(
                new RequestFailure("429 Too Many Requests: busy", Kind.FOR_NOW),
                RequestFailure.of(new ElasticsearchStatusException("busy", RestStatus.TOO_MANY_REQUESTS)));
        assertEquals(
                new RequestFailure("503 Service Unavailable: down", Kind.FOR_NOW),
                RequestFailure.of(new IllegalStateException(
                        new ElasticsearchStatusException("down", RestStatus.SERVICE_UNAVAILABLE))));
        assertEquals(
                new RequestFailure("ConnectException: Connection refused", Kind.FOR_NOW),
                RequestFailure.of(new ConnectException("Connection refused")));
    }

    @Test
    void onlyAnAnswerAboutTheDocumentsContentBlamesTheDocument() {
        assertEquals(
                new RequestFailure(
                        "400 Bad Request: Elasticsearch exception [type=mapper_parsing_exception, reason=failed to parse]",
                        Kind.DOCUMENT),
                RequestFailure.of(new ElasticsearchStatusException(
                        "Elasticsearch exception [type=mapper_parsing_exception, reason=failed to parse]",
                        RestStatus.BAD_REQUEST)));
        assertEquals(Kind.DOCUMENT, RequestFailure.kind(409, "version_conflict_engine_exception"));
    }

    /** Closing an index for 30 s once sent 3,035 records to the dead-letter topic: it now waits. */
    @Test
    void aClosedOrBlockedIndexIsWaitedFor() {
        assertEquals(
                Kind.FOR_NOW,
                RequestFailure.of(new ElasticsearchStatusException(
                                "Elasticsearch exception [type=index_closed_exception, reason=closed]",
                                RestStatus.BAD_REQUEST))
                        .kind());
        assertEquals(Kind.FOR_NOW, RequestFailure.kind(403, "cluster_block_exception"));
        assertEquals(
                "index_closed_exception",
                RequestFailure.errorType(
                        "method [POST], host [http://127.0.0.1:9200], URI [/_bulk], "
                                + "status line [HTTP/1.1 400 Bad Request]\n{\"error\":{\"root_cause\":[{\"type\":\"index_closed_exception\"}]}}"));
    }

    @Test
    void credentialsAMissingIndexAndATooLargeRequestStopTheTaskSayingWhatToChange() {
        assertEquals(
                new RequestFailure(
                        "401 Unauthorized: unable to authenticate; check the credentials in camel.sink.url and that "
                                + "its user may write to the index",
                        Kind.OPERATIONAL),
                RequestFailure.of(new ElasticsearchStatusException("unable to authenticate", RestStatus.UNAUTHORIZED)));
        assertEquals(Kind.OPERATIONAL, RequestFailure.kind(403, "security_exception"));
        assertEquals(Kind.OPERATIONAL, RequestFailure.kind(404, "index_not_found_exception"));
        assertEquals(
                new RequestFailure(
                        "413 Request Entity Too Large: big; lower kcscale.bulk.max.bytes below Elasticsearch's "
                                + "http.max_content_length",
                        Kind.OPERATIONAL),
                RequestFailure.of(new ElasticsearchStatusException("big", RestStatus.REQUEST_ENTITY_TOO_LARGE)));
        assertEquals(
                new RequestFailure("IllegalArgumentException: no", Kind.OPERATIONAL),
                RequestFailure.of(new IllegalArgumentException("no")));
        assertEquals(new RequestFailure("unknown failure", Kind.OPERATIONAL), RequestFailure.of(null));
    }

    /** 408 Request Timeout: Elasticsearch, or a proxy in front of it, ran out of time; another send may not. */
    @Test
    void aRequestTimeoutIsWorthAnotherSend() {
        assertEquals(
                new RequestFailure("408 Request Timeout: slow", Kind.FOR_NOW),
                RequestFailure.of(new ElasticsearchStatusException("slow", RestStatus.REQUEST_TIMEOUT)));
        assertEquals(Kind.FOR_NOW, RequestFailure.kind(408, null));
        assertEquals(Kind.FOR_NOW, RequestFailure.kind(408, "timeout_exception"));
    }
}

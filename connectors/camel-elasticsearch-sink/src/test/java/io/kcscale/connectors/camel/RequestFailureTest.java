package io.kcscale.connectors.camel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.ConnectException;

import org.elasticsearch.ElasticsearchStatusException;
import org.elasticsearch.rest.RestStatus;
import org.junit.jupiter.api.Test;

class RequestFailureTest {

    @Test
    void overloadFailuresAndNoAnswerAreWorthAnotherSend() {
        assertEquals(new RequestFailure("429 Too Many Requests: busy", true),
                RequestFailure.of(new ElasticsearchStatusException("busy", RestStatus.TOO_MANY_REQUESTS)));
        assertEquals(new RequestFailure("503 Service Unavailable: down", true),
                RequestFailure.of(new IllegalStateException(new ElasticsearchStatusException("down", RestStatus.SERVICE_UNAVAILABLE))));
        assertEquals(new RequestFailure("ConnectException: Connection refused", true), RequestFailure.of(new ConnectException("Connection refused")));
    }

    @Test
    void otherAnswersWouldComeAgain() {
        assertEquals(new RequestFailure("400 Bad Request: malformed", false),
                RequestFailure.of(new ElasticsearchStatusException("malformed", RestStatus.BAD_REQUEST)));
        assertEquals(new RequestFailure("413 Request Entity Too Large: big", false),
                RequestFailure.of(new ElasticsearchStatusException("big", RestStatus.REQUEST_ENTITY_TOO_LARGE)));
        assertEquals(new RequestFailure("IllegalArgumentException: no", false), RequestFailure.of(new IllegalArgumentException("no")));
        assertEquals(new RequestFailure("unknown failure", false), RequestFailure.of(null));
    }
}

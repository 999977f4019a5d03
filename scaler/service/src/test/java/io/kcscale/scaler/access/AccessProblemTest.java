package io.kcscale.scaler.access;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.security.cert.CertPathBuilderException;
import java.util.Optional;
import java.util.Set;
import javax.net.ssl.SSLHandshakeException;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.junit.jupiter.api.Test;

class AccessProblemTest {

    private static final URI URL = URI.create("https://connect.example:8083");

    @Test
    void kafkaLoginTrustAndAclsEachSayWhatToChange() {
        assertTrue(
                AccessProblem.kafka(new IllegalStateException(new SaslAuthenticationException("Authentication failed")))
                        .orElseThrow()
                        .contains("check kafka.sasl.jaas.config"));
        assertTrue(AccessProblem.kafka(new SslAuthenticationException("SSL handshake failed", untrusted()))
                .orElseThrow()
                .contains("set kafka.ssl.truststore.location"));
        assertTrue(
                AccessProblem.kafka(new SslAuthenticationException(
                                "SSL handshake failed",
                                new SSLHandshakeException(
                                        "No subject alternative names matching IP address 10.0.0.1 found")))
                        .orElseThrow()
                        .contains("No subject alternative names"),
                "not a trust problem: the cause is named instead");
        assertEquals(
                Optional.of(
                        "Kafka denied the scaler access to topic stocks: grant its principal the ACLs Describe and Read on the topic"),
                AccessProblem.kafka(new TopicAuthorizationException(Set.of("stocks"))));
        assertTrue(AccessProblem.kafka(new GroupAuthorizationException("denied", "connect-sink"))
                .orElseThrow()
                .contains("Describe on the group"));
        assertEquals(
                Optional.empty(),
                AccessProblem.kafka(new TimeoutException("no answer")),
                "a slow broker is not the user's to fix");
    }

    @Test
    void httpSystemsNameTheirSettingsKeys() {
        assertEquals(
                Optional.of("Kafka Connect at " + URL
                        + " refused the scaler's credentials (HTTP 401): check connect.username"
                        + " and connect.password"),
                AccessProblem.connect(URL, 401, null));
        assertTrue(AccessProblem.elasticsearch(URL, 403, null).orElseThrow().contains("monitor on the sink's index"));
        assertTrue(AccessProblem.elasticsearch(URL, -1, new IOException("handshake", untrusted()))
                .orElseThrow()
                .contains("does not trust: set tls.truststore"));
        assertEquals(Optional.empty(), AccessProblem.connect(URL, 500, null));
        assertEquals(Optional.empty(), AccessProblem.connect(URL, -1, new ConnectException("Connection refused")));
    }

    private static IOException untrusted() {
        SSLHandshakeException e = new SSLHandshakeException("PKIX path building failed");
        e.initCause(new CertPathBuilderException("unable to find valid certification path to requested target"));
        return e;
    }
}

package io.kcscale.scaler.access;

import java.net.URI;
import java.security.cert.CertPathBuilderException;
import java.security.cert.CertPathValidatorException;
import java.util.Optional;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;

/**
 * One line for a failure the user fixes in the scaler's settings or the system's permissions, not by
 * waiting: refused credentials, a certificate the scaler does not trust, a missing ACL or privilege.
 * Each line names the system and the settings key or grant that fixes it; none repeats a secret
 * (the exceptions it reads carry none). Empty for any other failure (a system down, a timeout).
 */
public final class AccessProblem {

    private static final String TRUST =
            " presented a certificate the scaler does not trust: set %s to a truststore holding"
                    + " the CA that signed it (and %s)";

    private AccessProblem() {}

    /** A failure of a Kafka client (Admin or consumer), anywhere in {@code error}'s causes. */
    public static Optional<String> kafka(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t instanceof SaslAuthenticationException) {
                return Optional.of("Kafka refused the scaler's SASL login (wrong user name, password or mechanism):"
                        + " check kafka.sasl.jaas.config and kafka.sasl.mechanism");
            }
            if (t instanceof SslAuthenticationException) {
                return Optional.of(
                        untrusted(t)
                                ? String.format(
                                        "Kafka" + TRUST,
                                        "kafka.ssl.truststore.location",
                                        "kafka.ssl.truststore.password, kafka.ssl.truststore.type")
                                : "Kafka's TLS handshake failed (" + rootMessage(t)
                                        + "): check the kafka.ssl.* settings");
            }
            if (t instanceof TopicAuthorizationException denied) {
                return Optional.of(
                        "Kafka denied the scaler access to topic " + String.join(", ", denied.unauthorizedTopics())
                                + ": grant its principal the ACLs Describe and Read on the topic");
            }
            if (t instanceof GroupAuthorizationException denied) {
                String group = denied.groupId() != null ? denied.groupId() : "(" + denied.getMessage() + ")";
                return Optional.of("Kafka denied the scaler access to consumer group " + group
                        + ": grant its principal the ACL Describe on the group");
            }
            if (t instanceof ClusterAuthorizationException) {
                return Optional.of(
                        "Kafka denied the scaler a cluster request: grant its principal the ACL Describe on the cluster");
            }
        }
        return Optional.empty();
    }

    /** Kafka Connect at {@code url} answered {@code status}, or failed with {@code error} (null when it answered). */
    public static Optional<String> connect(URI url, int status, Throwable error) {
        return http(
                "Kafka Connect at " + withoutTrailingSlash(url),
                status,
                error,
                "connect.username and connect.password",
                "give connect.username access to the REST API",
                "tls.truststore",
                "tls.truststore.password");
    }

    /** Elasticsearch at {@code url} answered {@code status}, or failed with {@code error} (null when it answered). */
    public static Optional<String> elasticsearch(URI url, int status, Throwable error) {
        return http(
                "Elasticsearch at " + withoutTrailingSlash(url),
                status,
                error,
                "elasticsearch.api.key, or elasticsearch.username and elasticsearch.password",
                "give the scaler's user the privileges monitor on the cluster and monitor on the sink's index",
                "tls.truststore",
                "tls.truststore.password");
    }

    private static Optional<String> http(
            String system,
            int status,
            Throwable error,
            String credentialKeys,
            String grant,
            String truststoreKey,
            String truststorePasswordKey) {
        if (status == 401) {
            return Optional.of(system + " refused the scaler's credentials (HTTP 401): check " + credentialKeys);
        }
        if (status == 403) {
            return Optional.of(system + " denied the scaler's request (HTTP 403): " + grant);
        }
        if (error != null && untrusted(error)) {
            return Optional.of(String.format(system + TRUST, truststoreKey, truststorePasswordKey));
        }
        if (error != null && hasCause(error, SSLException.class)) {
            return Optional.of(system + ": the TLS handshake failed (" + rootMessage(error)
                    + "): check its URL's scheme and port, and " + truststoreKey);
        }
        return Optional.empty();
    }

    /** The URL as a user writes it in the settings (clients keep a trailing slash to resolve paths against). */
    private static String withoutTrailingSlash(URI url) {
        String text = url.toString();
        return text.endsWith("/") ? text.substring(0, text.length() - 1) : text;
    }

    /** Whether the peer's certificate chain did not lead to a trusted CA (the JDK's PKIX checks, Kafka's handshake). */
    private static boolean untrusted(Throwable error) {
        return hasCause(error, CertPathBuilderException.class)
                || hasCause(error, CertPathValidatorException.class)
                || (hasCause(error, SSLHandshakeException.class)
                        && rootMessage(error).contains("certification path"));
    }

    private static boolean hasCause(Throwable error, Class<? extends Throwable> type) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }

    private static String rootMessage(Throwable error) {
        Throwable root = error;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return String.valueOf(root.getMessage());
    }
}

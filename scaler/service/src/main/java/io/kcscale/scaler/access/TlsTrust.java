package io.kcscale.scaler.access;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/** A TLS context that trusts the certificates of one truststore (PKCS12 or JKS). */
public final class TlsTrust {

    private TlsTrust() {}

    public static SSLContext fromTruststore(Path truststore, String password) {
        try (InputStream in = Files.newInputStream(truststore)) {
            KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
            store.load(in, password == null ? null : password.toCharArray());
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(store);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trust.getTrustManagers(), null);
            return context;
        } catch (Exception e) {
            throw new IllegalArgumentException(
                    "cannot use truststore " + truststore + " (tls.truststore): " + e.getMessage(), e);
        }
    }
}

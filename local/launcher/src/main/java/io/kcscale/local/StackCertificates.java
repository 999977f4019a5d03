package io.kcscale.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A certificate authority made for one stack, and a certificate it signed for the loopback address
 * ({@code IP:127.0.0.1}, {@code DNS:localhost}): PEM files for nginx, a PKCS12 keystore for the broker
 * and the Connect worker, a PKCS12 truststore holding the CA for every client. Made with {@code openssl}
 * and the JDK's {@code keytool}, which are on the machine anyway: the JDK has no public API to sign a
 * certificate, and no library for it is on the classpath.
 *
 * @param storePassword the password of both stores, also in {@code passwordFile} (never on a command line)
 */
public record StackCertificates(Path caCertificate, Path certificate, Path certificateKey, Path keystore,
                                Path truststore, String storePassword, Path passwordFile) {

    private static final Duration TOOL_TIMEOUT = Duration.ofSeconds(60);

    /** Makes every file in {@code dir} (created), with {@code password} for the stores. */
    public static StackCertificates make(Path dir, String password) {
        try {
            Files.createDirectories(dir);
            Path passwordFile = Secrets.write(dir.resolve("store-password"), password);
            Path caKey = dir.resolve("ca.key");
            Path ca = dir.resolve("ca.pem");
            Path key = dir.resolve("server.key");
            Path request = dir.resolve("server.csr");
            Path certificate = dir.resolve("server.pem");
            Path extensions = Files.writeString(dir.resolve("server.ext"),
                    "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth,clientAuth\n");
            Path keystore = dir.resolve("keystore.p12");
            Path truststore = dir.resolve("truststore.p12");
            run(dir, "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "7", "-subj", "/CN=kcscale test CA",
                    "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
                    "-keyout", caKey.toString(), "-out", ca.toString());
            run(dir, "openssl", "req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1",
                    "-keyout", key.toString(), "-out", request.toString());
            run(dir, "openssl", "x509", "-req", "-in", request.toString(), "-CA", ca.toString(), "-CAkey", caKey.toString(),
                    "-CAcreateserial", "-days", "7", "-extfile", extensions.toString(), "-out", certificate.toString());
            run(dir, "openssl", "pkcs12", "-export", "-in", certificate.toString(), "-inkey", key.toString(),
                    "-certfile", ca.toString(), "-name", "server", "-passout", "file:" + passwordFile, "-out", keystore.toString());
            run(dir, "keytool", "-importcert", "-noprompt", "-alias", "kcscale-test-ca", "-file", ca.toString(),
                    "-storetype", "PKCS12", "-keystore", truststore.toString(), "-storepass:file", passwordFile.toString());
            return new StackCertificates(ca, certificate, key, keystore, truststore, password, passwordFile);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the stack's certificates in " + dir, e);
        }
    }

    private static void run(Path dir, String... command) {
        List<String> program = new ArrayList<>(List.of(command));
        if (program.get(0).equals("keytool")) {
            // the JDK running this launcher, not whichever keytool the PATH finds first
            program.set(0, Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        }
        try {
            Path output = Files.createTempFile(dir, "tool", ".log");
            Process p = new ProcessBuilder(program).directory(dir.toFile()).redirectErrorStream(true)
                    .redirectOutput(output.toFile()).start();
            if (!p.waitFor(TOOL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                throw new StackStartException(command[0] + " did not finish within " + TOOL_TIMEOUT.toSeconds() + " s", null);
            }
            String log = Files.readString(output);
            Files.delete(output);
            if (p.exitValue() != 0) {
                throw new StackStartException(String.join(" ", command[0], command[1]) + " failed (exit " + p.exitValue() + "):\n" + log, null);
            }
        } catch (IOException e) {
            throw new StackStartException("cannot run " + command[0] + " (Debian: apt-get install openssl): " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StackStartException("interrupted running " + command[0], e);
        }
    }
}

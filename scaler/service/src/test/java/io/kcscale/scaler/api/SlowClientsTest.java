package io.kcscale.scaler.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kcscale.scaler.poll.Poll;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Clients that send part of a request and then wait must neither starve {@code GET /metrics} nor hold
 * the server for ever: a real server on a free port, raw sockets on loopback.
 */
class SlowClientsTest {

    private static final InetSocketAddress LOOPBACK = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
    /** Bounds the measurement: a few hundred requests, or this long, whichever ends first. */
    private static final int PROBES = 300;

    private static final Duration MEASURING = Duration.ofSeconds(5);
    private static final Duration CUT_OFF_SLACK = Duration.ofSeconds(5);

    @ParameterizedTest(name = "{0} slow clients")
    @ValueSource(ints = {4, 50})
    void metricsAnswerWithinASecondWhileSlowClientsHangAndTheyAreCutOff(int slowClients) throws IOException {
        try (ApiServer api = ApiServer.start(LOOPBACK)) {
            List<SlowClient> slow = new ArrayList<>();
            try {
                for (int i = 0; i < slowClients; i++) {
                    slow.add(SlowClient.open(api.address(), i));
                }
                List<Long> millis = new ArrayList<>();
                long end = System.nanoTime() + MEASURING.toNanos();
                while (millis.size() < PROBES && System.nanoTime() < end) {
                    long started = System.nanoTime();
                    RawHttp answer = RawHttp.get(api.address(), MetricsRoutes.PATH);
                    millis.add((System.nanoTime() - started) / 1_000_000);
                    assertEquals(200, answer.status(), answer.body());
                }
                long p99 = percentile(millis, 0.99);
                System.out.printf(
                        "[measure] GET /metrics with %d slow clients: %d requests, p50 %d ms, p99 %d ms, max %d ms%n",
                        slowClients, millis.size(), percentile(millis, 0.5), p99, percentile(millis, 1));
                assertTrue(p99 < 1_000, "p99 of GET /metrics is " + p99 + " ms with " + slowClients + " slow clients");
                for (SlowClient client : slow) {
                    assertTrue(
                            client.open(),
                            "a slow client was cut off before the request time limit: the test measured nothing");
                }
                for (SlowClient client : slow) {
                    Duration held = client.awaitCutOff(
                            Duration.ofSeconds(ApiServer.REQUEST_SECONDS).plus(CUT_OFF_SLACK));
                    assertTrue(
                            held.toSeconds() >= ApiServer.REQUEST_SECONDS - 1,
                            "cut off after " + held.toMillis() + " ms");
                }
            } finally {
                for (SlowClient client : slow) {
                    client.close();
                }
            }
        }
    }

    @Test
    void whenEveryThreadAndTheQueueAreTakenRequestsAre503WithRetryAfterUntilTheSlowClientsAreCutOff()
            throws IOException {
        try (ApiServer api = ApiServer.start(
                LOOPBACK, Optional.empty(), ApiAccess.OWN, new ApiServer.Capacity(2, 1, ApiServer.CONNECTIONS))) {
            List<SlowClient> slow = new ArrayList<>();
            try {
                for (int i = 0; i < 3; i++) {
                    slow.add(SlowClient.open(api.address(), i));
                }
                RawHttp busy = Poll.until(
                        "a 503 while every request thread is held",
                        Duration.ofSeconds(5),
                        Duration.ofMillis(50),
                        () -> Optional.of(metrics(api)).filter(answer -> answer.status() == 503));
                assertEquals(Optional.of("1"), busy.header("Retry-After"), busy.head());
                assertTrue(
                        busy.body()
                                .contains(
                                        "\"error\" : \"the scaler is answering as many requests as it can; retry in 1 second\""),
                        busy.body());
                Poll.until(
                        "a 200 once the slow clients are cut off",
                        Duration.ofSeconds(ApiServer.REQUEST_SECONDS).plus(CUT_OFF_SLACK),
                        Duration.ofMillis(200),
                        () -> Optional.of(metrics(api)).filter(answer -> answer.status() == 200));
            } finally {
                for (SlowClient client : slow) {
                    client.close();
                }
            }
        }
    }

    /** Jetty's idle timeout never fires for a client that sends a byte a second: the body must still arrive whole in time. */
    @Test
    void aBodyTrickledByteByByteIsCutOffAtTheRequestTimeLimit() throws IOException {
        ScheduledExecutorService pacer = Executors.newSingleThreadScheduledExecutor();
        try (ApiServer api = ApiServer.start(LOOPBACK);
                SlowClient client = SlowClient.trickling(api.address())) {
            pacer.scheduleAtFixedRate(
                    () -> {
                        try {
                            client.sendByte();
                        } catch (IOException cutOff) {
                            throw new UncheckedIOException(cutOff); // ends the pacing
                        }
                    },
                    1,
                    1,
                    TimeUnit.SECONDS);
            Duration held = client.awaitCutOff(
                    Duration.ofSeconds(ApiServer.REQUEST_SECONDS).plus(CUT_OFF_SLACK));
            assertTrue(held.toSeconds() >= ApiServer.REQUEST_SECONDS - 1, "cut off after " + held.toMillis() + " ms");
        } finally {
            pacer.shutdownNow();
        }
    }

    @Test
    void pastTheConnectionLimitANewClientIsServedOnlyOnceAnotherCloses() throws IOException {
        int limit = 8;
        try (ApiServer api =
                ApiServer.start(LOOPBACK, Optional.empty(), ApiAccess.OWN, new ApiServer.Capacity(2, 1, limit))) {
            List<Socket> held = new ArrayList<>();
            try {
                for (int i = 0; i < limit; i++) {
                    Socket socket = new Socket();
                    held.add(socket);
                    socket.connect(api.address(), 5_000);
                    assertTrue(getHealth(socket, 5_000), "connection " + i + " below the limit was not served");
                }
                try (Socket waiting = new Socket()) {
                    waiting.connect(
                            api.address(), 5_000); // the kernel's backlog takes it; Jetty does not accept it yet
                    assertTrue(!getHealth(waiting, 1_000), "a connection past the limit was served");
                    held.get(0).close();
                    assertTrue(readsAnswer(waiting, 5_000), "a waiting connection was not served once another closed");
                }
            } finally {
                for (Socket socket : held) {
                    socket.close();
                }
            }
        }
    }

    /** Sends GET /healthz on a kept-alive connection: true when an answer begins within {@code millis}. */
    private static boolean getHealth(Socket socket, int millis) throws IOException {
        socket.getOutputStream()
                .write(("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:" + socket.getPort() + "\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
        return readsAnswer(socket, millis);
    }

    private static boolean readsAnswer(Socket socket, int millis) throws IOException {
        socket.setSoTimeout(millis);
        try {
            byte[] status = socket.getInputStream().readNBytes(12);
            return new String(status, StandardCharsets.US_ASCII).equals("HTTP/1.1 200");
        } catch (SocketTimeoutException e) {
            return false;
        }
    }

    private static RawHttp metrics(ApiServer api) {
        try {
            return RawHttp.get(api.address(), MetricsRoutes.PATH);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The nearest-rank percentile: the smallest value at least {@code q} of the values do not exceed. */
    private static long percentile(List<Long> values, double q) {
        List<Long> sorted = values.stream().sorted().toList();
        return sorted.get(Math.max(0, (int) Math.ceil(q * sorted.size()) - 1));
    }
}

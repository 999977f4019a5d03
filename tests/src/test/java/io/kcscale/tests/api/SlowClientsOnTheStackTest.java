package io.kcscale.tests.api;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kcscale.local.LocalStack;
import io.kcscale.local.StackOptions;
import io.kcscale.scaler.api.ApiServer;
import io.kcscale.tests.fixtures.SharedStack;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The scaler that {@code up} starts, connected to the real stack, while 50 clients hang mid-request:
 * metrics and a connector's status answer within a second (p99), and the stalled clients are cut off.
 */
@Order(6)
@ExtendWith(SharedStack.class)
class SlowClientsOnTheStackTest {

    private static final int STALLED = 50;
    private static final int CALLS = 100;
    private static final Duration CUT_OFF_SLACK = Duration.ofSeconds(5);

    @Test
    void metricsAndStatusAnswerWhileFiftyClientsHangAndTheHangersAreCutOff(LocalStack stack) throws Exception {
        URI scaler = stack.endpoints().scalerUrl();
        List<Socket> stalled = new ArrayList<>();
        long opened = System.nanoTime();
        try {
            for (int i = 0; i < STALLED; i++) {
                Socket socket = new Socket(scaler.getHost(), scaler.getPort());
                // headers that announce a body, then silence
                socket.getOutputStream()
                        .write(("POST /api/v1/predict/tasks HTTP/1.1\r\nHost: " + scaler.getHost() + ":"
                                        + scaler.getPort()
                                        + "\r\nContent-Type: application/json\r\nContent-Length: 99\r\n\r\n")
                                .getBytes(StandardCharsets.US_ASCII));
                stalled.add(socket);
            }
            for (String path : List.of("/metrics", "/api/v1/connectors/" + StackOptions.SINK_CONNECTOR)) {
                List<Long> millis = new ArrayList<>();
                for (int i = 0; i < CALLS; i++) {
                    long started = System.nanoTime();
                    String answer = getOnANewConnection(scaler, path);
                    millis.add((System.nanoTime() - started) / 1_000_000);
                    assertTrue(answer.startsWith("HTTP/1.1 200 "), answer);
                }
                List<Long> sorted = millis.stream().sorted().toList();
                long p99 = sorted.get((int) Math.ceil(0.99 * sorted.size()) - 1);
                System.out.printf(
                        "[measure] GET %s of the scaler that up starts, %d clients hanging: p50 %d ms, p99 %d ms, max %d ms (%d calls)%n",
                        path,
                        STALLED,
                        sorted.get(sorted.size() / 2),
                        p99,
                        sorted.get(sorted.size() - 1),
                        sorted.size());
                assertTrue(p99 < 1_000, "p99 of GET " + path + " is " + p99 + " ms");
            }
            long deadline = opened
                    + Duration.ofSeconds(ApiServer.REQUEST_SECONDS)
                            .plus(CUT_OFF_SLACK)
                            .toNanos();
            for (Socket socket : stalled) {
                assertTrue(
                        closedBy(socket, deadline),
                        "a stalled client still connected " + (ApiServer.REQUEST_SECONDS + CUT_OFF_SLACK.toSeconds())
                                + " s after it stalled");
            }
        } finally {
            for (Socket socket : stalled) {
                socket.close();
            }
        }
    }

    /** The whole answer to a GET sent on a connection of its own: a keep-alive one would skip the server's accept and dispatch. */
    private static String getOnANewConnection(URI scaler, String path) throws IOException {
        try (Socket socket = new Socket(scaler.getHost(), scaler.getPort())) {
            socket.setSoTimeout(5_000);
            socket.getOutputStream()
                    .write(("GET " + path + " HTTP/1.1\r\nHost: " + scaler.getHost() + ":" + scaler.getPort()
                                    + "\r\nConnection: close\r\n\r\n")
                            .getBytes(StandardCharsets.US_ASCII));
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** Whether the server closes the connection before {@code deadline} (System.nanoTime()). */
    private static boolean closedBy(Socket socket, long deadline) throws IOException {
        InputStream in = socket.getInputStream();
        for (long left = deadline - System.nanoTime(); left > 0; left = deadline - System.nanoTime()) {
            socket.setSoTimeout((int) Math.max(1, left / 1_000_000));
            try {
                if (in.read() < 0) {
                    return true;
                }
            } catch (SocketTimeoutException e) {
                // the loop's deadline decides
            } catch (IOException reset) {
                return true;
            }
        }
        return false;
    }
}

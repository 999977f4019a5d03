package io.kcscale.scaler.api;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * A client that sends part of a request and then nothing (the slow-client attack): either headers that
 * announce a body it never sends, or headers without their closing blank line.
 */
final class SlowClient implements AutoCloseable {

    private final Socket socket = new Socket();
    private final long openedNanos = System.nanoTime();

    private SlowClient(InetSocketAddress server, String partialRequest) throws IOException {
        socket.connect(server, 5_000);
        socket.getOutputStream().write(partialRequest.getBytes(StandardCharsets.US_ASCII));
        socket.getOutputStream().flush();
    }

    /** The {@code i}-th of a crowd: even ones stall in the body, odd ones in the headers. */
    static SlowClient open(InetSocketAddress server, int i) throws IOException {
        String host = "Host: 127.0.0.1:" + server.getPort() + "\r\n";
        return new SlowClient(
                server,
                i % 2 == 0
                        ? "POST /api/v1/predict/tasks HTTP/1.1\r\n" + host
                                + "Content-Type: application/json\r\nContent-Length: 99\r\n\r\n{"
                        : "GET /metrics HTTP/1.1\r\n" + host + "User-Agent: slow");
    }

    /** One that sends headers announcing a body of 99 bytes and the body's first byte, like the even ones of {@link #open}. */
    static SlowClient trickling(InetSocketAddress server) throws IOException {
        return open(server, 0);
    }

    /** Sends one more byte of the body: a trickle keeps the connection from ever falling idle. */
    void sendByte() throws IOException {
        socket.getOutputStream().write(' ');
        socket.getOutputStream().flush();
    }

    /** True while the server keeps the connection open (a read finds nothing yet). */
    boolean open() throws IOException {
        socket.setSoTimeout(1);
        try {
            return socket.getInputStream().read() >= 0;
        } catch (SocketTimeoutException e) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** How long after it was opened the server closed the connection; fails when it is still open after {@code atMost} from then. */
    Duration awaitCutOff(Duration atMost) throws IOException {
        long deadline = openedNanos + atMost.toNanos();
        InputStream in = socket.getInputStream();
        while (true) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new AssertionError(
                        "the server still holds a slow client's connection after " + atMost.toSeconds() + " s");
            }
            socket.setSoTimeout((int) Math.max(1, left / 1_000_000));
            try {
                if (in.read() < 0) {
                    break;
                }
            } catch (SocketTimeoutException e) {
                // loop: the deadline decides
            } catch (IOException reset) {
                break;
            }
        }
        return Duration.ofNanos(System.nanoTime() - openedNanos);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}

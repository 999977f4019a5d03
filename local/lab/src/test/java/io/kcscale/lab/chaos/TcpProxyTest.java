package io.kcscale.lab.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The proxy between a client and an echo server: it forwards, a cut drops the connection and refuses new ones. */
class TcpProxyTest {

    private static String roundTrip(Socket s, String line) throws IOException {
        OutputStream out = s.getOutputStream();
        out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
        byte[] answer = new byte[line.length() + 1];
        InputStream in = s.getInputStream();
        int read = 0;
        while (read < answer.length) {
            int n = in.read(answer, read, answer.length - read);
            if (n < 0) {
                throw new IOException("closed after " + read + " bytes");
            }
            read += n;
        }
        return new String(answer, StandardCharsets.UTF_8).strip();
    }

    @Test
    void forwardsUntilCutThenDropsAndRefusesThenForwardsAgainOnceRestored() throws Exception {
        try (ServerSocket echo = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
                TcpProxy proxy = new TcpProxy(0, echo.getLocalPort())) {
            Thread server = new Thread(() -> {
                while (!echo.isClosed()) {
                    try {
                        Socket c = echo.accept();
                        Thread t = new Thread(() -> {
                            try (c) {
                                c.getInputStream().transferTo(c.getOutputStream());
                            } catch (IOException ignored) {
                                // the proxy dropped it
                            }
                        });
                        t.setDaemon(true);
                        t.start();
                    } catch (IOException e) {
                        return;
                    }
                }
            });
            server.setDaemon(true);
            server.start();

            try (Socket client = new Socket(InetAddress.getLoopbackAddress(), proxy.port())) {
                client.setSoTimeout(10_000);
                assertEquals("hello", roundTrip(client, "hello"));
                proxy.cut();
                assertThrows(IOException.class, () -> roundTrip(client, "lost"), "the connection is dropped");
            }
            try (Socket refused = new Socket(InetAddress.getLoopbackAddress(), proxy.port())) {
                refused.setSoTimeout(10_000);
                assertThrows(IOException.class, () -> roundTrip(refused, "nobody"), "a new one is closed at once");
            }
            proxy.restore();
            try (Socket again = new Socket(InetAddress.getLoopbackAddress(), proxy.port())) {
                again.setSoTimeout(10_000);
                assertEquals("back", roundTrip(again, "back"));
            }
        }
    }
}

package io.kcscale.scaler.api;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;

/**
 * One request written byte for byte on a socket: the JDK's HTTP client will not send a Host of our
 * choosing or a malformed path, and both are what these tests are about.
 */
record RawHttp(int status, String head, String body) {

    private static final int TIMEOUT_MILLIS = 10_000;

    /** Sends {@code requestHead} (request line and headers, CRLF-separated, without the blank line) and {@code body}. */
    static RawHttp send(InetSocketAddress server, String requestHead, String body) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(server, TIMEOUT_MILLIS);
            socket.setSoTimeout(TIMEOUT_MILLIS);
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            String head = requestHead + "\r\nConnection: close\r\n"
                    + (bytes.length > 0 ? "Content-Length: " + bytes.length + "\r\n" : "") + "\r\n";
            OutputStream out = socket.getOutputStream();
            out.write(head.getBytes(StandardCharsets.UTF_8));
            out.write(bytes);
            out.flush();
            InputStream in = socket.getInputStream();
            String response = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            if (response.isEmpty()) {
                throw new IOException("the server closed the connection without an answer to " + requestHead);
            }
            int end = response.indexOf("\r\n\r\n");
            return new RawHttp(
                    Integer.parseInt(response.substring(9, 12)),
                    response.substring(0, end),
                    response.substring(end + 4));
        }
    }

    /** A GET from a plain client: the Host a browser would send for this server. */
    static RawHttp get(InetSocketAddress server, String path) throws IOException {
        return send(server, "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + server.getPort(), "");
    }

    Optional<String> header(String name) {
        return head.lines()
                .filter(l -> l.toLowerCase(Locale.ROOT).startsWith(name.toLowerCase(Locale.ROOT) + ":"))
                .map(l -> l.substring(name.length() + 1).strip())
                .findFirst();
    }
}

package io.kcscale.lab.chaos;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A TCP forwarder between one client process and a broker listener, which a benchmark cuts and restores: cut, it
 * drops every connection it carries and closes each new one at once, as a network partition the client's side
 * notices; restored, it forwards again. Bytes are relayed as they come, a thread per direction.
 */
public final class TcpProxy implements AutoCloseable {

    private static final int CONNECT_TIMEOUT_MS = 5_000;

    private final InetSocketAddress upstream;
    private final ServerSocket server;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "kcscale-tcp-proxy");
        t.setDaemon(true);
        return t;
    });
    private volatile boolean cut;
    private volatile boolean closed;

    /** Listens on {@code port} of the loopback address, forwarding to {@code upstreamPort} there. */
    public TcpProxy(int port, int upstreamPort) {
        InetAddress loopback = InetAddress.getLoopbackAddress();
        this.upstream = new InetSocketAddress(loopback, upstreamPort);
        try {
            this.server = new ServerSocket(port, 50, loopback);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot listen on port " + port + " for a proxy", e);
        }
        threads.execute(this::accept);
    }

    public int port() {
        return server.getLocalPort();
    }

    /** Drops every connection and refuses new ones until {@link #restore}. */
    public void cut() {
        cut = true;
        open.forEach(this::drop);
    }

    public void restore() {
        cut = false;
    }

    private void accept() {
        while (!closed) {
            Socket client;
            try {
                client = server.accept();
            } catch (IOException e) {
                return;
            }
            if (cut) {
                drop(client);
                continue;
            }
            threads.execute(() -> connect(client));
        }
    }

    private void connect(Socket client) {
        Socket broker = new Socket();
        try {
            broker.connect(upstream, CONNECT_TIMEOUT_MS);
        } catch (IOException e) {
            drop(client);
            drop(broker);
            return;
        }
        open.add(client);
        open.add(broker);
        if (cut) {
            // cut while this one connected
            drop(client);
            drop(broker);
        }
        threads.execute(() -> relay(client, broker));
        relay(broker, client);
    }

    private void relay(Socket from, Socket to) {
        byte[] buffer = new byte[16 * 1024];
        try (InputStream in = from.getInputStream();
                OutputStream out = to.getOutputStream()) {
            for (int n; (n = in.read(buffer)) >= 0; ) {
                out.write(buffer, 0, n);
            }
        } catch (SocketException e) {
            // closed by a cut, or by either side: the other direction ends with it
        } catch (IOException e) {
            // as above: a relay ends when either socket does
        } finally {
            drop(from);
            drop(to);
        }
    }

    private void drop(Socket s) {
        open.remove(s);
        try {
            s.close();
        } catch (IOException ignored) {
            // already closed: nothing left to release
        }
    }

    @Override
    public void close() {
        closed = true;
        try {
            server.close();
        } catch (IOException ignored) {
            // already closed: nothing left to release
        }
        cut();
        threads.shutdownNow();
    }
}

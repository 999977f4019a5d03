package io.kcscale.local;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

/** Resolves the ports a stack will use: 0 becomes a free port, a fixed port must be free. */
public final class Ports {

    private final List<ServerSocket> held = new ArrayList<>();

    /**
     * The port to use for {@code what}. Free ports stay reserved until {@link #release()}, so two
     * components never draw the same one.
     */
    public int resolve(int requested, String what, String flag) {
        try {
            ServerSocket socket = new ServerSocket(requested, 50, InetAddress.getLoopbackAddress());
            socket.setReuseAddress(true);
            held.add(socket);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalArgumentException("port " + requested + " (" + what + ") is in use: pass " + flag
                    + " with another port, or stop what holds it");
        }
    }

    public void release() {
        for (ServerSocket s : held) {
            try {
                s.close();
            } catch (IOException ignored) {
                // closing a listening socket we own cannot lose anything
            }
        }
        held.clear();
    }
}

package io.kcscale.scaler.cli;

import io.kcscale.scaler.api.ApiServer;
import io.kcscale.scaler.api.OpenApiRoutes;
import io.kcscale.scaler.predict.Inputs;
import io.kcscale.scaler.predict.InvalidInputException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.concurrent.Callable;

/** {@code kcscale serve}: runs the REST API until the process is stopped (SIGTERM or Ctrl-C stop it cleanly). */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = "Run the scaler's REST API (OpenAPI document at /openapi.json) until stopped.")
public final class ServeCommand implements Callable<Integer> {

    @Option(names = "--port", paramLabel = "<port>",
            description = "TCP port; 0 picks a free one (default: " + ApiServer.DEFAULT_PORT + ").")
    String port;

    @Option(names = "--bind", paramLabel = "<address>",
            description = "Address to listen on (default: " + ApiServer.DEFAULT_BIND + ", this machine only).")
    String bind = ApiServer.DEFAULT_BIND;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        InetSocketAddress address;
        try {
            address = new InetSocketAddress(InetAddress.getByName(bind), port());
        } catch (InvalidInputException e) {
            return ErrorLine.print(spec, e.describe(Flags::of), spec.exitCodeOnInvalidInput());
        } catch (UnknownHostException e) {
            return ErrorLine.print(spec, "--bind " + bind + " is not a known address", spec.exitCodeOnInvalidInput());
        }
        ApiServer server;
        try {
            server = ApiServer.start(address);
        } catch (IOException e) {
            // typically the port is taken or the address is not this machine's
            return ErrorLine.print(spec, "cannot listen on " + bind + ":" + address.getPort() + ": " + e.getMessage(),
                    spec.exitCodeOnExecutionException());
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            spec.commandLine().getOut().println("kcscale API stopped");
            spec.commandLine().getOut().flush();
        }, "kcscale-api-stop"));
        PrintWriter out = spec.commandLine().getOut();
        out.println("kcscale API listening on http://" + server.address().getHostString() + ":"
                + server.address().getPort() + " (OpenAPI document: " + OpenApiRoutes.PATH + ")");
        out.flush();
        server.awaitClosed();
        return 0;
    }

    private int port() {
        Double value = Inputs.parse("port", port);
        if (value == null) {
            return ApiServer.DEFAULT_PORT;
        }
        if (!(value >= 0 && value <= 65_535 && value == Math.rint(value))) {
            throw new InvalidInputException("port", "must be a whole number from 0 to 65535, got " + port);
        }
        return value.intValue();
    }
}

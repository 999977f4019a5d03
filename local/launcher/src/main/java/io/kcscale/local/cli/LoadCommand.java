package io.kcscale.local.cli;

import io.kcscale.scaler.connect.ConnectRestClient;
import io.kcscale.scaler.connect.ConnectRestException;
import io.kcscale.scaler.connect.ConnectorChange;
import io.kcscale.scaler.poll.PollTimeoutException;
import java.io.PrintWriter;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code kcscale load --rate R ...}: changes the running datagen source without restarting anything.
 * One read-modify-write of its config through Connect's REST API: Connect validates the whole config
 * and applies all of it or none, so a rejected change leaves the source as it was.
 */
@Command(
        name = "load",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Change the load the running datagen source produces: total rate, arrivals, key field,",
            "key cardinality. Kafka Connect validates the change and applies all of it or nothing."
        })
final class LoadCommand implements Callable<Integer> {

    private static final Duration RUNNING_TIMEOUT = Duration.ofSeconds(60);

    @Option(
            names = "--rate",
            required = true,
            paramLabel = "R",
            description = "Records/s in total, split evenly over the source's tasks (rate.per.task = R / tasks.max).")
    String rate;

    @Option(names = "--arrivals", paramLabel = "A", description = "steady, poisson or bursts (unchanged if not given).")
    String arrivals;

    @Option(names = "--keyfield", paramLabel = "F", description = "Field of the record used as key (schema.keyfield).")
    String keyField;

    @Option(
            names = "--key-cardinality",
            paramLabel = "K",
            description = "Caps the distinct keys at K (key.cardinality).")
    String keyCardinality;

    @Option(
            names = "--connect-url",
            paramLabel = "URL",
            defaultValue = "http://127.0.0.1:8083",
            description = "Kafka Connect's REST API (default: ${DEFAULT-VALUE}).")
    URI connectUrl;

    @Option(
            names = "--connector",
            paramLabel = "NAME",
            defaultValue = "stocks-datagen",
            description = "The datagen source connector (default: ${DEFAULT-VALUE}).")
    String connector;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        double total;
        try {
            total = Double.parseDouble(rate.trim());
        } catch (NumberFormatException e) {
            total = Double.NaN;
        }
        if (!(total > 0) || Double.isInfinite(total)) {
            return error("--rate must be a positive number of records/s, got " + rate, spec.exitCodeOnInvalidInput());
        }
        ConnectRestClient connect = new ConnectRestClient(connectUrl);
        Map<String, String> before;
        try {
            before = connect.connectorConfig(connector);
        } catch (ConnectRestException.ConnectorNotFound e) {
            return error(
                    "Kafka Connect at " + connectUrl + " has no connector " + connector
                            + ": --connector names the datagen source to change",
                    1);
        } catch (ConnectRestException e) {
            return error(e.getMessage() + " (is the stack up? --connect-url names Kafka Connect)", 1);
        }
        int tasks;
        try {
            tasks = ConnectorChange.tasksMax(before);
        } catch (NumberFormatException e) {
            return error(
                    connector + " has a tasks.max that is not a number (" + before.get("tasks.max")
                            + "); nothing was changed",
                    1);
        }
        Map<String, String> after = new LinkedHashMap<>(before);
        after.put("rate.per.task", String.valueOf(total / tasks));
        putIfGiven(after, "arrivals", arrivals);
        putIfGiven(after, "schema.keyfield", keyField);
        putIfGiven(after, "key.cardinality", keyCardinality);
        try {
            new ConnectorChange(connect, RUNNING_TIMEOUT).put(connector, after, tasks);
        } catch (ConnectRestException e) {
            return error("Kafka Connect rejected the change, nothing was changed: " + e.getMessage(), 1);
        } catch (PollTimeoutException e) {
            return error("the new config is in place but " + e.getMessage(), 1);
        }
        PrintWriter out = spec.commandLine().getOut();
        out.printf(
                Locale.ROOT,
                "%s now produces %s records/s in total (%d task%s at %s/s)%n",
                connector,
                number(total),
                tasks,
                tasks == 1 ? "" : "s",
                number(total / tasks));
        after.forEach((key, value) -> {
            if (!Objects.equals(before.get(key), value)) {
                out.printf("  %s: %s -> %s%n", key, before.getOrDefault(key, "(unset)"), value);
            }
        });
        out.flush();
        return 0;
    }

    /** One line on stderr naming the command, as every verb reports a failure; returns the exit code. */
    private int error(String message, int exitCode) {
        spec.commandLine().getErr().println(spec.qualifiedName() + ": " + message);
        spec.commandLine().getErr().flush();
        return exitCode;
    }

    private static void putIfGiven(Map<String, String> config, String key, String value) {
        if (value != null) {
            config.put(key, value.trim());
        }
    }

    private static String number(double value) {
        return value == Math.rint(value) ? String.valueOf((long) value) : String.format(Locale.ROOT, "%.2f", value);
    }
}

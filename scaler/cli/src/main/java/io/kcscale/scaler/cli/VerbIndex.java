package io.kcscale.scaler.cli;

import java.util.List;
import picocli.CommandLine.Help;

/**
 * The command list of {@code kcscale --help}: every verb of the one tool, grouped, one line each. The script runs
 * {@code up}, {@code down} and {@code load} in the launcher's JVM, {@code bench} and {@code experiment} in the lab's
 * and {@code serve} in the service's, none of which this JVM can load, and runs {@code build}, {@code test} and
 * {@code dist} itself; so this index, not picocli's list of the verbs
 * registered here, names them all. Each verb's own {@code --help} says the rest. The release's script (dist/) runs
 * only the scaler's verbs and says so with the system property {@value #RELEASE_PROPERTY}: its help lists no verb of a
 * checkout's local stack or lab.
 */
final class VerbIndex {

    record Verb(String name, String summary) {}

    /** {@code checkoutOnly}: the verbs run from a checkout of the source only, not from the release. */
    record Group(String title, List<Verb> verbs, boolean checkoutOnly) {

        Group(String title, List<Verb> verbs) {
            this(title, verbs, false);
        }
    }

    /** Set (to {@code true}) by the release's {@code bin/kcscale}. */
    static final String RELEASE_PROPERTY = "kcscale.release";

    static final List<Group> GROUPS = List.of(
            new Group(
                    "Local stack (this machine)",
                    List.of(
                            new Verb("up", "Start Kafka, Elasticsearch and Connect with the sample pipeline"),
                            new Verb("down", "Stop a stack started with `up --detach`"),
                            new Verb("load", "Change the load the running datagen source produces")),
                    true),
            new Group(
                    "Lab (each run on a stack of its own)",
                    List.of(
                            new Verb("bench", "Run a benchmark and print its figures"),
                            new Verb("experiment", "Measure, keeping results, report and charts in experiments/")),
                    true),
            new Group("Scaler service", List.of(new Verb("serve", "Run the scaler's REST API until stopped"))),
            new Group(
                    "Live verbs (through the scaler's REST API)",
                    List.of(
                            new Verb("status", "Show a sink connector's tasks, rates, lag and stability"),
                            new Verb("check", "Run the scaling checks on a sink connector"),
                            new Verb("scale", "Set a sink connector's tasks.max, the rules checked first"),
                            new Verb("autoscale", "Autoscale a sink connector by lag and idle tasks, or stop"),
                            new Verb("decisions", "Show the autoscaler's latest decisions and their reasons"))),
            new Group(
                    "Predictions (no pipeline needed)",
                    List.of(new Verb("predict", "Predict tasks, Kafka brokers, lag thresholds, shards, workers"))),
            new Group(
                    "This checkout (./kcscale only)",
                    List.of(
                            new Verb("build", "Rebuild everything with Maven, tests skipped"),
                            new Verb("test", "Install the test prerequisites, then run every test"),
                            new Verb("dist", "Build the release, kcscale-VERSION.tar.gz")),
                    true),
            new Group("Help", List.of(new Verb("help", "Show a verb's options (or: kcscale VERB --help)"))));

    private VerbIndex() {}

    /** The section, in place of picocli's list of registered verbs. */
    static String render(Help help) {
        boolean release = Boolean.getBoolean(RELEASE_PROPERTY);
        StringBuilder text = new StringBuilder();
        for (Group group : GROUPS) {
            if (release && group.checkoutOnly()) {
                continue;
            }
            text.append(String.format("  %s:%n", group.title()));
            group.verbs().forEach(verb -> text.append(String.format("    %-11s %s%n", verb.name(), verb.summary())));
        }
        return text.toString();
    }
}

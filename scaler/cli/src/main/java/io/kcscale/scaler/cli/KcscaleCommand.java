package io.kcscale.scaler.cli;

import io.kcscale.scaler.common.KcscaleVersion;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.UsageMessageSpec;

/**
 * The {@code kcscale} command line. Each verb is its own class, registered here; {@code up},
 * {@code down} and {@code load} belong to the local launcher, {@code bench} and {@code experiment} to the lab and
 * {@code serve} to the scaler service: the {@code kcscale} script dispatches those to their own JVMs, and
 * {@link VerbIndex} lists them in {@code --help} beside these.
 * <p>
 * A run from the shell registers only the verb it names ({@link #newCommandLineFor(String[])}): picocli
 * reflects over every registered verb, and a {@code predict} or a {@code status} needs none of the others.
 */
@Command(
        name = "kcscale",
        mixinStandardHelpOptions = true,
        versionProvider = KcscaleVersion.class,
        description = "Scale Kafka Connect sink pipelines into Elasticsearch.")
public final class KcscaleCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a verb is required");
    }

    /** The verbs this JVM runs. */
    private static final List<String> VERBS =
            List.of("help", "status", "check", "scale", "autoscale", "decisions", "predict");

    public static void main(String[] args) {
        System.exit(newCommandLineFor(args).execute(args));
    }

    /** The configured command line with every verb; tests run verbs through this without exiting the JVM. */
    public static CommandLine newCommandLine() {
        CommandLine cli = root();
        VERBS.forEach(verb -> cli.addSubcommand(verb(verb)));
        return cli;
    }

    /**
     * The command line for these arguments: with only their verb when they start with one (its usage,
     * errors and exit codes are the same either way), else with every verb, for help and for picocli's
     * "did you mean" on a mistyped verb.
     */
    public static CommandLine newCommandLineFor(String[] args) {
        if (args.length == 0 || "help".equals(args[0]) || !VERBS.contains(args[0])) {
            return newCommandLine();
        }
        return root().addSubcommand(verb(args[0]));
    }

    private static CommandLine root() {
        CommandLine root = new CommandLine(new KcscaleCommand());
        root.getHelpSectionMap().put(UsageMessageSpec.SECTION_KEY_COMMAND_LIST, VerbIndex::render);
        return root;
    }

    /** One verb's command object; a switch, so that naming a verb loads no other verb's class. */
    private static Object verb(String name) {
        switch (name) {
            case "help":
                return new CommandLine.HelpCommand();
            case "status":
                return new StatusCommand();
            case "check":
                return new CheckCommand();
            case "scale":
                return new ScaleCommand();
            case "autoscale":
                return new AutoscaleCommand();
            case "decisions":
                return new DecisionsCommand();
            case "predict":
                return new PredictCommand();
            default:
                throw new IllegalArgumentException("no verb " + name);
        }
    }
}

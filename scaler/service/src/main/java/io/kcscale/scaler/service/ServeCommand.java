package io.kcscale.scaler.service;

import io.kcscale.scaler.api.ApiAccess;
import io.kcscale.scaler.api.ApiServer;
import io.kcscale.scaler.api.OpenApiRoutes;
import io.kcscale.scaler.common.ErrorLine;
import io.kcscale.scaler.common.KcscaleVersion;
import io.kcscale.scaler.common.Secret;
import io.kcscale.scaler.input.Flags;
import io.kcscale.scaler.input.Inputs;
import io.kcscale.scaler.input.InvalidInputException;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Help;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * {@code kcscale serve}: runs the REST API until the process is stopped (SIGTERM or Ctrl-C stop it cleanly). Its
 * settings' flags are made from {@link Setting}; only {@code --config}, {@code --port} and {@code --bind} are its own.
 */
@Command(
        name = "serve",
        mixinStandardHelpOptions = true,
        versionProvider = KcscaleVersion.class,
        sortOptions = false,
        description = {
            "Run the scaler's REST API (OpenAPI document at /openapi.json) until stopped.",
            "With a pipeline's Connect URL, bootstrap servers and Elasticsearch URL it observes every sink",
            "connector and can scale them; without, it answers predictions only."
        },
        footer = {
            "",
            "Each setting is a flag, a key of the --config file and, for a secret, an environment variable; "
                    + "the environment wins over the file and a flag over both. A secret may also come from a file "
                    + "(--FLAG-file, or the key KEY.file), so that ps does not show it."
        })
public final class ServeCommand implements Callable<Integer> {

    @Option(
            names = "--config",
            paramLabel = "FILE",
            description =
                    "Settings file (properties): each setting below by its key, e.g. kafka.bootstrap.servers=HOSTS.")
    Path config;

    @Option(
            names = "--port",
            paramLabel = "<port>",
            description = "TCP port; 0 picks a free one (default: " + ApiServer.DEFAULT_PORT + ").")
    String port;

    @Option(
            names = "--bind",
            paramLabel = "<address>",
            description = "Address to listen on (default: " + ApiServer.DEFAULT_BIND + ", this machine only).")
    String bind = ApiServer.DEFAULT_BIND;

    CommandSpec spec;

    /** The settings the flags gave, key → value, in the order given: a later one replaces an earlier. */
    private final List<Map.Entry<String, String>> flagged = new ArrayList<>();
    /** The items of the list settings the flags gave, by key: they replace the file's list. */
    private final Map<String, List<String>> listed = new LinkedHashMap<>();
    /** One line per earlier spelling used. */
    private final Set<String> deprecations = new LinkedHashSet<>();
    /** The setting behind each generated flag, for the grouped help. */
    private final Map<OptionSpec, Setting> settingOf = new IdentityHashMap<>();

    /**
     * {@code kcscale serve} in a JVM of its own: the script and the launcher start it on the service's classpath, which
     * the CLI's lacks. The arguments start with {@code serve}, under a {@code kcscale} root, so its usage and errors read
     * {@code kcscale serve ...} as from the CLI's root.
     */
    public static void main(String[] args) {
        System.exit(newCommandLine().execute(args));
    }

    /** {@code kcscale} with this one verb; tests run it through this without exiting the JVM. */
    public static CommandLine newCommandLine() {
        return new CommandLine(CommandSpec.create().name("kcscale")).addSubcommand("serve", new CommandLine(newSpec()));
    }

    /** The verb: its own options, and one flag per setting (and its file flag, for a secret) from {@link Setting}. */
    public static CommandSpec newSpec() {
        ServeCommand serve = new ServeCommand();
        CommandSpec spec = CommandSpec.forAnnotatedObject(serve);
        serve.spec = spec;
        for (Setting s : Setting.values()) {
            serve.add(s, s.flag(), s.key(), s.label(), false, describe(s));
            s.oldFlags().forEach(old -> serve.add(s, old, s.key(), s.label(), true));
            if (s.secret()) {
                serve.add(
                        s,
                        s.fileFlag(),
                        s.fileKey(),
                        "FILE",
                        false,
                        "A file holding " + s.key() + ", not shown by ps.",
                        "Key: " + s.fileKey() + ".");
                s.oldFlags().forEach(old -> serve.add(s, old + "-file", s.fileKey(), "FILE", true));
            }
        }
        spec.usageMessage()
                .sectionMap()
                .put(CommandLine.Model.UsageMessageSpec.SECTION_KEY_OPTION_LIST, serve::optionList);
        // the settings' flags are listed by group below; a synopsis of all of them would be a wall
        spec.usageMessage()
                .width(HELP_WIDTH)
                .customSynopsis(
                        "kcscale serve [-hV] [--config=FILE] [--port=<port>] [--bind=<address>] [SETTING FLAGS...]");
        return spec;
    }

    /** Wide enough that most keys are not broken at a dot. */
    private static final int HELP_WIDTH = 110;

    /** What the setting is, then its key, default and environment variable on a line of their own. */
    private static String[] describe(Setting s) {
        String what = Character.toUpperCase(s.description().charAt(0))
                + s.description().substring(1) + ".";
        String key = switch (s.kind()) {
            case FAMILY ->
                "Repeatable. Key: " + s.named().substring(0, s.named().indexOf(' '));
            case LIST -> "Repeatable. Key: " + s.key() + " (comma-separated)";
            default -> "Key: " + s.key();
        };
        String defaults = s.defaults().equals("none") ? "" : "; default: " + s.defaults();
        String environment = s.environment().map(e -> "; or $" + e).orElse("");
        return new String[] {what, key + defaults + environment + "."};
    }

    /**
     * A flag of {@code setting} that sets {@code key}; a hidden one is an earlier spelling, read with a deprecation line.
     * The flags consume their own value, so that a setting given twice keeps the later value as a settings file would.
     */
    private void add(Setting setting, String flag, String key, String label, boolean hidden, String... description) {
        OptionSpec option = OptionSpec.builder(flag)
                .paramLabel(label)
                .arity("1")
                .type(String.class)
                .hidden(hidden)
                .description(description)
                .parameterConsumer((args, argSpec, commandSpec) -> {
                    if (args.isEmpty()) {
                        throw new ParameterException(
                                commandSpec.commandLine(),
                                "Missing required parameter for option '" + flag + "' (" + label + ")");
                    }
                    give(setting, key, flag, args.pop());
                    if (hidden) {
                        deprecations.add(flag + " is deprecated: use "
                                + (key.endsWith(Secret.FILE_SUFFIX) ? setting.fileFlag() : setting.flag()));
                    }
                })
                .build();
        spec.addOption(option);
        settingOf.put(option, setting);
    }

    private void give(Setting setting, String key, String flag, String value) {
        switch (setting.kind()) {
            case FAMILY -> {
                int eq = value.indexOf('=');
                if (eq <= 0) {
                    throw new ParameterException(
                            spec.commandLine(), flag + " takes " + setting.label() + ", got " + value);
                }
                flagged.add(Map.entry(key + value.substring(0, eq), value.substring(eq + 1)));
            }
            case LIST -> listed.computeIfAbsent(key, k -> new ArrayList<>()).add(value);
            default -> flagged.add(Map.entry(key, value));
        }
    }

    /** serve's own options, then the settings' flags under their groups' titles. */
    private String optionList(Help help) {
        StringBuilder out = new StringBuilder(layout(
                help,
                spec.options().stream().filter(o -> !settingOf.containsKey(o)).toList()));
        for (Setting.Group group : Setting.Group.values()) {
            out.append(String.format("%n%s:%n", group.title()));
            out.append(layout(
                    help,
                    spec.options().stream()
                            .filter(o -> !o.hidden()
                                    && settingOf.get(o) != null
                                    && settingOf.get(o).group() == group)
                            .toList()));
        }
        return out.toString();
    }

    private static String layout(Help help, List<OptionSpec> options) {
        Help.Layout layout = help.createDefaultLayout();
        options.forEach(o -> layout.addOption(o, help.createDefaultParamLabelRenderer()));
        return layout.toString();
    }

    @Override
    public Integer call() throws InterruptedException {
        Map<String, String> values;
        try {
            values = values(System.getenv());
        } catch (IllegalArgumentException e) {
            warnDeprecated();
            return ErrorLine.print(spec, e.getMessage(), spec.exitCodeOnInvalidInput());
        }
        warnDeprecated();
        InetSocketAddress address;
        try {
            address = new InetSocketAddress(InetAddress.getByName(bind), port());
        } catch (InvalidInputException e) {
            return ErrorLine.print(spec, e.describe(Flags::of), spec.exitCodeOnInvalidInput());
        } catch (UnknownHostException e) {
            return ErrorLine.print(spec, "--bind " + bind + " is not a known address", spec.exitCodeOnInvalidInput());
        }
        Optional<ScalerService> service;
        ApiAccess access;
        try {
            access = new ApiAccess(
                    Set.copyOf(list(values, Setting.ALLOWED_ORIGINS)), Set.copyOf(list(values, Setting.ALLOWED_HOSTS)));
            if (!address.getAddress().isLoopbackAddress()
                    && Secret.of(values, Setting.TOKEN.key()).isEmpty()) {
                return ErrorLine.print(
                        spec,
                        "--bind " + bind + " lets other machines call the scaler: give it a token with "
                                + Setting.TOKEN.fileFlag() + " FILE or "
                                + Setting.TOKEN.environment().orElseThrow()
                                + " (callers send Authorization: Bearer <token>)",
                        spec.exitCodeOnInvalidInput());
            }
            service = connectedService(values);
        } catch (IllegalArgumentException e) {
            return ErrorLine.print(spec, e.getMessage(), spec.exitCodeOnInvalidInput());
        }
        // each on its own line, and the scaler serves on: the status names the same problems until they are fixed
        service.map(ScalerService::start)
                .orElse(List.of())
                .forEach(problem -> spec.commandLine().getErr().println(spec.qualifiedName() + ": " + problem));
        spec.commandLine().getErr().flush();
        ApiServer server;
        try {
            server = ApiServer.start(address, service, access);
        } catch (IOException e) {
            // typically the port is taken or the address is not this machine's
            return ErrorLine.print(
                    spec,
                    "cannot listen on " + bind + ":" + address.getPort() + ": " + e.getMessage(),
                    spec.exitCodeOnExecutionException());
        }
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            server.close();
                            service.ifPresent(ServeCommand::closeQuietly);
                            spec.commandLine().getOut().println("kcscale API stopped");
                            spec.commandLine().getOut().flush();
                        },
                        "kcscale-api-stop"));
        PrintWriter out = spec.commandLine().getOut();
        out.println("kcscale API listening on http://" + server.address().getHostString() + ":"
                + server.address().getPort() + " (OpenAPI document: " + OpenApiRoutes.PATH + ")"
                + service.map(s -> "; observing " + s.settings().connectUrl())
                        .orElse("; predictions only: no pipeline given"));
        out.flush();
        server.awaitClosed();
        return 0;
    }

    /** The service for the pipeline the values name; none when they name no pipeline at all. */
    private static Optional<ScalerService> connectedService(Map<String, String> values) {
        boolean namesAPipeline = Setting.pipeline().stream().anyMatch(s -> values.containsKey(s.key()));
        return namesAPipeline ? Optional.of(new ScalerService(ScalerSettings.fromValues(values))) : Optional.empty();
    }

    /** The settings file's values, with secrets from {@code environment} over them, and the flags over both. */
    Map<String, String> values(Map<String, String> environment) {
        Map<String, String> values = new TreeMap<>(config == null ? Map.of() : ScalerSettings.readFile(config));
        for (Setting secret : Setting.secrets()) {
            String variable = secret.environment().orElseThrow();
            Optional<String> old = secret.oldEnvironment().filter(o -> isSet(environment.get(o)));
            if (!isSet(environment.get(variable)) && old.isPresent()) {
                deprecations.add(old.get() + " is deprecated: use " + variable);
                variable = old.get();
            }
            put(values, secret.key(), environment.get(variable));
        }
        flagged.forEach(e -> put(values, e.getKey(), e.getValue()));
        listed.forEach((key, items) -> values.put(key, String.join(",", items)));
        return values;
    }

    private void warnDeprecated() {
        deprecations.forEach(line -> spec.commandLine().getErr().println(spec.qualifiedName() + ": " + line));
        spec.commandLine().getErr().flush();
    }

    private static boolean isSet(String value) {
        return value != null && !value.isBlank();
    }

    /** Sets {@code key}; a secret and its file replace each other, so that the later source wins. */
    private static void put(Map<String, String> values, String key, String value) {
        if (!isSet(value)) {
            return;
        }
        values.put(key, value);
        Setting setting = Setting.ofKey(key).orElseThrow();
        if (setting.secret()) {
            values.remove(key.equals(setting.key()) ? setting.fileKey() : setting.key());
        }
    }

    private static List<String> list(Map<String, String> values, Setting setting) {
        return Arrays.stream(values.getOrDefault(setting.key(), "").split(","))
                .map(String::strip)
                .filter(v -> !v.isEmpty())
                .toList();
    }

    private static void closeQuietly(ScalerService service) {
        try {
            service.close();
        } catch (IOException ignored) {
            // the process is ending; nothing is lost by a client that did not close cleanly
        }
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

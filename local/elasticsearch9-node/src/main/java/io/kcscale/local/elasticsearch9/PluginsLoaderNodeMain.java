package io.kcscale.local.elasticsearch9;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.function.Supplier;

/**
 * Runs one single-node Elasticsearch 9 (JDK 21+) or 8.19 cluster in this JVM until the process is told to
 * stop: both build a node from a {@code PluginsLoader}, unlike 7.17 ({@code local/elasticsearch-node}).
 *
 * <p>Usage: {@code PluginsLoaderNodeMain <home dir> <http port> <transport port> <modules dir>}; the modules
 * directory holds {@code transport-netty4} (the HTTP server) as the build staged it. Elasticsearch 9 is
 * Java 21 bytecode and the build compiles with JDK 17, so its classes are reached by reflection, the
 * same steps its own bootstrap takes minus the CLI's checks, native access and entitlements.
 */
public final class PluginsLoaderNodeMain {

    private PluginsLoaderNodeMain() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 4) {
            System.err.println("usage: PluginsLoaderNodeMain <home dir> <http port> <transport port> <modules dir>");
            System.exit(2);
        }
        Path home = Path.of(args[0]).toAbsolutePath();
        Files.createDirectories(home.resolve("data"));
        Files.createDirectories(home.resolve("logs"));
        Files.createDirectories(home.resolve("config"));
        // Elasticsearch's logging facade has no provider until this is called
        call("org.elasticsearch.common.logging.LogConfigurator", "configureESLogging", new Class<?>[0]);
        Object settings = settings(Map.of(
                "path.home",
                home.toString(),
                "path.data",
                home.resolve("data").toString(),
                "path.logs",
                home.resolve("logs").toString(),
                "cluster.name",
                "kcscale",
                "node.name",
                "kcscale-es-0",
                "network.host",
                "127.0.0.1",
                "http.port",
                args[1],
                "transport.port",
                args[2],
                "discovery.type",
                "single-node",
                // a nearly full disk (a CI machine) would otherwise turn indices read-only mid-test
                "cluster.routing.allocation.disk.threshold_enabled",
                "false"));
        Class<?> settingsClass = Class.forName("org.elasticsearch.common.settings.Settings");
        Object environment = call(
                "org.elasticsearch.node.InternalSettingsPreparer",
                "prepareEnvironment",
                new Class<?>[] {settingsClass, Map.class, Path.class, Supplier.class},
                settings,
                Map.of(),
                home.resolve("config"),
                (Supplier<String>) () -> "kcscale-es-0");
        Class<?> loaderClass = Class.forName("org.elasticsearch.plugins.PluginsLoader");
        Object modules =
                call(loaderClass.getName(), "loadModulesBundles", new Class<?>[] {Path.class}, Path.of(args[3]));
        // false: no qualified exports of a modular server; this one runs on the class path
        Object plugins = call(
                loaderClass.getName(),
                "createPluginsLoader",
                new Class<?>[] {Set.class, Set.class, Map.class, boolean.class},
                modules,
                Set.of(),
                Map.of(),
                false);
        Class<?> nodeClass = Class.forName("org.elasticsearch.node.Node");
        Constructor<?> constructor =
                nodeClass.getConstructor(Class.forName("org.elasticsearch.env.Environment"), loaderClass);
        Object node = constructor.newInstance(environment, plugins);

        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            try {
                                nodeClass.getMethod("close").invoke(node);
                            } catch (ReflectiveOperationException e) {
                                e.printStackTrace();
                            } finally {
                                stopped.countDown();
                            }
                        },
                        "elasticsearch-shutdown"));
        nodeClass.getMethod("start").invoke(node);
        System.out.println("kcscale: elasticsearch node started on http://127.0.0.1:" + args[1]);
        stopped.await();
    }

    private static Object settings(Map<String, String> values) throws ReflectiveOperationException {
        Object builder = call("org.elasticsearch.common.settings.Settings", "builder", new Class<?>[0]);
        Method put = builder.getClass().getMethod("put", String.class, String.class);
        for (Map.Entry<String, String> e : values.entrySet()) {
            put.invoke(builder, e.getKey(), e.getValue());
        }
        return builder.getClass().getMethod("build").invoke(builder);
    }

    private static Object call(String className, String method, Class<?>[] types, Object... args)
            throws ReflectiveOperationException {
        try {
            return Class.forName(className).getMethod(method, types).invoke(null, args);
        } catch (InvocationTargetException e) {
            throw new IllegalStateException(className + "." + method + " failed: " + e.getCause(), e.getCause());
        }
    }
}

package io.kcscale.tests;

import java.nio.file.Path;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

import io.kcscale.local.LocalStack;
import io.kcscale.local.StackOptions;

/**
 * One real stack for the whole test run, started through the launcher on free ports with two
 * Connect workers: end-to-end tests share it (a stack takes ~15 s to start on two cores) and are
 * written so that each leaves it in a state the next can start from. Stopped when the run ends.
 */
public final class SharedStack implements ParameterResolver {

    /** Records the source produces at start; tests that need more raise {@code iterations}. */
    public static final int INITIAL_RECORDS = 3000;

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == LocalStack.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL)
                .getOrComputeIfAbsent(Running.class, k -> new Running(), Running.class).stack;
    }

    /** Stops the shared stack now, if it runs; a later test that asks for it gets a fresh one. */
    static void release(ExtensionContext context) {
        Running running = context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL).remove(Running.class, Running.class);
        if (running != null) {
            running.close();
        }
    }

    private static final class Running implements ExtensionContext.Store.CloseableResource {
        final LocalStack stack;

        Running() {
            Path home = Path.of(System.getProperty("kcscale.home", "..")).toAbsolutePath().normalize();
            StackOptions options = StackOptions.builder(home)
                    .dataDir(home.resolve("tests/target/e2e-stack"))
                    .freePorts()
                    .fresh(true)
                    .workers(2)
                    .partitions(20)
                    .ratePerSecond(1000)
                    .iterations(INITIAL_RECORDS)
                    // as `up --prometheus`: the JMX exporter on the workers and Prometheus with configs/prometheus/
                    .prometheus(true)
                    .build();
            stack = LocalStack.start(options, m -> System.out.println("[stack] " + m));
        }

        @Override
        public void close() {
            stack.stop();
        }
    }
}

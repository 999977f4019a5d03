package io.kcscale.local.cli;

import io.kcscale.local.LocalStack;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(
        name = "down",
        mixinStandardHelpOptions = true,
        description = "Stop a stack started with `up --detach` (workers first, then Elasticsearch and Kafka).")
final class DownCommand implements Callable<Integer> {

    @Mixin
    DataDirOption data = new DataDirOption();

    @Override
    public Integer call() {
        boolean stopped = LocalStack.stopRecorded(data.resolve(), m -> System.err.println("kcscale: " + m));
        System.out.println(stopped ? "kcscale: stack stopped" : "kcscale: no stack runs from " + data.resolve());
        return 0;
    }
}
